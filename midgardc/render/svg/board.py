"""The board: every cell (a polygon, or a circle on a graph board) filled by what is on it,
pieces marked by kind or stack height, regions outlined and labelled, marked cells, axis
labels, places that stand on board nodes, and a torus's wrap-around marks.

A cell's *look code* says what is on it (the same codes drive every picture):

* ``0``: an empty cell;
* ``piece id > 0`` (``1 + owner * n_kinds + kind``): a piece, filled by its owner's colour
  and, when the game has several kinds of piece, marked with the kind's letter;
* ``-(i + 1)``: an empty cell in display state ``i`` of the spec's ``render.empty``;
* in a game with stacks, ``piece + n_pieces * (height - 1)``: a stack of that height.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from ...ir.nodes import GameIR
from ...ir.present import has_kind_glyphs, piece_glyph
from ...ir.colours import contrast
from .figures import MIN_CONTRAST, draw_figure, outline
from .common import EMPTY_FILL, GRAPH_SPACING, NEUTRAL_FILL, MARGIN, NODE_RADIUS, SCALE, STATE_FILLS, fmt, player_fills, sub, text, text_fill
from .seen import Seen, by_identity, present_of

if TYPE_CHECKING:  # pragma: no cover
    from ...runtime.game import State


def cell_looks(state: "State") -> list[int]:
    """Per cell, its look code (see the module docstring)."""
    from ...runtime.state_json import empty_states

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
    return (len(letters) > 1 and bool(letters[0])) or bool(ir.stacks) or has_kind_glyphs(ir)


def look_class(ir: GameIR, code: int) -> str:
    if code > 0:
        owner = ir.piece_owner(look_piece(ir, code)[0])
        return f"cell p{owner} player-{ir.players[owner]}"
    if code < 0:
        return f"cell s{-code - 1} state-{ir.render.empty_states[-code - 1][0]}"
    return "cell empty"


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
    if has_kind_glyphs(ir):  # render.glyphs per kind (or the position notation's letters)
        letter = piece_glyph(ir, piece)
    else:
        letter = letters[ir.piece_kind(piece)] if len(letters) > 1 else ""
    return f"{letter}{height}" if ir.stacks else letter


# -- geometry -------------------------------------------------------------------------------


@dataclass
class Shape:
    """Where a cell is drawn, in pixels: a polygon's points, or a circle's centre."""

    points: tuple[tuple[float, float], ...]
    centre: tuple[float, float]
    circle: bool = False


@by_identity
def board_shapes(ir: GameIR) -> tuple[list[Shape], float, float]:
    """Every cell's shape (the board's top-left corner at MARGIN, MARGIN) and the size of the
    board area, for every topology (computed once per game)."""
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
    pad = MARGIN + NODE_RADIUS + 6
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


def ground_of(ir: GameIR, shapes: list[Shape]) -> list[str]:
    """Per cell, the colour of the table under it (``render.board``): the light or dark
    square of a checkered board (the bottom-left square is dark, the usual way round),
    else the spec's ground, else white."""
    pr = present_of(ir)
    light = pr.ground or EMPTY_FILL
    if pr.board_style != "checkered":
        return [light] * len(shapes)
    def parity(c: int) -> int:  # the square's column plus row, counted from the corner
        x, y = shapes[c].centre
        return (round((x - MARGIN) / SCALE - 0.5) + round((y - MARGIN) / SCALE - 0.5)) % 2

    corner = max(range(len(shapes)), key=lambda c: (round(shapes[c].centre[1], 1), -shapes[c].centre[0]))
    return [pr.dark if pr.dark and parity(c) == parity(corner) else light for c in range(len(shapes))]


def grounds(ir: GameIR) -> list[str]:
    """Every colour a piece can stand on in pictures of ``ir`` (a cell's ground)."""
    pr = present_of(ir)
    if pr.board_style == "checkered":
        return [pr.ground or EMPTY_FILL, *([pr.dark] if pr.dark else [])]
    return [pr.ground or EMPTY_FILL]


