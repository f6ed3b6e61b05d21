"""Lowering of three common endings of a game's rules into what the language already has:

* ``end.draw``: draw rules, ``{reason: condition}``. The game ends as soon as one holds,
  and then every player scores 0 on every ranking key (a draw). A game counter ``drawn``
  keeps which rule ended it (1 for the first written, ...; 0 for none), set as the game
  ends, while the last position's mover is still known (so a repetition, which only the
  position history tells, can be a draw rule); each ranking key reads
  ``if drawn > 0 then 0 else KEY``, and each rule's reason is named first.
* ``end.no_moves`` as rules, ``{checkmate: {when: "in_check(mover)", result: loss},
  stalemate: draw}``: what it means for the player to move to have no legal move. The
  first rule whose ``when`` holds (the last has none) decides: ``loss``, that player
  loses (everyone else shares first place, whatever else held on that move), or
  ``draw``. Two game counters keep it, set as the game ends while the mover is known:
  ``no_move_rule`` (the rule's number, 0 when the mover could move) and
  ``no_move_player`` (that player); each ranking key reads them first, and each rule's
  reason is named first.
* clock counters, ``counters: {quiet: {counts: [place, move], reset: "line(t, 3)"}}``:
  a number that goes up by one after every move of the actions ``counts`` lists (every
  action when it is left out) and back to 0 after one where ``reset`` holds (a
  fifty-move rule's count of quiet moves). Each is a trigger, run before the spec's own.
  ``reset_before`` says the reset about the move as it is made (a pawn moves, a piece is
  captured): a condition, or one per action (``{move: "...", jump: true}``), read before
  the move; it is a ``set`` first among each counted action's own effects.

Nothing here is new to the engines: both back ends play the counter, the end condition,
the end effect and the triggers they already play, so they agree by construction.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Optional

from ..errors import SpecError, did_you_mean
from ..ir.nodes import BOOL, INT, PLAYER, Action, Call, Const, End, Expr, RankKey, SetCounter, Trigger
from .yamlpos import YList, YMap, YNode, YScalar

if TYPE_CHECKING:  # pragma: no cover
    from .context import Lowering

DRAWN = "drawn"  # the game counter end.draw keeps its rule's number in
STUCK, STUCK_MOVER = "no_move_rule", "no_move_player"  # the game counters end.no_moves rules keep
STUCK_COUNTERS = (STUCK, STUCK_MOVER)  # (not drawn for people: the end's reason says them)
RESULTS = ("loss", "draw")  # what a no_moves rule makes of the stuck mover's game
CLOCK_KEYS = ("counts", "reset", "reset_before")  # the keys that make a counter a clock


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
    if add_game_counters(low, {DRAWN: "number"}, end.key_pos["draw"], "the draw rule that ended a spec with end.draw"):
        low.draw_rules = len(node.items)


def add_game_counters(low: "Lowering", names: dict[str, str], pos, what: str) -> bool:
    """Game counters ``names`` (name: its type) written into the spec's counters, so
    every part of the spec may read them; False when the section is malformed (then
    lower_counters reports it)."""
    top = low.tree
    counters = top.items.get("counters")
    for name in names:
        if isinstance(counters, YMap) and name in counters.items:
            raise SpecError(f"the counter '{name}' is {what}; rename this counter", counters.key_pos[name])
    if counters is not None and not isinstance(counters, YMap):
        return False
    items = dict(counters.items) if counters is not None else {}
    key_pos = dict(counters.key_pos) if counters is not None else {}
    for name, typ in names.items():
        body = {"of": YScalar("game", pos), **({"type": YScalar(typ, pos)} if typ != "number" else {})}
        items[name], key_pos[name] = YMap(body, pos, {k: pos for k in body}), pos
    new = YMap(items, counters.pos if counters is not None else pos, key_pos, dict(counters.key_nodes) if counters is not None else {})
    low.tree = YMap({**top.items, "counters": new}, top.pos, {**top.key_pos, "counters": top.key_pos.get("counters", pos)}, top.key_nodes)
    return True


def declare_no_moves(low: "Lowering") -> None:
    """Before the counters: a spec whose ``end.no_moves`` is a mapping of rules gets the
    game counters ``no_move_rule`` and ``no_move_player``; the rules are checked and kept as
    ``low.stuck_rules``: (reason, its ``when`` or None, ``loss`` or ``draw``)."""
    end = low.tree.items.get("end")
    if not isinstance(end, YMap) or not isinstance(end.items.get("no_moves"), YMap):
        return
    node = end.items["no_moves"]
    shape = "end.no_moves maps each reason (\"checkmate\") to what having no legal move means: loss, draw or {when: condition, result: loss|draw}"
    if not node.items:
        raise SpecError(shape, node.pos)
    rules = []
    for name, body in node.items.items():
        when, result = None, body
        if isinstance(body, YMap):
            for k in body.items:
                if k not in ("when", "result"):
                    raise SpecError(f"unknown key '{k}' in end.no_moves '{name}' (when, result)", body.key_pos[k])
            if "result" not in body.items:
                raise SpecError(f"end.no_moves '{name}' needs a 'result': loss or draw", body.pos)
            when, result = body.items.get("when"), body.items["result"]
        if not isinstance(result, YScalar) or result.value not in RESULTS:
            raise SpecError(shape, result.pos)
        rules.append((name, when, result.value))
    if rules[-1][1] is not None:
        raise SpecError(f"the last rule of end.no_moves ('{rules[-1][0]}') has no 'when': it says what having no move means otherwise", node.items[rules[-1][0]].pos)
    if any(when is None for _, when, _ in rules[:-1]):
        raise SpecError("only the last rule of end.no_moves may leave out 'when' (the rules after it could never hold)", node.pos)
    if add_game_counters(low, {STUCK: "number", STUCK_MOVER: "player"}, end.key_pos["no_moves"], "kept by end.no_moves's rules"):
        low.stuck_rules = tuple(rules)


def names_loser(top: YMap) -> bool:
    """Whether ``end.no_moves`` has a rule by which the stuck mover loses: then the spec
    may leave ``ranking`` out (one key, ``won``, that only those rules decide)."""
    end = top.items.get("end")
    rules = end.items.get("no_moves") if isinstance(end, YMap) else None
    if not isinstance(rules, YMap):
        return False
    results = (r.items.get("result") if isinstance(r, YMap) else r for r in rules.items.values())
    return any(isinstance(r, YScalar) and r.value == "loss" for r in results)


def lower_no_moves(low: "Lowering", pos, end: End) -> End:
    """``end`` with the no_moves rules: the effects that note which one holds and who is
    stuck (first of all, while the mover is known) and their reasons first. Called while
    ``end`` effects are being lowered (so they may ask ``can_move()``)."""
    rules = low.stuck_rules
    which: Expr = Const(len(rules), INT)
    for k in range(len(rules) - 1, 0, -1):  # the first rule whose `when` holds
        which = Call("either", (low.condition(rules[k - 1][1], {}, BOOL), Const(k, INT), which), INT)
    moves = low.condition(YScalar("can_move()", pos), {}, BOOL)
    row = Const(low.names.game_row, PLAYER)
    notes = (SetCounter(low.names.game_counters[STUCK], row, Call("either", (moves, Const(0, INT), which), INT), False),
             SetCounter(low.names.game_counters[STUCK_MOVER], row, low.condition(YScalar("if can_move() then nobody else mover", pos), {}, PLAYER), False))
    low.names.in_end = False  # (the reasons read the final position)
    reasons = tuple((name, low.condition(YScalar(f"{STUCK} == {k}", pos), {}, BOOL)) for k, (name, _, _) in enumerate(rules, 1))
    low.names.in_end = True
    return End(end.conditions, "end", (*notes, *end.effects), reasons + end.reasons)


def stuck_ranking(low: "Lowering", keys: tuple[RankKey, ...]) -> tuple[RankKey, ...]:
    """Each ranking key as the no_moves rules make it: a loss rule that ended the game
    scores the stuck mover below everyone else, a draw rule scores everyone 0; otherwise
    the key as written (``won: 0`` when the spec leaves ``ranking`` out)."""
    rules = low.stuck_rules
    if not rules:
        return keys
    pos = low.tree.items["end"].key_pos["no_moves"]

    def holds(result: str) -> str:
        return " or ".join(f"{STUCK} == {k}" for k, (_, _, r) in enumerate(rules, 1) if r == result) or "false"

    lost, drawn = (low.condition(YScalar(holds(r), pos), {}, BOOL) for r in RESULTS)
    out = []
    for key in keys:
        side = low.condition(YScalar(f"p {'==' if key.lower_is_better else '!='} {STUCK_MOVER}", pos), {"p": PLAYER}, INT)
        expr = Call("either", (lost, side, Call("either", (drawn, Const(0, INT), key.expr), INT)), INT)
        out.append(RankKey(key.name, expr, key.lower_is_better, key.final))
    return tuple(out)


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
        if not isinstance(body, YMap) or not any(k in body.items for k in CLOCK_KEYS) or "reset_before" in body.items:
            continue
        pos = node.key_pos[cname]
        for k in ("type", "index"):
            if k in body.items:
                raise SpecError(f"counter '{cname}' is a clock (counts, reset): a number, not a '{k}'", body.key_pos[k])
        if "reset" not in body.items:
            raise SpecError(f"clock counter '{cname}' needs a 'reset' (after the move) or a 'reset_before' (as it is made): the condition that sets it back to 0", body.pos)

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


def clock_before(low: "Lowering", node: Optional[YNode], actions: tuple[Action, ...]) -> tuple[Action, ...]:
    """``actions`` with the clocks said by ``reset_before``: each counted action's effects
    start with ``set: {counter: NAME, to: "if RESET then 0 else NAME + 1"}`` (as a fifty-move
    rule written by hand), so the reset reads the position before the move, with that
    action's own parameters. ``reset_before`` is one condition for every counted action,
    or a mapping from action to its condition (a counted action it leaves out never
    resets the clock: ``jump: true`` says any jump does)."""
    if not isinstance(node, YMap):
        return actions
    names = [a.name for a in actions]
    effects = {a.name: [] for a in actions}
    for cname, body in node.items.items():
        if not isinstance(body, YMap) or "reset_before" not in body.items:
            continue
        pos = node.key_pos[cname]
        if "reset" in body.items:
            raise SpecError(f"counter '{cname}' has a 'reset' and a 'reset_before': one of the two says when it goes back to 0", body.key_pos["reset"])
        for k in ("type", "index"):
            if k in body.items:
                raise SpecError(f"counter '{cname}' is a clock (counts, reset_before): a number, not a '{k}'", body.key_pos[k])
        counted = names
        if "counts" in body.items:
            cnode = body["counts"]
            counted = []
            for item in (cnode.items if isinstance(cnode, YList) else [cnode]):
                a = low.scalar(item, str, "an action name")
                if a not in names:
                    raise SpecError(f"unknown action '{a}'", item.pos, did_you_mean(a, names))
                counted.append(a)
        rnode = body["reset_before"]
        resets = {a: rnode for a in counted}
        if isinstance(rnode, YMap):
            resets = {a: YScalar("false", rnode.pos) for a in counted}
            for a, cond in rnode.items.items():
                if a not in counted:
                    raise SpecError(f"'{a}' is not an action clock '{cname}' counts ({', '.join(counted)})", rnode.key_pos[a], did_you_mean(a, counted))
                resets[a] = cond
        of = {"of": YScalar("mover", pos)} if cname in low.names.counters else {}  # a player's clock counts its own moves
        for a in counted:
            to = YScalar(f"{cname} + 1", pos)
            body_ = {"counter": YScalar(cname, pos), "to": to, **of}
            item = YMap({"set": YMap(body_, pos, {k: pos for k in body_})}, pos, {"set": pos})
            scope = {p.name: p.type for p in actions[names.index(a)].params}
            cond = resets[a]
            if isinstance(cond, YScalar) and isinstance(cond.value, bool):  # (`jump: true` as YAML reads it)
                cond = YScalar("true" if cond.value else "false", cond.pos)
            (eff,) = low.lower_effects(YList([item], pos), {**scope}, f"clock '{cname}'")
            reset = low.condition(cond, scope, BOOL)
            folded = {True: Const(0, INT), False: eff.value}.get(reset.value) if isinstance(reset, Const) else None  # (`jump: true`: 0)
            effects[a].append(replace(eff, value=folded or Call("either", (reset, Const(0, INT), eff.value), INT)))
    return tuple(replace(a, effects=(*effects[a.name], *a.effects)) if effects[a.name] else a for a in actions)
