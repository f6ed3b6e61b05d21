"""Effects in Python: the dispatch over every effect, ``if``/``for_each`` blocks,
placements (stacks and pushes), piece moves and counters. Generated code:
``midgardc.compiler.emit.effects``."""

from __future__ import annotations

from ...ir.nodes import (
    AssessRegions,
    Effect,
    Expr,
    Place,
    MovePiece,
    FlipFlanked,
    ExtraTurn,
    NextTurn,
    Remove,
    Convert,
    Discard,
    Draw,
    ForEach,
    IfEffect,
    SetCounter,
    SetElement,
)
from ...ir.pools import HandAdd
from .expressions import Fn, element
from . import zones as zone_rules

MAX_HEIGHT = 32767  # the tallest stack (the compiled state stores heights in 16 bits)


class Effects:
    """Part of ``Core`` (``midgardc/runtime/interpreter.py``): effects."""

    __slots__ = ()

    def run_effects(self, effects: tuple[Effect, ...], env: dict) -> None:
        for eff in effects:
            if isinstance(eff, Place):
                self._place(eff, env)
            elif isinstance(eff, AssessRegions):
                self._assess(eff, env)
            elif isinstance(eff, SetCounter):
                self._counter(eff, env)
            elif isinstance(eff, MovePiece):
                self._move(eff, env)
            elif isinstance(eff, SetElement):
                self._element(eff, env)
            elif isinstance(eff, FlipFlanked):
                self._flip(eff, env)
            elif isinstance(eff, Remove):
                self._remove(eff, env)
            elif isinstance(eff, Convert):
                self._convert(eff, env)
            elif isinstance(eff, ExtraTurn):
                self.again = 1  # (the last of extra_turn and next_turn in a move decides)
            elif isinstance(eff, NextTurn):
                to = self._fn(eff.to)(self, env)
                if to >= 0:
                    self.again = 2 + to
            elif isinstance(eff, Discard):
                p, k = self._fn(eff.owner)(self, env), self._fn(eff.item)(self, env)
                if p >= 0 and self.up[p][k] > 0:
                    self.up[p][k] -= 1
                    self.discards[p][k] += 1
            elif isinstance(eff, Draw):
                p = self._fn(eff.owner)(self, env)
                if p >= 0:
                    self._draw(p, self._fn(eff.count)(self, env))
            elif isinstance(eff, (IfEffect, ForEach)):
                self._block(eff, env)
            elif isinstance(eff, HandAdd):  # a piece out of a pool, about to be placed (ir/pools.py)
                owner = self._fn(eff.owner)(self, env)
                if owner >= 0:
                    self.hands[owner][eff.kind] += eff.by
            elif type(eff) in zone_rules.EFFECTS:
                zone_rules.EFFECTS[type(eff)](self, self.prog.ir.zones, eff, env)
            else:  # pragma: no cover
                raise AssertionError(eff)

    def _block(self, eff, env: dict) -> None:
        """The block effects: ``if`` picks a branch, ``for_each`` runs its effects per element."""
        if isinstance(eff, IfEffect):
            self.run_effects(eff.then if self._fn(eff.when)(self, env) else eff.other, env)
            return
        where = self._fn(eff.where) if eff.where is not None else None
        local = dict(env)
        for x in list(self.prog.each_domain(eff)(self, env)):  # listed before any runs
            local[eff.var] = x
            if where is None or where(self, local):
                self.run_effects(eff.effects, local)

    def _fn(self, expr: Expr) -> Fn:
        return self.prog.fn(expr)

    def _put(self, owner: int, kind: int, cell: int, height: int = 1) -> bool:
        """A stack of ``height`` pieces from the owner's hand onto the cell (replacing
        what stood there); nothing for nobody, off the board, a height below 1 or a
        hand too small."""
        if owner < 0 or cell >= self.prog.n or height < 1 or self.hands[owner][kind] < height:
            return False
        self.hands[owner][kind] -= height
        self._set(cell, self.prog.ir.piece_id(owner, kind))
        self.heights[cell] = height
        return True

    def _place(self, eff: Place, env: dict) -> None:
        owner, at = self._fn(eff.owner)(self, env), self._fn(eff.at)(self, env)
        height = self._fn(eff.height)(self, env) if eff.height is not None else 1
        kind = eff.kind if eff.kind_expr is None else self._fn(eff.kind_expr)(self, env)
        if not 0 <= kind < len(self.prog.ir.kinds):
            return  # (a kind of none places nothing)
        if owner < 0 or at >= self.prog.n or height < 1 or height > MAX_HEIGHT or self.hands[owner][kind] < height:
            return
        if eff.push is not None and self.board[at] > 0:
            # push: the run of pieces from 'at' moves one step in the direction (with
            # their heights), the last onto the first empty cell; no room, no move
            d = self._fn(eff.push)(self, env)
            if not self.prog.builtins["room"](self, at, d):
                return
            run = [at]
            while self.board[run[-1]] > 0:
                run.append(self.prog.steps[d][run[-1]])
            for i in range(len(run) - 1, 0, -1):  # from the empty end back to 'at'
                self._set(run[i], self.board[run[i - 1]])
                self.heights[run[i]] = self.heights[run[i - 1]]
        self._put(owner, kind, at, height)

    def _move(self, eff: MovePiece, env: dict) -> None:
        n = self.prog.n
        frm, to = self._fn(eff.frm)(self, env), self._fn(eff.to)(self, env)
        if frm >= n or to >= n or frm == to or self.board[frm] <= 0:
            return
        taken = self.board[to]
        if taken > 0 and eff.capture != "remove":
            self._to_hand(taken, self.heights[to], eff.capture == "captor")
        self._set(to, self.board[frm])
        self.heights[to] = self.heights[frm]
        self._set(frm, 0)
        self.heights[frm] = 0

    def _to_hand(self, piece: int, height: int, captor: bool) -> None:
        """A piece taken off the board into a hand, as its kind's base: its owner's, or
        (``captor``) the mover's, the piece changing side; a whole stack goes."""
        ir = self.prog.ir
        nk = max(ir.n_kinds, 1)
        owner = self.current if captor else (piece - 1) // nk
        if owner >= 0:  # (nobody to move: the piece leaves the game)
            self.hands[owner][ir.base_of((piece - 1) % nk)] += height

    def _convert(self, eff: Convert, env: dict) -> None:
        """The piece on a cell changes kind and/or owner where it stands."""
        at = self._fn(eff.at)(self, env)
        if at >= self.prog.n or self.board[at] <= 0:
            return
        ir = self.prog.ir
        nk = max(ir.n_kinds, 1)
        owner, kind = (self.board[at] - 1) // nk, (self.board[at] - 1) % nk
        if eff.kind_expr is not None:
            kind = self._fn(eff.kind_expr)(self, env)
        elif eff.kind >= 0:
            kind = eff.kind
        if eff.owner is not None:
            owner = self._fn(eff.owner)(self, env)
        if not 0 <= kind < ir.n_kinds or owner < 0:
            return  # (a kind of none, or nobody, changes nothing)
        self._set(at, ir.piece_id(owner, kind))

    def _element(self, eff: SetElement, env: dict) -> None:
        row = self._fn(eff.row)(self, env)
        k = element(row, [x for lo, size, e in eff.index for x in (lo, size, self._fn(e)(self, env))])
        if k < 0:
            return
        value = self._fn(eff.value)(self, env)
        col = eff.column + k
        self.counters[row][col] = self.counters[row][col] + value if eff.add else value

    def _counter(self, eff: SetCounter, env: dict) -> None:
        owner = self._fn(eff.owner)(self, env)
        if owner < 0:
            return
        value = self._fn(eff.value)(self, env)
        self.counters[owner][eff.counter] = self.counters[owner][eff.counter] + value if eff.add else value
