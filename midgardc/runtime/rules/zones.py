"""Zones of items in the reference interpreter: the meaning of ``ZonesIR`` and of the
effects deal, take, pass_zone, gather and shuffle, mirrored line for line by
``compiler/templates/zones.pyx.j2`` (emitted by ``midgardc.compiler.emit.zones``).

A state holds one slot per zone and owner (``ZonesIR.slot``): an ordered zone is a list
of item kinds, top first; an unordered zone is a list of counts per kind. Every random
choice (start-of-game shuffles, ``shuffle``, ``deal`` from an unordered zone) draws from
the state's chance stream ``core.rng``, in the order documented on ``ZonesIR``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from ...ir.items import ZonesIR
from ...ir.nodes import NO_ITEM, Deal, Gather, PassZone, Shuffle, Take
from ..rng import Rng

if TYPE_CHECKING:  # pragma: no cover
    from .state import CoreState

Slot = list[int]


def start(zones: ZonesIR, rng: Rng) -> list[Slot]:
    """Every slot's content at the start: declared copies, ordered piles shuffled (zones in
    declaration order, a per-player zone's seats in order)."""
    slots: list[Slot] = []
    for z in zones.zones:
        for _ in range(zones.n_players if z.per_player else 1):
            if z.ordered:
                pile = list(z.order)
                fisher_yates(pile, rng)
                slots.append(pile)
            else:
                slots.append(list(z.start))
    return slots


def fisher_yates(pile: list[int], rng: Rng) -> None:
    for i in range(len(pile) - 1, 0, -1):
        j = rng.below(i + 1)
        pile[i], pile[j] = pile[j], pile[i]


def builtins(zones: ZonesIR) -> dict[str, Callable]:
    """holding(zone, owner, item), zone_size(zone, owner), top(zone, owner)."""

    n = zones.n_players
    bases = [(z.base, z.per_player) for z in zones.zones]
    ordered = [z.ordered for z in zones.zones]

    def slot_of(z: int, o: int) -> int:  # ZonesIR.slot, without its attribute look-ups
        base, per_player = bases[z]
        if not per_player:
            return base
        return base + o if 0 <= o < n else -1

    def holding(s: "CoreState", z: int, o: int, k: int) -> int:
        slot = slot_of(z, o)
        if slot < 0 or k < 0:
            return 0
        return s.zones[slot].count(k) if ordered[z] else s.zones[slot][k]

    def held(s: "CoreState", z: int, o: int) -> int:
        """The kinds with at least one item in the zone, as a set (bit k: kind k; the
        set form of ``holding(o, z, k) > 0``, rules/cellsets.py)."""
        slot = slot_of(z, o)
        found = 0
        if slot >= 0:
            if ordered[z]:
                for k in s.zones[slot]:
                    found |= 1 << k
            else:
                for k, count in enumerate(s.zones[slot]):
                    if count:
                        found |= 1 << k
        return found

    def zone_size(s: "CoreState", z: int, o: int) -> int:
        slot = slot_of(z, o)
        if slot < 0:
            return 0
        return len(s.zones[slot]) if ordered[z] else sum(s.zones[slot])

    def top(s: "CoreState", z: int, o: int) -> int:
        slot = slot_of(z, o)
        if slot < 0 or not s.zones[slot]:
            return NO_ITEM
        return s.zones[slot][0]

    return {"holding": holding, "zone_size": zone_size, "top": top, "held": held}


# --------------------------------------------------------------------------- moving items


def _remove_top(s: "CoreState", zones: ZonesIR, z: int, slot: int) -> int:
    """Take one item off a zone: the top of a pile, or a random one of a set (see ZonesIR);
    NO_ITEM when it is empty."""
    content = s.zones[slot]
    if zones.zones[z].ordered:
        return content.pop(0) if content else NO_ITEM
    total = sum(content)
    if total == 0:
        return NO_ITEM
    r = s.rng.below(total)
    for k, n in enumerate(content):
        if r < n:
            content[k] -= 1
            return k
        r -= n
    raise AssertionError("counts changed")  # pragma: no cover


def _remove_kind(s: "CoreState", zones: ZonesIR, z: int, slot: int, item: int) -> bool:
    """Take one copy of a kind off a zone (the one nearest the top of a pile)."""
    content = s.zones[slot]
    if zones.zones[z].ordered:
        if item in content:
            content.remove(item)
            return True
        return False
    if content[item] > 0:
        content[item] -= 1
        return True
    return False


def _add(s: "CoreState", zones: ZonesIR, z: int, slot: int, item: int) -> None:
    """Put an item in a zone: at the bottom of a pile."""
    if zones.zones[z].ordered:
        s.zones[slot].append(item)
    else:
        s.zones[slot][item] += 1


