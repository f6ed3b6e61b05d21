"""The Flask application of ``midgardc serve``: a page per human seat, its state, its moves.

Routes (``N`` a seat, ``T`` its secret token; anything else is 404, so a wrong token and a
bot's seat look alike):

* ``GET /``: what this server plays, and that each person has their own address;
* ``GET /seat/N/T``: the seat's page (HTML; the script and style are static files);
* ``GET /seat/N/T/state``: the seat's JSON (``views.seat_payload``);
* ``POST /seat/N/T/move`` with ``{"step": S, "move": "TEXT"}``: plays the move; the answer is
  the new JSON, or a 4xx status with ``{"error": "..."}`` (out of turn, stale, illegal).
  With ``"wait": false`` the answer comes at once, with the move drawn, and the bots reply
  in the background (``thinking`` names who is choosing; the page polls);
* ``POST /seat/N/T/takeback``: the seat's last move and the replies to it are taken back;
* ``POST /seat/N/T/rematch``: once the game is over, a new one with the same seats;
* ``GET /seat/N/T/at/K``: the position after K moves as the seat saw it (review, read-only);
* ``GET /watch``, ``/watch/state``, ``/watch/at/K``: the spectator's page: what is public.

Flask was chosen because its dependencies (Werkzeug, Jinja2, click) are small and two of
them are already ours, it is maintained by the Pallets project, it serves from threads
without an event loop (the engines are synchronous), and its test client drives the app
without a socket.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Flask, abort, jsonify, render_template, request

from .session import MoveRefused
from .views import SPECTATOR, review_payload, seat_payload

if TYPE_CHECKING:  # pragma: no cover
    from .session import Session


MAX_BODY = 64 * 1024  # bytes of a request body: a move is {"step": N, "move": "TEXT"}


def create_app(session: "Session") -> Flask:
    app = Flask(__name__, static_folder="static", template_folder="templates")
    app.json.sort_keys = False  # keep the spec's order of players, counters and zones
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY  # a longer body is 413, never read whole
    ir = session.game.ir

    def seat_or_404(seat: int, token: str) -> int:
        found = session.seat_of(seat, token)
        if found is None:
            abort(404)
        return found

    @app.get("/")
    def index():
        return render_template("index.html", title=ir.title, variant=session.game.variant, players=ir.players)

    @app.get("/seat/<int:seat>/<token>")
    def page(seat: int, token: str):
        seat = seat_or_404(seat, token)
        base = session.seat_path(seat)
        return render_template("seat.html", title=ir.title, variant=session.game.variant, seat_name=ir.players[seat], state_url=f"{base}/state", move_url=f"{base}/move", base_url=base)

    @app.get("/watch")
    def watch():
        return render_template("seat.html", title=ir.title, variant=session.game.variant, seat_name=None, state_url="/watch/state", move_url="", base_url="/watch")

    @app.get("/watch/state")
    def watch_state():
        with session.lock:
            session.refresh()
            return jsonify(seat_payload(session, SPECTATOR))

    @app.get("/watch/at/<int:moves>")
    def watch_at(moves: int):
        return review(SPECTATOR, moves)

    @app.get("/seat/<int:seat>/<token>/at/<int:moves>")
    def seat_at(seat: int, token: str, moves: int):
        return review(seat_or_404(seat, token), moves)

    def review(viewer: int, moves: int):
        with session.lock:
            try:
                return jsonify(review_payload(session, viewer, moves))
            except MoveRefused as exc:
                return jsonify(error=exc.message), exc.status

    @app.post("/seat/<int:seat>/<token>/takeback")
    def takeback(seat: int, token: str):
        return table_action(seat_or_404(seat, token), session.takeback)

    @app.post("/seat/<int:seat>/<token>/rematch")
    def rematch(seat: int, token: str):
        return table_action(seat_or_404(seat, token), lambda _seat: session.rematch())

    def table_action(seat: int, act):
        try:
            act(seat)
        except MoveRefused as exc:
            return jsonify(error=exc.message), exc.status
        with session.lock:
            return jsonify(seat_payload(session, seat))

    @app.get("/seat/<int:seat>/<token>/state")
    def state(seat: int, token: str):
        seat = seat_or_404(seat, token)
        with session.lock:
            session.refresh()  # the compiled engine, if it has become ready
            return jsonify(seat_payload(session, seat))

    @app.post("/seat/<int:seat>/<token>/move")
    def move(seat: int, token: str):
        seat = seat_or_404(seat, token)
        try:
            body = request.get_json(silent=True)
        except RecursionError:  # JSON nested deeper than Python's stack ('silent' covers ValueError only)
            body = None
        if not isinstance(body, dict):
            return jsonify(error='send a JSON object: {"step": N, "move": "TEXT"}'), 400
        try:
            session.play(seat, body.get("step"), body.get("move"), wait=body.get("wait", True) is not False)
        except MoveRefused as exc:
            return jsonify(error=exc.message), exc.status
        with session.lock:
            return jsonify(seat_payload(session, seat))

    @app.errorhandler(404)
    def not_found(_exc):
        return jsonify(error="no such page: each person's address is printed by 'midgardc serve'"), 404

    @app.errorhandler(413)
    def too_large(_exc):
        return jsonify(error=f"the request is too large (at most {MAX_BODY} bytes)"), 413

    @app.errorhandler(405)
    def not_allowed(_exc):
        return jsonify(error="this address does not take that method"), 405

    return app
