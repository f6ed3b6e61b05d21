"""Lowering of ``actions:``: parameters, ``where`` (with the hand checks a placement
implies) and notation (checked to be unambiguous)."""

from __future__ import annotations

import re
from typing import Optional

from ..errors import Pos, SpecError, did_you_mean
from ..ir.nodes import (
    BOOL,
    CELL,
    DIR,
    INT,
    KIND,
    PLAYER,
    ITEM,
    Action,
    Call,
    Const,
    Effect,
    Expr,
    Param,
    Place,
)
from .yamlpos import YMap, YNode, YScalar
from .compound import lower_chain
from .schema import MAX_MOVES, PARAM_TYPES
from .pools import with_pool_checks


class LowerActions:
    """Part of ``Lowerer`` (``midgardc/spec/lower.py``): actions, their parameters and notation."""

    def lower_params(self, node: Optional[YNode]) -> tuple[Param, ...]:
        if node is None:
            return ()
        if not isinstance(node, YMap):
            raise SpecError("'params' maps parameter names to types, e.g. {c: cell}", node.pos)
        params = []
        for pname, tnode in node.items.items():
            self.ident(pname, node.key_pos[pname], "parameter name")
            tname = self.scalar(tnode, str, "a parameter type")
            m = re.fullmatch(r"(-?\d+)\s*\.\.\s*(-?\d+)", tname)
            if m:
                lo, hi = int(m.group(1)), int(m.group(2))
                if hi < lo or hi - lo > 4096:
                    raise SpecError("an integer parameter range is 'lo..hi' with at most 4096 values", tnode.pos)
                params.append(Param(pname, INT, lo, hi))
            elif tname in PARAM_TYPES:
                params.append(Param(pname, PARAM_TYPES[tname]))
            elif tname in self.names.types:  # an enumeration: its values 0 .. n-1
                params.append(Param(pname, self.names.types[tname], 0, len(self.value_names(self.names.types[tname])) - 1))
            else:
                raise SpecError(f"unknown parameter type '{tname}' (cell, player, kind, dir, item, an enumeration, or a range like 1..6)", tnode.pos, did_you_mean(tname, [*PARAM_TYPES, *self.names.types]))
        return tuple(params)

    def value_texts(self, p: Param) -> set[str]:
        """How the values of parameter ``p`` are written in moves."""
        assert self.board is not None
        if p.type == INT:
            return {str(v) for v in range(p.lo, p.hi + 1)}
        if p.type in self.names.types.values():
            return set(self.value_names(p.type))
        items = self.deck_ir.texts if self.deck_ir else (self.zones_ir.texts if self.zones_ir else ())
        return set({CELL: self.board.cell_names, PLAYER: self.players, KIND: self.kinds, DIR: self.board.directions, ITEM: items}[p.type])

    def param_size(self, p: Param) -> int:
        assert self.board is not None
        return {CELL: self.board.n_cells, PLAYER: len(self.players), KIND: len(self.kinds), DIR: len(self.board.directions), INT: p.hi - p.lo + 1, ITEM: self.deck_ir.n_kinds if self.deck_ir else (self.zones_ir.n_kinds if self.zones_ir else 0)}.get(p.type, p.hi - p.lo + 1)  # (an enumeration: lo..hi)

    def lower_actions(self, node: YNode) -> tuple[Action, ...]:
        if not isinstance(node, YMap) or not node.items:
            raise SpecError("'actions' maps action names to their parameters, condition and effects", node.pos)
        actions = []
        base = 0
        for aname, body in node.items.items():
            self.ident(aname, node.key_pos[aname], "action name")
            body = self.keys(body, "action", f"action '{aname}'")
            params = self.lower_params(body.get("params"))
            scope = {p.name: p.type for p in params}
            where = self.condition(body["where"], scope) if "where" in body else Const(1, BOOL)
            effects = self.lower_effects(body.get("effects"), scope, f"action '{aname}'")
            where = with_pool_checks(self, _with_hand_checks(where, effects), effects)
            # lookahead legality: a condition on the state the move would leave
            # (in it, can_move() asks whether the next mover has a move there: conditions/check.py)
            after = None
            if "legal_after" in body:
                self.names.in_after = True
                try:
                    after = self.condition(body["legal_after"], scope)
                finally:
                    self.names.in_after = False
            notation = self.lower_notation(body.get("notation"), params, aname, node.key_pos[aname])
            size = 1
            for p in params:
                size *= self.param_size(p)
            chain = None
            if "continue" in body:  # a compound move's step (spec/compound.py)
                chain = lower_chain(self, body["continue"], params, scope, aname, notation, size, after is not None, node.key_pos[aname])
                size *= chain.ways
            if base + size > MAX_MOVES:
                raise SpecError(_too_many(aname, base, size, chain.ways if chain else None), node.key_pos[aname], "give the parameters smaller domains" + (" or continue.ways a smaller number" if chain else ""))
            shape = tuple(part if isinstance(part, str) else params[part].type for part in notation)
            for other in actions:
                if tuple(part if isinstance(part, str) else other.params[part].type for part in other.notation) == shape:
                    npos = body["notation"].pos if "notation" in body else node.key_pos[aname]
                    raise SpecError(
                        f"actions '{other.name}' and '{aname}' write their moves the same way, so a move's text would not say which is meant",
                        npos,
                        f"give '{aname}' a notation of its own, e.g. notation: \"" + ":".join([aname] + ["{%s}" % p.name for p in params]) + '"',
                    )
            actions.append(Action(aname, params, where, effects, notation, base, size, legal_after=after, chain=chain))
            base += size
        return tuple(actions)

    def lower_notation(self, node: Optional[YNode], params: tuple[Param, ...], aname: str, pos: Pos) -> tuple:
        if node is None:
            # one parameter: its value ('b2'); none: the action's name ('pass');
            # several: the name and the values joined by ':' ('move:a1:b2')
            template = "{%s}" % params[0].name if len(params) == 1 else ":".join([aname] + ["{%s}" % p.name for p in params])
            npos = pos
        else:
            template = self.scalar(node, str, "notation")
            npos = node.pos
        parts: list = []
        names = [p.name for p in params]
        try:
            fields = list(__import__("string").Formatter().parse(template))
        except ValueError as exc:  # a lone '{' or '}'
            raise SpecError(f"notation {template[:60]!r} is not a valid template: {exc}", npos, "write '{{' and '}}' for literal braces") from None
        for lit, field_name, spec, conv in fields:
            if lit:
                parts.append(lit)
            if field_name is not None:
                if field_name not in names:
                    at = template.find("{" + field_name)
                    fpos = node.text_pos(at + 1) if isinstance(node, YScalar) and at >= 0 else npos
                    params_list = ", ".join(names) or "none"
                    raise SpecError(
                        f"notation uses '{{{field_name}}}', which is not a parameter of '{aname}' (parameters: {params_list})",
                        fpos,
                        did_you_mean(field_name, names),
                    )
                parts.append(names.index(field_name))
        for i, ch in enumerate(template):
            if ch.isspace() or ch == ",":
                where = node.text_pos(i) if isinstance(node, YScalar) else npos
                raise SpecError(f"notation may not contain {'spaces' if ch.isspace() else 'commas'} (moves are separated by spaces or commas)", where)
        missing = [p.name for i, p in enumerate(params) if i not in parts]
        if missing:
            raise SpecError(
                f"notation {template!r} does not show parameter{'s' if len(missing) > 1 else ''} {', '.join(missing)}; two different moves would be written the same way",
                npos,
                "put every parameter in the notation, e.g. '" + ":".join([aname] + ["{%s}" % p.name for p in params]) + "'",
            )
        if not parts:
            raise SpecError("notation is empty", npos)
        return tuple(parts)


