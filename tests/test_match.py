"""The match runner: seeding, seat rotation, workers, records, interruption."""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path

import pytest

from conftest import MIDGARD, get_game
from midgardc.errors import MidgardcError
from midgardc.matches import play_game, read_record, run_match, spec_sha256
from midgardc.matches.runner import seating
from midgardc.players import parse_players
from midgardc.runtime.game import replay
from midgardc.runtime.rng import derive_seed

RANDOMS = parse_players("random,random")


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_seats_rotate_so_each_player_sits_first_equally_often() -> None:
    assert [seating(i, 2) for i in range(4)] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    assert [seating(i, 3) for i in range(3)] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    outcome = run_match(get_game(MIDGARD), MIDGARD, RANDOMS, games=4, seed=5)
    for player in outcome.tally.summary()["players"]:
        assert player["games_by_seat"] == {"sea": 2, "land": 2}


def test_a_game_depends_only_on_seed_and_index() -> None:
    game = get_game(MIDGARD)
    players = [s.make() for s in RANDOMS]
    a = play_game(game, players, 3, seed=11)
    b = play_game(game, players, 3, seed=11)
    assert a == b
    assert a.seed == derive_seed(11, 3)
    assert a.seats == (1, 0)
    assert play_game(game, players, 4, seed=11).moves != a.moves
    # Seat rngs belong to seats: two random players in swapped seats play the same game.
    assert play_game(game, players[::-1], 3, seed=11).moves == a.moves


def test_tally_adds_up() -> None:
    outcome = run_match(get_game(MIDGARD), MIDGARD, RANDOMS, games=6, seed=2)
    s = outcome.tally.summary()
    assert s["games"] == 6 and not outcome.interrupted
    assert sum(p["wins"] for p in s["players"]) + s["draws"] == 6
    for p in s["players"]:
        assert sum(p["wins_by_seat"].values()) == p["wins"]
        assert p["win_pct"] == pytest.approx(100 * p["wins"] / 6, abs=0.01)
    assert s["players"][0]["mean_diff"] == pytest.approx(-s["players"][1]["mean_diff"])
    assert 20 < s["mean_plies"] < 130 and s["mean_margin"] >= 0


def test_workers_do_not_change_results(tmp_path: Path) -> None:
    game = get_game(MIDGARD)
    one = run_match(game, MIDGARD, RANDOMS, games=6, seed=9, workers=1, record=str(tmp_path / "one.jsonl"))
    two = run_match(game, MIDGARD, RANDOMS, games=6, seed=9, workers=2, record=str(tmp_path / "two.jsonl"))
    assert one.tally.summary() == two.tally.summary()
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()


def test_record_lines_replay_to_the_recorded_result(tmp_path: Path) -> None:
    record = tmp_path / "games.jsonl"
    game = get_game(MIDGARD)
    run_match(game, MIDGARD, parse_players("greedy,random"), games=2, seed=4, record=str(record))
    lines = _lines(record)
    assert [line["game"] for line in lines] == [0, 1]
    assert [line["seats"] for line in lines] == [["greedy", "random"], ["random", "greedy"]]
    for line in lines:
        assert line["spec"] == MIDGARD
        assert line["spec_sha256"] == spec_sha256(MIDGARD)
        assert line["variant"] is None and line["seed"] == 4
        assert line["game_seed"] == derive_seed(4, line["game"])
        assert line["seat_names"] == ["sea", "land"]
        result = line["result"]
        state = replay(game, line["moves"], line["game_seed"])
        assert state.is_terminal()
        assert result["plies"] == state.ply() == len(line["moves"])
        assert result["keys"] == state.scores()
        winner = state.winner()
        assert result["winner_seat"] == (None if winner is None else game.players[winner])
        assert result["winner"] == ("draw" if winner is None else line["seats"][winner])
    assert read_record(str(record), 1) == lines[1]


