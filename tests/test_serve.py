"""``midgardc serve`` without a browser: the Flask app through its test client, the session
(bots and rolls on the server, stale and illegal moves refused), the privacy of what a seat
is sent, the record (replayed by ``replay`` and read by ``report``) and the command line
(bad options, Ctrl-C). The browser plays whole games in test_serve_browser.py."""

from __future__ import annotations

import copy
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import urllib.request
from typing import Any, Optional

import pytest
from click.testing import CliRunner

from conftest import MIDGARD, ROOT
from midgardc.cli import cli
from midgardc.players import PlayerSpec, parse_player
from midgardc.runtime.determinize import determinize
from midgardc.runtime.game import replay
from midgardc.engines import load
from midgardc.runtime.observe import observation, places
from midgardc.runtime.rng import Rng
from midgardc.web.app import create_app
from midgardc.web.session import Session
from midgardc.web.views import move_cells, seat_payload

TTT = str(ROOT / "specs" / "classics" / "tic-tac-toe.yaml")
VIKINGS = str(ROOT / "specs" / "midgard-vikings.yaml")
MERIDIAN = str(ROOT / "specs" / "meridian.yaml")


def _seats(text: str) -> list[PlayerSpec]:
    return [PlayerSpec("human") if p == "human" else parse_player(p) for p in text.split(",")]


def _session(spec: str, players: str, seed: int = 0, variant: Optional[str] = None, count: Optional[int] = None, record: Optional[str] = None) -> Session:
    game = load(spec, variant, engine="compiled", n_players=count)  # built once, cached by content hash
    humans = players.split(",").count("human")
    return Session(game, spec, _seats(players), seed=seed, record=record, tokens=[f"t{i}" for i in range(humans)])


