"""Items as IR: every player's deck (``deck:``) and the kinds of item with the zones that hold
them (``items:``, ``zones:``). Kept apart from ``nodes.py`` because only the card and zone
effects and the state layout read them; the effects that move items stay with the other
effects in ``nodes.py``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DeckIR:
    """Every player's deck: ``counts[k]`` copies of each kind of item ``k``, laid out in
    declared order (``order``). A new state shuffles each player's deck, in seat order,
    with the state's chance stream (Fisher-Yates: for i = size-1 down to 1, swap i with
    ``below(i + 1)``), before any die is rolled; then every player, in seat order, turns
    up ``up`` items from the top. Three zones per player, all public: the deck (ordered;
    the top is the next undrawn item), the face-up items and the discard pile (counted
    per kind)."""

    names: tuple[str, ...]  # kinds of item: constants of type item
    texts: tuple[str, ...]  # how each is written in moves and shown
    values: tuple[tuple[int, ...], ...]  # the numbers each kind shows
    counts: tuple[int, ...]  # copies of each kind in every deck
    up: int  # items each player turns up at the start

    @property
    def n_kinds(self) -> int:
        return len(self.names)

    @property
    def order(self) -> tuple[int, ...]:
        return tuple(k for k, n in enumerate(self.counts) for _ in range(n))

    @property
    def size(self) -> int:
        return sum(self.counts)

    @property
    def max_value(self) -> int:
        return max((v for vs in self.values for v in vs), default=0)


@dataclass(frozen=True)
class ZoneIR:
    """One zone: a game zone (one slot) or a per-player zone (a slot per seat).

    ``visible``: who may see what is in it — ``all``, ``owner`` (per-player zones only) or
    ``none``; sizes are always public. An ``ordered`` zone is a pile with a top (its order
    is part of what ``none`` hides); an unordered zone is a multiset of item kinds.
    ``start`` counts each kind at the start (every player's zone gets it)."""

    name: str
    of: str  # "game" | "player"
    visible: str  # "all" | "owner" | "none"
    ordered: bool
    start: tuple[int, ...]  # copies of each item kind at the start
    base: int = 0  # its first slot (ZonesIR.n_slots counts them all)

    @property
    def per_player(self) -> bool:
        return self.of == "player"

    @property
    def order(self) -> tuple[int, ...]:
        """A pile before the start-of-game shuffle: kinds in declared order."""
        return tuple(k for k, n in enumerate(self.start) for _ in range(n))


@dataclass(frozen=True)
class ZonesIR:
    """Kinds of item (``items:``) and the zones holding them (``zones:``).

    Slots: zone z of owner o is slot ``zones[z].base + (o if per-player else 0)``.
    Randomness (both back ends, the state's chance stream — the one dice use):
    a new state shuffles every ordered zone, in declaration order of the zones and, for a
    per-player zone, in seat order, each with Fisher-Yates (for i = size-1 down to 1, swap
    i with ``below(i + 1)``), before any die is rolled. A random draw from an unordered zone
    of ``size`` items takes ``r = below(size)`` and walks the kinds in declared order,
    taking the kind where ``r`` falls among their counts. Items are never created or
    destroyed, so no slot ever holds more than ``capacity`` items."""

    names: tuple[str, ...]
    texts: tuple[str, ...]
    values: tuple[tuple[int, ...], ...]
    zones: tuple[ZoneIR, ...]
    n_players: int

    @property
    def n_kinds(self) -> int:
        return len(self.names)

    @property
    def n_slots(self) -> int:
        return sum(self.n_players if z.per_player else 1 for z in self.zones)

    @property
    def capacity(self) -> int:
        return max(1, sum(sum(z.start) * (self.n_players if z.per_player else 1) for z in self.zones))

    def slot(self, zone: int, owner: int) -> int:
        """The slot of a zone of an owner, or -1 (a per-player zone of nobody)."""
        z = self.zones[zone]
        if not z.per_player:
            return z.base
        return z.base + owner if 0 <= owner < self.n_players else -1
