"""Board invariants of Leduc's Midgard, from the rulebook's Components paragraph and the
board notation (DESIGN.md, "Midgard (Leduc) board notation")."""

from midgardc.spec.lower import load_game_ir
from conftest import MIDGARD, MIDGARD_VARIANTS

import pytest


@pytest.fixture(scope="module")
def board():
    return load_game_ir(MIDGARD).board


def index(board, name):
    return board.cell_names.index(name)


def test_124_cells(board):
    # "The board has a total of 124 cells"
    assert board.n_cells == 124
    assert len(set(board.cell_names)) == 124


def test_27_perimeter_cells_with_one_neighbour(board):
    # "which includes 27 perimeter cells - cells that are adjacent to exactly one other cell"
    perimeter = {board.cell_names[c] for c in range(board.n_cells) if len(board.neighbours[c]) == 1}
    affixed = {f"{side}{k}" for side in "LRB" for k in range(1, 9)}
    assert perimeter == affixed | {"0.0", "9.0", "9.18"}


def test_degrees_are_one_or_three(board):
    assert {len(n) for n in board.neighbours} == {1, 3}


def test_adjacency_is_symmetric(board):
    for c, nbrs in enumerate(board.neighbours):
        for n in nbrs:
            assert c in board.neighbours[n]


def test_notation_neighbours(board):
    # (r,i) touches (r,i±1); an up cell touches (r+1,i+1); a down cell touches (r-1,i-1)
    def nb(name):
        return {board.cell_names[n] for n in board.neighbours[index(board, name)]}

    assert nb("6.6") == {"6.5", "6.7", "7.7"}  # up cell
    assert nb("6.5") == {"6.4", "6.6", "5.4"}  # down cell
    assert nb("3.0") == {"3.1", "4.1", "L3"}  # left border cell with its affixed cell
    assert nb("4.8") == {"4.7", "5.9", "R4"}
    assert nb("9.6") == {"9.5", "9.7", "B3"}
    assert nb("L3") == {"3.0"} and nb("R8") == {"8.16"} and nb("B1") == {"9.2"}


def test_centre_is_6_6_at_the_centroid(board):
    # "The center cell is a blizzard cell" (Components); FACTS: the centre is 6.6.
    xs = [sum(x for x, _ in p) / 3 for p in board.polygons[:100]]
    ys = [sum(y for _, y in p) / 3 for p in board.polygons[:100]]
    c = index(board, "6.6")
    cx = sum(x for x, _ in board.polygons[c]) / 3
    cy = sum(y for _, y in board.polygons[c]) / 3
    assert abs(cx - sum(xs) / 100) < 1e-9 and abs(cy - sum(ys) / 100) < 1e-9


@pytest.mark.parametrize("variant", MIDGARD_VARIANTS)
def test_every_variant_validates(variant):
    ir = load_game_ir(MIDGARD, variant)
    assert ir.board.n_cells == 124 and ir.players == ("sea", "land")
