"""Legal moves in Python: the parameter loops of each action, with hoisted ``where``
conjuncts and candidate cells (``plan``, compiled once per game into ``Program.plans``),
and move ids decoded back into bindings. Generated code: ``midgardc.compiler.emit.moves``."""

from __future__ import annotations

from typing import Callable

from ...ir.analysis import candidates, conjuncts, reads
from ...ir.nodes import Action, Define, Expr


def plan(a: Action, defines: tuple[Define, ...], compile_expr: Callable[[Expr], Callable]) -> list:
    """``Program.plans`` for action ``a``: per loop level 0..len(params): (candidate value
    closures for the parameter bound at this level, or None; the conjuncts of 'where'
    tested once it is bound). ``compile_expr`` is ``Program.compile``."""
    names = [p.name for p in a.params]
    levels: list[list[Expr]] = [[] for _ in range(len(names) + 1)]
    for conj in conjuncts(a.where):
        used = [names.index(x) for x in reads(conj) if x in names]
        levels[max(used) + 1 if used else 0].append(conj)
    out = []
    for j, conds in enumerate(levels):
        cands = None
        if j > 0 and a.params[j - 1].type == "cell":
            for conj in conds:
                found = candidates(conj, names[j - 1], defines)
                if found is not None:
                    cands = [compile_expr(x) for x in found]
                    break
        out.append((cands, [compile_expr(c) for c in conds]))
    return out


class Moves:
    """Part of ``Core`` (``midgardc/runtime/interpreter.py``): listing and decoding moves."""

    __slots__ = ()

    def legal(self) -> list[int]:
        """Legal move ids, ascending (computed once per position)."""
        if self.terminal:
            return []
        if self._legal is None:
            self._legal = self._generate()
        return list(self._legal)

    def _generate(self) -> list[int]:
        chance = self.prog.ir.chance
        if self.chance:  # a chance node: every outcome of the roll, ascending
            return list(range(chance.base, chance.base + len(chance.outcomes)))
        out: list[int] = []
        afters = self.prog.afters
        for ai, (action, where) in enumerate(zip(self.prog.ir.actions, self.prog.wheres)):
            # lookahead legality (rules/history.py): tested last, on a copy after the move
            after = afters[ai] is not None
            if len(action.params) == 1 and action.params[0].type != "int":
                env: dict = {}
                name = action.params[0].name
                for value in range(self._param_size(action.params[0])):
                    env[name] = value
                    if where(self, env) and (not after or self._after_ok(ai, env)):
                        out.append(action.base + value)
                continue
            if action.params:  # several parameters, or one integer range: hoist
                self._hoisted(ai, action, out)
                continue
            if where(self, {}) and (not after or self._after_ok(ai, {})):  # no parameters: one move
                out.append(action.base)
        return out

    def _hoisted(self, ai: int, action: Action, out: list[int]) -> None:
        """List an action's legal moves level by level (see midgardc/ir/analysis.py)."""
        plan = self.prog.plans[ai]
        env: dict = {}
        params = action.params
        sizes = [self._param_size(p) for p in params]
        n = self.prog.n
        last = len(params) - 1

        def level(j: int, offset: int) -> None:
            for cond in plan[j][1]:
                if not cond(self, env):
                    return
            if j > last:
                if self.prog.afters[ai] is None or self._after_ok(ai, env):
                    out.append(action.base + offset)
                return
            p = params[j]
            cands = plan[j + 1][0]
            if cands is not None:
                values = sorted({v for v in (f(self, env) for f in cands) if 0 <= v < n})
            else:
                values = range(sizes[j])
            stride = 1
            for size in sizes[j + 1 :]:
                stride *= size
            name = p.name
            lo = p.lo if p.type == "int" else 0
            for v in values:
                env[name] = v + lo
                level(j + 1, offset + v * stride)
            env.pop(name, None)

        level(0, 0)

    def _param_size(self, p) -> int:
        ir = self.prog.ir
        return {"cell": self.prog.n, "player": ir.n_players, "kind": ir.n_kinds, "dir": len(ir.board.directions), "int": p.hi - p.lo + 1, "item": ir.n_item_kinds}.get(p.type, p.hi - p.lo + 1)  # (an enumeration: 0..n-1)

    def decode(self, move: int) -> tuple[Action, dict]:
        for action in self.prog.ir.actions:
            if action.base <= move < action.base + action.size:
                offset = move - action.base
                env = {}
                for p in reversed(action.params):
                    size = self._param_size(p)
                    v = offset % size
                    offset //= size
                    env[p.name] = v + p.lo if p.type == "int" else v
                return action, env
        raise ValueError(f"move id {move} out of range")
