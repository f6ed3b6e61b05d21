"""Type checking of values of every type (a part of ``Checker``, see check.py): the
literal ``none``, cell names as literals, ``either``/``if`` of any type, counters holding
cells, players, kinds, items or enumeration values, and counter arrays ``name[i, j]``."""

from __future__ import annotations

from typing import Optional

from ..errors import did_you_mean
from ..ir.nodes import BOOL, CELL, INT, NONE, PLAYER, Call, Const, Expr
from ..ir.values import has_none, none_value
from .parse import Ast, CallA, Choice, Index
from .words import _start, a_type


class TypedValues:
    """Mixin of ``Checker``: needs ``names``, ``fail``, ``_expr`` and ``a_type``."""

    # -- none ---------------------------------------------------------------------------

    def coerce(self, e: Expr, typ: str, at: int) -> Expr:
        """``e`` as a value of ``typ``: the literal ``none`` takes the type it meets, and
        a name that is both a cell's and another value's (a place and a value named after
        it) is the cell where a cell is wanted."""
        if typ == CELL and e.type not in (CELL, NONE):
            return self.as_cell(e)
        if e.type != NONE or typ == NONE:
            return e
        value = none_value(typ, self.names.n_cells)
        if value is None:

            raise self.fail(f"{a_type(typ)} has no 'none' value", at, "none is a cell (off the board), a player (nobody), a kind, an item, a face or an enumeration value")
        return Const(value, typ)

    def unify(self, left: Expr, right: Expr, at: int, what: str, sides: tuple[int, int] = (-1, -1)) -> tuple[Expr, Expr]:
        """Two values that must have one type (== and !=, the two sides of a choice);
        ``sides``: where each side starts (for a 'none' that cannot take the other's type)."""

        if left.type == NONE and right.type == NONE:
            raise self.fail("cannot tell which type 'none' is here; one side must say it", at)
        if left.type == NONE:
            left = self.coerce(left, right.type, at if sides[0] < 0 else sides[0])
        elif right.type == NONE:
            right = self.coerce(right, left.type, at if sides[1] < 0 else sides[1])
        if left.type == CELL:
            right = self.as_cell(right)
        elif right.type == CELL:
            left = self.as_cell(left)
        if left.type != right.type:
            raise self.fail(what.format(a_type(left.type), a_type(right.type)), at)
        return left, right

    def as_cell(self, e: Expr) -> Expr:
        """A constant written by a name that is also a cell's name, as that cell (else
        ``e`` as it is): names resolve to the other value first (see 'Names')."""
        if isinstance(e, Const) and e.type != CELL:
            for name, (value, typ) in self.names.constants.items():
                if (value, typ) == (e.value, e.type) and name in self.names.cells:
                    return Const(self.names.cells[name], CELL)
        return e

    # -- either(cond, a, b) and if cond then a else b ---------------------------------------

    def choice(self, node, scope: dict[str, str]) -> Expr:

        if isinstance(node, Choice):
            parts, name = (node.when, node.then, node.other), "if"
        else:
            if len(node.args) != 3:
                raise self.fail(f"function 'either' takes 3 arguments (condition, value, value), got {len(node.args)}", node.at)
            parts, name = node.args, "either"
        when = self._expr(parts[0], scope)
        if when.type != BOOL:
            raise self.fail(f"the condition of '{name}' must be a condition, got {a_type(when.type)}", _start(parts[0]))
        yes, no = self._expr(parts[1], scope), self._expr(parts[2], scope)
        yes, no = self.unify(yes, no, _start(parts[2]), f"the two values of '{name}' must have one type, but one is {{}} and the other {{}}", (_start(parts[1]), _start(parts[2])))
        return Call("either", (when, yes, no), yes.type)

    # -- counters of every type and counter arrays ------------------------------------------

    def counter_read(self, name: str, player: Optional[Expr]) -> Expr:
        """A per-player counter of ``player`` (None: the game counter ``name``)."""
        typ = self.names.counter_types.get(name, INT)
        if player is None:
            return Call("game_counter", (Const(self.names.game_counters[name], INT),), typ)
        index = Const(self.names.counters[name], INT)
        if typ == INT:
            return Call("counter", (index, player), INT)
        # a counter of nobody reads as the type's none (0 for a condition or direction)
        return Call("typed_counter", (index, player, Const(none_value(typ, self.names.n_cells) or 0, INT)), typ)

    def attribute(self, node: CallA, scope: dict[str, str]) -> Expr:
        """``suit(card)``: a named attribute of a value (``attributes:``)."""
        index, of, typ = self.names.attributes[node.name]
        (arg,) = self._args(node, scope, (of,), "attribute")
        return Call("attr", (Const(index, INT), arg), typ)

    def enum_domain(self, name: str):
        """``any s in suit: ...``: the values of an enumeration, in declared order."""
        from ..ir.nodes import Domain

        typ = self.names.types[name]
        size = sum(1 for v, t in self.names.constants.values() if t == typ)
        return Domain("enum", (Const(size, INT),), typ)

    def cell_literal(self, name: str) -> Optional[Expr]:
        c = self.names.cells.get(name)
        return None if c is None else Const(c, CELL)

    def index(self, node: Index, scope: dict[str, str]) -> Expr:
        """``name[i, j]``: an element of a counter array (see ``Names.arrays``)."""

        arrays = self.names.arrays
        if node.name in self.names.tables:
            return self.table_read(node, scope)
        if node.name not in arrays:
            if node.name in self.names.counters or node.name in self.names.game_counters:
                raise self.fail(f"'{node.name}' is not an array (it has no 'index'); read it as {node.name}{'(p)' if node.name in self.names.counters else ''}", node.at)
            raise self.fail(f"'{node.name}' is not a counter array", node.at, did_you_mean(node.name, list(arrays)))
        col, per_player, dims, typ = arrays[node.name]
        want = ([PLAYER] if per_player else []) + [d[0] for d in dims]
        if len(node.args) != len(want):
            words = [d[0][5:] if d[0].startswith("enum:") else ("number" if d[0] == INT else a_type(d[0]).split(" ", 1)[1]) for d in dims]
            form = ", ".join((["PLAYER"] if per_player else []) + [w.upper().replace(" ", "_") for w in words])
            raise self.fail(f"'{node.name}' takes {len(want)} index{'es' if len(want) != 1 else ''}: {node.name}[{form}]", node.at)
        got = []
        for i, (arg, t) in enumerate(zip(node.args, want)):
            e = self.coerce(self._expr(arg, scope), t, _start(arg))
            if e.type != t:
                raise self.fail(f"index {i + 1} of '{node.name}' must be {a_type(t)}, got {a_type(e.type)}", _start(arg))
            got.append(e)
        row = got.pop(0) if per_player else Const(self.names.game_row, PLAYER)
        args: list[Expr] = [Const(col, INT), row, Const(none_value(typ, self.names.n_cells) or 0, INT)]
        for (t, lo, size), e in zip(dims, got):
            args += [Const(lo, INT), Const(size, INT), e]
        return Call("counter_at", tuple(args), typ)

    def table_read(self, node: Index, scope: dict[str, str]) -> Expr:
        """``name[key]``: an entry of a table (``tables:``, midgardc/spec/tables.py); a
        fixed number outside a range key is an error here, any other reads the default."""
        index, key_type, typ, lo, size = self.names.tables[node.name]
        if len(node.args) != 1:
            raise self.fail(f"table '{node.name}' takes 1 key: {node.name}[KEY]", node.at)
        arg = node.args[0]
        e = self.coerce(self._expr(arg, scope), key_type, _start(arg))
        if (key_type, e.type) == (INT, BOOL):
            e = Call("either", (e, Const(1, INT), Const(0, INT)), INT)  # a condition counts as 1 or 0
        if e.type != key_type:
            raise self.fail(f"the key of table '{node.name}' must be {a_type(key_type)}, got {a_type(e.type)}", _start(arg))
        if key_type == INT and isinstance(e, Const) and not lo <= e.value < lo + size:
            raise self.fail(f"{e.value} is outside the keys of table '{node.name}' ({lo}..{lo + size - 1})", _start(arg))
        return Call("attr", (Const(index, INT), e), typ)


def is_choice_call(node: Ast) -> bool:
    return isinstance(node, CallA) and node.name == "either"
