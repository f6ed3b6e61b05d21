"""The baseline every other player is measured against: a uniformly random legal move."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..ir.compound import step_blocks
from ..runtime.sampling import draw_steps
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


class RandomStepsPlayer:
    """Draws a move of two steps (``then:``) step by step: a first step uniformly, then one
    of its second steps (runtime/sampling.py), as random playouts with sampling ``steps``
    do, so its games match theirs seed for seed in either engine (the draws read only the
    legal list, listed alike by both). Without ``then:`` it draws as ``random``."""

    def __init__(self, name: str = "random-steps"):
        self.name = name

    def choose(self, view: "PlayerView", rng: "Rng") -> int:
        view = as_view(view)
        return draw_steps(step_blocks(view.game.ir), view.legal_move_ids(), rng)
