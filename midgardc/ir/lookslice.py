"""What a lookahead needs: the slice of an action's effects and triggers that can change
what its ``legal_after`` condition reads.

A lookahead (``legal_after``) applies the move to a copy of the state and tests a
condition there; the copy is thrown away. Effects whose writes the condition never reads,
directly or through a later effect that is kept, change nothing the test sees (the
castling rights, the clocks, a move counter when the condition asks only where the pieces
stand), so the compiled engine leaves them out of the copy's move, and copies only the
parts of the state the kept effects and the condition touch. A backward data-flow slice
over parts of the state: the board, the hands, the turn and each counter by name;
anything this module does not know (dice, decks, zones, the position history, ...) is
``ANY``, which keeps everything from there on. The interpreter applies every effect (the
same legality: the left-out effects cannot change the condition's value).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from .builtins import BOARD, BUILTINS, COUNTER, DOMAINS, HANDS, INDEXED, STATE, TURN, ZONE_FUNCTIONS
from .nodes import Binary, Call, Const, DefineCall, Domain, GameIR, IfEffect, ForEach, Local, MovePiece, Convert, Place, Quant, Remove, SetCounter, SetElement, Unary, FlipFlanked

ANY = STATE  # some part of the state this module does not know

#: built-ins and the part of the state each reads, from the built-in table (Builtin.reads;
#: counters: by the column in args[0])
_READS = {n: b.reads for table in (BUILTINS, ZONE_FUNCTIONS, INDEXED) for n, b in table.items() if b.reads in (BOARD, HANDS, TURN)}
_COUNTER_READS = tuple(n for n, b in INDEXED.items() if b.reads == COUNTER)
_DOMAIN_READS = {n: b.reads for n, b in DOMAINS.items() if b.reads is not None}
_PURE_DOMAINS = frozenset(n for n, b in DOMAINS.items() if b.reads is None) | {"enum"}  # (enum: an enumeration's values)


def counter_key(ir: GameIR, column: int) -> str:
    """The part of the state a counter column is: its counter's name (an array's columns
    are one part)."""
    return "counter:" + ir.counters[column].split("[", 1)[0]


class Reads:
    """The parts of the state expressions and effects read and write (memoised per
    definition)."""

    def __init__(self, ir: GameIR, state_reads: frozenset):
        self.ir = ir
        self.state_reads = state_reads  # ir/plan.py STATE_READS: every built-in that reads the state
        self._defines: dict[int, frozenset] = {}

    def expr(self, e: object) -> frozenset:
        out: set = set()
        self._walk(e, out)
        return frozenset(out)

    def _walk(self, e: object, out: set) -> None:
        if e is None or isinstance(e, (Const, Local)):
            return
        if isinstance(e, Call):
            if e.fn in _COUNTER_READS:
                if e.args and isinstance(e.args[0], Const) and 0 <= e.args[0].value < len(self.ir.counters):
                    out.add(counter_key(self.ir, e.args[0].value))
                else:
                    out.add(ANY)
            elif e.fn in _READS:
                out.add(_READS[e.fn])
            elif e.fn in self.state_reads:
                out.add(ANY)
            for a in e.args:
                self._walk(a, out)
            return
        if isinstance(e, DefineCall):
            if e.index not in self._defines:
                self._defines[e.index] = frozenset({ANY})  # (definitions cannot recurse; a safe default)
                self._defines[e.index] = self.expr(self.ir.defines[e.index].body)
            out |= self._defines[e.index]
            for a in e.args:
                self._walk(a, out)
            return
        if isinstance(e, Unary):
            self._walk(e.arg, out)
            return
        if isinstance(e, Binary):
            self._walk(e.left, out)
            self._walk(e.right, out)
            return
        if isinstance(e, Quant):
            self._domain(e.domain, out)
            self._walk(e.body, out)
            return
        out.add(ANY)

    def _domain(self, d: Domain, out: set) -> None:
        if d.kind in _DOMAIN_READS:
            out.add(_DOMAIN_READS[d.kind])
        elif d.kind not in _PURE_DOMAINS:
            out.add(ANY)
        for a in d.args:
            self._walk(a, out)

    def effect(self, eff: object) -> tuple[frozenset, frozenset]:
        """(reads, writes) of one effect that is not a block."""
        ir = self.ir
        if isinstance(eff, Place):
            extra = [x for x in (eff.height, eff.push) if x is not None]
            reads = self.expr(Binary("and", eff.at, eff.owner, "bool")) | {BOARD, HANDS}
            if eff.kind_expr is not None:
                reads |= self.expr(eff.kind_expr)
            if extra:  # (stacks and pushes: a rule of their own; keep it whole)
                return frozenset({ANY}), frozenset({ANY})
            return frozenset(reads), frozenset({BOARD, HANDS})
        if isinstance(eff, SetCounter):
            key = counter_key(ir, eff.counter)
            reads = self.expr(eff.owner) | self.expr(eff.value) | ({key} if eff.add else set())
            return frozenset(reads), frozenset({key})
        if isinstance(eff, SetElement):
            key = counter_key(ir, eff.column)
            reads = set(self.expr(eff.row) | self.expr(eff.value)) | ({key} if eff.add else set())
            for _, _, x in eff.index:
                reads |= self.expr(x)
            return frozenset(reads), frozenset({key})
        if isinstance(eff, MovePiece):
            hands = {HANDS} if eff.capture != "remove" else set()
            captor = {TURN} if eff.capture == "captor" else set()  # (into the mover's hand)
            return frozenset(self.expr(eff.frm) | self.expr(eff.to) | {BOARD} | hands | captor), frozenset({BOARD} | hands)
        if isinstance(eff, Remove):
            reads = set(self.expr(eff.at) | self.expr(eff.where)) | {BOARD}
            if eff.each is not None:
                self._domain(eff.each, reads)
            hands = {HANDS} if eff.to != "out" else set()
            captor = {TURN} if eff.to == "captor" else set()
            return frozenset(reads | hands | captor), frozenset({BOARD} | hands)
        if isinstance(eff, Convert):
            reads = self.expr(eff.at) | self.expr(eff.owner) | self.expr(eff.kind_expr) | {BOARD}
            return frozenset(reads), frozenset({BOARD})
        if isinstance(eff, FlipFlanked):
            return frozenset(self.expr(eff.at) | {BOARD, TURN}), frozenset({BOARD})
        return frozenset({ANY}), frozenset({ANY})


def _hits(writes: frozenset, needed: set) -> bool:
    return bool(writes & needed) or (ANY in writes and bool(needed)) or (ANY in needed and bool(writes))


def slice_effects(r: Reads, effects: tuple, needed: set) -> tuple[tuple, set]:
    """The effects (in order) that can change a part in ``needed`` (as it stands after
    them), and the parts needed before them. ``needed`` is not changed."""
    needed = set(needed)
    kept: list = []
    for eff in reversed(effects):
        if isinstance(eff, IfEffect):
            then, n1 = slice_effects(r, eff.then, needed)
            other, n2 = slice_effects(r, eff.other, needed)
            if then or other:
                kept.append(IfEffect(eff.when, then, other))
                needed |= n1 | n2 | r.expr(eff.when)
            continue
        if isinstance(eff, ForEach):
            inner = set(needed)
            while True:  # a loop: its body needs what a later round of it needs (a fixed point)
                body, before = slice_effects(r, eff.effects, inner)
                if before <= inner:
                    break
                inner |= before
            if body:
                kept.append(ForEach(eff.each, eff.var, eff.where, body))
                needed |= inner | r.expr(eff.where)
                r._domain(eff.each, needed)
            continue
        reads, writes = r.effect(eff)
        if _hits(writes, needed):
            kept.append(eff)
            needed |= reads
    kept.reverse()
    return tuple(kept), needed


@dataclass(frozen=True)
class LookSlice:
    """An action's effects and triggers as its lookahead needs them."""

    effects: tuple  # the kept effects of the action
    triggers: tuple  # (trigger index, its kept effects) for every trigger with one kept
    reads: frozenset  # every part the kept effects and the condition read or write
    whole: bool  # nothing was left out


