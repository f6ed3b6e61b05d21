"""How the checker names types in messages, and where an expression starts."""

from __future__ import annotations

from ..ir.nodes import BOOL, CELL, DIR, FACE, INT, ITEM, KIND, NONE, PLAYER, ZONE
from .parse import Ast, Op

# How types are named in messages: a designer thinks in conditions and numbers.
TYPE_WORDS = {BOOL: "condition", INT: "number", CELL: "cell", PLAYER: "player", KIND: "piece kind", DIR: "direction", FACE: "die face", ITEM: "item", ZONE: "zone", NONE: "none"}


def a_type(typ: str) -> str:
    """'a condition', 'a number', 'a cell', ... for messages."""
    word = TYPE_WORDS.get(typ, typ.split(":", 1)[-1] + " value")  # an enumeration: 'a suit value'
    return ("an " if word[:1] in "aeiou" else "a ") + word


def _start(node: Ast) -> int:
    """Offset of the leftmost character of an expression (an operator's left operand)."""
    if isinstance(node, Op) and len(node.args) == 2:
        return _start(node.args[0])
    return node.at


