"""explain: how each action's legal moves are listed, so a designer sees what a rule costs."""

from __future__ import annotations

from typing import Optional

import click

from ..cli_options import player_count_option, spec_argument, variant_option
from ..ir.nodes import CELL, INT, GameIR
from ..ir.plan import ActionPlan, candidate_leaves, plain_candidate, plan_game
from .common import _load_ir
from .group import cli

_DOMAIN = {"cell": "cells", "player": "players", "kind": "kinds of piece", "dir": "directions", "item": "kinds of item"}


@cli.command()
@spec_argument
@variant_option
@player_count_option
def explain(spec: str, variant: Optional[str], player_count: Optional[int]) -> None:
    """Print, for every action, how its legal moves are listed.

    The loop nest (one loop per parameter, outermost first), the values each loop visits
    (candidate cells pinned by a condition, an integer's bounds, the cell set computed by
    bitboard operations, or a full scan, with the reason), and where each condition is
    tested. Equal wordings of a rule give the same plan (docs/design.md, "Move plans")."""
    ir = _load_ir(spec, variant, player_count)
    for line in explain_lines(ir):
        click.echo(line)


def explain_lines(ir: GameIR) -> list[str]:
    """The text of ``midgardc explain`` for a game."""
    from ..compiler.codegen import Generator
    from ..compiler.emit import bitboards
    from ..compiler.emit.common import unparse

    gen = Generator(ir)
    label = ir.title + (f" [{ir.variant}]" if ir.variant else "") + f" ({ir.n_players} players)"
    out = [f"{label}: how legal moves are listed, action by action (ids ascending)"]
    for p, compiled in zip(plan_game(ir), gen.actions):
        out += _action_lines(ir, p, compiled, lambda e: unparse(e, ir), gen)
    return out + bitboards.explain_lines(gen)


