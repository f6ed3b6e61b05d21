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

from typing import Callable, Iterator, Optional

from ...ir.analysis import children, map_children, reads
from ...ir.nodes import BOOL, CELL, INT, Binary, Call, Const, DefineCall, Expr, GameIR, Local, Quant, Unary
from ...ir.plan import inline, is_pure

#: (core, env, care, seen) -> the values of ``care`` where a condition holds
SetFn = Callable[["object", dict, int, dict], int]

#: Built-ins of one cell that read only the piece on it: indexed by value once per position.
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
        return self._junction("and", [self.condition(c, var, lo, size) for c in conds])

    def condition(self, e: Expr, var: str, lo: int, size: int) -> SetFn:
        """The values of ``care`` where ``e`` holds, ``var`` bound to each (see the module
        docstring for the forms worked out as sets; any other is tested value by value)."""
        return self.form(e, var, lo, size) or self._each(e, var, lo)

    def form(self, e: Expr, var: str, lo: int, size: int) -> Optional[SetFn]:
        """``condition`` when ``e`` itself is one of the forms worked out as sets, else None."""
        if var not in reads(e):
            test = self.compile(e)
            return lambda s, env, care, seen: care if test(s, env) else 0
        if is_pure(e, self.ir.defines, self.pure):
            return self._fact(e, var, lo, size)
        if isinstance(e, Unary) and e.op == "not":
            arg = self.condition(e.arg, var, lo, size)
            return lambda s, env, care, seen: care & ~arg(s, env, care, seen)
        if isinstance(e, Binary) and e.op in ("and", "or"):
            # the cheap parts first (a set by a look-up narrows what the rest is asked about)
            parts = sorted(_chain(e, e.op), key=lambda x: self._cost(x, var))
            return self._junction(e.op, [self.condition(x, var, lo, size) for x in parts])
        if isinstance(e, Call) and e.fn == "either" and e.type == BOOL:
            return self._choice(*(self.condition(a, var, lo, size) for a in e.args))
        if isinstance(e, Binary) and e.op in ("==", "!="):
            for key, value in ((e.left, e.right), (e.right, e.left)):
                if reads(key) == {var} and var not in reads(value):
                    if is_pure(key, self.ir.defines, self.pure):
                        return self._lookup(self._fact_index(key, var, lo, size), self.compile(value), e.op == "!=")
                    if isinstance(key, Call) and key.fn in BOARD_KEYS and key.args == (Local(var, CELL),):
                        return self._board(key.fn, self.compile(value), e.op == "!=", size)
        if isinstance(e, Call) and e.fn in ("empty", "occupied") and e.args == (Local(var, CELL),):
            return self._board(e.fn, lambda s, env: 1, False, size)
        if lo == 0 and isinstance(e, Binary) and e.op == ">" and e.right == Const(0, INT):
            held = self._held(_chain(e.left, "+"), var)
            if held is not None:
                return held
        through = self._through(e, var, lo, size)
        if through is not None:
            return through
        if isinstance(e, DefineCall) and e.type == BOOL and e.index < len(self.ir.defines):
            return self.condition(inline(e, self.ir.defines), var, lo, size)
        return None

    def fold(self, kind: str, e: Expr, var: str, lo: int, size: int) -> Callable:
        """``sum``/``min``/``max`` of ``e`` over the values of ``care``: (core, env, care,
        seen) -> the total (0 over none; None for min/max over none). ``if c then a else b``
        splits ``care`` by the set of ``c``; a part not reading the parameter is one
        value (times how many, for a sum); anything else is read value by value."""
        if var not in reads(e):
            value = self.compile(e)
            if kind == "sum":
                return lambda s, env, care, seen: value(s, env) * care.bit_count() if care else 0
            return lambda s, env, care, seen: value(s, env) if care else None
        if isinstance(e, Call) and e.fn == "either":
            cond = self.condition(e.args[0], var, lo, size)
            yes, no = (self.fold(kind, a, var, lo, size) for a in e.args[1:])
            pick = min if kind == "min" else max

            def split(s, env, care, seen):
                where = cond(s, env, care, seen)
                rest = care & ~where
                a = yes(s, env, where, seen) if where else None
                b = no(s, env, rest, seen) if rest else None
                if kind == "sum":
                    return (a or 0) + (b or 0)
                return b if a is None else a if b is None else pick(a, b)

            return split
        value, total = self.compile(e), {"sum": sum, "min": min, "max": max}[kind]

        def each(s, env, care, seen):
            if not care:
                return 0 if kind == "sum" else None
            old = env.get(var)
            values = []
            for v in bits(care):
                env[var] = v + lo
                values.append(value(s, env))
            if old is None:
                env.pop(var, None)
            else:
                env[var] = old
            return total(values)

        return each

    # -- the forms ----------------------------------------------------------------------

    def _cost(self, e: Expr, var: str) -> int:
        """0: reads no parameter, 1: a board fact, 2: a look-up, 3: anything else."""
        if var not in reads(e):
            return 0
        if is_pure(e, self.ir.defines, self.pure):
            return 1
        if isinstance(e, Binary) and e.op in ("==", "!="):
            for key, value in ((e.left, e.right), (e.right, e.left)):
                if reads(key) == {var} and var not in reads(value):
                    if is_pure(key, self.ir.defines, self.pure) or (isinstance(key, Call) and key.fn in BOARD_KEYS):
                        return 2
        return 3

    @staticmethod
    def _junction(op: str, parts: list[SetFn]) -> SetFn:
        """``and``: each part asked about where the ones before hold; ``or``: each asked
        about where none before holds."""
        if op == "and":

            def every(s, env, care, seen):
                for part in parts:
                    if not care:
                        break
                    care = part(s, env, care, seen)
                return care

            return every

        def some(s, env, care, seen):
            found = 0
            for part in parts:
                found |= part(s, env, care & ~found, seen)
                if found == care:
                    break
            return found

        return some

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

    def _fact_index(self, key: Expr, var: str, lo: int, size: int) -> Callable[["object"], dict]:
        """A board fact of the parameter alone: its values over the domain as {value:
        set}, once per game."""
        of = self.compile(key)
        known: dict = {}

        def index(s):
            if not known:
                for v in range(size):
                    value = of(s, {var: v + lo})
                    known[value] = known.get(value, 0) | 1 << v
            return known

        return index

    @staticmethod
    def _lookup(index: Callable[["object"], dict], value: Callable, negated: bool) -> SetFn:
        if negated:
            return lambda s, env, care, seen: care & ~index(s).get(value(s, env), 0)
        return lambda s, env, care, seen: care & index(s).get(value(s, env), 0)

    def _board(self, fn: str, value: Callable, negated: bool, size: int) -> SetFn:
        """``fn(c) == value`` (``!=`` when ``negated``) for a built-in ``fn`` of the piece on
        a cell: when many cells are asked about, the cells grouped by piece once per
        position (kept in ``seen``) and ``fn`` read once per piece; else cell by cell."""
        read, name = self.builtins[fn], ("board", fn)

        def board(s, env, care, seen):
            want = value(s, env)
            index = seen.get(name)
            if index is None and care.bit_count() * 4 < size:  # a few cells: read them
                found = 0
                for c in bits(care):
                    if read(s, c) == want:
                        found |= 1 << c
                return care & ~found if negated else found
            if index is None:
                index = seen[name] = {}
                for cells in _by_piece(s, seen, size).values():
                    v = read(s, (cells & -cells).bit_length() - 1)  # (any cell of the piece)
                    index[v] = index.get(v, 0) | cells
            found = care & index.get(want, 0)
            return care & ~found if negated else found

        return board

    def _held(self, terms: list[Expr], var: str) -> Optional[SetFn]:
        """``holding(o, z, k) > 0`` (or a sum of such counts, never negative, > 0) for the
        parameter ``k`` of the item kinds: the kinds in those zones, read off the zones."""
        if "held" not in self.builtins:
            return None
        zones = []
        for t in terms:
            if not (isinstance(t, Call) and t.fn == "holding" and isinstance(t.args[2], Local) and t.args[2].name == var):
                return None
            if var in reads(t.args[0]) | reads(t.args[1]):
                return None
            zones.append((self.compile(t.args[0]), self.compile(t.args[1])))
        held = self.builtins["held"]

        def kinds(s, env, care, seen):
            found = 0
            for zone, owner in zones:
                found |= held(s, zone(s, env), owner(s, env))
            return care & found

        return kinds

    def _through(self, e: Expr, var: str, lo: int, size: int) -> Optional[SetFn]:
        """``e`` reading the parameter only through one board fact ``g`` of it (as
        ``doomed(province(c))`` reads ``c``): ``e`` tested once per value of ``g`` (with
        ``g`` a fresh local), for the values of ``care`` where ``g`` has that value."""
        found: list[Expr] = []

        def walk(x: Expr) -> bool:  # False: the parameter is read otherwise
            if var not in reads(x):
                return True
            if isinstance(x, Local):
                return False
            if reads(x) == {var} and is_pure(x, self.ir.defines, self.pure):
                found.append(x)
                return True
            if isinstance(x, Quant):
                return x.var != var and all(walk(a) for a in x.domain.args) and walk(x.body)
            return all(walk(c) for c in children(x))

        if not walk(e) or not found or any(g != found[0] for g in found):
            return None
        g, fresh = found[0], var + "@g"  # (no name in a spec has an @)
        test = self.compile(_replaced(e, g, Local(fresh, g.type)))
        index = self._fact_index(g, var, lo, size)

        def through(s, env, care, seen):
            inner = dict(env)
            out = 0
            for value, where in index(s).items():
                if where & care:
                    inner[fresh] = value
                    if test(s, inner):
                        out |= where & care
            return out

        return through

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


def _by_piece(s, seen: dict, size: int) -> dict:
    """The board's cells grouped by the piece on them, {piece id: set}, once per position."""
    groups = seen.get("pieces")
    if groups is None:
        groups = seen["pieces"] = {}
        board = s.board
        for c in range(size):
            p = board[c]
            groups[p] = groups.get(p, 0) | 1 << c
    return groups


def _replaced(x: Expr, old: Expr, new: Expr) -> Expr:
    """``x`` with every occurrence of ``old`` replaced by ``new``."""
    return new if x == old else map_children(x, lambda c: _replaced(c, old, new))


def _chain(e: Expr, op: str) -> list[Expr]:
    """``a and b and c`` -> [a, b, c] (likewise for ``or``)."""
    if isinstance(e, Binary) and e.op == op:
        return _chain(e.left, op) + _chain(e.right, op)
    return [e]
