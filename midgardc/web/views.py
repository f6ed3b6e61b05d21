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

from ..render.svg import cell_looks, player_fills, render_svg, status_text
from ..runtime import results
from ..runtime.ending import ending, ending_sentence, key_label, tie_break_words
from ..runtime.observe import moves_seen, observation
from .session import MoveRefused

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


def _labels(ir) -> dict[str, str]:
    present = ir.render.present
    return dict(present.labels) if present is not None else {}


def move_choice(game: "Game", move: int, labels: dict[str, str]) -> dict:
    """What a move chooses besides its cells, as the spec names it: its action (``render.labels``
    may name it) and each other parameter as [label, value] (a label given for
    ``action.param``, else for ``param``, else the parameter's own name), in the order the
    move writes them; an item is [label, value, its name] (a card's name, where the spec
    gives one: the page's button says the name and sends the move as written). The page
    groups moves that share their cells by these."""
    action, values = game.decode_move(move)
    if action is None:
        return {"action": "roll", "params": []}
    params = []
    for part in action.notation:
        if isinstance(part, int) and action.params[part].type != "cell":
            p = action.params[part]
            label = labels.get(f"{action.name}.{p.name}") or labels.get(p.name) or p.name
            value = game.param_text(p, values[part])
            shown = _item_name(game.ir, values[part]) if p.type == "item" else value
            params.append([label, value] + ([shown] if shown != value else []))
    return {"action": labels.get(action.name) or action.name.replace("_", " "), "params": params}


def _item_name(ir, item: int) -> str:
    """An item as the pictures name it (``render.labels`` by its name or text)."""
    present = ir.render.present
    text = ir.item_texts[item]
    return present.item_label(ir.item_names[item], text) if present is not None else text


def _piece_owners(ir, looks: list[int]) -> list[int]:
    """Per cell, the owner of the piece on it (-1: none)."""
    from ..render.svg.board import look_piece

    return [ir.piece_owner(look_piece(ir, code)[0]) if code > 0 else -1 for code in looks]


def last_move(session: "Session", viewer: int, state: Optional["State"] = None) -> Optional[dict]:
    """What happened last, as ``viewer`` (a seat, or -1: a spectator) may see it: the last
    move that was not a roll (its index, who made it, its text as the viewer sees it, and the
    cells it names when the viewer sees all of it), and the cells whose pieces it removed
    (found by comparing the public board before it and now: a cell whose piece is gone or
    belongs to another player now, for a player who has fewer pieces on the board than
    before; the cell a piece moved away from is not one)."""
    state = state if state is not None else session.state
    game = state.game
    ir = game.ir
    index = next((i for i in range(len(state.history) - 1, -1, -1) if game.decode_move(state.history[i])[0] is not None), None)
    if index is None:
        return None
    seen = moves_seen(state, viewer)[index]
    mover = state.movers[index]
    last = {"index": index, "player": ir.players[mover] if 0 <= mover < ir.n_players else None, "move": seen, "cells": [], "removed": []}
    try:
        before = session.position(index)  # (``state``'s history is the start of the session's)
    except MoveRefused:  # (a position set from outside: what it was before is unknown, so
        return last  # the move is said without its cells)
    names = ir.board.cell_names
    cells = move_cells(game, state.history[index], before) if seen == state.texts[index] else []
    was, now = cell_looks(before), cell_looks(state)
    owner_was, owner_now = _piece_owners(ir, was), _piece_owners(ir, now)
    fewer = {p for p in range(ir.n_players) if owner_now.count(p) < owner_was.count(p)}
    fills = player_fills(ir)
    removed = []
    for c, (a, b) in enumerate(zip(owner_was, owner_now)):
        if a in fewer and b != a and not (b == -1 and names[c] in cells[:1]):
            removed.append({"cell": names[c], "colour": fills[a]})
    return {**last, "cells": cells, "removed": removed}


