"""Zones of items: kinds of item (items:), game and per-player zones (zones:) with their
visibility and order, read with holding / zone_size / top / no_item and changed by the
deal, take, pass_zone, gather and shuffle effects.

tests/data/draft.yaml (2, 3 and 4 players) uses all of it: a little draft in which hands
(owner-only) are picked from into "picked" (owner-only) and, once every player has
picked, a trigger gathers the picks onto public piles and passes the hands left. Both
back ends must shuffle, draw at random and play alike, move for move, for the same seed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from midgardc.engines import load
from midgardc.ir.nodes import CHANCE_STREAM
from midgardc.runtime.rng import Rng, derive_seed

DRAFT = str(Path(__file__).parent / "data" / "draft.yaml")
KINDS = ["apple", "bread", "cheese", "dates"]

_games: dict = {}


def game_of(engine: str, n: int = 3):
    key = (engine, n)
    if key not in _games:
        _games[key] = load(DRAFT, engine=engine, n_players=n)
    return _games[key]


@pytest.fixture(params=["interpreted", "compiled"])
def game(request):
    return game_of(request.param)


def total_items(state) -> dict[str, int]:
    """Copies of each kind over every zone and owner."""
    out = dict.fromkeys(KINDS, 0)
    for owners in state.zones().values():
        for content in owners.values():
            for k in KINDS:
                out[k] += content.count(k) if isinstance(content, list) else content[k]
    return out


# --------------------------------------------------------------------------- the IR


def test_zones_are_data_in_the_ir():
    """Visibility, owner form and order are per zone in the IR (the observation reads them)."""
    zs = game_of("interpreted").ir.zones
    table = {z.name: (z.of, z.visible, z.ordered) for z in zs.zones}
    assert table == {
        "stock": ("game", "none", True),
        "bag": ("game", "none", False),
        "draft": ("player", "owner", False),
        "picked": ("player", "owner", False),
        "kept": ("player", "all", True),
        "spent": ("game", "all", False),
    }
    assert zs.names == tuple(KINDS) and zs.texts == ("A", "B", "C", "D")
    assert zs.n_slots == 3 + 3 * 3  # three game zones, three per-player zones of 3 seats


# --------------------------------------------------------------------------- the start


def test_start_content_and_seeded_shuffle(game):
    piles = set()
    for seed in range(10):
        a, b = game.new_state(seed).zones(), game.new_state(seed).zones()
        assert a == b  # the same seed shuffles the same way
        stock = a["stock"]["game"]
        assert sorted(stock) == sorted(k for k in KINDS for _ in range(5))
        assert a["bag"]["game"] == dict.fromkeys(KINDS, 2)
        assert all(a["draft"][p] == dict.fromkeys(KINDS, 0) for p in game.players)
        piles.add(tuple(stock))
    assert len(piles) == 10  # different seeds, different orders


def test_the_start_shuffle_is_fisher_yates_on_the_chance_stream(game):
    """Documented on ZonesIR: declared order, then i = size-1 .. 1 swaps with below(i + 1)."""
    seed = 42
    pile = [k for k in KINDS for _ in range(5)]
    rng = Rng(derive_seed(seed, CHANCE_STREAM))
    for i in range(len(pile) - 1, 0, -1):
        j = rng.below(i + 1)
        pile[i], pile[j] = pile[j], pile[i]
    assert game.new_state(seed).zones()["stock"]["game"] == pile


# --------------------------------------------------------------------------- effects


def test_deal_moves_the_top_of_the_pile(game):
    state = game.new_state(3)
    stock = state.zones()["stock"]["game"]
    state.apply("open")
    z = state.zones()
    assert z["stock"]["game"] == stock[3:]
    dealt = z["draft"]["north"]
    assert sum(dealt.values()) == 3 and all(dealt[k] == stock[:3].count(k) for k in KINDS)


def test_take_and_the_trigger_gather_and_pass_left(game):
    state = game.new_state(5)
    for _ in game.players:
        state.apply("open")
    hands = {p: dict(h) for p, h in state.zones()["draft"].items()}
    picks = {}
    for p in game.players:
        k = next(k for k in KINDS if hands[p][k] > 0)
        picks[p] = k
        state.apply("pick:" + game.ir.zones.texts[KINDS.index(k)])
    z = state.zones()
    assert state.to_json()["counters"] == {"rounds": 1}  # the trigger ran once (a game counter)
    seats = list(game.players)
    for i, p in enumerate(seats):
        assert z["kept"][p] == [picks[p]]  # the pick went onto the player's own pile
        assert z["picked"][p] == dict.fromkeys(KINDS, 0)
        left = seats[(i - 1) % len(seats)]  # each hand moved one seat on: p now holds left's
        expect = dict(hands[left])
        expect[picks[left]] -= 1
        assert z["draft"][p] == expect


def test_holding_zone_size_top_and_no_item(game):
    state = game.new_state(9)
    stock = state.zones()["stock"]["game"]
    # cut is legal exactly when the stock's top is an apple (and two apples are left)
    assert ("cut" in [m.text for m in state.legal_moves()]) == (stock[0] == "apple")
    assert total_items(state) == {k: 7 for k in KINDS}


# --------------------------------------------------------------------------- both engines


@pytest.mark.parametrize("n", [2, 3, 4])
def test_both_engines_play_alike_move_for_move(n):
    """110 random games per player count (330 in all), the same moves fed to both back
    ends: same legal moves, same zones (contents and pile orders), same scores, at every
    step."""
    a_game, b_game = game_of("interpreted", n), game_of("compiled", n)
    played: set[str] = set()
    for seed in range(110):
        a, b = a_game.new_state(seed), b_game.new_state(seed)
        rng = Rng(seed)
        while True:
            assert a.zones() == b.zones()
            legal = a.legal_move_ids()
            assert legal == b.legal_move_ids()
            if a.is_terminal():
                break
            move = legal[rng.below(len(legal))]
            played.add(a_game.move_text(move).split(":")[0])
            a.apply(move)
            b.apply(move)
        assert b.is_terminal() and a.keys() == b.keys() and a.ply() == b.ply()
        assert a.returns() == b.returns()
    # every action ran, so every effect did: deal (open, forage: a random draw), take
    # (pick, spend), gather (cash, the rotate trigger, the end), pass_zone (rotate), shuffle (cut)
    assert played == {"open", "forage", "pick", "spend", "cash", "cut"}


def test_playouts_agree():
    for n in (2, 4):
        a, b = game_of("interpreted", n), game_of("compiled", n)
        assert a.engine.playouts(30, 11) == b.engine.playouts(30, 11)
        assert a.engine.playout_trace(7) == b.engine.playout_trace(7)


# --------------------------------------------------------------------------- properties

def _check_invariants(state) -> None:
    """Items are never created or destroyed, and no zone ever holds a negative count."""
    assert total_items(state) == {k: 7 for k in KINDS}  # 5 in the stock + 2 in the bag
    for owners in state.zones().values():
        for content in owners.values():
            if isinstance(content, dict):
                assert all(v >= 0 for v in content.values())
            else:
                assert all(k in KINDS for k in content)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(engine=st.sampled_from(["interpreted", "compiled"]), n=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**64 - 1), choices=st.lists(st.integers(0, 2**16), max_size=120))
def test_items_are_conserved_and_sizes_never_negative(engine, n, seed, choices):
    game = game_of(engine, n)
    state = game.new_state(seed)
    _check_invariants(state)
    for c in choices:
        if state.is_terminal():
            break
        legal = state.legal_move_ids()
        state.apply(legal[c % len(legal)])
        _check_invariants(state)
        z = state.zones()
        for p in game.players:  # holding() never lets a player pick what the hand lacks
            assert sum(z["picked"][p].values()) <= 1


def test_set_zones_rewrites_the_deal_in_both_engines():
    """For a determinization: the same new zones in both engines give the same game."""
    a_game, b_game = game_of("interpreted", 3), game_of("compiled", 3)
    a, b = a_game.new_state(4), b_game.new_state(4)
    for s in (a, b):
        for _ in range(3):
            s.apply("open")
    slots = a.core.zones
    draft = a_game.ir.zones.zones[2]
    # swap north's and east's hands
    slots[draft.base], slots[draft.base + 1] = slots[draft.base + 1], slots[draft.base]
    a.core.set_zones(slots)
    b.core.set_zones(slots)
    assert a.core.zones == b.core.zones == slots
    assert a.zones() == b.zones() and a.legal_move_ids() == b.legal_move_ids()
    rng = Rng(1)
    while not a.is_terminal():
        legal = a.legal_move_ids()
        assert legal == b.legal_move_ids() and a.zones() == b.zones()
        move = legal[rng.below(len(legal))]
        a.apply(move)
        b.apply(move)
    for core in (a.core, b.core):  # bad slots are refused, in both engines alike
        with pytest.raises(ValueError):
            core.set_zones(slots[:-1])
        with pytest.raises(ValueError):
            core.set_zones([[9]] + slots[1:])  # a pile of a kind that does not exist
        with pytest.raises(ValueError):
            core.set_zones([[0] * 28] + slots[1:])  # more items than the game has


FAMILIES = str(Path(__file__).parent / "data" / "item_families.yaml")


def test_an_item_family_is_one_kind_per_value_of_an_enumeration() -> None:
    # `tile: {each: suit, text: T, suit: each, values: [1]}`: tile_sun written TSun, ...,
    # each member with the family's keys and `each` read as its own value
    from midgardc.spec.lower import load_game_ir

    ir = load_game_ir(FAMILIES)
    assert ir.zones.names == ("tile_sun", "tile_moon", "tile_star", "coin_sun", "coin_moon", "coin_star", "gem_sun", "gem_moon", "gem_star", "joker")
    # `text: [Ruby, Pearl, Opal]`: a list gives each member its own entry
    assert ir.zones.texts == ("TSun", "TMoon", "TStar", "coin_sun", "coin_moon", "coin_star", "Ruby", "Pearl", "Opal", "J")
    state = load(FAMILIES, engine="interpreted").new_state(0)
    # the table's `coin: 1` is one of each coin, `gem: 1, gem_star: 0` every gem but the star
    assert sorted(m.text for m in state.legal_moves()) == [
        "take:J", "take:Pearl", "take:Ruby", "take:TMoon", "take:TStar", "take:TSun", "take:coin_moon", "take:coin_star", "take:coin_sun"]
    for move in ["take:TSun", "take:coin_moon", "take:TMoon", "take:J", "take:Ruby", "take:Pearl"]:
        state.apply(move)
    # a tile scores its suit's worth (the attribute given as `each`), a gem its carats
    # (`carat: [5, 4, 3]`), a coin 1
    assert [p["score"]["points"] for p in state.to_json()["players"]] == [3 + 2 + 5, 1 + 1 + 4]


def test_item_families_play_alike_in_both_engines() -> None:
    games = []
    for engine in ("interpreted", "compiled"):
        state = load(FAMILIES, engine=engine).new_state(0)
        rng = Rng(5)
        texts = []
        while not state.is_terminal():
            moves = state.legal_moves()
            texts.append(moves[rng.below(len(moves))].text)
            state.apply(texts[-1])
        games.append((texts, [p["score"] for p in state.to_json()["players"]]))
    assert len(games[0][0]) == 11 and games[0] == games[1]
