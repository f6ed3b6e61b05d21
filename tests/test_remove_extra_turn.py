"""The remove and extra_turn effects, in both back ends (tests/data/captures.yaml).

`remove` is used two ways there: with `each` over the directions, sending every flanked
enemy stone back to its owner's hand at once; and on one cell, out of the game (`lift`).
A capture earns another move (`extra_turn` in a trigger).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ENGINES, get_game
from midgardc.runtime.game import replay

CAPTURES = str(Path(__file__).parent / "data" / "captures.yaml")


def position(game, stones: dict[str, int], hands=(9, 9), current: int = 0, ply: int = 0):
    """A state with stones (cell name -> owner seat) on the board."""
    ir = game.ir
    board = [0] * ir.board.n_cells
    for name, owner in stones.items():
        board[ir.board.cell_names.index(name)] = ir.piece_id(owner, 0)
    state = game.new_state()
    state.core.load(board, [[h] for h in hands], current=current, ply=ply)
    return state


def owners(state) -> dict[str, str]:
    return {c: o for c, o in state.to_json()["board"].items() if o is not None}


@pytest.mark.parametrize("engine", ENGINES)
def test_a_flanked_stone_goes_back_to_its_owner_and_the_capturer_moves_again(engine) -> None:
    game = get_game(CAPTURES, None, engine)
    state = replay(game, ["a1", "b2", "c3"])  # black's c3 flanks white's b2 with a1
    assert owners(state) == {"a1": "black", "c3": "black"}
    assert state.core.hands == [[7], [9]]  # white's stone is back in white's hand
    assert state.current_player_name() == "black" and state.ply() == 3  # the capture's reward
    state.apply("e5")
    assert state.current_player_name() == "white"  # no capture: the turn passes


@pytest.mark.parametrize("engine", ENGINES)
def test_captures_in_several_directions_happen_at_once(engine) -> None:
    game = get_game(CAPTURES, None, engine)
    # white stones around c3 at b3 (w), d4 (ne), c2 (s); black beyond each, and one white
    # stone at d3 with nothing of black's beyond it
    state = position(game, {"b3": 1, "d4": 1, "c2": 1, "d3": 1, "a3": 0, "e5": 0, "c1": 0}, hands=(6, 5))
    state.apply("c3")
    assert owners(state) == {"a3": "black", "e5": "black", "c1": "black", "c3": "black", "d3": "white"}
    assert state.core.hands == [[5], [8]]
    assert state.current_player_name() == "black"


@pytest.mark.parametrize("engine", ENGINES)
def test_a_stone_between_two_enemies_is_safe(engine) -> None:
    game = get_game(CAPTURES, None, engine)
    state = position(game, {"a1": 0, "c3": 0}, current=1)
    state.apply("b2")  # white steps in between: only the stone just placed captures
    assert owners(state) == {"a1": "black", "c3": "black", "b2": "white"}
    assert state.current_player_name() == "black"


@pytest.mark.parametrize("engine", ENGINES)
def test_remove_on_one_cell_takes_the_stone_out_of_the_game(engine) -> None:
    game = get_game(CAPTURES, None, engine)
    state = replay(game, ["a1", "e5", "b1", "e4"])  # ply 4: lifting is allowed (ply % 5 == 4)
    assert "lift:a1" in [m.text for m in state.legal_moves()]
    state.apply("lift:a1")
    assert owners(state) == {"b1": "black", "e5": "white", "e4": "white"}
    assert state.core.hands == [[7], [7]]  # out of the game: not back in hand
