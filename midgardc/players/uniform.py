"""The baseline every other player is measured against: a uniformly random legal move."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from ..runtime.game import State
    from ..runtime.rng import Rng


class RandomPlayer:
    """Draws exactly like the engines' own playouts, so its games match theirs seed for seed."""

    def __init__(self, name: str = "random"):
        self.name = name

    def choose(self, state: "State", rng: "Rng") -> int:
        moves = state.legal_move_ids()
        return moves[rng.below(len(moves))]
