"""Lowering of ``actions:``: parameters, ``where`` (with the hand checks a placement
implies) and notation (checked to be unambiguous)."""

from __future__ import annotations

import dataclasses
import re
from typing import Optional

from ..errors import Pos, SpecError, did_you_mean
from ..ir.nodes import (
    Binary,
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
from .yamlpos import YList, YMap, YNode, YScalar
from .compound import lower_chain, lower_then
from ..ir.compound import Then
from .schema import MAX_MOVES, PARAM_TYPES
from .pools import with_pool_checks
from .blocks import ZONE_PARAM
from .rows import ZoneColumns, action_rows, check_free, default_row_notation, row_columns, row_notation, substitute


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
        self.action_pos = {}  # every action's place (a row's: its line in rows:)
        for aname, body in node.items.items():
            self.ident(aname, node.key_pos[aname], "action name")
            body = self.keys(body, "action", f"action '{aname}'")
            shape = _shape_of(body)
            params = SHAPES[shape[0]][0] if shape else self.lower_params(body.get("params"))
            columns = row_columns(self, body, aname)
            scope = {p.name: p.type for p in params}
            rscope = {**scope, **{c: t for c, t in columns.items() if t != ZONE_PARAM}}
            if shape and "notation" not in body:
                body = YMap({**body.items, "notation": YScalar(SHAPES[shape[0]][1], shape[1].pos)}, body.pos, {**body.key_pos, "notation": shape[1].pos})
            # lowered once; a row substitutes its values for the columns (spec/rows.py);
            # with zone columns once per row, each naming the row's zone (rows.ZoneColumns)
            zoned = ZONE_PARAM in columns.values()
            lowered = None if zoned else self._action_body(body, aname, shape, rscope)
            for rname, rpos, values, texts, rparams, nnode in action_rows(self, body, aname, node.key_pos[aname], columns, params):
                if rname in self.action_pos:
                    raise SpecError(f"there is already an action '{rname}'", rpos, "give the row another name")
                self.action_pos[rname] = rpos
                zones = None
                if zoned:
                    with ZoneColumns(self, columns, body, rname) as zones:
                        lowered = self._action_body(body, aname, shape, rscope)
                where, effects, after = substitute(lowered, values)
                if zones is not None:
                    zones.check(rname, rpos, (where, effects, after))
                if "params" in body and rparams is not params:
                    check_free(aname, rname, rpos, (where, effects, after), rparams)
                where = with_pool_checks(self, _with_hand_checks(where, effects), effects)
                if "rows" in body:
                    template = row_notation(self.scalar(nnode, str, "notation"), texts) if nnode is not None else default_row_notation(rname, rparams)
                    notation = self.lower_notation(nnode, rparams, rname, rpos, template)
                else:
                    notation = self.lower_notation(nnode, params, aname, rpos)
                base = self._add_action(actions, body, rname, rpos, rparams, {p.name: p.type for p in rparams}, where, effects, after, notation, base)
        return tuple(actions)

    def _action_body(self, body: YMap, aname: str, shape: Optional[tuple], rscope: dict[str, str]) -> tuple[Expr, tuple[Effect, ...], Optional[Expr]]:
        """An action's ``where``, effects (with its shape's) and ``legal_after``, lowered
        with the columns of its rows as typed names."""
        where = self.condition(body["where"], rscope) if "where" in body else Const(1, BOOL)
        effects = self.lower_effects(body.get("effects"), rscope, f"action '{aname}'")
        if shape:
            where, effects = self.shaped(shape, where, effects, rscope, aname)
        # lookahead legality: a condition on the state the move would leave
        # (in it, can_move() asks whether the next mover has a move there: conditions/check.py)
        after = None
        if "legal_after" in body:
            self.names.in_after = True
            try:
                after = self.condition(body["legal_after"], rscope)
            finally:
                self.names.in_after = False
        return where, effects, after

    def shaped(self, shape: tuple[str, YNode], where: Expr, effects: tuple[Effect, ...], scope: dict, aname: str) -> tuple[Expr, tuple[Effect, ...]]:
        """The legality and effects a shaped action adds to its own ``where`` and
        ``effects`` (see SHAPES): ``moves: COND``: the mover's piece on f, COND holding, and
        the piece moved to t after the action's effects; ``drops: KIND``: t empty, and a
        piece of that kind from the mover's hand placed on t before them; ``removes:
        COND``: another player's piece on t, COND holding, and that piece taken out of the
        game after the action's effects."""
        key, node = shape
        pos = node.pos

        def text(value: str) -> YScalar:
            return YScalar(value, pos)

        if key in ("moves", "steps", "hops"):
            if key == "moves":
                cond = self.condition(node, scope)
            else:  # `any d in directions: COND and <the shape's own legality>`
                along = self.condition(text("any d in directions: " + _ALONG[key]), scope)
                own = self.condition(node, {**scope, "d": DIR})
                cond = dataclasses.replace(along, body=Binary("and", own, along.body, BOOL))
            need = _first(self.condition(text("owner(f) == mover"), scope), cond)
            steps = [YMap({"move": YMap({"from": text("f"), "to": text("t")}, pos, {"from": pos, "to": pos})}, pos, {"move": pos})]
            if key == "hops":  # the piece jumped over leaves the game
                gone = {"each": text("d in directions"), "where": text("t == step(step(f, d), d)"), "at": text("step(f, d)"), "to": text("out")}
                steps.insert(0, YMap({"remove": YMap(gone, pos, {k: pos for k in gone})}, pos, {"remove": pos}))
            extra = self.lower_effects(YList(steps, pos), scope, f"action '{aname}'")
            effects = tuple(effects) + tuple(extra)
        elif key == "removes":
            need = _first(self.condition(text("occupied(t) and owner(t) != mover"), scope), self.condition(node, scope))
            take = YMap({"remove": YMap({"at": text("t"), "to": text("out")}, pos, {"at": pos, "to": pos})}, pos, {"remove": pos})
            effects = tuple(effects) + tuple(self.lower_effects(YList([take], pos), scope, f"action '{aname}'"))
        else:
            kind = self.scalar(node, str, "the kind of piece 'drops' places")
            if kind not in self.kinds:
                raise SpecError(f"unknown kind of piece '{kind}'", pos, did_you_mean(kind, self.kinds) or f"kinds: {', '.join(self.kinds)}")
            need = self.condition(text("empty(t)"), scope)
            put = YMap({"place": YMap({"piece": text(kind), "at": text("t")}, pos, {"piece": pos, "at": pos})}, pos, {"place": pos})
            # (the hand check a placement implies is added with every action's, after this)
            effects = tuple(self.lower_effects(YList([put], pos), scope, f"action '{aname}'")) + tuple(effects)
        return (need if isinstance(where, Const) and where.value == 1 else _first(need, where)), effects

    def _add_action(self, actions: list, body: YMap, aname: str, apos: Pos, params: tuple[Param, ...], scope: dict[str, str], where: Expr, effects: tuple[Effect, ...], after: Optional[Expr], notation: tuple, base: int) -> int:
        """Append one lowered action (checked: its move count, a notation of its own);
        returns the next action's first move id."""
        size = 1
        for p in params:
            size *= self.param_size(p)
        chain = None
        if "continue" in body:  # a compound move's step (spec/compound.py)
            chain = lower_chain(self, body["continue"], params, scope, aname, notation, size, after is not None, apos)
            size *= chain.ways
        then = None
        if "then" in body:  # a second step of another kind (spec/compound.py): its parameters follow the first step's
            second, where2, effects2, notation2 = lower_then(self, body["then"], params, scope, aname, after is not None, chain is not None, apos)
            where2 = with_pool_checks(self, _with_hand_checks(where2, effects2), effects2)  # (read after the first step)
            then = Then(len(params), len(effects), where2)
            params, effects, notation = params + second, effects + effects2, notation + notation2
            for p in second:
                size *= self.param_size(p)
        if base + size > MAX_MOVES:
            raise SpecError(_too_many(aname, base, size, chain.ways if chain else None), apos, "give the parameters smaller domains" + (" or continue.ways a smaller number" if chain else ""))
        shape = tuple(part if isinstance(part, str) else params[part].type for part in notation)
        for other in actions:
            if tuple(part if isinstance(part, str) else other.params[part].type for part in other.notation) == shape:
                npos = body["notation"].pos if "notation" in body else apos
                raise SpecError(
                    f"actions '{other.name}' and '{aname}' write their moves the same way, so a move's text would not say which is meant",
                    npos,
                    f"give '{aname}' a notation of its own, e.g. notation: \"" + ":".join([aname] + ["{%s}" % p.name for p in params]) + '"',
                )
        actions.append(Action(aname, params, where, effects, notation, base, size, legal_after=after, chain=chain, then=then))
        return base + size

    def lower_notation(self, node: Optional[YNode], params: tuple[Param, ...], aname: str, pos: Pos, row_template: Optional[str] = None) -> tuple:
        if row_template is not None:  # a row of an action's rows: (spec/rows.py)
            template = row_template
            npos = node.pos if node is not None else pos
            node = None  # (the row's text is not the scalar's: errors name the notation)
        elif node is None:
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


# Action shapes: a key that gives an action its parameters, part of its legality and an
# effect, and a default notation (a whole action in one line): key -> (params, notation).
SHAPES: dict[str, tuple[tuple[Param, ...], str]] = {
    "moves": ((Param("f", CELL), Param("t", CELL)), "{f}-{t}"),   # the mover's piece from f to t
    "drops": ((Param("t", CELL),), "{t}"),                          # a piece from the hand onto t
    "steps": ((Param("f", CELL), Param("t", CELL)), "{f}-{t}"),   # one step along a direction d to an empty t
    "hops": ((Param("f", CELL), Param("t", CELL)), "{f}x{t}"),    # over an adjacent foe along d to an empty t
    "removes": ((Param("t", CELL),), "x{t}"),                       # another player's piece off t, out of the game
}
# the legality the direction shapes add to their COND (which reads f and the direction d),
# and the effects: (condition inside `any d in directions:`, effects before the move)
_ALONG: dict[str, str] = {
    "steps": "t == step(f, d) and empty(t)",
    "hops": "occupied(step(f, d)) and owner(step(f, d)) != mover and t == step(step(f, d), d) and empty(t)",
}


def _first(need: Expr, rest: Expr) -> Expr:
    """``need and rest`` as the text ``need and a and b`` parses (the and-chain nests to
    the left), so a shaped action is the same expression its long form is."""
    if isinstance(rest, Binary) and rest.op == "and":
        return Binary("and", _first(need, rest.left), rest.right, BOOL)
    return Binary("and", need, rest, BOOL)


def _shape_of(body: dict) -> Optional[tuple[str, YNode]]:
    """The action's shape key and its node, if it has one (at most one, and no params)."""
    keys = [k for k in SHAPES if k in body]
    if len(keys) > 1:
        raise SpecError(f"an action has one shape: '{keys[0]}' or '{keys[1]}', not both", body[keys[1]].pos)
    if not keys:
        return None
    if "params" in body:
        names = ", ".join(p.name for p in SHAPES[keys[0]][0])
        raise SpecError(f"an action with '{keys[0]}' has the parameters {names}: remove 'params'", body["params"].pos)
    return keys[0], body[keys[0]]
