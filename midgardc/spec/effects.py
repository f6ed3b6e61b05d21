"""Lowering of effects (one ``eff_<name>`` per effect, looked up in ``EFFECTS``; the zone
effects come from ``zones.py``), ``if``/``for_each`` blocks and ``triggers:``."""

from __future__ import annotations

import re
from typing import Callable, Optional

from ..conditions.check import check_domain, check_each
from ..errors import SpecError, did_you_mean
from ..ir.nodes import (
    BOOL,
    KIND,
    CELL,
    DIR,
    INT,
    PLAYER,
    ITEM,
    Discard,
    Draw,
    Action,
    AssessRegions,
    Binary,
    Call,
    Const,
    Effect,
    Expr,
    Place,
    MovePiece,
    FlipFlanked,
    ExtraTurn,
    ForEach,
    IfEffect,
    NextTurn,
    Remove,
    Convert,
    SetCounter,
    Trigger,
)
from .yamlpos import YList, YMap, YNode
from .zones import ZONE_EFFECTS
from .pools import pool_effect
from .loops import eff_repeat
from .piles import eff_sow, eff_take_pile
from .blocks import use_block
from .schema import REGION_VAR


class LowerEffects:
    """Part of ``Lowerer`` (``midgardc/spec/lower.py``): effects and triggers."""

    def lower_effects(self, node: Optional[YNode], scope: dict[str, str], what: str) -> tuple[Effect, ...]:
        if node is None:
            return ()
        if not isinstance(node, YList):
            raise SpecError(f"the effects of {what} are a list, e.g. '- place: {{piece: stone, at: c}}'", node.pos)
        out = []
        for item in node:
            if not isinstance(item, YMap) or len(item.items) != 1:
                raise SpecError(f"each effect is a one-key mapping ({', '.join(EFFECTS)})", item.pos)
            (ename, body), = item.items.items()
            if ename in getattr(self, "blocks", {}):  # a named block of effects (spec/blocks.py)
                out.extend(use_block(self, ename, body, item.key_pos[ename], scope))
                continue
            if ename not in EFFECTS:
                names = [*EFFECTS, *getattr(self, "blocks", {})]
                raise SpecError(f"unknown effect '{ename}'", item.key_pos[ename], did_you_mean(ename, names) or f"effects: {', '.join(names)}")
            if ename == "take" and self.pile_kinds and not (isinstance(body, YMap) and "item" in body):
                out.extend(eff_take_pile(self, self.keys(body, "take_pile", "effect 'take'"), scope))  # a pile's (spec/piles.py)
                continue
            lowered = EFFECTS[ename](self, self.keys(body, ename, f"effect '{ename}'"), scope)
            out.extend(lowered) if isinstance(lowered, tuple) else out.append(lowered)
        return tuple(out)

    def kind(self, node: YNode) -> int:
        k = self.scalar(node, str, "a piece kind")
        if k not in self.kinds:
            raise SpecError(f"unknown piece kind '{k}'", node.pos, did_you_mean(k, self.kinds))
        return self.kinds.index(k)

    def kind_value(self, node: YNode, scope: dict[str, str]) -> tuple[int, Optional[Expr]]:
        """A piece kind given by name (its index, no expression) or by any condition of
        type kind, e.g. a kind parameter or an attribute's value (-1 and the expression):
        one action can then place whichever kind its parameter names."""
        text = self.scalar(node, str, "a piece kind")
        if text in self.kinds:
            return self.kinds.index(text), None
        if re.fullmatch(r"\s*[A-Za-z_][A-Za-z0-9_]*\s*", text) and not any(text.strip() in names for names in (scope, self.names.game_counters, self.names.defines, self.names.constants)):
            raise SpecError(f"unknown piece kind '{text}'", node.pos, did_you_mean(text, self.kinds))
        expr = self.condition(node, scope, KIND)
        if isinstance(expr, Const):
            return expr.value, None
        return -1, expr

    def eff_place(self, body: YMap, scope: dict[str, str]) -> Effect:
        pooled = pool_effect(self, body, scope, "place")  # from a pool (spec/pools.py)
        if pooled is not None:
            return pooled
        owner = self.condition(body["owner"], scope, PLAYER) if "owner" in body else Call("mover", (), PLAYER)
        # stacks and pushes: a stack of 'height' pieces; 'push' shifts an occupied cell's run
        height = self.condition(body["height"], scope, INT) if "height" in body else None
        push = None
        if "push" in body:
            if not self.names.has_directions:
                raise SpecError("place.push needs a board with directions (a square or hex grid)", body["push"].pos)
            push = self.condition(body["push"], scope, DIR)
        kind, kind_expr = self.kind_value(body["piece"], scope)
        return Place(kind, self.condition(body["at"], scope, CELL), owner, height, push, kind_expr)

    def eff_assess(self, body: YMap, scope: dict[str, str]) -> Effect:
        member = self.predicate(body["cells"], "assess_regions.cells")
        open_if = self.predicate(body["open_if_touching"], "assess_regions.open_if_touching") if "open_if_touching" in body else None
        priority = self.predicate(body["priority"], "assess_regions.priority") if "priority" in body else None
        seeds = None
        if "near" in body:
            n = body["near"]
            seeds = check_domain(self.scalar(n, str, "assess_regions.near"), n.text_pos, self.names, scope)
            if seeds.elem_type != CELL:
                raise SpecError("assess_regions.near must be a collection of cells", n.pos)
        tie = "split"
        if "tie" in body:
            tie = self.scalar(body["tie"], str, "assess_regions.tie")
            if tie not in ("split", "none"):
                raise SpecError("assess_regions.tie is 'split' (tied players share the cells) or 'none'", body["tie"].pos)
        first = self.condition(body["first"], scope, PLAYER) if "first" in body else Call("mover", (), PLAYER)
        return AssessRegions(member, open_if, seeds, self.kind(body["award"]), tie, priority, first, REGION_VAR)

    def eff_counter(self, body: YMap, scope: dict[str, str], add: bool) -> Effect:
        element = self.element_effect(body, scope, add)  # an array element: name[...]
        if element is not None:
            return element
        cnode = body["counter"]
        cname = self.scalar(cnode, str, "a counter name")
        if cname in self.names.arrays:
            raise SpecError(f"'{cname}' is a counter array: write one element, counter: \"{cname}[...]\"", cnode.pos)
        if cname not in self.names.counters and cname not in self.names.game_counters:
            raise SpecError(f"unknown counter '{cname}'", cnode.pos, did_you_mean(cname, [*self.names.counters, *self.names.game_counters]))
        if cname == "phase" and self.has_phases:
            raise SpecError("the phase changes only as 'phases' says (its until, after and next); no effect sets it", cnode.pos)
        value = self.condition(body["to"], scope, self.counter_effect_type(cname, body, add))
        if cname in self.names.game_counters:
            if "of" in body:
                raise SpecError(f"'{cname}' is a game counter: it belongs to no player, so it takes no 'of'", body.key_pos["of"])
            return SetCounter(self.names.game_counters[cname], Const(self.names.game_row, PLAYER), value, add)
        if cname not in self.names.counters:
            raise SpecError(f"unknown counter '{cname}'", cnode.pos, did_you_mean(cname, [*self.names.counters, *self.names.game_counters]))
        owner = self.condition(body["of"], scope, PLAYER) if "of" in body else Call("mover", (), PLAYER)
        return SetCounter(self.names.counters[cname], owner, value, add)

    def eff_next_turn(self, body: YMap, scope: dict[str, str]) -> Effect:
        return NextTurn(self.condition(body["to"], scope, PLAYER))

    def eff_move(self, body: YMap, scope: dict[str, str]) -> Effect:
        pooled = pool_effect(self, body, scope, "move")  # into, out of or between pools (spec/pools.py)
        if pooled is not None:
            return pooled
        capture = "remove"
        if "capture" in body:
            capture = self.scalar(body["capture"], str, "move.capture")
            if capture not in ("remove", "hand", "captor"):
                raise SpecError("move.capture is 'remove' (a captured piece leaves the game), 'hand' (it goes back to its owner's hand) or 'captor' (it changes side, into the mover's hand)", body["capture"].pos)
        return MovePiece(self.condition(body["from"], scope, CELL), self.condition(body["to"], scope, CELL), capture)

    def eff_flip(self, body: YMap, scope: dict[str, str]) -> Effect:
        if not self.names.has_directions:
            raise SpecError("flip_flanked needs a board with directions (a square grid)", body.pos)
        return FlipFlanked(self.condition(body["at"], scope, CELL))

    def eff_remove(self, body: YMap, scope: dict[str, str]) -> Effect:
        inner = dict(scope)
        each, var, member = None, "", None
        if "each" in body:
            enode = body["each"]
            text = self.scalar(enode, str, "remove.each")
            m = re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s+in\s+(.+)\Z", text, re.S)
            if not m:
                raise SpecError("remove.each is 'VARIABLE in COLLECTION', e.g. \"d in directions\"", enode.pos)
            var = self.ident(m.group(1), enode.pos, "remove.each's variable")
            if var in scope or var in self.names.constants:
                raise SpecError(f"'{var}' is already a name here; pick another variable for remove.each", enode.pos)
            offset = m.start(2)
            each, member = check_each(m.group(2), lambda off: enode.text_pos(offset + off), self.names, scope, var)
            inner[var] = each.elem_type
        where = self.condition(body["where"], inner) if "where" in body else None
        where = _and(member, where)
        to = "hand"
        if "to" in body:
            to = self.scalar(body["to"], str, "remove.to")
            if to not in ("hand", "out", "captor"):
                raise SpecError("remove.to is 'hand' (back to the owner's hand, the default), 'out' (out of the game) or 'captor' (it changes side, into the mover's hand)", body["to"].pos)
        return Remove(self.condition(body["at"], inner, CELL), where, each, var, to)

    def eff_convert(self, body: YMap, scope: dict[str, str]) -> Effect:
        """``convert: {at, piece, owner}``: the piece on a cell changes kind (a promotion)
        and/or owner (it changes side) where it stands; at least one of the two."""
        if "piece" not in body and "owner" not in body:
            raise SpecError("convert changes the piece on a cell: give its new kind ('piece'), its new owner ('owner') or both, e.g. convert: {at: t, piece: queen}", body.pos)
        kind, kind_expr = self.kind_value(body["piece"], scope) if "piece" in body else (-2, None)
        owner = self.condition(body["owner"], scope, PLAYER) if "owner" in body else None
        return Convert(self.condition(body["at"], scope, CELL), kind, owner, kind_expr)

    def eff_discard(self, body: YMap, scope: dict[str, str]) -> Effect:
        if self.deck_ir is None:
            raise SpecError("discard needs the players' decks: add a 'deck' section", body.pos)
        owner = self.condition(body["of"], scope, PLAYER) if "of" in body else Call("mover", (), PLAYER)
        return Discard(self.condition(body["item"], scope, ITEM), owner)

    def eff_draw(self, body: YMap, scope: dict[str, str]) -> Effect:
        if self.deck_ir is None:
            raise SpecError("draw needs the players' decks: add a 'deck' section", body.pos)
        owner = self.condition(body["of"], scope, PLAYER) if "of" in body else Call("mover", (), PLAYER)
        count = self.condition(body["count"], scope, INT) if "count" in body else Const(1, INT)
        return Draw(owner, count)

    def eff_extra_turn(self, body: YMap, scope: dict[str, str]) -> Effect:
        return ExtraTurn()  # (conditional: in a trigger with 'when')

    def lower_triggers(self, node: Optional[YNode], actions: tuple[Action, ...]) -> tuple[Trigger, ...]:
        if node is None:
            return ()
        if not isinstance(node, YMap):
            raise SpecError("'triggers' maps trigger names to {after, when, effects}", node.pos)
        names = [a.name for a in actions]
        out = []
        for tname, body in node.items.items():
            body = self.keys(body, "trigger", f"trigger '{tname}'")
            after: list[int] = []
            scope: dict[str, str] = {}
            if "after" in body:
                anode = body["after"]
                items = anode.items if isinstance(anode, YList) else [anode]
                for item in items:
                    a = self.scalar(item, str, "an action name")
                    if a not in names:
                        raise SpecError(f"unknown action '{a}'", item.pos, did_you_mean(a, names))
                    after.append(names.index(a))
                    if a in self.promotions:  # (a promotion is part of its move: spec/promotion.py)
                        after.append(names.index(self.promotions[a]))
                after = list(dict.fromkeys(after))
                # parameters common to all triggering actions are visible
                common = None
                for i in after:
                    ps = {p.name: p.type for p in actions[i].params}
                    common = ps if common is None else {k: v for k, v in common.items() if ps.get(k) == v}
                scope = common or {}
            when = self.condition(body["when"], scope) if "when" in body else None
            effects = self.lower_effects(body["effects"], scope, f"trigger '{tname}'")
            out.append(Trigger(tname, tuple(after), when, effects))
        return tuple(out)


