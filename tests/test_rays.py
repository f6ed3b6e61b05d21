"""Slides as bits (midgardc/compiler/emit/rays.py): a quantifier over slide(c, d) takes the
ray as a mask cut at its first piece (one bit scan) instead of walking it, on boards whose
rays run one way through the cell numbers; the games stay move for move the interpreter's."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import SPECS, get_game
from midgardc.compiler.build import generate_source
from midgardc.compiler.emit.rays import fold_empty, ray_plan
from midgardc.ir.nodes import BOOL, CELL, PLAYER, Binary, Call, Const, DefineCall, Local
from midgardc.runtime.rng import derive_seed
from midgardc.spec.lower import load_game_ir

RAY_BITS = str(Path(__file__).parent / "data" / "ray_bits.yaml")
CHESS = str(SPECS / "classics" / "chess.yaml")


def test_square_rays_are_masks_in_cell_order():
    ir = load_game_ir(CHESS, None)
    plan, why = ray_plan(ir.board, 1)
    assert plan is not None, why
    b = ir.board
    for d, name in enumerate(b.directions):
        c = b.cell_names.index("d4")
        cells, x = [], b.steps[d][c]
        while x < b.n_cells:
            cells.append(x)
            x = b.steps[d][x]
        assert plan.masks[d][c][0] == sum(1 << x for x in cells), name
        assert plan.up[d] == (cells[0] > c), name  # the first piece is the nearest bit
    assert all(plan.masks[d][b.n_cells] == (0,) for d in range(len(b.directions)))  # off the board: no ray


def test_a_wrapping_board_keeps_the_walk():
    plan, why = ray_plan(load_game_ir(RAY_BITS, "wrap").board, 1)
    assert plan is None and "one way" in why
    board = load_game_ir(RAY_BITS, "two_words").board
    two, _ = ray_plan(board, 2)
    down_the_a_file = two.masks[board.directions.index("s")][board.cell_names.index("a9")]
    assert down_the_a_file[0] != 0 and down_the_a_file[1] != 0  # (a ray across both words)
    assert "slide_bits(" not in generate_source(load_game_ir(RAY_BITS, "wrap"))


def test_each_way_a_body_reads_the_empty_cells_is_generated():
    text = generate_source(load_game_ir(RAY_BITS, None))
    # every quantifier over a slide; one over the directions of a slide is unrolled (each
    # direction a constant: 3 x 8 + open_or_own's and clear_north's)
    assert text.count("x = slide_bits(&st.cellsets[0][0], ") == 26
    reaches = text[text.index("# define 0: reaches"):]
    assert reaches[: reaches.index("\n\n")].count(" or quant_") == 7
    for how in ("on an empty cell the body is false", "the body holds on one cell only", "the body does not depend on which", "the body as it reads on an empty cell", "the body holds on every empty cell"):
        assert how in text, how


def test_fold_empty():
    ir = load_game_ir(RAY_BITS, None)
    y, q = Local("y", CELL), Local("q", PLAYER)
    owner_is_q = Binary("==", Call("owner", (y,), PLAYER), q, BOOL)
    kind_is_0 = Binary("==", Call("kind_at", (y,), "kind"), Const(0, "kind"), BOOL)
    assert fold_empty(Binary("and", owner_is_q, kind_is_0, BOOL), "y", ir) == Const(0, BOOL)
    assert fold_empty(Binary("or", Call("empty", (y,), BOOL), owner_is_q, BOOL), "y", ir) == Const(1, BOOL)
    assert fold_empty(owner_is_q, "y", ir) == Binary("==", Const(-1, PLAYER), q, BOOL)  # (nobody: a scalar)
    at_t = Binary("==", y, Local("t", CELL), BOOL)
    assert fold_empty(at_t, "y", ir) == at_t
    # a definition that reads the cell is opened: chess's is(y, q, king) is false there
    chess = load_game_ir(CHESS, None)
    is_ = next(i for i, d in enumerate(chess.defines) if d.name == "is")
    assert fold_empty(DefineCall(is_, (y, q, Const(0, "kind")), BOOL), "y", chess) == Const(0, BOOL)


@pytest.mark.parametrize("variant", [None, "two_words", "wrap"])
def test_ray_bits_play_the_interpreters_games(variant):
    interp, comp = get_game(RAY_BITS, variant, "interpreted").engine, get_game(RAY_BITS, variant, "compiled").engine
    from midgardc.runtime.interpreter import random_move
    from midgardc.runtime.rng import Rng

    lengths = []
    for i in range(40):
        seed = derive_seed(7, i)
        core, rng, moves = interp.new_core(seed), Rng(seed), []
        while not core.terminal:
            move = random_move(core, rng)
            core.apply(move)
            moves.append(move)
        assert comp.playout_trace(seed) == moves, f"game {i}"
        lengths.append(len(moves))
    assert max(lengths) > 20  # (real games, not a position without moves)


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_ray_bits_first_moves(engine):
    # a1's queen: up the a-file to a6 (Black's queen, capturable), along the diagonal to e5,
    # along rank 1 to b1 (c1 is White's own); c1's lancer and d2's cannot end where a Black
    # lancer's slide reaches; the last conjunct holds somewhere for each
    state = get_game(RAY_BITS, None, engine).new_state()
    moves = {m.text for m in state.legal_moves()}
    assert {"a1-a6", "a1-b2", "a1-b1"} <= moves
    assert "a1-c1" not in moves and "a1-a6" in moves


def test_explain_says_how_slides_are_tested():
    from midgardc.cli.explain import explain_lines

    lines = explain_lines(load_game_ir(RAY_BITS, None))
    assert any(line.startswith("  slide(c, d): the ray's mask cut at its first piece by one bit scan") for line in lines)
    assert "    26 any/all over a slide test the body at that piece; on the empty cells before it: 9 nothing, 8 one bit test, 1 one test, 8 the body cell by cell" in lines
    wrap = explain_lines(load_game_ir(RAY_BITS, "wrap"))
    assert any(line.startswith("  slide(c, d): walked cell by cell (the rays of direction") for line in wrap)
