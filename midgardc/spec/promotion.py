"""Lowering of a piece kind's ``promotes: {to: KIND, where: COND}`` ("a piece that reaches
the far row becomes another kind"): after every move with a destination ``t`` (the ``moves:``,
``steps:`` and ``hops:`` shapes, or an action's own cell parameter ``t``), a piece of the
kind standing on ``t`` where COND holds becomes a ``to``. It lowers to a trigger run after
the move's own effects (after a compound move's last step) and before the spec's own
triggers: ``convert`` where it stands, or, when the new kind is held in hands, a ``place``
from the mover's hand over it (the new piece is taken from beside the board; an empty
hand promotes nothing).

With a list, ``promotes: {to: [KIND, ...], where: COND}`` ("he/she must exchange that pawn
as part of the same move for a new queen, rook, bishop or knight"), the mover chooses the
new kind as part of the move: see ``promotion_choices``."""

from __future__ import annotations

import dataclasses

from ..errors import SpecError, did_you_mean
from ..ir.nodes import BOOL, CELL, KIND, Action, Binary, Param, Trigger, Unary
from .actions import _first
from .schema import MAX_MOVES
from .yamlpos import YList, YMap, YNode, YScalar


def promotion_triggers(low, pieces: YNode, actions: tuple[Action, ...], hands: tuple[tuple[int, ...], ...]) -> tuple[Trigger, ...]:
    """One trigger per kind with ``promotes``; ``low`` is the ``Lowerer``."""
    if not isinstance(pieces, YMap):
        return ()
    out = []
    for kind, body in pieces.items.items():
        if not isinstance(body, YMap) or "promotes" not in body or _is_choice(body["promotes"]):
            continue
        node = low.keys(body["promotes"], "promotes", f"'promotes' of piece '{kind}'")
        pos = body["promotes"].pos
        new = low.scalar(node["to"], str, "the kind a piece promotes to")
        if new not in low.kinds or new == kind:
            raise SpecError(f"piece '{kind}' promotes to '{new}', which is not another kind of piece", node["to"].pos, did_you_mean(new, [k for k in low.kinds if k != kind]))
        after = tuple(i for i, a in enumerate(actions) if any(p.name == "t" and p.type == CELL for p in a.params))
        if not after:
            raise SpecError(f"piece '{kind}' promotes where a move ends, but no action has a destination cell 't' (the moves:, steps: and hops: shapes give one)", pos)
        scope: dict = {}
        for i in after:  # the parameters every such action shares are visible (as in a trigger)
            ps = {p.name: p.type for p in actions[i].params}
            scope = ps if not scope else {k: v for k, v in scope.items() if ps.get(k) == v}
        when = low.condition(YScalar(f"kind_at(t) == {kind}", pos), scope)
        cond = low.condition(node["where"], scope)
        from_hand = any(h[low.kinds.index(new)] > 0 for h in hands)
        eff = YMap({"place" if from_hand else "convert": YMap({"piece": YScalar(new, pos), "at": YScalar("t", pos)}, pos, {"piece": pos, "at": pos})}, pos, {("place" if from_hand else "convert"): pos})
        effects = low.lower_effects(YList([eff], pos), scope, f"the promotion of piece '{kind}'")
        out.append(Trigger(f"promotes: {kind}", after, Binary("and", when, cond, BOOL), effects))
    return tuple(out)


#: The name of the action a moving action's promotion choices make: ``move`` -> ``move_promote``.
CHOICE_SUFFIX = "_promote"
#: The parameter that holds the chosen kind in it.
CHOICE_PARAM = "k"


def _is_choice(node: YNode) -> bool:
    return isinstance(node, YMap) and isinstance(node.get("to"), YList)


