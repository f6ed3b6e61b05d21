"""Region assessment (``assess_regions``) in C: one specialised search function per
effect. The Python meaning is ``midgardc.runtime.rules.regions``; the search itself is
``templates/regions.pyx.j2``."""

from __future__ import annotations

from typing import Optional

from ...ir.nodes import CELL, AssessRegions, Expr
from .cellsets import within_empty
from .common import comment_text, unparse, unparse_domain, free_locals, Var, Scope, RegionFn


class Regions:
    """Part of ``ExprCompiler`` (``compiler/codegen.py``): region assessment."""

    def region(self, eff: AssessRegions, scope: Scope) -> str:
        """The call of the assessment function specialised for ``eff`` in ``scope``."""
        parts = [eff.member, eff.open_if, eff.priority, eff.first, eff.seeds]
        names: list[str] = []
        for p in parts:
            for n in free_locals(p, frozenset({eff.var})):
                if n not in names:
                    names.append(n)
        key = (eff, tuple(names))
        index = self._region_keys.get(key)
        if index is None:
            index = len(self.regions)
            self._region_keys[key] = index
            params = [(n, Var(f"f{i}", scope[n].type)) for i, n in enumerate(names)]
            outer: Scope = {n: v for n, v in params}
            inner: Scope = dict(outer)
            inner[eff.var] = Var("cell", CELL)
            ir = self.ir

            def per_cell(e: Optional[Expr]) -> Optional[str]:
                return self.expr(e, inner).text if e is not None else None

            def as_set(e: Optional[Expr], what: str, out: str) -> Optional[str]:
                return self.cellset_call(e, eff.var, outer, what, out) if e is not None else None

            # the conditions that translate to cell sets are computed together (sharing
            # common parts) whenever the board has changed
            group = []
            for e, what, out in ((eff.member, "region cells", "members"), (eff.open_if, "cells that open a region", "opening"), (eff.priority, "cells filled first", "firsts")):
                if e is not None and self.to_set(e, eff.var, outer) is not None:
                    group.append((e, out, what))
            sets_call = self.cellset_group(group, eff.var, outer) if group else None
            in_group = {out for _, out, _ in group}
            member_set = sets_call if "members" in in_group else None
            open_set = sets_call if "opening" in in_group else None
            priority_set = sets_call if "firsts" in in_group else None
            fn = RegionFn(
                index=index,
                params=params,
                member=per_cell(eff.member) if member_set is None else "",
                open_if=per_cell(eff.open_if) if open_set is None else None,
                priority=per_cell(eff.priority) if priority_set is None else None,
                first=self.expr(eff.first, outer).text,
                seeds=self.domain_loop(eff.seeds, outer, "seed", "seed_") if eff.seeds is not None else None,
                kind=eff.kind,
                split=eff.tie == "split",
                comments={
                    "member": comment_text(unparse(eff.member, ir)),
                    "open_if": comment_text(unparse(eff.open_if, ir)) if eff.open_if is not None else "never (every region is closed)",
                    "priority": comment_text(unparse(eff.priority, ir)) if eff.priority is not None else "none (visiting order)",
                    "first": comment_text(unparse(eff.first, ir)),
                    "seeds": comment_text(unparse_domain(eff.seeds, ir)) if eff.seeds is not None else "cells",
                    "kind": comment_text(ir.kinds[eff.kind]),
                    "tie": eff.tie,
                },
                member_set=member_set,
                open_set=open_set,
                priority_set=priority_set,
                sets_call=sets_call,
                flood=self.sets_enabled and member_set is not None and (eff.open_if is None or open_set is not None),
                empty_members=member_set is not None and within_empty(self.to_set(eff.member, eff.var, outer)),
                seeds_on_board=eff.seeds is None or eff.seeds.kind in ("neighbours", "cells"),
            )
            self.regions.append(fn)
        args = "".join(", " + scope[n].cname for n in names)
        return f"assess_{index}(st{args})"
