"""What the server sends one seat: built from that seat's observation only.

Everything a page receives about the position comes from ``observation(state, seat)`` (which
hides other seats' hidden items, every deck's order and unseen counters) and from
``render_svg(state, viewer=seat)`` (which draws only what that seat observes). The seed is
never sent: with it, a page could deal the shuffles again. The seat's legal moves are sent
only when it is to move, each with the cells its text names, in order (a compound move's,
``c3xe5xc7``, every step's): the page builds a move on the board by clicking those cells
one after the other; a move naming no cell (a card, a pass, a choice) is a button.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ..matches.results import result_words
from ..render.svg import player_fills, render_svg, status_text
from ..runtime.observe import observation

if TYPE_CHECKING:  # pragma: no cover
    from ..runtime.game import Game, State
    from .session import Session


def move_cells(game: "Game", move: int, state: Optional["State"] = None) -> list[str]:
    """The cells a move's text names, in the order it writes them ([] for a roll). A
    compound move (``continue:``, a multi-jump ``c3xe5xc7``) names the cells of every
    step, as its text writes them: it needs ``state``, where it is legal (its steps are
    found there); without it, only its first step's."""
    action, values = game.decode_move(move)
    if action is None:
        return []
    names = game.ir.board.cell_names
    if action.chain is not None and state is not None:
        cells = []
        for i, env in enumerate(state.core.compound_path(move)):
            notation = action.notation if i == 0 else action.chain.notation
            cells += [names[env[action.params[part].name]] for part in notation if isinstance(part, int) and action.params[part].type == "cell"]
        return cells
    return [names[values[part]] for part in action.notation if isinstance(part, int) and action.params[part].type == "cell"]


def seat_payload(session: "Session", seat: int) -> dict:
    """The JSON a page of ``seat`` gets: its observation, its drawing, its moves."""
    state = session.state
    game = session.game
    ir = game.ir
    obs = observation(state, seat)
    obs.pop("legal", None)  # sent below, with the cells of each move
    to_move = state.current_player() == seat and not state.is_terminal()
    legal = [{"text": m.text, "cells": move_cells(game, m.id, state)} for m in state.legal_moves()] if to_move else []
    movers = list(state.movers)
    history = []
    for i, text in enumerate(obs["moves"]):
        who = movers[i] if i < len(movers) else -1
        history.append({"player": ir.players[who] if 0 <= who < ir.n_players else None, "move": text})
    return {
        "title": ir.title,
        "variant": game.variant,
        "seat": seat,
        "seat_name": ir.players[seat],
        "players": [{"name": name, "label": session.labels[p], "human": p in session.tokens, "colour": fill} for p, (name, fill) in enumerate(zip(ir.players, player_fills(ir)))],
        "step": session.step(),
        "to_move": state.current_player_name() if not state.is_terminal() else None,
        "your_turn": to_move,
        "status": status_text(state),
        "svg": render_svg(state, viewer=seat),
        "observation": obs,
        "counter_labels": counter_labels(ir),
        # render.hand: false (the pieces in hand are the box's spares, or places show them)
        "show_hand": not (ir.render.present is not None and ir.render.present.hide_hand),
        "legal": legal,
        "history": history,
        "result": result_payload(session) if state.is_terminal() else None,
        "engine": game.engine_name,
        "engine_note": session.engine_note(),  # while the compiled engine is being built
    }


def counter_labels(ir) -> dict:
    """The counters a person may be shown, by their name in the observation, with the
    rulebook's name for them (``render.labels``); those ``render.internal`` marks (bookkeeping
    of the rules) are left out, so the page never lists them."""
    present = ir.render.present
    if present is None:
        return {name: name for name in ir.counters}
    return {name: present.label(name) for i, name in enumerate(ir.counters) if i not in present.internal}


def result_payload(session: "Session") -> Optional[dict]:
    """The result in words (a shared first place and a stopped game said as such), the ranks."""
    ir = session.game.ir
    result = session.result()
    names = [f"{ir.players[s]} ({session.labels[s]})" for s in result.leaders]
    ranks = None if result.ranks is None else dict(zip(ir.players, result.ranks))
    return {"outcome": result.outcome, "text": result_words(result.outcome, names), "ranks": ranks, "plies": result.plies}
