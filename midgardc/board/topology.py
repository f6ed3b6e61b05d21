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
    for i, node in enumerate(nodes):
        name, place = _graph_node(node)
        if name in ids:
            raise SpecError(f"node '{name}' is listed twice", node.pos)
        if places and (place is None) != (places[0] is None):
            first = "has" if places[0] is not None else "has no"
            raise SpecError(f"node '{name}' {'has no' if place is None else 'has a'} place but the first node {first} 'at:'; give every node 'at: [x, y]' or none", node.pos)
        places.append(place)
        ids[name] = b.add(name, (i // 8, 10 * (i % 8)), ())
    n = len(places)
    for i, place in enumerate(places):
        if place is None:
            angle = 2 * math.pi * i / n - math.pi / 2  # the first node at the top, then clockwise
            place = (round(math.cos(angle) * max(1.0, n / 4), 6), round(math.sin(angle) * max(1.0, n / 4), 6))
        b.polygons[i] = (place,)
    if edges is not None and not isinstance(edges, YList) and getattr(edges, "value", 0) is not None:
        raise SpecError("a graph board's 'edges' is a list of pairs of node names, like [[a, b], [b, c]]", edges.pos)
    for edge in edges if isinstance(edges, YList) else []:
        if not isinstance(edge, YList) or len(edge) != 2:
            raise SpecError("an edge is a list of two node names, like [a, b]", edge.pos)
        ends = []
        for end in edge:
            name = str(getattr(end, "value", ""))
            if name not in ids:
                from ..errors import did_you_mean

                raise SpecError(f"unknown node '{name}' in edge", end.pos, did_you_mean(name, ids))
            ends.append(ids[name])
        b.link(*ends)
    return b


MAX_PLACE = 1e6
_DECIMAL = re.compile(r"[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?")


def _graph_node(node) -> tuple[str, "tuple[float, float] | None"]:
    """A node entry: a plain name, or ``{name: ..., at: [x, y]}``."""
    from ..errors import did_you_mean
    from ..spec.yamlpos import YList, YScalar

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
    return str(name_node.value), (xy[0], xy[1])


TOPOLOGIES: dict[str, Callable] = {"triangle": _triangle, "square": _square, "graph": _graph, "hex": _hex}

# which keys each topology accepts (besides 'topology' and 'props')
# The direction sets every board of a topology has (board.direction_sets adds more):
# name -> its directions, in the board's direction order.
BUILTIN_DIRECTION_SETS: dict[str, dict[str, tuple[str, ...]]] = {
    "square": {"orthogonal": ("n", "e", "s", "w"), "diagonal": ("ne", "se", "sw", "nw")},
    "hex": {},
}

TOPOLOGY_KEYS = {
    "triangle": {"size", "cell_name", "affixed"},
    "square": {"rows", "cols", "wrap", "neighbourhood", "cell_name"},
    "graph": {"nodes", "edges"},
    "hex": {"rows", "cols", "cell_name"},
}
