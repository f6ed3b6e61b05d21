"""Bounded games and sizes, interrupted matches, and broken moves and records.

* A game stopped by ``game.max_plies`` has no result (no ranks, no winner, returns 0): it is
  flagged ``ply_limited`` and counted as "stopped", never as a draw, in both engines, in
  JSON, in compiled playouts and in match records, tables and reports.
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
def test_a_ply_limited_game_is_flagged_and_has_no_result(engine):
    from midgardc.engines import load

    game = load(PLY, engine=engine)
    for seed in range(5):
        state = game.new_state(seed)
        while not state.is_terminal():
            state.apply_unchecked(state.legal_move_ids()[seed % len(state.legal_move_ids())])
        assert state.ply() == 3 and state.core.ply_limited
        assert state.keys()[0] != state.keys()[1]  # the ranking alone would pick a winner
        assert state.winner() is None and state.ranks() is None and state.outcome() == "stopped"
        assert state.returns() == [0.0, 0.0]
        js = state.to_json()
        assert js["winner"] == "stopped" and js["ply_limited"] is True
        assert js["ranks"] is None and js["winners"] == []


def test_both_engines_agree_at_the_ply_limit():
    from midgardc.engines import load

    compiled = load(PLY, engine="compiled")
    interpreted = load(PLY, engine="interpreted")
    a = compiled.engine.playouts(200, 5)
    b = interpreted.engine.playouts(200, 5)
    assert a == b
    assert a["games"] == 200 and a["ply_limited"] == 200
    assert a["draws"] == 0 and a["shared"] == 0 and sum(a["wins"]) == 0 and a["firsts"] == [[0, 0], [0, 0]]


def test_a_game_that_ends_by_its_rules_at_the_limit_is_not_flagged():
    """Tic-tac-toe cut at 5 plies: x's line on the 5th move is a win, not a limit."""
    from midgardc.engines import game_from_ir

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
    assert summary["ply_limited"] == 4 and summary["draws"] == 0
    assert all(p["stopped"] == 4 and p["wins"] == p["draws"] == p["losses"] == 0 for p in summary["players"])
    lines = [json.loads(l) for l in record.read_text().splitlines() if l.strip()]
    games = [l for l in lines if "moves" in l]
    assert len(games) == 4
    for g in games:
        r = g["result"]
        assert r["winner"] == "stopped" and r["outcome"] == "stopped" and r["ply_limited"] is True
        assert r["ranks"] is None and r["winners"] == []
    table = _cli("match", PLY, "--players", "random,greedy", "--games", "2")
    assert "draws 0," in table.stdout
    assert "stopped at the ply limit: 2 games (no result: not wins, draws or losses)" in table.stdout
    report = _cli("report", str(record))
    assert report.returncode == 0, report.stderr
    assert "stopped at the ply limit: 4 games" in report.stdout
    replayed = _cli("replay", PLY, "--record", str(record), "--game", "1")
    assert replayed.returncode == 0, replayed.stderr
    assert "stopped at the ply limit (no result)" in replayed.stderr + replayed.stdout


def test_a_tournament_counts_stopped_games_apart_and_leaves_them_out_of_elo(tmp_path):
    proc = _cli("tournament", PLY, "--players", "random,greedy,random", "--games", "2", "--json")
    assert proc.returncode == 0, proc.stderr
    [v] = json.loads(proc.stdout)["variants"]
    assert v["games"] == 6 and v["ply_limited"] == 6 and v["draws"] == 0 and v["draw_rate"] == 0.0
    for p in v["players"]:
        assert p["stopped"] == p["games"] == 4 and p["wins"] == p["draws"] == p["losses"] == 0
        assert p["elo"] == 0.0  # no pairwise results at all: only the prior
        assert all(h["games"] == 0 for h in v["head_to_head"][p["name"]].values())
    text = _cli("tournament", PLY, "--players", "random,greedy,random", "--games", "2")
    assert "stopped at the ply limit: 6 games (no result: not wins, draws or losses, and not in Elo)" in text.stdout
    assert "stopped" in text.stdout.splitlines()[4].split()  # a column of the players' table


# --------------------------------------------------------------------------- every spec's stop

