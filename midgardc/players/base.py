"""What the match runner needs from a player, and nothing more.

A player is told the state and handed its own random number generator; it answers with a
move id from ``state.legal_move_ids()``. Randomness must come from that ``Rng`` (never
the ``random`` module) so a seed replays the same match on either back end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # pragma: no cover
    from ..runtime.game import State
    from ..runtime.rng import Rng


class Player(Protocol):
    """A seat-independent move chooser; ``name`` is how tables and records call it."""

    name: str

    def choose(self, state: "State", rng: "Rng") -> int:
        """A legal move id for the player to move in ``state`` (which must not be changed)."""
        ...