def _json_lists(value: Any):
    if isinstance(value, list):
        yield value
        for v in value:
            yield from _json_lists(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _json_lists(v)


def assert_only_observation(session: Session, seat: int, payload: dict, samples: int = 2) -> int:
    """What seat ``seat`` was sent at ``payload["step"]`` is its observation and nothing else:
    (1) the observation is ``observation(state, seat)``; (2) no list in the payload is the
    content of a place the seat may not see (another seat's hidden hand, a deck's order);
    (3) before the end, the payload (all but the seat's own legal moves) is the same for
    samples of states the seat cannot tell from the real one (hidden items dealt again):
    nothing sent depends on what it may not see. Returns how many samples differed from the
    real state in something hidden (so a caller can check the test could have failed)."""
    game = session.game
    state = session.state
    if payload["step"] != session.step():  # checked after the game went on: the position then
        state = replay(game, [game.move_text(m) for m in state.history[: payload["step"]]], session.game_seed)
    want = observation(state, seat)
    want.pop("legal", None)
    assert payload["observation"] == want
    hidden = [list(game.ir.item_texts[k] for k in p.items) for p in places(state) if not p.seen_by(seat) and len(p.items) >= 2]
    for lst in _json_lists(payload):
        assert lst not in hidden, f"a hidden place's items were sent at step {payload['step']}: {lst}"
    assert session.seed not in [v for v in _scalars(payload) if isinstance(v, int) and v > 10**6]
    _assert_last_seen(payload.get("last"), want["moves"])
    if state.is_terminal():
        return 0
    mine = _without_legal(payload)
    differed = 0
    for i in range(samples):
        sample = determinize(state, seat, Rng(1000 + i))
        differed += places(sample) != places(state)
        twin = copy.copy(session)
        twin.state = sample
        assert _without_legal(seat_payload(twin, seat)) == mine, f"what seat {seat} is sent depends on what it cannot see (step {payload['step']})"
    return differed


def _assert_last_seen(last: Optional[dict], moves: list) -> None:
    """What happened last is said as the viewer sees the move: its text as the move list
    writes it, and its cells only when nothing of it is hidden."""
    if last is None:
        return
    assert last["move"] == moves[last["index"]]
    if "?" in last["move"]:
        assert last["cells"] == [], last


def _state_at(session: Session, moves: int):
    game = session.game
    if moves == session.step():
        return session.state
    return replay(game, [game.move_text(m) for m in session.state.history[:moves]], session.game_seed)


def assert_only_public(session: Session, payload: dict, samples: int = 1) -> None:
    """What the spectator's page (/watch) was sent is what every seat sees: the observation
    of a spectator (-1), no hidden place's items, no moves, and the same payload for states
    that any one seat could not tell from the real one."""
    state = _state_at(session, payload["step"])
    want = observation(state, -1)
    assert payload["observation"] == want and payload["legal"] == [] and not payload["your_turn"]
    hidden = [list(session.game.ir.item_texts[k] for k in p.items) for p in places(state) if not p.seen_by(-1) and len(p.items) >= 2]
    for lst in _json_lists(payload):
        assert lst not in hidden, f"a hidden place's items were sent to the spectator at step {payload['step']}: {lst}"
    _assert_last_seen(payload.get("last"), want["moves"])
    if state.is_terminal():
        return
    for seat in range(session.game.ir.n_players):
        for i in range(samples):
            twin = copy.copy(session)
            twin.state = determinize(state, seat, Rng(2000 + i))
            assert seat_payload(twin, -1) == payload, f"the spectator's page depends on what seat {seat} may not see (step {payload['step']})"


def assert_review_private(session: Session, viewer: int, payload: dict) -> None:
    """An earlier position shown in review is drawn as ``viewer`` (a seat, or -1) saw it."""
    from midgardc.render.svg import render_svg

    state = _state_at(session, payload["at"])
    assert payload["svg"] == render_svg(state, viewer=viewer if viewer >= 0 else None)
    hidden = [list(session.game.ir.item_texts[k] for k in p.items) for p in places(state) if not p.seen_by(viewer) and len(p.items) >= 2]
    for lst in _json_lists(payload):
        assert lst not in hidden
    from midgardc.runtime.observe import moves_seen

    _assert_last_seen(payload.get("last"), moves_seen(state, viewer))


def _scalars(value: Any):
    if isinstance(value, dict):
        for v in value.values():
            yield from _scalars(v)
    elif isinstance(value, list):
        for v in value:
            yield from _scalars(v)
    else:
        yield value


def _without_legal(payload: dict) -> dict:
    out = dict(payload)
    out.pop("legal", None)
    out.pop("your_turn", None)
    return out


def _play_client(session: Session, seat: int = 0, token: str = "t0", rng: Optional[random.Random] = None, max_moves: int = 10_000, check=None) -> list:
    """Seat plays random legal moves from what the server sends, through the test client;
    returns every response it received (path, status, JSON or bytes)."""
    client = create_app(session).test_client()
    rng = rng or random.Random(0)
    base = f"/seat/{seat}/{token}"
    got = []
    page = client.get(base)
    got.append((base, page.status_code, page.data))
    for static in ("/static/seat.js", "/static/seat.css"):
        r = client.get(static)
        got.append((static, r.status_code, r.data))
    moves = 0
    while True:
        r = client.get(f"{base}/state")
        payload = r.get_json()
        got.append((f"{base}/state", r.status_code, payload))
        if check:
            check(payload)
        if payload["result"] is not None or moves >= max_moves:
            return got
        assert payload["your_turn"], payload["status"]
        move = rng.choice(payload["legal"])["text"]
        r = client.post(f"{base}/move", json={"step": payload["step"], "move": move})
        assert r.status_code == 200, r.get_json()
        got.append((f"{base}/move", r.status_code, r.get_json()))
        if check:
            check(got[-1][2])
        moves += 1


# -- privacy --------------------------------------------------------------------------------


def test_vikings_seat_is_sent_only_its_observation() -> None:
    """A card game with hidden hands and hidden piles (Midgard Vikings, two players): every
    response to seat 0 is checked, for the draft and the first moves on the board."""
    session = _session(VIKINGS, "human,random", seed=4, variant="two-players")
    differed = []
    hidden_hand_seen = []

    def check(payload: dict) -> None:
        differed.append(assert_only_observation(session, 0, payload))
        zones = payload["observation"].get("zones", {})
        hidden_hand_seen.append(any(z.get("black", {}).get("items", 0) is None and z["black"]["size"] > 0 for z in zones.values()))

    got = _play_client(session, max_moves=25, check=check)
    assert len(got) > 40
    assert any(hidden_hand_seen), "the other seat never held hidden items: the test checked nothing"
    assert sum(differed) > 0, "no sample ever differed in a hidden thing: the invariance check could not fail"
    for path, status, body in got[:3]:  # the page, its script and style: no state in them
        assert status == 200
        assert b"black" not in body or path.endswith(".js")


def test_meridian_deck_order_is_never_sent() -> None:
    """Meridian: each deck's order is hidden from everyone (its owner too); a whole game."""
    session = _session(MERIDIAN, "human,random", seed=2, count=2)
    differed = []
    got = _play_client(session, check=lambda p: differed.append(assert_only_observation(session, 0, p, samples=1)))
    assert session.state.is_terminal() and sum(differed) > 0
    final = got[-1][2]
    assert final["result"]["outcome"] in ("win", "shared", "draw") and final["result"]["text"]


def test_a_leak_is_caught() -> None:
    """The privacy check fails on a payload that carries another seat's hidden hand."""
    session = _session(VIKINGS, "human,random", seed=4, variant="two-players")
    client = create_app(session).test_client()
    payload = client.get("/seat/0/t0/state").get_json()
    while not any((z.get("black") or {}).get("items", 0) is None and z["black"]["size"] >= 2 for z in payload["observation"].get("zones", {}).values()):
        payload = client.post("/seat/0/t0/move", json={"step": payload["step"], "move": payload["legal"][0]["text"]}).get_json()
    full = session.state.zones()
    leaked = copy.deepcopy(payload)
    name = next(z for z, v in payload["observation"]["zones"].items() if (v.get("black") or {}).get("items", 0) is None and v["black"]["size"] >= 2)
    content = full[name]["black"]
    leaked["observation"]["zones"][name]["black"]["items"] = content if isinstance(content, list) else [k for k, n in content.items() for _ in range(n)]
    with pytest.raises(AssertionError):
        assert_only_observation(session, 0, leaked)


# -- moves: bots, rolls, refusals --------------------------------------------------------------


def test_bots_and_rolls_move_on_the_server() -> None:
    """Magic Mids has dice: after the human's move, the bot's moves and every roll are made
    before the answer; the seat is to move again (or the game is over)."""
    session = _session(str(ROOT / "specs" / "magic-mids.yaml"), "random,human", seed=1)
    client = create_app(session).test_client()
    payload = client.get("/seat/1/t0/state").get_json()
    assert payload["your_turn"] and payload["step"] >= 2  # the bot (seat 0) moved, rolls were made
    assert any(h["move"].startswith("roll:") for h in payload["history"])
    assert payload["observation"]["roll"]
    step = payload["step"]
    payload = client.post("/seat/1/t0/move", json={"step": step, "move": payload["legal"][0]["text"]}).get_json()
    assert payload["step"] > step + 1 and (payload["your_turn"] or payload["result"])


def test_stale_illegal_and_out_of_turn_moves_are_refused() -> None:
    session = _session(TTT, "human,human")
    client = create_app(session).test_client()
    s0 = client.get("/seat/0/t0/state").get_json()
    assert s0["your_turn"] and {m["text"] for m in s0["legal"]} == set(session.game.ir.board.cell_names)
    assert all(m["cells"] == [m["text"]] for m in s0["legal"])
    r = client.post("/seat/1/t1/move", json={"step": 0, "move": "a1"})  # out of turn
    assert r.status_code == 409 and "turn" in r.get_json()["error"]
    r = client.post("/seat/0/t0/move", json={"step": 0, "move": "z9"})  # no such move
    assert r.status_code == 422 and "z9" in r.get_json()["error"]
    assert client.post("/seat/0/t0/move", json={"step": 0, "move": "b2"}).status_code == 200
    r = client.post("/seat/0/t0/move", json={"step": 1, "move": "b2"})  # not its turn any more
    assert r.status_code == 409
    r = client.post("/seat/1/t1/move", json={"step": 1, "move": "b2"})  # occupied: not legal
    assert r.status_code == 422 and "not legal" in r.get_json()["error"]
    r = client.post("/seat/1/t1/move", json={"step": 0, "move": "a1"})  # chosen before b2 was played
    assert r.status_code == 409 and "step 0" in r.get_json()["error"]
    for bad in ({"move": "a1"}, {"step": "1", "move": "a1"}, {"step": 1}, {"step": 1, "move": 3}):
        r = client.post("/seat/1/t1/move", json=bad)
        assert r.status_code == 400 and r.get_json()["error"]
    assert client.post("/seat/1/t1/move", data="a1").status_code == 400
    assert session.step() == 1  # nothing refused was played
    assert client.get("/seat/0/wrong/state").status_code == 404
    assert client.get("/seat/5/t0/state").status_code == 404
    assert client.get("/seat/1/t0").status_code == 404  # another seat's token
    assert client.get("/seat/0/t0/move").status_code == 405
    index = client.get("/")
    assert index.status_code == 200 and b"t0" not in index.data and b"t1" not in index.data


def test_a_bot_seat_has_no_page_and_the_end_refuses_moves() -> None:
    session = _session(TTT, "human,random", seed=3)
    got = _play_client(session, token="t0")
    final = got[-1][2]
    assert final["result"] is not None and final["legal"] == [] and not final["your_turn"]
    assert create_app(session).test_client().get("/seat/1/t0/state").status_code == 404
    r = create_app(session).test_client().post("/seat/0/t0/move", json={"step": final["step"], "move": "a1"})
    assert r.status_code == 409 and "over" in r.get_json()["error"]


def test_move_cells_follow_the_notation() -> None:
    game = load(str(ROOT / "specs" / "classics" / "breakthrough.yaml"))
    state = game.new_state(0)
    move = state.legal_moves()[0]
    assert move_cells(game, move.id) == move.text.split("-") and len(move_cells(game, move.id)) == 2
    meridian = load(MERIDIAN, engine="interpreted", n_players=2)
    state = meridian.new_state(0)
    for m in state.legal_moves():
        cells = move_cells(meridian, m.id)
        assert (cells == [] and m.text.endswith("pass")) or (len(cells) == 1 and f":{cells[0]}:" in m.text)


def _draughts_jump_session(engine: str) -> Session:
    """Draughts, Black (a person) to move where c3 must jump d4 and go on over d6 or f6:
    two whole moves, c3xe5xc7 and c3xe5xg7 (tests/test_draughts.py)."""
    from test_draughts import position

    spec = str(ROOT / "specs" / "classics" / "draughts.yaml")
    game = load(spec, engine=engine)
    session = Session(game, spec, _seats("human,random"), tokens=["t0"])
    session.state = position(game, {"c3": "b", "d4": "w", "d6": "w", "f6": "w", "a7": "w"}, "black")
    return session


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_a_compound_move_names_the_cells_of_every_step(engine: str) -> None:
    """A multi-jump is one move written c3xe5xc7: the page is sent every cell it lands on,
    in order, so it is built by clicking c3, e5, c7 (not only its first jump, c3 e5)."""
    session = _draughts_jump_session(engine)
    client = create_app(session).test_client()
    payload = client.get("/seat/0/t0/state").get_json()
    assert sorted((m["text"], m["cells"]) for m in payload["legal"]) == [("c3xe5xc7", ["c3", "e5", "c7"]), ("c3xe5xg7", ["c3", "e5", "g7"])]
    game, state = session.game, session.state
    for m in state.legal_moves():
        assert move_cells(game, m.id) == ["c3", "e5"]  # without the position: the first step's
    r = client.post("/seat/0/t0/move", json={"step": payload["step"], "move": "c3xe5xg7"})
    assert r.status_code == 200 and r.get_json()["history"][0]["move"] == "c3xe5xg7"


def test_the_page_lists_the_pieces_in_hand_unless_render_hand_is_false() -> None:
    """Chess says render.hand: false (its pieces in hand are the box's spares for
    promotion): its page is told not to list them; tic-tac-toe's page lists what it has."""
    spec = str(ROOT / "specs" / "classics" / "chess.yaml")
    chess = Session(load(spec, engine="interpreted"), spec, _seats("human,human"), tokens=["t0", "t1"])
    assert create_app(chess).test_client().get("/seat/0/t0/state").get_json()["show_hand"] is False
    ttt = _session(TTT, "human,human")
    assert create_app(ttt).test_client().get("/seat/0/t0/state").get_json()["show_hand"] is True


def test_result_words_show_a_shared_first_place() -> None:
    """A shared first place is said as one (Vikings' two-player game can end shared); here
    the words come straight from a finished session's result, with how it ended."""
    from midgardc.matches.results import result_words
    from midgardc.runtime.ending import ending

    session = _session(TTT, "human,random", seed=0)
    _play_client(session, token="t0")
    payload = seat_payload(session, 0)
    result = session.result()
    names = [f"{name} ({session.labels[s]})" for s, name in enumerate(session.game.ir.players)]
    assert payload["result"]["text"] == ending(session.state, names)["text"]
    assert payload["result"]["text"].startswith(result_words(result.outcome, [names[s] for s in result.leaders]))
    assert payload["result"]["outcome"] == result.outcome
    assert result_words("shared", ["a (human)", "b (random)"]) == "a (human) and b (random) share first place"


# -- the record ---------------------------------------------------------------------------------


def test_a_served_game_is_replayed_from_its_record(tmp_path) -> None:
    record = tmp_path / "served.jsonl"
    session = _session(MIDGARD, "human,random", seed=6, record=str(record))
    _play_client(session, rng=random.Random(4))
    line = json.loads(record.read_text())
    assert line["seats"] == ["human", "random"] and line["moves"] == [session.game.move_text(m) for m in session.state.history]
    result = CliRunner().invoke(cli, ["replay", MIDGARD, "--record", str(record), "--game", "0"])
    assert result.exit_code == 0, result.output
    assert "result matches the record" in result.output
    result = CliRunner().invoke(cli, ["report", str(record)])
    assert result.exit_code == 0, result.output


def test_stopping_early_records_an_unfinished_game(tmp_path) -> None:
    record = tmp_path / "early.jsonl"
    session = _session(TTT, "human,random", record=str(record))
    client = create_app(session).test_client()
    client.post("/seat/0/t0/move", json={"step": 0, "move": "a1"})
    session.stop()
    line = json.loads(record.read_text())
    assert line["result"] == {"unfinished": True, "plies": 2} and line["moves"][0] == "a1"


# -- the command line ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args,words",
    [
        (["-p", "random,random"], "no human seat"),
        (["-p", "human,wizard"], "unknown player 'wizard'"),
        (["-p", "human"], "1 players were given"),
        (["--port", "70000"], "70000"),
        (["-p", "human,random", "--player-count", "3"], "--player-count 3"),
    ],
)
def test_bad_options_are_one_line(args: list, words: str) -> None:
    spec = MERIDIAN if "--player-count" in args or args == ["-p", "human"] else TTT
    result = CliRunner().invoke(cli, ["serve", spec, *args])
    assert result.exit_code == 1, result.output
    assert words in result.output and "Traceback" not in result.output


