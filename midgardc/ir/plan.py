"""Move plans: how each action's legal moves are listed, derived from its ``where``.

Both back ends list an action's moves as nested loops over its parameters (first
parameter outermost, values ascending, so move ids come out ascending). The plan says,
for every loop level, which values the loop visits and which conditions it tests:

* ``where`` is split into conjuncts, looking inside definitions whose body is itself a
  conjunction (the definition is inlined: its parameters replaced by the arguments), and
  each conjunct is tested in the outermost loop that binds every parameter it reads;
* a conjunct that pins a cell parameter to a few cells gives that loop its candidates
  (``t == step(f, d)``, either side of ``==``, through ``or``, definitions, and ``any``
  over directions, players or a small constant range, unrolled); when the conjunct holds
  exactly for those cells it is not tested again;
* the conjuncts that never read the state (``facts``: ``prop(c) == v``, a pure
  definition) narrow the domain once per game for each value of the outer parameters
  they read; the other conjuncts reading no parameter but the loop's own (``once``)
  depend on nothing the outer loops bind: both back ends work them out once per listing,
  as cell sets (the interpreter's ``runtime/rules/cellsets.py`` for any loop over its
  whole domain); ``F(c) == X`` with ``F`` a board fact (``keyed``) is one look-up in an
  index of F made once per game.

So equal wordings of a rule (a quantifier or its unrolled disjunction, a definition or its
body, ``a == b`` or ``b == a``) give the same plan, and the same loops. Sound because
expressions are pure and total: testing a conjunct earlier, once, or by a candidate list
changes neither the moves listed nor their order. ``midgardc explain`` prints plans.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from .analysis import reads, substitute
from .builtins import DOMAINS, state_reads
from .nodes import BOOL, CELL, DIR, INT, PLAYER, Action, Binary, Call, Const, DefineCall, Define, Expr, GameIR, Local, Param, Quant, Unary

#: Built-in queries that read the state (the others read only their arguments and tables).
STATE_READS = state_reads()  # from the built-in table (ir/builtins.py, Builtin.reads)
#: Domains whose elements depend on the state.
STATE_DOMAINS = frozenset(n for n, b in DOMAINS.items() if b.reads is not None)
#: ``any`` over a constant range is unrolled for candidates up to this many values.
MAX_UNROLLED_RANGE = 16
#: At most this many candidate cells per parameter (the generated code's array size).
MAX_CANDIDATES = 64


@dataclass(frozen=True)
class Level:
    """One parameter loop. ``candidates``: the only values that can pass (None: the whole
    domain); ``pin``: the conjunct that gave them, not tested again when ``exact``;
    ``conds``: the conjuncts tested once the parameter is bound (``pin`` excluded when
    exact, else written out: ``expanded``); ``once``: those of ``conds`` that read no other parameter."""

    index: int
    param: Param
    candidates: Optional[tuple[Expr, ...]]
    pin: Optional[Expr]
    exact: bool
    conds: tuple[Expr, ...]
    once: tuple[Expr, ...]
    facts: tuple[Expr, ...] = ()
    lower: tuple[Expr, ...] = ()  # an integer parameter is at least each of these
    upper: tuple[Expr, ...] = ()  # ... and at most each of these
    # ``F == X`` with F a board fact of this parameter alone and X not reading it: the
    # interpreter indexes the domain by F once per game and visits the values where F is X
    keyed: Optional[tuple[Expr, Expr, Expr]] = None  # (the conjunct, F, X)


@dataclass(frozen=True)
class ActionPlan:
    action: int
    top: tuple[Expr, ...]  # conjuncts reading no parameter: tested before any loop
    levels: tuple[Level, ...]


# -- definitions ------------------------------------------------------------------------


def _fresh(name: str, taken: set) -> str:
    new = name + "'"
    while new in taken:
        new += "'"
    return new


def _rename_bound(e: Expr, avoid: set) -> Expr:
    """``e`` with every quantifier variable named in ``avoid`` renamed (so substituting
    expressions that read those names cannot be captured)."""
    if isinstance(e, Quant):
        var, body = e.var, e.body
        if var in avoid:
            new = _fresh(var, avoid | reads(body))
            body = substitute(body, {var: Local(new, e.domain.elem_type)})
            var = new
        args = tuple(_rename_bound(a, avoid) for a in e.domain.args)
        domain = type(e.domain)(e.domain.kind, args, e.domain.elem_type)
        return Quant(e.kind, var, domain, _rename_bound(body, avoid), e.type)
    if isinstance(e, Call):
        return Call(e.fn, tuple(_rename_bound(a, avoid) for a in e.args), e.type)
    if isinstance(e, DefineCall):
        return DefineCall(e.index, tuple(_rename_bound(a, avoid) for a in e.args), e.type)
    if isinstance(e, Unary):
        return Unary(e.op, _rename_bound(e.arg, avoid), e.type)
    if isinstance(e, Binary):
        return Binary(e.op, _rename_bound(e.left, avoid), _rename_bound(e.right, avoid), e.type)
    return e


def inline(call: DefineCall, defines: tuple[Define, ...]) -> Expr:
    """A definition's body with its parameters replaced by the call's arguments."""
    d = defines[call.index]
    avoid: set = set()
    for a in call.args:
        avoid |= reads(a)
    body = _rename_bound(d.body, avoid)
    return substitute(body, {p.name: a for p, a in zip(d.params, call.args)})


def conjuncts(e: Expr, defines: tuple[Define, ...] = ()) -> list[Expr]:
    """``a and b and c`` -> [a, b, c], looking inside definitions whose body is a
    conjunction (any other expression: [e])."""
    if isinstance(e, Binary) and e.op == "and":
        return conjuncts(e.left, defines) + conjuncts(e.right, defines)
    if isinstance(e, DefineCall) and e.type == BOOL and e.index < len(defines):
        parts = conjuncts(inline(e, defines), defines)
        if len(parts) > 1:
            return parts
    return [e]


def is_pure(e: object, defines: tuple[Define, ...] = (), memo: Optional[dict] = None) -> bool:
    """True when ``e`` never reads the state (only its locals and the board's tables)."""
    memo = {} if memo is None else memo
    if isinstance(e, (Const, Local)) or e is None:
        return True
    if isinstance(e, Call):
        return e.fn not in STATE_READS and all(is_pure(a, defines, memo) for a in e.args)
    if isinstance(e, DefineCall):
        if e.index not in memo:
            memo[e.index] = False  # (definitions cannot recurse; a safe default)
            memo[e.index] = is_pure(defines[e.index].body, defines, memo)
        return memo[e.index] and all(is_pure(a, defines, memo) for a in e.args)
    if isinstance(e, Unary):
        return is_pure(e.arg, defines, memo)
    if isinstance(e, Binary):
        return is_pure(e.left, defines, memo) and is_pure(e.right, defines, memo)
    if isinstance(e, Quant):
        return e.domain.kind not in STATE_DOMAINS and all(is_pure(a, defines, memo) for a in e.domain.args) and is_pure(e.body, defines, memo)
    return False


# -- candidates -----------------------------------------------------------------------


def _unrolled(q: Quant, ir: GameIR) -> Optional[list[Const]]:
    """The elements of a quantifier's domain as constants, when fixed and few."""
    d = q.domain
    if d.kind == "directions":
        return [Const(i, DIR) for i in range(len(ir.board.directions))]
    if d.kind == "players":
        return [Const(i, PLAYER) for i in range(ir.n_players)]
    if d.kind == "range" and all(isinstance(a, Const) for a in d.args):
        lo, hi = d.args[0].value, d.args[1].value
        if hi - lo + 1 <= MAX_UNROLLED_RANGE:
            return [Const(i, INT) for i in range(lo, hi + 1)]
    return None


#: A candidate is an expression (one value), or ``Call(WHEN, (guard, c1, c2, ...))``: the
#: candidates c1, c2, ... when ``guard`` holds (none otherwise), or ``Quant(EACH, x, D, c)``:
#: the candidate ``c`` for every element ``x`` of a domain read from the state (``slide``,
#: ``neighbours``, ...). Both back ends list the values of these forms (``each_candidate``).
WHEN = "when"
EACH = "each"
#: Domains an ``any`` may range over for ``EACH`` candidates (not ``cells``: no narrowing).
EACH_DOMAINS = frozenset({"slide", "ray", "neighbours", "group", "region"})


def plain_candidate(c: Expr) -> bool:
    """Whether a candidate is a single expression (not a ``WHEN`` or ``EACH`` form)."""
    return not ((isinstance(c, Call) and c.fn == WHEN) or (isinstance(c, Quant) and c.kind == EACH))


def candidate_leaves(items: list) -> int:
    """How many plain expressions the candidates hold (a measure of their cost)."""
    n = 0
    for c in items:
        if isinstance(c, Call) and c.fn == WHEN:
            n += candidate_leaves(list(c.args[1:]))
        elif isinstance(c, Quant) and c.kind == EACH:
            n += candidate_leaves([c.body])
        else:
            n += 1
    return n


def _group(items: list[Expr]) -> Expr:
    return items[0] if len(items) == 1 else Call(WHEN, (Const(1, BOOL), *items), CELL)


def _guarded(item: Expr, cond: Expr, var: str) -> list[Expr]:
    """``item`` kept only where ``cond`` holds for ``var`` equal to the value listed:
    tested after the item's own guards (the order the rule is written in)."""
    if isinstance(item, Call) and item.fn == WHEN:
        inner: list[Expr] = []
        for c in item.args[1:]:
            inner += _guarded(c, cond, var)
        return [Call(WHEN, (item.args[0], *inner), CELL)]
    if isinstance(item, Quant) and item.kind == EACH:
        if var not in reads(cond):  # once for the whole collection
            return [Call(WHEN, (cond, item), CELL)]
        x, body = item.var, item.body
        if x in reads(cond):
            x = _fresh(x, reads(cond) | reads(body))
            body = substitute(body, {item.var: Local(x, item.domain.elem_type)})
        return [Quant(EACH, x, item.domain, _group(_guarded(body, cond, var)), CELL)]
    if var not in reads(cond):
        return [Call(WHEN, (cond, item), CELL)]
    check = substitute(_rename_bound(cond, reads(item)), {var: item})
    return [Call(WHEN, (check, item), CELL)]


def candidates(e: Expr, var: str, ir: GameIR) -> Optional[tuple[list[Expr], bool]]:
    """(candidates not reading ``var``, exact) such that ``e`` can only hold when ``var``
    equals one of their values — and, when exact, holds whenever it does (for a cell, an
    off-board candidate counts for nothing); None when ``e`` does not pin ``var`` down.
    In ``a and b`` with ``a`` pinning, ``b`` guards each candidate (tested with ``var``
    equal to it), so the pin stays exact; with ``b`` pinning, ``a`` guards them all."""
    if isinstance(e, DefineCall) and e.index < len(ir.defines):
        return candidates(inline(e, ir.defines), var, ir)
    if isinstance(e, Binary):
        if e.op == "==":
            for side, other in ((e.left, e.right), (e.right, e.left)):
                if isinstance(side, Local) and side.name == var and var not in reads(other):
                    return [other], True
            return None
        if e.op == "or":
            a, b = candidates(e.left, var, ir), candidates(e.right, var, ir)
            return None if a is None or b is None else (a[0] + b[0], a[1] and b[1])
        if e.op == "and":
            a = candidates(e.left, var, ir)
            if a is not None:
                out: list[Expr] = []
                for c in a[0]:
                    out += _guarded(c, e.right, var)
                return out, a[1]
            b = candidates(e.right, var, ir)
            if b is None:
                return None
            if var not in reads(e.left):
                return ([Call(WHEN, (e.left, *b[0]), CELL)] if b[0] else []), b[1]
            out = []
            for c in b[0]:
                out += _guarded(c, e.left, var)
            return out, b[1]
    if isinstance(e, Quant) and e.kind == "any" and e.var != var:
        values = _unrolled(e, ir)
        if values is None:
            if e.domain.kind not in EACH_DOMAINS or any(var in reads(a) for a in e.domain.args):
                return None
            part = candidates(e.body, var, ir)
            if part is None:
                return None
            return ([Quant(EACH, e.var, e.domain, _group(part[0]), CELL)] if part[0] else []), part[1]
        found: list[Expr] = []
        exact = True
        for v in values:
            part = candidates(substitute(e.body, {e.var: v}), var, ir)
            if part is None:
                return None
            found += part[0]
            exact = exact and part[1]
        return found, exact
    if isinstance(e, Const) and e.value == 0:
        return [], True
    return None


# -- bounds of integer parameters ------------------------------------------------------

_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "=="}


