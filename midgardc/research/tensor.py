"""Observation tensors: a fixed-shape float32 vector per player, read generically from a state.

The layout depends only on the IR (spec, variant, player count), never on the position, and
is described by a ``Schema``: a list of named parts (name, shape, offset) over one flat
float32 vector. What a viewer sees is decided exactly as ``state.observation(player)``
decides it (``midgardc.runtime.observe``: the ``SEES`` table, ``counter_seen``, ``places``):

- ``board``            (players, kinds, cells): 1 where the cell holds a piece of that owner
                       and kind (the board is public);
- ``height``           (cells,): the stack height on each cell (only when the spec has stacks);
- ``hand``             (players, kinds): pieces of each kind in each player's hand (public);
- ``counters``         (players, player counters): each value the viewer may see, 0 otherwise
                       (a typed counter's value as the engines hold it: an enumeration
                       value, a player or a kind by its index, a cell by its number, none
                       as -1, a cell's none as the number of cells);
- ``counters_known``   (players, player counters): 1 where the viewer sees the value;
- ``game_counters`` / ``game_counters_known`` (game counters,): the same for the game's;
- ``places_size``      (places,): how many items each item place holds (sizes are public);
- ``places_known``     (places,): 1 where the viewer sees the place's contents;
- ``places_items``     (places, item kinds): count per item kind in each place the viewer
                       sees (0 where it does not); places in ``observe.places`` order;
- ``roll``             (dice, faces): one-hot faces of the current roll (0 before a roll);
- ``chance_due``       (1,): 1 when a roll is due;
- ``current``          (players,): one-hot of whose turn it is (all 0 once the game is over).

Hidden values are 0 *and* flagged unknown (``*_known``), so 0 never means two things.
Parts that would be empty (no counters, no items, no dice) are left out of the schema.
The order of an ordered place (a deck, a pile) is not encoded: only its counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import TYPE_CHECKING, Any, Optional

import numpy as np

from ..ir.nodes import GameIR
from ..runtime.observe import DECK_PLACES, GAME, SEES, counter_seen, places

if TYPE_CHECKING:  # pragma: no cover
    from ..runtime.game import State


@dataclass(frozen=True)
class Part:
    name: str
    shape: tuple[int, ...]
    offset: int

    @property
    def size(self) -> int:
        return prod(self.shape)


@dataclass(frozen=True)
class Schema:
    """The tensor's layout: named parts laid end to end in one flat float32 vector."""

    parts: tuple[Part, ...]

    @property
    def size(self) -> int:
        return sum(p.size for p in self.parts)

    @property
    def shape(self) -> tuple[int]:
        return (self.size,)

    def part(self, name: str) -> Part:
        for p in self.parts:
            if p.name == name:
                return p
        raise KeyError(name)

    def view(self, tensor: np.ndarray, name: str) -> np.ndarray:
        """The part ``name`` of a flat tensor, in its own shape (a view, not a copy)."""
        p = self.part(name)
        return tensor[p.offset : p.offset + p.size].reshape(p.shape)

    def __str__(self) -> str:
        lines = [f"{'part':<22}{'shape':<18}offset"]
        for p in self.parts:
            lines.append(f"{p.name:<22}{str(p.shape):<18}{p.offset}")
        lines.append(f"{'(total)':<22}{str(self.shape):<18}")
        return "\n".join(lines)


def _n_places(ir: GameIR) -> int:
    n = ir.n_players * len(DECK_PLACES) if ir.deck is not None else 0
    if ir.zones is not None:
        n += sum(ir.zones.n_players if z.per_player else 1 for z in ir.zones.zones)
    return n


_SCHEMAS: dict[int, tuple[GameIR, Schema]] = {}


def schema(ir: GameIR) -> Schema:
    """The tensor layout of a game (the same for every state and viewer of it)."""
    hit = _SCHEMAS.get(id(ir))
    if hit is not None and hit[0] is ir:
        return hit[1]
    P, C = ir.n_players, ir.board.n_cells
    shapes: list[tuple[str, tuple[int, ...]]] = [("board", (P, ir.n_kinds, C))]
    if ir.stacks:
        shapes.append(("height", (C,)))
    shapes.append(("hand", (P, ir.n_kinds)))
    if ir.player_counters:
        shapes += [("counters", (P, len(ir.player_counters))), ("counters_known", (P, len(ir.player_counters)))]
    if ir.game_counters:
        shapes += [("game_counters", (len(ir.game_counters),)), ("game_counters_known", (len(ir.game_counters),))]
    n_places = _n_places(ir)
    if n_places:
        shapes += [("places_size", (n_places,)), ("places_known", (n_places,)), ("places_items", (n_places, max(ir.n_item_kinds, 1)))]
    if ir.chance is not None:
        shapes += [("roll", (ir.chance.dice, ir.chance.n_faces)), ("chance_due", (1,))]
    shapes.append(("current", (P,)))
    parts, offset = [], 0
    for name, shape in shapes:
        parts.append(Part(name, shape, offset))
        offset += prod(shape)
    out = Schema(tuple(parts))
    _SCHEMAS[id(ir)] = (ir, out)
    return out


