"""SVG pictures of a position, for every board topology (python-chess's chess/svg.py is the model).

A picture is built with ElementTree (so names from a spec are always escaped) from plain
data: one *look code* per cell and the numbers of the players' track panel. The same data,
ply by ply, drives the step-through replay of the HTML report, so the browser only swaps
class names and texts and never needs to know the rules. Look codes:

* ``0``: an empty cell;
* ``piece id > 0`` (``1 + owner * n_kinds + kind``): a piece, filled by its owner's colour
  and, when the game has several kinds of piece, marked with the kind's letter;
* ``-(i + 1)``: an empty cell in display state ``i`` of the spec's ``render.empty``;
* in a game with stacks, ``piece + n_pieces * (height - 1)``: a stack of that height, marked
  with its height (``n_pieces = n_players * n_kinds``).

Each cell is one element (``polygon``, or ``circle`` on a graph board) with class
``cell`` plus ``empty``, ``p<seat> player-<name>`` or ``s<state> state-<name>``, a ``data-cell`` attribute holding its
name and a ``<title>`` for hovering. Colours live in one table and a ``<style>`` block.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional, Sequence

from ..ir.colours import PALETTE, seat_colours
from ..ir.colours import fill as colour_fill
from ..ir.nodes import GameIR

if TYPE_CHECKING:  # pragma: no cover
    from ..runtime.game import State

SVG_NS = "http://www.w3.org/2000/svg"
# a series of fills for anything drawn per seat or per bot that is not a player of a game
PLAYER_FILLS = [colour_fill(c) for c in PALETTE[:8]]
STATE_FILLS = ["#d0d3d4", "#e8f6fa", "#fdebd0", "#f5eef8"]
EMPTY_FILL = "#ffffff"
SCALE = 40.0  # pixels per board unit (a square's side, a triangle's side, a hexagon's width)
MARGIN = 24.0  # room round the board (wrap-around arrows sit in it)
PANEL_WIDTH = 250.0
GRAPH_SPACING = 70.0  # pixels between the closest two linked graph nodes
NODE_RADIUS = 17.0
BAR_UNIT = 1.5  # pixels per unit of a track's bar
BAR_MAX = 40  # bars stop growing here (the number still shows the value)


# -- what a position looks like, as plain data ----------------------------------------------


def cell_looks(state: "State") -> list[int]:
    """Per cell, its look code (see the module docstring)."""
    from ..runtime.state_json import empty_states

    ir = state.game.ir
    board = state.core.board
    states = empty_states(state) if ir.render.empty_states else [None] * ir.board.n_cells
    out = []
    heights = state.core.heights if ir.stacks else None
    n_pieces = ir.n_players * ir.n_kinds
    for c in range(ir.board.n_cells):
        piece = board[c]
        if piece > 0:
            out.append(int(piece) + (n_pieces * (int(heights[c]) - 1) if heights is not None else 0))
        elif states[c] is not None:
            out.append(-(states[c] + 1))
        else:
            out.append(0)
    return out


def number_counters(ir: GameIR) -> tuple[int, ...]:
    """The per-player counters the track panel draws as bars: those holding numbers (a
    counter holding a cell or a player is a name, shown by the text view and the JSON)."""
    return tuple(i for i in ir.player_counters if not ir.counter_types or ir.counter_types[i] == "int")


def track_labels(ir: GameIR) -> list[tuple[int, str]]:
    """(seat, label) of every number in the track panel, in panel order."""
    out: list[tuple[int, str]] = []
    for p in range(ir.n_players):
        out += [(p, f"{k} in hand") for k in ir.kinds if any(h[ir.kinds.index(k)] for h in ir.hand_init)]
        out += [(p, ir.counters[i]) for i in number_counters(ir)]
        out += [(p, f"score: {k.name}") for k in ir.ranking]
    return out


def track_values(state: "State") -> list[int]:
    """The numbers of the track panel, in the order of ``track_labels``."""
    ir = state.game.ir
    core = state.core
    keys = core.keys()
    shown_kinds = [i for i, k in enumerate(ir.kinds) if any(h[i] for h in ir.hand_init)]
    out: list[int] = []
    for p in range(ir.n_players):
        out += [int(core.hands[p][i]) for i in shown_kinds]
        out += [int(core.counters[p][i]) for i in number_counters(ir)]
        out += [int(v) for v in keys[p]]
    return out


def status_text(state: "State") -> str:
    """Whose turn it is, or how the game ended."""
    ir = state.game.ir
    if state.is_terminal():
        w = state.winner()
        limited = " (ply limit)" if state.core.ply_limited else ""
        return f"game over after {state.ply()} moves: " + ("draw" if w is None else f"{ir.players[w]} wins") + limited
    if state.is_chance_node():
        return f"a roll is due for {state.current_player_name()} (move {state.ply() + 1})"
    roll = state.roll()
    shown = f", roll {'-'.join(roll)}" if roll else ""
    return f"{state.current_player_name()} to move (move {state.ply() + 1}{shown})"


def kind_letters(ir: GameIR) -> list[str]:
    """A short mark per kind of piece, shown only when a game has more than one kind: the
    shortest prefixes of the kind names that tell them apart."""
    if ir.n_kinds < 2:
        return [""] * ir.n_kinds
    for n in range(1, max(len(k) for k in ir.kinds) + 1):
        marks = [k[:n].upper() if n == 1 else k[:n] for k in ir.kinds]
        if len(set(marks)) == len(marks):
            return marks
    return [str(i) for i in range(ir.n_kinds)]


def look_piece(ir: GameIR, code: int) -> tuple[int, int]:
    """(piece id, stack height) of a look code > 0."""
    n_pieces = ir.n_players * ir.n_kinds
    return (code - 1) % n_pieces + 1, (code - 1) // n_pieces + 1


def marks_cells(ir: GameIR, letters: Sequence[str]) -> bool:
    """Whether pieces carry a mark: the kind's letter (several kinds) or the stack height."""
    return (len(letters) > 1 and bool(letters[0])) or bool(ir.stacks)


