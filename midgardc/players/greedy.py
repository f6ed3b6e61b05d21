"""One-ply lookahead on the first ranking key: the cheapest player that is not random.

Each legal move is scored by what it leaves on the table: the mover's first ranking key
minus the best other player's (``lower_is_better`` keys are negated first, so bigger is
always better). Ties, which are common, are broken with the player's Rng by drawing an
index among the tied moves in legal-move order; a draw is made even when one move is
best, so the Rng advances once per decision whatever the position.

The moves are scored on ``view.determinize(rng)``: one sample of what the player cannot
see (a copy of the state that draws nothing from the Rng when nothing is hidden), and only
the player's real legal moves are scored.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Sequence

from ..runtime.results import rank_tuple
from .view import as_view

if TYPE_CHECKING:  # pragma: no cover
    from ..ir.nodes import GameIR
    from ..runtime.game import State
    from ..runtime.rng import Rng
    from .view import PlayerView


def move_score(ir: "GameIR", keys: Sequence[Sequence[int]], mover: int) -> int:
    """Mover's first key minus the best opponent's (own key alone in a one-player game)."""
    if not ir.ranking:
        return 0
    firsts = [rank_tuple(ir, k)[0] for k in keys]
    others = [f for p, f in enumerate(firsts) if p != mover]
    return firsts[mover] - (max(others) if others else 0)


def best_moves(state: "State", moves: Optional[Sequence[int]] = None) -> tuple[list[int], int]:
    """The move ids (default: the legal ones) with the highest score in ``state`` (in the
    order given) and that score."""
    ir = state.game.ir
    mover = state.current_player()
    best: list[int] = []
    top = 0
    for move in state.legal_move_ids() if moves is None else moves:
        child = state.core.clone()
        child.apply(move)
        score = move_score(ir, child.keys(), mover)
        if not best or score > top:
            best, top = [move], score
        elif score == top:
            best.append(move)
    return best, top


class GreedyPlayer:
    def __init__(self, name: str = "greedy"):
        self.name = name

    def choose(self, view: "PlayerView", rng: "Rng") -> int:
        view = as_view(view)
        tied, _ = best_moves(view.determinize(rng), view.legal_move_ids())
        return tied[rng.below(len(tied))]
