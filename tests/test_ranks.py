"""Results by rank: tied leaders share first place, the others lose (issue 12, finding 4).

The Vikings rulebook: "In case of a tie, the tied player who has collected the most kingdom
tokens in total (regardless of color) is the winner. Should that be tied as well, the tied
players share the victory." Magic Mids' spec (FACTS, deadlock): "when the board is full,
the game ends; fewest mids in stash wins, then most pips on the board". At the table, when
two of three players tie for first, those two share first place and the third loses: a
game of 3+ seats tied for first is never scored as a draw for everyone. Every result comes
from ``midgardc.runtime.results`` (ranks -> winners, shares, returns), on both engines.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import ENGINES, ROOT
from midgardc.matches.record import record_line
from midgardc.matches.results import GameResult, result_of
from midgardc.matches.tally import Tally
from midgardc.matches.tournament import Entry, variant_summary
from midgardc.runtime import results
from midgardc.engines import load
from midgardc.spec.lower import load_game_ir

MAGIC = str(ROOT / "specs" / "magic-mids.yaml")
# Uniformly random games (engine.playout_trace(seed) from new_state(seed)) that end tied for first
SHARED_3P = (3, (1, 1, 3))  # seed 3, 3 players: red and yellow 4 mids in stash and 14 pips each, green 5
SHARED_4P = (282, (1, 1, 4, 1))  # seed 282, 4 players: three leaders, blue last


def _played(engine: str, n: int, seed: int):
    game = load(MAGIC, engine=engine, n_players=n)
    state = game.new_state(seed)
    for move in game.engine.playout_trace(seed):
        state.apply(move)
    return state


# -- the rules of results.py -------------------------------------------------------------------


def test_ranks_returns_and_shares_from_keys() -> None:
    ir = load_game_ir(MAGIC, n_players=3)  # stash (lower is better), then pips
    cases = [
        # keys per seat -> ranks, outcome, returns
        ([[4, 14], [4, 14], [5, 10]], (1, 1, 3), "shared", [0.5, 0.5, -1.0]),
        ([[4, 14], [4, 13], [5, 10]], (1, 2, 3), "win", [2.0, -1.0, -1.0]),
        ([[3, 9], [4, 14], [4, 14]], (1, 2, 2), "win", [2.0, -1.0, -1.0]),
        ([[2, 7], [2, 7], [2, 7]], (1, 1, 1), "draw", [0.0, 0.0, 0.0]),
    ]
    for keys, ranks, outcome, returns in cases:
        got = results.ranks_of(ir, keys)
        assert got == ranks
        assert results.game_outcome(got) == outcome
        assert results.returns_of(ir, keys) == returns
        assert sum(results.returns_of(ir, keys)) == 0.0  # zero-sum for any number of seats
        assert sum(results.shares_of(got, 3)) == pytest.approx(1.0)
    assert results.seat_outcome((1, 1, 3), 0) == "shared" and results.seat_outcome((1, 1, 3), 2) == "loss"
    assert results.seat_outcome((1, 1, 1), 2) == "draw"
    # a game stopped by the ply limit has no ranks, whatever the keys
    assert results.ranks_of(ir, [[1, 0], [5, 0], [5, 0]], ply_limited=True) is None
    assert results.returns_from_ranks(None, 3) == [0.0, 0.0, 0.0]
    assert results.seat_outcome(None, 1) == "stopped"
    two = load_game_ir(MAGIC, n_players=2)  # a two-player tie stays a draw: 0 and 0
    assert results.ranks_of(two, [[3, 9], [3, 9]]) == (1, 1) and results.returns_of(two, [[3, 9], [3, 9]]) == [0.0, 0.0]
    assert results.returns_of(two, [[3, 9], [4, 9]]) == [1.0, -1.0]
    four = load_game_ir(MAGIC, n_players=4)
    assert results.returns_of(four, [[2, 12], [2, 12], [6, 3], [2, 12]]) == [1 / 3, 1 / 3, -1.0, 1 / 3]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("n, case", [(3, SHARED_3P), (4, SHARED_4P)], ids=["3p", "4p"])
def test_a_full_board_tie_for_first_is_shared_by_the_leaders_and_lost_by_the_others(engine: str, n: int, case) -> None:
    seed, ranks = case
    state = _played(engine, n, seed)
    assert state.is_terminal() and not state.core.ply_limited
    assert state.ranks() == ranks
    leaders = [s for s, r in enumerate(ranks) if r == 1]
    k = len(leaders)
    assert state.outcome() == "shared" and state.winner() is None
    assert state.returns() == [(n - k) / k if r == 1 else -1.0 for r in ranks]  # never all 0 (a draw)
    js = state.to_json()
    assert js["winner"] == "shared" and js["winners"] == [state.game.players[s] for s in leaders]
    assert js["ranks"] == dict(zip(state.game.players, ranks))
    # rollouts from the finished game repeat its result, in C and in Python alike
    stats = state.game.engine.rollouts(state.core, 4, 1)
    assert stats["shared"] == 4 and stats["draws"] == 0 and sum(stats["wins"]) == 0
    assert stats["firsts"] == [[0] * (k - 1) + [4] + [0] * (n - k) if r == 1 else [0] * n for r in ranks]
    assert state.rollout_returns(4, 1) == [4 * x for x in state.returns()]
    assert results.summed_shares(stats) == [4 / k if r == 1 else 0.0 for r in ranks]  # what mcts backs up


def test_both_engines_count_shared_first_places_alike_in_playouts() -> None:
    a = load(MAGIC, engine="compiled", n_players=3).engine.playouts(30, 5)
    b = load(MAGIC, engine="interpreted", n_players=3).engine.playouts(30, 5)
    assert a == b
    assert a["shared"] >= 1 and a["draws"] == 0
    assert sum(a["wins"]) + a["shared"] + a["draws"] + a["ply_limited"] == a["games"] == 30
    assert [row[0] for row in a["firsts"]] == a["wins"]
    assert sum(row[1] for row in a["firsts"]) == 2 * a["shared"]  # (two leaders each time here)


# -- matches, tournaments, records -----------------------------------------------------------


def test_tally_record_and_elo_score_the_leaders_as_sharing_and_the_other_as_losing() -> None:
    state = _played("compiled", 3, SHARED_3P[0])
    labels = ["alice", "bob", "carol"]
    result = result_of(state, 0, SHARED_3P[0], (0, 1, 2), ("x",))
    assert isinstance(result, GameResult) and result.ranks == (1, 1, 3) and result.outcome == "shared"
    ir = state.game.ir
    tally = Tally(ir, labels)
    tally.add(result)
    s = tally.summary()
    assert s["draws"] == 0 and s["shared"] == 1 and s["ply_limited"] == 0
    assert [(p["wins"], p["shared"], p["draws"], p["losses"]) for p in s["players"]] == [(0, 1, 0, 0), (0, 1, 0, 0), (0, 0, 0, 1)]
    # pairwise by rank: the leaders draw each other and each beats the third
    assert tally.pair_draws[0][1] == 1 and tally.pair_wins[0][2] == 1 and tally.pair_wins[1][2] == 1 and tally.pair_wins[2] == [0, 0, 0]
    v = variant_summary(Entry("base", None, ir, ((0, 1, 2),)), tally, 1)
    elo = {p["name"]: p["elo"] for p in v["players"]}
    assert elo["alice"] == elo["bob"] > 0 > elo["carol"]
    line = record_line(ir, labels, {"spec": MAGIC}, result)
    r = line["result"]
    assert r["winner"] == "shared" and r["outcome"] == "shared" and r["winners"] == ["alice", "bob"]
    assert r["ranks"] == {"red": 1, "yellow": 1, "green": 3} and r["winner_seat"] is None


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "midgardc.cli", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_match_tournament_record_and_report_show_shared_first_places(tmp_path) -> None:
    # match seed 8, 9 games of Magic Mids for three: three of them end tied for first
    record = tmp_path / "m.jsonl"
    proc = _cli("match", MAGIC, "--players", "random,greedy,random", "--games", "9", "--seed", "8", "--engine", "compiled", "--json", "--record", str(record))
    assert proc.returncode == 0, proc.stderr
    s = json.loads(proc.stdout)
    assert s["shared"] == 3 and s["draws"] == 0
    assert sum(p["wins"] for p in s["players"]) + s["shared"] + s["draws"] + s["ply_limited"] == 9
    assert sum(p["shared"] for p in s["players"]) >= 2 * s["shared"]
    for p in s["players"]:
        assert p["wins"] + p["shared"] + p["draws"] + p["losses"] + p["stopped"] == p["games"] == 9
    lines = [json.loads(x) for x in record.read_text().splitlines()]
    shared = [x for x in lines if x["result"]["outcome"] == "shared"]
    assert len(shared) == 3
    for x in shared:
        ranks = x["result"]["ranks"]
        assert sorted(ranks.values())[:2] == [1, 1] and max(ranks.values()) > 1
        assert x["result"]["winners"] == [x["seats"][i] for i, seat in enumerate(x["seat_names"]) if ranks[seat] == 1]
    text = _cli("match", MAGIC, "--players", "random,greedy,random", "--games", "9", "--seed", "8", "--engine", "compiled").stdout
    assert "shared 1st" in text and "shared first places 3" in text and "draws 0" in text
    report = _cli("report", str(record))
    assert report.returncode == 0, report.stderr
    assert "shared 1st" in report.stdout and "shared first places 3" in report.stdout
    html = tmp_path / "r.html"
    assert _cli("report", str(record), "--html", str(html)).returncode == 0
    page = html.read_text()
    assert "shared 1st" in page and "share first place" in page  # the table and a replay's result
    game = shared[0]["game"]
    replayed = _cli("replay", MAGIC, "--record", str(record), "--game", str(game))
    assert replayed.returncode == 0, replayed.stderr
    assert "share first place" in replayed.stderr + replayed.stdout
    # a tournament of the same three players, one pairing: the same games, the same counts
    t = json.loads(_cli("tournament", MAGIC, "--players", "random,greedy,random", "--player-count", "3", "--games", "9", "--seed", "8", "--json").stdout)
    [v] = t["variants"]
    assert v["shared"] == 3 and v["draws"] == 0
    assert {p["name"]: p["shared"] for p in v["players"]} == {p["name"]: p["shared"] for p in s["players"]}


# -- pictures -----------------------------------------------------------------------------------


def test_the_svg_picture_says_a_shared_first_place_as_the_table_does() -> None:
    from midgardc.render.svg import render_svg

    import xml.etree.ElementTree as ET

    state = _played("compiled", 3, SHARED_3P[0])
    svg = render_svg(state)
    status = next(t for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text") if t.get("class") == "status")
    said = " ".join(part.strip() for part in status.itertext())  # (wrapped in lines under the board)
    assert "red and yellow share first place" in said, said
    assert " wins" not in svg and "draw" not in svg