def look_class(ir: GameIR, code: int) -> str:
    """The CSS class of a look code (the JavaScript of the report mirrors this)."""
    if code > 0:
        owner = ir.piece_owner(look_piece(ir, code)[0])
        return f"cell p{owner} player-{ir.players[owner]}"
    if code < 0:
        return f"cell s{-code - 1} state-{ir.render.empty_states[-code - 1][0]}"
    return "cell empty"


def player_fills(ir: GameIR) -> list[str]:
    """Each seat's fill (``#rrggbb``): a player named after a colour is drawn in it, the
    spec's ``render.colors`` wins, others take the free colours (``midgardc.ir.colours``)."""
    return [colour_fill(c) for c in seat_colours(ir)]


def look_fill(ir: GameIR, code: int) -> str:
    if code > 0:
        return player_fills(ir)[ir.piece_owner(look_piece(ir, code)[0])]
    if code < 0:
        return STATE_FILLS[(-code - 1) % len(STATE_FILLS)]
    return EMPTY_FILL


def look_glyph(ir: GameIR, code: int, letters: Sequence[str]) -> str:
    if code <= 0:
        return ""
    piece, height = look_piece(ir, code)
    letter = letters[ir.piece_kind(piece)] if len(letters) > 1 else ""
    return f"{letter}{height}" if ir.stacks else letter


