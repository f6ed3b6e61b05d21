"""Hex on the hex topology, the connection collection group(c), and tic-tac-toe's numbers.

Reference figures (from the issue): uniform random Hex 11x11 games last 107.5 plies on
average and tic-tac-toe games 7.6 plies; perft of Hex is 121, 121*120, 121*120*119 (every
empty cell is a move and nobody can win before ply 21); tic-tac-toe has 255,168 games,
and its perft (sequences of exactly d moves, a game that ended earlier adding nothing) is
9, 72, 504, 3,024, 15,120, 54,720, 148,176, 200,448, 127,872 (the published table:
chessprogramming.org's and Wikipedia's game-tree counts for tic-tac-toe).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import SPECS, get_game
from midgardc.runtime.game import perft, replay
from test_differential import check_games, engines

HEX = str(SPECS / "classics" / "hex.yaml")
TTT = str(SPECS / "classics" / "tic-tac-toe.yaml")
BRIDGE = str(Path(__file__).parent / "data" / "bridge.yaml")

# red (first) joins the top row (1) to the bottom row; blue column a to column k
RED_COLUMN = [f"f{r}" for r in range(1, 12)]
BLUE_FILLER = [f"a{r}" for r in range(1, 11)]


def test_hex_board_shape(engine):
    game = get_game(HEX, None, engine)
    b = game.ir.board
    assert b.n_cells == 121 and b.cell_names[0] == "a1" and b.cell_names[-1] == "k11"
    degrees = sorted(len(n) for n in b.neighbours)
    # 2 obtuse corners with 2 neighbours, 2 acute with 3, 36 other edge cells 4, 81 inside 6
    assert degrees.count(2) == 2 and degrees.count(3) == 2 and degrees.count(4) == 36 and degrees.count(6) == 81
    a1 = b.cell_names.index("a1")
    assert sorted(b.cell_names[x] for x in b.neighbours[a1]) == ["a2", "b1"]
    f6 = b.cell_names.index("f6")
    assert sorted(b.cell_names[x] for x in b.neighbours[f6]) == ["e6", "e7", "f5", "f7", "g5", "g6"]
    assert all(len(p) == 6 for p in b.polygons)


def test_a_connection_wins(engine):
    game = get_game(HEX, None, engine)
    moves = [m for pair in zip(RED_COLUMN, BLUE_FILLER + ["b11"]) for m in pair][:-1]
    state = replay(game, moves)
    assert state.is_terminal() and state.to_json()["winner"] == "red"
    before = replay(game, moves[:-1])
    assert not before.is_terminal()


def test_a_blocked_path_does_not_win(engine):
    game = get_game(HEX, None, engine)
    # red fills column f except f6, which blue takes: no chain, the game goes on
    reds = [c for c in RED_COLUMN if c != "f6"]
    blues = ["f6"] + BLUE_FILLER[:9]
    moves = [m for pair in zip(reds, blues) for m in pair]
    state = replay(game, moves)
    assert not state.is_terminal() and state.to_json()["winner"] is None
    # a detour round the blocked cell (e6 and e7 touch f5 and f7) connects
    # f5 touches e6 below it, e6 touches e7, e7 touches f7: a detour round f6
    state = replay(game, moves + ["e6", "b10"])
    assert not state.is_terminal()
    state = replay(game, moves + ["e6", "b10", "e7"])
    assert state.is_terminal() and state.to_json()["winner"] == "red"


def test_blue_joins_left_and_right(engine):
    game = get_game(HEX, None, engine)
    blues = [f"{col}3" for col in "abcdefghijk"]
    reds = ["a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5", "i5", "j5", "a7"]
    moves = [m for pair in zip(reds, blues) for m in pair]
    state = replay(game, moves)
    assert state.is_terminal() and state.to_json()["winner"] == "blue"


def test_swap_variant(engine):
    # The standard swap (pie) rule, as OpenSpiel's hex plays it: blue's second move may
    # replace red's first stone by a blue stone on the mirrored cell (column and row
    # exchanged), so each colour keeps its own sides. Red then moves again.
    game = get_game(HEX, "swap", engine)
    first = replay(game, ["b1"])  # column b, row 1: off the long diagonal
    moves = [m.text for m in first.legal_moves()]
    assert len(moves) == 121 and moves[-1] == "swap-to-a2" and [m for m in moves if m.startswith("swap")] == ["swap-to-a2"]
    swapped = replay(game, ["b1", "swap-to-a2"])
    board = {cell: who for cell, who in swapped.to_json()["board"].items() if who}
    assert board == {"a2": "blue"}  # b1 is empty again: the stone changed cell, not only colour
    assert swapped.current_player_name() == "red"
    assert swapped.to_json()["players"][1]["hand"]["stone"] == 4095
    # a stone on the long diagonal is its own mirror: it stays and becomes blue's
    on_diagonal = replay(game, ["f6", "swap-to-f6"])
    assert {c: w for c, w in on_diagonal.to_json()["board"].items() if w} == {"f6": "blue"}
    # an edge stone: c11 (column c, row 11) becomes k3 (column k, row 3)
    assert [m.text for m in replay(game, ["c11"]).legal_moves()][-1] == "swap-to-k3"
    # only on the second move
    assert not any(m.text.startswith("swap") for m in replay(game, ["b1", "c3"]).legal_moves())
def test_size_variant():
    game = get_game(HEX, "size-9", "interpreted")
    assert game.ir.board.n_cells == 81 and game.ir.board.cell_names[-1] == "i9"
    moves = [m for pair in zip([f"e{r}" for r in range(1, 10)], [f"a{r}" for r in range(1, 9)] + ["b9"]) for m in pair][:-1]
    assert replay(game, moves).to_json()["winner"] == "red"


def test_hex_perft_interpreted():
    game = get_game(HEX, None, "interpreted")
    assert [perft(game.new_state(), d) for d in (1, 2)] == [121, 14_520]


def test_hex_perft_compiled():
    game = get_game(HEX, None, "compiled")
    assert [game.engine.perft(d) for d in (1, 2, 3)] == [121, 14_520, 1_727_880]
    assert get_game(HEX, "swap", "compiled").engine.perft(2) == 121 * 121


def test_hex_thousand_games_move_for_move():
    check_games(HEX, None, 1000, 20_261_121)


def test_hex_random_game_length():
    stats = get_game(HEX, None, "compiled").engine.playouts(20_000, 11)
    assert stats["draws"] == 0 and stats["ply_limited"] == 0
    mean = stats["plies"] / 20_000
    assert abs(mean - 107.5) <= 0.03 * 107.5, mean


# --------------------------------------------------------------------------- group(c) elsewhere


@pytest.mark.parametrize("variant", [None, "triangle"])
def test_group_on_square_and_triangle_boards(variant):
    check_games(BRIDGE, variant, 200, 7)
    for engine in ("interpreted", "compiled"):
        game = get_game(BRIDGE, variant, engine)
        if variant is None:
            # north's chain a1-a2-...-a5-b5-...-e5 joins the marks; south's pieces do not
            norths = ["a1", "a2", "a3", "a4", "a5", "b5", "c5", "d5", "e5"]
            souths = ["b1", "b2", "b3", "b4", "c4", "d4", "e4", "e1", "e2"]
            moves = [m for pair in zip(norths, souths) for m in pair][:-1]
            state = replay(game, moves)
            assert state.is_terminal() and state.to_json()["winner"] == "north"
            assert state.keys() == [[1, 9], [0, 7]]
            assert not replay(game, moves[:-1]).is_terminal()


# --------------------------------------------------------------------------- tic-tac-toe


TTT_PERFT = [9, 72, 504, 3_024, 15_120, 54_720, 148_176, 200_448, 127_872]


def memo_perft(core, depth: int, memo: dict) -> int:
    """The number of games (a game that ends before ``depth`` counts once, where it
    ended), with a transposition table: the count below a position depends only on the
    position (every part of the state is in the key), so each is expanded once."""
    if core.terminal:
        return 1
    key = (tuple(core.board), str(core.hands), str(core.counters), core.current, core.last, core.ply, core.passes, depth)
    if key not in memo:
        moves = core.legal()
        if depth <= 1:
            memo[key] = len(moves) if depth == 1 else 1
        else:
            total = 0
            for m in moves:
                child = core.clone()
                child.apply(m)
                total += memo_perft(child, depth - 1, memo)
            memo[key] = total
    return memo[key]


def test_tic_tac_toe_game_count_in_both_engines():
    interp, comp = (get_game(TTT, None, e) for e in ("interpreted", "compiled"))
    assert [comp.engine.perft(d) for d in range(1, 10)] == TTT_PERFT
    assert [perft(interp.new_state(), d) for d in range(1, 5)] == TTT_PERFT[:4]
    assert memo_perft(interp.engine.new_core(), 9, {}) == 255_168
    assert memo_perft(comp.engine.new_core(), 9, {}) == 255_168


def test_tic_tac_toe_random_game_length():
    stats = get_game(TTT, None, "compiled").engine.playouts(100_000, 3)
    mean = stats["plies"] / 100_000
    assert abs(mean - 7.6) <= 0.03 * 7.6, mean
    _, comp = engines(TTT)
    assert comp.playouts(2_000, 3) == get_game(TTT, None, "interpreted").engine.playouts(2_000, 3)


# --------------------------------------------------------------------------- step paths as cell sets

STEPS = str(Path(__file__).parent / "data" / "steps.yaml")


@pytest.mark.parametrize("variant", [None, "hex", "wrap"])
def test_step_paths_and_directions_as_cell_sets(variant):
    from midgardc.compiler import build

    source = build.generate_source(get_game(STEPS, variant, "interpreted").ir)
    # uniform shifts (square, hex) become shifted sets; a torus keeps cell-by-cell loops
    assert ("pull_cells(t" in source) == (variant != "wrap")
    check_games(STEPS, variant, 150, 99)
