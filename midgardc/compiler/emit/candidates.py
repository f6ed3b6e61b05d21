"""Candidate cells in C: a plan's candidates (``midgardc/ir/plan.py``: expressions, groups
guarded by a condition, one candidate per element of a domain such as ``slide(f, d)``)
listed by a function of the outer parameters, ``cands_<n>(st, out, a0, ...)``, that adds
their values to a cell set (``out``, WORDS words; an off-board value adds nothing): the
loop then visits its cells in ascending order, like a set of cells from a condition. The Python meaning is
``midgardc.runtime.rules.moves.candidate_lister``."""

from __future__ import annotations

from ...ir.analysis import subexpressions
from ...ir.nodes import CELL, Call, Const, DefineCall, Local, Quant
from ...ir.plan import EACH, WHEN, plain_candidate
from .common import Var


def plain(items) -> bool:
    """Whether every candidate is a single expression (listed inline by the template)."""
    return all(plain_candidate(c) for c in items)


def costly(e) -> bool:
    """Whether ``e`` loops or calls a definition (anything past a few table reads)."""
    return any(isinstance(x, (Quant, DefineCall)) for x in subexpressions(e))


def candidate_function(x, items, scope: dict, params: list, index: int) -> str:
    """The Cython text of ``cands_<index>``; ``x`` is the ``ExprCompiler``, ``params`` the
    outer parameters' Vars (the function's arguments after ``st`` and ``out``)."""
    decls: list[str] = ["int w"]
    lines: list[str] = []
    counter = [0]
    scope = dict(scope)

    def emit(c, depth: int) -> None:
        pad = "    " * depth
        if isinstance(c, Call) and c.fn == WHEN:
            guard = c.args[0]
            inner = depth
            if not (isinstance(guard, Const) and guard.value == 1):
                test = x.expr(guard, scope).text
                only = c.args[1] if len(c.args) == 2 else None
                if only is not None and plain_candidate(only) and not isinstance(only, Const) and getattr(only, "type", None) == CELL and costly(guard) and not costly(only):
                    # one cheap value behind a costly guard (a cell a counter holds, which may
                    # be none): the guard is made only when the value is a cell, since
                    # add_candidate() would add nothing else
                    test = f"0 <= {x.expr(only, scope).text} < N_CELLS and {test}"
                lines.append(f"{pad}if {test}:")
                inner = depth + 1
            before = len(lines)
            for sub in c.args[1:]:
                emit(sub, inner)
            if len(lines) == before and inner > depth:
                lines.append(f"{pad}    pass")
            return
        if isinstance(c, Quant) and c.kind == EACH and c.domain.kind == "slide" and c.body == Local(c.var, CELL) and x.ray_plan() is not None:
            # every cell of a slide: its mask at once (emit/rays.py)
            k = counter[0]
            counter[0] += 1
            src, way = (x.expr(a, scope).text for a in c.domain.args)
            decls.append(f"uint64_t e{k}_ray[WORDS]")
            lines.append(f"{pad}slide_bits(&st.cellsets[0][0], {src}, {way}, e{k}_ray)")
            lines.append(f"{pad}for w in range(WORDS):")
            lines.append(f"{pad}    out[w] |= e{k}_ray[w]")
            x.uses_ray_bits = True
            return
        if isinstance(c, Quant) and c.kind == EACH:
            k = counter[0]
            counter[0] += 1
            cname = f"e{k}"
            loop = x.domain_loop(c.domain, scope, cname, prefix=f"e{k}_", walk=True)
            decls.append(f"{loop.var_ctype} {cname}")
            decls.extend(loop.decls)
            for line in loop.setup:
                lines.append(pad + line)
            lines.append(pad + loop.header)
            for line in loop.bind:
                lines.append(pad + "    " + line)
            saved = scope.get(c.var)
            scope[c.var] = Var(cname, c.domain.elem_type)
            emit(c.body, depth + 1)
            if saved is None:
                scope.pop(c.var, None)
            else:
                scope[c.var] = saved
            return
        lines.append(f"{pad}add_candidate(out, {x.expr(c, scope).text})")

    for c in items:
        emit(c, 1)
    args = "".join(f", {p.ctype} {p.cname}" for p in params)
    head = f"cdef void cands_{index}(State* st, uint64_t* out{args}) noexcept nogil:"
    body = [f"    cdef {d}" for d in decls] + ["    for w in range(WORDS):", "        out[w] = 0"] + lines
    return "\n".join([head] + body)