def _minus(a: Expr, b: Expr) -> Expr:
    return Binary("-", a, b, INT)


def bounds(e: Expr, var: str, lo: int, hi: int, ir: GameIR) -> tuple[list[Expr], list[Expr], bool]:
    """(lower, upper, exact): expressions not reading the integer ``var`` (in ``lo..hi``)
    such that ``e`` can only hold when every lower <= ``var`` <= every upper, and, when
    exact, holds whenever it does. Comparisons on either side, ``and``, definitions, and
    ``all x in D: P or var < B(x)`` (``P`` not reading ``var``): then ``var`` <=
    hi - max(x in D: either(P, 0, hi - (B(x) - 1))), which is ``hi`` when every element
    satisfies ``P`` (or there is none)."""
    if isinstance(e, DefineCall) and e.index < len(ir.defines):
        return bounds(inline(e, ir.defines), var, lo, hi, ir)
    if isinstance(e, Binary) and e.op == "and":
        a, b = bounds(e.left, var, lo, hi, ir), bounds(e.right, var, lo, hi, ir)
        return a[0] + b[0], a[1] + b[1], a[2] and b[2]
    if isinstance(e, Binary) and e.op in _FLIP:
        for side, other, op in ((e.left, e.right, e.op), (e.right, e.left, _FLIP[e.op])):
            if isinstance(side, Local) and side.name == var and var not in reads(other):
                one = Const(1, INT)
                low, high = {
                    "<": ([], [_minus(other, one)]),
                    "<=": ([], [other]),
                    ">": ([Binary("+", other, one, INT)], []),
                    ">=": ([other], []),
                    "==": ([other], [other]),
                }[op]
                return low, high, True
        return [], [], False
    if isinstance(e, Quant) and e.kind == "all" and e.var != var:
        guard, body = Const(0, BOOL), e.body
        if isinstance(body, Binary) and body.op == "or" and var not in reads(body.left):
            guard, body = body.left, body.right
        low, high, exact = bounds(body, var, lo, hi, ir)
        out: tuple[list[Expr], list[Expr]] = ([], [])
        for b in high:
            gap = Call("either", (guard, Const(0, INT), _minus(Const(hi, INT), b)), INT)
            out[1].append(_minus(Const(hi, INT), Quant("max", e.var, e.domain, gap, INT)))
        for b in low:
            gap = Call("either", (guard, Const(0, INT), _minus(b, Const(lo, INT))), INT)
            out[0].append(Binary("+", Const(lo, INT), Quant("max", e.var, e.domain, gap, INT), INT))
        return out[0], out[1], exact and bool(low or high)
    return [], [], False


