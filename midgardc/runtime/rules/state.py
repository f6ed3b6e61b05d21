"""The interpreter's state of play as the rule functions read it, as a protocol.

``expressions.Program`` compiles a game's IR to closures ``(state, env) -> value``, and
``zones`` holds the zone effects and queries as functions of a state. They used to name
the interpreter's ``Core`` for their annotations, which made ``interpreter.py`` and the
rule modules it is built from one circle of imports. They name this instead: the fields
and the few methods they read, which ``Core`` has (structural typing: it need not name
this class). The rule modules that are bases of ``Core`` (moves, effects, ...) use
``self`` and need no annotation.
"""

from __future__ import annotations

from typing import Any, Callable, Protocol

from ...ir.nodes import Expr
from ..rng import Rng


class CoreState(Protocol):
    """A state of play of the interpreter (``midgardc.runtime.interpreter.Core``)."""

    board: list[int]  # piece id per cell, then the off-board sentinel
    heights: list[int]  # pieces stacked per cell
    hands: list[list[int]]  # per player, per kind
    counters: list[list[int]]  # per player, then the game's row last
    current: int  # the player to move
    last: int  # the player who made the previous move
    ply: int
    roll: list[int]  # the faces of the current roll (-1: not rolled yet)
    rng: Rng  # the state's own chance stream
    zones: list[list[int]]  # one slot per zone and owner (ZonesIR.slot)
    deck: list[tuple[int, ...]]  # each player's deck, top first
    drawn: list[int]  # items drawn from the top of each deck so far
    up: list[list[int]]  # face-up items per player and kind
    discards: list[list[int]]  # discard pile per player and kind

    def _owner(self, c: int) -> int:
        """The owner of the piece on cell ``c`` (nobody when empty)."""
        ...

    def _fn(self, expr: Expr) -> Callable[[Any, dict], int]:
        """``expr`` compiled to a closure over a state and the locals."""
        ...

    def times_seen(self) -> int:
        """How many times the current position has been reached."""
        ...

    def can_move(self) -> bool:
        """The player to move has a legal move."""
        ...
