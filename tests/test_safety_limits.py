"""Bounded games and sizes, interrupted matches, and broken moves and records.

* A game stopped by ``game.max_plies`` is a draw, flagged ``ply_limited``, in both engines,
  in JSON, in compiled playouts and in match records and reports.
* Hands, players and boards above the documented limits are refused with the limit named.
* Ctrl-C in a match prints the partial table and leaves a record of complete lines.
* Illegal moves and truncated, foreign or mismatched records are one clear error.
"""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from midgardc.errors import SpecError
from midgardc.spec.lower import MAX_HAND, MAX_PLAYERS, load_game_ir

ROOT = Path(__file__).resolve().parents[1]
PLY = str(ROOT / "tests" / "safety" / "ply_limited.yaml")
TTT = str(ROOT / "specs" / "classics" / "tic-tac-toe.yaml")


def _cli(*args: str, cwd=ROOT, timeout=300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "midgardc.cli", *args], cwd=cwd, capture_output=True, text=True, timeout=timeout)


# --------------------------------------------------------------------------- the ply limit


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_a_ply_limited_game_is_a_flagged_draw(engine):
    from midgardc.runtime.game import load

    game = load(PLY, engine=engine)
    for seed in range(5):
        state = game.new_state(seed)
        while not state.is_terminal():
            state.apply_unchecked(state.legal_move_ids()[seed % len(state.legal_move_ids())])
        assert state.ply() == 3 and state.core.ply_limited
        assert state.keys()[0] != state.keys()[1]  # the ranking alone would pick a winner
        assert state.winner() is None
        assert state.returns() == [0.0, 0.0]
        js = state.to_json()
        assert js["winner"] == "draw" and js["ply_limited"] is True


def test_both_engines_agree_at_the_ply_limit():
    from midgardc.runtime.game import load

    compiled = load(PLY, engine="compiled")
    interpreted = load(PLY, engine="interpreted")
    a = compiled.engine.playouts(200, 5)
    b = interpreted.engine.playouts(200, 5)
    assert a == b
    assert a["games"] == 200 and a["draws"] == 200 and a["ply_limited"] == 200 and sum(a["wins"]) == 0


def test_a_game_that_ends_by_its_rules_at_the_limit_is_not_flagged():
    """Tic-tac-toe cut at 5 plies: x's line on the 5th move is a win, not a limit."""
    from midgardc.runtime.game import game_from_ir

    ir = load_game_ir(TTT)
    ir = dataclasses.replace(ir, max_plies=5)
    for engine in ("interpreted", "compiled"):
        state = game_from_ir(ir, engine).new_state(0)
        for m in ["a1", "a2", "b1", "b2", "c1"]:
            state.apply(m)
        assert state.is_terminal() and not state.core.ply_limited
        assert state.winner() == 0


def test_match_report_and_record_flag_ply_limited_games(tmp_path):
    record = tmp_path / "r.jsonl"
    proc = _cli("match", PLY, "--players", "random,greedy", "--games", "4", "--record", str(record), "--json")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    text = json.dumps(summary)
    assert '"ply_limited": 4' in text
    lines = [json.loads(l) for l in record.read_text().splitlines() if l.strip()]
    games = [l for l in lines if "moves" in l]
    assert len(games) == 4
    assert all(g["result"]["winner"] == "draw" and g["result"]["ply_limited"] is True for g in games)
    table = _cli("match", PLY, "--players", "random,greedy", "--games", "2")
    assert "2 stopped at the ply limit (drawn)" in table.stdout


# --------------------------------------------------------------------------- size limits


def _base(players="[x, o]", hand=5, board="{topology: square, rows: 3, cols: 3}") -> str:
    return f"""\
game: {{name: limits, players: {players}}}
pieces: {{mark: {{hand: {hand}}}}}
board: {board}
actions:
  play: {{params: {{c: cell}}, where: empty(c), effects: [place: {{piece: mark, at: c}}]}}
ranking:
  marks: "count(c in cells: owner(c) == p)"
"""


@pytest.mark.parametrize(
    "text, fragment",
    [
        (_base(hand=MAX_HAND + 1), f"between 0 and {MAX_HAND}"),
        (_base(players="[" + ", ".join(f"p{i}" for i in range(MAX_PLAYERS + 1)) + "]"), f"1 to {MAX_PLAYERS}"),
        (_base(board="{topology: square, rows: 65, cols: 3}"), "between 1 and 64"),
        (_base(board="{topology: triangle, size: 61}"), "between 1 and 60"),
        (_base(board="{topology: graph, nodes: [" + ", ".join(f"n{i}" for i in range(4097)) + "], edges: []}"), "the limit is 4096"),
    ],
)
def test_sizes_above_the_limits_are_refused_with_the_limit_named(tmp_path, text, fragment):
    path = tmp_path / "limits.yaml"
    path.write_text(text)
    with pytest.raises(SpecError) as err:
        load_game_ir(str(path))
    assert fragment in str(err.value)
    assert str(err.value).startswith(f"{path}:")


# --------------------------------------------------------------------------- Ctrl-C


@pytest.mark.skipif(os.name == "nt", reason="POSIX signals")
def test_an_interrupted_match_keeps_complete_games(tmp_path):
    record = tmp_path / "r.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "midgardc.cli", "match", TTT, "--players", "random,greedy", "--games", "100000000", "--record", str(record), "--workers", "1"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    # The record is written to a temporary file beside it and renamed when the match ends;
    # wait until games are being written to it.
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not any(p.stat().st_size > 0 for p in tmp_path.iterdir()):
        time.sleep(0.05)
    time.sleep(0.3)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert "Traceback" not in err
    assert "player" in out and "wins" in out  # the partial results table
    assert proc.returncode in (0, 1, 130), err
    assert [p.name for p in tmp_path.iterdir()] == ["r.jsonl"]  # no temporary file left
    lines = record.read_text().split("\n")
    assert len(lines) > 2
    assert lines[-1] == ""  # ends with a complete line
    for line in lines[:-1]:
        json.loads(line)  # every line is whole JSON


# --------------------------------------------------------------------------- moves and records


def test_illegal_and_malformed_moves_name_their_position():
    proc = _cli("replay", TTT, "--moves", "a1 a1")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "2" in proc.stderr and "a1" in proc.stderr
    proc = _cli("replay", TTT, "--moves", "a1 zz9\x01")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    "content, fragment",
    [
        ('{"game": 0, "moves": ["a1", "b2"', ":1:"),  # truncated
        ("not json at all\n", ":1:"),
        ('{"something": "else"}\n', ":1:"),  # foreign JSONL
        ("", "holds no games"),
        ("\x00\x01\x02", ":1:"),
    ],
)
def test_broken_records_are_one_clear_error(tmp_path, content, fragment):
    record = tmp_path / "r.jsonl"
    record.write_text(content)
    proc = _cli("replay", TTT, "--record", str(record))
    assert proc.returncode == 1, proc.stdout
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr
    assert fragment in proc.stderr


def test_a_record_of_another_spec_is_refused(tmp_path):
    record = tmp_path / "r.jsonl"
    assert _cli("match", str(ROOT / "specs" / "midgard.yaml"), "--players", "random,random", "--games", "1", "--record", str(record)).returncode == 0
    proc = _cli("replay", TTT, "--record", str(record))
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr
    proc = _cli("replay", TTT, "--record", str(record), "--variant", "misere")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
