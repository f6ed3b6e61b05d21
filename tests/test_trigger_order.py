"""Trigger order is a rule of the language (docs/spec-language.md, `triggers`): after a
move's own effects, the triggers are taken one at a time in the order written; each one's
`when` is checked on the state as the action and the triggers before it left it, and each
trigger runs at most once per move. tests/data/trigger_order.yaml has triggers that read
and write the same counters; both back ends must give the same, pinned, results.

(Issue 12: a Vikings Score Kingdom card played as a round's last card lost its scoring
because the Score phase's trigger, written before the scoring trigger, overwrote the
kingdom to score; tests/test_vikings_rules.py checks the game, this file the rule.)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ENGINES, get_game
from midgardc.runtime.game import replay
from midgardc.runtime.interpreter import random_move
from midgardc.runtime.rng import Rng, derive_seed

TRIGGER_ORDER = str(Path(__file__).parent / "data" / "trigger_order.yaml")


def game_counters(state) -> dict:
    return state.to_json()["counters"]


def points(state) -> list[int]:
    return [p["counters"]["points"] for p in state.to_json()["players"]]


@pytest.mark.parametrize("engine", ENGINES)
def test_each_when_sees_the_triggers_written_before_it(engine) -> None:
    game = get_game(TRIGGER_ORDER, None, engine)
    state = replay(game, ["set:1"])
    # first (level 1 -> 2), second (it sees first's write: 2 -> 3), not third (its `when`
    # held after the action, but not once first had run), fourth (3 -> 1), then tally;
    # first does not run a second time although fourth made its `when` hold again
    assert game_counters(state) == {"level": 1, "log": 1245, "chained": 1}
    assert points(state) == [1, 0]  # tally read the level as fourth left it


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("move,log", [("set:2", 245), ("set:3", 45)])
def test_a_trigger_never_sees_the_triggers_written_after_it(engine, move, log) -> None:
    game = get_game(TRIGGER_ORDER, None, engine)
    state = replay(game, [move])
    # first and third come before the triggers that set level 1, so they do not run
    assert game_counters(state) == {"level": 1, "log": log, "chained": int(move == "set:2")}


@pytest.mark.parametrize("engine", ENGINES)
def test_a_move_that_fires_no_order_dependent_trigger(engine) -> None:
    game = get_game(TRIGGER_ORDER, None, engine)
    state = replay(game, ["keep"])  # level 0: only tally
    assert game_counters(state) == {"level": 0, "log": 5, "chained": 0}
    state.apply("keep")  # the level is still 0
    assert game_counters(state)["log"] == 5
    state.apply("set:1")
    state.apply("keep")  # level 1 left by the last move: the chain runs again after keep
    assert game_counters(state) == {"level": 1, "log": 1245, "chained": 2}


@pytest.mark.parametrize("engine", ENGINES)
def test_a_when_sees_a_per_player_counter_written_by_an_earlier_trigger(engine) -> None:
    game = get_game(TRIGGER_ORDER, None, engine)
    state = replay(game, ["set:1", "set:1", "set:1", "set:1", "set:1", "set:1"])
    # red has made three moves, each +1 by tally: 3 points, no bonus yet
    assert points(state) == [3, 3]
    state.apply("set:1")  # tally: 4, then bonus (written after tally) sees the 4: +10
    assert points(state) == [14, 3]
    assert game_counters(state)["log"] == 12456
    state.apply("keep")  # bonus is only after `set`
    assert points(state) == [14, 4]


def test_both_engines_agree_after_every_move_of_random_games() -> None:
    interp = get_game(TRIGGER_ORDER, None, "interpreted")
    comp = get_game(TRIGGER_ORDER, None, "compiled")
    for i in range(100):
        seed = derive_seed(12, i)
        a, b, rng = interp.new_state(seed), comp.new_state(seed), Rng(seed)
        while not a.is_terminal():
            move = a.game.move_text(random_move(a.core, rng))
            a.apply(move)
            b.apply(move)
            assert a.to_json() == b.to_json(), f"game {i}, after {move}"
        assert b.is_terminal()
