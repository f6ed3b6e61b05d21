"""Tournaments: the plan (pairings, seats, seeds), the tables (text, JSON, CSV), errors for
people, progress on stderr, and identical results in-process, with workers and on Dask."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Optional

import pytest
from click.testing import CliRunner, Result

from conftest import MIDGARD, ROOT
from midgardc.cli import cli
from midgardc.errors import MidgardcError
from midgardc.matches import cluster as cluster_module
from midgardc.players import parse_player
from midgardc.matches.tournament import BASE, Entry, pairings, plan, variant_names
from midgardc.runtime.rng import derive_seed
from midgardc.spec.lower import load_game_ir

TICTACTOE = str(ROOT / "specs" / "classics" / "tic-tac-toe.yaml")


def run(*args: str, env: Optional[dict] = None) -> Result:
    return CliRunner().invoke(cli, list(args), env=env)


def _json(*args: str) -> dict:
    result = run("tournament", *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# -- the plan ------------------------------------------------------------------------------


def test_pairings_are_every_group_of_distinct_players_that_fills_the_seats() -> None:
    assert pairings(3, 2) == [(0, 1), (0, 2), (1, 2)]
    assert pairings(2, 2) == [(0, 1)]
    assert len(pairings(5, 3)) == 10
    with pytest.raises(MidgardcError, match="at least as many players as seats: 2 seats, 1 player given"):
        pairings(1, 2)


def _entries(*variants: Optional[str], players: int = 3) -> list[Entry]:
    out = []
    for v in variants:
        ir = load_game_ir(MIDGARD, v)
        out.append(Entry(v or BASE, v, ir, tuple(pairings(players, ir.n_players))))
    return out


def test_plan_rotates_seats_evenly_and_numbers_games_in_a_fixed_order() -> None:
    entries = _entries(None, "odin")
    tasks = plan(entries, games=4, seed=11)
    assert [t.index for t in tasks] == list(range(2 * 3 * 4))
    assert [t.variant for t in tasks] == [None] * 12 + ["odin"] * 12
    # Within a pairing every player takes every seat equally often.
    for start in range(0, 24, 4):
        block = tasks[start : start + 4]
        assert len({tuple(sorted(t.seats)) for t in block}) == 1
        seat_use = Counter((p, s) for t in block for s, p in enumerate(t.seats))
        assert set(seat_use.values()) == {2}
    assert [tuple(sorted(t.seats)) for t in tasks[:12:4]] == [(0, 1), (0, 2), (1, 2)]


def test_plan_uses_common_random_numbers_across_variants_and_match_seeds_for_one_pairing() -> None:
    tasks = plan(_entries(None, "loki"), games=5, seed=3)
    assert [t.seed for t in tasks[:15]] == [t.seed for t in tasks[15:]]
    assert len({t.seed for t in tasks[:15]}) == 15
    # One pairing: game j is seeded and seated exactly like game j of a match.
    single = plan(_entries(None, players=2), games=5, seed=3)
    assert [t.seed for t in single] == [derive_seed(3, j) for j in range(5)]
    assert [t.seats for t in single] == [(0, 1), (1, 0), (0, 1), (1, 0), (0, 1)]


def test_variant_names_base_is_the_game_without_a_variant() -> None:
    assert variant_names([], ["odin"]) == [(BASE, None)]
    assert variant_names(["base", "odin"], ["odin"]) == [(BASE, None), ("odin", "odin")]
    with pytest.raises(MidgardcError, match="--variant odin is given twice"):
        variant_names(["odin", "odin"], ["odin"])
    with pytest.raises(MidgardcError, match="declares a variant named 'base'"):
        variant_names([], ["base", "odin"])


# -- the command ---------------------------------------------------------------------------


def test_a_two_player_tournament_is_the_match_of_the_same_seed() -> None:
    data = _json(MIDGARD, "-p", "greedy,random", "-n", "6", "--seed", "4")
    match = run("match", MIDGARD, "-p", "greedy,random", "-n", "6", "--seed", "4", "--json")
    assert match.exit_code == 0, match.output
    m = json.loads(match.stdout)
    [v] = data["variants"]
    assert [(p["name"], p["wins"]) for p in v["players"]] == [(p["name"], p["wins"]) for p in m["players"]]
    assert v["draws"] == m["draws"] and v["plies"]["mean"] == m["mean_plies"] and v["margin"]["mean"] == m["mean_margin"]


def test_json_shape_and_numbers_agree_with_each_other() -> None:
    data = _json(MIDGARD, "-p", "random,greedy,mcts:8", "-n", "4", "-V", "base", "-V", "mere-mortal", "--seed", "2")
    assert list(data) == ["spec", "game", "engine", "seed", "players", "games_per_pairing", "requested", "games", "interrupted", "variants", "comparison"]
    assert data["players"] == ["random", "greedy", parse_player("mcts:8").text]
    assert data["games"] == data["requested"] == 2 * 3 * 4 and not data["interrupted"]
    for v in data["variants"]:
        assert v["games"] == 12 and len(v["pairings"]) == 3
        seats = v["seats"]
        assert sum(v["seat_wins"][s]["wins"] for s in seats) + v["draws"] == 12
        for p in v["players"]:
            assert p["games"] == 8 and p["wins"] + p["draws"] + p["losses"] == 8
            assert p["win_ci"][0] <= p["win_rate"] <= p["win_ci"][1]
            assert sum(p["seats"][s]["games"] for s in seats) == 8
            assert all(p["seats"][s]["games"] == 4 for s in seats)  # balanced: 4 games, 2 seats
            against = v["head_to_head"][p["name"]]
            assert sum(h["wins"] for h in against.values()) == p["wins"]
            assert sum(h["games"] for h in against.values()) == 8
        assert abs(sum(p["elo"] for p in v["players"])) < 0.5
        best = max(v["players"], key=lambda p: p["score"])
        assert best["elo"] == max(p["elo"] for p in v["players"])
    assert [c["variant"] for c in data["comparison"]] == ["base", "mere-mortal"]


def test_text_table_shows_intervals_ratings_seats_and_the_comparison() -> None:
    result = run("tournament", MIDGARD, "-p", "random,greedy", "-n", "4", "-V", "base", "-V", "odin")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Midgard [base]: 4 games in 1 pairing" in out and "[odin]: 4 games" in out
    for heading in ("win rate", "[95%]", "Elo", "as sea", "as land", "head to head", "variants compared", "plies"):
        assert heading in out
    data = _json(MIDGARD, "-p", "random,greedy", "-n", "4", "-V", "base", "-V", "odin")
    greedy = next(p for p in data["variants"][0]["players"] if p["name"] == "greedy")
    lo, hi = greedy["win_ci"]
    assert f"[{100 * lo:.1f}, {100 * hi:.1f}]" in out and f"{greedy['elo']:+.0f}" in out


def test_csv_has_a_header_and_one_row_per_variant_and_player() -> None:
    result = run("tournament", MIDGARD, "-p", "random,greedy,random", "-n", "2", "-V", "base", "-V", "loki", "--csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [(r["variant"], r["player"]) for r in rows] == [(v, p) for v in ("base", "loki") for p in ("random#1", "greedy", "random#2")]
    assert all(r["seat1"] == "sea" and r["seat2"] == "land" for r in rows)
    assert all(int(r["wins"]) + int(r["draws"]) + int(r["losses"]) == int(r["games"]) == 4 for r in rows)


def test_seats_not_balanced_says_so_on_stderr() -> None:
    result = run("tournament", MIDGARD, "-p", "random,greedy", "-n", "3", "--json")
    assert result.exit_code == 0, result.output
    assert "not a multiple of the seat count (2); seats are not perfectly balanced" in result.stderr
    json.loads(result.stdout)
    assert "balanced" not in run("tournament", MIDGARD, "-p", "random,greedy", "-n", "2", "--json").stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["-p", "random"], "at least as many players as seats: 2 seats, 1 player given"),
        (["-p", "random,greedy", "-V", "odni"], "unknown variant 'odni' (this spec has: base, mere-mortal, odin, loki"),
        (["-p", "random,greedy", "-V", "odin", "-V", "odin"], "--variant odin is given twice"),
        (["-p", "random,greedy", "--json", "--csv"], "--json and --csv cannot be used together"),
        (["-p", "random,greedy", "--cluster", "nowhere"], "--cluster takes a scheduler address like tcp://HOST:PORT"),
        (["-p", "random,greedy", "--cluster", "local", "--workers", "2"], "--workers and --cluster cannot be used together"),
        (["-p", "random,bogus"], "unknown player 'bogus'"),
    ],
)
def test_errors_are_one_clear_message(args: list[str], message: str) -> None:
    result = run("tournament", MIDGARD, *args, "-n", "2")
    assert result.exit_code == 1, result.output
    assert message in result.stderr
    assert "Traceback" not in result.output and result.stdout == ""


def test_a_spec_with_a_variant_named_base_is_refused(tmp_path: Path) -> None:
    spec = tmp_path / "ttt.yaml"
    spec.write_text(Path(TICTACTOE).read_text() + "  base:\n    title: Confusing\n    patch: {}\n")
    result = run("tournament", str(spec), "-p", "random,greedy", "-n", "2")
    assert result.exit_code == 1 and "declares a variant named 'base'" in result.stderr


def test_unreachable_scheduler_and_missing_dask_are_clear_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster_module, "CONNECT_TIMEOUT", 1)
    result = run("tournament", MIDGARD, "-p", "random,greedy", "-n", "2", "--cluster", "tcp://127.0.0.1:9")
    assert result.exit_code == 1, result.output
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9 within 1 s" in result.stderr
    assert "Traceback" not in result.output
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if midgardc[cluster] were not installed
    result = run("tournament", MIDGARD, "-p", "random,greedy", "-n", "2", "--cluster", "local")
    assert result.exit_code == 1 and "install midgardc[cluster]" in result.stderr


def test_progress_goes_to_stderr_and_stdout_stays_json() -> None:
    for command in (["tournament", MIDGARD, "-p", "random,greedy,random"], ["match", MIDGARD, "-p", "random,greedy"]):
        result = run(*command, "-n", "6", "--json", "--progress")
        assert result.exit_code == 0, result.output
        json.loads(result.stdout)
        total = 18 if command[0] == "tournament" else 6
        assert f"{total}/{total}" in result.stderr and "game/s" in result.stderr
        quiet = run(*command, "-n", "6", "--json", "--no-progress")
        assert "game/s" not in quiet.stderr and quiet.stdout == result.stdout


def test_record_lines_carry_the_tournament_players_and_pairing(tmp_path: Path) -> None:
    record = tmp_path / "t.jsonl"
    result = run("tournament", MIDGARD, "-p", "random,greedy,mcts:5", "-n", "2", "-V", "base", "-V", "odin", "--record", str(record), "--seed", "6")
    assert result.exit_code == 0, result.output
    assert f"recorded 12 games in {record}" in result.stderr
    lines = [json.loads(t) for t in record.read_text().splitlines()]
    assert [line["game"] for line in lines] == list(range(12))
    keys = ["spec", "spec_sha256", "variant", "players_count", "engine", "seed", "players", "game", "game_seed", "pairing", "seed_index", "seat_names", "seats", "moves", "result", "final_sha256"]
    assert all(list(line) == keys for line in lines)
    players = lines[0]["players"]
    assert players[:2] == ["random", "greedy"] and len(players) == 3
    assert [line["variant"] for line in lines] == [None] * 6 + ["odin"] * 6
    assert [line["pairing"] for line in lines[:6]] == [players[:2]] * 2 + [[players[0], players[2]]] * 2 + [players[1:]] * 2
    assert all(sorted(line["seats"]) == sorted(line["pairing"]) for line in lines)
    assert [line["game_seed"] for line in lines[:6]] == [line["game_seed"] for line in lines[6:]]  # common random numbers
    assert lines[1]["seats"] == lines[0]["seats"][::-1]


def test_results_are_identical_with_one_or_two_workers_and_on_a_dask_cluster() -> None:
    """The done-when check of the issue, at small N: byte-identical --json."""
    distributed = pytest.importorskip("distributed")
    args = ["tournament", MIDGARD, "-p", "random,greedy,mcts:10", "-n", "4", "-V", "base", "-V", "mere-mortal", "--seed", "7", "--json", "--no-progress"]
    one = run(*args, "--workers", "1")
    two = run(*args, "--workers", "2")
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None, processes=True) as cluster:
        on_dask = run(*args, "--cluster", cluster.scheduler_address)
    assert on_dask.exit_code == 0, on_dask.output
    started_here = run(*args, "--cluster", "local:2")  # a LocalCluster of our own, for this run
    assert started_here.exit_code == 0, started_here.output
    assert one.stdout == two.stdout == on_dask.stdout == started_here.stdout
    assert json.loads(one.stdout)["games"] == 2 * 3 * 4


def test_ctrl_c_prints_the_partial_table_keeps_the_record_and_exits_130(tmp_path: Path) -> None:
    record = tmp_path / "games.jsonl"
    exe = Path(sys.executable).parent / "midgardc"
    proc = subprocess.Popen(
        [str(exe), "tournament", MIDGARD, "-p", "random,random,random", "-n", "100000", "-e", "interpreted", "--record", str(record)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, NO_COLOR="1"),
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 60
    while not any(p.name.endswith(".tmp") for p in tmp_path.iterdir()):
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.05)
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted after" in out and "of 300000 games" in out and "head to head" in out
    assert "Traceback" not in err
    assert [p.name for p in tmp_path.iterdir()] == ["games.jsonl"]
    games = [json.loads(line)["game"] for line in record.read_text().splitlines()]
    assert games == list(range(len(games)))


THREE_SEATS = """\
midgardc: 1
game:
  name: three-in-a-row
  title: Three in a row, three players
  players: [x, o, z]
