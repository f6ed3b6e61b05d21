"""The faces of ``Game`` and ``State`` that the modules ``game.py`` calls back into read.

``game.py``'s ``State`` answers ``to_json``, ``observation`` and ``str()`` by calling
``state_json``, ``observe`` and ``view``, which are handed the state. They used to name
``State`` for their annotations, which made them and ``game.py`` one circle of imports.
They name these protocols instead: the fields and queries they read, which ``Game`` and
``State`` have (structural typing: neither names these classes).
"""

from __future__ import annotations

from typing import Any, Optional, Protocol, Union

from ..ir.nodes import GameIR


class GameLike(Protocol):
    """The rules of one game as a state's readers see them (``midgardc.runtime.game.Game``)."""

    ir: GameIR
    compound: bool  # moves whose text needs the position

    def decode_move(self, move: int) -> tuple[Optional[Any], list[int]]:
        """The action of a move id and its parameters' values."""
        ...

    def move_text(self, move: int) -> str:
        """How a move is written."""
        ...

    def param_text(self, param: Any, value: int) -> str:
        """How one parameter's value is written."""
        ...


class StateLike(Protocol):
    """A state of play as its readers see it (``midgardc.runtime.game.State``)."""

    game: GameLike
    core: Any  # the back end's Core (interpreter or compiled)
    history: list[int]  # the move ids played
    texts: list[str]  # how each move of ``history`` is written
    movers: list[int]  # who made each move of ``history``
    paths: dict[int, list[dict]]  # a compound move's steps (their parameters), by its index in ``history``

    def current_player(self) -> int: ...

    def current_player_name(self) -> Optional[str]: ...

    def is_terminal(self) -> bool: ...

    def is_chance_node(self) -> bool: ...

    def legal_moves(self) -> list[Any]: ...

    def ply(self) -> int: ...

    def roll(self) -> list[str]: ...

    def scores(self) -> dict[str, dict[str, int]]: ...

    def ranks(self) -> Optional[tuple[int, ...]]: ...

    def zones(self) -> dict[str, dict[str, Union[list[str], dict[str, int]]]]: ...

    def to_json(self) -> dict: ...
