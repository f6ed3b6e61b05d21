"""Magic Mids as a whole: stashes per player count, both engines playing the same games,
random games that stay legal and end, and a 4-player match from the command line."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import SPECS
from midgardc.cli import cli
from midgardc.engines import load
from midgardc.runtime.rng import MASK, Rng, derive_seed
from test_chance import _interpreter_games

MIDS = str(SPECS / "magic-mids.yaml")
COUNTS = [2, 3, 4]
SEED = 77_001

_games: dict = {}


def mids(n: int, engine: str = "interpreted"):
    key = (n, engine)
    if key not in _games:
        _games[key] = load(MIDS, None, engine, n_players=n)
    return _games[key]


@pytest.mark.parametrize(
    "n, stash",
    [(2, [5, 5, 5]), (3, [3, 5, 3]), (4, [2, 4, 2])],
)
def test_stashes_per_player_count(n, stash) -> None:
    # "Setup" 1: 2 players ::SML x5 (15 mids); 3 players ::SML x3 + ::M ::M (11);
    # 4 players ::SML x2 + ::M ::M (8)
    ir = mids(n).ir
    assert ir.n_players == n and ir.kinds == ("small", "medium", "large")
    assert [list(h) for h in ir.hand_init] == [stash] * n
    assert sum(stash) == {2: 15, 3: 11, 4: 8}[n]
    # "Setup" 2-3: 4 columns headed 2..5 and 5 rows, on a torus
    assert ir.board.n_cells == 20 and ir.board.topology == "square"
    (column,) = [a.table for a in ir.attributes if a.name == "column"]  # a cell attribute
    assert [column[ir.board.cell_names.index(f"{c}{r}")] for c in "abcd" for r in "15"] == [2, 2, 3, 3, 4, 4, 5, 5]


def _check_same_games(n: int, games: int, seed: int) -> None:
    interp, comp = mids(n).engine, mids(n, "compiled").engine
    traces, stats = _interpreter_games(interp, games, seed)
    for i, trace in enumerate(traces):
        assert comp.playout_trace(derive_seed(seed, i)) == trace, f"{n} players, game {i}"
    assert comp.playouts(games, seed) == stats
    assert stats["games"] == games and stats["ply_limited"] == 0


@pytest.mark.parametrize("n", COUNTS)
def test_both_engines_play_the_same_games(n) -> None:
    _check_same_games(n, 60, SEED)


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("MIDGARDC_LONG"), reason="1,000 interpreter games a player count; set MIDGARDC_LONG=1")
@pytest.mark.parametrize("n", COUNTS)
def test_both_engines_play_the_same_thousand_games(n) -> None:
    """What the long run adds: 1,000 games a player count (the default run plays the 60 of
    test_both_engines_play_the_same_games)."""
    _check_same_games(n, 1000, SEED + 1)


@pytest.mark.parametrize("n", COUNTS)
def test_perft_agrees_in_both_engines(n) -> None:
    from midgardc.runtime.game import perft

    assert mids(n, "compiled").engine.perft(3) == perft(mids(n).new_state(), 3)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, MASK), n=st.sampled_from(COUNTS))
def test_random_games_stay_legal_and_end(seed, n) -> None:
    game = mids(n, "compiled")
    ir = game.ir
    nk = ir.n_kinds
    state = game.new_state(seed)
    rng = Rng(seed ^ 0x5EED)
    start = [list(h) for h in ir.hand_init]
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.sample_chance()
        else:
            moves = state.legal_move_ids()
            assert moves, "a player to move always has a move (or the turn passes)"
            state.apply_unchecked(moves[rng.below(len(moves))])
        steps += 1
        assert steps < 4 * ir.max_plies
        # every mid is on the board or in its owner's stash, never lost or doubled
        on_board = [[0] * nk for _ in range(n)]
        for piece in state.core.board[: ir.board.n_cells]:
            if piece > 0:
                on_board[ir.piece_owner(piece)][ir.piece_kind(piece)] += 1
        hands = state.core.hands
        for p in range(n):
            for k in range(nk):
                assert hands[p][k] >= 0
                assert on_board[p][k] + hands[p][k] == start[p][k]
    assert not state.core.ply_limited
    stash = [sum(h) for h in state.core.hands]
    full = all(piece > 0 for piece in state.core.board[: ir.board.n_cells])
    assert 0 in stash or full  # "first to place all of your mids", or the board is full


def test_a_four_player_match_prints_a_table() -> None:
    result = CliRunner().invoke(cli, ["match", MIDS, "--players", "random,random,random,random", "--games", "40", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "Magic Mids: 40 games, seed 1" in result.stdout
    for colour in ("as red", "as yellow", "as green", "as blue"):
        assert colour in result.stdout


def test_show_draws_owners_kinds_and_the_roll() -> None:
    moves = "roll:A-4-blank M:c3 roll:blank-blank-blank L:b2 roll:A-A-A S:a1"
    result = CliRunner().invoke(cli, ["show", MIDS, "--moves", moves, "--no-color"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    # owners first (yellow's three blanks earned a second move), then the kinds
    # ranks at the left and files under the board, as the cell names write them (a1 .. d5)
    assert lines[:6] == ["  5  . . . .", "  4  . . . .", "  3  . . R .", "  2  . Y . .", "  1  Y . . .", "     a b c d"]
    assert lines[7:12] == ["  5  . . . .", "  4  . . . .", "  3  . . M .", "  2  . L . .", "  1  S . . ."]
    assert "kinds (second grid): S small   M medium   L large" in result.stdout
    assert "last roll: A-A-A" in result.stdout and "red to move (roll due)" in result.stdout
    state = load(MIDS, engine="interpreted").new_state()
    for m in moves.split():
        state.apply(m)
    assert state.to_json()["kinds"] == {"c3": "medium", "b2": "large", "a1": "small"}
