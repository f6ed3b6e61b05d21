"""The baseline every other player is measured against: a uniformly random legal move."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .view import as_view

if TYPE_CHECKING:  # pragma: no cover
    from ..runtime.rng import Rng
    from .view import PlayerView


class RandomPlayer:
    """Draws exactly like the engines' own playouts, so its games match theirs seed for seed."""

    def __init__(self, name: str = "random"):
        self.name = name

    def choose(self, view: "PlayerView", rng: "Rng") -> int:
        moves = as_view(view).legal_move_ids()
        return moves[rng.below(len(moves))]
