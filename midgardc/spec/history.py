"""Lowering of ``history:``: what a position is, for ``repeated()`` and ``times_seen()``
(the position history both engines keep; see ``midgardc/ir/history.py``). A spec that
asks them without the section compares the whole state its rules read (``default_history``)."""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING, Any, Optional

from ..errors import SpecError, did_you_mean
from ..ir.history import MAX_HISTORY_PLIES, HistoryIR
from ..ir.nodes import AssessRegions, MovePiece, Remove
from .endings import CLOCK_KEYS, DRAWN, STUCK_COUNTERS
from .yamlpos import YList, YMap, YNode, YScalar
from .pools import pool_columns

if TYPE_CHECKING:  # pragma: no cover
    from .context import Lowering

PARTS = ("board", "turn", "hands")  # besides counter names


def lower_history(low: "Lowering", node: Optional[YNode], counters: list[str], max_plies: int, max_plies_pos, top: Optional[YMap] = None) -> Optional[HistoryIR]:
    """``history: {position: [board, turn, hands, COUNTER...]}``: the parts of the state that make
    a position. Without the section: the default position when the spec asks the history
    (``default_history``), else None (no history is kept)."""
    if node is None:
        return default_history(low, top, counters, max_plies, max_plies_pos) if top is not None else None
    body = low.keys(node, "history", "'history'")
    pnode = body["position"]
    if not isinstance(pnode, YList) or len(pnode) == 0:
        raise SpecError("history.position lists what a position is: board, turn and counter names, e.g. [board, turn]", pnode.pos)
    board = turn = hands = False
    covered: list[int] = []
    seen: set[str] = set()
    for item in pnode:
        name = low.scalar(item, str, "a part of a position")
        if name in seen:
            raise SpecError(f"'{name}' is listed twice in history.position", item.pos)
        seen.add(name)
        if name == "board":
            board = True
        elif name == "turn":
            turn = True
        elif name == "hands":
            hands = True
        elif name in counters:
            covered.append(counters.index(name))
        elif pool_columns(low, name) is not None:  # a pool: every owner's and kind's count
            covered.extend(pool_columns(low, name))
        elif any(c.startswith(name + "[") for c in counters):  # a counter array: every element
            covered.extend(i for i, c in enumerate(counters) if c.startswith(name + "["))
        else:
            raise SpecError(
                f"unknown part of a position '{name}' (board, turn, hands, or a counter or pool: {', '.join([*counters, *low.pools]) or 'none declared'})",
                item.pos,
                did_you_mean(name, [*PARTS, *counters, *low.pools]),
            )
    return _kept(low, HistoryIR(board, turn, tuple(sorted(covered)), hands), counters, max_plies, max_plies_pos)


def _kept(low: "Lowering", history: HistoryIR, counters: list[str], max_plies: int, max_plies_pos, asked: str = "") -> HistoryIR:
    if max_plies > MAX_HISTORY_PLIES:
        raise SpecError(f"a spec with a history{asked} keeps every position of a game, so game.max_plies may be at most {MAX_HISTORY_PLIES} (it is {max_plies})", max_plies_pos)
    covered = history.counters
    if low.has_phases:  # the current phase is part of every position
        covered = tuple(sorted(set(covered) | {counters.index("phase")}))
    low.names.has_history = True
    return dataclasses.replace(history, counters=covered)


# -- the default position ------------------------------------------------------------------

#: The counters the end's rules keep (set as the game ends, so the same in every position).
ENDS_OWN = (DRAWN, *STUCK_COUNTERS)
#: A call of the history's built-ins in a condition's text.
ASKS = re.compile(r"\b(times_seen|repeated|moves_since_first_seen)\s*\(")


def _asked(node: Any) -> Optional[YScalar]:
    """The first scalar whose text calls a history built-in, anywhere in the spec."""
    if isinstance(node, YScalar):
        return node if isinstance(node.value, str) and ASKS.search(node.value) else None
    children = node.items.values() if isinstance(node, YMap) else node.items if isinstance(node, YList) else ()
    return next((found for child in children if (found := _asked(child)) is not None), None)


def default_history(low: "Lowering", top: YMap, counters: list[str], max_plies: int, max_plies_pos) -> Optional[HistoryIR]:
    """The position of a spec that asks ``times_seen()``, ``repeated()`` or
    ``moves_since_first_seen()`` without a ``history`` section: the whole state its rules
    read, i.e. the board, the turn and every counter of its ``counters`` section but the
    clocks (``counts``, ``reset``, ``reset_before``: they only grow between resets, so with
    them no position would repeat) and the counters the end's rules keep. Hands join it once the actions are lowered, when a
    piece can go into a hand (``with_hands``). None when the spec asks nothing."""
    asked = _asked(top)
    if asked is None:
        return None
    declared = top.get("counters")
    covered: list[int] = []
    for name, body in (declared.items.items() if isinstance(declared, YMap) else ()):
        if isinstance(body, YMap) and any(k in body.items for k in CLOCK_KEYS) or name in ENDS_OWN:
            continue
        covered.extend(i for i, c in enumerate(counters) if c == name or c.startswith(name + "["))
    low.default_history = True
    return _kept(low, HistoryIR(True, True, tuple(sorted(covered))), counters, max_plies, max_plies_pos,
                 f" (it asks {ASKS.search(asked.value).group(1)}())")


def _into_hand(node: Any) -> bool:
    """Whether an effect in ``node`` (IR) can put a piece into a hand: a capture or a
    removal into a hand (``hand``, ``captor``), or a region's assessment taking pieces back."""
    if isinstance(node, AssessRegions) or isinstance(node, MovePiece) and node.capture != "remove" or isinstance(node, Remove) and node.to != "out":
        return True
    if isinstance(node, (tuple, list)):
        return any(_into_hand(n) for n in node)
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return any(_into_hand(getattr(node, f.name)) for f in dataclasses.fields(node))
    return False


def with_hands(low: "Lowering", history: Optional[HistoryIR], *effects: Any) -> Optional[HistoryIR]:
    """A default position (``default_history``) with the hands when some effect can put a
    piece into a hand, so that the pieces in hand can come back (as drops do); a hand that
    is only a supply drawn from (spare pieces to promote to, men to place) is left out (list ``hands`` to
    compare it)."""
    if history is None or not getattr(low, "default_history", False) or not _into_hand(effects):
        return history
    return dataclasses.replace(history, hands=True)
