"""A full state a player could be in, given only what it sees: a *determinization*.

Every item the viewer cannot see is taken out of the places it cannot see and dealt back
at random (Fisher-Yates with the viewer's ``Rng``, starting from the pool's items in kind
order, so a sample says nothing of how they really lie) among those same places, pool by pool
(``Place.pool``: the places whose items may have been exchanged), keeping every place's
size and every kind's total in the pool; what the viewer sees is left as it is. So the
result matches the viewer's observation exactly and any hidden arrangement it cannot rule
out from that observation is drawn uniformly.

Counters the viewer may not see are not sampled but *estimated*, without looking at them:
another player's owner-only counter takes the viewer's own value of that counter ("as
mine"), and a counter nobody sees (``visible: none``) its start value. Nothing of the real
values reaches the sample (so once the game is over, when every ranking key is public, a
sample's keys may differ from the observed ones; nobody moves then).

Limits, chosen for simplicity and written here so players know them:
- the sample uses the current observation only, not what the viewer could deduce from the
  history of the game (a player that remembers where it saw an item go should filter);
- the state's chance stream (future dice, shuffles) is replaced by one drawn from the
  viewer: nobody sees the future, and a sample must not carry the real game's.

When no item is hidden from the viewer (no pool holds two different kinds), the viewer's
``Rng`` is not advanced (and with no hidden counter either, the sample is a copy): the new chance stream is derived
from the Rng's current value without drawing from it, so every player result of a game
without hidden items is the same as before samples existed.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..ir.nodes import CHANCE_STREAM
from .observe import Place, counter_visibility, hidden_counters, may_hide, places
from .rng import Rng, derive_seed, mix64

if TYPE_CHECKING:  # pragma: no cover
    from .game import State


def hidden_pools(state: "State", viewer: int) -> list[list[Place]]:
    """The places ``viewer`` cannot see, grouped by pool (in ``places()`` order); only pools
    with something to rearrange (two different kinds of item) are listed."""
    if not may_hide(state.game.ir):
        return []
    pools: dict[str, list[Place]] = {}
    for place in places(state):
        if not place.seen_by(viewer) and place.items:
            pools.setdefault(place.pool, []).append(place)
    return [group for group in pools.values() if len({k for p in group for k in p.items}) > 1]


def hides_anything(state: "State", viewer: int) -> bool:
    """Whether a sample for ``viewer`` could differ from the state itself."""
    ir = state.game.ir
    return may_hide(ir) and (bool(hidden_counters(ir, viewer)) or bool(hidden_pools(state, viewer)))


def determinize(state: "State", viewer: int, rng: Rng) -> "State":
    """A new State consistent with ``viewer``'s observation (see the module docstring)."""
    out = state.clone()
    if not may_hide(state.game.ir):  # (the common case, kept short: a copy, a new stream)
        reseed(out.core, mix64(rng.state))
        return out
    pools = hidden_pools(state, viewer)
    zone_slots: dict[int, list[int]] = {}  # zone slot -> new content (written at once)
    for group in pools:
        # the pool's items in kind order (only what they are, not where they lie): a sample
        # must not depend on the hidden arrangement, which the viewer could otherwise
        # recover from a sample by undoing the shuffle with its own (known) Rng
        items = pool_items(group)
        for i in range(len(items) - 1, 0, -1):  # Fisher-Yates from the end, as the deal
            j = rng.below(i + 1)
            items[i], items[j] = items[j], items[i]
        at = 0
        for place in group:
            part = items[at : at + len(place.items)]
            at += len(place.items)
            if place.source == "zones":
                zone_slots[place.slot] = part
            else:
                _write_deck(out.core, place, part)
    if zone_slots:
        _write_zones(out.core, state.game.ir, zone_slots)
    _estimate_counters(out, viewer)
    # a new chance stream: drawn when items were, else peeked (rng is left as it was)
    reseed(out.core, rng.next64() if pools else mix64(rng.state))
    return out


def sampling_plan(state: "State", viewer: int) -> tuple[Any, list[list[tuple[int, int, tuple[int, ...]]]]]:
    """What ``determinize`` deals from, for a search that samples in C (``mcts_search_set``
    in ``midgardc/engine/generic.pyx`` draws as ``determinize`` does, item for item): a
    copy of the state's core with the hidden counters estimated, and per hidden pool its
    places as (source, target, items): source 0 a zone slot (target: the slot), 1 a deck
    (target: its owner), items as ``determinize`` concatenates them before shuffling."""
    out = state.clone()
    pools = hidden_pools(state, viewer) if may_hide(state.game.ir) else []
    if may_hide(state.game.ir):
        _estimate_counters(out, viewer)
    plan = []
    for group in pools:
        items = pool_items(group)  # (dealt to the places in turn, as determinize does)
        row, at = [], 0
        for p in group:
            part = tuple(items[at : at + len(p.items)])
            at += len(p.items)
            row.append((0, p.slot, part) if p.source == "zones" else (1, p.owner, part))
        plan.append(row)
    return out.core, plan


def pool_items(group: list[Place]) -> list[int]:
    """The items of a pool of hidden places, in kind order (what a sample shuffles)."""
    return sorted(k for place in group for k in place.items)


def _estimate_counters(state: "State", viewer: int) -> None:
    ir = state.game.ir
    core = state.core
    for row, i in hidden_counters(ir, viewer):
        mine = counter_visibility(ir, i) == "owner" and row < ir.n_players
        value = core.counters[viewer][i] if mine else ir.counter_init[row][i]
        if core.counters[row][i] != value:
            _write_counter(core, row, i, value)


# -- writes into a core, per back end --------------------------------------------------------
# Zones: set_zones on either Core. The rest: the interpreter's Core keeps plain fields (and
# a cache of its legal moves, dropped after a write: legality may read what was written);
# the compiled Core has one method per write (midgardc/engine/generic.pyx: set_deck, set_counter, reseed).


def _is_interpreted(core: Any) -> bool:
    return core.__class__ is _interpreter_core()


@lru_cache(maxsize=1)
def _interpreter_core() -> type:
    from .interpreter import Core

    return Core


def _write_deck(core: Any, place: Place, items: list[int]) -> None:
    p = place.owner
    if _is_interpreted(core):
        decks = list(core.deck)  # a clone shares the list and its tuples: replace, never mutate
        decks[p] = tuple(decks[p][: core.drawn[p]]) + tuple(items)
        core.deck = decks
        core._legal = None
    else:
        core.set_deck(p, items)


def _write_counter(core: Any, row: int, counter: int, value: int) -> None:
    if _is_interpreted(core):
        core.counters[row][counter] = value
        core._legal = None
    else:
        core.set_counter(row, counter, value)


def reseed(core: Any, seed: int) -> None:
    """Give ``core`` the chance stream ``derive_seed(seed, CHANCE_STREAM)``."""
    if _is_interpreted(core):
        core.rng = Rng(derive_seed(seed, CHANCE_STREAM))
    else:
        core.reseed(seed)


def _write_zones(core: Any, ir: Any, new: dict[int, list[int]]) -> None:
    """Zone slots ``new`` (slot -> item kinds) replaced, the others kept: ``set_zones`` of
    either Core, in the format of ``core.zones`` (a pile top first, a set as counts)."""
    slots = [list(c) for c in core.zones]
    for z in ir.zones.zones:
        for o in range(ir.zones.n_players if z.per_player else 1):
            items = new.get(z.base + o)
            if items is not None:
                slots[z.base + o] = list(items) if z.ordered else [items.count(k) for k in range(ir.zones.n_kinds)]
    core.set_zones(slots)
