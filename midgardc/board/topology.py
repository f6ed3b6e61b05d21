"""Board topologies: a description in the spec becomes cell names and adjacency tables.

One builder per topology, chosen from a table. Builders know geometry only — which cells
exist, which share an edge, where each is drawn — never what a game does with them.
"""

from __future__ import annotations

import math
import re
import string
from dataclasses import dataclass, field
from typing import Callable

from ..errors import SpecError
from ..spec.yamlpos import YMap


@dataclass
class RawBoard:
    names: list[str] = field(default_factory=list)
    neighbours: list[list[int]] = field(default_factory=list)
    coords: list[tuple[int, int]] = field(default_factory=list)  # terminal (row, col)
    polygons: list[tuple[tuple[float, float], ...]] = field(default_factory=list)  # for SVG
    directions: list[str] = field(default_factory=list)
    steps: list[list[int]] = field(default_factory=list)

    def add(self, name: str, coord: tuple[int, int], polygon: tuple[tuple[float, float], ...] = ()) -> int:
        self.names.append(name)
        self.neighbours.append([])
        self.coords.append(coord)
        self.polygons.append(polygon)
        return len(self.names) - 1

    def link(self, a: int, b: int) -> None:
        if b not in self.neighbours[a]:
            self.neighbours[a].append(b)
        if a not in self.neighbours[b]:
            self.neighbours[b].append(a)


MAX_CELLS = 4096
H = math.sqrt(3) / 2


_FIELD_SPEC = re.compile(r"(?:[<>^]?0?[0-9]?[dxXo]?)\Z")


def _fmt(template: str, where, **fields) -> str:
    """``template`` with ``{field}`` replaced (plain fields only: no attributes, indexes or
    conversions; a format spec at most like ``02d`` or ``>3``)."""
    out: list[str] = []
    try:
        for lit, name, spec, conv in string.Formatter().parse(template):
            out.append(lit)
            if name is None:
                continue
            if name not in fields:
                raise ValueError(f"unknown field '{{{name}}}'")
            if conv is not None or not _FIELD_SPEC.match(spec or ""):
                raise ValueError(f"'{{{name}{'!' + conv if conv else ''}{':' + spec if spec else ''}}}' is not a plain field")
            out.append(format(fields[name], spec or ""))
    except ValueError as exc:
        raise SpecError(f"bad cell name template {template[:60]!r}: {exc}; fields here: {', '.join(sorted(fields))}", where) from None
    return "".join(out)


def _triangle(spec: YMap, get) -> RawBoard:
    """Triangle of side ``size``, apex up. Row r (0 at the apex) holds cells i = 0..2r; even i
    point up, odd i point down. ``affixed`` glues one extra triangle on the outer edge of each
    non-corner border cell, per side (left: (k,0), right: (k,2k), bottom: (size-1,2k))."""
    size = get("size", int, lo=1, hi=60)
    template = get("cell_name", str, default="{row}.{index}")
    affixed = spec.get("affixed")
    b = RawBoard()
    index: dict[tuple[int, int], int] = {}
    for r in range(size):
        for i in range(2 * r + 1):
            x0 = (size - 1 - r) + i  # half-triangle units from the left
            up = i % 2 == 0
            left = (size - r + i - 1) / 2
            if up:
                poly = ((left, (r + 1) * H), (left + 0.5, r * H), (left + 1, (r + 1) * H))
            else:
                poly = ((left, r * H), (left + 1, r * H), (left + 0.5, (r + 1) * H))
            index[(r, i)] = b.add(_fmt(template, spec.pos, row=r, index=i, r=r, i=i), (r + 1, x0 + 1), poly)
    for (r, i), c in index.items():
        if i + 1 <= 2 * r:
            b.link(c, index[(r, i + 1)])
        if i % 2 == 0 and r + 1 < size:
            b.link(c, index[(r + 1, i + 1)])
    if affixed is not None:
        if not isinstance(affixed, YMap):
            raise SpecError("board.affixed must map sides (left, right, bottom) to cell name templates like 'L{k}'", affixed.pos)
        for side, node in affixed.items.items():
            if side not in ("left", "right", "bottom"):
                from ..errors import did_you_mean

                raise SpecError(f"unknown side '{side}' (sides: left, right, bottom)", affixed.key_pos[side], did_you_mean(side, ["left", "right", "bottom"]))
            tmpl = node.value if hasattr(node, "value") and isinstance(node.value, str) else None
            if tmpl is None:
                raise SpecError("expected a cell name template like 'L{k}'", node.pos)
            for k in range(1, size - 1):
                if side == "left":
                    parent, coord = index[(k, 0)], (k + 1, size - 1 - k)
                    left = (size - k - 1) / 2 - 0.5
                    poly = ((left, k * H), (left + 1, k * H), (left + 0.5, (k + 1) * H))
                elif side == "right":
                    parent, coord = index[(k, 2 * k)], (k + 1, size - 1 - k + 2 * k + 2)
                    left = (size - k - 1 + 2 * k) / 2 + 0.5
                    poly = ((left, k * H), (left + 1, k * H), (left + 0.5, (k + 1) * H))
                else:
                    parent, coord = index[(size - 1, 2 * k)], (size + 1, 2 * k + 1)
                    left = k
                    poly = ((left, size * H), (left + 1, size * H), (left + 0.5, (size + 1) * H))
                c = b.add(_fmt(tmpl, node.pos, k=k), coord, poly)
                b.link(c, parent)
    return b