def test_read_record_errors_point_at_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"game": 0, "moves": []}\n{"game": 1, "moves": [\n', encoding="utf-8")
    with pytest.raises(MidgardcError, match=r"bad.jsonl:2:\d+: error: not a match record line"):
        read_record(str(bad), 1)
    one = tmp_path / "one.jsonl"
    one.write_text('{"game": 0, "moves": []}\n', encoding="utf-8")
    with pytest.raises(MidgardcError, match=r"has no game 7 \(it holds games 0..0\)"):
        read_record(str(one), 7)


def test_interrupted_match_keeps_whole_lines_and_no_temp_file(tmp_path: Path) -> None:
    record = tmp_path / "partial.jsonl"
    seen = []

    def stop_after_two(result) -> None:
        seen.append(result.index)
        if len(seen) == 2:
            raise KeyboardInterrupt

    outcome = run_match(get_game(MIDGARD), MIDGARD, RANDOMS, games=50, seed=1, record=str(record), on_game=stop_after_two)
    assert outcome.interrupted and outcome.tally.games == 2 and outcome.requested == 50
    assert [line["game"] for line in _lines(record)] == [0, 1]
    assert os.listdir(tmp_path) == ["partial.jsonl"]


def test_failed_match_leaves_no_record(tmp_path: Path) -> None:
    script = tmp_path / "late.py"
    script.write_text("def choose(state, legal_moves, rng):\n    if state.ply() > 6:\n        raise ValueError('tired')\n    return legal_moves[0]\n")
    record = tmp_path / "never.jsonl"
    with pytest.raises(MidgardcError, match="late.py raised ValueError: tired"):
        run_match(get_game(MIDGARD), MIDGARD, parse_players(f"script:{script},random"), games=2, record=str(record))
    assert sorted(os.listdir(tmp_path)) == ["late.py"]


def test_script_error_in_a_worker_comes_back_as_a_user_error(tmp_path: Path) -> None:
    script = tmp_path / "late.py"
    script.write_text("def choose(state, legal_moves, rng):\n    if state.ply() > 6:\n        raise ValueError('tired')\n    return legal_moves[0]\n")
    with pytest.raises(MidgardcError) as info:
        run_match(get_game(MIDGARD), MIDGARD, parse_players(f"script:{script},random"), games=2, workers=2)
    assert f"{script}:3:" in str(info.value) and "raised ValueError: tired" in str(info.value)


def test_a_worker_that_dies_is_one_clear_error_not_a_wait(tmp_path: Path) -> None:
    """A worker killed mid-game (here: its player ends the process) used to leave the parent
    waiting on multiprocessing.Pool forever; now the match stops with a message."""
    script = tmp_path / "dies.py"
    script.write_text("import os\n\n\ndef choose(*args):\n    os._exit(3)\n")
    record = tmp_path / "never.jsonl"
    with pytest.raises(MidgardcError, match="a worker process died before finishing its games"):
        run_match(get_game(MIDGARD), MIDGARD, parse_players(f"script:{script},random"), games=4, workers=2, record=str(record))
    assert not record.exists()


def test_player_count_must_match_the_seats() -> None:
    with pytest.raises(MidgardcError, match=r"Midgard has 2 seats \(sea, land\) but 3 players were given"):
        run_match(get_game(MIDGARD), MIDGARD, parse_players("random,random,greedy"), games=1)


_HAS_COMPILED = importlib.util.find_spec("midgardc.runtime.compiled") is not None


@pytest.mark.skipif(not _HAS_COMPILED, reason="the compiled back end is being written in parallel")
def test_both_engines_play_the_same_match() -> None:
    players = parse_players("greedy,random")
    interpreted = run_match(get_game(MIDGARD), MIDGARD, players, games=2, seed=3)
    compiled = run_match(get_game(MIDGARD, engine="compiled"), MIDGARD, players, games=2, seed=3)
    assert compiled.tally.summary() == interpreted.tally.summary()
