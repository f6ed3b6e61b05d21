"""Lowering of ``tables:``: a rule table (a scoring ladder, a value per kind or per player)
written once as data instead of a chain of ``if ... then ... else``.

    tables:
      ladder: {key: 0..4, values: [0, 3, 7, 12, 20]}   # read as ladder[n]
      weight: {key: kind, values: {pawn: 1, queen: 9}, default: 0}

A table becomes an ``AttributeIR`` (midgardc/ir/values.py), so the compiled engine reads a
constant array and the interpreter a tuple, with no new node in either back end. A table
must give every key unless it names a ``default``; a number outside a range key reads the
default (0 or none unless given), like an element outside a counter array."""

from __future__ import annotations

from typing import Optional

from ..conditions.words import a_type
from ..errors import SpecError
from ..ir.nodes import BOOL, CELL, INT
from ..ir.values import AttributeIR, default_value
from .values import _RANGE
from .yamlpos import YList, YMap, YNode, YScalar

MAX_TABLE_KEYS = 4096


def lower_tables(lw, node: Optional[YNode], first: int) -> tuple[AttributeIR, ...]:
    """``tables:`` as attributes numbered from ``first``; fills ``lw.names.tables``."""
    if node is None:
        return ()
    if not isinstance(node, YMap):
        raise SpecError("'tables' maps a table's name to {key, values}, e.g. points: {key: 0..3, values: [0, 1, 3, 6]}", node.pos)
    out = []
    for tname, body in node.items.items():
        tpos = node.key_pos[tname]
        lw.ident(tname, tpos, "table name")
        names = lw.names
        taken = (names.props, names.counters, names.game_counters, names.constants, names.player_props, names.arrays, names.attributes, names.tables, names.defines, names.dir_sets, names.pools)
        if any(tname in t for t in taken):
            raise SpecError(f"'{tname}' is already a name in this spec", tpos)
        body = lw.keys(body, "table", f"table '{tname}'")
        key_type, lo, labels = _key(lw, body["key"], tname)
        typ = lw.value_type(body["type"], "a table's type") if "type" in body else INT
        what = f"table '{tname}'"
        default = lw.constant(body["default"], typ, what) if "default" in body else None
        values = _values(lw, body["values"], tname, labels)
        missing = [label for label, v in zip(labels, values) if v is None]
        if missing and default is None:
            shown = ", ".join(missing[:5]) + (", ..." if len(missing) > 5 else "")
            raise SpecError(f"table '{tname}' gives no value for {shown}", body["values"].pos, "give every key a value, or a 'default' for the keys left out")
        fallback = default_value(typ, lw.board.n_cells) if default is None else default
        table = [fallback] + [fallback if v is None else lw.constant(v, typ, what) for v in values]
        # entry 0 is the default (a number outside the range, or none); key x is entry x - lo + 1
        names.tables[tname] = (first + len(out), key_type, typ, lo, len(labels))
        out.append(AttributeIR(tname, key_type, typ, tuple(table), 1 - lo, len(labels) if key_type == INT else 0))
    return tuple(out)


def _key(lw, node: YNode, tname: str) -> tuple[str, int, list[str]]:
    """The key type, its first number (0 but for a range) and the keys' names in order."""
    word = lw.scalar(node, str, "a table's key") if not isinstance(getattr(node, "value", None), int) else str(node.value)
    m = _RANGE.match(word)
    if m:
        lo, hi = int(m.group(1)), int(m.group(2))
        if not 0 < hi - lo + 1 <= MAX_TABLE_KEYS:
            raise SpecError(f"the key range {word} of table '{tname}' must hold 1 to {MAX_TABLE_KEYS} numbers (LO..HI with LO <= HI)", node.pos)
        return INT, lo, [str(k) for k in range(lo, hi + 1)]
    typ = lw.value_type(node, "a table's key")
    if typ in (INT, BOOL, CELL):
        hint = "a number range LO..HI" if typ == INT else ""
        raise SpecError(f"a table's key is a number range LO..HI, a player, a kind, an item, a face, a dir or an enumeration, not {a_type(typ)}" + (" (for a cell, declare an attribute)" if typ == CELL else ""), node.pos, hint)
    labels = lw.value_names(typ)
    if not labels:
        raise SpecError(f"there are no {word} values to key table '{tname}' by", node.pos)
    return typ, 0, labels


def _values(lw, node: YNode, tname: str, labels: list[str]) -> list[Optional[YNode]]:
    """One value node per key, in key order (None: left out)."""
    if isinstance(node, YList):
        if len(node.items) != len(labels):
            raise SpecError(f"table '{tname}' has {len(labels)} keys ({labels[0]} to {labels[-1]}) but {len(node.items)} values", node.pos, "give one value per key, in order, or map keys to values")
        return list(node.items)
    if not isinstance(node, YMap):
        raise SpecError(f"table '{tname}': values is a list (one per key, in order) or maps each key to its value", node.pos)
    out: list[Optional[YNode]] = [None] * len(labels)
    for key, value in node.items.items():
        text = str(key)
        if text not in labels:
            from ..errors import did_you_mean

            raise SpecError(f"'{text}' is not a key of table '{tname}' (keys: {labels[0]} to {labels[-1]})", node.key_pos[key], did_you_mean(text, labels))
        out[labels.index(text)] = value
    return out
