"""Small facts about IR conditions that both back ends use to list legal moves quickly.

Both back ends hoist each conjunct of an action's ``where`` to the outermost parameter
loop that binds everything it reads, and when a conjunct pins a cell parameter to a few
values (``t == step(f, d) or t == ...``) they loop over those values only, in ascending
order. Both are sound because expressions are pure and total, so the listed moves (and
their order) are exactly those of the plain scan over every binding.
"""

from __future__ import annotations

from typing import Optional

from .nodes import Binary, Call, Const, DefineCall, Domain, Expr, Local, Quant, Unary


def conjuncts(e: Expr) -> list[Expr]:
    """``a and b and c`` -> [a, b, c] (any other expression: [e])."""
    if isinstance(e, Binary) and e.op == "and":
        return conjuncts(e.left) + conjuncts(e.right)
    return [e]


def reads(e: object, bound: frozenset = frozenset()) -> set[str]:
    """The names of the locals ``e`` reads and does not bind itself."""
    if isinstance(e, Local):
        return set() if e.name in bound else {e.name}
    if isinstance(e, Quant):
        return reads(e.domain, bound) | reads(e.body, bound | {e.var})
    if isinstance(e, Domain):
        return set().union(*(reads(a, bound) for a in e.args)) if e.args else set()
    if isinstance(e, (Call, DefineCall)):
        return set().union(*(reads(a, bound) for a in e.args)) if e.args else set()
    if isinstance(e, Unary):
        return reads(e.arg, bound)
    if isinstance(e, Binary):
        return reads(e.left, bound) | reads(e.right, bound)
    return set()


def substitute(e: Expr, values: dict) -> Expr:
    """``e`` with the locals named in ``values`` replaced by those expressions."""
    from dataclasses import fields, is_dataclass, replace

    if isinstance(e, Local):
        return values.get(e.name, e)
    if isinstance(e, Quant):
        inner = {k: v for k, v in values.items() if k != e.var}
        return replace(e, domain=substitute(e.domain, values), body=substitute(e.body, inner))
    if not is_dataclass(e):
        return e
    changes = {}
    for f in fields(e):
        v = getattr(e, f.name)
        if is_dataclass(v):
            changes[f.name] = substitute(v, values)
        elif isinstance(v, tuple):
            changes[f.name] = tuple(substitute(x, values) if is_dataclass(x) else x for x in v)
    return replace(e, **changes)


def candidates(e: Expr, var: str, defines: tuple = ()) -> Optional[list[Expr]]:
    """Expressions (not reading ``var``) such that ``e`` can only hold when ``var`` equals
    one of them; None when ``e`` does not pin ``var`` down that way. ``defines`` (the
    game's definitions) lets it look inside calls of definitions."""
    if isinstance(e, DefineCall) and e.index < len(defines):
        d = defines[e.index]
        at = [i for i, a in enumerate(e.args) if var in reads(a)]
        if len(at) != 1 or not (isinstance(e.args[at[0]], Local) and e.args[at[0]].name == var):
            return None
        inner = candidates(d.body, d.params[at[0]].name, defines)
        if inner is None:
            return None
        others = {p.name: a for i, (p, a) in enumerate(zip(d.params, e.args)) if i != at[0]}
        return [substitute(x, others) for x in inner]
    if isinstance(e, Binary):
        if e.op == "==":
            for side, other in ((e.left, e.right), (e.right, e.left)):
                if isinstance(side, Local) and side.name == var and var not in reads(other):
                    return [other]
            return None
        if e.op == "or":
            a, b = candidates(e.left, var, defines), candidates(e.right, var, defines)
            return None if a is None or b is None else a + b
        if e.op == "and":
            a = candidates(e.left, var, defines)
            return a if a is not None else candidates(e.right, var, defines)
    if isinstance(e, Const) and e.value == 0:
        return []
    return None
