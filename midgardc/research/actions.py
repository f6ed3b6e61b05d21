"""The action ids learning tools see: a spec's declared ``action_space``
(midgardc/spec/action_space.py), else the engine's move ids.

``action_map(game)`` is the declared map as a table per seat (None without a declaration),
computed once per game; the OpenSpiel adapter, PettingZoo, Gymnasium and ``Batch`` turn a
position's legal moves into action ids with ``ids`` and an action back into its move with
``move``. A legal move without an id, or two legal moves with one id, is an error that
names the moves: the declaration does not number this game's moves one to one.
"""

from __future__ import annotations

from typing import Iterable, Optional

import numpy as np

from midgardc.runtime.game import Game, _decode
from midgardc.spec.action_space import action_table


class ActionMap:
    """``size`` action ids; ``table[seat, move id]`` -> action id or -1 (int32)."""

    def __init__(self, game: Game):
        ir = game.ir
        self.game = game
        self.size = ir.action_space.size
        self.table = np.asarray(action_table(ir, lambda action, offset: _decode(ir, action, offset)), dtype=np.int32)

    def ids(self, seat: int, moves: Iterable[int]) -> dict[int, int]:
        """The legal ``moves`` of ``seat`` as {action id: move id}."""
        row = self.table[seat]
        out: dict[int, int] = {}
        for m in moves:
            a = int(row[m])
            if a < 0 or a in out:
                what = "has no action id" if a < 0 else f"has action id {a}, as {self.game.move_text(out[a])} has"
                raise ValueError(f"{self.game.ir.title}: legal move {self.game.move_text(m)} {what} (action_space numbers this game's moves ambiguously)")
            out[a] = m
        return out



def action_map(game: Game) -> Optional[ActionMap]:
    """The spec's declared action map, or None (the move ids are the actions)."""
    if game.ir.action_space is None:
        return None
    found = getattr(game, "_action_map", None)
    if found is None:
        found = ActionMap(game)
        game._action_map = found
    return found





def n_actions(game: Game) -> int:
    """How many action ids the learning tools give the players' moves."""
    amap = action_map(game)
    return amap.size if amap is not None else game.ir.n_action_moves


def legal_actions(game: Game, state) -> dict[int, int]:
    """The player to move's legal moves as {action id: move id} (the identity without a
    declared action space)."""
    moves = state.legal_move_ids()
    amap = action_map(game)
    if amap is None:
        return {m: m for m in moves}
    return amap.ids(state.current_player(), moves)
__all__ = ["ActionMap", "action_map", "n_actions", "legal_actions"]