def _action_lines(ir: GameIR, p: ActionPlan, compiled: dict, text, gen) -> list[str]:
    from ..compiler.emit.bitboards import set_operations
    from ..compiler.emit.common import comment_text

    a = ir.actions[p.action]
    params = ", ".join(f"{q.name}: {q.type if q.type != INT else f'{q.lo}..{q.hi}'}" for q in a.params)
    out = ["", f"action {a.name}({params}): move ids {a.base}..{a.base + a.size - 1}", f"  where {text(a.where)}"]
    if p.top:
        out.append("  before any loop: " + " and ".join(text(c) for c in p.top))
    if not p.levels:
        out.append("  one move, no loop")
    for L, loop in zip(p.levels, compiled["loops"]):
        q = L.param
        pad = "  " * (L.index + 1)
        size = {CELL: ir.board.n_cells, "player": ir.n_players, "kind": ir.n_kinds, "dir": len(ir.board.directions), "item": ir.n_item_kinds}.get(q.type, q.hi - q.lo + 1)
        head = f"{pad}loop {q.name}"
        if L.candidates is not None:
            shown = ", ".join(text(x) for x in L.candidates)
            if all(plain_candidate(x) for x in L.candidates):
                out.append(f"{head}: only the {len(L.candidates)} candidate cell(s) {shown} (from {text(L.pin)}" + (", not tested again)" if L.exact else ")"))
            else:  # when(guard, ...): kept where the guard holds; each(x in D: c): one per element of D (C: cands_<n>())
                out.append(f"{head}: only the candidate cells {shown} ({candidate_leaves(list(L.candidates))} expression(s), from {text(L.pin)}" + (", not tested again)" if L.exact else ")"))
        elif L.lower or L.upper:
            out.append(f"{head}: {q.lo}..{q.hi} narrowed to its bounds")
            out += [f"{pad}  at least {text(x)}" for x in L.lower]
            out += [f"{pad}  at most {text(x)}" for x in L.upper]
        elif q.type == CELL and loop["set_call"]:
            out.append(f"{head}: the cells of one cell set, by bitboard operations: {{{q.name} in cells: {loop['set_comment']}}}")
            out.append(f"{pad}  whole-board operations: {set_operations(gen, loop['set_call'])}")
        elif q.type == CELL:
            why = "no condition pins it to a few cells (as `t == step(f, d)` does)"
            why += ", and none translates to a cell set" if L.conds else ", and there is no condition on it alone"
            out.append(f"{head}: a full scan of the {size} cells ({why})")
        else:
            out.append(f"{head}: every one of the {size} {_DOMAIN.get(q.type, 'values')}" if q.type != INT else f"{head}: every value {q.lo}..{q.hi}")
        tested = {comment for _, comment in loop["conds"]}  # (the others are in the cell set)
        for c in L.conds:
            t = text(c)
            if comment_text(t) not in tested:
                continue
            where = "tested for each value"
            if L.keyed is not None and c is L.keyed[0]:
                where = f"interpreter: visits only the values where {text(L.keyed[1])} is {text(L.keyed[2])} (indexed once per game)"
            elif c in L.facts:
                where = "a board fact (interpreter: filters the loop once per game" + (" for each value of the loops outside)" if L.index else ")")
            elif c in L.once:
                where = "reads no outer parameter (interpreter: filters the loop once per position)"
            out.append(f"{pad}  test {t}: {where}")
    from ..compiler.emit.stepmoves import explain_steps  # from/to steps as bit sets

    out += explain_steps(compiled.get("steps"), gen.step_why.get(p.action, ""))
    from ..ir.lookslice import describe  # what a lookahead applies and copies
    from ..ir.plan import STATE_READS

    look = describe(ir, p.action, STATE_READS)
    if look is not None:
        out.append("  " + look)
    if a.chain is not None:  # a compound move (ir/compound.py)
        c = a.chain
        further = "".join(x if isinstance(x, str) else "{" + a.params[x].name + "}" for x in c.notation)
        out.append(f"  a compound move: each legal binding above is a first step; after a step's effects, while {text(c.going) if c.going is not None else 'true'},")
        out.append(f"    a step with {a.params[0].name} = {text(c.value)} must follow when one is legal (at most {c.limit} steps); the whole moves a")
        out.append(f"    first step starts are found depth first on scratch states (the k-th: id {a.base} + first step * {c.ways} + k, at most {c.ways}),")
        out.append(f"    written as the first step, then \"{further}\" per further step; the triggers run once, after the last step")
        if c.most is not None:
            out.append(f"  of the action's whole moves here only those with the greatest {text(c.most)} (after the move, before its triggers) are legal")
    if a.then is not None:  # a move of two steps (ir/compound.py)
        from ..ir.plan import plan_then

        second = plan_then(ir, p.action)
        loops = compiled["then"]["step"]["loops"][a.then.first :]
        out.append(f"  a move of two steps: each legal binding above is a first step; its effects ({a.then.effects} of the move's {len(a.effects)}) run on a scratch")
        out.append(f"    copy, and the second step's loops run there (where {text(a.then.where)}); a first step no second step follows is no move")
        if second.top:
            out.append("    before its loops: " + " and ".join(text(c) for c in second.top))
        for L, loop in zip(second.levels, loops):
            pad = "  " * (L.index + 1)
            if L.candidates is not None:
                how = f"only the candidate cells {', '.join(text(x) for x in L.candidates)} (from {text(L.pin)})"
            elif loop["set_call"]:
                how = f"the cells of one cell set, by bitboard operations: {{{L.param.name} in cells: {loop['set_comment']}}}"
            else:
                how = f"every {L.param.type} value"
            out.append(f"  {pad}loop {L.param.name}: {how}")
            tested = {comment for _, comment in loop["conds"]}
            out += [f"  {pad}  test {text(c)}" for c in L.conds if comment_text(text(c)) in tested]
        out.append(f"    id = {a.base} + the mixed radix of all {len(a.params)} parameters (the first step's slowest), written as both notations joined;")
        out.append("    the triggers run once, after both steps")
    return out