def test_serve_prints_seat_addresses_and_stops_on_ctrl_c(tmp_path) -> None:
    record = tmp_path / "cli.jsonl"
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "midgardc.cli", "serve", TTT, "-p", "human,human", "--port", "0", "--engine", "interpreted", "--record", str(record)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        lines = [proc.stdout.readline() for _ in range(4)]
        urls = [line.split(": ", 1)[1].strip() for line in lines if "http://" in line]
        assert len(urls) == 2 and urls[0] != urls[1] and "/seat/0/" in urls[0] and "/seat/1/" in urls[1], lines
        with urllib.request.urlopen(urls[0] + "/state", timeout=20) as r:
            assert json.load(r)["your_turn"] is True
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "stopped" in out
    assert json.loads(record.read_text())["result"]["unfinished"] is True


def test_a_port_in_use_is_one_message() -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = CliRunner().invoke(cli, ["serve", TTT, "--port", str(port), "--engine", "interpreted"])
    assert result.exit_code == 1, result.output
    assert f"cannot listen on 127.0.0.1:{port}" in result.output and "--port" in result.output and "Traceback" not in result.output


def test_render_svg_for_a_viewer_hides_what_it_cannot_see() -> None:
    """Vikings' kingdom tokens are counters only their owner sees: seat 0's drawing writes the
    other seat's as ?, the owner's shows the numbers, a spectator's (no viewer) neither."""

    from midgardc.render.svg import render_svg

    game = load(VIKINGS, "two-players", engine="compiled")
    state = game.new_state(4)
    rng = random.Random(0)
    while state.ply() < 12:
        ids = state.legal_move_ids()
        state.apply_unchecked(ids[rng.randrange(len(ids))])
    hidden = [name for name in game.ir.counters if observation(state, 0)["players"][1]["counters"].get(name, 0) is None]
    assert hidden
    import xml.etree.ElementTree as ET

    unseen = {}  # (player panel, line) that each view writes as ?
    for viewer in (None, 0, 1):
        root = ET.fromstring(render_svg(state, viewer=viewer))
        unseen[viewer] = {
            (panel.get("data-player"), t.get("data-label"))
            for panel in root.iter()
            if panel.get("data-player") is not None
            for t in panel.iter()
            if t.get("data-label") and (t.text or "").endswith(": ?")
        }
    # each seat sees its own tokens and not the other's; a spectator sees neither mid-game
    assert unseen[0] and unseen[1] and unseen[0].isdisjoint(unseen[1])
    assert unseen[0] | unseen[1] <= unseen[None]


