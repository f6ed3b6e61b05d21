"""Lowering of a piece kind's ``promotes: {to: KIND, where: COND}`` ("a piece that reaches
the far row becomes another kind"): after every move with a destination ``t`` (the ``moves:``,
``steps:`` and ``hops:`` shapes, or an action's own cell parameter ``t``), a piece of the
kind standing on ``t`` where COND holds becomes a ``to``. It lowers to a trigger run after
the move's own effects (after a compound move's last step) and before the spec's own
triggers: ``convert`` where it stands, or, when the new kind is held in hands, a ``place``
from the mover's hand over it (the new piece is taken from beside the board; an empty
hand promotes nothing)."""

from __future__ import annotations

from ..errors import SpecError, did_you_mean
from ..ir.nodes import BOOL, CELL, Action, Binary, Trigger
from .yamlpos import YList, YMap, YNode, YScalar


def promotion_triggers(low, pieces: YNode, actions: tuple[Action, ...], hands: tuple[tuple[int, ...], ...]) -> tuple[Trigger, ...]:
    """One trigger per kind with ``promotes``; ``low`` is the ``Lowerer``."""
    if not isinstance(pieces, YMap):
        return ()
    out = []
    for kind, body in pieces.items.items():
        if not isinstance(body, YMap) or "promotes" not in body:
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
