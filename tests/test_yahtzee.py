"""Yahtzee (specs/classics/yahtzee.yaml), rule by rule, in both back ends; the rules as the
standard (Hasbro's, summarised on Wikipedia's "Yahtzee" page) rules give them, quoted in
each test. Throws are partial rolls (chance.keep): a keep move sets dice aside, die by die,
and the next roll throws only the others."""

from __future__ import annotations

import os

import pytest

from conftest import ENGINES, SPECS, get_game
from test_differential import check_games

YAHTZEE = str(SPECS / "classics" / "yahtzee.yaml")
LONG = bool(os.environ.get("MIDGARDC_LONG"))
LOWER = ["three_of_a_kind", "four_of_a_kind", "full_house", "small_straight", "large_straight", "yahtzee", "chance"]


@pytest.fixture(params=ENGINES)
def game(request):
    return get_game(YAHTZEE, None, request.param)


def card(state, player: int = 0) -> dict:
    """The boxes filled on a player's card: box -> points."""
    counters = state.to_json()["players"][player]["counters"]
    return {k[7:-1]: v for k, v in counters.items() if k.startswith("scored[") and counters[f"used[{k[7:-1]}]"]}


def total(state, player: int = 0) -> int:
    return state.to_json()["players"][player]["score"]["total"]


def legal(state) -> list[str]:
    return [m.text for m in state.legal_moves()]


def scores(game, roll: str, box: str) -> int:
    state = game.new_state()
    state.apply(roll)
    state.apply(box)
    return card(state)[box]


def test_up_to_three_throws_setting_dice_aside(game):
    # a player "gets up to three rolls of the dice" and "can save any dice that are wanted to
    # complete a combination and then re-roll the other dice"
    state = game.new_state()
    assert state.is_chance_node() and len(state.legal_moves()) == 6**5  # every die thrown
    state.apply("roll:3-3-1-6-3")
    assert "keep:11001" in legal(state) and "keep:11111" not in legal(state)  # (keeping all is scoring)
    assert len(legal(state)) == 31 + 13
    state.apply("keep:11001")  # threes set aside; dice 2 and 3 thrown again
    outcomes = [m.text for m, _ in state.chance_outcomes()]
    assert len(outcomes) == 36 and all(o.startswith("roll:3-3-") and o.endswith("-3") for o in outcomes)
    state.apply("roll:3-3-3-2-3")
    state.apply("keep:00000")  # the third throw: every die again
    assert len(state.legal_moves()) == 6**5
    state.apply("roll:1-1-2-2-5")
    assert legal(state) == ["ones", "twos", "threes", "fours", "fives", "sixes", *LOWER]  # no fourth throw
    state.apply("twos")
    assert card(state) == {"twos": 4} and state.current_player_name() == "second" and state.is_chance_node()


def test_the_upper_section_sums_the_dice_of_its_number(game):
    # "each box is scored by summing the total number of dice faces matching that box"
    assert scores(game, "roll:3-3-3-5-5", "threes") == 9
    assert scores(game, "roll:3-3-3-5-5", "fives") == 10
    assert scores(game, "roll:3-3-3-5-5", "sixes") == 0


@pytest.mark.parametrize(
    "roll, box, points",
    [
        ("roll:3-3-3-5-6", "three_of_a_kind", 20),  # three of a kind: the sum of all dice
        ("roll:3-3-2-5-6", "three_of_a_kind", 0),
        ("roll:4-4-4-4-1", "four_of_a_kind", 17),
        ("roll:4-4-4-1-1", "four_of_a_kind", 0),
        ("roll:2-5-2-5-5", "full_house", 25),  # three of one number and two of another
        ("roll:5-5-5-5-2", "full_house", 0),
        ("roll:1-2-3-4-6", "small_straight", 30),  # four in sequence
        ("roll:6-3-5-4-3", "small_straight", 30),
        ("roll:1-2-3-5-6", "small_straight", 0),
        ("roll:2-3-4-5-6", "large_straight", 40),  # five in sequence
        ("roll:1-2-3-4-6", "large_straight", 0),
        ("roll:4-4-4-4-4", "yahtzee", 50),  # five of a kind
        ("roll:4-4-4-4-3", "yahtzee", 0),
        ("roll:1-3-4-6-6", "chance", 20),  # chance: the sum of all dice
    ],
)
def test_the_lower_section(game, roll, box, points):
    assert scores(game, roll, box) == points


def test_a_box_is_filled_once_and_a_zero_fills_it(game):
    # "If the resulting combination of dice will not fit in any unused scoring category, the
    # player must place a "zero" in one of the unused boxes."
    state = game.new_state()
    state.apply("roll:1-2-3-5-6")
    state.apply("yahtzee")
    state.apply("roll:1-1-1-1-2")
    state.apply("ones")
    state.apply("roll:6-6-6-6-6")
    assert "yahtzee" not in legal(state) and card(state) == {"yahtzee": 0}


