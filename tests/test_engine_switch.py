"""``play`` and ``serve`` show the board at once and go on on the compiled engine when it is
built (midgardc/runtime/engine_switch.py): the build is held back by the test (a builder
that waits for a gate), so what is shown before it is ready is checked without timing
anything; the game that moved over is the game played wholly on one engine, move for
move, rolls included (tests/data/dice.yaml: two dice every turn, 3 seats); a failed build
is said once and the interpreter plays on. Through a pseudo-terminal, ``play`` is run with
the builder gated by a file."""

from __future__ import annotations

import json
import re
import sys
import threading
import time
from pathlib import Path
from typing import Callable, Optional

import pytest

from conftest import ROOT
from midgardc.cli.humanplay import Terminal, play_session
from midgardc.errors import BuildError
from midgardc.players import PlayerSpec, parse_player
from midgardc.engine_switch import BUILDING, PendingEngine, open_switching, replay_drawn, same_position
from midgardc.engines import game_from_ir
from midgardc.runtime.game import Game
from midgardc.spec.lower import load_game_ir
from midgardc.web.app import create_app
from midgardc.web.session import Session

DICE = str(ROOT / "tests" / "data" / "dice.yaml")
SEATS = "human,random,random"
GATE_WAIT = 900  # seconds a gated builder waits at most (a test that fails must not hang)


def _seats(text: str) -> list[PlayerSpec]:
    return [PlayerSpec("human") if p == "human" else parse_player(p) for p in text.split(",")]


def _gated(gate: threading.Event) -> Callable:
    """A builder that builds the compiled game (cached by content), then holds it back
    until ``gate`` is set: the test decides when the engine is ready."""

    def builder(ir) -> Game:
        game = game_from_ir(ir, "compiled")
        assert gate.wait(GATE_WAIT), "the test never opened the gate"
        return game

    return builder


def _failing(ir) -> Game:
    raise BuildError("no C compiler found (a test's stand-in)")


class Script:
    """A person at the terminal who types the first legal move (``1``) every time; at
    their ``switch_at``-th decision the gate opens and the build is awaited, so the game
    moves over right after that move."""

    def __init__(self, gate: Optional[threading.Event] = None, pending: Optional[PendingEngine] = None, switch_at: int = 3):
        self.lines: list[str] = []
        self.asked = 0
        self.gate, self.pending, self.switch_at = gate, pending, switch_at
        self.before_ready: Optional[str] = None  # the screen at the first decision

    def say(self, text: str) -> None:
        self.lines.append(text)

    def ask(self, prompt: str) -> str:
        self.asked += 1
        if self.asked == 1:
            self.before_ready = "\n".join(self.lines)
            self.ready_at_first = self.pending is not None and self.pending.done()
        if self.asked == self.switch_at and self.gate is not None and self.pending is not None:
            self.gate.set()
            assert self.pending.wait(GATE_WAIT)
        return "1"


def _play(tmp_path: Path, name: str, engine: str, builder: Optional[Callable] = None, switch_at: int = 3) -> tuple[Script, dict]:
    ir = load_game_ir(DICE, None, None)
    gate = threading.Event()
    game, pending = open_switching(ir, engine, builder or _gated(gate))
    script = Script(gate if builder is None else None, pending, switch_at)
    record = tmp_path / f"{name}.jsonl"
    assert play_session(game, DICE, _seats(SEATS), seed=4, record=str(record), delay=0, term=Terminal(say=script.say, ask=script.ask, tty=False), pending=pending)
    return script, json.loads(record.read_text())


def test_play_shows_the_board_before_the_compiled_engine_and_goes_on_identically(tmp_path: Path) -> None:
    switched, line = _play(tmp_path, "switched", "compiled")
    # before the gate opened: the board and the human's moves, on the interpreter, and why
    assert not switched.ready_at_first
    first = switched.before_ready
    assert BUILDING in first and "red, your legal moves" in first and "roll:" in first
    out = "\n".join(switched.lines)
    assert out.count("the compiled engine is ready: the game goes on on it") == 1
    assert line["engine"] == "compiled"
    # the same person and bots wholly on the interpreter: the same game, rolls included
    alone, same = _play(tmp_path, "interpreted", "interpreted")
    assert BUILDING not in "\n".join(alone.lines)
    assert same["engine"] == "interpreted"
    assert line["moves"] == same["moves"] and line["result"] == same["result"]
    assert any(m.startswith("roll:") for m in line["moves"][10:])  # rolls after the switch came from the compiled stream
    assert switched.asked == alone.asked > 3  # the switch came mid-game


def test_a_failed_build_is_said_once_and_the_interpreter_plays_on(tmp_path: Path) -> None:
    script, line = _play(tmp_path, "failed", "compiled", builder=_failing)
    out = "\n".join(script.lines)
    assert out.count("could not be built (no C compiler found (a test's stand-in)); the game stays on the interpreter") == 1
    assert line["engine"] == "interpreted" and "unfinished" not in line["result"]


def test_only_a_cached_engine_is_waited_for() -> None:
    # A cached engine opens within the grace and is played at once; an engine the cache
    # does not hold is not waited for, however soon its build would end (here at once):
    # the board shows on the interpreter without the grace's second.
    ir = load_game_ir(DICE, None, None)
    ready = game_from_ir(ir, "compiled")
    game, pending = open_switching(ir, "compiled", lambda ir: ready, cached=lambda ir: True)
    assert game is ready and pending is None
    game, pending = open_switching(ir, "compiled", lambda ir: ready, cached=lambda ir: False)
    assert game.engine_name == "interpreted" and pending is not None
    assert pending.wait(GATE_WAIT) and pending.game is ready  # the switch comes at the next move


