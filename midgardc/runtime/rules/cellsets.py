"""Loop conditions for every value of a parameter at once: the interpreter's twin of the
generated code's cell sets (``midgardc.compiler.emit.cellsets``).

A set of values of a parameter (the cells, the players, an enumeration...) is a Python
int whose bit ``v`` stands for the value ``lo + v``. A condition becomes a function
``(core, env, care, seen) -> the values of care where it holds``: ``and`` narrows what
its right side is asked about to where its left side holds, ``or`` asks its right side
only about the rest, so a condition is never evaluated for a value it cannot decide
(the same short-circuits as testing value by value). The pieces:

* a part that does not read the parameter: one evaluation, all of ``care`` or nothing;
* a board fact (a pure expression: no state read) of the parameter: its set, worked out
  once per game for each value of the other locals it reads;
* ``F == X`` / ``F != X`` with ``F`` a board fact of the parameter alone, or one of the
  board's per-cell built-ins (``owner``, ``kind_at``, ...) of a cell parameter, and ``X``
  not reading it: ``F``'s values indexed once per game (board facts) or per position
  (the board), then one look-up for ``X``'s value;
* ``not``, ``and``, ``or``, ``if ... then ... else`` of conditions, and definitions
  (inlined, as the move plans inline them);
* anything else: evaluated value by value over ``care`` (what the loop did before).

Sound because expressions are pure and total: the same values pass, in the same
ascending order, whichever way the set is worked out.
"""

from __future__ import annotations

from typing import Callable, Iterator

from ...ir.analysis import reads
from ...ir.nodes import BOOL, CELL, Binary, Call, DefineCall, Expr, GameIR, Local, Unary
from ...ir.plan import inline, is_pure

#: (core, env, care, seen) -> the values of ``care`` where a condition holds
SetFn = Callable[["object", dict, int, dict], int]

#: Built-ins of one cell that read only the board: indexed by value once per position.
BOARD_KEYS = frozenset({"owner", "kind_at", "empty", "occupied"})


def bits(m: int) -> Iterator[int]:
    """The members of a set, ascending."""
    while m:
        low = m & -m
        yield low.bit_length() - 1
        m ^= low


