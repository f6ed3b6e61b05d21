"""Places off the board (``pools:``): the IR the front end lowers them into.

A pool holds pieces by owner and kind. It is stored as a counter array of numbers
(``GameIR.counters`` columns ``POOL[owner,kind]``, one row per player for a per-player
pool, the game's row for a shared one), so observations, the text view, the tensors and
the position hash see it like any counter. Moving a piece between a cell and a pool is
lowered into effects both back ends already run (``SetElement``, ``Remove``, ``Place``)
plus the one below, which lets a piece taken out of a pool be put down by ``Place``."""

from __future__ import annotations

from dataclasses import dataclass

from .nodes import Expr


@dataclass(frozen=True)
class HandAdd:
    """``hands[owner][kind] += by``; nothing for nobody. Used right before a ``Place`` so
    the piece a pool gives up is the one placed (the hand is left as it was)."""

    owner: Expr
    kind: int
    by: int = 1


@dataclass(frozen=True)
class PoolInfo:
    """A pool of the spec: its first counter column (``owner * n_kinds + kind`` after it),
    whether each player has one (else one for the game) and who sees it."""

    name: str
    column: int
    per_player: bool
    visible: str
