"""Values of every type: the none value of each type and how a value is written.

A counter, a definition, an ``either``/``if`` expression or an attribute may hold a value
of any type (a cell, a player, a kind of piece or of item, a die face, an enumeration
value); both back ends store it as the plain int of ``midgardc.ir.nodes`` (a cell index,
a seat, an ordinal), and the types that have one have a *none* value, written ``none``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from .nodes import BOOL, CELL, DIR, ENUM_PREFIX, FACE, INT, ITEM, KIND, PLAYER, GameIR

@dataclass(frozen=True)
class AttributeIR:
    """A named attribute (``attributes:``): a fixed value of type ``type`` for every value
    of type ``of`` (a cell, player, kind, item, face, dir or enumeration value). ``table``
    is indexed by ``x + offset``: a cell's table has ``n_cells + 1`` entries (the last, the
    off-board cell's, is the default); the others have ``offset`` 1, entry 0 being none's
    (the default). Read with Call("attr", (Const(index), x)), typed ``type``.

    A table keyed by a number range (``tables:``, ``of`` a number) has ``keys`` > 0: entry
    ``x + offset`` for x in the range (1..keys), entry 0 (its default) for any other x, so
    a number outside the range reads the default in both back ends instead of another
    table's memory."""

    name: str
    of: str
    type: str
    table: tuple[int, ...]
    offset: int
    keys: int = 0


NULLABLE = (CELL, PLAYER, KIND, ITEM, FACE)  # and every enumeration


def is_enum(typ: str) -> bool:
    return typ.startswith(ENUM_PREFIX)


def enum_type(name: str) -> str:
    return ENUM_PREFIX + name


def has_none(typ: str) -> bool:
    return typ in NULLABLE or is_enum(typ)


def none_value(typ: str, n_cells: int) -> Optional[int]:
    """The int of ``none`` in type ``typ`` (None: the type has no none value)."""
    if typ == CELL:
        return n_cells  # the off-board cell
    if has_none(typ):
        return -1
    return None


def default_value(typ: str, n_cells: int) -> int:
    """What a counter of this type holds when the spec gives no start: none, or 0."""
    v = none_value(typ, n_cells)
    return 0 if v is None else v


def value_names(ir: GameIR, typ: str) -> tuple[str, ...]:
    """The names of the values of a finite type, by index ((): numbers, conditions)."""
    if typ == CELL:
        return ir.board.cell_names
    if typ == PLAYER:
        return ir.players
    if typ == KIND:
        return ir.kinds
    if typ == ITEM:
        return ir.item_names
    if typ == DIR:
        return ir.board.directions
    if typ == FACE:
        return ir.chance.faces if ir.chance is not None else ()
    if is_enum(typ):
        return dict(ir.enums).get(typ[len(ENUM_PREFIX) :], ())
    return ()


def value_text(ir: GameIR, typ: str, value: int):
    """A value as a person reads it: a number stays a number, a condition is true/false,
    anything else is its name (or ``none``)."""
    if typ == INT:
        return value
    if typ == BOOL:
        return bool(value)
    names = value_names(ir, typ)
    return names[value] if 0 <= value < len(names) else "none"


def counter_type(ir: GameIR, counter: int) -> str:
    return ir.counter_types[counter] if ir.counter_types else INT


def counter_text(ir: GameIR, counter: int, value: int):
    """A counter's value as JSON and people read it (a number, true/false or a name)."""
    return value if not ir.counter_types else value_text(ir, ir.counter_types[counter], value)


def counter_lines(ir: GameIR, columns, value, seen=lambda i: True) -> list[str]:
    """The counters of some columns as people read them: the plain ones on one line,
    ``name v, name v``, then each array on a line of its own, ``seeds: a1 4, a2 4, ...``
    (a two-index element as ``a1/red``); a value the viewer may not see is '?'."""
    plain: list[str] = []
    arrays: dict[str, list[str]] = {}
    for i in columns:
        name = ir.counters[i]
        text = counter_text(ir, i, value(i)) if seen(i) else "?"
        text = str(text).lower() if isinstance(text, bool) else str(text)
        if "[" in name:
            head, sub = name[:-1].split("[", 1)
            arrays.setdefault(head, []).append(f"{sub.replace(',', '/')} {text}")
        else:
            plain.append(f"{name} {text}")
    return ([", ".join(plain)] if plain else []) + [f"{head}: {', '.join(items)}" for head, items in arrays.items()]