SPECTATOR = -1  # the viewer of the spectator's page: sees what is public


def seat_payload(session: "Session", seat: int) -> dict:
    """The JSON a page of ``seat`` gets: its observation, its drawing, its moves (``seat``
    -1: the spectator's page, which is sent what is public and never any moves)."""
    state = session.state
    game = session.game
    ir = game.ir
    obs = observation(state, seat)
    obs.pop("legal", None)  # sent below, with the cells of each move
    reveal_at_end(state, obs)
    to_move = seat >= 0 and state.current_player() == seat and not state.is_terminal()
    labels = _labels(ir)
    legal = [{"text": m.text, "cells": move_cells(game, m.id, state), **move_choice(game, m.id, labels)} for m in state.legal_moves()] if to_move else []
    movers = list(state.movers)
    history = []
    for i, text in enumerate(obs["moves"]):
        who = movers[i] if i < len(movers) else -1
        history.append({"player": ir.players[who] if 0 <= who < ir.n_players else None, "move": text})
    return {
        "title": ir.title,
        "variant": game.variant,
        "seat": seat,
        "seat_name": ir.players[seat] if seat >= 0 else None,
        "players": [{"name": name, "label": session.labels[p], "human": p in session.tokens, "colour": fill} for p, (name, fill) in enumerate(zip(ir.players, player_fills(ir)))],
        "step": session.step(),
        "to_move": state.current_player_name() if not state.is_terminal() else None,
        "your_turn": to_move,
        "status": status_text(state),
        "svg": render_svg(state, viewer=seat if seat >= 0 else None),
        "observation": obs,
        "counter_labels": counter_labels(ir),
        "score_labels": {k.name: key_label(ir, k.name) for k in ir.ranking},  # the rulebook's names of the keys
        "names": zone_names(ir, obs),
        # render.hand: false (the pieces in hand are the box's spares, or places show them)
        "show_hand": not (ir.render.present is not None and ir.render.present.hide_hand),
        "legal": legal,
        "history": history,
        "result": result_payload(session) if state.is_terminal() else None,
        "engine": game.engine_name,
        "engine_note": session.engine_note(),  # while the compiled engine is being built
        "thinking": _thinking(session),
        "bot_error": session.bot_error,
        "last": last_move(session, seat),
        "flip": seat >= 0 and starts_at_top(session, seat),
        "can_take_back": any(d[0] < session.step() for d in session.decided.get(seat, [])) and not state.is_terminal(),
    }


def starts_at_top(session: "Session", seat: int) -> bool:
    """Whether ``seat``'s pieces stand in the top half of the drawing at the start: its page
    then turns the board round, so that each player sees their own side at the bottom."""
    from ..render.svg.board import board_shapes

    ir = session.game.ir
    shapes, _, height = board_shapes(ir)
    try:
        start = session.position(0)
    except MoveRefused:
        return False
    ys = [shapes[c].centre[1] for c, owner in enumerate(_piece_owners(ir, cell_looks(start))) if owner == seat]
    return bool(ys) and sum(ys) / len(ys) < height / 2


def _thinking(session: "Session") -> Optional[str]:
    """Who is choosing a move on the server now, in words ("grey (mcts)"), else None."""
    bot = session.thinking()
    return None if bot is None else f"{session.game.ir.players[bot]} ({session.labels[bot]})"


def review_payload(session: "Session", seat: int, moves: int) -> dict:
    """An earlier position (after ``moves`` moves) as ``seat`` saw it then: its drawing and
    what happened last then; read-only (no moves)."""
    state = session.position(moves)
    return {"at": moves, "step": session.step(), "svg": render_svg(state, viewer=seat if seat >= 0 else None), "status": status_text(state), "last": last_move(session, seat, state)}


