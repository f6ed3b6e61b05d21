"""serve: people play a spec in the browser, each at their own address, against bots."""

from __future__ import annotations

import logging
import signal
import socket
from typing import Optional

import click

from ..cli_options import engine_option, player_count_option, seed_option, spec_argument, variant_option
from ..errors import MidgardcError
from .common import _load_ir
from .group import cli
from .humanplay import SeatsType, open_session_game, seats_help

DEFAULT_PORT = 8000


@cli.command()
@spec_argument
@click.option("--players", "-p", "seats", type=SeatsType(), default=None, metavar="P1,P2,...", help=f"One player per seat, comma-separated: {seats_help().replace('at this terminal; several take turns', 'in a browser, each at their own address')}. Their number picks the player count. Default: human, then random for the other seats.")
@variant_option
@player_count_option
@seed_option
@engine_option("compiled", "The game starts at once on the interpreter and goes on on the compiled engine when it is built (same moves); if it cannot be built, a note says so and the interpreter plays on.")
@click.option("--host", default="127.0.0.1", show_default=True, metavar="ADDRESS", help="Address to listen on (0.0.0.0: every interface, for players on other machines).")
@click.option("--port", type=click.IntRange(0, 65535), default=DEFAULT_PORT, show_default=True, metavar="PORT", help="Port to listen on (0: any free port).")
@click.option("--record", "-r", type=click.Path(dir_okay=False, writable=True), default=None, metavar="FILE.jsonl", help="Write the game as the JSON line 'match --record' writes ('replay --record' checks it); an unfinished game when stopped early.")
@click.pass_context
def serve(ctx: click.Context, spec: str, seats: Optional[list], variant: Optional[str], player_count: Optional[int], seed: int, engine: str, host: str, port: int, record: Optional[str]) -> None:
    """Play a game in the browser: prints one address per human seat (each person opens
    their own; it shows only what that seat sees). A person clicks a piece or cell to see its
    moves and clicks a target; moves off the board are buttons. Bots and rolls play on the
    server. Ctrl-C stops the server."""
    from werkzeug.serving import make_server

    from ..spec.lower import list_player_counts
    from ..web.app import create_app
    from ..web.session import Session

    counts = list_player_counts(spec, variant)
    if seats is None:
        n = player_count or _load_ir(spec, variant, None).n_players
        seats = SeatsType().convert(",".join(["human"] + ["random"] * (n - 1)), None, ctx)
    if player_count is not None and player_count != len(seats):
        raise click.BadParameter(f"--player-count {player_count} but {len(seats)} players were given", param_hint="'--players'")
    if counts and len(seats) not in counts:
        raise click.BadParameter(f"{len(seats)} players were given; {spec} is played by {', '.join(str(c) for c in counts)} players", param_hint="'--players'")
    if not any(s.kind == "human" for s in seats):
        raise click.BadParameter("no human seat: give 'human' for at least one seat (bots alone: 'midgardc match')", param_hint="'--players'")
    game, pending = open_session_game(_load_ir(spec, variant, len(seats) if counts else None), engine)
    session = Session(game, spec, seats, seed=seed, record=record, say=click.echo, pending=pending)
    app = create_app(session)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
    try:  # bound here, so a port in use is our one message (werkzeug would print its own and exit)
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as exc:
        raise MidgardcError(f"cannot listen on {host}:{port}: {exc.strerror or exc}", hint="choose another --port (0: any free port)") from None
    server = make_server(host, port, app, threaded=True, fd=sock.fileno())
    bound = sock.getsockname()[1]  # the port asked for, or the free one --port 0 got
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else f"[{host}]" if ":" in host else host
    ir = game.ir
    click.echo(f"{ir.title}{f' [{game.variant}]' if game.variant else ''}: " + ", ".join(f"{ir.players[s]} {session.labels[s]}" for s in range(ir.n_players)) + f"; seed {seed}")
    for s in session.humans:
        click.echo(f"{ir.players[s]}: http://{shown}:{bound}{session.seat_path(s)}")
    if session.engine_note():
        click.echo(session.engine_note())
    click.echo("Ctrl-C stops the server.")
    previous = signal.signal(signal.SIGTERM, _interrupt)  # 'kill PID' stops it as Ctrl-C does
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        server.server_close()
        sock.close()
        session.stop()
    click.echo("stopped")


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt
