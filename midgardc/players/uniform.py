"""The baseline every other player is measured against: a uniformly random legal move."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .view import as_view

if TYPE_CHECKING:  # pragma: no cover
    from ..runtime.rng import Rng
    from .view import PlayerView


class RandomPlayer:
    """Draws from the legal list as the engines' own playouts do for a spec without a
    ``legal_after``, so its games match theirs seed for seed; with one, the playouts draw
    by rejection (``runtime/interpreter.random_move``): as likely a move, another game."""

    def __init__(self, name: str = "random"):
        self.name = name

    def choose(self, view: "PlayerView", rng: "Rng") -> int:
        moves = as_view(view).legal_move_ids()
        return moves[rng.below(len(moves))]
