"""What people see of a state in a terminal: the board as text, zones, the result (JSON:
``state_json``; pictures: ``midgardc.render.svg``)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Optional

from ..ir.colours import seat_colours, terminal_style
from ..ir.present import has_kind_glyphs, piece_glyph, scored_counters
from . import results
from ..ir.values import counter_lines
from .state_json import deck_zones, empty_states

if TYPE_CHECKING:  # pragma: no cover
    from .protocols import StateLike

def render_text(state: "StateLike", color: bool = True, viewer: Optional[int] = None) -> str:
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
    graph_glyphs: list[str] = []
    # stacks: each cell is its glyph and its height (two digits), so cells are 3 wide; and
    # so are cells showing the numbers of a counter array (render.numbers: the seeds)
    heights = state.core.heights if ir.stacks else None
    if ir.render.numbers:
        row = state.core.counters[ir.n_players]
        heights = [row[ir.counters.index(f"{ir.render.numbers}[{name}]")] for name in b.cell_names]
    styles = [terminal_style(c) for c in seat_colours(ir)]  # a player named "red" is drawn red
    for c in range(b.n_cells):
        piece = state.core.board[c]
        owner = ir.piece_owner(piece)
        if owner >= 0:
            g = piece_glyph(ir, piece)
            if heights is not None:
                g += f"{heights[c]:<2}"
            if color:
                g = click.style(g, **styles[owner])
        elif states[c] is not None:
            name, g, _ = ir.render.empty_states[states[c]]
            marked = name in ir.render.marks
            if color:
                g = click.style(g, fg="white" if marked else "bright_black", bold=marked)
        else:
            g = ir.render.empty_glyph
        if heights is not None and owner < 0:
            g = (f"{heights[c]:<3}" if states[c] is None else g + f"{heights[c]:<2}") if ir.render.numbers else g + "  "
        if b.topology == "graph":
            graph_glyphs.append(g.rstrip())
            continue
        row, col = b.coords[c]
        glyph_rows.setdefault(row, {})[2 * col if b.topology == "triangle" else col] = g
    lines = []
    if b.topology == "graph":
        lines += graph_drawing(b, graph_glyphs)
    else:
        row_labels, col_labels = axis_labels(b)
        label_width = max(len(v) for v in row_labels.values())
        spots: dict[int, int] = {}  # a column's place in the printed line
        for row in sorted(glyph_rows):
            cells = glyph_rows[row]
            width = max(cells) + 1
            chars = [" " * (3 if heights is not None else 1)] * width
            for col, g in cells.items():
                chars[col] = g
            if heights is not None:  # stacks: cells side by side, 3 characters each
                chars = [cells[col] for col in sorted(cells)]
                spots.update({col: 3 * i for i, col in enumerate(sorted(cells))})
            lines.append(f"  {row_labels[row].rjust(label_width)}  " + "".join(chars).rstrip())
        if col_labels:
            lines.append(f"  {' ' * label_width}  " + _place(col_labels, spots))
    by_kind = has_kind_glyphs(ir)  # one grid: each piece its own glyph
    if ir.n_kinds > 1 and b.topology != "graph" and not by_kind:
        lines += _kind_grid(state, row_labels, label_width)
    legend = [] if by_kind else [f"{ir.render.piece_glyphs[p]} {name}" for p, name in enumerate(ir.players)]
    legend += [f"{g} {name}{' (token)' if name in ir.render.marks else ''}" for name, g, _ in ir.render.empty_states]
    if any(state.core.board[c] == 0 and states[c] is None for c in range(b.n_cells)):
        legend.append(f"{ir.render.empty_glyph} empty")
    lines.append("")
    if by_kind:  # a line per player: each kind's glyph
        lines += [f"  {name}: " + "   ".join(f"{piece_glyph(ir, 1 + p * ir.n_kinds + k)} {kind}" for k, kind in enumerate(ir.kinds)) for p, name in enumerate(ir.players)]
    if legend:
        lines.append("  " + "   ".join(legend))
    if ir.n_kinds > 1 and b.topology != "graph" and not by_kind:
        letters = kind_letters(ir)
        lines.append("  kinds (second grid): " + "   ".join(f"{letters[k]} {name}" for k, name in enumerate(ir.kinds)))
    scores = state.scores()
    internal = ir.render.present.internal if ir.render.present is not None else ()
    scored = scored_counters(ir)  # (shown with the scores, under the same name)
    shown = [i for i in ir.player_counters if i not in internal and i not in scored]  # (render.internal: never shown)
    hide_hand = ir.render.present is not None and ir.render.present.hide_hand  # (render.hand: false)
    for p, name in enumerate(ir.players):
        # (a kind whose pieces go into a hand as another, its base, is never in one)
        hand = ", ".join(f"{k} {state.core.hands[p][i]}" for i, k in enumerate(ir.kinds) if ir.base_of(i) == i)
        seen = [viewer is None or state.is_terminal() or SEES[key_visibility(ir, j)](viewer, p) for j in range(len(ir.ranking))]
        # a key that means something only at the end (ranking ``final: true``) is left out before it
        shown_keys = [((k, v), ok) for ((k, v), ok, rk) in zip(scores[name].items(), seen, ir.ranking) if state.is_terminal() or not rk.final]
        score = ", ".join(f"{k} {v if ok else '?'}" for (k, v), ok in shown_keys)
        parts = ([] if hide_hand else [f"in hand {hand or '-'}"]) + ([score] if score else [])
        lines.append(f"  {name}: {'; '.join(parts) or '-'}")
        if shown and (ir.counter_types or any("[" in c for c in ir.counters)):  # values of every type, arrays
            lines += ["    " + line for line in counter_lines(ir, shown, lambda i: state.core.counters[p][i], lambda i: viewer is None or counter_seen(ir, i, viewer, p))]
        if ir.deck is not None:
            zones = deck_zones(ir, state.core, p)
            lines.append(f"    face up: {' '.join(zones['up']) or '-'}; discarded: {' '.join(zones['discard']) or '-'}; deck: {len(zones['deck'])} left")
    public = [i for i in ir.game_counters if i not in internal]  # (render.internal: never shown)
    if public:
        game_lines = counter_lines(ir, public, lambda i: state.core.counters[ir.n_players][i], lambda i: viewer is None or counter_seen(ir, i, viewer, GAME))
        lines += ["  game: " + line for line in game_lines]
    lines += seen_zone_lines(state, viewer)
    if state.is_terminal():
        from .ending import ending, ranks_line

        end = ending(state)
        assert end is not None
        lines.append("  game over: " + end["text"])
        lines.append("  ranks: " + ranks_line(end))
    else:
        if ir.chance is not None and state.roll():
            last = "last " if state.is_chance_node() else ""  # (a new roll is due)
            lines.append(f"  {last}{ir.chance.name}: {'-'.join(state.roll())}")
        due = f" ({ir.chance.name} due)" if state.is_chance_node() else ""
        lines.append(f"  {state.current_player_name()} to move{due} (move {state.ply() + 1})")
    return "\n".join(lines)


def graph_drawing(b, glyphs: list[str]) -> list[str]:
    """A graph board drawn on a grid of characters: each node as ``name glyph`` at its
    ``at:`` place (one text row per height and one text column per distance across, in
    the places' order, each column as wide as its widest label), then each node's
    neighbours."""
    import click

    places = [poly[0] if poly else None for poly in b.polygons]
    texts = [f"{name} {g}" for name, g in zip(b.cell_names, glyphs)]
    widths = [len(click.unstyle(t)) for t in texts]
    lines = []
    if all(p is not None for p in places):
        ys = sorted({round(y, 6) for _, y in places})
        row_of = {y: i for i, y in enumerate(ys)}
        rows: dict[int, list[int]] = {}
        for c, (_, y) in enumerate(places):
            rows.setdefault(row_of[round(y, 6)], []).append(c)
        xs = sorted({round(x, 6) for x, _ in places})
        col_of = {x: i for i, x in enumerate(xs)}
        col_width = [0] * len(xs)
        for c, (x, _) in enumerate(places):
            col_width[col_of[round(x, 6)]] = max(col_width[col_of[round(x, 6)]], widths[c])
        starts = [sum(w + 2 for w in col_width[:k]) for k in range(len(xs))]
        for r in range(len(ys)):
            line, used = "", 0
            for c in sorted(rows[r], key=lambda c: places[c][0]):
                at = starts[col_of[round(places[c][0], 6)]]
                line += " " * (at - used) + texts[c]
                used = at + widths[c]
            lines.append("  " + line)
    else:
        lines += [f"  {t}" for t in texts]
    if not any(b.neighbours):  # a graph linking nothing (a table, a sowing's places): no lists of no neighbours
        return lines
    lines.append("")
    width = max(len(n) for n in b.cell_names)
    for c, name in enumerate(b.cell_names):
        lines.append(f"  {name.ljust(width)} - " + ", ".join(b.cell_names[n] for n in b.neighbours[c]))
    return lines


def _parts(name: str) -> list[str]:
    """A cell name's runs of letters and of digits ("a10" -> a, 10; "3.2" -> 3, 2)."""
    return re.findall(r"[A-Za-z]+|[0-9]+", name)


def axis_labels(b) -> tuple[dict[int, str], list[tuple[int, str]]]:
    """Row labels (terminal row -> text) and column labels ((terminal column, text) under the
    bottom row) of a drawn board, as its cell names write them: a name splits into a row part
    (its first or its last run of letters or digits, whichever stays the same along a row)
    and a column part (the rest), so ``a3 b3 c3`` is rank 3 with files a b c and ``1.4 2.4``
    is row 4 with columns 1 2. A triangle labels each row by the part most of its cells
    share (affixed cells aside) and prints no columns. Names that do not split that way
    are labelled by numbers from 1."""
    rows: dict[int, list[int]] = {}
    for c, (row, col) in enumerate(b.coords):
        rows.setdefault(row, []).append(c)
    order = sorted(rows)
    numbers = {row: str(i + 1) for i, row in enumerate(order)}
    parts = [_parts(n) for n in b.cell_names]
    best = None
    for pos in (-1, 0):  # the row part last ("{file}{rank}") or first ("{row}.{index}")
        labels, hits = {}, 0
        for row, cs in rows.items():
            values = [parts[c][pos] if len(parts[c]) >= 2 else None for c in cs]
            top = max(set(values), key=lambda v: (values.count(v), v is not None, str(v)))
            count = values.count(top)
            if top is None or (count * 2 <= len(cs) and len(cs) > 1):
                labels = None
                break
            labels[row] = top
            hits += count
        if labels is not None and len(set(labels.values())) == len(labels) and (best is None or hits > best[2]):
            best = (pos, labels, hits)
    triangle = b.topology == "triangle"
    if best is None or (not triangle and best[2] < len(b.cell_names)):
        row_labels = numbers
        pos = None
    else:
        pos, row_labels, _ = best
    if triangle:
        return row_labels, []
    bottom = sorted(rows[order[-1]], key=lambda c: b.coords[c][1])
    if pos is None:
        return row_labels, [(b.coords[c][1], str(i + 1)) for i, c in enumerate(bottom)]
    return row_labels, [(b.coords[c][1], "".join(parts[c][:-1] if pos == -1 else parts[c][1:])) for c in bottom]


def _place(labels: list[tuple[int, str]], spots: dict[int, int]) -> str:
    """Column labels at their columns' places (a label that would run into the one before it
    is left out)."""
    line = ""
    for col, text in labels:
        at = spots.get(col, col)
        if line and at <= len(line):
            continue
        line = line.ljust(at) + text
    return line


def kind_letters(ir) -> list[str]:
    """One character per kind of piece: its initial in upper case, or its index when two
    kinds share an initial."""
    initials = [k[0].upper() for k in ir.kinds]
    if len(set(initials)) == len(initials):
        return initials
    return [str(i % 10) for i in range(len(ir.kinds))]


def _kind_grid(state: "StateLike", row_labels: dict, label_width: int) -> list[str]:
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
        out.append(f"  {row_labels[row].rjust(label_width)}  " + "".join(chars).rstrip())
    return out


def zone_lines(state: "StateLike") -> list[str]:
    """One line per zone and owner: every item as written in moves (a pile top first, a
    set kind by kind), with who may see it — the whole truth, as ``show`` prints it."""
    return seen_zone_lines(state, None)


def seen_zone_lines(state: "StateLike", viewer: Optional[int]) -> list[str]:
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


def result_text(state) -> str:
    """A finished game's result for people: "red wins", "red and blue share first place",
    "draw", "stopped at the ply limit (no result)"."""
    ir = state.game.ir
    ranks = state.ranks()
    outcome = results.game_outcome(ranks)
    names = [ir.players[p] for p in results.leaders(ranks)]
    if outcome == results.WIN:
        return f"{names[0]} wins"
    if outcome == results.SHARED:
        return ", ".join(names[:-1]) + " and " + names[-1] + " share first place"
    if outcome == results.STOPPED:
        return "stopped at the ply limit (no result)"
    return "draw"
