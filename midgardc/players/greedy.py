"""One-ply lookahead on the whole ranking: the cheapest player that is not random.

Each legal move is scored by what it leaves on the table, compared key by key in the
ranking's order: the mover's rank tuple (``lower_is_better`` keys negated, so bigger is
always better) minus that of the best other player (the one ranked highest by the whole
ranking), element by element, and two scores are compared first key first, then the next,
as the ranking itself is. The first element is the margin on the first key; later keys
only order moves that tie on every key before them. Ties on the whole ranking, which are
still common, are broken with the player's Rng by drawing an index among the tied moves in
legal-move order; a draw is made even when one move is best, so the Rng advances once per
decision whatever the position.

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


def move_score(ir: "GameIR", keys: Sequence[Sequence[int]], mover: int) -> tuple[int, ...]:
    """The mover's rank tuple minus the best opponent's, key by key (compared as tuples:
    first key, then the next). The best opponent is the highest by the whole ranking; in a
    one-player game the score is the mover's own tuple; with no ranking, ()."""
    tuples = [rank_tuple(ir, k) for k in keys]
    others = [t for p, t in enumerate(tuples) if p != mover]
    if not others:
        return tuples[mover]
    rival = max(others)
    return tuple(a - b for a, b in zip(tuples[mover], rival))


def best_moves(state: "State", moves: Optional[Sequence[int]] = None) -> tuple[list[int], tuple[int, ...]]:
    """The move ids (default: the legal ones) with the highest score in ``state`` (in the
    order given) and that score."""
    ir = state.game.ir
    mover = state.current_player()
    best: list[int] = []
    top: tuple[int, ...] = ()
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
