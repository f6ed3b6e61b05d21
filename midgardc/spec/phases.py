"""Lowering of ``phases:``: the parts of a game (or of a turn) and the moves each allows.

A phase names its actions, who moves while it lasts (``mover``) and when it begins
(``first``), when it ends (``until``, ``after``; by default after one move) and the phase
that follows (``next``, a name, an expression or a list of exits). Nothing here is new to
the engines: the phases lower to what the language already has, so both back ends play
them with one meaning and the compiled engine keeps its speed:

* an enumeration ``phase`` of the phase names and a game counter ``phase`` holding the
  current one (so it is in the state, its JSON, the observation and, in a spec with a
  ``history``, every position);
* a guard ``phase == P`` put before each action's ``where``;
* after a move's own triggers, one generated trigger per group of actions that belong to
  the same phases: it ends the phase (sets the counter), runs the new phase's
  ``effects`` and passes the turn as the phase says (``extra_turn`` for ``same``,
  ``next_turn`` otherwise).

A phase without ``actions`` is a step of the game that nobody moves in (a scoring, the
end of a round): it passes as it begins, its effects run and it ends to its ``next`` in
the same move, so a chain of such phases is written out where a phase ends (no cycle).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Optional

from ..errors import Pos, SpecError, did_you_mean
from ..ir.nodes import BOOL, INT, PLAYER, Action, Binary, Call, Const, Effect, Expr, ExtraTurn, IfEffect, NextTurn, SetCounter, Trigger
from ..ir.values import enum_type
from .yamlpos import YList, YMap, YNode, YScalar

if TYPE_CHECKING:  # pragma: no cover
    from .context import Lowering

PHASE = "phase"  # the enumeration's and the game counter's name, read as `phase == moving`
OTHERS = "others"  # `actions: others`: every action no other phase lists
TURNS = ("same", "next")  # the written turn rules besides a player expression


@dataclass
class _Phase:
    name: str
    node: YMap
    pos: Pos
    actions: list[int]
    ends_after: set[int]  # the actions after which the phase may end (all of its own by default)
    exits: list[tuple[Optional[Expr], Expr]]  # (when, the next phase), the first that holds
    mover: Optional[Effect]  # who moves after a move that keeps the phase (None: as usual)
    first: Optional[Effect]  # who moves as the phase begins (None: as usual)
    effects: tuple[Effect, ...] = ()  # run as the phase begins
    passing: bool = False  # no actions: the phase ends as it begins, in the same move


def declare_phases(low: "Lowering", node: Optional[YNode], enums: tuple) -> tuple:
    """Before the counters: the phase names become values of the enumeration ``phase``,
    and the game counter ``phase`` (starting at the first phase) joins the counters."""
    if node is None:
        return enums
    if not isinstance(node, YMap) or not node.items:
        raise SpecError("'phases' maps each phase's name to {actions, mover, first, until, after, next}, in the order they come", node.pos)
    if PHASE in low.names.types or PHASE in low.names.constants:
        raise SpecError(f"a spec with phases has an enumeration and a game counter called '{PHASE}'; rename the other '{PHASE}'", node.pos)
    typ = enum_type(PHASE)
    names = []
    for pname in node.items:
        ppos = node.key_pos[pname]
        low.ident(pname, ppos, "phase name")
        if pname == PHASE or pname == OTHERS:
            raise SpecError(f"'{pname}' cannot name a phase; choose another name", ppos)
        if pname in low.names.constants:
            raise SpecError(f"phase '{pname}' has the same name as another value (a player, kind or enumeration value)", ppos)
        low.names.constants[pname] = (len(names), typ)
        names.append(pname)
    low.names.types[PHASE] = typ
    low.has_phases = True
    # the counter: written into the spec's counters as `phase: {type: phase, of: game, start: FIRST}`
    top = low.tree
    counters = top.items.get("counters")
    if isinstance(counters, YMap) and PHASE in counters.items:
        raise SpecError(f"the counter '{PHASE}' is the current phase of a spec with phases; rename this counter", counters.key_pos[PHASE])
    if counters is not None and not isinstance(counters, YMap):
        return (*enums, (PHASE, tuple(names)))  # (lower_counters reports the malformed section)
    pos = top.key_pos["phases"]
    body = YMap({"type": YScalar(PHASE, pos), "of": YScalar("game", pos), "start": YScalar(names[0], pos)}, pos, {k: pos for k in ("type", "of", "start")})
    items = dict(counters.items) if counters is not None else {}
    items[PHASE] = body
    key_pos = {**(counters.key_pos if counters is not None else {}), PHASE: pos}
    new = YMap(items, counters.pos if counters is not None else pos, key_pos, dict(counters.key_nodes) if counters is not None else {})
    low.tree = YMap({**top.items, "counters": new}, top.pos, {**top.key_pos, "counters": top.key_pos.get("counters", pos)}, top.key_nodes)
    return (*enums, (PHASE, tuple(names)))


def lower_phases(low: "Lowering", node: Optional[YNode], actions: tuple[Action, ...], actions_node: YMap) -> tuple[tuple[Action, ...], tuple[Trigger, ...]]:
    """The actions with their phase guards, and the triggers that end phases and pass the
    turn (written after the spec's own triggers)."""
    if node is None:
        return actions, ()
    typ = enum_type(PHASE)
    counter = low.names.game_counters[PHASE]
    names = [a.name for a in actions]
    order = list(node.items)
    phases: list[_Phase] = []
    claimed: dict[int, list[int]] = {}  # action -> its phases
    others: Optional[int] = None
    for k, pname in enumerate(order):
        body = low.keys(node.items[pname], "phase", f"phase '{pname}'")
        anode = body.get("actions")
        listed: list[int] = []
        if anode is None:
            _passing_ok(body, pname, node.key_pos[pname], k)
        elif isinstance(anode, YScalar) and anode.value == OTHERS:
            if others is not None:
                raise SpecError(f"only one phase may take the actions no other phase lists ('{order[others]}' already does)", anode.pos)
            others = k
        else:
            if not isinstance(anode, YList) or len(anode) == 0:
                raise SpecError(f"phase '{pname}': actions lists the actions played in it (or is '{OTHERS}': every action no other phase lists)", anode.pos)
            for item in anode:
                a = low.scalar(item, str, "an action name")
                if a not in names:
                    raise SpecError(f"unknown action '{a}' in phase '{pname}'", item.pos, did_you_mean(a, names))
                i = names.index(a)
                if i in listed:
                    raise SpecError(f"action '{a}' is listed twice in phase '{pname}'", item.pos)
                listed.append(i)
                claimed.setdefault(i, []).append(k)
        phases.append(_Phase(pname, body, node.key_pos[pname], listed, set(), [], None, None, passing=anode is None))
    for i, a in enumerate(actions):
        if i not in claimed:
            if others is None:
                raise SpecError(
                    f"action '{a.name}' is in no phase: no move could ever play it",
                    getattr(low, "action_pos", {}).get(a.name) or actions_node.key_pos[a.name],
                    f"list it under a phase's actions (phases: {', '.join(order)}), or give one phase 'actions: {OTHERS}'",
                )
            phases[others].actions.append(i)
            claimed[i] = [others]
    # the rules of each phase, read with the parameters its ending actions share
    for k, ph in enumerate(phases):
        body = ph.node
        ph.ends_after = set(ph.actions)
        if "after" in body:
            ph.ends_after = set()
            anode = body["after"]
            for item in (anode.items if isinstance(anode, YList) else [anode]):
                a = low.scalar(item, str, "an action name")
                if a not in names or names.index(a) not in ph.actions:
                    raise SpecError(f"phase '{ph.name}' can only end after its own actions; '{a}' is not one", item.pos, did_you_mean(a, [names[i] for i in ph.actions]))
                ph.ends_after.add(names.index(a))
        scope = _common(actions, sorted(ph.ends_after))
        ph.mover = _turn(low, body.get("mover"), _common(actions, ph.actions))
        ph.first = _turn(low, body.get("first"), {})
        ph.effects = low.lower_effects(body.get("effects"), {}, f"phase '{ph.name}'")
        until = low.condition(body["until"], scope, BOOL) if "until" in body else None
        nnode = body.get("next")
        if isinstance(nnode, YList):
            if "until" in body:
                raise SpecError(f"phase '{ph.name}': a list of exits says when the phase ends ('when' of each); leave out 'until'", body.key_pos["until"])
            for item in nnode:
                exit_ = low.keys(item, "phase_exit", f"an exit of phase '{ph.name}'")
                when = low.condition(exit_["when"], scope, BOOL) if "when" in exit_ else None
                ph.exits.append((when, low.condition(exit_["to"], scope, typ)))
        else:
            to = low.condition(nnode, scope, typ) if nnode is not None else Const((k + 1) % len(phases), typ)
            ph.exits.append((until, to))
    for ph in phases:
        if ph.passing:
            _enter(phases, Const(phases.index(ph), typ), counter, typ, len(low.players))  # (reports a cycle of them)
    guarded = tuple(_guard(a, claimed[i], counter, typ) for i, a in enumerate(actions))
    return guarded, _triggers(phases, claimed, actions, counter, typ, len(low.players))


def _common(actions: tuple[Action, ...], indexes) -> dict[str, str]:
    """The parameters (name and type) that all these actions have, as a trigger's scope."""
    common: Optional[dict[str, str]] = None
    for i in indexes:
        ps = {p.name: p.type for p in actions[i].params}
        common = ps if common is None else {k: v for k, v in common.items() if ps.get(k) == v}
    return common or {}


def _turn(low: "Lowering", node: Optional[YNode], scope: dict[str, str]) -> Optional[Effect]:
    """`same` (the mover again), `next` (the next seat) or a player expression."""
    if node is None:
        return None
    if isinstance(node, YScalar) and node.value == "same":
        return ExtraTurn()
    if isinstance(node, YScalar) and node.value == "next":
        return NextTurn(Call("next_player", (Call("mover", (), PLAYER),), PLAYER))
    return NextTurn(low.condition(node, scope, PLAYER))


def _is(counter: int, typ: str, k: int) -> Expr:
    return Binary("==", Call("game_counter", (Const(counter, INT),), typ), Const(k, typ), BOOL)


def _guard(action: Action, phases: list[int], counter: int, typ: str) -> Action:
    """`phase == P or ...` before the action's own condition (checked first: it is cheap)."""
    guard = _is(counter, typ, phases[0])
    for k in phases[1:]:
        guard = Binary("or", guard, _is(counter, typ, k), BOOL)
    where = guard if action.where is None or action.where == Const(1, BOOL) else Binary("and", guard, action.where, BOOL)
    return replace(action, where=where)


def _triggers(phases: list[_Phase], claimed: dict[int, list[int]], actions: tuple[Action, ...], counter: int, typ: str, n_players: int) -> tuple[Trigger, ...]:
    """One trigger per group of actions that share their phases and whether each may end
    there: a chain over those phases (else-linked, so a phase just begun is not ended by
    the same move), each ending its phase when an exit holds or passing the turn."""
    groups: dict[tuple, list[int]] = {}
    for i in range(len(actions)):
        key = tuple((k, i in phases[k].ends_after) for k in claimed[i])
        groups.setdefault(key, []).append(i)
    out = []
    for key, members in groups.items():
        chain: tuple[Effect, ...] = ()
        for k, ends in reversed(key):
            branch = _branch(phases, phases[k], ends, counter, typ, n_players)
            chain = branch if len(key) == 1 else (IfEffect(_is(counter, typ, k), branch, chain),)
        if chain:
            out.append(Trigger(f"{PHASE}s: {', '.join(phases[k].name for k, _ in key)}", tuple(members), None, chain))
    return tuple(out)


def _branch(phases: list[_Phase], ph: _Phase, ends: bool, counter: int, typ: str, n_players: int) -> tuple[Effect, ...]:
    stay: tuple[Effect, ...] = (ph.mover,) if ph.mover is not None else ()
    if not ends:
        return stay
    rest = stay
    for when, to in reversed(ph.exits):
        change = (SetCounter(counter, Const(n_players, PLAYER), to, False), *_enter(phases, to, counter, typ, n_players))
        rest = change if when is None else (IfEffect(when, change, rest),)
    return rest


def _passing_ok(body: YMap, pname: str, pos: Pos, k: int) -> None:
    """A phase without actions passes as it begins: nothing waits in it for a move."""
    if k == 0:
        raise SpecError(f"phase '{pname}' has no actions, so it passes as it begins; the game cannot start in it", pos, "write a phase with actions first")
    why = {"mover": "the phase it leads to decides who moves", "first": "the phase it leads to decides who moves", "after": "it ends as it begins", "until": "it ends as it begins"}
    for key, reason in why.items():
        if key in body:
            raise SpecError(f"phase '{pname}' has no actions: it passes at once, so it has no '{key}' ({reason})", body.key_pos[key])
    nnode = body.get("next")
    if isinstance(nnode, YList) and nnode.items and isinstance(nnode.items[-1], YMap) and "when" in nnode.items[-1].items:
        raise SpecError(f"phase '{pname}' has no actions, so it must end as it begins: leave out its last exit's 'when'", nnode.items[-1].key_pos["when"])


def _choices(to: Expr, ph: _Phase) -> list[tuple[Optional[Expr], Const]]:
    """The phases an expression may name, each with when it does: a name, or `if C then
    NAME else ...` (a phase without actions is written out where it is entered, so what
    follows it must be known there)."""
    if isinstance(to, Const):
        return [(None, to)]
    if isinstance(to, Call) and to.fn == "either" and len(to.args) == 3 and isinstance(to.args[1], Const):
        return [(to.args[0], to.args[1]), *_choices(to.args[2], ph)]
    raise SpecError(f"phase '{ph.name}' has no actions: name the phase that follows it (a name, 'if C then NAME else ...', or exits {{to: NAME, when}})", ph.pos)


def _both(a: Optional[Expr], b: Optional[Expr]) -> Optional[Expr]:
    return b if a is None else a if b is None else Binary("and", a, b, BOOL)


def _enter(phases: list[_Phase], to: Expr, counter: int, typ: str, n_players: int, chain: tuple[str, ...] = ()) -> tuple[Effect, ...]:
    """What follows setting the counter to `to`: the new phase's effects, then who opens it
    (its `first`), or, for a phase without actions, its exits at once (`chain`: those
    passed through in this move). Known when the next phase is a name; otherwise read
    from the counter just set."""
    if isinstance(to, Const):
        ph = phases[to.value]
        if not ph.passing:
            return (*ph.effects, *((ph.first,) if ph.first is not None else ()))
        if ph.name in chain:
            raise SpecError(f"phases without actions lead back to themselves ({' -> '.join((*chain, ph.name))}): the move would never end", ph.pos, "let one of them lead to a phase with actions")
        rest: tuple[Effect, ...] = ()
        exits = [(_both(when, w), t) for when, nxt in ph.exits for w, t in _choices(nxt, ph)]
        for when, nxt in reversed(exits):
            change = (SetCounter(counter, Const(n_players, PLAYER), nxt, False), *_enter(phases, nxt, counter, typ, n_players, (*chain, ph.name)))
            rest = change if when is None else (IfEffect(when, change, rest),)
        return (*ph.effects, *rest)
    out: tuple[Effect, ...] = ()
    for k in reversed(range(len(phases))):
        then = _enter(phases, Const(k, typ), counter, typ, n_players, chain)
        if then:
            out = (IfEffect(_is(counter, typ, k), then, out),)
    return out
