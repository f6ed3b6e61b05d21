"""What people see of a state: JSON, a terminal drawing, an SVG picture.

Display states of empty cells (the spec's ``render.empty`` conditions) are evaluated by
the reference interpreter on a mirror of the state, so both back ends show the same thing
and the compiled engine needs no display code.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Optional

from ..ir.nodes import GameIR
from . import results

if TYPE_CHECKING:  # pragma: no cover
    from .game import State

PLAYER_COLOURS = ["blue", "green", "red", "yellow", "magenta", "cyan", "white", "bright_black"]


@lru_cache(maxsize=32)
def _program(ir: GameIR):
    from .interpreter import Program

    return Program(ir)


def mirror(state: "State"):
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


def empty_states(state: "State") -> list[Optional[int]]:
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


def state_json(state: "State") -> dict:
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
                "counters": {ir.counters[i]: core.counters[p][i] for i in ir.player_counters},
                "score": dict(zip(rank_names, keys[p])),
            }
        )
        if ir.deck is not None:  # every zone is public in this version
            players[-1]["zones"] = deck_zones(ir, core, p)
    winner: Optional[str] = None
    if core.terminal:
        w = results.winner_of(ir, keys, bool(core.ply_limited))
        winner = "draw" if w is None else ir.players[w]
    out = {
        "game": ir.name,
        "variant": ir.variant,
        "board": board,
        "players": players,
        "current": None if core.current < 0 else ir.players[core.current],
        "terminal": bool(core.terminal),
        "winner": winner,
        "ply": core.ply,
        "moves": [state.game.move_text(m) for m in state.history],
    }
    if ir.game_counters:
        out["counters"] = {ir.counters[i]: core.counters[ir.n_players][i] for i in ir.game_counters}
    if marks:
        out["marks"] = marks
    if ir.zones is not None and ir.zones.zones:  # every zone's content (see State.zones)
        out["zones"] = state.zones()
    if ir.n_kinds > 1:  # whose piece is in "board"; which kind it is, here
        out["kinds"] = {name: ir.kinds[ir.piece_kind(board_raw[c])] for c, name in enumerate(ir.board.cell_names) if board_raw[c] > 0}
    if ir.chance is not None:
        out["roll"] = state.roll()  # the current roll's faces, as written in moves
        out["chance"] = bool(core.chance)  # a roll is due: the next move is its outcome
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


def render_text(state: "State", color: bool = True, viewer: Optional[int] = None) -> str:
    """The board as text: one glyph per cell at its place, then a legend and the hands.
    With ``viewer`` (a seat, or -1 for a spectator who sees only what is public), only
    what that seat's observation shows: hidden items, counters and scores are written
    ``?`` or as a count."""
    import click

    from .observe import GAME, SEES, counter_seen, key_visibility

    ir = state.game.ir
    b = ir.board
    states = empty_states(state)
    glyph_rows: dict[int, dict[int, str]] = {}
    # stacks: each cell is its glyph and its height (two digits), so cells are 3 wide
    heights = state.core.heights if ir.stacks else None
    for c in range(b.n_cells):
        piece = state.core.board[c]
        owner = ir.piece_owner(piece)
        if owner >= 0:
            g = ir.render.piece_glyphs[owner]
            if heights is not None:
                g += f"{heights[c]:<2}"
            if color:
                g = click.style(g, fg=PLAYER_COLOURS[owner % len(PLAYER_COLOURS)], bold=True)
        elif states[c] is not None:
            name, g, _ = ir.render.empty_states[states[c]]
            marked = name in ir.render.marks
            if color:
                g = click.style(g, fg="white" if marked else "bright_black", bold=marked)
        else:
            g = ir.render.empty_glyph
        if heights is not None and owner < 0:
            g += "  "
        if b.topology == "graph":
            continue
        row, col = b.coords[c]
        glyph_rows.setdefault(row, {})[2 * col if b.topology == "triangle" else col] = g
    lines = []
    if b.topology == "graph":
        for c, name in enumerate(b.cell_names):
            owner = ir.piece_owner(state.core.board[c])
            who = ir.players[owner] if owner >= 0 else "-"
            if heights is not None and owner >= 0:
                who += f" x{heights[c]}"
            nbrs = ", ".join(b.cell_names[n] for n in b.neighbours[c])
            lines.append(f"  {name:<14} {who:<10} -> {nbrs}")
    else:
        # each row is labelled with the name of its leftmost cell, so cells can be found
        first_in_row: dict[int, int] = {}
        for c, (row, col) in enumerate(b.coords):
            if row not in first_in_row or col < b.coords[first_in_row[row]][1]:
                first_in_row[row] = c
        label_width = max(len(b.cell_names[c]) for c in first_in_row.values())
        for row in sorted(glyph_rows):
            cells = glyph_rows[row]
            width = max(cells) + 1
            chars = [" " * (3 if heights is not None else 1)] * width
            for col, g in cells.items():
                chars[col] = g
            if heights is not None:  # stacks: cells side by side, 3 characters each
                chars = [cells[col] for col in sorted(cells)]
            label = b.cell_names[first_in_row[row]].rjust(label_width)
            lines.append(f"  {label}  " + "".join(chars).rstrip())
    if ir.n_kinds > 1 and b.topology != "graph":
        lines += _kind_grid(state, first_in_row, label_width)
    legend = [f"{ir.render.piece_glyphs[p]} {name}" for p, name in enumerate(ir.players)]
    legend += [f"{g} {name}{' (token)' if name in ir.render.marks else ''}" for name, g, _ in ir.render.empty_states]
    if any(state.core.board[c] == 0 and states[c] is None for c in range(b.n_cells)):
        legend.append(f"{ir.render.empty_glyph} empty")
    lines.append("")
    lines.append("  " + "   ".join(legend))
    if ir.n_kinds > 1 and b.topology != "graph":
        letters = kind_letters(ir)
        lines.append("  kinds (second grid): " + "   ".join(f"{letters[k]} {name}" for k, name in enumerate(ir.kinds)))
    scores = state.scores()
    for p, name in enumerate(ir.players):
        hand = ", ".join(f"{k} {state.core.hands[p][i]}" for i, k in enumerate(ir.kinds))
        seen = [viewer is None or state.is_terminal() or SEES[key_visibility(ir, j)](viewer, p) for j in range(len(ir.ranking))]
        score = ", ".join(f"{k} {v if ok else '?'}" for (k, v), ok in zip(scores[name].items(), seen))
        lines.append(f"  {name}: in hand {hand or '-'}; {score}")
        if ir.deck is not None:
            zones = deck_zones(ir, state.core, p)
            lines.append(f"    face up: {' '.join(zones['up']) or '-'}; discarded: {' '.join(zones['discard']) or '-'}; deck: {len(zones['deck'])} left")
    if ir.game_counters:
        shown = [(i, viewer is None or counter_seen(ir, i, viewer, GAME)) for i in ir.game_counters]
        lines.append("  game: " + ", ".join(f"{ir.counters[i]} {state.core.counters[ir.n_players][i] if ok else '?'}" for i, ok in shown))
    lines += seen_zone_lines(state, viewer)
    if state.is_terminal():
        w = state.winner()
        limited = " (stopped at the ply limit)" if state.core.ply_limited else ""
        lines.append(f"  game over after {state.ply()} moves: " + ("draw" if w is None else f"{ir.players[w]} wins") + limited)
    else:
        if ir.chance is not None and state.roll():
            last = "last " if state.is_chance_node() else ""  # (a new roll is due)
            lines.append(f"  {last}{ir.chance.name}: {'-'.join(state.roll())}")
        due = f" ({ir.chance.name} due)" if state.is_chance_node() else ""
        lines.append(f"  {state.current_player_name()} to move{due} (move {state.ply() + 1})")
    return "\n".join(lines)


def kind_letters(ir) -> list[str]:
    """One character per kind of piece: its initial in upper case, or its index when two
    kinds share an initial."""
    initials = [k[0].upper() for k in ir.kinds]
    if len(set(initials)) == len(initials):
        return initials
    return [str(i % 10) for i in range(len(ir.kinds))]


def _kind_grid(state: "State", first_in_row: dict, label_width: int) -> list[str]:
    """With several kinds of piece, the board a second time showing each piece's kind
    (the first grid shows whose it is)."""
    ir = state.game.ir
    b = ir.board
    letters = kind_letters(ir)
    rows: dict[int, dict[int, str]] = {}
    for c in range(b.n_cells):
        piece = state.core.board[c]
        row, col = b.coords[c]
        rows.setdefault(row, {})[2 * col if b.topology == "triangle" else col] = letters[ir.piece_kind(piece)] if piece > 0 else "."
    out = [""]
    for row in sorted(rows):
        chars = [" "] * (max(rows[row]) + 1)
        for col, g in rows[row].items():
            chars[col] = g
        out.append(f"  {b.cell_names[first_in_row[row]].rjust(label_width)}  " + "".join(chars).rstrip())
    return out


def render_svg(state: "State") -> str:
    """An SVG picture of the board (kept here for callers; the drawing is in midgardc.render)."""
    from ..render.svg import render_svg as draw

    return draw(state)


def zone_lines(state: "State") -> list[str]:
    """One line per zone and owner: every item as written in moves (a pile top first, a
    set kind by kind), with who may see it — the whole truth, as ``show`` prints it."""
    return seen_zone_lines(state, None)


def seen_zone_lines(state: "State", viewer: Optional[int]) -> list[str]:
    """``zone_lines`` as seat ``viewer`` sees them (-1: a spectator; None: the whole truth):
    a place the viewer may not see shows only how many items it holds."""
    from .observe import GAME, SEES

    zs = state.game.ir.zones
    if zs is None or not zs.zones:
        return []
    text = dict(zip(zs.names, zs.texts))
    players = state.game.ir.players
    lines = []
    for z in zs.zones:
        how = f"{z.of} zone, {'ordered, ' if z.ordered else ''}visible: {z.visible}"
        for owner, content in state.zones()[z.name].items():
            items = [text[k] for k in content] if isinstance(content, list) else [text[k] for k, n in content.items() for _ in range(n)]
            whose = "" if owner == "game" else f" of {owner}"
            if viewer is not None and not SEES[z.visible](viewer, GAME if owner == "game" else players.index(owner)):
                lines.append(f"  {z.name}{whose} ({how}): {'hidden' if items else '-'} [{len(items)}]")
                continue
            lines.append(f"  {z.name}{whose} ({how}): {' '.join(items) or '-'} [{len(items)}]")
    return lines
