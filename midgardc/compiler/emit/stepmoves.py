"""Step moves as whole-board bit sets (issue 15, item 1).

An action whose parameters are two cells ``f, t`` (from, to) whose condition on ``t`` is,
with definitions inlined and quantifiers over directions unrolled, a disjunction of
clauses ``t == step(...step(f, d1)..., dk) and C(t)`` — a path of steps from f, and
conditions on t alone (empty, owner, kind, ...: anything that is a cell set) — lists its
moves without a loop per piece: for each clause, the cells f whose path lands on a cell
of C's set is that set pulled back along the path (one shift and one edge mask per
step, ``pull_cells``), and-ed with f's own candidate set. Each clause moves a piece by a
fixed index offset (the sum of its steps' shifts), so a clause's moves are its set of
from-cells; clauses with equal offsets are one set (the same moves). The sets sorted by
offset then give the moves in id order (from ascending, then to ascending): the ids, and
so every random playout, are those of the loops they replace.

Chosen by analysing the IR (never by recognising a game): every direction a path may
take must be one index shift on the whole board (``bitboards.direction_shift``) — a
direction known at compile time, or, when it is read at run time (a player property, say),
every direction of the board. Otherwise, or when a clause's other conditions read f or
do not translate to a cell set, the loops stay (``StepPlan`` is None and ``why_not``
says why; ``midgardc explain`` prints both)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ...ir.analysis import reads
from ...ir.nodes import BOOL, CELL, Binary, Call, Const, Expr, Local
from ...ir.plan import expanded
from .bitboards import MAX_BITBOARD_CELLS, direction_shift, flip_shifts
from .common import comment_text, unparse

#: At most this many clauses (a disjunction larger than this keeps its loops).
MAX_CLAUSES = 16


@dataclass(frozen=True)
class Clause:
    path: tuple[Expr, ...]  # the directions of the steps from f, first step first
    conds: tuple[Expr, ...]  # the conditions on t alone


@dataclass(frozen=True)
class StepPlan:
    clauses: tuple[Clause, ...]


def dnf(e: Expr) -> Optional[list[list[Expr]]]:
    """``e`` as a disjunction of conjunctions of atoms (None when too large)."""
    if isinstance(e, Binary) and e.op in ("and", "or"):
        a, b = dnf(e.left), dnf(e.right)
        if a is None or b is None:
            return None
        out = a + b if e.op == "or" else [x + y for x in a for y in b]
        return out if len(out) <= MAX_CLAUSES else None
    return [[e]]


def _path(e: Expr, f: str) -> Optional[list[Expr]]:
    """The directions of ``e`` as steps from the local f (first step first), or None."""
    dirs: list[Expr] = []
    while isinstance(e, Call) and e.fn == "step":
        dirs.append(e.args[1])
        e = e.args[0]
    if not (isinstance(e, Local) and e.name == f) or not dirs:
        return None
    return dirs[::-1]


def analyse(ir, index: int, plan, f: str, t: str) -> tuple[Optional[StepPlan], str]:
    """The step plan of action ``index`` (its move plan ``plan``), or (None, why not)."""
    board = ir.board
    a = ir.actions[index]
    if len(a.params) != 2 or any(p.type != CELL for p in a.params):
        return None, "not an action of two cells"
    if a.legal_after is not None or a.chain is not None or a.then is not None:
        return None, "a lookahead or compound move"
    if not board.directions or board.n_cells > MAX_BITBOARD_CELLS:
        return None, f"the board has no directions or more than {MAX_BITBOARD_CELLS} cells"
    level = plan.levels[1]
    conds = list(level.conds) + ([level.pin] if level.exact and level.pin is not None else [])
    if not conds:
        return None, f"no condition on {t}"
    joined = conds[0]
    for c in conds[1:]:
        joined = Binary("and", joined, c, BOOL)
    clauses = dnf(expanded(joined, ir))
    if clauses is None:
        return None, f"more than {MAX_CLAUSES} clauses"
    all_shifts = bool(flip_shifts(board))
    out = []
    for atoms in clauses:
        path, rest = None, []
        for x in atoms:
            found = None
            if isinstance(x, Binary) and x.op == "==":
                for side, other in ((x.left, x.right), (x.right, x.left)):
                    if side == Local(t, CELL) and t not in reads(other):
                        found = _path(other, f)
                        if found is not None:
                            break
            if found is not None and path is None and not any(f in reads(d) or t in reads(d) for d in found):
                path = found
            else:
                rest.append(x)
        if path is None:
            return None, f"a clause without `{t} == step(..., d)` from {f}: {unparse(Binary('and', atoms[0], atoms[-1], BOOL), ir) if len(atoms) > 1 else unparse(atoms[0], ir)}"
        for d in path:
            if isinstance(d, Const):
                if direction_shift(board, d.value) is None:
                    return None, f"direction {board.directions[d.value]} is not one index shift on the whole board"
            elif not all_shifts:
                return None, "a direction read at run time, and not every direction is one index shift"
        if any(f in reads(x) for x in rest):
            return None, f"a condition reads both {f} and {t}"
        out.append(Clause(tuple(path), tuple(rest)))
    return StepPlan(tuple(out)), ""


def step_facts(gen, index: int, plan, scope: dict, from_loop: dict) -> Optional[dict]:
    """The template facts of action ``index``'s step moves (``templates/stepmoves.pyx.j2``),
    or None when its loops stay (the reason is kept in ``gen.step_why[index]``)."""
    ir = gen.ir
    a = ir.actions[index]
    if not gen.x.sets_enabled:
        gen.step_why[index] = "too many cells for cell sets"
        return None
    if len(a.params) != 2:
        gen.step_why[index] = "not an action of two cells"
        return None
    f, t = a.params[0].name, a.params[1].name
    sp, why = analyse(ir, index, plan, f, t)
    if sp is None:
        gen.step_why[index] = why
        return None
    if from_loop["conds"] or from_loop["cands"] is not None or from_loop["lower"] or from_loop["upper"]:
        gen.step_why[index] = f"{f} is tested one by one (not a cell set)"
        return None
    items = []
    for k, cl in enumerate(sp.clauses):
        e: Expr = Const(True, BOOL)
        for c in cl.conds:
            e = c if e == Const(True, BOOL) else Binary("and", e, c, BOOL)
        items.append((e, f"tgt{k}", "cells"))
    call = gen.x.cellset_group(items, t, {k: v for k, v in scope.items() if k != f})
    if call is None:
        gen.step_why[index] = f"a condition on {t} is not a cell set"
        return None
    clauses = []
    for k, cl in enumerate(sp.clauses):
        steps = []
        for d in reversed(cl.path):  # pulled back from t: the last step first
            steps.append({"d": str(d.value) if isinstance(d, Const) else gen.x.expr(d, scope).text, "name": comment_text(unparse(d, ir))})
        text = " and ".join([f"{t} == " + _path_text(cl.path, f, ir)] + [unparse(c, ir) for c in cl.conds])
        clauses.append({"k": k, "steps": steps, "comment": comment_text(text)})
    return {"index": index, "call": call, "clauses": clauses, "f": f, "t": t}


def _path_text(path, f: str, ir) -> str:
    out = f
    for d in path:
        out = f"step({out}, {unparse(d, ir)})"
    return out


def explain_steps(facts: Optional[dict], why: str) -> list[str]:
    """The lines ``midgardc explain`` prints for an action of two cells."""
    if facts is None:
        return [f"  step moves as bit sets: no ({why}); the loops above list them"] if why else []
    f, t = facts["f"], facts["t"]
    out = [f"  step moves as bit sets (compiled engine): the loops above are replaced by {len(facts['clauses'])} whole-board set(s) of {f}, one per clause,",
           f"    each the cells of its {t}-condition pulled back along its steps (a shift and an edge mask per step) and-ed with {f}'s cell set;",
           f"    sets with equal offsets {t} - {f} merge, sorted by offset: ids ascending, as the loops list them"]
    out += [f"    clause {c['k']}: {c['comment']}" for c in facts["clauses"]]
    return out
