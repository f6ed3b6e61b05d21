"""Micro Midgard as a whole: both engines playing the same games, random games that stay
legal and end, and a match from the command line."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import SPECS, get_game
from midgardc.cli import cli
from midgardc.runtime.rng import MASK, Rng, derive_seed
from test_chance import _interpreter_games

MICRO = str(SPECS / "micro-midgard.yaml")
SEED = 41_009


def _check_same_games(games: int, seed: int) -> None:
    interp, comp = get_game(MICRO).engine, get_game(MICRO, None, "compiled").engine
    traces, stats = _interpreter_games(interp, games, seed)
    for i, trace in enumerate(traces):
        assert comp.playout_trace(derive_seed(seed, i)) == trace, f"game {i}"
    assert comp.playouts(games, seed) == stats
    assert stats["games"] == games and stats["ply_limited"] == 0


def test_both_engines_play_the_same_games() -> None:
    _check_same_games(40, SEED)


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("MIDGARDC_LONG"), reason="500 interpreter games; set MIDGARDC_LONG=1")
def test_both_engines_play_the_same_five_hundred_games() -> None:
    """What the long run adds: 500 games (the default run plays the 40 of
    test_both_engines_play_the_same_games)."""
    _check_same_games(500, SEED + 1)


def test_perft_agrees_in_both_engines() -> None:
    from midgardc.runtime.game import perft

    game = get_game(MICRO, None, "compiled")
    assert game.engine.perft(5) == perft(get_game(MICRO).new_state(), 5)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, MASK))
def test_random_games_stay_legal_and_end(seed) -> None:
    game = get_game(MICRO, None, "compiled")
    ir = game.ir
    names = list(ir.counters)
    col = {n: names.index(n) for n in ("gold", "mead", "marker", "vp", "phase")}
    setup = dict(ir.enums)["phase"].index("setup")
    state = game.new_state(seed)
    rng = Rng(seed ^ 0x5EED)
    steps = 0
    while not state.is_terminal():
        moves = state.legal_move_ids()
        assert moves, "a player to move has a move (or the turn passes)"
        state.apply_unchecked(moves[rng.below(len(moves))])
        steps += 1
        assert steps < ir.max_plies
        counters = state.core.counters
        board = state.core.board[: ir.board.n_cells]
        # "Players may have a maximum of 7 of each resource"
        for p in range(ir.n_players):
            assert 0 <= counters[p][col["gold"]] <= 7 and 0 <= counters[p][col["mead"]] <= 7
        # four meeples, on four realms ("Meeples may not share the same Realm space"),
        # once the setup has placed them
        assert sum(1 for v in board if v > 0) == 4 or counters[-1][col["phase"]] == setup  # (a game counter)
        # a marker always sits on a meeple (none: the off-board cell, before its first move)
        for p in range(ir.n_players):
            realm = counters[p][col["marker"]]
            assert realm == ir.board.n_cells or board[realm] > 0
    assert not state.core.ply_limited
    vp = [state.core.counters[p][col["vp"]] for p in range(ir.n_players)]
    prophecies_left = len(state.zones()["sun_row"]["game"])
    assert max(vp) >= 9 or prophecies_left == 0  # "a player reaches 9 points, or the final Prophecy"


def test_a_match_prints_a_table() -> None:
    result = CliRunner().invoke(cli, ["match", MICRO, "--players", "random,random", "--games", "200", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "Micro Midgard: 200 games, seed 1" in result.stdout
    assert "as red" in result.stdout and "as blue" in result.stdout


def test_the_spec_validates() -> None:
    result = CliRunner().invoke(cli, ["validate", MICRO])
    assert result.exit_code == 0 and "ok" in result.output