def test_the_page_never_lists_internal_counters_and_uses_the_rulebooks_names() -> None:
    """Issue 13: "counters marked internal are never shown to people; labels in the rulebook's
    names". The page lists only the counters ``counter_labels`` names (seat.js filters by it)."""
    from midgardc.spec.lower import load_game_ir
    from midgardc.web.views import counter_labels

    ir = load_game_ir("specs/micro-midgard.yaml", None, None)
    internal = {ir.counters[i] for i in ir.render.present.internal}
    shown = counter_labels(ir)
    assert internal and not internal & set(shown)
    assert shown["actions[sun_action]"] == "Sun actions"  # render.labels
    plain = load_game_ir("specs/classics/tic-tac-toe.yaml", None, None)
    assert counter_labels(plain) == {name: name for name in plain.counters}


# -- hostile requests and slow bots (issue 28, items 8 and 9) --------------------------------------


def test_odd_tokens_and_deeply_nested_bodies_are_4xx_not_500() -> None:
    client = create_app(_session(TTT, "human,random")).test_client()
    for path in ("/seat/0/%C3%A9", "/seat/0/%FF%FE", "/seat/0/%C3%A9/state", "/seat/0/\u00e9t\u00e9/state"):
        r = client.get(path)
        assert r.status_code == 404 and "error" in r.get_json(), path
    nested = "[" * 5_000 + "]" * 5_000  # deeper than Python recursion limit, within the size limit
    for body in (nested, '{"step": 0, "move": ' + nested + "}", '{"step": ' + "9" * 5000 + ', "move": "a1"}'):
        r = client.post("/seat/0/t0/move", data=body, content_type="application/json")
        assert r.status_code == 400 and "JSON object" in r.get_json()["error"]
    r = client.post("/seat/0/t0/move", data="x" * 100_000, content_type="application/json")
    assert r.status_code == 413 and "too large" in r.get_json()["error"]


