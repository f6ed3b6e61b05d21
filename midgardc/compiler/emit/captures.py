"""Removals (``remove``, one square or every square ``each`` finds) in C. The Python
meaning is ``midgardc.runtime.rules.captures`` (with flips of flanked runs, which are one
call of the template's ``flip_flanked``)."""

from __future__ import annotations

from ...ir.analysis import conjoin, conjuncts
from ...ir.nodes import Remove
from .common import CAPTURE_MODES, comment_text, guarded, unparse, unparse_domain, free_locals, Var, Scope, RemoveFn


class Captures:
    """Part of ``ExprCompiler`` (``compiler/codegen.py``): removals."""

    def removals_comment(self, eff: Remove) -> str:
        ir = self.ir
        text = f"remove the piece on {unparse(eff.at, ir)}"
        if eff.each is not None:
            text += f" for each {eff.var} in {unparse_domain(eff.each, ir)}"
        if eff.where is not None:
            text += f" where {unparse(eff.where, ir)}"
        return comment_text(text + f" (to {eff.to})")

    def removal(self, eff: Remove, scope: Scope) -> str:
        """``remove_<n>(st, locals...)`` for one remove effect (see RemoveFn). The parts of
        its ``where`` that do not read the element (all of it when there is no ``each``)
        are tested before the call, so that a remove that seldom applies (one that only a
        rare kind of move makes) costs a test, not a call that clears a set of cells:
        the cells are all found before any piece is taken off, so the test reads the
        same position either way."""
        bound = frozenset({eff.var}) if eff.each is not None else frozenset()
        parts = conjuncts(eff.where) if eff.where is not None else []
        outside = [c for c in parts if not bound & set(free_locals(c))]
        inside = [c for c in parts if bound & set(free_locals(c))]
        where_in = conjoin(inside) if inside else None
        names: list[str] = []  # in first-use order (never by name: code must not depend on names)
        for part, inside_of in ((eff.each, frozenset()), (where_in, bound), (eff.at, bound)):
            names += [n for n in free_locals(part, inside_of) if n not in names]
        params = [(n, Var(f"f{i}", scope[n].type)) for i, n in enumerate(names)]
        inner: Scope = {n: v for n, v in params}
        loop = None
        if eff.each is not None:
            loop = self.domain_loop(eff.each, inner, "x")
            inner[eff.var] = Var("x", eff.each.elem_type)
        where = self.expr(where_in, inner).text if where_in is not None else None
        at = self.expr(eff.at, inner).text
        index = len(self.removals)
        self.removals.append(RemoveFn(index, params, loop, where, at, CAPTURE_MODES[eff.to], self.removals_comment(eff)))
        call = f"remove_{index}(st" + "".join(", " + scope[n].cname for n in names) + ")"
        return guarded(self.expr(conjoin(outside), scope).text if outside else None, call)
