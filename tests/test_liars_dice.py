"""Liar's dice (specs/classics/liars-dice.yaml), rule by rule, in both back ends: the rules
as OpenSpiel's liars_dice (open_spiel/games/liars_dice/liars_dice.cc, numdice=5, bidding
rule "reset-face") gives them, quoted in each test. Private rolls: each player's dice land
in their own counter array (chance.into), which the other player does not see."""

from __future__ import annotations

import os

import pytest

from conftest import ENGINES, SPECS, get_game
from midgardc.runtime.observe import move_seen
from test_differential import check_games

LIARS = str(SPECS / "classics" / "liars-dice.yaml")
LONG = bool(os.environ.get("MIDGARDC_LONG"))
FACES = ["one", "two", "three", "four", "five", "six"]


@pytest.fixture(params=ENGINES)
def game(request):
    return get_game(LIARS, None, request.param)


def cup(state, player: int) -> dict:
    counters = state.to_json()["players"][player]["counters"]
    return {f: counters[f"dice[{f}]"] for f in FACES}


def rolled(game, first: str, second: str, bid: str = "1-1"):
    """Both cups rolled (first's, a bid, second's): second is to move."""
    state = game.new_state()
    state.apply(first)
    state.apply(bid)
    state.apply(second)
    return state


def test_each_player_rolls_five_dice_once_and_in_secret(game):
    # "Each player rolls their dice and keeps them hidden": the first player's roll opens
    # the game, the second's opens their first turn; nobody rolls again
    state = game.new_state()
    assert state.is_chance_node() and state.current_player_name() == "first"
    assert len(state.chance_outcomes()) == 252  # five dice as a multiset
    state.apply("roll:1-2-2-6-6")
    assert cup(state, 0) == {"one": 1, "two": 2, "three": 0, "four": 0, "five": 0, "six": 2}
    assert state.roll() == []  # the public roll stays empty: the dice are in the cup
    seen = state.observation(1)
    assert all(v is None for k, v in seen["players"][0]["counters"].items() if k.startswith("dice["))
    assert seen["moves"] == ["roll:?"] and state.observation(0)["moves"] == ["roll:1-2-2-6-6"]
    state.apply("2-3")
    assert state.is_chance_node() and state.current_player_name() == "second"
    state.apply("roll:3-3-4-5-5")
    assert state.observation(0)["moves"] == ["roll:1-2-2-6-6", "2-3", "roll:?"]
    assert state.observation(1)["moves"] == ["roll:?", "2-3", "roll:3-3-4-5-5"]
    state.apply("2-5")
    assert not state.is_chance_node() and state.current_player_name() == "first"  # no third roll
    state.apply("3-1")
    assert not state.is_chance_node() and cup(state, 1)["five"] == 2


def test_bids_must_rise_in_quantity_or_face(game):
    # "Any move higher than the current bid is allowed", bid (q, f) ranked (q - 1) * 6 + (f - 1)
    state = rolled(game, "roll:1-1-1-1-1", "roll:2-2-2-2-2", bid="3-4")
    legal = [m.text for m in state.legal_moves()]
    assert legal[:3] == ["3-5", "3-6", "4-1"] and "3-4" not in legal and "3-3" not in legal and "2-6" not in legal
    assert legal[-2:] == ["10-6", "liar"] and len(legal) == 60 - 16 + 1  # bids 16 .. 59, then the call


def test_liar_needs_a_standing_bid(game):
    # "Calling Liar is only available if at least one move has been made."
    state = game.new_state()
    state.apply("roll:1-2-3-4-5")
    assert "liar" not in [m.text for m in state.legal_moves()] and len(state.legal_moves()) == 60
    state.apply("1-1")
    state.apply("roll:1-2-3-4-5")
    assert "liar" in [m.text for m in state.legal_moves()]


def test_the_last_bid_leaves_only_the_call(game):
    state = rolled(game, "roll:1-1-1-1-1", "roll:2-2-2-2-2", bid="10-6")
    assert [m.text for m in state.legal_moves()] == ["liar"]


