"""What a player is handed instead of the game state: its view.

A ``PlayerView`` answers only what the player may know: its observation, its legal moves
(when it is to move), how moves are written, the rules (``game``), and samples of full
states consistent with its observation (``determinize``). The state it was made from is
kept out of reach of the view's attributes (in a module table keyed by the view), so a
player, however written, gets no path from the view back to the real position.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Optional, Union

from ..runtime.determinize import determinize, hides_anything, sampling_plan

if TYPE_CHECKING:  # pragma: no cover
    from ..runtime.game import Game, Move, State
    from ..runtime.rng import Rng

# view -> the state it shows; not an attribute of the view (see the module docstring)
_STATES: "weakref.WeakKeyDictionary[PlayerView, State]" = weakref.WeakKeyDictionary()


class PlayerView:
    """Seat ``player``'s view of a state, valid while that state does not change (a match
    makes one per decision)."""

    __slots__ = ("player", "game", "_observation", "_hidden", "__weakref__")

    def __init__(self, state: "State", player: int):
        self.player = player
        self.game: "Game" = state.game  # the rules: IR, engine, notation (no position)
        self._observation: Optional[dict] = None
        self._hidden: Optional[bool] = None
        _STATES[self] = state

    @property
    def observation(self) -> dict:
        """``state.observation(player)``: JSON-able, computed on first use."""
        if self._observation is None:
            self._observation = _STATES[self].observation(self.player)
        return self._observation

    def is_to_move(self) -> bool:
        return _STATES[self].current_player() == self.player

    def legal_moves(self) -> "list[Move]":
        """The player's legal moves ([] when another player or a roll is due)."""
        return _STATES[self].legal_moves() if self.is_to_move() else []

    def legal_move_ids(self) -> list[int]:
        return _STATES[self].legal_move_ids() if self.is_to_move() else []

    def move_text(self, move: int) -> str:
        """How a move legal here is written (a compound move's text needs the position)."""
        return _STATES[self].move_text(move) if self.game.compound else self.game.move_text(move)

    def ply(self) -> int:
        return _STATES[self].ply()

    @property
    def hides_something(self) -> bool:
        """Whether something the player cannot see could be other than it is (then
        ``determinize`` samples it); False: a sample is a copy of the state."""
        if self._hidden is None:
            self._hidden = hides_anything(_STATES[self], self.player)
        return self._hidden

    def determinize(self, rng: "Rng") -> "State":
        """A new full State consistent with the observation (``midgardc.runtime.determinize``);
        when nothing is hidden, a copy of the state, and ``rng`` is not drawn from."""
        return determinize(_STATES[self], self.player, rng)

    def sampling_plan(self) -> tuple:
        """What ``determinize`` deals from, for a search that samples in C (the MCTS player
        with the compiled engine): a core as the player may know the state (hidden counters
        estimated) and the hidden pools (``midgardc.runtime.determinize.sampling_plan``)."""
        return sampling_plan(_STATES[self], self.player)

    def text(self, color: bool = False) -> str:
        """The board and panels as ``midgardc show`` draws them, but only what the player may
        see: places it may not see show how many items they hold, hidden counters and
        scores are written ``?``."""
        from ..runtime.view import render_text

        return render_text(_STATES[self], color=color, viewer=self.player)

    def __repr__(self) -> str:
        return f"PlayerView({self.game.players[self.player]!r} of {self.game.name}, ply {self.ply()})"


def as_view(given: Union["State", PlayerView]) -> PlayerView:
    """A player's argument as a view: a view as it is, a State as the view of the player to
    move (so code and tests that hold a State can still ask a player for a move)."""
    if isinstance(given, PlayerView):
        return given
    return PlayerView(given, given.current_player())
