"""The block effects `if` and `for_each`, in both back ends (tests/data/blocks.yaml).

`if` is used two ways there: to choose between two placements (the mover's stone, or the
next player's for a coin), and nested inside a `for_each` to remove some neighbours.
`for_each` runs over the players (every player scores) and over the neighbours of a cell
with a `where` filter.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from conftest import ENGINES, get_game
from midgardc.runtime.rng import derive_seed

BLOCKS = str(Path(__file__).parent / "data" / "blocks.yaml")
RED, GREEN, BLUE = range(3)


def position(game, stones: dict[str, int], current: int = RED, coins=(3, 3, 3)):
    ir = game.ir
    board = [0] * ir.board.n_cells
    for name, owner in stones.items():
        board[ir.board.cell_names.index(name)] = ir.piece_id(owner, 0)
    state = game.new_state()
    hands = [[8 - sum(1 for o in stones.values() if o == p)] for p in range(3)]
    for p in range(3):
        state.core.set_counter(p, ir.counters.index("coins"), coins[p])
    state.core.load(board, hands, current=current)
    return state


def counter(state, name: str) -> list[int]:
    i = state.game.ir.counters.index(name)
    return [state.core.counters[p][i] for p in range(3)]


def owners(state) -> dict[str, str]:
    return {c: o for c, o in state.to_json()["board"].items() if o is not None}


@pytest.mark.parametrize("engine", ENGINES)
def test_if_takes_the_then_branch_when_its_condition_holds(engine) -> None:
    state = position(get_game(BLOCKS, None, engine), {"b2": RED})
    state.apply("b3")  # touches red's b2: red's own stone, no coin paid
    assert owners(state)["b3"] == "red"
    assert counter(state, "coins") == [3, 3, 3]


@pytest.mark.parametrize("engine", ENGINES)
def test_if_takes_the_else_branch_otherwise(engine) -> None:
    state = position(get_game(BLOCKS, None, engine), {"b2": RED})
    state.apply("d4")  # touches nothing of red's: a coin, and green's stone
    assert owners(state)["d4"] == "green"
    assert counter(state, "coins") == [2, 3, 3]


@pytest.mark.parametrize("engine", ENGINES)
def test_for_each_player_runs_the_effects_for_every_player(engine) -> None:
    state = position(get_game(BLOCKS, None, engine), {"b2": RED, "c3": GREEN, "b4": BLUE, "a3": BLUE})
    state.apply("b3")  # neighbours of b3: b4 (blue), a3 (blue), c3 (green), b2 (red)
    assert counter(state, "points") == [1, 1, 2]


@pytest.mark.parametrize("engine", ENGINES)
def test_for_each_with_where_and_a_nested_if(engine) -> None:
    # red claims corner a4 next to its own b4; a3 is green's (fewer coins than red: removed,
    # red gains a coin), nothing else is next to a4
    state = position(get_game(BLOCKS, None, engine), {"b4": RED, "a3": GREEN}, coins=(3, 1, 3))
    state.apply("a4")
    assert owners(state) == {"a4": "red", "b4": "red"}
    assert counter(state, "coins") == [4, 1, 3]
    assert state.core.hands[GREEN] == [8]  # back to its owner's hand
    # a neighbour whose owner is not poorer stays
    state = position(get_game(BLOCKS, None, engine), {"b4": RED, "a3": BLUE}, coins=(3, 1, 3))
    state.apply("a4")
    assert owners(state) == {"a4": "red", "b4": "red", "a3": "blue"}


def test_both_back_ends_play_the_same_games_and_states() -> None:
    interp = get_game(BLOCKS, None, "interpreted").engine
    comp = get_game(BLOCKS, None, "compiled").engine
    for i in range(300):
        seed = derive_seed(11, i)
        assert comp.playout_trace(seed) == interp.playout_trace(seed), f"game {i}"
    rng = random.Random(5)
    for _ in range(40):
        a, b = interp.new_core(), comp.new_core()
        while not a.terminal:
            move = rng.choice(a.legal())
            a.apply(move)
            b.apply(move)
            assert (a.board, a.hands, a.counters, a.current, a.legal()) == (b.board, b.hands, b.counters, b.current, b.legal())
    assert comp.playouts(200, 3) == interp.playouts(200, 3)