def _can_write_prefix(parts: tuple, values: list, prefix: str) -> bool:
    """Can a notation (literal strings and parameter places, each place with the set of
    its value texts) write some move whose text starts with ``prefix``? (Memoised on the
    place and how much of the prefix is written, so hostile names cannot make it slow.)"""
    from functools import lru_cache

    @lru_cache(maxsize=None)
    def can(i: int, at: int) -> bool:
        if at == len(prefix):
            return True
        if i == len(parts):
            return False
        rest = prefix[at:]
        for text in ((parts[i],) if isinstance(parts[i], str) else values[i]):
            n = min(len(text), len(rest))
            if text[:n] == rest[:n] and can(i + 1, at + n):
                return True
        return False

    return can(0, 0)


def _with_hand_checks(where: Expr, effects: tuple[Effect, ...]) -> Expr:
    """An action that places a piece from a hand is only legal while the hand has one."""
    from ..ir.nodes import Binary

    for eff in effects:
        if isinstance(eff, Place):
            hand = Call("hand", (eff.owner, eff.kind_expr if eff.kind_expr is not None else Const(eff.kind, KIND)), INT)
            need = Binary(">", hand, Const(0, INT), BOOL)
            if eff.height is not None:  # a stack: the hand holds all its pieces
                need = Binary(">=", hand, eff.height, BOOL)
            where = need if isinstance(where, Const) and where.value == 1 else Binary("and", need, where, BOOL)
    return where


def _too_many(aname: str, base: int, size: int, ways: Optional[int]) -> str:
    """The limit on move ids, with the count that broke it (and, for a compound move, why
    it is so large: every first step is numbered once per way a ``continue:`` may go on)."""
    count = f"action '{aname}' has {size:,} possible moves"
    if ways is not None:
        count += f" ({size // ways:,} first steps, each numbered {ways:,} times: a continue:'s ways multiply the first step's moves)"
    before = f", after {base:,} of the actions before it" if base else ""
    return f"too many possible moves: {count}{before}; the limit is {MAX_MOVES:,} in all"
