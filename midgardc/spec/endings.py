"""Lowering of two common endings of a game's rules into what the language already has:

* ``end.draw``: draw rules, ``{reason: condition}``. The game ends as soon as one holds,
  and then every player scores 0 on every ranking key (a draw). A game counter ``drawn``
  keeps which rule ended it (1 for the first written, ...; 0 for none), set as the game
  ends, while the last position's mover is still known (so a repetition, which only the
  position history tells, can be a draw rule); each ranking key reads
  ``if drawn > 0 then 0 else KEY``, and each rule's reason is named first.
* clock counters, ``counters: {quiet: {counts: [place, move], reset: "line(t, 3)"}}``:
  a number that goes up by one after every move of the actions ``counts`` lists (every
  action when it is left out) and back to 0 after one where ``reset`` holds (a
  fifty-move rule's count of quiet moves). Each is a trigger, run before the spec's own.

Nothing here is new to the engines: both back ends play the counter, the end condition,
the end effect and the triggers they already play, so they agree by construction.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ..errors import SpecError
from ..ir.nodes import BOOL, INT, PLAYER, Action, Call, Const, End, Expr, RankKey, SetCounter, Trigger
from .yamlpos import YList, YMap, YNode, YScalar

if TYPE_CHECKING:  # pragma: no cover
    from .context import Lowering

DRAWN = "drawn"  # the game counter end.draw keeps its rule's number in
CLOCK_KEYS = ("counts", "reset")  # the keys that make a counter a clock


def declare_draw(low: "Lowering") -> None:
    """Before the counters: a spec whose ``end`` has ``draw`` gets the game counter
    ``drawn`` (written into its counters, so every part of the spec may read it)."""
    top = low.tree
    end = top.items.get("end")
    if not isinstance(end, YMap) or "draw" not in end.items:
        return
    node = end.items["draw"]
    if not isinstance(node, YMap) or not node.items:
        raise SpecError("end.draw maps each draw rule's reason (\"threefold repetition\") to the condition that ends the game in a draw", node.pos)
    counters = top.items.get("counters")
    if isinstance(counters, YMap) and DRAWN in counters.items:
        raise SpecError(f"the counter '{DRAWN}' is the draw rule that ended a spec with end.draw; rename this counter", counters.key_pos[DRAWN])
    if counters is not None and not isinstance(counters, YMap):
        return  # (lower_counters reports the malformed section)
    pos = end.key_pos["draw"]
    body = YMap({"of": YScalar("game", pos)}, pos, {"of": pos})
    items = {**(counters.items if counters is not None else {}), DRAWN: body}
    key_pos = {**(counters.key_pos if counters is not None else {}), DRAWN: pos}
    new = YMap(items, counters.pos if counters is not None else pos, key_pos, dict(counters.key_nodes) if counters is not None else {})
    low.tree = YMap({**top.items, "counters": new}, top.pos, {**top.key_pos, "counters": top.key_pos.get("counters", pos)}, top.key_nodes)
    low.draw_rules = len(node.items)


def lower_draw(low: "Lowering", body: YMap, end: End) -> End:
    """``end`` with the draw rules: their conditions among the endings, the effect that
    notes which one held first (before the spec's end effects) and their reasons first.
    Called while ``end`` conditions are being lowered (so they may ask ``times_seen()``)."""
    if "draw" not in body:
        return end
    node = body["draw"]
    rules = [(name, low.condition(cond, {}, BOOL)) for name, cond in node.items.items()]
    which: Expr = Const(0, INT)
    for k in range(len(rules), 0, -1):  # the first rule that holds
        which = Call("either", (rules[k - 1][1], Const(k, INT), which), INT)
    note = SetCounter(low.names.game_counters[DRAWN], Const(low.names.game_row, PLAYER), which, False)
    pos = body.key_pos["draw"]
    reasons = tuple((name, low.condition(YScalar(f"{DRAWN} == {k}", pos), {}, BOOL)) for k, (name, _) in enumerate(rules, 1))
    return End(end.conditions + tuple(c for _, c in rules), end.no_moves, (note, *end.effects), reasons + end.reasons)


def drawn_ranking(low: "Lowering", keys: tuple[RankKey, ...]) -> tuple[RankKey, ...]:
    """Every ranking key 0 in a game a draw rule ended: all players equal, a draw."""
    if not getattr(low, "draw_rules", 0):
        return keys
    pos = low.tree.items["end"].key_pos["draw"]
    drawn = low.condition(YScalar(f"{DRAWN} > 0", pos), {}, BOOL)
    return tuple(RankKey(k.name, Call("either", (drawn, Const(0, INT), k.expr), INT), k.lower_is_better, k.final) for k in keys)


def clock_triggers(low: "Lowering", node: Optional[YNode], actions: tuple[Action, ...]) -> tuple[Trigger, ...]:
    """The triggers of the clock counters (``counts``/``reset``), in the counters' order:
    after a counted move, ``reset`` holding sets the counter to 0, else it goes up by 1.
    ``reset`` sees the parameters every counted action has (as a trigger's ``when``)."""
    if not isinstance(node, YMap):
        return ()
    out: list[Trigger] = []
    for cname, body in node.items.items():
        if not isinstance(body, YMap) or not any(k in body.items for k in CLOCK_KEYS):
            continue
        pos = node.key_pos[cname]
        for k in ("type", "index"):
            if k in body.items:
                raise SpecError(f"counter '{cname}' is a clock (counts, reset): a number, not a '{k}'", body.key_pos[k])
        if "reset" not in body.items:
            raise SpecError(f"clock counter '{cname}' needs a 'reset': the condition after a move that sets it back to 0", body.pos)

        def text(value: str) -> YScalar:
            return YScalar(value, pos)

        of = {"of": text("mover")} if cname in low.names.counters else {}  # a player's clock counts its own moves
        zero = YMap({"set": YMap({"counter": text(cname), "to": text("0"), **of}, pos, {k: pos for k in ("counter", "to", *of)})}, pos, {"set": pos})
        tick = YMap({"add": YMap({"counter": text(cname), "to": text("1"), **of}, pos, {k: pos for k in ("counter", "to", *of)})}, pos, {"add": pos})
        choose = YMap({"when": body["reset"], "then": YList([zero], pos), "else": YList([tick], pos)}, pos, {"when": body.key_pos["reset"], "then": pos, "else": pos})
        trigger = {"effects": YList([YMap({"if": choose}, pos, {"if": pos})], pos)}
        if "counts" in body.items:
            trigger["after"] = body["counts"]
        tnode = YMap(trigger, pos, {k: body.key_pos.get("counts", pos) for k in trigger})
        out.extend(low.lower_triggers(YMap({f"clock: {cname}": tnode}, pos, {f"clock: {cname}": pos}), actions))
    return tuple(out)