class SetCompiler:
    """Turns conditions on one loop parameter into ``SetFn``s, once per game.
    ``compile_expr``: ``Program.compile``; ``builtins``: ``Program.builtins``."""

    def __init__(self, ir: GameIR, compile_expr: Callable, builtins: dict):
        self.ir = ir
        self.compile = compile_expr
        self.builtins = builtins
        self.pure: dict = {}  # is_pure's memo of definitions

    def conjunction(self, conds: list[Expr], var: str, lo: int, size: int) -> SetFn:
        """The values where every one of ``conds`` holds (tested in order)."""
        parts = [self.condition(c, var, lo, size) for c in conds]

        def every(s, env, care, seen):
            for part in parts:
                if not care:
                    break
                care = part(s, env, care, seen)
            return care

        return every

    def condition(self, e: Expr, var: str, lo: int, size: int) -> SetFn:
        """The values of ``care`` where ``e`` holds, ``var`` bound to each (see the module
        docstring for the forms worked out as sets)."""
        if var not in reads(e):
            test = self.compile(e)
            return lambda s, env, care, seen: care if test(s, env) else 0
        if is_pure(e, self.ir.defines, self.pure):
            return self._fact(e, var, lo, size)
        if isinstance(e, Unary) and e.op == "not":
            arg = self.condition(e.arg, var, lo, size)
            return lambda s, env, care, seen: care & ~arg(s, env, care, seen)
        if isinstance(e, Binary) and e.op in ("and", "or"):
            return self._junction(e.op, self.condition(e.left, var, lo, size), self.condition(e.right, var, lo, size))
        if isinstance(e, Call) and e.fn == "either" and e.type == BOOL:
            return self._choice(*(self.condition(a, var, lo, size) for a in e.args))
        if isinstance(e, DefineCall) and e.type == BOOL and e.index < len(self.ir.defines):
            return self.condition(inline(e, self.ir.defines), var, lo, size)
        if isinstance(e, Binary) and e.op in ("==", "!="):
            for key, value in ((e.left, e.right), (e.right, e.left)):
                if reads(key) == {var} and var not in reads(value):
                    index = self._index(key, var, lo, size)
                    if index is not None:
                        return self._lookup(index, self.compile(value), e.op == "!=")
        if isinstance(e, Call) and e.fn in ("empty", "occupied") and e.args == (Local(var, CELL),):
            index = self._index(e, var, lo, size)
            return lambda s, env, care, seen: care & index(s, seen).get(1, 0)
        return self._each(e, var, lo)

    # -- the forms ----------------------------------------------------------------------

    @staticmethod
    def _junction(op: str, left: SetFn, right: SetFn) -> SetFn:
        if op == "and":

            def both(s, env, care, seen):
                care = left(s, env, care, seen)
                return right(s, env, care, seen) if care else 0

            return both

        def either_one(s, env, care, seen):
            found = left(s, env, care, seen)
            rest = care & ~found
            return found | right(s, env, rest, seen) if rest else found

        return either_one

    @staticmethod
    def _choice(cond: SetFn, yes: SetFn, no: SetFn) -> SetFn:
        """``if cond then yes else no``: ``yes`` where cond holds, ``no`` elsewhere."""

        def choice(s, env, care, seen):
            where = cond(s, env, care, seen)
            out = yes(s, env, where, seen) if where else 0
            rest = care & ~where
            return out | no(s, env, rest, seen) if rest else out

        return choice

    def _fact(self, e: Expr, var: str, lo: int, size: int) -> SetFn:
        """A board fact: its set over the whole domain, once per game for each value of
        the other locals it reads."""
        test = self.compile(e)
        others = tuple(sorted(reads(e) - {var}))
        known: dict = {}

        def fact(s, env, care, seen):
            key = tuple(env[n] for n in others)
            found = known.get(key)
            if found is None:
                inner = dict(env)
                found = 0
                for v in range(size):
                    inner[var] = v + lo
                    if test(s, inner):
                        found |= 1 << v
                known[key] = found
            return care & found

        return fact

    def _index(self, key: Expr, var: str, lo: int, size: int):
        """``key``'s values over the domain as {value: set}: ``(core, seen) -> dict``,
        once per game for a board fact, once per position for a board built-in of a cell
        parameter; None for any other ``key``."""
        if is_pure(key, self.ir.defines, self.pure):
            of = self.compile(key)
            known: dict = {}

            def fact_index(s, seen):
                if not known:
                    for v in range(size):
                        value = of(s, {var: v + lo})
                        known[value] = known.get(value, 0) | 1 << v
                return known

            return fact_index
        if isinstance(key, Call) and key.fn in BOARD_KEYS and key.args == (Local(var, CELL),):
            read, name = self.builtins[key.fn], ("board", key.fn)

            def board_index(s, seen):
                index = seen.get(name)
                if index is None:
                    index = seen[name] = {}
                    for c in range(size):
                        value = read(s, c)
                        index[value] = index.get(value, 0) | 1 << c
                return index

            return board_index
        return None

    @staticmethod
    def _lookup(index: Callable, value: Callable, negated: bool) -> SetFn:
        if negated:
            return lambda s, env, care, seen: care & ~index(s, seen).get(value(s, env), 0)
        return lambda s, env, care, seen: care & index(s, seen).get(value(s, env), 0)

    def _each(self, e: Expr, var: str, lo: int) -> SetFn:
        """Any other condition: tested value by value."""
        test = self.compile(e)

        def each(s, env, care, seen):
            old = env.get(var)
            found = 0
            for v in bits(care):
                env[var] = v + lo
                if test(s, env):
                    found |= 1 << v
            if old is None:
                env.pop(var, None)
            else:
                env[var] = old
            return found

        return each