# The longest game seen per spec, over every variant and player count, with the limit raised
# to 1,000,000 so games end only by their rules: 2,000 random, 2,000 greedy and 100 mcts:100
# games each on the compiled engine (``benchmarks/game_lengths.py SPEC --player P``; the
# comment beside a spec's max_plies says when a run was cut short by time: Go's greedy and
# mcts:100 runs so far). "A safety stop must never decide a
# game that the rules would finish": each limit is at least 10x its figure, written beside it.
LONGEST_SEEN = {
    "magic-mids.yaml": 5713,
    "meridian.yaml": 72,
    "micro-midgard.yaml": 815,
    "midgard-vikings.yaml": 293,
    "midgard.yaml": 69,
    "kuhn-poker.yaml": 3,  # a pass, a bet and a call
    "leduc-poker.yaml": 8,  # two rounds of call, raise, raise, call
    "classics/amazons.yaml": 92,  # the rules' own bound (92 empty squares, one burnt a move); random 85 in 2,000
    "classics/breakthrough.yaml": 110,
    "classics/chess.yaml": 807,  # random, 2,000 games
    "classics/crazyhouse.yaml": 2470,  # random, 2,000 games (no fifty-move rule)
    "classics/connect-four.yaml": 42,  # a full board (default limit 1000)
    "classics/draughts.yaml": 295,  # mcts:100; random and greedy 277 (2026-11-27, after the WCDF 40-move rule)
    "classics/go.yaml": 501,  # greedy (110 games); random 469 in 2,000
    "classics/hex.yaml": 169,
    "classics/international-draughts.yaml": 234,  # mcts:100 (20 games); random and greedy 162 in 2,000 each (2026-11-27)
    "classics/kalah.yaml": 81,
    "classics/nine-mens-morris.yaml": 467,  # random; greedy 105, mcts:100 120
    "classics/liars-dice.yaml": 12,  # random (the rules' own bound: 61, 60 bids and a call)
    "classics/reversi.yaml": 60,
    "classics/shogi.yaml": 9324,  # random, 2,000 games (see HISTORY_BOUND)  # (default limit 1000)
    "classics/tic-tac-toe.yaml": 9,  # a full board (default limit 1000)
    "classics/yahtzee.yaml": 75,  # random (the rules' own bound: 78, 13 rounds of 3 moves each)
}


# Specs whose safety stop is the position history's cap (midgardc/ir/history.py,
# MAX_HISTORY_PLIES: a spec with a history keeps every position of a game in its state),
# which is less than ten times their longest random game: the cap is as far as it goes.
# Shogi's random games wander (every piece taken comes back as a drop; the entering-king
# rule that ends such games is not implemented): 9,324 plies in 2,000.
HISTORY_BOUND = {"classics/shogi.yaml"}


def _configs(path: str):
    from midgardc.spec.lower import list_player_counts, list_variants

    for variant in [None, *list_variants(path)]:
        for n in list_player_counts(path, variant) or [None]:
            yield variant, n


def test_every_spec_has_a_measured_longest_game() -> None:
    specs = sorted(str(p.relative_to(ROOT / "specs")) for p in (ROOT / "specs").rglob("*.yaml"))
    assert specs == sorted(LONGEST_SEEN), "measure the new spec's longest games (benchmarks/game_lengths.py) and add it"


@pytest.mark.parametrize("name", sorted(LONGEST_SEEN))
def test_every_safety_stop_is_ten_times_the_longest_game_seen(name: str) -> None:
    path = str(ROOT / "specs" / name)
    longest = LONGEST_SEEN[name]
    for variant, n in _configs(path):
        if name in HISTORY_BOUND:
            from midgardc.ir.history import MAX_HISTORY_PLIES

            assert load_game_ir(path, variant, n).max_plies == MAX_HISTORY_PLIES > 2 * longest, (variant, n)
            continue
        assert load_game_ir(path, variant, n).max_plies >= 10 * longest, (variant, n)
    text = (ROOT / "specs" / name).read_text(encoding="utf-8")
    if "max_plies:" in text:  # the figure and the command are written beside the limit
        head = text.split("max_plies:", 1)[0].rsplit("game:", 1)[1]
        assert f"{longest:,} plies" in head and "benchmarks/game_lengths.py" in head


@pytest.mark.parametrize("name", sorted(LONGEST_SEEN))
def test_random_games_of_every_spec_end_by_their_rules(name: str) -> None:
    from midgardc.engines import game_from_ir

    path = str(ROOT / "specs" / name)
    for variant, n in _configs(path):
        stats = game_from_ir(load_game_ir(path, variant, n), "compiled").engine.playouts(200, 12)
        assert stats["ply_limited"] == 0 and stats["games"] == 200, (variant, n)


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
@pytest.mark.parametrize("command, games, sig", [("match", "100000000", signal.SIGINT), ("match", "100000000", signal.SIGTERM), ("tournament", "20000", signal.SIGTERM)])
def test_an_interrupted_match_keeps_complete_games(tmp_path, command, games, sig):
    # SIGTERM ('kill PID') as Ctrl-C: it lost the finished games and left the temporary
    # file before (issue 28, item 11)
    record = tmp_path / "r.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "midgardc.cli", command, TTT, "--players", "random,greedy", "--games", games, "--record", str(record), "--workers", "1", "--engine", "interpreted"],
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
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    assert "Traceback" not in err
    assert "wins" in out  # the partial results table
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


def test_the_svg_picture_of_a_stopped_game_says_it_has_no_result():
    from midgardc.render.svg import render_svg
    from midgardc.engines import load

    state = load(PLY, engine="interpreted").new_state(0)
    while not state.is_terminal():
        state.apply_unchecked(state.legal_move_ids()[0])
    svg = render_svg(state)
    import xml.etree.ElementTree as ET

    status = next(e for e in ET.fromstring(svg).iter() if e.get("class") == "status")
    assert " ".join(t.strip() for t in status.itertext()) == "game over: stopped at the ply limit after 3 moves (no result)"  # (in lines)
    assert "draw" not in svg and " wins" not in svg
