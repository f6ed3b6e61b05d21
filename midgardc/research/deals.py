"""Deal chance nodes: a shuffled face-down pile dealt one item at a time, for OpenSpiel.

The engines shuffle every ordered zone when a game starts, with the state's chance stream
(so a seed fixes the deal). An algorithm that walks the whole game tree (CFR, exact
exploitability) needs the deal as chance nodes instead. For a pile nobody may see
(``ordered: true, visible: none``) the order matters only as items leave its top, and a
uniform shuffle read from the top is the same as drawing each item at random from what is
left. So the adapter keeps each such pile's order *unresolved* and decides it one
position at a time, only when the rules take that position:

* the **prefix** of a pile is the items chosen so far for its top positions; the rest of
  the pile stands behind it in declared order, as a placeholder nobody reads;
* before a move (or the start effects) is played for real, it is played on a copy; if it
  takes more items off a pile than its prefix holds, the state becomes a **chance node**
  for the next position: the outcomes are the distinct item kinds still unresolved, each
  with probability ``count / remaining`` (the action id is the kind's index, after the
  dice outcomes);
* each outcome extends the prefix and rewrites the pile in play (``set_zones``: both back
  ends apply it identically), or, for the start, restarts the game with that pile
  (``new_state(seed, start_zones=...)``); when no pile needs more, the move is played.

So a card game that deals each player one card of three from a face-down deck starts with
two chance nodes (3 then 2 outcomes), and a card turned up later is one more, where it is
dealt, as card games written natively for OpenSpiel do it. Piles that a
player may see, piles the rules fill, reshuffle or read the top of (``lazy_piles``), and
unordered zones (drawn at random item by item) stay decided by the seed. Items leave a
lazily dealt pile only from its top and none come back, so the items taken are counted
as its size goes down.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import fields, is_dataclass
from typing import Any, Optional

from midgardc.ir.nodes import CHANCE_STREAM, Call, Const, Deal, GameIR, Gather, PassZone, Shuffle, Take
from midgardc.runtime.game import Game, State
from midgardc.runtime.rng import Rng, derive_seed
from midgardc.runtime.rules import zones as zone_rules

START = -1  # the pending "move" of a game not started yet: its start effects


class Deals:
    """What one game (spec, variant, player count, seed) deals lazily: the piles and their
    contents before the shuffle. Shared by every state of the game; never changed."""

    def __init__(self, game: Game, seed: int, lazy: list[int]):
        ir = game.ir
        self.game = game
        self.seed = seed
        self.lazy = lazy  # slots dealt one item at a time, in slot order
        # the seed's start shuffle: what every other slot starts with
        self.shuffled = zone_rules.start(ir.zones, Rng(derive_seed(seed, CHANCE_STREAM)))
        self.content = {s: sorted(self.shuffled[s]) for s in lazy}  # each pile, kinds in declared order
        self.n_kinds = ir.zones.n_kinds
        self.texts = ir.zones.texts

    @property
    def n_items(self) -> int:
        return sum(len(c) for c in self.content.values())

    def pile(self, slot: int, prefix: list[int]) -> list[int]:
        """The whole pile: the resolved prefix on top, the rest in declared order."""
        rest = Counter(self.content[slot])
        rest.subtract(prefix)
        return list(prefix) + [k for k in sorted(rest) for _ in range(rest[k])]

    def start_zones(self, prefix: dict[int, list[int]]) -> list[list[int]]:
        slots = [list(s) for s in self.shuffled]
        for s in self.lazy:
            slots[s] = self.pile(s, prefix[s])
        return slots

    def outcomes(self, slot: int, prefix: list[int]) -> list[tuple[int, float]]:
        """The next position's outcomes: (item kind, count / remaining)."""
        rest = Counter(self.content[slot])
        rest.subtract(prefix)
        total = sum(rest.values())
        return [(k, rest[k] / total) for k in sorted(rest) if rest[k] > 0]