def test_the_carried_state_draws_the_same_dice_as_the_game_would_have() -> None:
    ir = load_game_ir(DICE, None, None)
    interp, compiled = game_from_ir(ir, "interpreted"), game_from_ir(ir, "compiled")
    state = interp.new_state(9)
    while state.ply() < 7:  # some plies and rolls in
        state.sample_chance() if state.is_chance_node() else state.apply_unchecked(state.legal_move_ids()[0])
    moved = replay_drawn(compiled, state.history, 9)
    assert same_position(state, moved)
    for _ in range(12):  # the next rolls: the same from both streams
        if state.is_terminal():
            break
        if state.is_chance_node():
            assert state.sample_chance() == moved.sample_chance()
        else:
            move = state.legal_move_ids()[-1]
            state.apply_unchecked(move)
            moved.apply_unchecked(move)
        assert same_position(state, moved)


# -- serve -------------------------------------------------------------------------------


def _serve_game(tmp_path: Path, name: str, engine: str) -> tuple[list[dict], dict]:
    """A served game: the person plays the first legal move each time, the gate opens after
    their second move; every payload the page got, and the record."""
    ir = load_game_ir(DICE, None, None)
    gate = threading.Event()
    game, pending = open_switching(ir, engine, _gated(gate))
    record = tmp_path / f"{name}.jsonl"
    said: list[str] = []
    session = Session(game, DICE, _seats(SEATS), seed=6, record=str(record), tokens=["t0"], say=said.append, pending=pending)
    client = create_app(session).test_client()
    payloads = [client.get("/seat/0/t0/state").get_json()]
    while payloads[-1]["result"] is None:
        p = payloads[-1]
        if len(payloads) == 3 and pending is not None:
            gate.set()
            assert pending.wait(GATE_WAIT)
        answer = client.post("/seat/0/t0/move", json={"step": p["step"], "move": p["legal"][0]["text"]})
        assert answer.status_code == 200, answer.get_json()
        payloads.append(answer.get_json())
    return payloads, json.loads(record.read_text())


def test_serve_shows_the_board_before_the_compiled_engine_and_goes_on_identically(tmp_path: Path) -> None:
    payloads, line = _serve_game(tmp_path, "served", "compiled")
    first = payloads[0]
    assert first["engine"] == "interpreted" and first["engine_note"] == BUILDING
    assert "<svg" in first["svg"] and first["your_turn"] and first["legal"]
    engines = [p["engine"] for p in payloads]
    assert engines[:3] == ["interpreted"] * 3 and engines[-1] == "compiled"
    assert payloads[-1]["engine_note"] is None
    assert line["engine"] == "compiled"
    alone, same = _serve_game(tmp_path, "alone", "interpreted")
    assert {p["engine"] for p in alone} == {"interpreted"} and alone[0]["engine_note"] is None
    assert line["moves"] == same["moves"] and line["result"] == same["result"]
    assert [p["svg"] for p in payloads] == [p["svg"] for p in alone]  # the same positions, step by step


# -- play through a pseudo-terminal --------------------------------------------------------

# ``midgardc play`` with its builder gated by a file: the build (cached by content) happens
# first, then the builder waits for the file GATE to exist, writes GATE.built and returns.
GATED_PLAY = """
import os, sys, time
import midgardc.engine_switch as switch
from midgardc.cli.group import main
real, gate = switch.compiled_game, sys.argv[1]
def gated(ir):
    game = real(ir)
    while not os.path.exists(gate):
        time.sleep(0.05)
    open(gate + ".built", "w").close()
    return game
switch.compiled_game = gated
sys.argv = ["midgardc", *sys.argv[2:]]
main()
"""
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def _await(path: Path) -> None:
    for _ in range(GATE_WAIT * 20):
        if path.exists():
            return
        time.sleep(0.05)
    raise AssertionError(f"{path} never appeared")


def _pty_game(tmp_path: Path, name: str, engine: str, gate: Optional[Path]) -> tuple[list[str], dict]:
    pexpect = pytest.importorskip("pexpect")
    record = tmp_path / f"{name}.jsonl"
    args = ["-c", GATED_PLAY, str(gate or tmp_path / "open"), "play", DICE, "--players", SEATS, "--delay", "0", "--seed", "8", "--engine", engine, "--record", str(record)]
    if gate is None:
        (tmp_path / "open").touch()
    child = pexpect.spawn(sys.executable, args, cwd=str(ROOT), encoding="utf-8", timeout=GATE_WAIT, dimensions=(50, 120))
    screens = []
    while True:
        i = child.expect(["red> ", pexpect.EOF])
        screens.append(ANSI.sub("", child.before).replace("\r", ""))
        if i == 1:
            break
        if len(screens) == 1 and gate is not None:
            gate.touch()  # the engine is ready once the builder has returned: the game moves over at the next move
            _await(gate.with_name(gate.name + ".built"))
        child.sendline("1")
    child.close()
    assert child.exitstatus == 0, screens[-1]
    return screens, json.loads(record.read_text())


def test_play_in_a_terminal_shows_the_board_at_once_and_moves_over(tmp_path: Path) -> None:
    screens, line = _pty_game(tmp_path, "switched", "compiled", tmp_path / "gate")
    # the first screen came while the builder waited for the gate: board, moves, and why
    assert BUILDING in screens[0] and "red, your legal moves" in screens[0] and "roll:" in screens[0]
    assert "ready" not in screens[0]
    assert "".join(screens).count("the compiled engine is ready: the game goes on on it") == 1
    assert line["engine"] == "compiled"
    alone, same = _pty_game(tmp_path, "interpreted", "interpreted", None)
    assert "compiled engine" not in "".join(alone)
    assert line["moves"] == same["moves"] and line["result"] == same["result"]
