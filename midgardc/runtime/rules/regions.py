"""Region assessment in Python (``assess_regions``): regions found in the order
``AssessRegions`` specifies, closed ones filled. Generated code:
``midgardc.compiler.emit.regions``."""

from __future__ import annotations

from ...ir.nodes import AssessRegions
from .expressions import Fn


class Regions:
    """Part of ``Core`` (``midgardc/runtime/interpreter.py``): region assessment."""

    __slots__ = ()

    def _assess(self, eff: AssessRegions, env: dict) -> None:
        n = self.prog.n
        nbrs = self.prog.neighbours
        nplayers = self.prog.ir.n_players
        member_fn = self._fn(eff.member)
        open_fn = self._fn(eff.open_if) if eff.open_if is not None else None
        prio_fn = self._fn(eff.priority) if eff.priority is not None else None
        local = dict(env)

        def test(fn: Fn, c: int) -> int:
            local[eff.var] = c
            return fn(self, local)

        seeds = self.prog.domain(eff.seeds)(self, env) if eff.seeds is not None else range(n)
        seeds = list(seeds)
        visited = [False] * (n + 1)
        # the non-priority cells given to sole winners so far in this assessment: a winner
        # whose hand runs out before a priority cell takes a piece back from one of them
        spare: list[int] = []
        for seed in seeds:
            if seed >= n or visited[seed] or not test(member_fn, seed):
                continue
            region = [seed]
            visited[seed] = True
            i = 0
            while i < len(region):
                for nb in nbrs[region[i]]:
                    if not visited[nb] and test(member_fn, nb):
                        visited[nb] = True
                        region.append(nb)
                i += 1
            inside = set(region)
            if open_fn is not None and any(test(open_fn, nb) for c in region for nb in nbrs[c]):
                continue
            influence = [0] * nplayers
            for c in region:
                for nb in nbrs[c]:
                    if nb not in inside:
                        o = self._owner(nb)
                        if o >= 0:
                            influence[o] += 1
            best = max(influence)
            tied = [p for p in range(nplayers) if influence[p] == best]
            if prio_fn is not None:
                first_cells = [c for c in region if test(prio_fn, c)]
                cells = first_cells + [c for c in region if not test(prio_fn, c)]
                n_first = len(first_cells)
            else:
                cells, n_first = region, 0
            if len(tied) == 1:
                winner = tied[0]
                for j, c in enumerate(cells):
                    if j < n_first and self.hands[winner][eff.kind] == 0:
                        self._take_back(winner, eff.kind, spare)
                    if not self._put(winner, eff.kind, c):
                        break
                    if prio_fn is not None and j >= n_first:
                        spare.append(c)
                continue
            if eff.tie != "split":
                continue
            first = self._fn(eff.first)(self, local)
            first = first if first >= 0 else 0
            tied.sort(key=lambda p: (p - first) % nplayers)
            quota = {p: len(region) // len(tied) for p in tied}
            turn = 0
            k = 0
            while k < len(cells) and any(quota[p] > 0 and self.hands[p][eff.kind] > 0 for p in tied):
                p = tied[turn % len(tied)]
                turn += 1
                if quota[p] > 0 and self._put(p, eff.kind, cells[k]):
                    quota[p] -= 1
                    k += 1

    def _take_back(self, owner: int, kind: int, spare: list[int]) -> None:
        """The owner's piece on the last (in board order) of their cells in ``spare``
        goes back to their hand and the cell is emptied; nothing when they have none."""
        mine = [c for c in spare if self._owner(c) == owner]
        if not mine:
            return
        cell = max(mine)
        spare.remove(cell)
        self._set(cell, 0)
        self.heights[cell] = 0
        self.hands[owner][kind] += 1
