"""What the match runner needs from a player, and nothing more.

A player is handed its view of the game (``PlayerView``: what its seat may see, never the
state itself) and its own random number generator; it answers with a move id from
``view.legal_move_ids()``. Randomness must come from that ``Rng`` (never
the ``random`` module) so a seed replays the same match on either back end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # pragma: no cover
    from ..runtime.rng import Rng
    from .view import PlayerView


class Player(Protocol):
    """A seat-independent move chooser; ``name`` is how tables and records call it."""

    name: str

    def choose(self, view: "PlayerView", rng: "Rng") -> int:
        """A legal move id for the seat ``view.player``, which is to move."""
        ...