# -- plans ----------------------------------------------------------------------------


def plan_action(ir: GameIR, index: int) -> ActionPlan:
    """The loops that list action ``index``'s legal moves (see the module docstring); for
    a move of two steps (``then:``, ir/compound.py), its first step's."""
    a: Action = ir.actions[index]
    if a.then is not None:
        return _plan(ir, index, a.params[: a.then.first], a.where, 0)
    return _plan(ir, index, a.params, a.where, 0)


def plan_then(ir: GameIR, index: int) -> Optional[ActionPlan]:
    """For a move of two steps (``then:``): the loops of its second step, run on the state
    the first step left, its parameters bound; its conjuncts that read only the first
    step's parameters are in ``top``. None for any other action."""
    a: Action = ir.actions[index]
    if a.then is None:
        return None
    return _plan(ir, index, a.params, a.then.where, a.then.first)


def _plan(ir: GameIR, index: int, params: tuple, where: Expr, bound: int) -> ActionPlan:
    """The plan of ``where`` over ``params``, the first ``bound`` of them already bound."""
    names = [p.name for p in params]
    at: list[list[Expr]] = [[] for _ in range(len(names) + 1)]
    for conj in conjuncts(where, ir.defines):
        used = [names.index(x) for x in reads(conj) if x in names]
        at[max(used) + 1 if used else 0].append(conj)
    top = [c for j in range(bound + 1) for c in at[j]]
    levels = []
    for j, p in enumerate(params):
        if j < bound:
            continue
        conds = at[j + 1]
        cands, pin, exact = None, None, False
        if p.type == CELL:
            for c in conds:
                found = candidates(c, p.name, ir)
                if found is not None and candidate_leaves(found[0]) <= MAX_CANDIDATES:
                    cands, pin, exact = tuple(found[0]), c, found[1]
                    break
        if exact:
            conds = [c for c in conds if c is not pin]
        elif pin is not None:  # tested as written out, so that every wording tests the same
            conds = [expanded(c, ir) if c is pin else c for c in conds]
        lower: list[Expr] = []
        upper: list[Expr] = []
        if p.type == INT:
            kept = []
            for c in conds:
                low, high, exact_bound = bounds(c, p.name, p.lo, p.hi, ir)
                lower += low
                upper += high
                if not exact_bound:  # (a bound that says all the conjunct says replaces it)
                    kept.append(c)
            conds = kept
        pure: dict = {}
        facts = tuple(c for c in conds if is_pure(c, ir.defines, pure))
        once = tuple(c for c in conds if c not in facts and not (reads(c) & set(names[:j])))
        keyed = None
        if cands is None and not lower and not upper:
            for c in conds:
                e = c
                while isinstance(e, DefineCall) and e.index < len(ir.defines):
                    e = inline(e, ir.defines)
                if isinstance(e, Binary) and e.op == "==" and c not in facts:
                    for key, value in ((e.left, e.right), (e.right, e.left)):
                        if reads(key) == {p.name} and p.name not in reads(value) and is_pure(key, ir.defines, pure):
                            keyed = (c, key, value)
                            break
                if keyed is not None:
                    break
        levels.append(Level(j, p, cands, pin, exact, tuple(conds), once, facts, tuple(lower), tuple(upper), keyed))
    return ActionPlan(index, tuple(top), tuple(levels))


