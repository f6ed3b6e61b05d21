"""Small facts about IR expressions: their conjuncts, the locals they read, and
substitution. The move plans built on them are ``midgardc/ir/plan.py``."""

from __future__ import annotations

from .nodes import Binary, Call, DefineCall, Domain, Expr, Local, Quant, Unary


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
