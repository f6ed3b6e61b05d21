"""Lowering of an action's ``continue:`` (a compound move's step, ``midgardc/ir/compound.py``):
the value of the next step's first parameter, the condition to go on, the notation of the
further steps and the bounds; and of its ``then:`` (a second step of another kind): its
parameters, condition, effects and notation, joined to the first step's."""

from __future__ import annotations

from ..errors import Pos, SpecError
from ..ir.compound import MAX_NEXT, MAX_STEPS, MAX_WAYS, Chain, Then
from ..ir.nodes import BOOL, INT, Const, Effect, Expr, Param
from .yamlpos import YMap, YNode


def lower_chain(low, node: YNode, params: tuple[Param, ...], scope: dict, aname: str, notation: tuple, step_size: int, has_after: bool, pos: Pos) -> Chain:
    """``low`` is the ``Lowerer``; ``notation`` the step's own (lowered)."""
    if not isinstance(node, YMap):
        raise SpecError("'continue' is a mapping: {from: EXPRESSION, while: CONDITION, notation: TEXT, limit: N, ways: N, most: NUMBER}", node.pos)
    body = low.keys(node, "continue", f"'continue' of action '{aname}'")
    if not params:
        raise SpecError(f"action '{aname}' has no parameters, so no step can go on from where the last one ended: 'continue' binds the first parameter of the next step", node.pos)
    if has_after:
        raise SpecError(f"action '{aname}': 'continue' and 'legal_after' cannot be used together yet (say the condition in 'where' or 'continue.while')", node.pos)
    first = params[0]
    if step_size // max(low.param_size(first), 1) > MAX_NEXT:  # (the engines keep them in a buffer on the stack)
        raise SpecError(f"action '{aname}': a step has {step_size // low.param_size(first)} bindings for one value of its first parameter '{first.name}' (at most {MAX_NEXT}); give the other parameters smaller domains", node.pos)
    value = low.condition(body["from"], scope, first.type)
    going = low.condition(body["while"], scope) if "while" in body else None
    most = low.condition(body["most"], scope, INT) if "most" in body else None  # the measure a whole move must maximise
    limit = low.scalar(body["limit"], int, "continue.limit", 1, MAX_STEPS) if "limit" in body else 16
    ways = low.scalar(body["ways"], int, "continue.ways", 1, MAX_WAYS) if "ways" in body else 64
    if "notation" in body:
        rest = low.lower_notation(body["notation"], params[1:], aname, body["notation"].pos)
        further = tuple(p if isinstance(p, str) else p + 1 for p in rest)
    else:  # the step's notation after its first parameter: "{f}x{t}" -> "x{t}"
        if 0 not in notation or notation.index(0) == len(notation) - 1:
            raise SpecError(f"action '{aname}': write how a further step is written, e.g. continue: {{notation: \"x{{...}}\"}} (the step's notation does not end with other parameters after its first)", node.pos)
        further = notation[notation.index(0) + 1 :]
        missing = [p.name for i, p in enumerate(params) if i > 0 and i not in further]
        if missing:
            raise SpecError(f"action '{aname}': a further step would not show {', '.join(missing)}; give continue.notation", node.pos)
    if not further or isinstance(further[0], int):
        raise SpecError(f"action '{aname}': a further step's notation must start with a separator (e.g. 'x{{t}}'), so one move's steps can be told apart", body["notation"].pos if "notation" in body else node.pos)
    return Chain(value, going, further, limit, ways, step_size, most)



def lower_then(low, node: YNode, params: tuple[Param, ...], scope: dict, aname: str, has_after: bool, has_chain: bool, pos: Pos) -> tuple[tuple[Param, ...], Expr, tuple[Effect, ...], tuple]:
    """The second step of action ``aname``: (its parameters, its ``where``, its effects,
    its notation with parameter places counted after the first step's). ``low`` is the
    ``Lowerer``; ``scope`` the first step's parameters. (The caller adds the hand and
    pool checks of the effects to the ``where``, as for any action.)"""
    if not isinstance(node, YMap):
        raise SpecError("'then' is the move's second step, a mapping: {params: {...}, where: CONDITION, effects: [...], notation: TEXT}", node.pos)
    body = low.keys(node, "then", f"'then' of action '{aname}'")
    if has_after:
        raise SpecError(f"action '{aname}': 'then' and 'legal_after' cannot be used together yet (say the condition in the second step's 'where')", node.pos)
    if has_chain:
        raise SpecError(f"action '{aname}': 'then' and 'continue' cannot be used together yet (a move is either one action's steps repeated or two steps of different kinds)", node.pos)
    second = low.lower_params(body["params"])
    if not second:
        raise SpecError(f"action '{aname}': the second step ('then') needs parameters, e.g. params: {{a: cell}} (without any, put its effects in the first step's)", body["params"].pos)
    taken = {p.name for p in params}
    for p in second:
        if p.name in taken:
            raise SpecError(f"action '{aname}': the second step's parameter '{p.name}' is also a parameter of the first step; give it another name (the second step reads the first step's parameters by their names)", body["params"].key_pos[p.name])
    inner = dict(scope, **{p.name: p.type for p in second})
    where = low.condition(body["where"], inner) if "where" in body else Const(1, BOOL)
    effects = low.lower_effects(body.get("effects"), inner, f"the second step of action '{aname}'")
    if "notation" in body:
        notation = low.lower_notation(body["notation"], second, aname, body["notation"].pos)
        if isinstance(notation[0], int):
            raise SpecError(f"action '{aname}': the second step's notation must start with a separator (e.g. '/{{{second[0].name}}}'), so the two steps of a move can be told apart", body["notation"].pos)
    else:  # "/{a}", or "/{a}:{b}" for several parameters
        notation = ("/",) + tuple(x for j in range(len(second)) for x in ((":", j) if j else (j,)))
    return second, where, effects, tuple(x if isinstance(x, str) else x + len(params) for x in notation)