def plan_game(ir: GameIR) -> tuple[ActionPlan, ...]:
    return tuple(plan_action(ir, i) for i in range(len(ir.actions)))


# -- comparing plans --------------------------------------------------------------------


def expanded(e: Expr, ir: GameIR) -> Expr:
    """``e`` with every definition inlined and every ``any``/``all`` over directions,
    players or a small constant range unrolled into ``or``/``and``: the same meaning,
    written out (for comparing wordings)."""
    if isinstance(e, DefineCall) and e.index < len(ir.defines):
        return expanded(inline(e, ir.defines), ir)
    if isinstance(e, Call):
        return Call(e.fn, tuple(expanded(a, ir) for a in e.args), e.type)
    if isinstance(e, Unary):
        return Unary(e.op, expanded(e.arg, ir), e.type)
    if isinstance(e, Binary):
        return Binary(e.op, expanded(e.left, ir), expanded(e.right, ir), e.type)
    if isinstance(e, Quant):
        values = _unrolled(e, ir) if e.kind in ("any", "all") else None
        if values:
            parts = [expanded(substitute(e.body, {e.var: v}), ir) for v in values]
            out = parts[0]
            for x in parts[1:]:
                out = Binary("or" if e.kind == "any" else "and", out, x, BOOL)
            return out
        domain = type(e.domain)(e.domain.kind, tuple(expanded(a, ir) for a in e.domain.args), e.domain.elem_type)
        return Quant(e.kind, e.var, domain, expanded(e.body, ir), e.type)
    return e


