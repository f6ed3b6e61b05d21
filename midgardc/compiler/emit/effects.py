"""Effects in C: one statement (and a comment) per effect, and the ``if``/``for_each``
blocks. The Python meaning is ``midgardc.runtime.rules.effects``; the helpers the
statements call are in ``templates/effects.pyx.j2``."""

from __future__ import annotations

from ...errors import BuildError
from typing import Optional

from ...ir.nodes import (
    INT,
    Binary,
    Call,
    DefineCall,
    Local,
    Unary,
    Const,
    Discard,
    Draw,
    ForEach,
    IfEffect,
    AssessRegions,
    ExtraTurn,
    NextTurn,
    Remove,
    Convert,
    Effect,
    Place,
    MovePiece,
    FlipFlanked,
    SetCounter,
    SetElement,
)
from ...ir.pools import HandAdd
from ...ir.analysis import conjoin, conjuncts
from .common import CAPTURE_MODES, comment_text, free_locals, guarded, unparse, unparse_domain, Var, Scope, EachFn
from .zones import ZONE_EFFECT_TYPES, zone_effect


def known_empty(e, ir, args: Optional[dict] = None) -> frozenset[str]:
    """The action parameters (names) that a condition's top-level conjuncts say are empty
    cells: ``empty(c)`` or ``not occupied(c)``, also inside a definition called with c
    (``args``: the definition's parameters -> the action's expressions)."""

    def name(x) -> Optional[str]:
        if args is not None and isinstance(x, Local):
            x = args.get(x.name)
        return x.name if isinstance(x, Local) else None

    if isinstance(e, Binary) and e.op == "and":
        return known_empty(e.left, ir, args) | known_empty(e.right, ir, args)
    if isinstance(e, DefineCall):
        d = ir.defines[e.index]
        inner = {}
        for p, a in zip(d.params, e.args):
            if isinstance(a, Local) and name(a) is not None:
                inner[p.name] = Local(name(a), a.type)
        return known_empty(d.body, ir, inner)
    if isinstance(e, Call) and e.fn == "empty" and name(e.args[0]):
        return frozenset([name(e.args[0])])
    if isinstance(e, Unary) and e.op == "not" and isinstance(e.arg, Call) and e.arg.fn == "occupied" and name(e.arg.args[0]):
        return frozenset([name(e.arg.args[0])])
    return frozenset()


def known_in_hand(e) -> frozenset:
    """The (owner, kind) pairs that a condition's top-level conjuncts say have a piece in
    hand: ``hand(o, k) > n`` or ``hand(o, k) >= n + 1`` with n >= 0 (either side), o as an
    expression, k a constant kind."""

    def hand(x) -> Optional[tuple]:
        if isinstance(x, Call) and x.fn == "hand" and isinstance(x.args[1], Const):
            return (x.args[0], x.args[1].value)
        return None

    def least(x) -> Optional[int]:
        return x.value if isinstance(x, Const) and isinstance(x.value, int) and not isinstance(x.value, bool) else None

    if not isinstance(e, Binary):
        return frozenset()
    if e.op == "and":
        return known_in_hand(e.left) | known_in_hand(e.right)
    # (a pair is the hand's owner and kind; bound: the constant's least value for a piece)
    flipped = {"<": ">", "<=": ">="}
    op, left, right = e.op, e.left, e.right
    if op in flipped:
        op, left, right = flipped[op], right, left
    pair, bound = hand(left), least(right)
    if pair is None or bound is None:
        return frozenset()
    if (op == ">" and bound >= 0) or (op == ">=" and bound >= 1):
        return frozenset([pair])
    return frozenset()