EFFECTS: dict[str, Callable] = {
    "place": LowerEffects.eff_place,
    "assess_regions": LowerEffects.eff_assess,
    "set": lambda self, body, scope: LowerEffects.eff_counter(self, body, scope, False),
    "add": lambda self, body, scope: LowerEffects.eff_counter(self, body, scope, True),
    "move": LowerEffects.eff_move,
    "flip_flanked": LowerEffects.eff_flip,
    "remove": LowerEffects.eff_remove,
    "convert": LowerEffects.eff_convert,
    "extra_turn": LowerEffects.eff_extra_turn,
    "next_turn": LowerEffects.eff_next_turn,
    "discard": LowerEffects.eff_discard,
    "draw": LowerEffects.eff_draw,
    "if": lambda self, body, scope: _eff_if(self, body, scope),
    "for_each": lambda self, body, scope: _eff_for_each(self, body, scope),
    **ZONE_EFFECTS,
    "repeat": lambda self, body, scope: eff_repeat(self, body, scope),
    "sow": lambda self, body, scope: eff_sow(self, body, scope),
}


# --- blocks: effects that run other effects ------------------------------------------


def _eff_if(self: LowerEffects, body: YMap, scope: dict[str, str]) -> Effect:
    when = self.condition(body["when"], scope, BOOL)
    then = self.lower_effects(body["then"], scope, "if.then") if "then" in body else ()
    other = self.lower_effects(body["else"], scope, "if.else") if "else" in body else ()
    return IfEffect(when, then, other)


def _and(member, where):
    """An effect's ``where`` over a direction set: the membership test first."""
    if member is None:
        return where
    return member if where is None else Binary("and", member, where, BOOL)


def _eff_for_each(self: LowerEffects, body: YMap, scope: dict[str, str]) -> Effect:
    enode = body["each"]
    text = self.scalar(enode, str, "for_each.each")
    m = re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s+in\s+(.+)\Z", text, re.S)
    if not m:
        raise SpecError("for_each.each is 'VARIABLE in COLLECTION', e.g. \"q in players\"", enode.pos)
    var = self.ident(m.group(1), enode.pos, "for_each.each's variable")
    if var in scope or var in self.names.constants:
        raise SpecError(f"'{var}' is already a name here; pick another variable for for_each.each", enode.pos)
    offset = m.start(2)
    each, member = check_each(m.group(2), lambda off: enode.text_pos(offset + off), self.names, scope, var)
    inner = dict(scope)
    inner[var] = each.elem_type
    where = _and(member, self.condition(body["where"], inner, BOOL) if "where" in body else None)
    return ForEach(each, var, where, self.lower_effects(body["effects"], inner, "for_each"))
