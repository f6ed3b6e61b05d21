"""Expressions in Python: ``Program`` turns a game's IR into closures once (operators,
built-in calls, definitions, quantifiers and their domains), shared by every state of the
game. Generated code: ``midgardc.compiler.emit.expressions`` (and ``cellsets``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Optional

from ...ir.nodes import (
    BOOL,
    INT,
    NOBODY,
    Binary,
    Call,
    Const,
    DefineCall,
    Domain,
    Expr,
    GameIR,
    Local,
    opposite_directions,
    Quant,
    Unary,
)
from ...ir.analysis import conjuncts, reads, set_directions
from ...ir.lookslice import look_slice
from ...ir.plan import STATE_READS, is_pure, plan_then
from . import zones as zone_rules
from .cellsets import SetCompiler
from .moves import plans

if TYPE_CHECKING:  # pragma: no cover
    from .state import CoreState

Fn = Callable[["CoreState", dict], int]


def _floordiv(a: int, b: int) -> int:
    return a // b if b else 0


def _mod(a: int, b: int) -> int:
    return a % b if b else 0


_BINARY = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "//": _floordiv,
    "%": _mod,
    "==": lambda a, b: int(a == b),
    "!=": lambda a, b: int(a != b),
    "<": lambda a, b: int(a < b),
    "<=": lambda a, b: int(a <= b),
    ">": lambda a, b: int(a > b),
    ">=": lambda a, b: int(a >= b),
}


def element(row: int, index) -> int:
    """The offset of an array element in its row, or -1 (nobody, an index out of range):
    ``index`` is flat (lo, size, value) triples, first index most significant."""
    if row < 0:
        return -1
    k = 0
    for j in range(0, len(index), 3):
        i = index[j + 2] - index[j]
        if not 0 <= i < index[j + 1]:
            return -1
        k = k * index[j + 1] + i
    return k


def _zobrist(ir: GameIR) -> list[list[int]]:
    """The board keys of the position hash: [cell][piece id] (0 for the empty cell)."""
    from ...ir.history import piece_key

    pieces = ir.n_players * ir.n_kinds + 1
    return [[piece_key(c, p, pieces) if p else 0 for p in range(pieces)] for c in range(ir.board.n_cells)]


def disjuncts(e: Expr) -> list[Expr]:
    """``a or b or c`` -> [a, b, c]."""
    if isinstance(e, Binary) and e.op == "or":
        return disjuncts(e.left) + disjuncts(e.right)
    return [e]


def _joined(parts: list[Expr], op: str) -> Expr:
    out = parts[0]
    for x in parts[1:]:
        out = Binary(op, out, x, BOOL)
    return out


# comparisons with a constant on the right, without the operator's own call
_COMPARE_CONST = {
    "==": lambda f, v: lambda s, env: int(f(s, env) == v),
    "!=": lambda f, v: lambda s, env: int(f(s, env) != v),
    "<": lambda f, v: lambda s, env: int(f(s, env) < v),
    "<=": lambda f, v: lambda s, env: int(f(s, env) <= v),
    ">": lambda f, v: lambda s, env: int(f(s, env) > v),
    ">=": lambda f, v: lambda s, env: int(f(s, env) >= v),
}


# comparisons of two expressions, likewise
_COMPARE = {
    "==": lambda f, g: lambda s, env: int(f(s, env) == g(s, env)),
    "!=": lambda f, g: lambda s, env: int(f(s, env) != g(s, env)),
    "<": lambda f, g: lambda s, env: int(f(s, env) < g(s, env)),
    "<=": lambda f, g: lambda s, env: int(f(s, env) <= g(s, env)),
    ">": lambda f, g: lambda s, env: int(f(s, env) > g(s, env)),
    ">=": lambda f, g: lambda s, env: int(f(s, env) >= g(s, env)),
}


class Program:
    """A game's IR turned into callables, shared by every state of that game."""

    def __init__(self, ir: GameIR):
        self.ir = ir
        b = ir.board
        self.n = b.n_cells
        self.neighbours = b.neighbours
        self.steps = b.steps
        self.props = [values + (0,) for _, values in b.props]  # + the off-board cell
        self.builtins = self._builtins()
        self.sets = SetCompiler(ir, self.compile, self.builtins)  # conditions as sets (rules/cellsets.py)
        self.defines: list[Optional[Fn]] = [None] * len(ir.defines)
        # definitions that never read the state (board facts): their values per arguments,
        # remembered for the whole game (they cannot change)
        pure: dict = {}
        self.known: dict[int, dict] = {i: {} for i, d in enumerate(ir.defines) if is_pure(d.body, ir.defines, pure)}
        self._each_domains: dict[int, Callable] = {}  # each_domain's, by effect
        for i, d in enumerate(ir.defines):
            self.defines[i] = self.compile(d.body)
        self.wheres = [self.compile(a.where) for a in ir.actions]
        # lookahead legality and the position history (rules/history.py)
        self.afters = [self.compile(a.legal_after) if a.legal_after is not None else None for a in ir.actions]
        self.lookahead = any(a is not None for a in self.afters)  # random playouts draw by rejection
        # what each lookahead's copy runs: the move's effects and triggers that can change
        # what its legal_after reads (None: the whole move), as the compiled engine's
        # look_action_N (ir/lookslice.py, one analysis for both back ends)
        slices = [look_slice(ir, i, STATE_READS) if a.legal_after is not None else None for i, a in enumerate(ir.actions)]
        self.look_slices = [x if x is not None and not x.whole else None for x in slices]
        # compound moves (rules/compound.py): where the next step starts, whether it may
        self.chain_value = [self.compile(a.chain.value) if a.chain is not None else None for a in ir.actions]
        self.chain_going = [self.compile(a.chain.going) if a.chain is not None and a.chain.going is not None else None for a in ir.actions]
        self.chain_most = [self.compile(a.chain.most) if a.chain is not None and a.chain.most is not None else None for a in ir.actions]
        self.zkeys = _zobrist(ir) if ir.history is not None and ir.history.board else None
        sizes = {"cell": self.n, "player": ir.n_players, "kind": ir.n_kinds, "dir": len(b.directions), "item": ir.n_item_kinds}
        self.sizes = [[sizes.get(p.type, p.hi - p.lo + 1) for p in a.params] for a in ir.actions]
        self.plans = plans(ir, self.sizes, self.compile, self.domain, self.sets)
        # moves of two steps (then:, rules/compound.py): the second step's plan, listed on
        # the state the first step left
        second = [plan_then(ir, i) for i in range(len(ir.actions))]
        self.then_plans = dict(zip((i for i, p in enumerate(second) if p is not None), plans(ir, self.sizes, self.compile, self.domain, self.sets, tuple(p for p in second if p is not None))))
        self.rank = [self.compile(k.expr) for k in ir.ranking]
        self.end_conds = [self.compile(e) for e in ir.end.conditions]
        self.triggers = [(t, self.compile(t.when) if t.when is not None else None) for t in ir.triggers]
        self._effect_fns: dict[int, tuple[Expr, Fn]] = {}

    def fn(self, expr: Expr) -> Fn:
        """The closure of an effect's sub-expression, compiled on first use."""
        hit = self._effect_fns.get(id(expr))
        if hit is None or hit[0] is not expr:
            hit = self._effect_fns[id(expr)] = (expr, self.compile(expr))
        return hit[1]

    # -- expressions -----------------------------------------------------------------

    def _element_of_one_index(self, e: Call) -> Fn:
        """counter_at with one index (the common ``level[p, track]``, ``seeds[c]``): the
        same value as the built-in, without its argument list (the game's row is -1)."""
        column, none, lo, size = e.args[0].value, e.args[2].value, e.args[3].value, e.args[4].value
        row, value = self.compile(e.args[1]), self.compile(e.args[5])

        def read(s, env):
            r = row(s, env)
            if r < 0:
                return none
            i = value(s, env) - lo
            return s.counters[r][column + i] if 0 <= i < size else none

        return read

    def compile(self, e: Expr) -> Fn:
        if isinstance(e, Const):
            v = e.value
            return lambda s, env: v
        if isinstance(e, Local):
            name = e.name
            return lambda s, env: env[name]
        if isinstance(e, Call):
            if e.fn == "counter_at" and len(e.args) == 6 and all(isinstance(x, Const) for x in (e.args[0], e.args[2], e.args[3], e.args[4])):
                return self._element_of_one_index(e)
            impl = self.builtins[e.fn]
            args = [self.compile(a) for a in e.args]
            if e.fn == "either":  # (the branch not taken is pure: evaluating it changes nothing)
                cond, yes, no = args
                return lambda s, env: yes(s, env) if cond(s, env) else no(s, env)
            if not args:
                return lambda s, env: impl(s)
            if len(args) == 1:
                a0 = args[0]
                return lambda s, env: impl(s, a0(s, env))
            if len(args) == 2:
                a0, a1 = args
                return lambda s, env: impl(s, a0(s, env), a1(s, env))
            if len(args) == 3:
                a0, a1, a2 = args
                return lambda s, env: impl(s, a0(s, env), a1(s, env), a2(s, env))
            return lambda s, env: impl(s, *[a(s, env) for a in args])
        if isinstance(e, DefineCall):
            args = [self.compile(a) for a in e.args]
            names = [p.name for p in self.ir.defines[e.index].params]
            bodies = self.defines
            idx = e.index
            if idx in self.known:  # a board fact: its value per arguments, remembered
                known = self.known[idx]

                def fact(s, env):
                    key = tuple(a(s, env) for a in args)
                    if key not in known:
                        known[key] = bodies[idx](s, dict(zip(names, key)))
                    return known[key]

                return fact
            # (one closure per arity up to three: a dict display, not a comprehension, is
            # what makes a call of a definition cheap)
            if len(args) == 1:
                (n0,), (a0,) = names, args
                return lambda s, env: bodies[idx](s, {n0: a0(s, env)})
            if len(args) == 2:
                (n0, n1), (a0, a1) = names, args
                return lambda s, env: bodies[idx](s, {n0: a0(s, env), n1: a1(s, env)})
            if len(args) == 3:
                (n0, n1, n2), (a0, a1, a2) = names, args
                return lambda s, env: bodies[idx](s, {n0: a0(s, env), n1: a1(s, env), n2: a2(s, env)})
            return lambda s, env: bodies[idx](s, {n: a(s, env) for n, a in zip(names, args)})
        if isinstance(e, Unary):
            a = self.compile(e.arg)
            if e.op == "not":
                return lambda s, env: 0 if a(s, env) else 1
            return lambda s, env: -a(s, env)
        if isinstance(e, Binary):
            left, right = self.compile(e.left), self.compile(e.right)
            if e.op == "and":
                return lambda s, env: 1 if left(s, env) and right(s, env) else 0
            if e.op == "or":
                return lambda s, env: 1 if left(s, env) or right(s, env) else 0
            if e.op in _COMPARE_CONST and isinstance(e.right, Const):  # the common `x == 0`
                return _COMPARE_CONST[e.op](left, e.right.value)
            if e.op in _COMPARE:
                return _COMPARE[e.op](left, right)
            op = _BINARY[e.op]
            return lambda s, env: op(left(s, env), right(s, env))
        if isinstance(e, Quant):
            return self._quant(e)
        raise AssertionError(e)  # pragma: no cover

    def each_domain(self, eff) -> Callable[["CoreState", dict], list[int]]:
        """The elements a ``for_each`` visits: its collection, or over every direction
        with a direction set's test in its ``where``, just the set's directions
        (``set_directions``, as the compiled loops do); made once per effect."""
        made = self._each_domains.get(id(eff))
        if made is None:
            members = set_directions(self.ir, eff.each, eff.var, eff.where)
            made = self.domain(eff.each) if members is None else (lambda s, env: members)
            self._each_domains[id(eff)] = made
        return made

    def domain(self, d: Domain) -> Callable[["CoreState", dict], list[int]]:
        if d.kind == "cells":
            cells = list(range(self.n))
            return lambda s, env: cells
        if d.kind == "players":
            players = list(range(self.ir.n_players))
            return lambda s, env: players
        if d.kind == "directions":
            dirs = list(range(len(self.ir.board.directions)))
            return lambda s, env: dirs
        if d.kind == "neighbours":
            cell = self.compile(d.args[0])
            empty: tuple = ()
            return lambda s, env: (self.neighbours[c] if (c := cell(s, env)) < self.n else empty)
        if d.kind == "range":
            lo, hi = self.compile(d.args[0]), self.compile(d.args[1])
            return lambda s, env: range(lo(s, env), hi(s, env) + 1)
        if d.kind == "group":
            return self._group_domain(self.compile(d.args[0]))
        if d.kind == "enum":  # the values of an enumeration (args: how many)
            size = d.args[0].value
            values = list(range(size))
            return lambda s, env: values
        if d.kind == "region":
            return self._group_domain(self.compile(d.args[0]), empty_too=True)
        if d.kind == "item_kinds":
            kinds = list(range(self.ir.n_item_kinds))
            return lambda s, env: kinds
        if d.kind == "faces":
            faces = list(range(self.ir.chance.n_faces))
            return lambda s, env: faces
        if d.kind in ("ray", "slide"):
            return self._ray_domain(self.compile(d.args[0]), self.compile(d.args[1]), d.kind == "slide")
        raise AssertionError(d.kind)  # pragma: no cover

    def _group_domain(self, cell: Fn, empty_too: bool = False) -> Callable[["CoreState", dict], list[int]]:
        """group(c): c's chain of same-owner pieces, breadth-first from c; with
        ``empty_too``, region(c): the same for any colour, an empty cell's region being the
        empty cells joined to it."""
        n, nbrs = self.n, self.neighbours

        def group(s, env):
            c = cell(s, env)
            if c >= n or (s.board[c] <= 0 and not empty_too):
                return ()
            owner = s._owner(c)
            order, seen = [c], {c}
            for x in order:  # the list grows as the search goes
                for y in nbrs[x]:
                    if y not in seen and (empty_too or s.board[y] > 0) and s._owner(y) == owner:
                        seen.add(y)
                        order.append(y)
            return order

        return group

    def _ray_domain(self, cell: Fn, direction: Fn, stop: bool = False) -> Callable[["CoreState", dict], list[int]]:
        """ray(c, d): the cells past c in direction d, to the edge (or back to c); with
        ``stop``, slide(c, d): the same up to and including the first occupied cell."""
        n, steps = self.n, self.steps

        def ray(s, env):
            c, d = cell(s, env), direction(s, env)
            out: list[int] = []
            if c >= n:
                return out
            x = steps[d][c]
            while x < n and x != c:
                out.append(x)
                if stop and s.board[x] > 0:
                    break
                x = steps[d][x]
            return out

        return ray

    def _narrowed(self, q: Quant) -> Optional[tuple[Callable, Expr]]:
        """A quantifier over a fixed collection whose body decides part of its answer
        by board facts alone — ``any``/``count`` of ``fact and rest``, ``all`` of ``not
        fact or rest`` (``fact`` written as the negation), ``sum`` of ``either(fact and
        rest, x, 0)`` — gives the same answer over just the elements where the fact holds,
        with ``rest`` as the body. Returns (those elements, remembered per value of the
        other locals the fact reads, as a domain; the remaining body), or None."""
        if q.domain.kind in ("group", "ray", "slide", "neighbours") or not all(isinstance(a, Const) for a in q.domain.args):
            return None
        body = q.body
        if q.kind in ("any", "count"):
            parts, glue = conjuncts(body), "and"
        elif q.kind == "all":
            parts, glue = disjuncts(body), "or"
        elif q.kind == "sum" and isinstance(body, Call) and body.fn == "either" and body.args[2] == Const(0, INT):
            parts, glue = conjuncts(body.args[0]), "and"
        else:
            return None
        facts = [x for x in parts if q.var in reads(x) and is_pure(x, self.ir.defines)]
        rest = [x for x in parts if not any(x is f for f in facts)]
        if not facts or not rest:
            return None
        keep = facts if glue == "and" else [Unary("not", f, BOOL) for f in facts]
        guard = self.compile(_joined(keep, "and"))
        left = _joined(rest, glue)
        if q.kind == "sum":
            left = Call("either", (left, body.args[1], body.args[2]), body.type)
        others = sorted(set().union(*(reads(f) for f in facts)) - {q.var})
        every = self.domain(q.domain)
        var = q.var
        chosen: dict = {}

        def elements(s, env):
            key = tuple(env[n] for n in others)
            if key not in chosen:
                inner = dict(env)
                found = []
                for x in every(s, env):
                    inner[var] = x
                    if guard(s, inner):
                        found.append(x)
                chosen[key] = found
            return chosen[key]

        return elements, left

    def _fixed(self, d: Domain) -> Optional[tuple[int, int]]:
        """A domain whose values are the same in every position, as (lowest, how many)."""
        sizes = {"cells": self.n, "players": self.ir.n_players, "directions": len(self.ir.board.directions), "item_kinds": self.ir.n_item_kinds}
        if d.kind in sizes:
            return 0, sizes[d.kind]
        if d.kind == "enum":
            return 0, d.args[0].value
        if d.kind == "faces" and self.ir.chance is not None:
            return 0, self.ir.chance.n_faces
        if d.kind == "range" and all(isinstance(a, Const) for a in d.args):
            return d.args[0].value, max(0, d.args[1].value - d.args[0].value + 1)
        return None

    def _quant_set(self, q: Quant) -> Optional[Fn]:
        """``any``, ``all`` and ``count`` over a fixed domain whose body is worked out as a
        set (``rules/cellsets.py``): the set of elements where the body holds; ``sum``,
        ``min`` and ``max`` of an ``if``: the elements split by its condition's set."""
        fixed = self._fixed(q.domain)
        if fixed is None:
            return None
        full = (1 << fixed[1]) - 1
        if q.kind in ("sum", "min", "max"):  # ... of ``if c then a else b``: split by c's set
            if not (isinstance(q.body, Call) and q.body.fn == "either"):
                return None
            fold = self.sets.fold(q.kind, q.body, q.var, *fixed)
            return lambda s, env: fold(s, env, full, {}) or 0  # (0 over no elements)
        holds = self.sets.form(q.body, q.var, *fixed)
        if holds is None:
            return None
        if q.kind == "any":
            return lambda s, env: 1 if holds(s, env, full, {}) else 0
        if q.kind == "all":
            return lambda s, env: 1 if holds(s, env, full, {}) == full else 0
        return lambda s, env: holds(s, env, full, {}).bit_count()

    def _quant(self, q: Quant) -> Fn:
        as_set = self._quant_set(q)
        if as_set is not None:
            return as_set
        dom = self.domain(q.domain)
        body_expr = q.body
        narrowed = self._narrowed(q)
        if narrowed is not None:
            dom, body_expr = narrowed
        body = self.compile(body_expr)
        var = q.var

        # one closure per kind of quantifier (chosen here, not at every evaluation)
        if q.kind == "any":

            def any_(s, env):
                inner = dict(env)
                for x in dom(s, env):
                    inner[var] = x
                    if body(s, inner):
                        return 1
                return 0

            return any_
        if q.kind == "all":

            def all_(s, env):
                inner = dict(env)
                for x in dom(s, env):
                    inner[var] = x
                    if not body(s, inner):
                        return 0
                return 1

            return all_
        if q.kind == "count":

            def count(s, env):
                inner = dict(env)
                total = 0
                for x in dom(s, env):
                    inner[var] = x
                    if body(s, inner):
                        total += 1
                return total

            return count
        kind = q.kind

        def values(s, env):  # sum, min, max (0 over no elements)
            inner = dict(env)
            out = []
            for x in dom(s, env):
                inner[var] = x
                out.append(body(s, inner))
            if kind == "sum":
                return sum(out)
            if not out:
                return 0
            return min(out) if kind == "min" else max(out)

        return values

    def _builtins(self) -> dict[str, Callable]:
        ir = self.ir
        n = self.n
        nk = max(ir.n_kinds, 1)
        steps = self.steps
        neighbours = self.neighbours
        props = self.props

        def owner(s, c):
            p = s.board[c]
            return NOBODY if p <= 0 else (p - 1) // nk

        def kind_at(s, c):
            p = s.board[c]
            return -1 if p <= 0 else (p - 1) % nk

        # -- lines and custodial runs
        opposite = opposite_directions(ir.board)
        pprops = [values for _, values in ir.player_props]
        face_values = ir.chance.values if ir.chance else ()
        card_values = ir.item_values

        def run(s, c, d, o):
            """How many cells in a row from step(c, d) on belong to player o, stopping
            when the walk comes back to c (a wrapping board); -1 - k when it does, the
            whole ring round c being o's."""
            k = 0
            x = steps[d][c]
            while x < n and owner(s, x) == o:
                if x == c:
                    return -1 - k
                k += 1
                x = steps[d][x]
            return k

        def line(s, c, length):
            o = owner(s, c)
            if o < 0:
                return 0
            if length <= 1:
                return 1
            for d in range(len(steps)):
                e = opposite[d]
                ahead = run(s, c, d, o)
                if ahead < 0:  # a whole ring of o's: the line is the ring, counted once
                    total = -ahead
                else:
                    total = 1 + ahead + (run(s, c, e, o) if e >= 0 else 0)
                if total >= length:
                    return 1
            return 0

        def flanked(s, c, d):
            if c >= n:
                return 0
            me = s.current
            k = 0
            x = steps[d][c]
            while x < n:
                o = owner(s, x)
                if o < 0 or o == me:
                    break
                if x == c:  # round a wrapping board back to c: nothing closes the run
                    return 0
                k += 1
                x = steps[d][x]
            return k if x < n and owner(s, x) == me else 0

        def room(s, c, d):
            """The run of occupied cells from c in direction d ends before the edge."""
            if c >= n:
                return 0
            x = c
            while s.board[x] > 0:
                x = steps[d][x]
                if x >= n or x == c:
                    return 0
            return 1

        areas = ir.areas

        def area_winners(s) -> list[int]:
            """Per area: the player with the strictly greatest weight (above 0), or -1."""
            out = []
            for area in areas:
                weight = [0] * ir.n_players
                for c, w in zip(area.cells, area.weights):
                    o = owner(s, c)
                    if o >= 0:
                        weight[o] += w
                best = max(weight)
                out.append(weight.index(best) if best > 0 and weight.count(best) == 1 else -1)
            return out

        def area_points(s, p):
            return sum(a.points for a, w in zip(areas, area_winners(s)) if w == p and p >= 0)

        def areas_won(s, p):
            return sum(1 for w in area_winners(s) if w == p and p >= 0)

        def counter_at(s, column, row, none, *index):
            """An element of a counter array: (lo, size, value) per index (see SetElement)."""
            k = element(row, index)
            return none if k < 0 else s.counters[row][column + k]

        attrs = [(a.table, a.offset, a.keys) for a in ir.attributes]

        def attr(s, i, x):
            table, offset, keys = attrs[i]
            k = x + offset
            return table[k if not keys or 0 < k <= keys else 0]  # a number outside a table's range: its default

        return {
            "attr": attr,
            "typed_counter": lambda s, i, p, none: s.counters[p][i] if p >= 0 else none,
            "counter_at": counter_at,
            "empty": lambda s, c: int(s.board[c] == 0),
            "occupied": lambda s, c: int(s.board[c] > 0),
            "owner": owner,
            "kind_at": kind_at,
            "degree": lambda s, c: len(neighbours[c]) if c < n else 0,
            "onboard": lambda s, c: int(c < n),
            "step": lambda s, c, d: steps[d][c] if c < n else n,
            "hand": lambda s, p, k: s.hands[p][k] if p >= 0 and k >= 0 else 0,
            "next_player": lambda s, p: (p + 1) % ir.n_players if p >= 0 else NOBODY,
            "abs": lambda s, x: abs(x),
            "either": lambda s, cond, yes, no: yes if cond else no,
            "mover": lambda s: s.current,
            "last_player": lambda s: s.last,
            "ply": lambda s: s.ply,
            "prop": lambda s, i, c: props[i][c],
            "counter": lambda s, i, p: s.counters[p][i] if p >= 0 else 0,
            "game_counter": lambda s, i: s.counters[-1][i],  # the game's row comes last
            # lines, custodial runs, per-player properties
            "line": line,
            "flanked": flanked,
            "player_prop": lambda s, i, p: pprops[i][p] if p >= 0 else 0,
            # dice
            "rolled": lambda s, f: s.roll.count(f) if f >= 0 else 0,
            "die": lambda s, i: s.roll[i] if 0 <= i < len(s.roll) else -1,
            "face_value": lambda s, f: face_values[f] if f >= 0 else 0,
            # stacks and pushes
            "height": lambda s, c: s.heights[c],
            "room": room,
            # items
            "face_up": lambda s, p, k: s.up[p][k] if p >= 0 else 0,
            "in_deck": lambda s, p, k: s.deck[p][s.drawn[p]:].count(k) if p >= 0 else 0,
            "discarded": lambda s, p, k: s.discards[p][k] if p >= 0 else 0,
            "deck_left": lambda s, p: len(s.deck[p]) - s.drawn[p] if p >= 0 else 0,
            "item_has": lambda s, k, v: int(k >= 0 and v in card_values[k]),
            # areas
            "area_points": area_points,
            "areas_won": areas_won,
            # the position history
            "times_seen": lambda s: s.times_seen(),
            "repeated": lambda s: int(s.times_seen() >= 2),
            "moves_since_first_seen": lambda s: s.moves_since_first_seen(),
            # the end of the game: the player to move has a legal move (rules/moves.py)
            "can_move": lambda s: int(s.can_move()),
            # zones of items (holding, zone_size, top)
            **(zone_rules.builtins(ir.zones) if ir.zones is not None else {}),
        }