class Effects:
    """Part of ``ExprCompiler`` (``compiler/codegen.py``): effects and blocks."""

    def effects(self, effects: tuple[Effect, ...], scope: Scope, empty: frozenset[str] = frozenset(), in_hand: frozenset = frozenset()) -> list[dict]:
        """Each effect as one statement plus a comment. ``empty``: parameters known to be
        empty cells before the first effect (the action's condition says so, and the
        move is legal): placing there first needs no read of what stood on the cell.
        ``in_hand``: (owner, kind) pairs the condition says have a piece in hand (see
        known_in_hand()): such a first placement needs no test at all."""
        out = []
        ir = self.ir
        for k, eff in enumerate(effects):
            if isinstance(eff, Place) and eff.kind_expr is not None:
                # a kind worked out as the move runs: none (or no such kind) places nothing
                owner, at, kind = self.expr(eff.owner, scope).text, self.expr(eff.at, scope).text, self.expr(eff.kind_expr, scope).text
                height = self.expr(eff.height, scope).text if eff.height is not None else "1"
                push = self.expr(eff.push, scope).text if eff.push is not None else "-1"
                put = f"put_stack(st, {owner}, {kind}, {at}, {height}, {push})" if eff.height is not None or eff.push is not None else f"put_piece(st, {owner}, {kind}, {at})"
                out.append({
                    "comment": comment_text(f"place {unparse(eff.kind_expr, ir)} of {unparse(eff.owner, ir)} at {unparse(eff.at, ir)}"),
                    "code": f"if 0 <= ({kind}) < {len(ir.kinds)}: {put}",
                })
                continue
            if k == 0 and isinstance(eff, Place) and eff.height is None and eff.push is None and isinstance(eff.at, Local) and eff.at.name in empty:
                owner, at = self.expr(eff.owner, scope).text, self.expr(eff.at, scope).text
                known = (eff.owner, eff.kind) in in_hand
                out.append({
                    "comment": comment_text(f"place {ir.kinds[eff.kind]} of {unparse(eff.owner, ir)} at {unparse(eff.at, ir)} (empty{' and in hand' if known else ''}: the condition says so)"),
                    "code": f"put_piece_on_empty(st, {owner}, {eff.kind}, {at}, {'False' if known else 'True'})",
                })
                continue
            if isinstance(eff, Place) and (eff.height is not None or eff.push is not None):
                owner, at = self.expr(eff.owner, scope).text, self.expr(eff.at, scope).text
                height = self.expr(eff.height, scope).text if eff.height is not None else "1"
                push = self.expr(eff.push, scope).text if eff.push is not None else "-1"
                how = f" of height {unparse(eff.height, ir)}" if eff.height is not None else ""
                how += f", pushing {unparse(eff.push, ir)}" if eff.push is not None else ""
                out.append({
                    "comment": comment_text(f"place a stack of {ir.kinds[eff.kind]} of {unparse(eff.owner, ir)} at {unparse(eff.at, ir)}{how}"),
                    "code": f"put_stack(st, {owner}, {eff.kind}, {at}, {height}, {push})",
                })
            elif isinstance(eff, Place):
                owner, at = self.expr(eff.owner, scope).text, self.expr(eff.at, scope).text
                out.append({
                    "comment": comment_text(f"place {ir.kinds[eff.kind]} of {unparse(eff.owner, ir)} at {unparse(eff.at, ir)}"),
                    "code": f"put_piece(st, {owner}, {eff.kind}, {at})",
                })
            elif isinstance(eff, SetCounter):
                owner, value = self.expr(eff.owner, scope).text, self.expr(eff.value, scope).text
                verb = "add" if eff.add else "set"
                out.append({
                    "comment": comment_text(f"{verb} counter {ir.counters[eff.counter]} of {unparse(eff.owner, ir)} {'+' if eff.add else ''}= {unparse(eff.value, ir)}"),
                    "code": f"counter_{verb}(st, {owner}, {eff.counter}, {value})",
                })
            elif isinstance(eff, SetElement):
                row, value = self.expr(eff.row, scope).text, self.expr(eff.value, scope).text
                flat = self.element_offset(tuple(x for lo, size, e in eff.index for x in (Const(lo, INT), Const(size, INT), e)), scope)
                name = ir.counters[eff.column].split("[", 1)[0]
                where = ", ".join(([] if isinstance(eff.row, Const) and eff.row.value == ir.n_players else [unparse(eff.row, ir)]) + [unparse(e, ir) for _, _, e in eff.index])
                out.append({
                    "comment": comment_text(f"{'add' if eff.add else 'set'} {name}[{where}] {'+' if eff.add else ''}= {unparse(eff.value, ir)}"),
                    "code": f"element_set(st, {row}, {eff.column}, {flat}, {value}, {'True' if eff.add else 'False'})",
                })
            elif isinstance(eff, AssessRegions):
                out.append({
                    "comment": comment_text(f"assess regions of {unparse(eff.member, ir)} and award {ir.kinds[eff.kind]}"),
                    "code": self.region(eff, scope),
                })
            elif isinstance(eff, MovePiece):
                frm, to = self.expr(eff.frm, scope).text, self.expr(eff.to, scope).text
                out.append({
                    "comment": comment_text(f"move the piece on {unparse(eff.frm, ir)} to {unparse(eff.to, ir)} (capture: {eff.capture})"),
                    "code": f"move_piece(st, {frm}, {to}, {CAPTURE_MODES[eff.capture]})",
                })
            elif isinstance(eff, Convert):
                at = self.expr(eff.at, scope).text
                owner = self.expr(eff.owner, scope).text if eff.owner is not None else "-2"
                kind = self.expr(eff.kind_expr, scope).text if eff.kind_expr is not None else str(eff.kind)
                what = [f"kind {unparse(eff.kind_expr, ir) if eff.kind_expr is not None else ir.kinds[eff.kind]}"] if eff.kind != -2 or eff.kind_expr is not None else []
                what += [f"owner {unparse(eff.owner, ir)}"] if eff.owner is not None else []
                out.append({
                    "comment": comment_text(f"convert the piece on {unparse(eff.at, ir)} to {' and '.join(what)}"),
                    # (a kind of none is -1 and an owner of nobody -1: convert_piece() skips them)
                    "code": f"convert_piece(st, {at}, {owner}, {kind})",
                })
            elif isinstance(eff, FlipFlanked):
                out.append({
                    "comment": comment_text(f"flip the runs flanked from {unparse(eff.at, ir)}"),
                    "code": f"flip_flanked(st, {self.expr(eff.at, scope).text})",
                })
            elif isinstance(eff, Remove):
                out.append({"comment": self.removals_comment(eff), "code": self.removal(eff, scope)})
            elif isinstance(eff, Discard):
                out.append({
                    "comment": comment_text(f"discard a face-up {unparse(eff.item, ir)} of {unparse(eff.owner, ir)}"),
                    "code": f"discard_item(st, {self.expr(eff.owner, scope).text}, {self.expr(eff.item, scope).text})",
                })
            elif isinstance(eff, Draw):
                out.append({
                    "comment": comment_text(f"{unparse(eff.owner, ir)} turns up {unparse(eff.count, ir)} item(s) from the deck"),
                    "code": f"draw_items(st, {self.expr(eff.owner, scope).text}, {self.expr(eff.count, scope).text})",
                })
            elif isinstance(eff, ZONE_EFFECT_TYPES):
                out.append(zone_effect(self, eff, scope))
            elif isinstance(eff, ExtraTurn):
                self.uses_again = True
                out.append({"comment": "extra_turn: the mover moves again", "code": "st.again = 1"})
            elif isinstance(eff, NextTurn):
                self.uses_again = True
                to = self.expr(eff.to, scope).text
                out.append({"comment": comment_text(f"next_turn: {unparse(eff.to, self.ir)} moves next"), "code": f"next_turn(st, {to})"})
            elif isinstance(eff, (IfEffect, ForEach)):
                out.append(self.block(eff, scope))
            elif isinstance(eff, HandAdd):  # a piece out of a pool, about to be placed (ir/pools.py)
                owner = self.expr(eff.owner, scope).text
                out.append({
                    "comment": comment_text(f"a {ir.kinds[eff.kind]} of {unparse(eff.owner, ir)} out of a pool, into the hand it is placed from"),
                    "code": f"if {owner} >= 0:\n    st.hands[{owner}][{eff.kind}] += {eff.by}",
                })
            else:
                raise BuildError(f"internal error: the compiled back end lacks effect {type(eff).__name__}")
        return out

    # -- blocks: if / for_each -----------------------------------------------------------

    def block(self, eff, scope: Scope) -> dict:
        """``if``: an inline Cython if/else (several lines, indented relative to the first);
        ``for_each``: a call of ``each_<n>(st, locals...)`` (see EachFn), since a loop needs
        C declarations of its own."""
        ir = self.ir
        if isinstance(eff, IfEffect):
            lines = [f"if {self.expr(eff.when, scope).text}:"]
            for branch, head in ((eff.then, None), (eff.other, "else:")):
                if head is not None:
                    if not branch:
                        break
                    lines.append(head)
                body = self.effects(branch, scope)
                for e in body or [{"code": "pass", "comment": "nothing"}]:
                    code = e["code"].replace("\n", "\n    ")
                    lines.append(f"    {code}  # {e['comment']}")
            return {"comment": comment_text(f"if {unparse(eff.when, ir)}"), "code": "\n".join(lines)}
        names = list(scope)  # every local in scope is passed (in scope order: never by name)
        params = [(n, Var(f"f{i}", scope[n].type)) for i, n in enumerate(names)]
        inner: Scope = {n: v for n, v in params}
        loop = self.domain_loop(eff.each, inner, "x", "each_", sieve=(eff.var, eff.where))
        inner[eff.var] = Var("x", eff.each.elem_type)
        where = self.expr(eff.where, inner).text if eff.where is not None else None
        index = len(self.eaches)
        self.eaches.append(None)  # (the slot is taken before the body may add more)
        body = self.effects(eff.effects, inner)
        text = f"for each {eff.var} in {unparse_domain(eff.each, ir)}"
        if eff.where is not None:
            text += f" where {unparse(eff.where, ir)}"
        self.eaches[index] = EachFn(index, params, loop, where, body, comment_text(text))
        # The parts of ``where`` that do not read the element are tested before the call
        # too (and still inside): until the body first runs nothing has changed them, so
        # when they are false no element passes. A loop over directions that only one
        # kind of piece's moves need then costs every other move one test.
        outside = [c for c in (conjuncts(eff.where) if eff.where is not None else []) if eff.var not in free_locals(c)]
        call = f"each_{index}(st" + "".join(", " + scope[n].cname for n in names) + ")"
        return {"comment": comment_text(text), "code": guarded(self.expr(conjoin(outside), scope).text if outside else None, call)}