def look_slice(ir: GameIR, index: int, state_reads: frozenset) -> Optional[LookSlice]:
    """The slice of action ``index``'s move for its ``legal_after`` (None without one)."""
    a = ir.actions[index]
    if a.legal_after is None:
        return None
    r = Reads(ir, state_reads)
    needed = set(r.expr(a.legal_after))
    touched = set(needed)
    triggers = [(t_index, trig) for t_index, trig in enumerate(ir.triggers) if not trig.after or index in trig.after]
    kept_triggers = []
    whole = True
    for t_index, trig in reversed(triggers):
        kept, before = slice_effects(r, trig.effects, needed)
        whole = whole and kept == trig.effects
        if kept:
            kept_triggers.append((t_index, kept))
            needed = before | r.expr(trig.when)
            touched |= needed | _writes(r, kept)
    kept_triggers.reverse()
    effects, needed = slice_effects(r, a.effects, needed)
    whole = whole and effects == a.effects
    touched |= needed | _writes(r, effects)
    return LookSlice(effects, tuple(kept_triggers), frozenset(touched), whole)


def _writes(r: Reads, effects: tuple) -> set:
    out: set = set()
    for eff in effects:
        if isinstance(eff, IfEffect):
            out |= _writes(r, eff.then) | _writes(r, eff.other)
        elif isinstance(eff, ForEach):
            out |= _writes(r, eff.effects)
        else:
            out |= r.effect(eff)[1]
    return out


def describe(ir: GameIR, index: int, state_reads: frozenset) -> Optional[str]:
    """One line for ``midgardc explain``: what action ``index``'s lookahead applies and
    copies (None without ``legal_after``)."""
    look = look_slice(ir, index, state_reads)
    if look is None:
        return None
    parts = ", ".join(sorted(p.replace("counter:", "counter ") for p in look.reads | {BOARD, TURN} if p != ANY))  # (the copy always takes the board and the turn)
    if ANY in look.reads:
        return f"lookahead: the whole move on a copy of the whole state (the condition or an effect reads a part this analysis does not name; it also reads {parts})"
    a = ir.actions[index]
    n_triggers = sum(1 for t in ir.triggers if not t.after or index in t.after)
    if look.whole:
        applied = "the whole move"
    else:
        applied = f"{_count(look.effects)} of {_count(a.effects)} effect(s) and {len(look.triggers)} of {n_triggers} trigger(s)"
    return f"lookahead: {applied} on a copy of {parts} (what legal_after reads, directly or through the effects kept)"


def _count(effects: tuple) -> int:
    """The effects that do something (the ones inside if/for_each blocks)."""
    n = 0
    for eff in effects:
        if isinstance(eff, IfEffect):
            n += _count(eff.then) + _count(eff.other)
        elif isinstance(eff, ForEach):
            n += _count(eff.effects)
        else:
            n += 1
    return n
