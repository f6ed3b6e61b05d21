"""Cell sets (bitboards): one-cell conditions computed for every cell at once, word by
word, and the constant masks of fixed facts (computed by the reference interpreter, so they
cannot drift from its meaning). An optimisation with no Python counterpart: the meaning of
the same conditions is ``midgardc.runtime.rules.expressions``."""

from __future__ import annotations

import re
from typing import Optional, Union

from ...errors import BuildError
from ...ir.analysis import substitute
from ...ir.nodes import CELL, DIR, Binary, Call, Const, DefineCall, Expr, Local, Quant, Unary
from .bitboards import flanked_set
from .common import (
    STATE_READS,
    MAX_UNROLL_DEPTH,
    comment_text,
    unparse,
    free_locals,
    Var,
    Scope,
    SX,
    CellSetFn,
)


class CellSets:
    """Part of ``ExprCompiler`` (``compiler/codegen.py``): conditions as cell sets."""

    # A condition on one cell variable built from empty/occupied, owner(c) == p,
    # kind_at(c) == k, fixed facts about the cell (degree, properties, ...), and/or/not,
    # definitions and any/all over neighbours(c) is computed for every cell at once, as
    # bitsets. Fixed facts are precomputed here by evaluating them with the reference
    # interpreter, so they cannot drift from its meaning.

    def pure(self, e: object) -> bool:
        """True when ``e`` never reads the state (only its locals and the board tables)."""
        if isinstance(e, (Const, Local)) or e is None:
            return True
        if isinstance(e, Call):
            return e.fn not in STATE_READS and all(self.pure(a) for a in e.args)
        if isinstance(e, DefineCall):
            if e.index not in self._pure:
                self._pure[e.index] = False  # (definitions cannot recurse; a safe default)
                self._pure[e.index] = self.pure(self.ir.defines[e.index].body)
            return self._pure[e.index] and all(self.pure(a) for a in e.args)
        if isinstance(e, Unary):
            return self.pure(e.arg)
        if isinstance(e, Binary):
            return self.pure(e.left) and self.pure(e.right)
        if isinstance(e, Quant):
            return all(self.pure(a) for a in e.domain.args) and self.pure(e.body)
        return False

    def mask(self, e: Expr, var: str) -> int:
        """Index of the constant mask {c : e} for a state-free ``e`` of the cell ``var``."""
        if self._oracle is None:
            from ...runtime.interpreter import Core, Program

            prog = Program(self.ir)
            self._oracle = (prog, Core(prog))
        prog, core = self._oracle
        fn = prog.compile(e)
        words = [0] * self.words
        for c in range(self.ir.board.n_cells):
            if fn(core, {var: c}):
                words[c >> 6] |= 1 << (c & 63)
        key = tuple(words)
        if key not in self._mask_keys:
            self._mask_keys[key] = len(self.masks)
            self.masks.append((key, comment_text(unparse(e, self.ir))))
        return self._mask_keys[key]

    def to_set(self, e: Expr, var: str, scope: Scope) -> Optional[SX]:
        """``e`` (a condition) as the set of values of the cell ``var`` where it holds, or
        None when it does not translate."""
        if not self.sets_enabled:
            return None
        used = free_locals(e)
        if var not in used:
            return SX("scalar", text=self.expr(e, scope).text)
        if used == [var] and self.pure(e):
            return SX("const", index=self.mask(e, var))
        me = Local(var, CELL)
        if isinstance(e, Call):
            if e.fn == "empty" and e.args[0] == me:
                return SX("pieces", index=0)
            if e.fn == "occupied" and e.args[0] == me:
                return SX("not", (SX("pieces", index=0),))
            pulled = self.pull_set(e, me)
            if pulled is not None:
                return pulled
            if e.fn in ("empty", "occupied"):
                return self.step_path_set(e.fn, e.args[0], None, var, scope)
            return None
        if isinstance(e, Unary) and e.op == "not":
            x = self.to_set(e.arg, var, scope)
            return None if x is None else (x.args[0] if x.op == "not" else SX("not", (x,)))
        if isinstance(e, Binary) and e.op in ("and", "or"):
            a, b = self.to_set(e.left, var, scope), self.to_set(e.right, var, scope)
            return None if a is None or b is None else SX(e.op, (a, b))
        flanked = flanked_set(self, e, me, scope)  # (emit/bitboards.py: directional fills)
        if flanked is not None:
            return flanked
        if isinstance(e, Binary) and e.op in ("==", "!="):
            for side, other in ((e.left, e.right), (e.right, e.left)):
                if isinstance(side, Call) and side.fn in ("owner", "kind_at") and side.args[0] == me and var not in free_locals(other):
                    x = SX("owner" if side.fn == "owner" else "kind", text=self.expr(other, scope).text)
                    return x if e.op == "==" else SX("not", (x,))
                if isinstance(side, Call) and side.fn in ("owner", "kind_at") and var not in free_locals(other):
                    x = self.step_path_set(side.fn, side.args[0], other, var, scope)
                    if x is not None:
                        return x if e.op == "==" else SX("not", (x,))
            return None
        if isinstance(e, DefineCall):
            d = self.ir.defines[e.index]
            at = [i for i, a in enumerate(e.args) if var in free_locals(a)]
            if len(at) != 1 or e.args[at[0]] != me:
                return None
            inner: Scope = {}
            for i, (p, a) in enumerate(zip(d.params, e.args)):
                if i != at[0]:
                    inner[p.name] = Var(self.expr(a, scope).text, p.type)
            return self.to_set(d.body, d.params[at[0]].name, inner)
        if isinstance(e, Quant) and e.kind in ("any", "all") and e.domain.kind == "directions":
            return self.directions_set(e, var, scope)
        if isinstance(e, Quant) and e.kind in ("any", "all") and e.domain.kind == "neighbours":
            if e.domain.args[0] != me or var in free_locals(e.body, frozenset({e.var})):
                return None
            inner = {k: v for k, v in scope.items() if k != var}
            body = self.to_set(e.body, e.var, inner)
            if body is None:
                return None
            if e.kind == "any":
                return SX("dilate", (body,))
            return SX("not", (SX("dilate", (SX("not", (body,)),)),))
        return None

    def pull_set(self, e: Call, me: Local) -> Optional[SX]:
        """``empty(step(c, d))`` / ``occupied(step(c, d))`` for a fixed direction d whose
        steps are one index shift on the whole board: the cells whose d-step is in the set
        of empty (occupied) cells — a shifted set, masked to the cells whose d-step is on
        the board (the off-board cell is neither empty nor occupied)."""
        if e.fn not in ("empty", "occupied") or not isinstance(e.args[0], Call):
            return None
        inner = e.args[0]
        if inner.fn != "step" or inner.args[0] != me or not isinstance(inner.args[1], Const):
            return None
        d = inner.args[1].value
        steps = self.ir.board.steps[d] if 0 <= d < len(self.ir.board.steps) else ()
        n = self.ir.board.n_cells
        deltas = {t - c for c, t in enumerate(steps[:n]) if t < n}
        if len(deltas) != 1:
            return None
        words = [0] * self.words
        for c, t in enumerate(steps[:n]):
            if t < n:
                words[c >> 6] |= 1 << (c & 63)
        key = tuple(words)
        if key not in self._mask_keys:
            self._mask_keys[key] = len(self.masks)
            self.masks.append((key, comment_text(f"the cells whose {self.ir.board.directions[d]} step is on the board")))
        base = SX("pieces", index=0) if e.fn == "empty" else SX("not", (SX("pieces", index=0),))
        return SX("pull", (base,), text=str(deltas.pop()), index=self._mask_keys[key])

    # -- cell sets along directions: step paths and any/all over directions -------------
    #
    # A condition on a cell reached by fixed steps from the cell, such as
    # owner(step(step(c, d), d)) == p with d a known direction, is the set of the cell
    # there shifted back along the path (pull_cells), when every step of a direction is
    # the same index shift on the whole board (square and hex grids without wrap). Where a
    # step leaves the board the condition reads the off-board cell (owner nobody, kind -1,
    # neither empty nor occupied), whose steps stay off the board. any/all over
    # `directions` is unrolled into one set per direction, or-ed (and-ed) together.

    def _direction_const(self, e: Expr, scope: Scope) -> Optional[int]:
        """The direction ``e`` always is, when known at compile time."""
        if isinstance(e, Const) and e.type == DIR:
            return e.value
        if isinstance(e, Local) and e.type == DIR and e.name in scope and scope[e.name].cname.isdigit():
            return int(scope[e.name].cname)
        return None

    def _shift(self, d: int) -> Optional[tuple[int, int, int]]:
        """(delta, mask of cells whose d-step is on the board, mask of those whose is off)
        when direction ``d`` is one index shift everywhere, else None."""
        steps = self.ir.board.steps[d] if 0 <= d < len(self.ir.board.steps) else ()
        n = self.ir.board.n_cells
        deltas = {t - c for c, t in enumerate(steps[:n]) if t < n}
        if len(deltas) != 1:
            return None
        masks = []
        for on in (True, False):
            words = [0] * self.words
            for c, t in enumerate(steps[:n]):
                if (t < n) == on:
                    words[c >> 6] |= 1 << (c & 63)
            key = tuple(words)
            if key not in self._mask_keys:
                self._mask_keys[key] = len(self.masks)
                where = "on" if on else "off"
                self.masks.append((key, comment_text(f"the cells whose {self.ir.board.directions[d]} step is {where} the board")))
            masks.append(self._mask_keys[key])
        return deltas.pop(), masks[0], masks[1]

    def step_path_set(self, fn: str, at: Expr, other: Optional[Expr], var: str, scope: Scope) -> Optional[SX]:
        """{var : fn(at) (== other)} where ``at`` is var stepped in known directions."""
        me = Local(var, CELL)
        dirs: list[int] = []
        while isinstance(at, Call) and at.fn == "step":
            d = self._direction_const(at.args[1], scope)
            if d is None:
                return None
            dirs.append(d)  # outermost (last) step first
            at = at.args[0]
        if at != me or not dirs:
            return None
        off: Optional[SX] = None  # the condition on the off-board cell (None: false)
        if fn == "empty":
            base = SX("pieces", index=0)
        elif fn == "occupied":
            base = SX("not", (SX("pieces", index=0),))
        else:
            text = self.expr(other, scope).text
            base = SX("owner" if fn == "owner" else "kind", text=text)
            off = SX("scalar", text=f"({text} < 0)")
        for d in dirs:
            shift = self._shift(d)
            if shift is None:
                return None
            delta, on_mask, off_mask = shift
            base = SX("pull", (base,), text=str(delta), index=on_mask)
            if off is not None:
                base = SX("or", (base, SX("and", (off, SX("const", index=off_mask)))))
        return base

    def directions_set(self, q: Quant, var: str, scope: Scope) -> Optional[SX]:
        n_dirs = len(self.ir.board.directions)
        if not n_dirs or self._unrolling >= MAX_UNROLL_DEPTH:
            return None  # (nested unrolling multiplies the code; loops do instead)
        parts = []
        self._unrolling += 1
        try:
            for d in range(n_dirs):
                part = self.to_set(substitute(q.body, {q.var: Const(d, DIR)}), var, scope)
                if part is None:
                    return None
                parts.append(part)
        finally:
            self._unrolling -= 1
        out = parts[0]
        for part in parts[1:]:
            out = SX("or" if q.kind == "any" else "and", (out, part))
        return out

    def cellset_call(self, e: Expr, var: str, scope: Scope, what: str, out: str) -> Optional[str]:
        """A call computing {var in what : e} into the array ``out``, or None when ``e``
        does not translate to a cell set."""
        return self.cellset_group([(e, out, what)], var, scope)

    def cellset_group(self, items: list[tuple[Expr, str, str]], var: str, scope: Scope) -> Optional[str]:
        """One call computing several cell sets (condition, output array, description)
        at once, or None unless every condition translates."""
        names: list[str] = []
        for e, _, _ in items:
            for n in free_locals(e):
                if n != var and n not in names:
                    names.append(n)
        key = (tuple((e, out) for e, out, _ in items), var, tuple(names))
        index = self._cellset_keys.get(key)
        if index is None:
            params = [(n, Var(f"f{i}", scope[n].type)) for i, n in enumerate(names)]
            inner: Scope = {n: v for n, v in params}
            sets = [self.to_set(e, var, inner) for e, _, _ in items]
            if any(sx is None for sx in sets):
                return None
            decls: list[str] = []
            prelude: list[str] = []
            memo: dict = {}
            outs = []
            for sx, (e, out, what) in zip(sets, items):
                word = self._emit_set(sx, decls, prelude, memo)
                outs.append((out, word, comment_text(f"{{{var} in {what}: {unparse(e, self.ir)}}}")))
            # equal wordings of one condition give the same code: one function for both
            body = (tuple(v.type for _, v in params), tuple(decls), tuple(prelude), tuple((o, w) for o, w, _ in outs))
            index = self._cellset_bodies.get(body, len(self.cellsets))
            self._cellset_keys[key] = index
            if index == len(self.cellsets):
                self._cellset_bodies[body] = index
                self.cellsets.append(CellSetFn(index, params, decls, prelude, outs))
        fn = self.cellsets[index]
        args = "".join(", " + scope[n].cname for n in names)  # (f0, f1, ...: this wording's order)
        return f"cellset_{index}(st{args}, {', '.join(out for out, _, _ in fn.outs)})"

    def _emit_set(self, sx: SX, decls: list[str], prelude: list[str], memo: dict) -> str:
        """The C text of word ``w`` of ``sx``; materialised parts go to ``prelude``."""
        if sx in memo:
            return memo[sx]
        if sx.op == "const":
            out = f"CELLSET_{sx.index}[w]"
        elif sx.op == "pieces":
            out = f"st.cellsets[{sx.index}][w]"
        elif sx.op in ("owner", "kind", "scalar"):
            k = len(decls)
            var = f"s{k}"
            decls.append(f"{'bint' if sx.op == 'scalar' else 'int'} {var}")
            prelude.append(f"{var} = {sx.text}")
            out = {"owner": f"owner_word(st, {var}, w)", "kind": f"kind_word(st, {var}, w)", "scalar": f"all_if({var}, w)"}[sx.op]
        elif sx.op == "not":
            out = f"(VALID[w] & ~{self._emit_set(sx.args[0], decls, prelude, memo)})"
        elif sx.op == "and" and [x.op == "not" for x in sx.args].count(True) == 1:
            # x and not y: every set here is of board cells, so x already keeps the "not"'s
            # VALID mask and y's complement needs none
            x, y = sx.args if sx.args[1].op == "not" else sx.args[::-1]
            a = self._emit_set(x, decls, prelude, memo)
            b = self._emit_set(y.args[0], decls, prelude, memo)
            out = f"({a} & ~{b})"
        elif sx.op in ("and", "or"):
            a = self._emit_set(sx.args[0], decls, prelude, memo)
            b = self._emit_set(sx.args[1], decls, prelude, memo)
            out = f"({a} {'&' if sx.op == 'and' else '|'} {b})"
        elif sx.op == "pull":
            inner = self._emit_set(sx.args[0], decls, prelude, memo)
            k = len(decls)
            src, dst = f"t{k}", f"pulled{k}"
            decls.append(f"uint64_t {src}[WORDS]")
            decls.append(f"uint64_t {dst}[WORDS]")
            prelude.append(f"for w in range(WORDS):\n    {src}[w] = {inner}")
            prelude.append(f"pull_cells({src}, {dst}, {sx.text})")
            out = f"({dst}[w] & CELLSET_{sx.index}[w])"
        elif sx.op == "flanked":
            k = len(decls)
            dst = f"flanked{k}"
            decls.append(f"uint64_t {dst}[WORDS]")
            prelude.append(f"flanked_cells(st, {sx.text}, CELLSET_{sx.index}, {dst})  # {{c : flanked(c, {self.ir.board.directions[sx.args[0]]}) > 0}}")
            out = f"{dst}[w]"
        elif sx.op == "dilate":
            inner = self._emit_set(sx.args[0], decls, prelude, memo)
            k = len(decls)
            slot = self.dilations.setdefault(inner, len(self.dilations))
            if _per_cell_piece(sx.args[0]):
                # the set depends on each cell's own piece only: the state keeps it and its
                # dilation as pieces are put and taken (keep_dilations() in set_piece())
                self.kept_dilations[slot] = inner
                self.kept_members[slot] = kept_changes(sx.args[0])
                dst = f"near{k}"
                decls.append(f"const uint64_t* {dst}")
                prelude.append(f"{dst} = kept_dilation(st, {slot})")
            else:
                src, dst = f"t{k}", f"near{k}"
                decls.append(f"uint64_t {src}[WORDS]")
                decls.append(f"uint64_t {dst}[WORDS]")
                prelude.append(f"for w in range(WORDS):\n    {src}[w] = {inner}")
                prelude.append(f"dilate_cached(st, {slot}, {src}, {dst})")
            out = f"{dst}[w]"
        else:  # pragma: no cover
            raise BuildError(f"internal error: unknown cell-set operation {sx.op!r}")
        memo[sx] = out
        return out