_DIRS8 = [("n", -1, 0), ("ne", -1, 1), ("e", 0, 1), ("se", 1, 1), ("s", 1, 0), ("sw", 1, -1), ("w", 0, -1), ("nw", -1, -1)]


def _square(spec: YMap, get) -> RawBoard:
    """``rows`` x ``cols`` squares, row 0 at the top. ``wrap: true`` makes a torus.
    Neighbours share an edge (``neighbourhood: 8`` adds diagonals). Directions n..nw step
    across edges and corners; past an edge without wrap they reach the off-board cell."""
    if "size" in spec.items:  # a square of squares: rows and cols both
        for key in ("rows", "cols"):
            if key in spec.items:
                raise SpecError(f"a square board has 'size' (rows and cols alike) or 'rows' and 'cols', not both: remove '{key}'", spec.key_pos[key])
        rows = cols = get("size", int, lo=1, hi=64)
    else:
        rows = get("rows", int, lo=1, hi=64)
        cols = get("cols", int, lo=1, hi=64)
    wrap = get("wrap", bool, default=False)
    hood = get("neighbourhood", int, default=4, choices=(4, 8))
    template = get("cell_name", str, default="{col_letter}{row_from_bottom}")
    b = RawBoard()
    letters = string.ascii_lowercase
    for r in range(rows):
        for c in range(cols):
            name = _fmt(template, spec.pos, row=r, col=c, row1=r + 1, col1=c + 1, col_letter=letters[c % 26] * (1 + c // 26), row_from_bottom=rows - r,
                        col_from_right=cols - c, row_letter=letters[r % 26] * (1 + r // 26))
            b.add(name, (r, 2 * c), ((c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)))

    def at(r: int, c: int) -> int:
        if wrap:
            return (r % rows) * cols + (c % cols)
        if 0 <= r < rows and 0 <= c < cols:
            return r * cols + c
        return -1

    b.directions = [d for d, _, _ in _DIRS8]
    n = rows * cols
    b.steps = [[n] * n for _ in _DIRS8]
    for r in range(rows):
        for c in range(cols):
            cell = r * cols + c
            for d, (dname, dr, dc) in enumerate(_DIRS8):
                t = at(r + dr, c + dc)
                b.steps[d][cell] = n if t < 0 else t
                if t >= 0 and t != cell and (hood == 8 or dr == 0 or dc == 0):
                    b.link(cell, t)
    return b


# --- hex: a rhombus of hexagons ---------------------------------------------------------
_HEX_DIRS = [("ne", -1, 1), ("e", 0, 1), ("se", 1, 0), ("sw", 1, -1), ("w", 0, -1), ("nw", -1, 0)]


def _hex(spec: YMap, get) -> RawBoard:
    """``rows`` x ``cols`` hexagons (pointy top) in a rhombus, row 0 at the top, each row
    drawn half a cell to the right of the one above. A cell touches six others: e and w in
    its row, nw and ne above, sw and se below (fewer on the edges). Directions ne, e, se,
    sw, w, nw step to those neighbours, or to the off-board cell past an edge."""
    rows = get("rows", int, lo=1, hi=64)
    cols = get("cols", int, lo=1, hi=64)
    template = get("cell_name", str, default="{col_letter}{row1}")
    b = RawBoard()
    letters = string.ascii_lowercase
    radius = 1 / math.sqrt(3)  # centre to corner, for cells one unit wide
    for r in range(rows):
        for c in range(cols):
            name = _fmt(template, spec.pos, row=r, col=c, row1=r + 1, col1=c + 1, col_letter=letters[c % 26] * (1 + c // 26), row_from_bottom=rows - r)
            cx, cy = c + r / 2 + 0.5, radius + r * 1.5 * radius
            poly = tuple((round(cx + radius * math.cos(math.radians(a)), 6), round(cy + radius * math.sin(math.radians(a)), 6)) for a in (-90, -30, 30, 90, 150, 210))
            b.add(name, (r, 2 * c + r), poly)
    n = rows * cols
    b.directions = [d for d, _, _ in _HEX_DIRS]
    b.steps = [[n] * n for _ in _HEX_DIRS]
    for r in range(rows):
        for c in range(cols):
            cell = r * cols + c
            for d, (_, dr, dc) in enumerate(_HEX_DIRS):
                if 0 <= r + dr < rows and 0 <= c + dc < cols:
                    b.steps[d][cell] = (r + dr) * cols + c + dc
                    b.link(cell, b.steps[d][cell])
    return b


def _graph(spec: YMap, get) -> RawBoard:
    """Named nodes and undirected edges, as given. A node is a name, or ``{name: a, at: [x, y]}``
    to say where it is drawn (x to the right, y down, any unit). Give every node a place or
    none: without places the nodes are laid out on a circle in the order they are listed, so
    the same spec always draws the same picture. A node's "polygon" is its single centre point."""
    from ..spec.yamlpos import YList

    nodes = spec.get("nodes")
    edges = spec.get("edges")
    if not isinstance(nodes, YList) or not len(nodes):
        raise SpecError("a graph board needs 'nodes': a list of node names (or {name: a, at: [x, y]})", spec.pos)
    b = RawBoard()
    ids: dict[str, int] = {}
    places: list[tuple[float, float] | None] = []
    for node in nodes:
        row = _graph_row(node)
        for k, (name, place) in enumerate(row or [_graph_node(node)]):
            if name in ids:
                raise SpecError(f"node '{name}' is listed twice", node.pos)
            if places and (place is None) != (places[0] is None):
                first = "has" if places[0] is not None else "has no"
                raise SpecError(f"node '{name}' {'has no' if place is None else 'has a'} place but the first node {first} 'at:'; give every node 'at: [x, y]' or none", node.pos)
            i = len(places)
            places.append(place)
            ids[name] = b.add(name, (i // 8, 10 * (i % 8)), ())
            if k and row is not None and _linked(node):
                b.link(ids[name] - 1, ids[name])  # a linked row: each node to the next
    layout = spec.get("layout")
    if layout is not None:
        if places[0] is not None:
            raise SpecError("a graph board places its nodes by 'layout' or by 'at', not both", layout.pos)
        places = _graph_layout(layout, ids)
    n = len(places)
    for i, place in enumerate(places):
        if place is None:
            angle = 2 * math.pi * i / n - math.pi / 2  # the first node at the top, then clockwise
            place = (round(math.cos(angle) * max(1.0, n / 4), 6), round(math.sin(angle) * max(1.0, n / 4), 6))
        b.polygons[i] = (place,)
    if edges is not None and not isinstance(edges, YList) and getattr(edges, "value", 0) is not None:
        raise SpecError("a graph board's 'edges' is a list of pairs of node names, like [[a, b], [b, c]]", edges.pos)
    for edge in [path for entry in edges for path in _star(entry)] if isinstance(edges, YList) else []:
        if not isinstance(edge, YList) or len(edge) < 2:
            raise SpecError("an edge is a list of two node names, like [a, b] (or of more: a path, each linked to the next)", edge.pos)
        ends = []
        for end in edge:
            name = str(getattr(end, "value", ""))
            if name not in ids:
                from ..errors import did_you_mean

                raise SpecError(f"unknown node '{name}' in edge", end.pos, did_you_mean(name, ids))
            ends.append(ids[name])
        for a, z in zip(ends, ends[1:]):  # a path [a, b, c]: the edges a-b and b-c, in order
            b.link(a, z)
    return b


def _star(edge) -> list:
    """An entry of ``edges`` as the paths it stands for: a star ``{from: hub, to: [a, b]}``
    is the pairs ``[hub, a], [hub, b]``, in order (the hub linked to each node listed);
    any other entry is itself."""
    from ..spec.yamlpos import YList, YScalar

    if not isinstance(edge, YMap):
        return [edge]
    hub, spokes = edge.items.get("from"), edge.items.get("to")
    if set(edge.items) != {"from", "to"} or not isinstance(hub, YScalar) or not isinstance(spokes, YList) or not len(spokes):
        raise SpecError("a star of edges is {from: hub, to: [a, b, ...]}: the hub linked to each node listed", edge.pos)
    return [YList([hub, spoke], spoke.pos) for spoke in spokes]


MAX_ROW = 256
_ROW_KEYS = ("row", "count", "at", "step", "linked")


def _graph_row(node) -> "list[tuple[str, tuple[float, float] | None]] | None":
    """A row of nodes, ``{row: pit, count: 3, at: [x, y], step: [dx, dy], linked: true}``:
    the nodes ``pit.1`` .. ``pit.3``, the first at [x, y] (or none: no places) and each
    next one step further (default [1, 0]); ``linked``: each linked to the next. None for
    an entry that is not a row."""
    from ..errors import did_you_mean
    from ..spec.yamlpos import YScalar

    if not isinstance(node, YMap) or "row" not in node.items:
        return None
    for key in node.items:
        if key not in _ROW_KEYS:
            raise SpecError(f"unknown key '{key}' for a row of graph nodes", node.key_pos[key], did_you_mean(key, list(_ROW_KEYS)) or "a row has " + ", ".join(_ROW_KEYS))
    base = node.get("row")
    count = node.get("count")
    if not isinstance(base, YScalar) or not isinstance(base.value, str):
        raise SpecError("a row of nodes is named by a string: 'row: pit' gives pit.1, pit.2, ...", base.pos)
    if not isinstance(count, YScalar) or isinstance(count.value, bool) or not isinstance(count.value, int) or not 1 <= count.value <= MAX_ROW:
        raise SpecError(f"a row of nodes needs 'count': how many, 1 to {MAX_ROW}", (count or node).pos)
    linked = node.get("linked")
    if linked is not None and not isinstance(getattr(linked, "value", None), bool):
        raise SpecError("'linked' is true or false", linked.pos)
    start = _xy(node.get("at")) if "at" in node.items else None
    step = _xy(node.get("step")) if "step" in node.items else (1.0, 0.0)
    if "step" in node.items and start is None:
        raise SpecError("a row's 'step' moves its places: give the first node's place with 'at: [x, y]'", node.key_pos["step"])
    return [(f"{base.value}.{k + 1}", None if start is None else (start[0] + k * step[0], start[1] + k * step[1])) for k in range(count.value)]


def _linked(node) -> bool:
    return bool(getattr(node.get("linked"), "value", False))


def _concentric(spec: YMap, get) -> RawBoard:
    """``rings`` squares one inside the other, their sides joined at the middles (the
    board of the mill games): the points are each square's corners and side middles, on a
    grid of ``2 * rings + 1`` lines with the centre left out. Points are named like a
    square board's cells (``{col_letter}{row_from_bottom}`` by default) and listed row by
    row from the top, left to right; the lines join neighbouring points along a square's
    side and along the cross from one square's middle to the next. Directions n, e, s, w
    step along those lines (off the board where a line ends), so ``line(c, 3)`` is three
    of a player's points along one line. It is drawn as a graph with the points placed
    on the grid."""
    rings = get("rings", int, lo=1, hi=20)
    template = get("cell_name", str, default="{col_letter}{row_from_bottom}")
    side = 2 * rings
    # a square's corners are as far from the centre across as down, its middles on the cross
    pts = [(y, x) for y in range(side + 1) for x in range(side + 1)
           if (x, y) != (rings, rings) and (x == rings or y == rings or abs(x - rings) == abs(y - rings))]
    b = RawBoard()
    letters = string.ascii_lowercase
    at: dict[tuple[int, int], int] = {}
    for i, (y, x) in enumerate(pts):
        name = _fmt(template, spec.pos, row=y, col=x, row1=y + 1, col1=x + 1, col_letter=letters[x % 26] * (1 + x // 26), row_from_bottom=side + 1 - y)
        at[(x, y)] = b.add(name, (i // 8, 10 * (i % 8)), ((float(x), float(y)),))
    n = len(pts)
    b.directions = ["n", "e", "s", "w"]
    b.steps = [[n] * n for _ in b.directions]
    # neighbouring points of a row (then of a column) are joined unless the centre lies
    # between them; rows first, then columns, as a spec listing the edges would
    for axis in (0, 1):
        for line in range(side + 1):
            row = sorted(v for v in range(side + 1) if ((v, line) if axis == 0 else (line, v)) in at)
            for u, v in zip(row, row[1:]):
                if u < rings < v and line == rings:
                    continue
                a, c = (at[(u, line)], at[(v, line)]) if axis == 0 else (at[(line, u)], at[(line, v)])
                b.link(a, c)
                forward, back = (1, 3) if axis == 0 else (2, 0)  # e/w along a row, s/n down a column
                b.steps[forward][a] = c
                b.steps[back][c] = a
    return b


MAX_PLACE = 1e6


def _graph_layout(layout, ids: dict[str, int]) -> list:
    """``layout``: the board drawn as text, one row per line, the nodes' names in their
    columns and ``.`` for an empty place; every node once. Places only: the board order
    stays the order of ``nodes``."""
    from ..errors import did_you_mean
    from ..spec.yamlpos import YScalar

    if not isinstance(layout, YScalar) or not isinstance(layout.value, str) or not layout.value.strip():
        raise SpecError("a graph board's 'layout' is text: one line per row of the picture, the node names in their columns and '.' for a gap", layout.pos)
    text = layout.value
    places: list = [None] * len(ids)
    offset = 0
    for y, line in enumerate(text.split("\n")):
        for m in re.finditer(r"\S+", line):
            word, at = m.group(), layout.text_pos(offset + m.start())
            if word == ".":
                continue
            if word not in ids:
                raise SpecError(f"unknown node '{word}' in the layout", at, did_you_mean(word, ids) or "list it under 'nodes' too")
            if places[ids[word]] is not None:
                raise SpecError(f"node '{word}' is twice in the layout", at)
            places[ids[word]] = (float(len(line[:m.start()].split())), float(y))  # column: the words before it
        offset += len(line) + 1
    missing = [name for name, i in ids.items() if places[i] is None]
    if missing:
        raise SpecError(f"node '{missing[0]}' is not in the layout: every node has a place in it", layout.pos)
    return places
_DECIMAL = re.compile(r"[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?")


def _graph_node(node) -> tuple[str, "tuple[float, float] | None"]:
    """A node entry: a plain name, or ``{name: ..., at: [x, y]}``."""
    from ..errors import did_you_mean
    from ..spec.yamlpos import YScalar

    if isinstance(node, YScalar):
        if node.value is None:
            raise SpecError("a node name must be a string", node.pos)
        return str(node.value), None
    if not isinstance(node, YMap):
        raise SpecError("a node is a name, or {name: a, at: [x, y]}", node.pos)
    for key in node.items:
        if key not in ("name", "at"):
            raise SpecError(f"unknown key '{key}' for a graph node", node.key_pos[key], did_you_mean(key, ["name", "at"]) or "a node has 'name' and 'at'")
    name_node = node.get("name")
    if not isinstance(name_node, YScalar) or name_node.value is None or isinstance(name_node.value, bool):
        raise SpecError("a node needs a 'name' (a string)", (name_node or node).pos)
    at = node.get("at")
    if at is None:
        raise SpecError(f"node '{name_node.value}' needs 'at: [x, y]' (or write just its name)", node.pos)
    xy = _xy(at)
    return str(name_node.value), xy


def _xy(at) -> tuple[float, float]:
    """A place ``[x, y]``: two finite numbers."""
    from ..spec.yamlpos import YList

    if not isinstance(at, YList) or len(at) != 2:
        raise SpecError("'at' is a list of two numbers [x, y]", at.pos)
    xy = []
    for v in at:
        value = getattr(v, "value", None)
        if isinstance(value, str) and _DECIMAL.fullmatch(value):  # YAML floats stay text (cell names like 6.6)
            value = float(value)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or abs(value) > MAX_PLACE:
            raise SpecError(f"a node's place is given by two numbers between -{MAX_PLACE:g} and {MAX_PLACE:g}", v.pos)
        xy.append(float(value))
    return xy[0], xy[1]


TOPOLOGIES: dict[str, Callable] = {"triangle": _triangle, "square": _square, "graph": _graph, "hex": _hex, "concentric": _concentric}

# A topology drawn and shown as another one (the IR names how a board is laid out): a
# concentric board is a graph whose nodes have places.
DRAWN_AS: dict[str, str] = {"concentric": "graph"}

# which keys each topology accepts (besides 'topology' and 'props')
# The direction sets every board of a topology has (board.direction_sets adds more):
# name -> its directions, in the board's direction order.
BUILTIN_DIRECTION_SETS: dict[str, dict[str, tuple[str, ...]]] = {
    "square": {"orthogonal": ("n", "e", "s", "w"), "diagonal": ("ne", "se", "sw", "nw")},
    "hex": {},
    "concentric": {},
}

TOPOLOGY_KEYS = {
    "triangle": {"size", "cell_name", "affixed"},
    "square": {"size", "rows", "cols", "wrap", "neighbourhood", "cell_name"},
    "graph": {"nodes", "edges", "layout"},
    "hex": {"rows", "cols", "cell_name"},
    "concentric": {"rings", "cell_name"},
}
