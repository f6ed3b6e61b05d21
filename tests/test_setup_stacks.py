"""Stacks at setup (a setup entry's ``height``) and a counter's start per player on both
back ends, and heights as part of
a position in the history (tests/data/setup_stacks.yaml: towers that move, capture lower
towers and end the game when a position comes a third time)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from conftest import ENGINES, get_game
from test_differential import check_games

SPEC = str(Path(__file__).parent / "data" / "setup_stacks.yaml")


def cell(name: str) -> int:
    return (4 - int(name[1])) * 4 + "abcd".index(name[0])


@pytest.mark.parametrize("engine", ENGINES)
def test_towers_stand_at_the_start(engine):
    game = get_game(SPEC, None, engine)
    core = game.engine.new_core()
    assert game.ir.stacks
    heights = {name: core.heights[cell(name)] for name in ("a1", "b1", "b2", "c3", "d4", "a2")}
    assert heights == {"a1": 3, "b1": 2, "b2": 1, "c3": 1, "d4": 3, "a2": 0}
    assert core.keys() == [[3 + 2 + 2 + 3 + 1], [3 + 2 + 2 + 3 + 1]]
    assert core.counters == [[2], [1], [0]]  # lifts: {start: {red: 2, blue: 1}}
    # a tower captured goes back to its owner's hand whole: b2 (1) takes c3 (1) ...
    core.apply(game.move_id("b2-c2"))
    core.apply(game.move_id("c3-c2"))
    assert core.hands == [[1], [0]] and core.heights[cell("c2")] == 1


@pytest.mark.parametrize("engine", ENGINES)
def test_heights_are_part_of_a_position(engine):
    core = get_game(SPEC, None, engine).engine.new_core()
    before = core.position_key(0)
    board, hands = core.board[:16], core.hands
    heights = list(core.heights[:16])
    heights[cell("a1")] = 2  # the same pieces, one tower lower
    core.load(board, hands, 0, 1, 0, heights)
    assert core.position_key(0) != before
    heights[cell("a1")] = 3
    core.load(board, hands, 0, 1, 0, heights)
    assert core.position_key(0) == before


def test_both_engines_play_the_same_games():
    check_games(SPEC, None, 40, 77)


def test_hashes_agree():
    interp = get_game(SPEC, None, "interpreted").engine
    comp = get_game(SPEC, None, "compiled").engine
    rng = random.Random(4)
    for _ in range(10):
        a, b = interp.new_core(), comp.new_core()
        while not a.terminal:
            assert a.legal() == b.legal() and a.heights == b.heights
            assert a.position_key(a.current) == b.position_key(b.current)
            assert a.times_seen() == b.times_seen()
            move = rng.choice(a.legal())
            a.apply(move)
            b.apply(move)