def figure_of(ir: GameIR, kind: int, owner: int = 0) -> str:
    """The figure a kind of piece of ``owner``'s is drawn as ("" : the piece fills its cell)."""
    pr = present_of(ir)
    if pr.seat_figures and pr.seat_figures[owner][kind]:
        return pr.seat_figures[owner][kind]
    if pr.figures and pr.figures[kind]:
        return pr.figures[kind]
    return {"cells": "", "checkered": "disc", "lines": "stone"}[pr.board_style]


def _draw_lines(svg: ET.Element, ir: GameIR, shapes: list[Shape]) -> None:
    """A lines board: the ground, a line between the centres of every two neighbours side
    by side (on a square board, not across corners) and the star points."""
    pr = present_of(ir)
    b = ir.board
    g = sub(svg, "g", {"class": "lines"})
    xs = [x for s in shapes for x, _ in s.points] if not shapes[0].circle else [s.centre[0] for s in shapes]
    ys = [y for s in shapes for _, y in s.points] if not shapes[0].circle else [s.centre[1] for s in shapes]
    pad = 0 if not shapes[0].circle else NODE_RADIUS + 4
    sub(g, "rect", {"class": "ground", "fill": pr.ground or EMPTY_FILL, "x": fmt(min(xs) - pad), "y": fmt(min(ys) - pad), "width": fmt(max(xs) - min(xs) + 2 * pad), "height": fmt(max(ys) - min(ys) + 2 * pad)})
    colour = pr.line or "#222222"
    for a, ns in enumerate(b.neighbours):
        for c in ns:
            if c <= a:
                continue
            (x1, y1), (x2, y2) = shapes[a].centre, shapes[c].centre
            if not shapes[0].circle and abs(x1 - x2) > 0.5 and abs(y1 - y2) > 0.5:
                continue  # across a corner: no line
            sub(g, "line", {"class": "edge", "style": f"stroke:{colour}", "x1": fmt(x1), "y1": fmt(y1), "x2": fmt(x2), "y2": fmt(y2), "data-edge": f"{b.cell_names[a]}-{b.cell_names[c]}"})
    for c in pr.points:
        x, y = shapes[c].centre
        sub(g, "circle", {"class": "star-point", "fill": colour, "cx": fmt(x), "cy": fmt(y), "r": "3.5", "data-point": b.cell_names[c]})
    if shapes[0].circle:  # a graph board's points are dots where lines meet
        for c, s in enumerate(shapes):
            sub(g, "circle", {"class": "point", "fill": colour, "cx": fmt(s.centre[0]), "cy": fmt(s.centre[1]), "r": "5"})