@pytest.mark.parametrize(
    "bid, bidder_wins",
    [
        ("6-2", True),  # twos 2 + 1, sixes (wild) 2 + 1: six dice match
        ("7-2", False),  # seven do not
        ("3-6", True),  # a bid on sixes counts the sixes: three
        ("4-6", False),
        ("4-5", True),  # fives 0 + 1, sixes 2 + 1: four
        ("5-5", False),
    ],
)
def test_sixes_are_wild_and_the_bid_decides_who_wins(game, bid, bidder_wins):
    # "dice_sides_ (e.g. 6) is wild, so it always matches"; "If the number of matches are at
    # least the quantity bid, then the bidder wins. Otherwise, the caller wins."
    state = rolled(game, "roll:1-2-2-6-6", "roll:2-3-4-5-6", bid=bid)
    state.apply("liar")  # second calls first's bid
    assert state.is_terminal()
    assert state.returns() == ([1.0, -1.0] if bidder_wins else [-1.0, 1.0])


def test_the_second_players_bid_can_be_called_too(game):
    state = rolled(game, "roll:1-2-2-6-6", "roll:2-3-4-5-6")
    state.apply("4-5")  # second bids four fives: 1 five + 3 sixes = 4, it holds
    state.apply("liar")
    assert state.returns() == [-1.0, 1.0]


def test_every_view_hides_the_other_cup(game):
    """Seat views (play, serve), observation tensors written in Python and in C, and the
    OpenSpiel adapter's information states show a player their own cup only."""
    import numpy as np

    from midgardc.research.tensor import observation_tensor, python_tensor, schema
    from midgardc.runtime.view import render_text

    state = rolled(game, "roll:1-2-2-6-6", "roll:3-3-4-5-5", bid="2-3")
    own, other = render_text(state, color=False, viewer=0), render_text(state, color=False, viewer=1)
    assert "dice: one 1, two 2, three 0, four 0, five 0, six 2" in own and "one 1, two 2" not in other
    assert "dice: one 0, two 0, three 2, four 1, five 2, six 0" in other and "three 2, four 1" not in own
    sch = schema(game.ir)
    columns = [game.ir.player_counters.index(game.ir.counters.index(f"dice[{f}]")) for f in FACES]
    for viewer in (0, 1):
        tensor = observation_tensor(state, viewer)
        assert np.array_equal(tensor, python_tensor(state, viewer))  # (C and Python agree)
        known, values = sch.view(tensor, "counters_known"), sch.view(tensor, "counters")
        assert [known[viewer, j] for j in columns] == [1] * 6 and [known[1 - viewer, j] for j in columns] == [0] * 6
        assert [values[1 - viewer, j] for j in columns] == [0] * 6


def test_the_cups_are_shown_once_liar_is_called_and_not_before(game):
    """"Then every die is shown": once liar ends the game, every seat's picture and page show
    both cups (``render.revealed_at_end``); before, the other cup is "?". The observation
    itself stays OpenSpiel's (its own cup only)."""
    import re

    from midgardc.render.svg import render_svg
    from midgardc.web.views import reveal_at_end

    state = rolled(game, "roll:1-2-2-6-6", "roll:3-3-4-5-5", bid="2-3")
    assert re.findall(r">3s in the cup: ([^<]+)<", render_svg(state, viewer=0)) == ["0", "?"]
    page = state.observation(0)
    reveal_at_end(state, page)
    assert page["players"][1]["counters"]["dice[three]"] is None
    state.apply("liar")
    assert state.is_terminal()
    for viewer in (0, 1):
        assert re.findall(r">3s in the cup: ([^<]+)<", render_svg(state, viewer=viewer)) == ["0", "2"]
        page = state.observation(viewer)
        assert page["players"][1 - viewer]["counters"]["dice[three]"] is None  # (the observation)
        reveal_at_end(state, page)
        assert [page["players"][p]["counters"]["dice[three]"] for p in (0, 1)] == [0, 2]