class _BlockedBot:
    """A bot that waits on an Event before choosing (as a long MCTS turn does)."""

    def __init__(self) -> None:
        import threading

        self.thinking = threading.Event()
        self.go_on = threading.Event()

    def choose(self, view, rng) -> int:
        self.thinking.set()
        assert self.go_on.wait(120), "the test never let the bot move"
        return view.legal_move_ids()[0]


def test_other_seats_are_answered_while_a_bot_thinks() -> None:
    import threading

    # a person, a bot, then people: the second person asks while the bot thinks
    spec = str(ROOT / "specs" / "midgard-vikings.yaml")
    game = load(spec, engine="interpreted")
    n = game.ir.n_players
    seats = ["human", "random"] + ["human"] * (n - 2)
    session = Session(game, spec, _seats(",".join(seats)), tokens=[f"t{i}" for i in range(n - 1)])
    bot = _BlockedBot()
    session.bots[1] = bot
    client = create_app(session).test_client()
    mover = None
    try:
        while not bot.thinking.is_set():  # seat 0 plays until its move hands the turn to the bot
            first = client.get("/seat/0/t0/state").get_json()
            assert first["your_turn"], first["status"]
            post = {"step": first["step"], "move": first["legal"][0]["text"]}
            mover = threading.Thread(target=lambda: client.post("/seat/0/t0/move", json=post))
            mover.start()
            while mover.is_alive() and not bot.thinking.wait(0.05):
                pass
        r = client.get("/seat/2/t1/state")  # answered while the bot is still blocked
        assert r.status_code == 200 and not r.get_json()["your_turn"]
        assert r.get_json()["to_move"] == game.ir.players[1] and not bot.go_on.is_set()
    finally:
        bot.go_on.set()
        if mover is not None:
            mover.join(120)
    assert client.get("/seat/2/t1/state").get_json()["step"] > first["step"] + 1  # the bot's move was played