def draw_board(svg: ET.Element, view: Seen, shapes: list[Shape], bw: float, bh: float) -> None:
    ir = view.ir
    b = ir.board
    pr = present_of(ir)
    letters = kind_letters(ir)
    looks = cell_looks(view.state)
    at_place = {pl.cell: pl for pl in pr.places if pl.cell >= 0}
    style = pr.board_style
    ground = ground_of(ir, shapes)
    if style == "lines":
        _draw_lines(svg, ir, shapes)
    elif b.topology == "graph":
        edges = sub(svg, "g", {"class": "edges"})
        for a, ns in enumerate(b.neighbours):
            for c in ns:
                if c > a:
                    (x1, y1), (x2, y2) = shapes[a].centre, shapes[c].centre
                    sub(edges, "line", {"class": "edge", "x1": fmt(x1), "y1": fmt(y1), "x2": fmt(x2), "y2": fmt(y2), "data-edge": f"{b.cell_names[a]}-{b.cell_names[c]}"})
    if wraps(ir):
        _draw_wrap(svg, bw, bh)
    cells = sub(svg, "g", {"class": f"cells {style}"})
    # a highlight with style alert glows under the piece it names (the group is filled below)
    alerts = sub(svg, "g", {"class": "alerts"}) if any(h.style == "alert" for h in pr.highlights) else None
    pieces = sub(svg, "g", {"class": "pieces"})
    marks = sub(svg, "g", {"class": "marks"})
    fills = player_fills(ir)
    # the axes name the squares of a styled board: no name in every cell
    named = shapes[0].circle or (style == "cells" and not pr.ground)
    for c, shape in enumerate(shapes):
        code = looks[c]
        name = b.cell_names[c]
        attrs = {"class": look_class(ir, code), "fill": look_fill(ir, code), "data-cell": name, "data-index": c}
        piece = look_piece(ir, code)[0] if code > 0 else 0
        kind = ir.piece_kind(piece) if piece else -1
        neutral = piece and kind in pr.neutral
        fill = NEUTRAL_FILL if neutral else fills[ir.piece_owner(piece)] if piece else ""
        figure = figure_of(ir, kind, ir.piece_owner(piece)) if piece else ""
        if figure or style != "cells" or (code == 0 and pr.ground):  # the cell shows the table; a figure the piece
            attrs["fill"] = "transparent" if style == "lines" else ground[c]
            attrs["style"] = f"fill:{attrs['fill']}"
        elif piece:  # the piece fills its cell, outlined where its colour is close to the ground
            attrs["fill"] = fill
            attrs["style"] = f"fill:{fill}" + (f";stroke:{outline(fill, ground[c])};stroke-width:2.5" if not visible_alone(fill, ground[c]) else "")
        if shape.circle:
            r = NODE_RADIUS * (1.6 if c in at_place else 1.0)
            attrs.update({"cx": fmt(shape.centre[0]), "cy": fmt(shape.centre[1]), "r": fmt(r)})
            el = sub(cells, "circle", attrs)
        elif style == "lines":  # a point where lines cross: a round target round it
            attrs.update({"cx": fmt(shape.centre[0]), "cy": fmt(shape.centre[1]), "r": fmt(SCALE * 0.46)})
            el = sub(cells, "circle", attrs)
        else:
            attrs["points"] = " ".join(f"{fmt(x)},{fmt(y)}" for x, y in shape.points)
            el = sub(cells, "polygon", attrs)
        sub(el, "title", text=name)
        cx, cy = shape.centre
        if code == 0 and pr.hole and not shape.circle:
            sub(pieces, "circle", {"class": "hole", "fill": pr.hole, "cx": fmt(cx), "cy": fmt(cy), "r": fmt(SCALE * 0.38)})
        if figure:
            size = (NODE_RADIUS * 1.9 if shape.circle else SCALE * 0.92)
            owner = ir.piece_owner(piece)
            who = "nobody" if neutral else ir.players[owner]
            fg = draw_figure(pieces, figure, cx, cy, size, fill, ground[c], {"class": f"piece p{owner}", "data-at": name, "data-kind": ir.kinds[kind], "data-player": who})
            sub(fg, "title", text=f"{who}'s {pr.label(ir.kinds[kind])} on {name}" if not neutral else f"{pr.label(ir.kinds[kind])} on {name}")
        label_y = cy + (NODE_RADIUS + 10 if shape.circle else (9 if marks_cells(ir, letters) else 3))
        glyph = look_glyph(ir, code, letters) if marks_cells(ir, letters) else ""
        if figure:  # the figure tells the kind: only a stack's height is written on it
            glyph = str(look_piece(ir, code)[1]) if ir.stacks else ""
        # a piece's glyph takes the cell: its name stays in the cell's title (and the axes)
        if named and c not in at_place and (shape.circle or code <= 0 or not glyph.strip()) and not (figure and not shape.circle):
            if style == "lines":  # beside the point, off the lines that leave it
                text(marks, cx + NODE_RADIUS * 0.75, cy + NODE_RADIUS + 3, name, "label")
            elif piece and not figure and not shape.circle:  # in a piece's colour: light or dark on it, no halo
                text(marks, cx, label_y, name, "label", "middle", style=f"fill:{text_fill(fill)};stroke:none")
            else:
                text(marks, cx, label_y, name, "label", "middle")
        if marks_cells(ir, letters):
            mark = {"class": "glyph", "data-glyph": c, "x": fmt(cx), "y": fmt(cy + 4), "text-anchor": "middle"}
            if code > 0:  # dark on a light piece (a white king), light on a dark one
                mark["style"] = f"fill:{text_fill(fill or attrs['fill'])}"
            sub(marks, "text", mark, glyph)
    _draw_numbers(marks, view, shapes)
    _draw_axes(svg, ir, shapes)
    _draw_regions(svg, ir, shapes)
    _draw_highlights(svg, view, shapes, alerts)
    svg.remove(marks)  # the names and glyphs over the regions' outlines and highlight rings, to stay readable
    svg.append(marks)