def lazy_piles(ir: GameIR) -> list[int]:
    """The slots of the piles dealt one item at a time: ordered zones nobody may see, that
    the rules only deal from: no effect puts items in them (deal, take, gather, pass_zone
    into them) or shuffles them, and no condition reads their ``top`` (which would read a
    position before it is dealt). Other piles keep the seed's shuffle."""
    zs = ir.zones
    if zs is None:
        return []
    touched: set[int] = set()
    _walk((ir.actions, ir.triggers, ir.end, ir.defines, ir.ranking, ir.start_effects), touched)
    out = []
    for i, z in enumerate(zs.zones):
        if z.ordered and z.visible == "none" and sum(z.start) > 0 and i not in touched:
            out.extend(range(z.base, z.base + (zs.n_players if z.per_player else 1)))
    return out


def _walk(node: Any, touched: set[int]) -> None:
    """Collect the zones that IR ``node`` fills, shuffles or reads the top of."""
    if isinstance(node, (tuple, list)):
        for x in node:
            _walk(x, touched)
        return
    if not is_dataclass(node):
        return
    if isinstance(node, (Deal, Take, Gather)):
        touched.add(node.to)
    elif isinstance(node, (PassZone, Shuffle)):
        touched.add(node.zone)
    elif isinstance(node, Call) and node.fn == "top" and node.args and isinstance(node.args[0], Const):
        touched.add(node.args[0].value)
    for f in fields(node):
        _walk(getattr(node, f.name), touched)


class Dealing:
    """One OpenSpiel state's midgardc state and what it has resolved of the piles:
    ``prefix`` (slot -> kinds chosen for its top), ``taken`` (slot -> items the rules have
    taken off its top), ``pending`` (a move waiting for its deal, START, or None) and
    ``need`` (the slot whose next position is the chance node, or None)."""

    __slots__ = ("deals", "state", "prefix", "taken", "pending", "need")

    def __init__(self, deals: Deals, copy_from: Optional["Dealing"] = None):
        self.deals = deals
        if copy_from is not None:
            self.state = copy_from.state.clone()
            self.prefix = {s: list(p) for s, p in copy_from.prefix.items()}
            self.taken = dict(copy_from.taken)
            self.pending, self.need = copy_from.pending, copy_from.need
            return
        self.prefix = {s: [] for s in deals.lazy}
        self.taken = {s: 0 for s in deals.lazy}
        self.state: Any = None
        self.pending: Optional[int] = START
        self.need: Optional[int] = None
        self._advance()

    def outcomes(self) -> list[tuple[int, float]]:
        assert self.need is not None
        return self.deals.outcomes(self.need, self.prefix[self.need])

    def play(self, move: int) -> None:
        """A player's move: played now, or held until the piles it deals from are resolved."""
        self.pending = move
        self._advance()

    def resolve(self, kind: int) -> None:
        """The chance node's outcome: ``kind`` is the next item of the pile ``need``."""
        slot = self.need
        assert slot is not None and kind in dict(self.outcomes())
        self.prefix[slot].append(kind)
        if self.pending != START:  # the pile in play: its untaken part, the new prefix on top
            slots = [list(z) for z in self.state.core.zones]
            slots[slot] = self.deals.pile(slot, self.prefix[slot])[self.taken[slot] :]
            self.state.core.set_zones(slots)
        self._advance()

    def _advance(self) -> None:
        deals = self.deals
        if self.pending == START:
            trial: State = deals.game.new_state(deals.seed, start_zones=deals.start_zones(self.prefix))
            taken = {s: len(deals.content[s]) - len(trial.core.zones[s]) for s in deals.lazy}
        else:
            assert self.pending is not None
            trial = self.state.clone()
            trial.apply_unchecked(self.pending)
            before, after = self.state.core.zones, trial.core.zones
            taken = {s: self.taken[s] + max(0, len(before[s]) - len(after[s])) for s in deals.lazy}
        self.need = next((s for s in deals.lazy if taken[s] > len(self.prefix[s])), None)
        if self.need is None:
            self.state, self.taken, self.pending = trial, taken, None
        elif self.pending == START:
            self.state = trial  # (a placeholder deal: what chance-node strings are made from)