def style_sheet(ir: GameIR) -> str:
    """Fills per look class, so a picture's cells change colour by changing class alone."""
    rules = [f".cell.empty{{fill:{EMPTY_FILL}}}"]
    rules += [f".cell.p{p}{{fill:{f}}}" for p, f in enumerate(player_fills(ir))]
    rules += [f".cell.s{i}{{fill:{STATE_FILLS[i % len(STATE_FILLS)]}}}" for i in range(len(ir.render.empty_states))]
    rules += [
        ".cell{stroke:#555;stroke-width:1}",
        ".edge{stroke:#888;stroke-width:2}",
        ".label{font-size:8px;fill:#555;pointer-events:none}",
        ".glyph{font-size:14px;font-weight:bold;fill:#fff;pointer-events:none}",
        ".wrap{stroke:#c0392b;stroke-width:1.5;stroke-dasharray:6 4;fill:none}",
        ".wrap-arrow{stroke:#c0392b;stroke-width:1.5;fill:none}",
        ".wrap-label{font-size:10px;fill:#c0392b}",
        ".bar{fill:#bbb}",
        ".track{font-size:11px;fill:#222}",
        ".player{font-size:13px;font-weight:bold;fill:#222}",
        ".status{font-size:13px;fill:#222}",
    ]
    # scoped to the picture: inside an HTML page a <style> in an <svg> applies to the page
    return "\n".join(f"svg.board {rule}" for rule in rules)


# -- geometry -------------------------------------------------------------------------------


@dataclass
class Shape:
    """Where a cell is drawn, in pixels: a polygon's points, or a circle's centre."""

    points: tuple[tuple[float, float], ...]
    centre: tuple[float, float]
    circle: bool = False


def board_shapes(ir: GameIR) -> tuple[list[Shape], float, float]:
    """Every cell's shape (the board's top-left corner at MARGIN, MARGIN) and the size of the
    board area, for every topology: outlines where the topology has them, circles at the
    nodes' places on a graph board."""
    b = ir.board
    if b.topology == "graph":
        return _graph_shapes(ir)
    if not b.polygons or not all(b.polygons):
        raise ValueError(f"a {b.topology} board has no geometry to draw")
    xs = [x for poly in b.polygons for x, _ in poly]
    ys = [y for poly in b.polygons for _, y in poly]
    minx, miny = min(xs), min(ys)
    shapes = []
    for poly in b.polygons:
        pts = tuple(((x - minx) * SCALE + MARGIN, (y - miny) * SCALE + MARGIN) for x, y in poly)
        cx = sum(x for x, _ in pts) / len(pts)
        cy = sum(y for _, y in pts) / len(pts)
        shapes.append(Shape(pts, (cx, cy)))
    return shapes, (max(xs) - minx) * SCALE + 2 * MARGIN, (max(ys) - miny) * SCALE + 2 * MARGIN


def _graph_shapes(ir: GameIR) -> tuple[list[Shape], float, float]:
    b = ir.board
    places = [poly[0] if poly else (0.0, 0.0) for poly in b.polygons]
    lengths = [math.dist(places[a], places[c]) for a, ns in enumerate(b.neighbours) for c in ns if c > a]
    if not lengths:  # no edges: the closest pair among the first nodes sets the scale
        head = places[:200]
        lengths = [math.dist(p, q) for i, p in enumerate(head) for q in head[i + 1 :]]
    shortest = min((d for d in lengths if d > 1e-9), default=1.0)
    scale = GRAPH_SPACING / shortest
    minx = min(x for x, _ in places)
    miny = min(y for _, y in places)
    pad = MARGIN + NODE_RADIUS
    shapes = []
    for x, y in places:
        centre = ((x - minx) * scale + pad, (y - miny) * scale + pad)
        shapes.append(Shape((centre,), centre, circle=True))
    w = (max(x for x, _ in places) - minx) * scale + 2 * pad
    h = (max(y for _, y in places) - miny) * scale + 2 * pad
    return shapes, w, h


def wraps(ir: GameIR) -> bool:
    """A torus: a square board whose every step east and south stays on the board."""
    b = ir.board
    if b.topology != "square" or not b.directions:
        return False
    d = {name: i for i, name in enumerate(b.directions)}
    return all(all(t < b.n_cells for t in b.steps[d[k]]) for k in ("e", "s") if k in d)


# -- drawing --------------------------------------------------------------------------------


def _fmt(v: float) -> str:
    return f"{v:.1f}"


def _sub(parent: ET.Element, tag: str, attrs: Optional[dict] = None, text: Optional[str] = None) -> ET.Element:
    el = ET.SubElement(parent, tag, {k: str(v) for k, v in (attrs or {}).items()})
    if text is not None:
        el.text = text
    return el


