"""Lowering of ``history:``: what a position is, for ``repeated()`` and ``times_seen()``
(the position history both engines keep; see ``midgardc/ir/history.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ..errors import SpecError, did_you_mean
from ..ir.history import MAX_HISTORY_PLIES, HistoryIR
from .yamlpos import YList, YNode
from .pools import pool_columns

if TYPE_CHECKING:  # pragma: no cover
    from .context import Lowering

PARTS = ("board", "turn", "hands")  # besides counter names


def lower_history(low: "Lowering", node: Optional[YNode], counters: list[str], max_plies: int, max_plies_pos) -> Optional[HistoryIR]:
    """``history: {position: [board, turn, hands, COUNTER...]}``: the parts of the state that make
    a position. None without the section (no history is kept)."""
    if node is None:
        return None
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
    if max_plies > MAX_HISTORY_PLIES:
        raise SpecError(f"a spec with a history keeps every position of a game, so game.max_plies may be at most {MAX_HISTORY_PLIES} (it is {max_plies})", max_plies_pos)
    if low.has_phases:  # the current phase is part of every position
        covered = sorted(set(covered) | {counters.index("phase")})
    low.names.has_history = True
    return HistoryIR(board, turn, tuple(sorted(covered)), hands)