def test_the_openspiel_adapter_tells_each_player_their_own_roll():
    pytest.importorskip("pyspiel")
    from midgardc.research.openspiel import load_game

    os_game = load_game(LIARS)
    s = os_game.new_initial_state()
    assert s.is_chance_node() and len(s.chance_outcomes()) == 252
    s.apply_action(0)  # roll:1-1-1-1-1 (chance outcomes are numbered from 0)
    s.apply_action(0)  # 1-1
    s.apply_action(251)  # roll:6-6-6-6-6
    mine, theirs = s.information_state_string(1), s.information_state_string(0)
    assert '"roll:6-6-6-6-6"' in mine and '"roll:?"' in mine and '"roll:1-1-1-1-1"' not in mine
    assert '"roll:1-1-1-1-1"' in theirs and '"roll:?"' in theirs and "6-6-6-6-6" not in theirs


def test_moves_carry_openspiels_action_ids(game):
    # liars_dice.cc: bid (q, f) is "bidnum / dice_sides() + 1" and "1 + (bidnum % dice_sides())";
    # "Bid ID #dice * #num faces encodes the special "liar" action"
    for q in range(1, 11):
        for f in range(1, 7):
            assert game.move_id(f"{q}-{f}") == (q - 1) * 6 + (f - 1)
    assert game.move_id("liar") == 60 and game.ir.n_action_moves == 61


# each variant, the parameters of the native liars_dice it names, and its number of actions
NATIVE = {"five-dice": (None, {"numdice": 5}, 61), "one-die": ("one-die", {}, 13)}


@pytest.mark.parametrize("name", list(NATIVE))
def test_action_ids_are_the_native_games(engine, name):
    # the same number of actions and each id the same move: the bids, then "Liar" last (60
    # with five dice each; 12 with one, liars_dice's default numdice=1), and after a bid
    # the same legal ids
    pyspiel = pytest.importorskip("pyspiel")
    variant, params, n_actions = NATIVE[name]
    native = pyspiel.load_game("liars_dice", params)
    game = get_game(LIARS, variant, engine)
    assert native.num_distinct_actions() == game.ir.n_action_moves == n_actions
    assert game.move_id("liar") == n_actions - 1
    s = native.new_initial_state()
    while s.is_chance_node():
        s.apply_action(0)
    assert [s.action_to_string(0, a) for a in range(n_actions)] == [game.move_text(a).replace("liar", "Liar") for a in range(n_actions)]
    s.apply_action(3)  # first bids 1-4
    state = game.new_state()
    roll = "roll:" + "-".join(["1"] * ((n_actions - 1) // 6 // 2))  # each rolled all ones (chance 0)
    for text in (roll, "1-4", roll):
        state.apply(text)
    assert [m.id for m in state.legal_moves()] == s.legal_actions() == list(range(4, n_actions))


def test_a_players_information_is_their_cup_and_the_bids():
    """The information states of the one-die variant (OpenSpiel's default, numdice=1), one
    per (player, what they have seen): 12,288 per player, as the native game has (its
    liars_dice walked by pyspiel: [12288, 12288]); walked here on the compiled engine with
    the moves as each player sees them (observe.move_seen)."""
    game = get_game(LIARS, "one-die", "compiled")
    seen: list[set] = [set(), set()]

    def walk(core, views):
        if core.terminal:
            return
        mover = core.current
        if not core.chance:
            seen[mover].add(views[mover])
        for m in core.legal():
            child = core.clone()
            child.apply(m)
            walk(child, tuple(views[v] + (move_seen(game, m, mover, v),) for v in range(2)))

    walk(game.engine.new_core(0), ((), ()))
    assert [len(s) for s in seen] == [12_288, 12_288]


@pytest.mark.skipif(not LONG, reason="walks both trees with pyspiel (about 2 minutes); set MIDGARDC_LONG=1")
def test_information_states_equal_the_native_games():
    pyspiel = pytest.importorskip("pyspiel")
    from midgardc.research.openspiel import load_game
    from test_poker_openspiel import tree

    ours, theirs = tree(load_game(LIARS, variant="one-die")), tree(pyspiel.load_game("liars_dice"))
    assert ours[0] == theirs[0] == [12_288, 12_288]


@pytest.mark.skipif(not LONG, reason="1,000 interpreter games; set MIDGARDC_LONG=1")
def test_liars_dice_thousand_games_move_for_move():
    check_games(LIARS, None, 1000, 13)
