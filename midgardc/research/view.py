"""Learning-ready views of the observation tensor: the mover's point of view, counts in
[0, 1], a spatial ``(C, H, W)`` layout and history planes, each an option.

The raw tensor (``midgardc.research.tensor``, the default everywhere) holds seats in
absolute order and counts as the engines hold them. A ``View`` rewrites it, element by
element, from an *extended* raw vector::

    ext = raw tensor | board part (+ heights) of the k-1 positions before this one,
          newest first (0 before the game's start) | times_seen() (a spec with history:)

Every element of a view is one of (``op``): a copy of ``ext[src]``; a count normalised,
``clip((ext[src] - lo) / (hi - lo), 0, 1)``; or a one-hot ``ext[src] == value`` (a typed
counter: a cell, a player, an enumeration's value...). An element may be gated by a
visibility flag (``ext[gate] != 0``, else 0): a hidden value stays 0 in every view. The
tables (``src, gate, op, a, b`` per viewer) are numbers only, so the compiled ``Batch``
applies them in C (``midgardc/engine/generic.pyx``, as ``Runs``: a board plane, a mirrored
plane's rows, a constant plane each one run) and Python applies them with numpy; both
give the same floats.

Options (``ViewOptions``; ``view_options`` reads words such as ``"canonical,spatial"``):

* ``canonical``: seats ordered from the viewer (``me``, ``+1``, ``+2`` ... the next seats in
  turn order) in every per-seat part, a player-valued counter's one-hot likewise; and
  when the spec declares ``observation.forward`` (a player property of directions), the
  board mirrored for a seat whose forward direction is opposite seat 0's, so every seat
  sees itself moving the same way (cell ``d`` of the view shows cell ``perm[v][d]``).
* ``normalised``: every count in [0, 1] by its declared scale (``observation.scale``),
  else a derived one: hands and heights by the pieces in the game at the start (all
  hands and the board), item places by the items in the game, a payoff counter by the
  ``returns:`` bounds; a number counter with no maximum by the game's horizon (else its
  ``max_plies``, the safety stop: no game takes more moves, so a count of moves stays
  below it), values beyond clipped.
* ``spatial``: ``(C, H, W)``: the board's cells placed on the text board's grid (its rows
  and columns, in the spec's cell order: top row first), one plane per (seat, kind) and
  per cell-valued counter; every other value a constant plane.
* ``history``: k positions (this one included) in the board planes: ``board-1`` is the
  position before the last player move, and so on; a spec's ``observation.history`` is
  the default. A spec with ``history:`` adds ``repetition``: ``times_seen()`` of this
  position.

In any view other than the raw one, typed counters are one-hot (so a cell or a player
turns with the view) and the ``*_known`` flags are kept only where a value may be hidden.
``View.describe()`` (and ``print(view)``) names every plane or part, its shape and the
cell order.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable, Optional, Union

import numpy as np

from ..ir.nodes import BOOL, CELL, INT, PLAYER, GameIR
from ..ir.values import counter_type, value_names
from ..runtime.observe import DECK_PLACES, GAME, counter_seen
from .tensor import observation_tensor, place_visibility, schema

if TYPE_CHECKING:  # pragma: no cover
    from ..runtime.game import State

COPY, NORM, EQ = 0, 1, 2  # the element operations (the C loop reads the same codes)

#: Words of ``view_options`` and the options each turns on.
WORDS: dict[str, dict[str, bool]] = {
    "raw": {},
    "canonical": {"canonical": True},
    "normalised": {"normalised": True},
    "normalized": {"normalised": True},
    "spatial": {"spatial": True},
    "learning": {"canonical": True, "normalised": True, "spatial": True},
}


@dataclass(frozen=True)
class ViewOptions:
    """Which learning-ready options a view has (see the module's doc). ``history``: the
    positions in the board planes (None: the spec's ``observation.history``, else 1)."""

    canonical: bool = False
    normalised: bool = False
    spatial: bool = False
    history: Optional[int] = None


Observation = Union[None, str, dict, ViewOptions]


def view_options(obs: Observation) -> Optional[ViewOptions]:
    """The options ``obs`` asks for: None or ``"raw"`` (the raw tensor), words of ``WORDS``
    joined by ``,`` or ``+`` (``"canonical,normalised"``, ``"learning"``), with
    ``history=K`` among them; a dict of ``ViewOptions``' fields; or ``ViewOptions``."""
    if obs is None or isinstance(obs, ViewOptions):
        return obs
    if isinstance(obs, dict):
        unknown = set(obs) - set(ViewOptions.__dataclass_fields__)
        if unknown:
            raise ValueError(f"observation options: unknown {sorted(unknown)} (canonical, normalised, spatial, history)")
        return ViewOptions(**obs)
    if not isinstance(obs, str):
        raise ValueError(f"observation: a word such as 'canonical', a dict or ViewOptions, not {obs!r}")
    if obs.strip() == "raw":
        return None
    flags: dict[str, Any] = {}
    for word in obs.replace("+", ",").split(","):
        word = word.strip()
        if word.startswith("history="):
            value = word[len("history="):]
            if not value.isdigit() or int(value) < 1:
                raise ValueError(f"observation: history=K needs K >= 1, not {value!r}")
            flags["history"] = int(value)
        elif word in WORDS:
            flags.update(WORDS[word])
        else:
            raise ValueError(f"observation: unknown option {word!r} ({', '.join(WORDS)}, history=K)")
    return ViewOptions(**flags)


@dataclass(frozen=True)
class Feature:
    """A named block of the view: its axes (name, labels) and, per viewer and index, its
    element (src, gate, op, a, b). ``cells``: the last axis is the board's cells."""

    name: str
    axes: tuple[tuple[str, tuple[str, ...]], ...]
    elem: Callable[[int, tuple[int, ...]], tuple[int, int, int, float, float]]
    cells: bool = False

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(len(labels) for _, labels in self.axes)


@dataclass(frozen=True)
class Entry:
    """One part of a flat view (``shape``, axes' labels) or one plane of a spatial one."""

    name: str
    shape: tuple[int, ...]
    offset: int
    axes: tuple[tuple[str, tuple[str, ...]], ...] = ()


class View:
    """A learning-ready view of a game's tensor (see the module's doc): its shape, its
    description, and per viewer the element tables applied to the extended raw vector."""

    def __init__(self, ir: GameIR, options: ViewOptions):
        self.ir = ir
        obs_ir = ir.observation
        k = options.history if options.history is not None else (obs_ir.history if obs_ir is not None else 1)
        if k < 1:
            raise ValueError("history: at least 1 position (this one)")
        self.options = replace(options, history=k)
        sch = self.raw = schema(ir)
        P, K, C = ir.n_players, ir.n_kinds, ir.board.n_cells
        self.hist_src = sch.part("board").offset  # board then heights: contiguous in the schema
        self.hist_size = P * K * C + (C if ir.stacks else 0)
        self.hist_off = sch.size
        self.rep_off = sch.size + (k - 1) * self.hist_size if ir.history is not None else -1
        self.ext_size = sch.size + (k - 1) * self.hist_size + (1 if ir.history is not None else 0)
        self._scales = {name: (lo, hi) for name, lo, hi in (obs_ir.scales if obs_ir is not None else ())}
        self._grid()
        self.perm = self._cell_perms() if options.canonical else [list(range(C))] * P
        features = self._features()
        self._layout(features)

    # -- seats, cells, scales ---------------------------------------------------------

    def seat(self, v: int, r: int) -> int:
        """The absolute seat shown at position r for viewer v."""
        return (v + r) % self.ir.n_players if self.options.canonical else r

    def seat_labels(self) -> tuple[str, ...]:
        P = self.ir.n_players
        if self.options.canonical:
            return ("me",) + tuple(f"+{r}" for r in range(1, P))
        return tuple(self.ir.players)

    def _grid(self) -> None:
        """H x W: the text board's distinct rows and columns; ``grid[h][w]``: the cell there
        (-1: none)."""
        coords = self.ir.board.coords or tuple((0, c) for c in range(self.ir.board.n_cells))
        rows = sorted({r for r, _ in coords})
        cols = sorted({c for _, c in coords})
        self.H, self.W = len(rows), len(cols)
        self.pos = [(rows.index(r), cols.index(c)) for r, c in coords]
        self.grid = [[-1] * self.W for _ in range(self.H)]
        for cell, (h, w) in enumerate(self.pos):
            self.grid[h][w] = cell

    def _cell_perms(self) -> list[list[int]]:
        """perm[v][d]: the cell shown at cell d for viewer v (mirrored where v's forward is
        opposite seat 0's; seat 0, and every seat without a declared forward, as is)."""
        ir = self.ir
        C = ir.board.n_cells
        fwd = ir.observation.forward if ir.observation is not None else ()
        if not fwd:
            return [list(range(C))] * ir.n_players
        sign = [self._direction(d) for d in fwd]
        out = []
        for v in range(ir.n_players):
            (r0, c0), (rv, cv) = sign[0], sign[v]
            if (rv, cv) == (r0, c0):
                out.append(list(range(C)))
                continue
            if (rv, cv) != (-r0, -c0):
                raise ValueError(f"{ir.title}: the canonical view mirrors a seat whose forward direction is opposite seat 0's; {ir.players[v]}'s is neither the same nor opposite")
            perm = []
            for cell in range(C):
                h, w = self.pos[cell]
                h2, w2 = (self.H - 1 - h if r0 else h), (self.W - 1 - w if c0 else w)
                other = self.grid[h2][w2]
                if other < 0:
                    raise ValueError(f"{ir.title}: the board is not symmetric: {ir.board.cell_names[cell]} has no mirror cell for the canonical view")
                perm.append(other)
            out.append(perm)
        return out

    def _direction(self, d: int) -> tuple[int, int]:
        """The grid's (row, column) signs of one step in direction d."""
        steps = self.ir.board.steps[d]
        for cell, to in enumerate(steps):
            if to < len(steps):
                (h1, w1), (h2, w2) = self.pos[cell], self.pos[to]
                return ((h2 > h1) - (h2 < h1), (w2 > w1) - (w2 < w1))
        raise ValueError(f"{self.ir.title}: direction {self.ir.board.directions[d]} never leads from a cell to another")

    def cell(self, v: int, d: int) -> int:
        return self.perm[v][d]

    def _pieces_in_game(self) -> int:
        ir = self.ir
        board = ir.initial_board or ()
        heights = ir.initial_heights or ()
        on_board = sum((heights[c] if heights else 1) for c, piece in enumerate(board) if piece > 0)
        return max(1, sum(map(sum, ir.hand_init)) + on_board)

    def scale(self, names: tuple[str, ...], default: tuple[int, int]) -> tuple[float, float]:
        """(a, b) of a normalised count: a the minimum, b 1 / (max - min); the first of
        ``names`` the spec declares a scale for, else ``default``."""
        for name in names:
            if name in self._scales:
                lo, hi = self._scales[name]
                break
        else:
            lo, hi = default
        return float(lo), 1.0 / float(hi - lo)

    def _count(self, src: int, gate: int, names: tuple[str, ...], default: tuple[int, int]) -> tuple[int, int, int, float, float]:
        if not self.options.normalised:
            return (src, gate, COPY, 0.0, 1.0)
        return (src, gate, NORM, *self.scale(names, default))

    # -- the features -----------------------------------------------------------------

    def _features(self) -> list[Feature]:
        ir, sch = self.ir, self.raw
        P, K, C = ir.n_players, ir.n_kinds, ir.board.n_cells
        seats, kinds, cells = self.seat_labels(), tuple(ir.kinds), tuple(ir.board.cell_names)
        moves = ir.horizon if ir.horizon is not None else ir.max_plies
        pieces = self._pieces_in_game()
        off = {p.name: p.offset for p in sch.parts}
        out: list[Feature] = []

        def board_feature(name: str, base: int) -> Feature:
            return Feature(name, (("seat", seats), ("kind", kinds), ("cell", cells)),
                           lambda v, i: (base + (self.seat(v, i[0]) * K + i[1]) * C + self.cell(v, i[2]), -1, COPY, 0.0, 1.0), cells=True)

        def height_feature(name: str, base: int) -> Feature:
            return Feature(name, (("cell", cells),), lambda v, i: self._count(base + self.cell(v, i[0]), -1, ("height",), (0, pieces)), cells=True)

        out.append(board_feature("board", off["board"]))
        if ir.stacks:
            out.append(height_feature("height", off["height"]))
        for j in range(1, self.options.history):
            base = self.hist_off + (j - 1) * self.hist_size
            out.append(board_feature(f"board-{j}", base))
            if ir.stacks:
                out.append(height_feature(f"height-{j}", base + P * K * C))
        if self.rep_off >= 0:
            out.append(Feature("repetition", (("times_seen", ("",)),), lambda v, i: self._count(self.rep_off, -1, ("repetition",), (0, moves))))
        if K:
            out.append(Feature("hand", (("seat", seats), ("kind", kinds)),
                               lambda v, i: self._count(off["hand"] + self.seat(v, i[0]) * K + i[1], -1, (kinds[i[1]],), (0, pieces))))
        hidden = self._may_hide()
        n_pc = len(ir.player_counters)
        for j, ci in enumerate(ir.player_counters):
            out.append(self._counter(ci, lambda v, r, j=j: off["counters"] + self.seat(v, r) * n_pc + j,
                                     lambda v, r, j=j: off["counters_known"] + self.seat(v, r) * n_pc + j, seats, moves))
        if ir.player_counters and hidden:
            out.append(Feature("counters_known", (("seat", seats), ("counter", tuple(ir.counters[i] for i in ir.player_counters))),
                               lambda v, i: (off["counters_known"] + self.seat(v, i[0]) * n_pc + i[1], -1, COPY, 0.0, 1.0)))
        for j, ci in enumerate(ir.game_counters):
            out.append(self._counter(ci, lambda v, r, j=j: off["game_counters"] + j, lambda v, r, j=j: off["game_counters_known"] + j, None, moves))
        if ir.game_counters and hidden:
            out.append(Feature("game_counters_known", (("counter", tuple(ir.counters[i] for i in ir.game_counters)),),
                               lambda v, i: (off["game_counters_known"] + i[0], -1, COPY, 0.0, 1.0)))
        if "places_size" in off:
            out += self._places(off)
        if ir.chance is not None:
            out.append(Feature("roll", (("die", tuple(str(d) for d in range(ir.chance.dice))), ("face", tuple(ir.chance.faces))),
                               lambda v, i: (off["roll"] + i[0] * ir.chance.n_faces + i[1], -1, COPY, 0.0, 1.0)))
            out.append(Feature("chance_due", (("", ("",)),), lambda v, i: (off["chance_due"], -1, COPY, 0.0, 1.0)))
        out.append(Feature("current", (("seat", seats),), lambda v, i: (off["current"] + self.seat(v, i[0]), -1, COPY, 0.0, 1.0)))
        return out

    def _may_hide(self) -> bool:
        ir = self.ir
        rows = [*range(ir.n_players), GAME]
        return any(not counter_seen(ir, i, v, r) for i in range(len(ir.counters)) for v in range(ir.n_players) for r in rows)

    def _counter(self, ci: int, src: Callable[[int, int], int], gate: Callable[[int, int], int], seats: Optional[tuple[str, ...]], moves: int) -> Feature:
        """A counter (per seat when ``seats``): a number a count, a condition a copy, any
        other type one-hot over its values (a cell's over the view's cells, a player's
        over the view's seats)."""
        ir = self.ir
        name = ir.counters[ci]
        typ = counter_type(ir, ci)
        lead = (("seat", seats),) if seats is not None else ()
        n = len(lead)

        def r_of(i: tuple[int, ...]) -> int:
            return i[0] if n else 0

        if typ == INT:
            if ir.returns is not None and ir.returns.counter == ci:
                default = (int(ir.returns.lo), int(ir.returns.hi))
            else:
                default = (0, moves)
            names = (name, name.split("[")[0])
            return Feature(name, lead or (("", ("",)),), lambda v, i: self._count(src(v, r_of(i)), gate(v, r_of(i)), names, default))
        if typ == BOOL:
            return Feature(name, lead or (("", ("",)),), lambda v, i: (src(v, r_of(i)), gate(v, r_of(i)), COPY, 0.0, 1.0))
        if typ == CELL:
            return Feature(name, lead + (("cell", tuple(ir.board.cell_names)),),
                           lambda v, i: (src(v, r_of(i)), gate(v, r_of(i)), EQ, float(self.cell(v, i[n])), 1.0), cells=True)
        if typ == PLAYER:
            return Feature(name, lead + (("player", self.seat_labels()),),
                           lambda v, i: (src(v, r_of(i)), gate(v, r_of(i)), EQ, float(self.seat(v, i[n])), 1.0))
        labels = tuple(str(x) for x in value_names(ir, typ))
        return Feature(name, lead + (("value", labels),), lambda v, i: (src(v, r_of(i)), gate(v, r_of(i)), EQ, float(i[n]), 1.0))

    def _places(self, off: dict[str, int]) -> list[Feature]:
        """The item places (``runtime.observe.places`` order), a seat's own turned with the
        view: the place shown at index j for viewer v."""
        ir = self.ir
        P = ir.n_players
        keys: list[tuple[str, int]] = []  # (group, owner) per place
        if ir.deck is not None:
            keys += [(zone, p) for p in range(P) for zone, *_ in DECK_PLACES]
        if ir.zones is not None:
            for z in ir.zones.zones:
                keys += [(z.name, o) for o in range(ir.zones.n_players)] if z.per_player else [(z.name, GAME)]
        assert len(keys) == len(place_visibility(ir))
        index = {key: n for n, key in enumerate(keys)}
        seats = self.seat_labels()

        def place(v: int, j: int) -> int:
            group, owner = keys[j]
            return j if owner == GAME else index[(group, self.seat(v, owner))]

        labels = tuple(group if owner == GAME else f"{group}[{seats[owner]}]" for group, owner in keys)
        items = ir.item_names or ("",)
        total = ir.deck.size * P if ir.deck is not None else (ir.zones.capacity if ir.zones is not None else 1)
        n_items = max(ir.n_item_kinds, 1)
        return [
            Feature("places_size", (("place", labels),), lambda v, i: self._count(off["places_size"] + place(v, i[0]), -1, ("items",), (0, total))),
            Feature("places_known", (("place", labels),), lambda v, i: (off["places_known"] + place(v, i[0]), -1, COPY, 0.0, 1.0)),
            Feature("places_items", (("place", labels), ("item", tuple(items))),
                    lambda v, i: self._count(off["places_items"] + place(v, i[0]) * n_items + i[1], -1, ("items",), (0, total))),
        ]

    # -- the layout -------------------------------------------------------------------

    def _layout(self, features: list[Feature]) -> None:
        """Lay the features out (flat: one part each; spatial: one plane per index of the
        non-cell axes, a non-cell value repeated over the grid) and build the tables."""
        P = self.ir.n_players
        rows: list[list[tuple[int, int, int, float, float]]] = [[] for _ in range(P)]
        entries: list[Entry] = []
        zero = (-1, -1, COPY, 0.0, 1.0)
        HW = self.H * self.W
        for f in features:
            start = len(rows[0])
            lead = f.shape[:-1] if f.cells else f.shape
            for idx in np.ndindex(*lead) if lead else [()]:
                if self.options.spatial:
                    label = ",".join(f.axes[a][1][x] for a, x in enumerate(idx) if f.axes[a][1][x])
                    entries.append(Entry(f"{f.name}[{label}]" if label else f.name, (self.H, self.W), len(entries) * HW))
                    for v in range(P):
                        if f.cells:
                            rows[v] += [f.elem(v, idx + (d,)) if d >= 0 else zero for line in self.grid for d in line]
                        else:
                            rows[v] += [f.elem(v, idx)] * HW
                else:
                    for v in range(P):
                        if f.cells:
                            rows[v] += [f.elem(v, idx + (d,)) for d in range(f.shape[-1])]
                        else:
                            rows[v].append(f.elem(v, idx))
            if not self.options.spatial:
                entries.append(Entry(f.name, f.shape, start, f.axes))
        self.entries = tuple(entries)
        size = len(rows[0])
        self.size = size
        self.shape: tuple[int, ...] = (len(entries), self.H, self.W) if self.options.spatial else (size,)
        self.src = np.array([[r[0] for r in row] for row in rows], dtype=np.intc).reshape(P, size)
        self.gate = np.array([[r[1] for r in row] for row in rows], dtype=np.intc).reshape(P, size)
        self.op = np.array([[r[2] for r in row] for row in rows], dtype=np.uint8).reshape(P, size)
        self.a = np.array([[r[3] for r in row] for row in rows], dtype=np.float32).reshape(P, size)
        self.b = np.array([[r[4] for r in row] for row in rows], dtype=np.float32).reshape(P, size)
        self.runs = self._runs(rows)

    @staticmethod
    def _runs(rows: list[list[tuple[int, int, int, float, float]]]) -> "Runs":
        """The element tables as runs, for the C loop: consecutive elements of one gate,
        operation and scale whose source (and one-hot value) step evenly: a constant plane
        is one run, a board row or plane another."""
        per_seat = []
        for row in rows:
            runs: list[list] = []  # [src, src_step, gate, op, a, a_step, b, length]
            for src, gate, op, a, b in row:
                if runs:
                    r = runs[-1]
                    if r[2] == gate and r[3] == op and r[6] == b and (op == EQ or a == r[4]):
                        if r[7] == 1 and (src < 0) == (r[0] < 0) and float(a - r[4]).is_integer():
                            r[1], r[5], r[7] = (src - r[0] if src >= 0 else 0), int(a - r[4]), 2
                            continue
                        if r[7] > 1 and (r[0] < 0 and src < 0 or r[0] >= 0 and src >= 0 and src == r[0] + r[1] * r[7]) and a == r[4] + r[5] * r[7]:
                            r[7] += 1
                            continue
                runs.append([src, 0, gate, op, a, 0, b, 1])
            per_seat.append(runs)
        # runs of one length whose sources (and values) step evenly from one to the next
        # become the rows of one run: a mirrored plane's rows read the board backwards
        blocks = []
        for runs in per_seat:
            out: list[list] = []  # [src, src_step, gate, op, a, a_step, b, length, rows, row_step, a_row_step]
            for r in runs:
                if out:
                    q = out[-1]
                    same = q[1:4] == r[1:4] and q[5:8] == r[5:8] and (q[0] < 0) == (r[0] < 0) and (r[3] == EQ or r[4] == q[4])
                    d_src, d_a = (r[0] - q[0] if r[0] >= 0 else 0), r[4] - q[4]
                    if same and q[8] == 1 and float(d_a).is_integer():
                        q[8], q[9], q[10] = 2, d_src, int(d_a)
                        continue
                    if same and q[8] > 1 and (r[0] < 0 or r[0] == q[0] + q[9] * q[8]) and r[4] == q[4] + q[10] * q[8]:
                        q[8] += 1
                        continue
                out.append(r + [1, 0, 0])
            blocks.append(out)
        width = max(len(r) for r in blocks)
        for runs in blocks:  # (padded to one width with empty runs)
            runs += [[-1, 0, -1, COPY, 0.0, 0, 1.0, 0, 1, 0, 0]] * (width - len(runs))
        col = lambda k, dtype: np.ascontiguousarray(np.array([[r[k] for r in runs] for runs in blocks], dtype=dtype))
        return Runs(col(0, np.intc), col(1, np.intc), col(2, np.intc), col(3, np.uint8), col(4, np.float32), col(5, np.intc), col(6, np.float32), col(7, np.intc),
                    col(8, np.intc), col(9, np.intc), col(10, np.intc))

    # -- applying it ------------------------------------------------------------------

    def apply(self, ext: np.ndarray, viewer: int, out: Optional[np.ndarray] = None) -> np.ndarray:
        """The view of an extended raw vector for ``viewer`` (float32, in ``self.shape``)."""
        src, gate, op = self.src[viewer], self.gate[viewer], self.op[viewer]
        x = np.where(src >= 0, ext[np.maximum(src, 0)], 0).astype(np.float32)
        norm = np.clip((x - self.a[viewer]) * self.b[viewer], np.float32(0), np.float32(1)).astype(np.float32)
        val = np.where(op == NORM, norm, np.where(op == EQ, (x == self.a[viewer]).astype(np.float32), x))
        val = np.where(src >= 0, val, 0)
        val = np.where((gate < 0) | (ext[np.maximum(gate, 0)] != 0), val, 0).astype(np.float32)
        if out is None:
            return val.reshape(self.shape)
        out.reshape(-1)[:] = val
        return out

    def extended(self, state: "State", viewer: int, past: Optional["Positions"] = None) -> np.ndarray:
        """The extended raw vector of ``state`` for ``viewer``: its tensor, the boards of
        ``past`` (newest first) and ``times_seen()``."""
        ext = np.zeros(self.ext_size, np.float32)
        observation_tensor(state, viewer, ext[: self.raw.size])
        if past is not None:
            for j, board in enumerate(list(past.boards)[: self.options.history - 1]):
                ext[self.hist_off + j * self.hist_size : self.hist_off + (j + 1) * self.hist_size] = board
        if self.rep_off >= 0:
            ext[self.rep_off] = state.core.times_seen()
        return ext

    def tensor(self, state: "State", viewer: int, past: Optional["Positions"] = None, out: Optional[np.ndarray] = None) -> np.ndarray:
        """``viewer``'s view of ``state`` (with ``past``'s boards in the history planes)."""
        if not 0 <= viewer < self.ir.n_players:
            raise ValueError(f"no player {viewer} (players 0..{self.ir.n_players - 1})")
        return self.apply(self.extended(state, viewer, past), viewer, out)

    def board_part(self, state: "State") -> np.ndarray:
        """The board part (and heights) of a state's tensor: what the history keeps."""
        raw = observation_tensor(state, 0)
        return raw[self.hist_src : self.hist_src + self.hist_size].copy()

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Finite float32 (low, high) of every value (Gymnasium's ``Box``): 0 and 1 for a
        one-hot, a flag or a normalised count; a copied count's raw bounds."""
        from .tensor import bounds as raw_bounds

        lo_raw, hi_raw = raw_bounds(self.ir)
        ext_lo = np.concatenate([lo_raw, np.tile(lo_raw[self.hist_src : self.hist_src + self.hist_size], self.options.history - 1), [0.0] * (self.rep_off >= 0)]).astype(np.float32)
        ext_hi = np.concatenate([hi_raw, np.tile(hi_raw[self.hist_src : self.hist_src + self.hist_size], self.options.history - 1), [float(self.ir.max_plies + 1)] * (self.rep_off >= 0)]).astype(np.float32)
        low = np.zeros(self.size, np.float32)
        high = np.ones(self.size, np.float32)
        for v in range(self.ir.n_players):  # (the same for every viewer: take the widest)
            src, op = self.src[v], self.op[v]
            copy = (op == COPY) & (src >= 0)
            low[copy] = np.minimum(low[copy], np.minimum(ext_lo[src[copy]], 0))
            high[copy] = np.maximum(high[copy], ext_hi[src[copy]])
        return low.reshape(self.shape), high.reshape(self.shape)

    # -- the description --------------------------------------------------------------

    def describe(self) -> dict[str, Any]:
        """The view as data a researcher can print: shape, options, every plane (spatial)
        or part (flat) with its offset, the grid's cell order, the seats' order."""
        ir = self.ir
        grid = [[ir.board.cell_names[d] if d >= 0 else None for d in line] for line in self.grid]
        mirrored = [v for v in range(ir.n_players) if self.perm[v] != list(range(ir.board.n_cells))]
        out: dict[str, Any] = {
            "game": ir.title,
            "shape": self.shape,
            "options": {"canonical": self.options.canonical, "normalised": self.options.normalised, "spatial": self.options.spatial, "history": self.options.history},
            "seats": list(self.seat_labels()) if self.options.canonical else list(ir.players),
            "seat_order": "from the viewer: me, then the next seats in turn order" if self.options.canonical else "absolute: the spec's players",
            "mirrored_for": [ir.players[v] for v in mirrored],
        }
        if self.options.spatial:
            out["cells"] = grid
            out["planes"] = [e.name for e in self.entries]
        else:
            out["cells"] = list(ir.board.cell_names)
            out["parts"] = [{"name": e.name, "shape": e.shape, "offset": e.offset, "axes": [a for a, _ in e.axes]} for e in self.entries]
        return out

    def plane(self, name: str) -> int:
        """The index of a spatial view's plane (or a flat part's offset) named ``name``."""
        for n, e in enumerate(self.entries):
            if e.name == name:
                return n if self.options.spatial else e.offset
        raise KeyError(name)

    def __str__(self) -> str:
        d = self.describe()
        opts = ", ".join(f"{k}={v}" for k, v in d["options"].items())
        lines = [f"{d['game']}: view {d['shape']} ({opts}); seats: {', '.join(d['seats'])}"]
        if d["mirrored_for"]:
            lines.append(f"board mirrored for: {', '.join(d['mirrored_for'])}")
        if self.options.spatial:
            lines.append("cells (row by row, top first): " + " / ".join(" ".join(c or "-" for c in row) for row in d["cells"]))
            lines += [f"{n:>4}  {name}" for n, name in enumerate(d["planes"])]
        else:
            lines += [f"{p['name']:<28}{str(p['shape']):<18}{p['offset']}" for p in d["parts"]]
        return "\n".join(lines)


@dataclass(frozen=True)
class Runs:
    """A view's tables as runs per seat ([players, runs] each): run r writes ``rows[r]``
    rows of ``length[r]`` elements, element t of row u from ``ext[src + u * row_step + t *
    src_step]`` by ``op`` (one-hot value ``a + u * a_row_step + t * a_step``), all 0 unless
    ``ext[gate] != 0`` (gate -1: always; src -1: all 0)."""

    src: np.ndarray
    src_step: np.ndarray
    gate: np.ndarray
    op: np.ndarray
    a: np.ndarray
    a_step: np.ndarray
    b: np.ndarray
    length: np.ndarray
    rows: np.ndarray
    row_step: np.ndarray
    a_row_step: np.ndarray


class Positions:
    """The board parts of the positions before this one, newest first (at most k-1): what
    the history planes show. ``push(state)`` before each player's move; a new game starts
    with none."""

    def __init__(self, view: View):
        self.view = view
        self.boards: deque = deque(maxlen=max(view.options.history - 1, 0))

    def push(self, state: "State") -> None:
        if self.boards.maxlen:
            self.boards.appendleft(self.view.board_part(state))

    def clear(self) -> None:
        self.boards.clear()

    def copy(self) -> "Positions":
        other = Positions(self.view)
        other.boards.extend(self.boards)
        return other


_VIEWS: dict[tuple[int, ViewOptions], tuple[GameIR, View]] = {}


def make_view(ir: GameIR, obs: Observation) -> Optional[View]:
    """The view ``obs`` asks for (``view_options``), or None for the raw tensor; cached per
    game and options."""
    options = view_options(obs)
    if options is None:
        return None
    key = (id(ir), options)
    hit = _VIEWS.get(key)
    if hit is not None and hit[0] is ir:
        return hit[1]
    view = View(ir, options)
    _VIEWS[key] = (ir, view)
    return view
