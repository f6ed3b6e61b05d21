"""Captures in Python: flips of flanked runs and removals (one cell, or every cell
``each`` finds, all found before any is taken). Generated code:
``midgardc.compiler.emit.captures``."""

from __future__ import annotations

from ...ir.nodes import FlipFlanked, Remove


class Captures:
    """Part of ``Core`` (``midgardc/runtime/interpreter.py``): flips and removals."""

    __slots__ = ()

    def _flip(self, eff: FlipFlanked, env: dict) -> None:
        n = self.prog.n
        at = self._fn(eff.at)(self, env)
        if at >= n:
            return
        flanked = self.prog.builtins["flanked"]
        steps = self.prog.steps
        runs = [flanked(self, at, d) for d in range(len(steps))]
        nk = max(self.prog.ir.n_kinds, 1)
        me = self.current
        for d, k in enumerate(runs):
            x = at
            for _ in range(k):
                x = steps[d][x]
                self._set(x, 1 + me * nk + (self.board[x] - 1) % nk)

    def _remove(self, eff: Remove, env: dict) -> None:
        at = self._fn(eff.at)
        where = self._fn(eff.where) if eff.where is not None else None
        found: list[int] = []
        if eff.each is None:
            if where is None or where(self, env):
                found.append(at(self, env))
        else:
            local = dict(env)
            for x in self.prog.domain(eff.each)(self, env):
                local[eff.var] = x
                if where is None or where(self, local):
                    found.append(at(self, local))
        for c in dict.fromkeys(found):  # each cell once, all found before any is emptied
            piece = self.board[c] if c < self.prog.n else 0
            if piece <= 0:
                continue
            if eff.to != "out":  # (a whole stack goes, as its kind's base)
                self._to_hand(piece, self.heights[c], eff.to == "captor")
            self._set(c, 0)
            self.heights[c] = 0