def board_svg(ir: GameIR, looks: Sequence[int], values: Sequence[int], status: str, element_id: str = "board") -> ET.Element:
    """The picture of one position (the board, its legend and the track panel)."""
    shapes, bw, bh = board_shapes(ir)
    labels = track_labels(ir)
    letters = kind_letters(ir)
    panel_h = 24.0 + ir.n_players * 22.0 + len(labels) * 17.0 + (len(ir.render.empty_states) + 1) * 17.0 + 30.0
    width = bw + PANEL_WIDTH
    height = max(bh, panel_h) + 28.0
    svg = ET.Element(
        "svg",
        {
            "xmlns": SVG_NS,
            "id": element_id,
            "class": "board",
            "viewBox": f"0 0 {width:.0f} {height:.0f}",
            "width": f"{width:.0f}",
            "height": f"{height:.0f}",
            "font-family": "sans-serif",
            "data-topology": ir.board.topology,
        },
    )
    _sub(svg, "title", text=ir.title + (f" [{ir.variant}]" if ir.variant else ""))
    _sub(svg, "style", text=style_sheet(ir))
    _draw_board(svg, ir, shapes, looks, letters, bw, bh)
    _draw_panel(svg, ir, labels, values, letters, bw)
    _sub(svg, "text", {"id": f"{element_id}-status", "class": "status", "x": MARGIN, "y": _fmt(height - 10)}, status)
    return svg


def _draw_board(svg: ET.Element, ir: GameIR, shapes: list[Shape], looks: Sequence[int], letters: Sequence[str], bw: float, bh: float) -> None:
    b = ir.board
    if b.topology == "graph":
        edges = _sub(svg, "g", {"class": "edges"})
        for a, ns in enumerate(b.neighbours):
            for c in ns:
                if c > a:
                    (x1, y1), (x2, y2) = shapes[a].centre, shapes[c].centre
                    _sub(edges, "line", {"class": "edge", "x1": _fmt(x1), "y1": _fmt(y1), "x2": _fmt(x2), "y2": _fmt(y2), "data-edge": f"{b.cell_names[a]}-{b.cell_names[c]}"})
    if wraps(ir):
        _draw_wrap(svg, bw, bh)
    cells = _sub(svg, "g", {"class": "cells"})
    marks = _sub(svg, "g", {"class": "marks"})
    for c, shape in enumerate(shapes):
        code = looks[c]
        name = b.cell_names[c]
        attrs = {"class": look_class(ir, code), "fill": look_fill(ir, code), "data-cell": name, "data-index": c}
        if shape.circle:
            attrs.update({"cx": _fmt(shape.centre[0]), "cy": _fmt(shape.centre[1]), "r": _fmt(NODE_RADIUS)})
            el = _sub(cells, "circle", attrs)
        else:
            attrs["points"] = " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in shape.points)
            el = _sub(cells, "polygon", attrs)
        _sub(el, "title", text=name)
        cx, cy = shape.centre
        label_y = cy + (NODE_RADIUS + 10 if shape.circle else (9 if marks_cells(ir, letters) else 3))
        _sub(marks, "text", {"class": "label", "x": _fmt(cx), "y": _fmt(label_y), "text-anchor": "middle"}, name)
        if marks_cells(ir, letters):
            _sub(marks, "text", {"class": "glyph", "data-glyph": c, "x": _fmt(cx), "y": _fmt(cy + 4), "text-anchor": "middle"}, look_glyph(ir, code, letters))


