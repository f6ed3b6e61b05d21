"""Moves in C: the parameter loops of each action (hoisted ``where`` conjuncts, candidate
cells, cell sets), move ids and their decoding, and the facts random playouts need. The
Python meaning is ``midgardc.runtime.rules.moves``; the loops themselves are
``templates/legality.pyx.j2`` and ``templates/moves.pyx.j2``."""

from __future__ import annotations

from typing import Optional

from ...ir.nodes import BOOL, CELL, ITEM, DIR, INT, KIND, PLAYER, Binary
from ...ir.lookslice import ANY, HANDS, counter_key, look_slice
from ...ir.plan import STATE_READS, plan_action
from .common import comment_text, unparse, Var
from .effects import known_empty, known_in_hand
from .compound import chain_facts, then_facts
from .candidates import candidate_function, plain
from .stepmoves import step_facts


class Moves:
    """Part of ``Generator`` (``compiler/codegen.py``): actions as parameter loops."""

    def _param_range(self, p) -> tuple[int, int]:
        if p.type == INT:
            return p.lo, p.hi - p.lo + 1
        return 0, self.param_sizes[p.type]

    @staticmethod
    def _param_limit(p) -> str:
        """The C name of a parameter's domain size (its loop's end)."""
        return {CELL: "N_CELLS", PLAYER: "N_PLAYERS", KIND: "N_KINDS", DIR: "N_DIRS", ITEM: "N_ITEM_KINDS"}.get(p.type, str(p.hi + 1))

    def _action(self, i: int) -> dict:
        ir = self.ir
        a = ir.actions[i]
        scope = {p.name: Var(f"a{j}", p.type) for j, p in enumerate(a.params)}
        # the move plan (midgardc/ir/plan.py): each conjunct of 'where' (through
        # definitions) in the loop that binds all it reads, candidates, integer bounds
        plan = plan_action(ir, i)

        def scalar(conds: list[Expr]) -> list[tuple[str, str]]:
            return [(self.x.expr(c, scope).text, comment_text(unparse(c, ir))) for c in conds]

        stride = 1
        strides = []
        for p in reversed(a.params):
            strides.append(stride)
            stride *= self._param_range(p)[1]
        strides.reverse()
        id_terms = [str(a.base)] if a.base else []
        for j, p in enumerate(a.params):
            lo, size = self._param_range(p)
            var = scope[p.name].cname
            index = var if lo == 0 else f"({var} - ({lo}))"
            id_terms.append(index if strides[j] == 1 else f"{index} * {strides[j]}")
        loops, made = self._loops(a, plan, scope, scalar)
        # a from/to action of steps: whole-board sets instead of the loops (emit/stepmoves.py)
        steps = step_facts(self, i, plan, scope, loops[0]) if len(loops) == 2 else None
        if steps and made.get(1) == len(self.cand_fns) - 1:
            self.cand_fns.pop()  # the step sets replace t's loop, and with it t's listing
        # a move of two steps (then:): the second step's loops, on the state the first left
        then = then_facts(self, i, scope, scalar, " + ".join(id_terms) or "0")
        # a legal move's first effect may rely on the condition's empty cells (not for a
        # lookahead or a compound step, whose effects also run on candidates)
        first = a.where is not None and a.legal_after is None and a.chain is None and a.then is None
        empty = known_empty(a.where, ir) if first else frozenset()
        in_hand = known_in_hand(a.where) if first else frozenset()
        effects = self.x.effects(a.effects, scope, empty, in_hand)
        chain = chain_facts(self, i, scope, id_terms[1:] if a.base else id_terms)  # a compound move's step (emit/compound.py)
        decode = []
        for j in range(len(a.params) - 1, -1, -1):
            lo, size = self._param_range(a.params[j])
            decode.append({"var": f"v{j}", "size": size, "lo": lo})
        # trigger order is a rule (docs/spec-language.md): the template unrolls this list in
        # the order written, each `if when:` right after the previous trigger's effects
        triggers = []
        for t_index, trig in enumerate(ir.triggers):
            if trig.after and i not in trig.after:
                continue
            triggers.append({
                "index": t_index,
                "comment": comment_text(f"{trig.name}" + (f" when {unparse(trig.when, ir)}" if trig.when is not None else "")),
                "when": self.x.expr(trig.when, scope).text if trig.when is not None else None,
                "effects": self.x.effects(trig.effects, scope),
            })
        return {
            "index": i,
            # what the lookahead applies and copies (ir/lookslice.py; templates/history.pyx.j2)
            "look": self._look(i, scope),
            # lookahead legality (templates/history.pyx.j2): tested at the loops' leaf
            "after": self.x.expr(a.legal_after, scope).text if a.legal_after is not None else None,
            "after_comment": comment_text(unparse(a.legal_after, ir)) if a.legal_after is not None else "",
            "base": a.base,
            "size": a.size,
            "end": a.base + a.size,
            "params": [scope[p.name] for p in a.params],
            "top_conds": scalar(list(plan.top)),
            "loops": loops,
            "move_id": " + ".join(id_terms) or "0",
            "decode": decode,
            "effects": effects,
            "triggers": triggers,
            "chain": chain,
            "then": then,
            "steps": steps,
            "comment": comment_text(f"{a.name}({', '.join(f'{p.name}: {p.type}' for p in a.params)})"),
            "where_comment": comment_text(unparse(a.where, ir)),
        }

    def _loops(self, a, plan, scope: dict, scalar) -> tuple[list[dict], dict[int, int]]:
        """The parameter loops of a plan's levels (an action's, or a second step's: its
        levels start after the first step's parameters), and which levels list their
        candidates with a cands_<n>() function (level -> n)."""
        ir = self.ir
        loops = []
        made: dict[int, int] = {}  # level -> the index of its cands_<n>() listing
        for level in plan.levels:
            j = level.index
            p = a.params[j]
            lo, size = self._param_range(p)
            var = scope[p.name].cname
            conds = list(level.conds)
            set_call, set_comment = None, ""
            cands = None
            if level.candidates is not None and plain(level.candidates):  # a conjunct pins the cell to a few values
                cands = [self.x.expr(x, scope).text for x in level.candidates]
            elif level.candidates is not None:  # ... guarded, or along a slide: a cell set made by cands_<n>() (emit/candidates.py)
                fns = self.cand_fns
                outer = [scope[q.name] for q in a.params[:j]]
                fns.append(candidate_function(self.x, level.candidates, scope, outer, len(fns)))
                made[j] = len(fns) - 1
                set_call = f"cands_{len(fns) - 1}(st, cand{j}" + "".join(f", {v.cname}" for v in outer) + ")"
                set_comment = comment_text("candidates of " + unparse(level.pin, ir))
            if p.type == CELL and conds and cands is None and set_call is None:
                # the conjuncts that translate to cell sets pick the candidate cells at once
                as_sets = [c for c in conds if self.x.to_set(c, p.name, scope) is not None]
                if as_sets:
                    joined = as_sets[0]
                    for c in as_sets[1:]:
                        joined = Binary("and", joined, c, BOOL)
                    set_call = self.x.cellset_call(joined, p.name, scope, "cells", f"cand{j}")
                    set_comment = comment_text(unparse(joined, ir))
                    conds = [c for c in conds if c not in as_sets]
            loops.append({
                "level": j,
                "var": var,
                "lo": lo,
                "hi": self._param_limit(p),
                "conds": scalar(conds),
                "set_call": set_call,
                "set_comment": set_comment,
                "cands": cands,
                "lower": [self.x.expr(x, scope).text for x in level.lower],
                "upper": [self.x.expr(x, scope).text for x in level.upper],
                "comment": comment_text(f"{p.name}: {p.type}" + (f" {p.lo}..{p.hi}" if p.type == INT else "")),
            })
        return loops, made

    def _look(self, i: int, scope: dict) -> Optional[dict]:
        """For an action with ``legal_after``: the effects and triggers its lookahead
        applies when some are left out (``effects``/``triggers``, else None: the whole
        move), and the parts of the state its copy takes (``take``, None: all of it)."""
        ir = self.ir
        look = look_slice(ir, i, STATE_READS)
        if look is None:
            return None
        out: dict = {"effects": None, "triggers": None, "take": None, "comment": ""}
        if not look.whole:
            out["effects"] = self.x.effects(look.effects, scope)
            out["triggers"] = [{
                "index": t_index,
                "comment": comment_text(ir.triggers[t_index].name),
                "when": self.x.expr(ir.triggers[t_index].when, scope).text if ir.triggers[t_index].when is not None else None,
                "effects": self.x.effects(kept, scope),
            } for t_index, kept in look.triggers]
        if ANY not in look.reads:
            columns = [c for c in range(len(ir.counters)) if counter_key(ir, c) in look.reads]
            out["take"] = {"hands": HANDS in look.reads, "columns": columns}
        out["comment"] = comment_text(", ".join(sorted(look.reads)))
        return out

    @property
    def max_params(self) -> int:
        return max((len(a.params) for a in self.ir.actions), default=0)

    def param_var_types(self) -> list[str]:
        """C type of the j-th parameter variable, shared by all actions."""
        out = []
        for j in range(self.max_params):
            wide = any(len(a.params) > j and a.params[j].type == INT for a in self.ir.actions)
            out.append("long long" if wide else "int")
        return out

    def pick_cells(self) -> Optional[dict]:
        """When the legal moves are one set of cells — a single action whose only
        parameter is a cell picked by cell sets, with no other per-cell test — the facts
        random playouts need to draw the k-th legal move from that set (move id = base +
        cell, so ascending cells are ascending ids); else None."""
        if len(self.actions) != 1 or len(self.ir.actions[0].params) != 1 or self.ir.chance is not None:
            return None
        if self.ir.actions[0].legal_after is not None:  # a lookahead is not a cell set
            return None
        a = self.actions[0]
        loop = a["loops"][0]
        if self.ir.actions[0].params[0].type != CELL or not loop["set_call"] or loop["conds"]:
            return None
        return {
            "base": a["base"],
            "top_conds": a["top_conds"],
            "set_call": loop["set_call"],
            "set_comment": loop["set_comment"],
            "comment": a["comment"],
        }
