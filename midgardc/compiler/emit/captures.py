"""Removals (``remove``, one square or every square ``each`` finds) in C. The Python
meaning is ``midgardc.runtime.rules.captures`` (with flips of flanked runs, which are one
call of the template's ``flip_flanked``)."""

from __future__ import annotations

from ...ir.nodes import Remove
from .common import CAPTURE_MODES, comment_text, unparse, unparse_domain, free_locals, Var, Scope, RemoveFn


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
        """``remove_<n>(st, locals...)`` for one remove effect (see RemoveFn)."""
        bound = frozenset({eff.var}) if eff.each is not None else frozenset()
        names: list[str] = []  # in first-use order (never by name: code must not depend on names)
        for part, inside in ((eff.each, frozenset()), (eff.where, bound), (eff.at, bound)):
            names += [n for n in free_locals(part, inside) if n not in names]
        params = [(n, Var(f"f{i}", scope[n].type)) for i, n in enumerate(names)]
        inner: Scope = {n: v for n, v in params}
        loop = None
        if eff.each is not None:
            loop = self.domain_loop(eff.each, inner, "x")
            inner[eff.var] = Var("x", eff.each.elem_type)
        where = self.expr(eff.where, inner).text if eff.where is not None else None
        at = self.expr(eff.at, inner).text
        index = len(self.removals)
        self.removals.append(RemoveFn(index, params, loop, where, at, CAPTURE_MODES[eff.to], self.removals_comment(eff)))
        return f"remove_{index}(st" + "".join(", " + scope[n].cname for n in names) + ")"