pieces:
  mark:
    hand: 6
board:
  topology: square
  rows: 4
  cols: 4
define:
  line_from(cell c, dir d, player p): "owner(c) == p and owner(step(c, d)) == p and owner(step(step(c, d), d)) == p"
  has_line(player p): "any c in cells: any d in directions: line_from(c, d, p)"
  full: "all c in cells: occupied(c)"
actions:
  play:
    params: {c: cell}
    where: empty(c)
    effects:
      - place: {piece: mark, at: c}
    notation: "{c}"
end:
  when:
    - "any p in players: has_line(p)"
    - full
ranking:
  line: "count(q in players: q == p and has_line(p))"
"""


def test_games_of_three_seats_count_as_pairwise_results(tmp_path: Path) -> None:
    spec = tmp_path / "three.yaml"
    spec.write_text(THREE_SEATS)
    record = tmp_path / "three.jsonl"
    data = _json(str(spec), "-p", "random,greedy,random,greedy", "-n", "6", "-e", "interpreted", "--record", str(record))
    [v] = data["variants"]
    assert len(v["pairings"]) == 4 and v["games"] == 24  # C(4, 3) groups of three
    names = [p["name"] for p in v["players"]]
    for p in v["players"]:
        assert p["games"] == 18 and all(p["seats"][s]["games"] == 6 for s in ("x", "o", "z"))
    h2h = v["head_to_head"]
    for a in names:
        for b in names:
            if a != b:
                assert h2h[a][b]["games"] == 12  # two groups of three hold both, 6 games each
                assert h2h[a][b]["wins"] == h2h[b][a]["losses"] and h2h[a][b]["draws"] == h2h[b][a]["draws"]
    # In a game one player wins (the two others draw with each other) or all three draw.
    lines = [json.loads(t) for t in record.read_text().splitlines()]
    decided = sum(1 for line in lines if line["result"]["winner"] != "draw")
    total_pair_draws = sum(h2h[a][b]["draws"] for a in names for b in names if a != b) // 2
    assert total_pair_draws == decided * 1 + (24 - decided) * 3
    ranked = sorted(v["players"], key=lambda p: p["score"])
    assert [p["elo"] for p in ranked] == sorted(p["elo"] for p in v["players"])


def test_the_spec_travels_to_workers_by_value_extends_chain_included(tmp_path: Path) -> None:
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "base.yaml").write_text(Path(TICTACTOE).read_text())
    child = tmp_path / "child.yaml"
    child.write_text("extends: lib/base.yaml\ngame:\n  title: Child game\n")
    bundle = cluster_module.bundle_spec(str(child))
    assert [rel for rel, _ in bundle.files] == ["child.yaml", os.path.join("lib", "base.yaml")] and bundle.depth == 0
    unpacked = cluster_module.unpack(bundle)
    assert os.path.basename(unpacked) == "child.yaml" and not unpacked.startswith(str(tmp_path))
    assert load_game_ir(unpacked).title == load_game_ir(str(child)).title == "Child game"
    assert cluster_module.unpack(bundle) == unpacked  # once per process
