"""A state as JSON (the engine API's ``to_json`` and the base of every observation).

Display states of empty cells (the spec's ``render.empty`` conditions) are evaluated by
the reference interpreter on a mirror of the state, so both back ends show the same thing
and the compiled engine needs no display code. Below ``observe`` (which hides from it what
a viewer may not see) and ``view`` (which draws it as text).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Optional

from ..ir.nodes import GameIR
from ..ir.values import counter_text
from . import results

if TYPE_CHECKING:  # pragma: no cover
    from .protocols import StateLike


@lru_cache(maxsize=32)
def _program(ir: GameIR):
    from .interpreter import Program

    return Program(ir)


def mirror(state: "StateLike"):
    """An interpreter core holding the same position as ``state`` (any back end)."""
    from .interpreter import Core

    core = state.core
    if core.__class__ is Core:
        return core
    prog = _program(state.game.ir)
    m = Core.__new__(Core)
    m.prog = prog
    m.board = list(core.board)
    m.hands = [list(h) for h in core.hands]
    m.counters = [list(c) for c in core.counters]
    m.current, m.last, m.ply = core.current, core.last, core.ply
    m.terminal, m.passes, m.ply_limited = bool(core.terminal), core.passes, bool(core.ply_limited)
    m.roll, m.chance = list(core.roll), bool(core.chance)
    m.heights = list(core.heights)
    m.deck, m.drawn = [tuple(d) for d in core.deck], list(core.drawn)
    m.up, m.discards = [list(u) for u in core.up], [list(d) for d in core.discards]
    return m


def empty_states(state: "StateLike") -> list[Optional[int]]:
    """Per cell: index into ``render.empty_states`` of the first state that holds (or None)."""
    ir = state.game.ir
    core = mirror(state)
    prog = core.prog
    out: list[Optional[int]] = []
    fns = [prog.fn(cond) for _, _, cond in ir.render.empty_states]
    var = "$cell"
    for c in range(ir.board.n_cells):
        found = None
        if core.board[c] == 0:
            for i, fn in enumerate(fns):
                if fn(core, {var: c}):
                    found = i
                    break
        out.append(found)
    return out


def state_json(state: "StateLike") -> dict:
    ir = state.game.ir
    core = state.core
    board_raw = core.board
    board = {}
    heights = core.heights if ir.stacks else None
    for c, name in enumerate(ir.board.cell_names):
        owner = ir.piece_owner(board_raw[c])
        board[name] = None if owner < 0 else ir.players[owner]
        if heights is not None and owner >= 0:  # a stack: its owner and how tall it is
            board[name] = {"owner": ir.players[owner], "height": heights[c]}
    marks: dict[str, list[str]] = {}
    if ir.render.marks:
        states = empty_states(state)
        names = [s[0] for s in ir.render.empty_states]
        for mark in ir.render.marks:
            i = names.index(mark)
            marks[mark] = [ir.board.cell_names[c] for c, s in enumerate(states) if s == i]
    keys = core.keys()
    rank_names = [k.name for k in ir.ranking]
    players = []
    for p, name in enumerate(ir.players):
        players.append(
            {
                "name": name,
                "hand": {k: core.hands[p][i] for i, k in enumerate(ir.kinds)},
                "counters": {ir.counters[i]: counter_text(ir, i, core.counters[p][i]) for i in ir.player_counters},
                "score": dict(zip(rank_names, keys[p])),
            }
        )
        if ir.deck is not None:  # every zone is public in this version
            players[-1]["zones"] = deck_zones(ir, core, p)
    winner: Optional[str] = None
    ranks = None
    if core.terminal:  # a player's name (first alone), "shared", "draw" or "stopped"
        ranks = results.ranks_of(ir, keys, bool(core.ply_limited))
        w = results.sole_winner(ranks)
        winner = results.game_outcome(ranks) if w is None else ir.players[w]
    out = {
        "game": ir.name,
        "variant": ir.variant,
        "board": board,
        "players": players,
        "current": None if core.current < 0 else ir.players[core.current],
        "terminal": bool(core.terminal),
        "winner": winner,
        "ply": core.ply,
        "moves": list(state.texts),
    }
    if ir.game_counters:
        out["counters"] = {ir.counters[i]: counter_text(ir, i, core.counters[ir.n_players][i]) for i in ir.game_counters}
    if marks:
        out["marks"] = marks
    if ir.zones is not None and ir.zones.zones:  # every zone's content (see State.zones)
        out["zones"] = state.zones()
    if ir.n_kinds > 1:  # whose piece is in "board"; which kind it is, here
        out["kinds"] = {name: ir.kinds[ir.piece_kind(board_raw[c])] for c, name in enumerate(ir.board.cell_names) if board_raw[c] > 0}
    if ir.chance is not None:
        out["roll"] = state.roll()  # the current roll's faces, as written in moves
        out["chance"] = bool(core.chance)  # a roll is due: the next move is its outcome
    if core.terminal:  # rank per seat (1 = first; tied seats share one), null when stopped
        out["ranks"] = None if ranks is None else dict(zip(ir.players, ranks))
        out["winners"] = [ir.players[p] for p in results.leaders(ranks)]
    if core.ply_limited:
        out["ply_limited"] = True
    return out


def deck_zones(ir: GameIR, core, p: int) -> dict:
    """A player's items as written in moves: the deck top first, then the face-up items
    and the discard pile in item order."""
    texts = ir.deck.texts

    def spread(counts: list[int]) -> list[str]:
        return [texts[k] for k, n in enumerate(counts) for _ in range(n)]

    return {
        "deck": [texts[k] for k in core.deck[p][core.drawn[p]:]],
        "up": spread(core.up[p]),
        "discard": spread(core.discards[p]),
    }