def test_yahtzee_bonus_and_the_forced_joker(game):
    # "Bonus Yahtzees are worth 100 points each. Bonus chips are only awarded for subsequent
    # Yahtzees if the first Yahtzee was placed in the 50-point Yahtzee score box"; a joker
    # must take the upper box of its number while it is open, then any lower box at full points
    state = game.new_state()
    for roll, box in [("roll:6-6-6-6-6", "yahtzee"), ("roll:1-2-3-4-5", "chance")]:
        state.apply(roll)
        state.apply(box)
    state.apply("roll:2-2-2-2-2")
    assert legal(state)[-1:] == ["twos"] and [m for m in legal(state) if not m.startswith("keep:")] == ["twos"]
    state.apply("twos")
    assert card(state) == {"twos": 10, "yahtzee": 50} and total(state) == 160  # 50 + 10 + a bonus of 100
    state.apply("roll:1-1-2-3-4")
    state.apply("ones")
    state.apply("roll:2-2-2-2-2")  # twos filled: any open lower box, at full points
    assert [m for m in legal(state) if not m.startswith("keep:")] == [b for b in LOWER if b != "yahtzee"]
    state.apply("large_straight")
    assert card(state)["large_straight"] == 40 and total(state) == 50 + 10 + 40 + 200


def test_a_joker_after_a_zero_in_the_yahtzee_box_scores_no_bonus(game):
    # "In case a Yahtzee occurs after the Yahtzee box contains zero, the Bonus Yahtzee score
    # is not awarded; but the wild card rule stated above still applies."
    state = game.new_state()
    for roll, box in [("roll:1-2-3-5-6", "yahtzee"), ("roll:1-2-3-4-5", "chance"), ("roll:5-5-5-5-5", "fives"), ("roll:1-2-3-4-5", "ones")]:
        state.apply(roll)
        state.apply(box)
    state.apply("roll:5-5-5-5-5")
    assert "full_house" in legal(state) and "sixes" not in legal(state)  # lower boxes open: not the upper
    state.apply("full_house")
    assert card(state)["full_house"] == 25 and total(state) == 25 + 25 + 0


def test_a_joker_with_the_lower_section_full_takes_a_zero_above(game):
    ir = game.ir
    rows = [list(r) for r in ir.counter_init]
    for b in LOWER:  # first's lower section is full (a 50 in the Yahtzee box), fives filled too
        rows[0][ir.counters.index(f"used[{b}]")] = 1
    rows[0][ir.counters.index("scored[yahtzee]")] = 50
    rows[0][ir.counters.index("used[fives]")] = 1
    state = game.new_state()
    state.core.load([0], [[] for _ in ir.players], 0, counters=rows)
    state.apply("roll:5-5-5-5-5")
    assert [m for m in legal(state) if not m.startswith("keep:")] == ["ones", "twos", "threes", "fours", "sixes"]
    state.apply("sixes")
    assert card(state)["sixes"] == 0 and state.to_json()["players"][0]["counters"]["bonus"] == 1


def test_the_upper_bonus_is_35_at_63(game):
    # "If a player scores a total of at least 63 points in these boxes, a bonus of 35 points is added"
    state = game.new_state()
    for roll, box in [("roll:6-6-6-1-1", "sixes"), ("roll:1-1-1-1-1", "chance"), ("roll:5-5-5-1-1", "fives"), ("roll:1-1-1-1-2", "yahtzee"),
                      ("roll:4-4-4-1-1", "fours"), ("roll:1-1-1-2-2", "three_of_a_kind"), ("roll:3-3-3-1-1", "threes"), ("roll:1-1-2-2-3", "four_of_a_kind"),
                      ("roll:2-2-2-1-1", "twos"), ("roll:1-1-2-2-4", "full_house")]:
        state.apply(roll)
        state.apply(box)
    assert total(state) == 18 + 15 + 12 + 9 + 6  # 60: no bonus yet
    state.apply("roll:1-1-1-2-3")
    state.apply("ones")
    assert total(state) == 63 + 35


def test_thirteen_rounds_and_the_highest_total_wins(game):
    state = game.new_state(5)
    rounds = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.sample_chance()
            continue
        boxes = [m for m in state.legal_moves() if not m.text.startswith("keep:")]
        if state.current_player() == 0:
            rounds += 1
        state.apply(boxes[0] if state.current_player() == 0 else boxes[-1])
    assert rounds == 13 and len(card(state, 0)) == len(card(state, 1)) == 13
    totals = [total(state, 0), total(state, 1)]
    expected = [1.0, -1.0] if totals[0] > totals[1] else [-1.0, 1.0] if totals[1] > totals[0] else [0.0, 0.0]
    assert state.returns() == expected


@pytest.mark.skipif(not LONG, reason="1,000 interpreter games; set MIDGARDC_LONG=1")
def test_yahtzee_thousand_games_move_for_move():
    check_games(YAHTZEE, None, 1000, 17)