def number_counters(ir: GameIR) -> list[int]:
    """Per cell, the game counter whose number ``render.numbers`` writes in it ([] : none)."""
    if not ir.render.numbers:
        return []
    return [ir.counters.index(f"{ir.render.numbers}[{name}]") for name in ir.board.cell_names]


MAX_DOTS = 6  # a pile of up to this many pieces is drawn piece by piece; a bigger one by its count
DOT_RING = 11.0  # the pieces lie on a ring this far from the cell's centre, around the count
DOT_RADIUS = 2.6


def _draw_numbers(parent: ET.Element, view: Seen, shapes: list[Shape]) -> None:
    """``render.numbers``: each cell's number written in it (a pit's seeds), as the text
    board writes it; a number the viewer may not see is ``?``. A pile's pieces (piles:)
    are also drawn, as small dots around the count, when there are a few of them."""
    from ...runtime.observe import GAME

    ir = view.ir
    row = view.state.core.counters[ir.n_players]
    pile = ir.render.numbers in ir.render.piles
    for c, i in enumerate(number_counters(ir)):
        cx, cy = shapes[c].centre
        seen = view.counter(i, GAME)
        v = str(int(row[i])) if seen else "?"
        text(parent, cx, cy + 5, v, "number", "middle", data_number=ir.board.cell_names[c])
        count = int(row[i]) if seen and pile else 0
        for k in range(count if count <= MAX_DOTS else 0):  # clockwise from the top
            angle = 2 * math.pi * k / count - math.pi / 2
            sub(parent, "circle", {"class": "seed", "cx": fmt(cx + DOT_RING * math.cos(angle)), "cy": fmt(cy + DOT_RING * math.sin(angle)),
                                   "r": fmt(DOT_RADIUS), "data-pile": ir.board.cell_names[c]})


def visible_alone(fill: str, ground: str) -> bool:
    """Whether a piece filling its cell stands out from an empty cell by its colour alone."""
    return contrast(fill, ground) >= MIN_CONTRAST


def _draw_axes(svg: ET.Element, ir: GameIR, shapes: list[Shape]) -> None:
    """Row labels at the left and column labels under a square or hex board, as the cell
    names write them (the same labels as the text board of ``show``)."""
    from ...runtime.view import axis_labels

    b = ir.board
    if b.topology not in ("square", "hex") or not b.coords:
        return
    rows, cols = axis_labels(b)
    g = sub(svg, "g", {"class": "axes"})
    left: dict[int, float] = {}
    ys: dict[int, float] = {}
    bottom: dict[int, tuple[float, float]] = {}
    low = max(max(y for _, y in s.points) for s in shapes)
    for c, (row, col) in enumerate(b.coords):
        x = min(px for px, _ in shapes[c].points)
        if row not in left or x < left[row]:
            left[row], ys[row] = x, shapes[c].centre[1]
        bottom.setdefault(col, shapes[c].centre)
        if shapes[c].centre[1] > bottom[col][1]:
            bottom[col] = shapes[c].centre
    for row, label in rows.items():
        if row in left:
            text(g, left[row] - 5, ys[row] + 4, label, "axis", "end", data_row=label)
    for col, label in cols:
        if col in bottom:
            text(g, bottom[col][0], low + 15, label, "axis", "middle", data_column=label)