Cond = Union[bool, str]  # a C condition, or a constant one


def _not(a: Cond) -> Cond:
    if isinstance(a, bool):
        return not a
    if re.fullmatch(r"\w+ [=!]= \d+", a):
        return a.replace("==", "!=") if "==" in a else a.replace("!=", "==")
    return f"not ({a})"


def _and(a: Cond, b: Cond) -> Cond:
    if isinstance(a, bool):
        return b if a else False
    if isinstance(b, bool):
        return a if b else False
    return f"({a}) and ({b})"


def _or(a: Cond, b: Cond) -> Cond:
    if isinstance(a, bool):
        return True if a else b
    if isinstance(b, bool):
        return True if b else a
    return f"({a}) or ({b})"


def member_of(sx: SX, piece: Union[int, str]) -> Cond:
    """Whether the cell of word ``w`` and bit ``bit`` is in ``sx`` (a set for which
    _per_cell_piece() holds) when ``piece`` (a piece id, or the C name of one) stands on
    it, folded where it is constant. It reads nothing from the state, so a placement
    knows whether its cell joined or left a kept set without waiting for the sets it
    has just written."""
    if sx.op == "const":
        return f"CELLSET_{sx.index}[w] & bit"
    if sx.op == "pieces":
        return piece == sx.index if isinstance(piece, int) else f"{piece} == {sx.index}"
    if sx.op == "not":
        return _not(member_of(sx.args[0], piece))
    a, b = (member_of(x, piece) for x in sx.args)
    return _and(a, b) if sx.op == "and" else _or(a, b)


def kept_changes(sx: SX) -> dict[str, Cond]:
    """For a kept set: whether a cell joins it, or leaves it, when C's piece id ``old``
    on it gives way to ``piece``; and whether a cell holding ``piece`` is in it. (Called
    with a constant ``old``, as a placement on an empty cell is, C folds the rest.)"""
    was, now = member_of(sx, "old"), member_of(sx, "piece")
    return {"joins": _and(now, _not(was)), "leaves": _and(was, _not(now)), "member": now}


def within_empty(sx: SX) -> bool:
    """Whether every cell of ``sx`` is empty, read off its algebra (an "and" with the
    empty cells' set)."""
    if sx.op == "pieces":
        return sx.index == 0
    if sx.op == "and":
        return any(within_empty(a) for a in sx.args)
    return False


def _per_cell_piece(sx: SX) -> bool:
    """Whether a cell's membership of ``sx`` depends on the piece on that cell alone (set
    algebra over the piece sets and constant masks): it changes only where a piece is put
    or taken, so the set and its dilation can be kept as the board changes."""
    if sx.op in ("const", "pieces"):
        return True
    if sx.op in ("not", "and", "or"):
        return all(_per_cell_piece(a) for a in sx.args)
    return False