def _draw_wrap(svg: ET.Element, bw: float, bh: float) -> None:
    """A torus: a dashed border and matching arrows on opposite sides (the usual drawing of a
    glued square: edges with the same letter are the same edge)."""
    g = _sub(svg, "g", {"class": "wrap-marks"})
    m, h = MARGIN, MARGIN / 2
    _sub(g, "rect", {"class": "wrap", "x": _fmt(m - 3), "y": _fmt(m - 3), "width": _fmt(bw - 2 * m + 6), "height": _fmt(bh - 2 * m + 6)})
    midx, midy = bw / 2, bh / 2
    # arrows along each side, pointing the same way on opposite sides
    for y in (h, bh - h):
        _sub(g, "path", {"class": "wrap-arrow", "d": f"M{_fmt(midx - 14)},{_fmt(y)} L{_fmt(midx + 14)},{_fmt(y)} M{_fmt(midx + 8)},{_fmt(y - 4)} L{_fmt(midx + 14)},{_fmt(y)} L{_fmt(midx + 8)},{_fmt(y + 4)}"})
        _sub(g, "text", {"class": "wrap-label", "x": _fmt(midx + 20), "y": _fmt(y + 4)}, "a")
    for x in (h, bw - h):
        _sub(g, "path", {"class": "wrap-arrow", "d": f"M{_fmt(x)},{_fmt(midy - 14)} L{_fmt(x)},{_fmt(midy + 14)} M{_fmt(x - 4)},{_fmt(midy + 8)} L{_fmt(x)},{_fmt(midy + 14)} L{_fmt(x + 4)},{_fmt(midy + 8)}"})
        _sub(g, "text", {"class": "wrap-label", "x": _fmt(x - 3), "y": _fmt(midy - 18)}, "b")
    _sub(g, "title", text="the board wraps round: the top edge meets the bottom (a), the left edge meets the right (b)")


def _draw_panel(svg: ET.Element, ir: GameIR, labels: list[tuple[int, str]], values: Sequence[int], letters: Sequence[str], bw: float) -> None:
    g = _sub(svg, "g", {"class": "panel"})
    x0, y = bw + 6, MARGIN
    fills = player_fills(ir)
    for p, name in enumerate(ir.players):
        _sub(g, "rect", {"class": f"player-{name}", "fill": fills[p], "x": _fmt(x0), "y": _fmt(y - 11), "width": "14", "height": "14"})
        glyph = ir.render.piece_glyphs[p] if p < len(ir.render.piece_glyphs) else ""
        _sub(g, "text", {"class": "player", "x": _fmt(x0 + 20), "y": _fmt(y)}, f"{name} ({glyph})" if glyph else name)
        y += 20
        for i, (seat, label) in enumerate(labels):
            if seat != p:
                continue
            v = values[i]
            _sub(g, "rect", {"class": "bar", "data-bar": i, "x": _fmt(x0 + 175), "y": _fmt(y - 9), "width": _fmt(min(abs(v), BAR_MAX) * BAR_UNIT), "height": "10"})
            _sub(g, "text", {"class": "track", "data-track": i, "data-label": label, "x": _fmt(x0 + 20), "y": _fmt(y)}, f"{label}: {v}")
            y += 17
        y += 6
    legend = [(f"cell s{i}", STATE_FILLS[i % len(STATE_FILLS)], name) for i, (name, _, _) in enumerate(ir.render.empty_states)]
    legend.append(("cell empty", EMPTY_FILL, "empty"))
    if len(letters) > 1 and letters[0]:
        legend_kinds = ", ".join(f"{m} {k}" for m, k in zip(letters, ir.kinds))
    else:
        legend_kinds = ""
    for cls, fill, name in legend:
        _sub(g, "rect", {"class": cls.replace("cell ", "swatch "), "fill": fill, "stroke": "#555", "x": _fmt(x0), "y": _fmt(y - 10), "width": "12", "height": "12"})
        _sub(g, "text", {"class": "track", "x": _fmt(x0 + 18), "y": _fmt(y)}, name)
        y += 17
    if legend_kinds:
        _sub(g, "text", {"class": "track", "x": _fmt(x0), "y": _fmt(y)}, f"pieces: {legend_kinds}")


def to_text(svg: ET.Element) -> str:
    return ET.tostring(svg, encoding="unicode")


def render_svg(state: "State") -> str:
    """An SVG picture of ``state``: the board filled by owner or display state, a legend, the
    players' hands, counters and scores, and whose turn it is (or the result)."""
    ir = state.game.ir
    return to_text(board_svg(ir, cell_looks(state), track_values(state), status_text(state)))
