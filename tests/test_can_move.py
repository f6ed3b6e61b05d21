"""can_move(), the end section's question "has the player to move a legal move?", on both
back ends with tests/data/can_move.yaml: a player who cannot drop while behind loses at
once (end.when), one who cannot drop otherwise passes, and the end effects note whether
the player to move could still move. Chess's use (a mate on the 100th quiet ply wins) is
in test_chess.py; the places it is refused, in test_errors.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ENGINES, get_game
from test_differential import check_games

CAN_MOVE = str(Path(__file__).parent / "data" / "can_move.yaml")
RED, BLUE = 1, 2  # piece ids: the stone of each player
NOBODY = -1


def cell(name: str) -> int:
    """Board order of the 4x4 board: a4 b4 c4 d4 / a3 .. / a1 b1 c1 d1."""
    return (4 - int(name[1])) * 4 + "abcd".index(name[0])


def loaded(engine: str, red: str, blue: str):
    """Red to move (Blue moved last) with stones on the named cells; load() settles."""
    core = get_game(CAN_MOVE, None, engine).engine.new_core()
    board = [0] * 16
    for names, piece in ((red, RED), (blue, BLUE)):
        for name in names.split():
            board[cell(name)] = piece
    core.load(board, [[16 - len(red.split())], [16 - len(blue.split())]], 0, 1, 8)
    return core


def stuck(core) -> int:
    return core.counters[-1][0]  # the game's row comes last


# Blue's four stones leave no empty cell that is not next to one of them
FENCE = "b4 d3 a2 c1"


def test_both_engines_play_the_same_games():
    check_games(CAN_MOVE, None, 40, 17)


@pytest.mark.parametrize("engine", ENGINES)
def test_no_move_while_behind_ends_the_game(engine):
    core = loaded(engine, "", FENCE)
    assert core.terminal and stuck(core) == 0  # Red could not move
    assert core.keys() == [[0, 0], [1, 4]]


@pytest.mark.parametrize("engine", ENGINES)
def test_no_move_while_level_is_a_pass(engine):
    core = loaded(engine, "a4 c4 d4 a1", FENCE)
    assert not core.terminal and core.current == 1  # Red passed; Blue can drop on b3
    assert cell("b3") in core.legal() and stuck(core) == NOBODY


@pytest.mark.parametrize("engine", ENGINES)
def test_the_end_effects_see_the_moves_left(engine):
    # six Blue stones end the game with Red to move and free cells below: can_move() is
    # true in the end effects although the game is already over
    core = loaded(engine, "", "a4 b4 c4 d4 a3 b3")
    assert core.terminal and stuck(core) == NOBODY
    assert core.keys() == [[1, 0], [1, 6]]