# seat.js run by Node with a stub page, a server that answers only the first request and
# timers fired by hand: it prints how many requests the page sent over ten seconds.
POLL_HARNESS = r"""
// Runs seat.js with a stub page and a server that answers the first request only.
const fs = require("fs"), vm = require("vm");
function stub() {
  const store = {};
  return new Proxy(function () {}, {
    get(t, k) {
      if (typeof k === "symbol") return k === Symbol.toPrimitive ? () => "" : undefined;
      if (k in store) return store[k];
      if (k === "then") return undefined;
      return (store[k] = stub());
    },
    set(t, k, v) { store[k] = v; return true; },
    apply() { return stub(); },
  });
}
const timers = [];
let fetches = 0;
const payload = { step: 0, your_turn: false, result: null, svg: "", to_move: "b", history: [], legal: [], observation: { players: [], counters: {}, zones: {} }, players: [], labels: {} };
const sandbox = {
  document: stub(), console,
  Promise, Object, JSON, String, Error,
  setTimeout: (f) => timers.push(f), setInterval: (f) => { timers.push(function again() { timers.push(again); f(); }); },
  fetch: () => { fetches += 1; return fetches === 1 ? Promise.resolve({ ok: true, json: () => Promise.resolve(payload) }) : new Promise(() => {}); },
};
vm.runInNewContext(fs.readFileSync(process.argv[2], "utf8"), sandbox);
(async () => {
  for (let i = 0; i < 10; i++) {
    await new Promise((r) => setImmediate(r));
    const due = timers.splice(0);
    due.forEach((f) => f());
  }
  await new Promise((r) => setImmediate(r));
  console.log(fetches);
})();
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js to run the page's script")
def test_the_page_polls_again_only_after_the_last_answer(tmp_path) -> None:
    # issue 28, item 9: polling on a fixed clock sent a request a second whatever the last
    # one did, so a slow server piled them up (the old script sent 11 here)
    harness = tmp_path / "poll.js"
    harness.write_text(POLL_HARNESS)
    script = ROOT / "midgardc" / "web" / "static" / "seat.js"
    proc = subprocess.run(["node", str(harness), str(script)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["2"]  # the first answer, then one poll that is never answered


# -- the table: spectator, takeback, rematch, review, choices (issue 26) ---------------------------


def test_the_spectator_is_sent_only_what_every_seat_sees() -> None:
    """Vikings (two players, hidden hands): while seat 0 plays, every answer to /watch is
    the public view; seat 0's and the spectator's review of earlier positions too."""
    session = _session(VIKINGS, "human,random", seed=4, variant="two-players")
    client = create_app(session).test_client()
    watched = []

    def check(payload: dict) -> None:
        public = client.get("/watch/state").get_json()
        assert_only_public(session, public)
        watched.append(public)

    _play_client(session, max_moves=12, check=check)
    assert any((z.get("black") or {}).get("items", 0) is None and z["black"]["size"] > 0 for p in watched for z in p["observation"].get("zones", {}).values())
    assert client.get("/watch").status_code == 200 and b"watching" in client.get("/watch").data
    for moves in (0, 3, session.step() - 1):
        assert_review_private(session, 0, client.get(f"/seat/0/t0/at/{moves}").get_json())
        assert_review_private(session, -1, client.get(f"/watch/at/{moves}").get_json())
    assert client.get(f"/watch/at/{session.step() + 5}").status_code == 404


def test_takeback_and_rematch_through_the_app(tmp_path) -> None:
    """Takeback puts the game and the bots' streams back where they were (the bot answers
    the same move as before); a rematch starts the next game and both are recorded."""
    record = tmp_path / "two.jsonl"
    session = _session(str(ROOT / "specs" / "magic-mids.yaml"), "human,random", seed=3, record=str(record))
    client = create_app(session).test_client()
    first = client.get("/seat/0/t0/state").get_json()
    assert not first["can_take_back"]
    assert client.post("/seat/0/t0/takeback").status_code == 409
    move = first["legal"][0]["text"]
    after = client.post("/seat/0/t0/move", json={"step": first["step"], "move": move}).get_json()
    back = client.post("/seat/0/t0/takeback").get_json()
    assert back["step"] == first["step"] and back["your_turn"] and back["history"] == first["history"]
    again = client.post("/seat/0/t0/move", json={"step": back["step"], "move": move}).get_json()
    assert again["history"] == after["history"]  # the same rolls and the same replies
    assert client.post("/seat/0/t0/rematch").status_code == 409  # not over yet
    _play_client(session, rng=random.Random(1))
    assert session.state.is_terminal()
    fresh = client.post("/seat/0/t0/rematch").get_json()
    assert fresh["result"] is None and len(fresh["history"]) < 5
    _play_client(session, rng=random.Random(2))
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert [line["game"] for line in lines] == [0, 1] and lines[0]["game_seed"] != lines[1]["game_seed"]
    for game in ("0", "1"):
        result = CliRunner().invoke(cli, ["replay", str(ROOT / "specs" / "magic-mids.yaml"), "--record", str(record), "--game", game])
        assert result.exit_code == 0 and "result matches the record" in result.output, result.output


def test_a_move_answered_at_once_names_who_is_thinking() -> None:
    session = _session(TTT, "human,random")
    bot = _BlockedBot()
    session.bots[1] = bot
    client = create_app(session).test_client()
    try:
        r = client.post("/seat/0/t0/move", json={"step": 0, "move": "b2", "wait": False}).get_json()
        assert r["thinking"] == "o (random)" and not r["your_turn"] and r["history"][-1]["move"] == "b2"
        assert r["last"] == {"index": 0, "player": session.game.ir.players[0], "move": "b2", "cells": ["b2"], "removed": []}
        assert bot.thinking.wait(60)
        r = client.post("/seat/0/t0/takeback")
        assert r.status_code == 409 and "choosing" in r.get_json()["error"]
    finally:
        bot.go_on.set()
    for _ in range(600):
        state = client.get("/seat/0/t0/state").get_json()
        if state["your_turn"]:
            break
        bot.thinking.wait(0.05)
    assert state["your_turn"] and state["thinking"] is None and state["step"] == 2


def test_moves_carry_their_choices_as_the_spec_names_them() -> None:
    """Meridian's render.labels name its parameters: a move at a city is its card and
    height (the page groups the moves that share a city by these)."""
    from midgardc.web.views import move_choice

    game = load(MERIDIAN, engine="interpreted", n_players=2)
    state = game.new_state(0)
    labels = dict(game.ir.render.present.labels)
    for m in state.legal_moves():
        choice = move_choice(game, m.id, labels)
        if m.text.endswith(":pass"):
            assert choice["action"] == "discard" and [p[0] for p in choice["params"]] == ["card"]
        else:
            assert choice["action"] == "build" and [p[0] for p in choice["params"]] == ["card", "height"]
            assert m.text == f"{choice['params'][0][1]}:{move_cells(game, m.id)[0]}:{choice['params'][1][1]}"


def test_a_card_is_named_on_the_page_and_its_move_still_written_by_its_code() -> None:
    """Issue 26: the page's choices and its list of cards say a Vikings card by its name
    (``render.labels``), while the move sent is the move as written (``pick:InvA``)."""
    from midgardc.web.views import move_choice, zone_names

    game = load(VIKINGS, engine="interpreted")
    state = game.new_state(0)
    state.apply(state.legal_moves()[0])  # deal: the draft sets
    labels = dict(game.ir.render.present.labels)
    picks = [(m.text, move_choice(game, m.id, labels)["params"]) for m in state.legal_moves()]
    assert picks and all(text.startswith("pick:") for text, _ in picks)
    for text, params in picks:
        [(label, value, shown)] = params
        assert text == f"pick:{value}" and shown == game.ir.render.present.item_label(game.ir.item_names[game.ir.item_texts.index(value)], value) != value
    obs = state.observation(state.current_player())
    names = zone_names(game.ir, obs)
    drafted = obs["zones"]["draft"][game.ir.players[state.current_player()]]["items"]
    assert {names[code] for code in drafted} == {params[0][2] for _, params in picks}  # the hand, as the choices name it
