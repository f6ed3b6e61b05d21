"""Private rolls and rolls only when due (chance.into, chance.when; see midgardc/ir/dice.py).

tests/data/private_dice.yaml (three players; each keeps two dice in a cup only they see,
rolled as their turn opens when the cup is empty) is played by both back ends: the same
seed gives the same rolls and moves, states agree after every move, and every player sees
their own roll and only the size of nothing else: the others' rolls are written roll:?."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np

from conftest import get_game
from test_differential import check_games, engines, snapshot

PRIVATE = str(Path(__file__).parent / "data" / "private_dice.yaml")


def test_both_engines_play_the_same_games_with_private_rolls() -> None:
    check_games(PRIVATE, None, 200, 77)


def test_states_agree_after_every_move_rolls_included() -> None:
    interp, comp = engines(PRIVATE)
    rng = random.Random(5)
    rolls = waits = 0
    for _ in range(10):
        a, b = interp.new_core(3), comp.new_core(3)
        while not a.terminal:
            move = rng.choice(a.legal())
            rolls += move >= interp.ir.chance.base
            waits += interp.ir.actions[-1].name == "wait" and move == interp.ir.n_action_moves - 1
            a.apply(move)
            b.apply(move)
            assert snapshot(a) == snapshot(b)
    assert rolls > 10 and waits > 5  # turns that open without a roll happen


def test_a_turn_opens_with_a_roll_only_when_the_cup_is_empty() -> None:
    for engine in ("interpreted", "compiled"):
        state = get_game(PRIVATE, None, engine).new_state()
        state.apply("roll:low-H")
        state.apply("spend3")
        state.apply("roll:H-H")  # blue's
        state.apply("spend3")
        state.apply("roll:low-low")  # green's
        state.apply("spend1")
        assert not state.is_chance_node() and state.current_player_name() == "red"  # red keeps a die
        state.apply("spend1")
        state.apply("spend3")  # blue's last
        state.apply("spend1")  # green's last
        assert state.is_chance_node() and state.current_player_name() == "red"  # red's cup is empty


def test_only_the_roller_sees_the_roll() -> None:
    from midgardc.research.tensor import observation_tensor, python_tensor

    for engine in ("interpreted", "compiled"):
        state = get_game(PRIVATE, None, engine).new_state()
        state.apply("roll:low-H")
        obs = [state.observation(p) for p in range(3)]
        assert obs[0]["moves"] == ["roll:low-H"] and obs[1]["moves"] == obs[2]["moves"] == ["roll:?"]
        assert obs[0]["players"][0]["counters"]["cup[high]"] == 1 and obs[1]["players"][0]["counters"]["cup[high]"] is None
        assert state.roll() == []  # nothing public
        for p in range(3):
            assert np.array_equal(observation_tensor(state, p), python_tensor(state, p))