# the bounds of each part's values (``bounds``): what the part can hold by its meaning (a
# one-hot or a 0/1 flag), else what the engines' storage can hold (a number counter is a
# 64-bit int, a hand or a count of items a 32-bit int, a stack height a 16-bit one)
INT32, INT64 = (-(2**31), 2**31 - 1), (-(2**63), 2**63 - 1)
_PART_BOUNDS: dict[str, tuple[int, int]] = {
    "board": (0, 1), "height": (0, 2**16 - 1), "hand": INT32,
    "counters_known": (0, 1), "game_counters_known": (0, 1),
    "places_size": (0, INT32[1]), "places_known": (0, 1), "places_items": (0, INT32[1]),
    "roll": (0, 1), "chance_due": (0, 1), "current": (0, 1),
}


def _counter_bounds(ir: GameIR, counter: int) -> tuple[int, int]:
    """A counter's values: a number's are the engines' 64-bit ints; a condition's 0 and 1;
    any other type's its values' indices, none (-1, or a cell's n_cells) included."""
    from ..ir.nodes import BOOL, INT
    from ..ir.values import counter_type, value_names

    typ = counter_type(ir, counter)
    if typ == INT:
        return INT64
    if typ == BOOL:
        return (0, 1)
    return (-1, max(len(value_names(ir, typ)), 1))


def bounds(ir: GameIR) -> tuple[np.ndarray, np.ndarray]:
    """Finite float32 (low, high) of every value of the tensor (Gymnasium's and
    PettingZoo's ``Box`` bounds): no value of any state's tensor lies outside them."""
    sch = schema(ir)
    low, high = np.zeros(sch.size, np.float32), np.zeros(sch.size, np.float32)
    for part in sch.parts:
        lo, hi = sch.view(low, part.name), sch.view(high, part.name)
        if part.name in ("counters", "game_counters"):
            which = ir.player_counters if part.name == "counters" else ir.game_counters
            for j, i in enumerate(which):
                lo[..., j], hi[..., j] = _counter_bounds(ir, i)
            lo[...] = np.minimum(lo, 0)  # (a hidden value is written 0)
            continue
        lo[...], hi[...] = _PART_BOUNDS[part.name]
    return low, high


def observation_tensor(state: "State", viewer: int, out: Optional[np.ndarray] = None) -> np.ndarray:
    """Player ``viewer``'s observation tensor (flat float32, layout ``schema(ir)``); written
    into ``out`` when given (any float buffer of the schema's size). A compiled state's
    tensor is written in C (``native_tensor``), an interpreted one's in Python
    (``python_tensor``); both write the same values."""
    module = getattr(state.game.engine, "module", None)
    if module is not None and hasattr(module, "write_tensor"):
        return native_tensor(state, viewer, out)
    return python_tensor(state, viewer, out)


def python_tensor(state: "State", viewer: int, out: Optional[np.ndarray] = None) -> np.ndarray:
    """The tensor written in Python from the engine's fields (any back end)."""
    ir = state.game.ir
    if not 0 <= viewer < ir.n_players:
        raise ValueError(f"no player {viewer} (players 0..{ir.n_players - 1})")
    sch = schema(ir)
    if out is None:
        out = np.zeros(sch.size, dtype=np.float32)
    else:
        out[: sch.size] = 0
    core: Any = state.core
    write_board(ir, sch, core, out)
    hand = sch.view(out, "hand")
    for p in range(ir.n_players):
        hand[p, :] = core.hands[p][: ir.n_kinds]
    if ir.player_counters:
        vals, known = sch.view(out, "counters"), sch.view(out, "counters_known")
        for p in range(ir.n_players):
            row = core.counters[p]
            for j, i in enumerate(ir.player_counters):
                if counter_seen(ir, i, viewer, p):
                    vals[p, j] = row[i]
                    known[p, j] = 1
    if ir.game_counters:
        vals, known = sch.view(out, "game_counters"), sch.view(out, "game_counters_known")
        row = core.counters[ir.n_players]
        for j, i in enumerate(ir.game_counters):
            if counter_seen(ir, i, viewer, GAME):
                vals[j] = row[i]
                known[j] = 1
    if _n_places(ir):
        size, known, items = sch.view(out, "places_size"), sch.view(out, "places_known"), sch.view(out, "places_items")
        for n, place in enumerate(places(state)):
            size[n] = len(place.items)
            if SEES[place.visible](viewer, place.owner):
                known[n] = 1
                for k in place.items:
                    items[n, k] += 1
    if ir.chance is not None:
        roll = sch.view(out, "roll")
        for d, f in enumerate(core.roll[: ir.chance.dice]):
            if f >= 0:
                roll[d, f] = 1
        sch.view(out, "chance_due")[0] = 1 if core.chance else 0
    if not core.terminal and 0 <= core.current < ir.n_players:
        sch.view(out, "current")[core.current] = 1
    return out


# -- the compiled writer's inputs ---------------------------------------------------------------