def promotion_choices(low, pieces: YNode, actions: tuple[Action, ...]) -> tuple[Action, ...]:
    """``actions`` with a kind's ``promotes: {to: [KIND, ...], where: COND}`` said as two
    actions both back ends already run: every moving action (cell parameters ``f`` and
    ``t``) keeps the moves where the piece on ``f`` is not of that kind or COND does not
    hold, and is followed by ``<action>_promote``: a parameter ``k`` (a kind of the list, in
    the pieces' order) before the action's own, the same ``where`` for the moves where it
    does, the same effects then ``convert: {at: t, piece: BECOMES}`` (``becomes``, read
    with ``k``; default ``k``), the same ``legal_after``, and the same notation with the
    kind's letter after it (``e7e8q``). So the new kind is chosen as part of the move, the
    moves keep their order (the promotions after the other moves), and a trigger after the
    moving action also runs after its promotions (spec/effects.py). ``low`` is the
    ``Lowerer``; COND is read before the move, with the action's parameters."""
    if not isinstance(pieces, YMap):
        return actions
    chosen = [(kind, body["promotes"]) for kind, body in pieces.items.items() if isinstance(body, YMap) and "promotes" in body and _is_choice(body["promotes"])]
    for kind, body in pieces.items.items():
        if isinstance(body, YMap) and "promotes" in body and isinstance(body["promotes"], YMap) and "becomes" in body["promotes"] and not _is_choice(body["promotes"]):
            raise SpecError(f"'becomes' of piece '{kind}' says what a chosen kind becomes: give 'to' a list of kinds to choose from", body["promotes"].key_pos["becomes"])
    if not chosen:
        return actions
    if len(chosen) > 1:
        raise SpecError(f"pieces '{chosen[0][0]}' and '{chosen[1][0]}' both promote to a kind the mover chooses; only one kind may (a move has one choice)", chosen[1][1].pos)
    kind, node = chosen[0]
    node = low.keys(node, "promotes", f"'promotes' of piece '{kind}'")
    pos = node.pos
    choices = []
    for item in node["to"].items:
        new = low.scalar(item, str, "a kind a piece promotes to")
        if new not in low.kinds or new == kind:
            raise SpecError(f"piece '{kind}' promotes to '{new}', which is not another kind of piece", item.pos, did_you_mean(new, [k for k in low.kinds if k != kind]))
        if new in choices:
            raise SpecError(f"piece '{kind}' lists '{new}' twice among the kinds it promotes to", item.pos)
        choices.append(new)
    if not choices:
        raise SpecError(f"piece '{kind}' promotes to an empty list: name the kinds the mover chooses from", node["to"].pos)
    out: list[Action] = []
    made = {}
    for a in actions:
        ps = {p.name: p.type for p in a.params}
        if ps.get("f") != CELL or ps.get("t") != CELL:
            out.append(a)
            continue
        if a.chain is not None or a.then is not None:
            raise SpecError(f"piece '{kind}' promotes by choice, but action '{a.name}' is a compound move (continue:, then:): a choice is made in a one-step move", pos)
        if CHOICE_PARAM in ps:
            raise SpecError(f"piece '{kind}' promotes by choice into a parameter '{CHOICE_PARAM}', but action '{a.name}' has one already", pos, "rename the action's parameter")
        name = a.name + CHOICE_SUFFIX
        if any(b.name == name for b in actions):
            raise SpecError(f"piece '{kind}' promotes by choice in an action '{name}', but there is one already", pos, "rename that action")
        promotes = Binary("and", low.condition(YScalar(f"kind_at(f) == {kind}", pos), ps), low.condition(node["where"], ps), BOOL)
        scope = {CHOICE_PARAM: KIND, **ps}
        pick = low.condition(YScalar(" or ".join(f"{CHOICE_PARAM} == {c}" for c in choices), node["to"].pos), scope)
        becomes = node["becomes"] if "becomes" in node else YScalar(CHOICE_PARAM, pos)
        convert = YMap({"convert": YMap({"at": YScalar("t", pos), "piece": becomes}, pos, {"at": pos, "piece": becomes.pos})}, pos, {"convert": pos})
        extra = low.lower_effects(YList([convert], pos), scope, f"the promotion of piece '{kind}'")
        out.append(dataclasses.replace(a, where=Binary("and", a.where, Unary("not", promotes, BOOL), BOOL)))
        shifted = tuple(p if isinstance(p, str) else p + 1 for p in a.notation) + (0,)
        out.append(dataclasses.replace(a, name=name, params=(Param(CHOICE_PARAM, KIND),) + a.params, where=_first(Binary("and", pick, promotes, BOOL), a.where),
                                       effects=tuple(a.effects) + tuple(extra), notation=shifted, size=a.size * len(low.kinds)))
        made[a.name] = name
        low.action_pos[name] = pos
    if not made:
        raise SpecError(f"piece '{kind}' promotes as part of a move, but no action has the cells 'f' and 't' of a move (the moves:, steps: and hops: shapes give them)", pos)
    low.promotions = made  # a trigger after a moving action runs after its promotions too
    base = 0
    for i, a in enumerate(out):
        out[i] = dataclasses.replace(a, base=base)
        base += a.size
    if base > MAX_MOVES:
        raise SpecError(f"too many possible moves with the promotion choices: {base:,}; the limit is {MAX_MOVES:,}", pos)
    return tuple(out)