def _boundary(shapes: list[Shape], cells: Sequence[int]) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The edges of a set of polygon cells that no two of its cells share: its outline."""
    seen: dict[tuple, tuple] = {}
    for c in cells:
        pts = shapes[c].points
        for i in range(len(pts)):
            a, b = pts[i], pts[(i + 1) % len(pts)]
            key = tuple(sorted(((round(a[0], 1), round(a[1], 1)), (round(b[0], 1), round(b[1], 1)))))
            if key in seen:
                del seen[key]
            else:
                seen[key] = (a, b)
    return list(seen.values())


def _draw_regions(svg: ET.Element, ir: GameIR, shapes: list[Shape]) -> None:
    regions = present_of(ir).regions
    if not regions:
        return
    g = sub(svg, "g", {"class": "regions"})
    sets = [set(r.cells) for r in regions]
    for i, r in enumerate(regions):
        outer = any(j != i and sets[j] < sets[i] for j in range(len(regions)))
        cls = "region outer" if outer else "region"
        grp = sub(g, "g", {"data-region": r.label})
        sub(grp, "title", text=r.label)
        if shapes[r.cells[0]].circle:
            pad = NODE_RADIUS + (22 if outer else 6)
            xs = [shapes[c].centre[0] for c in r.cells]
            ys = [shapes[c].centre[1] for c in r.cells]
            x0, y0, x1, y1 = min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad
            sub(grp, "rect", {"class": cls, "x": fmt(x0), "y": fmt(y0), "width": fmt(x1 - x0), "height": fmt(y1 - y0), "rx": "10"})
            lx, ly = (x0 + 4, y0 - 4)
        else:
            d = " ".join(f"M{fmt(a[0])},{fmt(a[1])} L{fmt(b[0])},{fmt(b[1])}" for a, b in _boundary(shapes, r.cells))
            sub(grp, "path", {"class": cls, "d": d})
            first = min(r.cells, key=lambda c: (min(y for _, y in shapes[c].points), min(x for x, _ in shapes[c].points)))
            lx = min(x for x, _ in shapes[first].points) + 3
            ly = min(y for _, y in shapes[first].points) + 11
        if r.label:
            text(grp, lx, ly, r.label, "region-label")
        for c, word in r.marks:
            cx, cy = shapes[c].centre
            star = _star(cx + SCALE * 0.3, cy - SCALE * 0.28 if not shapes[c].circle else cy - NODE_RADIUS, 6.5)
            m = sub(grp, "polygon", {"class": "starred", "points": star, "data-mark": word, "data-at": ir.board.cell_names[c]})
            sub(m, "title", text=f"{word}: {ir.board.cell_names[c]}")


def _star(cx: float, cy: float, r: float) -> str:
    pts = []
    for k in range(10):
        a = math.pi / 2 + k * math.pi / 5
        rr = r if k % 2 == 0 else r * 0.45
        pts.append(f"{fmt(cx + rr * math.cos(a))},{fmt(cy - rr * math.sin(a))}")
    return " ".join(pts)


ALERT_FILL = "#e8000b"  # an alert's glow: a red that stands out on light and dark squares
# an alert's glow: discs from the cell's edge inwards (radius as a share of the cell's),
# each adding red, so that the red deepens towards the centre (no gradient: no ids to clash
# when a page holds several pictures)
ALERT_GLOW = ((1.0, 0.25), (0.8, 0.3), (0.6, 0.35), (0.4, 0.4))


def outline_edges(shapes: list[Shape]) -> dict[int, list[tuple[tuple[float, float], tuple[float, float]]]]:
    """Per cell, the edges of its polygon that no other cell shares: the board's outline
    (a circle, a graph's node, has none)."""
    def key(a: tuple[float, float], b: tuple[float, float]) -> tuple:
        return tuple(sorted(((round(a[0], 1), round(a[1], 1)), (round(b[0], 1), round(b[1], 1)))))

    seen: dict[tuple, int] = {}
    for shape in shapes:
        pts = shape.points if not shape.circle else ()
        for i in range(len(pts)):
            k = key(pts[i], pts[(i + 1) % len(pts)])
            seen[k] = seen.get(k, 0) + 1
    out: dict[int, list] = {}
    for c, shape in enumerate(shapes):
        pts = shape.points if not shape.circle else ()
        for i in range(len(pts)):
            a, b = pts[i], pts[(i + 1) % len(pts)]
            if seen[key(a, b)] == 1:
                out.setdefault(c, []).append((a, b))
    return out


def _draw_highlights(svg: ET.Element, view: Seen, shapes: list[Shape], alerts: "ET.Element | None" = None) -> None:
    """``render.highlight``: the cells whose condition holds, ringed (in the player's colour
    for ``of: player``) or, style alert, glowing red under their piece (into ``alerts``,
    drawn before the pieces). A highlight is drawn only when the viewer may see everything
    its condition reads (a player's: what that player's own counters show, to that player)."""
    from ...runtime.observe import GAME

    ir = view.ir
    hs = present_of(ir).highlights
    if not hs:
        return
    fills = player_fills(ir)
    g = sub(svg, "g", {"class": "highlights"})
    for h in hs:
        owners = range(ir.n_players) if h.per_player else [-1]
        for p in owners:
            if not view.expr_seen(h.when, p if h.per_player else GAME):
                continue
            for c, shape in enumerate(shapes):
                env = {"c": c, "p": p} if h.per_player else {"c": c}
                if not view.value(h.when, **env):
                    continue
                who = f" ({ir.players[p]})" if h.per_player else ""
                name = ir.board.cell_names[c]
                cx, cy = shape.centre
                if h.style == "alert":
                    assert alerts is not None
                    r = NODE_RADIUS + 6 if shape.circle else SCALE * 0.5
                    glow = sub(alerts, "g", {"class": "alert", "data-highlight": h.label, "data-at": name})
                    for share, opacity in ALERT_GLOW:
                        sub(glow, "circle", {"fill": ALERT_FILL, "fill-opacity": str(opacity), "cx": fmt(cx), "cy": fmt(cy), "r": fmt(r * share)})
                    sub(glow, "title", text=f"{h.label}{who}: {name}")
                    continue
                colour = fills[p] if h.per_player else "#7b241c"
                if h.style == "side":
                    for (x1, y1), (x2, y2) in outline_edges(shapes).get(c, ()):
                        el = sub(g, "line", {"class": "side", "stroke": colour, "x1": fmt(x1), "y1": fmt(y1), "x2": fmt(x2), "y2": fmt(y2), "data-highlight": h.label, "data-at": name})
                        sub(el, "title", text=f"{h.label}{who}: {name}")
                    continue
                r = (NODE_RADIUS + 5 if shape.circle else SCALE * 0.42) + (3 * p if p > 0 else 0)
                el = sub(g, "circle", {"class": "highlight", "stroke": colour, "cx": fmt(cx), "cy": fmt(cy), "r": fmt(r), "data-highlight": h.label, "data-at": name})
                sub(el, "title", text=f"{h.label}{who}: {name}")
                if not h.per_player and h.label:
                    text(g, cx, cy - r - 2, h.label, "mark-label", "middle")


def _draw_wrap(svg: ET.Element, bw: float, bh: float) -> None:
    """A torus: a dashed border and matching arrows on opposite sides (the usual drawing of a
    glued square: edges with the same letter are the same edge)."""
    g = sub(svg, "g", {"class": "wrap-marks"})
    m, h = MARGIN, MARGIN / 2
    sub(g, "rect", {"class": "wrap", "x": fmt(m - 3), "y": fmt(m - 3), "width": fmt(bw - 2 * m + 6), "height": fmt(bh - 2 * m + 6)})
    midx, midy = bw / 2, bh / 2
    for y in (h, bh - 6):  # (the bottom and left arrows clear the column and row labels)
        sub(g, "path", {"class": "wrap-arrow", "d": f"M{fmt(midx - 14)},{fmt(y)} L{fmt(midx + 14)},{fmt(y)} M{fmt(midx + 8)},{fmt(y - 4)} L{fmt(midx + 14)},{fmt(y)} L{fmt(midx + 8)},{fmt(y + 4)}"})
        sub(g, "text", {"class": "wrap-label", "x": fmt(midx + 20), "y": fmt(y + 4)}, "a")
    for x in (6, bw - h):
        sub(g, "path", {"class": "wrap-arrow", "d": f"M{fmt(x)},{fmt(midy - 14)} L{fmt(x)},{fmt(midy + 14)} M{fmt(x - 4)},{fmt(midy + 8)} L{fmt(x)},{fmt(midy + 14)} L{fmt(x + 4)},{fmt(midy + 8)}"})
        sub(g, "text", {"class": "wrap-label", "x": fmt(x - 3), "y": fmt(midy - 18)}, "b")
    sub(g, "title", text="the board wraps round: the top edge meets the bottom (a), the left edge meets the right (b)")