@dataclass(frozen=True)
class NativeFacts:
    """What the compiled writer (``compiler/templates/tensor.pyx.j2``) is handed: the offset
    of each part of ``compiler.tensor.TENSOR_PARTS`` (-1: not in this schema), then the
    size; per viewer, 0/1 bytes: which item places it sees (``places`` order) and which
    counters ([row][counter], row ``n_players`` the game's)."""

    layout: np.ndarray  # intc, len(TENSOR_PARTS) + 1
    places: tuple[np.ndarray, ...]  # uint8 per viewer (at least one byte)
    counters: tuple[np.ndarray, ...]  # uint8 per viewer, (n_players + 1) * counters (at least one byte)


def place_visibility(ir: GameIR) -> list[tuple[int, str]]:
    """(owner, visibility) of every item place, in the order of ``runtime.observe.places``
    (a fact of the spec: the places never change, only their contents)."""
    out = []
    if ir.deck is not None:
        out += [(p, visible) for p in range(ir.n_players) for _, visible, _, _ in DECK_PLACES]
    if ir.zones is not None:
        for z in ir.zones.zones:
            out += [(o if z.per_player else GAME, z.visible) for o in range(ir.zones.n_players if z.per_player else 1)]
    return out


_NATIVE: dict[int, tuple[GameIR, NativeFacts]] = {}


def native_facts(ir: GameIR) -> NativeFacts:
    hit = _NATIVE.get(id(ir))
    if hit is not None and hit[0] is ir:
        return hit[1]
    from ..compiler.tensor import TENSOR_PARTS

    sch = schema(ir)
    names = {p.name: p.offset for p in sch.parts}
    unknown = set(names) - set(TENSOR_PARTS)
    if unknown:  # a part the C writer does not fill: a bug in midgardc
        raise AssertionError(f"compiler/tensor.py TENSOR_PARTS lacks {sorted(unknown)}")
    layout = np.array([names.get(n, -1) for n in TENSOR_PARTS] + [sch.size], dtype=np.intc)
    vis = place_visibility(ir)
    n_counters = len(ir.counters)
    places_, counters_ = [], []
    for v in range(ir.n_players):
        places_.append(np.array([SEES[visible](v, owner) for owner, visible in vis] or [0], dtype=np.uint8))
        rows = [[counter_seen(ir, i, v, p) for i in range(n_counters)] for p in range(ir.n_players)]
        rows.append([counter_seen(ir, i, v, GAME) for i in range(n_counters)])
        counters_.append(np.array([x for row in rows for x in row] or [0], dtype=np.uint8))
    out = NativeFacts(layout, tuple(places_), tuple(counters_))
    _NATIVE[id(ir)] = (ir, out)
    return out


def native_tensor(state: "State", viewer: int, out: Optional[np.ndarray] = None) -> np.ndarray:
    """The tensor written in C by the compiled engine into ``out`` (float32, contiguous):
    no Python object per value."""
    ir = state.game.ir
    if not 0 <= viewer < ir.n_players:
        raise ValueError(f"no player {viewer} (players 0..{ir.n_players - 1})")
    facts = native_facts(ir)
    if out is None:
        out = np.empty(int(facts.layout[-1]), dtype=np.float32)
    elif out.dtype != np.float32 or not out.flags.c_contiguous:  # (written whole, then copied)
        out[: int(facts.layout[-1])] = native_tensor(state, viewer)
        return out
    state.game.engine.module.write_tensor(state.core, out, facts.layout, facts.places[viewer], facts.counters[viewer])
    return out


def write_board(ir: GameIR, sch: Schema, core: Any, out: np.ndarray) -> None:
    board = np.asarray(core.board, dtype=np.int64)[: ir.board.n_cells]
    planes = sch.view(out, "board").reshape(ir.n_players * ir.n_kinds, ir.board.n_cells)
    occupied = np.nonzero(board > 0)[0]
    # piece id 1 + owner * n_kinds + kind: plane index owner * n_kinds + kind = id - 1
    planes[board[occupied] - 1, occupied] = 1
    if ir.stacks:
        h = sch.view(out, "height")
        h[:] = np.asarray(core.heights, dtype=np.float32)[: ir.board.n_cells] * (board > 0)


def main(argv: Optional[list[str]] = None) -> int:
    """``python -m midgardc.research.tensor SPEC [VARIANT] [PLAYERS]``: print the schema."""
    import sys

    from ..errors import MidgardcError
    from ..spec.lower import load_game_ir

    args = sys.argv[1:] if argv is None else argv
    if not 1 <= len(args) <= 3:
        print("usage: python -m midgardc.research.tensor SPEC [VARIANT|-] [PLAYERS]", file=sys.stderr)
        return 1
    variant = args[1] if len(args) > 1 and args[1] != "-" else None
    if len(args) > 2 and not args[2].isdigit():
        print(f"error: PLAYERS must be a number, not {args[2]!r}", file=sys.stderr)
        return 1
    players = int(args[2]) if len(args) > 2 else None
    try:
        ir = load_game_ir(args[0], variant, players)
    except (MidgardcError, OSError) as exc:
        print(str(exc), file=sys.stderr)
        return 1
    print(schema(ir))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