def deal(s: "CoreState", zones: ZonesIR, eff: Deal, env: dict) -> None:
    src = zones.slot(eff.frm, s._fn(eff.frm_owner)(s, env))
    dst = zones.slot(eff.to, s._fn(eff.to_owner)(s, env))
    count = min(s._fn(eff.count)(s, env), zones.capacity)  # (a zone dealt to itself turns round)
    if src < 0 or dst < 0:
        return
    for _ in range(count):
        item = _remove_top(s, zones, eff.frm, src)
        if item == NO_ITEM:
            return
        _add(s, zones, eff.to, dst, item)


def take(s: "CoreState", zones: ZonesIR, eff: Take, env: dict) -> None:
    item = s._fn(eff.item)(s, env)
    src = zones.slot(eff.frm, s._fn(eff.frm_owner)(s, env))
    dst = zones.slot(eff.to, s._fn(eff.to_owner)(s, env))
    count = min(s._fn(eff.count)(s, env), zones.capacity)
    if src < 0 or dst < 0 or item < 0:
        return
    for _ in range(count):
        if not _remove_kind(s, zones, eff.frm, src, item):
            return
        _add(s, zones, eff.to, dst, item)


def pass_zone(s: "CoreState", zones: ZonesIR, eff: PassZone, env: dict) -> None:
    n = zones.n_players
    step = s._fn(eff.step)(s, env) % n
    base = zones.zones[eff.zone].base
    old = [s.zones[base + p] for p in range(n)]
    for p in range(n):
        s.zones[base + (p + step) % n] = old[p]


def _move_all(s: "CoreState", zones: ZonesIR, frm: int, src: int, to: int, dst: int) -> None:
    """Everything from one slot to another: a pile top first, a set kind by kind."""
    content = s.zones[src]
    if zones.zones[frm].ordered:
        moved = list(content)
        content.clear()
    else:
        moved = [k for k, n in enumerate(content) for _ in range(n)]
        for k in range(len(content)):
            content[k] = 0
    for item in moved:
        _add(s, zones, to, dst, item)


def gather(s: "CoreState", zones: ZonesIR, eff: Gather, env: dict) -> None:
    if eff.owner is not None:
        o = s._fn(eff.owner)(s, env)
        src, dst = zones.slot(eff.frm, o), zones.slot(eff.to, o)
        if src >= 0 and dst >= 0:
            _move_all(s, zones, eff.frm, src, eff.to, dst)
        return
    if not zones.zones[eff.frm].per_player:  # a game zone to a game zone
        _move_all(s, zones, eff.frm, zones.slot(eff.frm, 0), eff.to, zones.slot(eff.to, 0))
        return
    for p in range(zones.n_players):
        _move_all(s, zones, eff.frm, zones.slot(eff.frm, p), eff.to, zones.slot(eff.to, p))


def shuffle(s: "CoreState", zones: ZonesIR, eff: Shuffle, env: dict) -> None:
    slot = zones.slot(eff.zone, s._fn(eff.owner)(s, env))
    if slot >= 0:
        fisher_yates(s.zones[slot], s.rng)


EFFECTS: dict[type, Callable] = {Deal: deal, Take: take, PassZone: pass_zone, Gather: gather, Shuffle: shuffle}


def checked_slots(zones: "ZonesIR | None", slots: list[list[int]]) -> list[Slot]:
    """``slots`` as a state's zones, or ValueError: one per slot, item kinds in range, no
    negative count, at most the capacity in all (so the compiled engine's fixed piles can
    never overflow, whatever moves follow)."""
    if zones is None or not zones.zones:
        if slots:
            raise ValueError("this game has no zones")
        return []
    if len(slots) != zones.n_slots:
        raise ValueError(f"set_zones() needs {zones.n_slots} slots, got {len(slots)}")
    out: list[Slot] = []
    for z in zones.zones:
        for o in range(zones.n_players if z.per_player else 1):
            content = [int(v) for v in slots[z.base + o]]
            if z.ordered:
                if len(content) > zones.capacity or any(not 0 <= k < zones.n_kinds for k in content):
                    raise ValueError(f"zone {z.name}: a pile of at most {zones.capacity} item kinds 0..{zones.n_kinds - 1}")
            elif len(content) != zones.n_kinds or any(v < 0 for v in content) or sum(content) > zones.capacity:
                raise ValueError(f"zone {z.name}: {zones.n_kinds} counts, none negative, at most {zones.capacity} in all")
            out.append(content)
    if sum(len(c) if z else sum(c) for c, z in zip(out, _slot_ordered(zones))) > zones.capacity:
        raise ValueError(f"set_zones(): at most {zones.capacity} items in all (the game's items)")
    return out


def _slot_ordered(zones: ZonesIR) -> list[bool]:
    return [z.ordered for z in zones.zones for _ in range(zones.n_players if z.per_player else 1)]
