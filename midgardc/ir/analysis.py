"""Small facts about IR expressions: their conjuncts, the locals they read, substitution,
and the generic walks over them (``children``, ``subexpressions``, ``map_children``,
``contains``) that a pass uses instead of writing its own ``isinstance`` chain when all it
does at a node is recurse. The move plans built on them are ``midgardc/ir/plan.py``."""

from __future__ import annotations

from dataclasses import fields, is_dataclass, replace
from typing import Callable, Iterator

from .nodes import BOOL, DIR, Binary, BoardIR, Call, DefineCall, Domain, Expr, GameIR, Local, Quant, Unary


def conjuncts(e: Expr) -> list[Expr]:
    """``a and b and c`` -> [a, b, c] (any other expression: [e])."""
    if isinstance(e, Binary) and e.op == "and":
        return conjuncts(e.left) + conjuncts(e.right)
    return [e]


def conjoin(parts: list[Expr]) -> Expr:
    """[a, b, c] -> ``a and b and c``: the inverse of ``conjuncts`` (``parts`` not empty)."""
    out = parts[0]
    for x in parts[1:]:
        out = Binary("and", out, x, BOOL)
    return out


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


def children(e: object) -> tuple:
    """The expressions directly inside ``e``, in reading order: a call's arguments, an
    operator's operands, a domain's arguments, a quantifier's domain arguments then body."""
    if isinstance(e, (Call, DefineCall, Domain)):
        return e.args
    if isinstance(e, Unary):
        return (e.arg,)
    if isinstance(e, Binary):
        return (e.left, e.right)
    if isinstance(e, Quant):
        return (*e.domain.args, e.body)
    return ()


def subexpressions(e: object) -> Iterator[Expr]:
    """``e`` and every expression inside it, parent before children, in reading order
    (bound variables are not tracked: see ``reads`` for the free ones)."""
    stack = [e]
    while stack:
        x = stack.pop()
        yield x
        stack.extend(reversed(children(x)))


def map_children(e: Expr, fn: Callable[[Expr], Expr]) -> Expr:
    """``e`` with ``fn`` applied to each expression directly inside it (a quantifier's
    domain arguments and body alike): the rebuilding half of a transforming walk."""
    if isinstance(e, Quant):
        return replace(e, domain=map_children(e.domain, fn), body=fn(e.body))
    if isinstance(e, (Call, DefineCall, Domain)):
        return replace(e, args=tuple(fn(a) for a in e.args))
    if isinstance(e, Unary):
        return replace(e, arg=fn(e.arg))
    if isinstance(e, Binary):
        return replace(e, left=fn(e.left), right=fn(e.right))
    return e


def substitute(e: Expr, values: dict) -> Expr:
    """``e`` with the free locals named in ``values`` replaced by those expressions, all at
    once (so ``{a: b, b: a}`` swaps; a quantifier's variable hides an outer name)."""
    if isinstance(e, Local):
        return values.get(e.name, e)
    if isinstance(e, Quant) and e.var in values:
        inner = {k: v for k, v in values.items() if k != e.var}
        return replace(e, domain=map_children(e.domain, lambda a: substitute(a, values)), body=substitute(e.body, inner))
    return map_children(e, lambda a: substitute(a, values))


def contains(root: object, found: Callable[[object], bool]) -> bool:
    """Whether any node under ``root`` (an expression, an effect, a whole ``GameIR``, or
    tuples, lists and dicts of them) satisfies ``found``: a walk over dataclasses and
    containers. The board's tables hold no expressions and are skipped."""
    seen: set[int] = set()
    stack: list[object] = [root]
    while stack:
        x = stack.pop()
        if found(x):
            return True
        if isinstance(x, (str, int, float, bool, type(None), BoardIR, type)) or id(x) in seen:
            continue
        seen.add(id(x))
        if isinstance(x, (tuple, list)):
            stack.extend(x)
        elif isinstance(x, dict):
            stack.extend(x.values())
        elif is_dataclass(x):
            stack.extend(getattr(x, f.name) for f in fields(x))
    return False


def set_directions(ir: GameIR, d: Domain, var: str, cond: "Expr | None") -> "list[int] | None":
    """The directions a loop over every direction (``d``) with bound variable ``var`` need
    visit when each element is tested with ``cond`` (a for_each's where, a quantifier's
    body): those of the first conjunct that is a fixed attribute of the bound direction
    (a direction set: ``wings(d)``, ``diagonal(d)``), in board order; None when there is
    none, or ``d`` is not every direction. Both back ends loop over just these, so a set
    costs its own size, not the board's directions."""
    if d.kind != "directions" or cond is None:
        return None
    for c in conjuncts(cond):
        if isinstance(c, Call) and c.fn == "attr" and isinstance(c.args[1], Local) and c.args[1].name == var:
            index = c.args[0].value
            a = ir.attributes[index] if index < len(ir.attributes) else None
            if a is not None and a.of == DIR and not a.keys:
                return [x for x in range(len(ir.board.directions)) if a.table[x + a.offset]]
    return None

