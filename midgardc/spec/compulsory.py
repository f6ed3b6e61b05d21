"""Lowering of an action's ``compulsory: true`` ("capturing is compulsory": while a move
of this action is legal, no other action's move is; Ludii's ``(priority ...)``).

It lowers to what the language already has: every other action's ``where`` gains a last
conjunct ``not <the compulsory action has a legal move>``, so both back ends run plain
conditions. "Has a legal move" is its ``where`` under ``any`` over each parameter; a cell
parameter that the condition pins down (``t == hop(f, d)`` somewhere in an ``and``) is
eliminated by the one-point rule (``any t in cells: t == E and P(t)`` is ``onboard(E) and
P(E)``), looking through ``or``, inner ``any`` and the definitions it calls, so the test
costs what a hand-written "can capture" would, not a loop over every target cell."""

from __future__ import annotations

import dataclasses
from typing import Optional

from ..errors import SpecError
from ..ir.analysis import conjoin, conjuncts
from ..ir.nodes import BOOL, CELL, DIR, INT, PLAYER, Action, Binary, Call, DefineCall, Domain, Expr, Local, Quant, Unary
from .blocks import _bound, _locals, _substitute
from .yamlpos import YMap

# the collection a quantifier ranges over for a parameter of each type
_DOMAINS = {CELL: "cells", DIR: "directions", PLAYER: "players"}


def compulsory_actions(low, node: YMap, actions: tuple[Action, ...], has_phases: bool) -> tuple[Action, ...]:
    """``actions`` with every other action's ``where`` refusing while a compulsory one has a
    legal move. ``low`` is the ``Lowerer``; ``node`` the ``actions:`` section."""
    musts = []
    for aname, body in node.items.items():
        if not isinstance(body, YMap) or "compulsory" not in body:
            continue
        flag = body["compulsory"]
        if not low.scalar(flag, bool, "compulsory (true or false)"):
            continue
        if has_phases:
            raise SpecError(f"action '{aname}': 'compulsory' cannot be used with phases yet (say the priority in the other actions' 'where')", flag.pos)
        for key in ("legal_after", "then", "rows"):
            if key in body:
                raise SpecError(f"action '{aname}': 'compulsory' cannot be used with '{key}' yet", flag.pos)
        musts.append((aname, flag.pos))
    if not musts:
        return actions
    out = list(actions)
    for aname, pos in musts:
        must = next(a for a in actions if a.name == aname)
        can = legal_somewhere(low, must, pos)
        for i, other in enumerate(out):
            if other.name != aname:
                out[i] = dataclasses.replace(other, where=Binary("and", other.where, Unary("not", can, BOOL), BOOL))
    return tuple(out)


def legal_somewhere(low, action: Action, pos) -> Expr:
    """``any`` binding of the action's parameters satisfies its ``where`` (the first
    parameter outermost, as the moves are listed)."""
    body = action.where
    for p in reversed(action.params):
        if p.type == INT:
            dom = Domain("range", (_const(p.lo), _const(p.hi)), INT)
        elif p.type in _DOMAINS:
            dom = Domain(_DOMAINS[p.type], (), p.type)
        else:
            raise SpecError(f"action '{action.name}': 'compulsory' needs parameters of type cell, dir, player or a range (not '{p.name}' of type {p.type})", pos)
        body = _exists(low, p.name, dom, body)
    return body


def _const(v: int):
    from ..ir.nodes import Const

    return Const(v, INT)




def _exists(low, var: str, dom: Domain, e: Expr) -> Expr:
    """``any var in dom: e``, with ``var`` pushed as deep as it goes and, for cells,
    eliminated where an equation fixes it (conditions are pure: only the cost changes)."""
    found = _push(low, var, dom, e, 0) if dom.kind == "cells" else None
    return found if found is not None else Quant("any", var, dom, e, BOOL)


def _push(low, var: str, dom: Domain, e: Expr, depth: int) -> Optional[Expr]:
    """``any var in cells: e`` without the quantifier, or None where it must stay."""
    if var not in _locals(e):
        return e  # (the board has cells: `any t in cells: P` is P)
    if depth > 8:
        return None
    if isinstance(e, Binary) and e.op == "or":
        return Binary("or", _exists(low, var, dom, e.left), _exists(low, var, dom, e.right), BOOL)
    if isinstance(e, Quant) and e.kind == "any" and e.var != var and var not in _locals(e.domain):
        inner = _push(low, var, dom, e.body, depth + 1)
        return dataclasses.replace(e, body=inner) if inner is not None else None
    if isinstance(e, DefineCall) and var in _locals(e.args):
        d = low.defines[e.index]
        if _bound(d.body) & set().union(*(_locals(a) for a in e.args)):
            return None  # (inlining would capture a name: keep the loop)
        return _push(low, var, dom, _substitute(d.body, {p.name: a for p, a in zip(d.params, e.args)}), depth + 1)
    parts = conjuncts(e)
    mine = [i for i, x in enumerate(parts) if var in _locals(x)]
    if len(parts) > 1 and len(mine) == 1:
        inner = _push(low, var, dom, parts[mine[0]], depth + 1)
        if inner is None:
            return None
        return conjoin(parts[: mine[0]] + [inner] + parts[mine[0] + 1 :])
    for i in mine:  # the one-point rule: var == E with E free of var
        x = parts[i]
        if isinstance(x, Binary) and x.op == "==":
            value = x.right if x.left == Local(var, CELL) else x.left if x.right == Local(var, CELL) else None
            if value is None or var in _locals(value):
                continue
            rest = parts[:i] + parts[i + 1 :]
            if any(_bound(r) & _locals(value) for r in rest):
                continue  # (substituting would capture a name)
            return conjoin([_substitute(r, {var: value}) if r is not x else r for r in parts[:i]] + [Call("onboard", (value,), BOOL)] + [_substitute(r, {var: value}) for r in parts[i + 1 :]])
    return None