def canonical(e: object, names: dict) -> str:
    """An expression as text with parameters renamed by position (``names``), quantifier
    variables by depth, the operands of ``and``/``or`` chains and of ``==``, ``!=``, ``+``,
    ``*`` in a fixed order: equal wordings of one rule give equal text (expressions are
    pure and total, so the order of operands never changes a value)."""

    def chain(x: object, op: str) -> list:
        if isinstance(x, Binary) and x.op == op:
            return chain(x.left, op) + chain(x.right, op)
        return [x]

    def walk(x: object, bound: dict) -> str:
        if isinstance(x, Const):
            return f"{x.type}:{x.value}"
        if isinstance(x, Local):
            return bound.get(x.name) or names.get(x.name, x.name)
        if isinstance(x, Call):
            return f"{x.fn}({', '.join(walk(y, bound) for y in x.args)})"
        if isinstance(x, DefineCall):
            return f"def{x.index}({', '.join(walk(y, bound) for y in x.args)})"
        if isinstance(x, Unary):
            return f"{x.op}({walk(x.arg, bound)})"
        if isinstance(x, Binary) and x.op in ("and", "or"):
            return f"{x.op}[{'; '.join(sorted(set(walk(y, bound) for y in chain(x, x.op))))}]"
        if isinstance(x, Binary):
            left, right = walk(x.left, bound), walk(x.right, bound)
            if x.op in ("==", "!=", "+", "*") and right < left:
                left, right = right, left
            return f"({left} {x.op} {right})"
        if isinstance(x, Quant):
            inner = dict(bound)
            inner[x.var] = f"q{len(bound)}"
            dom = f"{x.domain.kind}({', '.join(walk(y, bound) for y in x.domain.args)})"
            return f"{x.kind}({inner[x.var]} in {dom}: {walk(x.body, inner)})"
        return repr(x)

    return walk(e, {})


def plan_shape(ir: GameIR, p: ActionPlan) -> tuple:
    """A plan as plain data, its expressions written out (``expanded``) and in canonical
    text with the action's parameters renamed ``p0, p1, ...``, sets of conditions and
    candidates sorted: what ``tests/test_plans.py`` compares."""
    a = ir.actions[p.action]
    names = {q.name: f"p{i}" for i, q in enumerate(a.params)}
    text = lambda xs: tuple(sorted(canonical(expanded(x, ir), names) for x in xs))  # noqa: E731
    return (
        text(p.top),
        tuple(
            (L.param.type, L.param.lo, L.param.hi, None if L.candidates is None else text(set(L.candidates)), L.exact, text(L.conds), text(L.once), text(L.facts), text(L.lower), text(L.upper))
            for L in p.levels
        ),
    )
