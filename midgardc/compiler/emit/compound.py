"""Compound moves in C (``midgardc/ir/compound.py``): the facts ``templates/compound.pyx.j2``
needs for an action whose steps go on (``continue:``) and for a move of two steps
(``then:``: its first step's effects and its second step's loops, run on a scratch copy). The Python meaning is
``midgardc.runtime.rules.compound``: the whole moves a first step starts are found by a
depth-first search over the steps on scratch states on the stack (as ``after_ok_N`` does
for a lookahead), continuations in ascending order of their step ids."""

from __future__ import annotations

from typing import Optional

from ...ir.plan import plan_then
from .common import comment_text, unparse


def chain_facts(gen, i: int, scope: dict, id_terms: list[str]) -> Optional[dict]:
    """``gen`` is the ``Generator``; ``id_terms`` the terms of the step's binding (its
    mixed-radix index, without the action's base)."""
    ir = gen.ir
    chain = ir.actions[i].chain
    if chain is None:
        return None
    a = ir.actions[i]
    first_size = gen._param_range(a.params[0])[1]
    decode = []  # a step's binding -> b0, b1, ... (last parameter first)
    for j in range(len(a.params) - 1, -1, -1):
        lo, size = gen._param_range(a.params[j])
        decode.append({"var": f"b{j}", "size": size, "lo": lo, "ctype": scope[a.params[j].name].ctype})
    return {
        "names": [p.name for p in a.params],
        "decode": decode,
        "ways": chain.ways,
        "limit": chain.limit,
        "step_size": chain.step_size,
        "after_first": max(chain.step_size // first_size, 1),  # the steps one first parameter value has
        "binding": " + ".join(id_terms) or "0",
        "value": gen.x.expr(chain.value, scope).text,
        "value_comment": comment_text(unparse(chain.value, ir)),
        "going": gen.x.expr(chain.going, scope).text if chain.going is not None else None,
        "going_comment": comment_text(unparse(chain.going, ir)) if chain.going is not None else "",
        "most": gen.x.expr(chain.most, scope).text if chain.most is not None else None,
        "most_comment": comment_text(unparse(chain.most, ir)) if chain.most is not None else "",
    }


def then_facts(gen, i: int, scope: dict, scalar, move_id: str) -> Optional[dict]:
    """For a move of two steps (``then:``): the first step's effects and the second step's
    loops, as an action of their own for the ``loops`` macro (``step``: its first
    parameters bound, placeholders for them in ``loops``); else None. ``gen`` is the
    ``Generator``, ``scalar`` the action's conditions in C, ``move_id`` its id in C."""
    a = gen.ir.actions[i]
    if a.then is None:
        return None
    plan = plan_then(gen.ir, i)
    loops, _ = gen._loops(a, plan, scope, scalar)
    first = a.then.first
    bound = [{"bound": True, "level": j, "set_call": None, "cands": None, "lower": [], "upper": []} for j in range(first)]
    return {
        "first": first,
        "effects": gen.x.effects(a.effects[: a.then.effects], scope),
        "where_comment": comment_text(unparse(a.then.where, gen.ir)),
        "step": {
            "index": i,
            "steps": None,
            "chain": None,
            "then": None,
            "after": None,
            "top_conds": scalar(list(plan.top)),
            "loops": bound + loops,
            "move_id": move_id,
        },
    }