def reveal_at_end(state, obs: dict) -> None:
    """Once the game is over, the counters ``render.revealed_at_end`` names, filled into the
    page's copy of the observation from the whole state (the picture shows them too)."""
    from ..render.svg.seen import revealed
    from ..runtime.state_json import state_json

    ir = state.game.ir
    if not state.is_terminal() or ir.render.present is None or not ir.render.present.revealed_at_end:
        return
    whole = state_json(state)
    for i in ir.render.present.revealed_at_end:
        if not revealed(state, i):
            continue
        name = ir.counters[i]
        if i in ir.game_counters:
            obs["counters"][name] = whole["counters"][name]
            continue
        for entry, full in zip(obs["players"], whole["players"]):
            entry["counters"][name] = full["counters"][name]


def counter_labels(ir) -> dict:
    """The counters a person may be shown, by their name in the observation, with the
    rulebook's name for them (``render.labels``); those ``render.internal`` marks (bookkeeping
    of the rules) are left out, so the page never lists them."""
    present = ir.render.present
    if present is None:
        return {name: name for name in ir.counters}
    return {name: present.label(name) for i, name in enumerate(ir.counters) if i not in present.internal}


def zone_names(ir, obs: dict) -> dict:
    """The names the pictures use for the kinds of piece and the zones and items in
    ``obs`` (an item by its text; all through ``render.labels``), by their names in the
    spec, where they differ: the page lists pieces, cards and tokens as the picture does."""
    present = ir.render.present
    if present is None:
        return {}
    names = set(obs.get("zones", {})) | set(ir.kinds)  # (the pieces in hand too)
    for owners in obs.get("zones", {}).values():
        for zone in owners.values():
            names.update(zone.get("items") or ())
    for player in obs.get("players", []):
        for z, zone in (player.get("zones") or {}).items():
            names.add(z)
            names.update(zone.get("items") or ())
    named = dict(zip(ir.item_texts, ir.item_names))  # an item is written by its text (a card's face)
    shown = {n: present.item_label(named[n], n) if n in named else present.label(n) for n in sorted(names) if isinstance(n, str)}
    return {n: v for n, v in shown.items() if v != n}


def result_payload(session: "Session") -> Optional[dict]:
    """How the finished game ended, for the page's banner (``runtime.ending``, with each
    seat's name and who played it): ``text``, the sentence ("x (human) wins by three in a
    row in 5 moves; ..."), ``headline`` (it without the tie-break), ``outcome``, ``reason``
    (the spec's ``end.reasons`` name), ``seats`` in rank order (``player``, ``label``,
    ``colour``, ``rank`` shared by tied leaders, ``score`` by the keys' shown names),
    ``ranked_by`` (the ranking keys' shown names, in order), ``tie_break`` (the key that
    decided first place and its sentence, or None), ``plies`` and ``moves`` (as the
    rulebook counts them); ``ranks`` by player, as before. Only at the end, when every key
    is the result and public."""
    state = session.state
    ir = session.game.ir
    names = [f"{name} ({session.labels[s]})" for s, name in enumerate(ir.players)]
    end = ending(state, names)
    if end is None:
        return None
    leaders = [names[s] for s in results.leaders(state.ranks())]
    fills = player_fills(ir)
    seats = [dict(seat, label=session.labels[s], colour=fills[s], seat=s) for s, seat in enumerate(end["seats"])]
    seats.sort(key=lambda x: (x["rank"] is None, x["rank"] or 0, x["seat"]))
    tb = end["tie_break"]
    if tb is not None:
        tb = dict(tb, text=tie_break_words(tb))
    ranks = None if state.ranks() is None else dict(zip(ir.players, state.ranks()))
    return {
        "outcome": end["outcome"],
        "text": end["text"],
        "headline": ending_sentence(dict(end, tie_break=None), leaders),
        "reason": end["reason"],
        "seats": seats,
        "ranked_by": [key_label(ir, k.name) for k in ir.ranking],
        "tie_break": tb,
        "ranks": ranks,
        "plies": end["plies"],
        "moves": end["moves"],
    }
