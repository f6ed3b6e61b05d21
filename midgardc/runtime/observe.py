"""What one player may see of a state: its observation, and the item places it cannot see.

Everything is read generically from the IR and the engine API (``state_json``, the cores'
item fields and zone slots), so both back ends give equal observations. What a viewer sees
of a place is decided by one table, ``SEES``: visibility -> (viewer, owner) -> sees the
contents. A place the viewer cannot see shows only its size; sizes are always public.

Item places come from the ``deck:`` section (every player's deck: ordered, visibility
``none``, its order is what nobody sees; face-up items and the discard pile: public) and
from the ``zones:`` section (each zone's ``visible``, per owner). Counters have a
visibility too (``counters: {x: {visible: owner}}``): a counter the viewer may not see is
``null``, and so is a ranking key (``score``) that reads one (or an item the viewer may
not see through ``holding``/``top``), until the game is over.

Moves are public (which action a player plays, as at a table), except what a move keeps
out of sight: a parameter of another player's move is written ``?`` when the move writes
its value where the viewer cannot see (``take``s that item from a zone the viewer cannot
see into another zone it cannot see, a pick into an owner-only zone: the others see only
that the zone grew by one; or sets a counter it cannot see to it), or when it chooses
whether such a write happens, at any depth: inside ``if`` and ``for_each``, in every step
of a compound move and in the triggers the move sets off (``hidden_params``). A private
roll (``chance.into`` a counter array the viewer may not see) of another player is written
``roll:?``. Everything that shows moves to someone writes them with ``moves_seen``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields, is_dataclass
from typing import TYPE_CHECKING, Any, Callable, Optional

from ..ir.dice import into_of
from ..ir.nodes import Call, Const, DefineCall, ForEach, GameIR, IfEffect, Local, SetCounter, SetElement, Take

if TYPE_CHECKING:  # pragma: no cover
    from .protocols import GameLike, StateLike

GAME = -1  # the owner of a place of the whole game (not of a player)


def by_identity(fn: Callable) -> Callable:
    """Memoize ``fn`` on the identity of its arguments: IR nodes are frozen dataclasses whose
    hash walks the whole tree on every call, far dearer than the facts cached here. The
    arguments are kept alive with the value, so an id is never reused while cached."""
    memo: dict[tuple[int, ...], tuple[tuple, Any]] = {}

    def cached(*args: Any) -> Any:
        key = tuple(map(id, args))
        hit = memo.get(key)
        if hit is None:
            hit = memo[key] = (args, fn(*args))
        return hit[1]

    cached.__doc__ = fn.__doc__
    cached.__name__ = fn.__name__
    return cached
HIDDEN_VALUE = "?"  # how a hidden parameter of a move is written

# visibility -> does ``viewer`` see the contents of a place owned by ``owner``?
SEES: dict[str, Callable[[int, int], bool]] = {
    "all": lambda viewer, owner: True,
    "owner": lambda viewer, owner: owner != GAME and viewer == owner,
    "none": lambda viewer, owner: False,
}


@dataclass(frozen=True)
class Place:
    """Items somewhere: ``items`` are item kinds, top first when ``ordered``, else sorted.
    ``source`` says where the engine keeps them ("deck": ``slot`` unused, or "zones":
    ``slot`` is the zone slot). ``pool``: the places whose hidden items may be exchanged
    with each other when a player samples what it cannot see (``runtime.determinize``)."""

    zone: str
    owner: int  # a seat, or GAME
    visible: str  # a key of SEES
    ordered: bool
    items: tuple[int, ...]
    pool: str
    source: str
    slot: int = -1

    def seen_by(self, viewer: int) -> bool:
        return SEES[self.visible](viewer, self.owner)


def _spread(counts: list[int]) -> tuple[int, ...]:
    return tuple(k for k, n in enumerate(counts) for _ in range(n))


# the deck: section's places per player: (zone, visibility, ordered, read(core, p)). A deck
# never gives items to another player, so each deck's remaining items are known to all (the
# deck's composition minus that player's face-up and discarded items): only the order is
# hidden, and a sample reorders each deck on its own (its own pool).
DECK_PLACES: tuple[tuple[str, str, bool, Callable[[Any, int], tuple[int, ...]]], ...] = (
    ("deck", "none", True, lambda core, p: tuple(core.deck[p][core.drawn[p] :])),
    ("up", "all", False, lambda core, p: _spread(core.up[p])),
    ("discard", "all", False, lambda core, p: _spread(core.discards[p])),
)

# zones: items move between zones (deal, take, pass_zone, gather), so every hidden zone
# slot is one pool: a sample deals all their items afresh, keeping each slot's size
ZONE_POOL = "zones"


def places(state: "StateLike") -> list[Place]:
    """Every item place of the state, in a fixed order: per player the deck section's,
    then every zone slot (zones in declared order, a per-player zone's seats in order)."""
    ir = state.game.ir
    core = state.core
    out: list[Place] = []
    if ir.deck is not None:
        for p in range(ir.n_players):
            for zone, visible, ordered, read in DECK_PLACES:
                out.append(Place(zone, p, visible, ordered, read(core, p), f"{zone}:{p}", "deck"))
    zs = ir.zones
    if zs is not None and zs.zones:
        slots = core.zones
        for z in zs.zones:
            for o in range(zs.n_players if z.per_player else 1):
                slot = z.base + o
                content = slots[slot]
                items = tuple(content) if z.ordered else _spread(content)
                out.append(Place(z.name, o if z.per_player else GAME, z.visible, z.ordered, items, ZONE_POOL, "zones", slot))
    return out


@by_identity
def may_hide(ir: GameIR) -> bool:
    """Whether any place of this game can ever be hidden from some player (a static fact of
    the spec): when not, an observation is the whole state and a sample is a copy."""
    if ir.deck is not None and any(v != "all" for _, v, _, _ in DECK_PLACES):
        return True
    if any(v != "all" for v in ir.counter_visible):
        return True
    return ir.zones is not None and any(z.visible != "all" for z in ir.zones.zones)


# -- counters ------------------------------------------------------------------------------


def counter_visibility(ir: GameIR, counter: int) -> str:
    return ir.counter_visible[counter] if ir.counter_visible else "all"


def counter_seen(ir: GameIR, counter: int, viewer: int, owner: int) -> bool:
    """Whether ``viewer`` sees counter ``counter`` of ``owner`` (a seat, or GAME)."""
    return SEES[counter_visibility(ir, counter)](viewer, owner)


@by_identity
def hidden_counters(ir: GameIR, viewer: int) -> tuple[tuple[int, int], ...]:
    """(row, counter) of every counter ``viewer`` may not see; row ``n_players`` is the
    game's (see GameIR.counter_init)."""
    out = [(p, i) for i in ir.player_counters for p in range(ir.n_players) if not counter_seen(ir, i, viewer, p)]
    return tuple(out + [(ir.n_players, i) for i in ir.game_counters if not counter_seen(ir, i, viewer, GAME)])


@by_identity
def key_visibility(ir: GameIR, key: int) -> str:
    """The most private thing ranking key ``key`` reads: "none", "owner" (taken as the
    key's own player's) or "all"."""
    found: set[str] = set()
    zones = ir.zones.zones if ir.zones is not None else ()

    def walk(e: Any, seen_defines: frozenset) -> None:
        if isinstance(e, Call):
            if e.fn in ("counter", "game_counter", "typed_counter", "counter_at") and isinstance(e.args[0], Const):  # (an array: its first column)
                found.add(counter_visibility(ir, e.args[0].value))
            elif e.fn in ("holding", "top") and e.args and isinstance(e.args[0], Const) and e.args[0].value < len(zones):
                found.add(zones[e.args[0].value].visible)
        if isinstance(e, DefineCall) and e.index not in seen_defines:
            walk(ir.defines[e.index].body, seen_defines | {e.index})
        if is_dataclass(e):
            for f in fields(e):
                v = getattr(e, f.name)
                for x in v if isinstance(v, tuple) else (v,):
                    if is_dataclass(x):
                        walk(x, seen_defines)

    walk(ir.ranking[key].expr, frozenset())
    return "none" if "none" in found else "owner" if "owner" in found else "all"


def _content_json(ir: GameIR, place: Place, viewer: int) -> dict:
    texts = ir.item_texts
    items = [texts[k] for k in place.items] if place.seen_by(viewer) else None
    return {"size": len(place.items), "items": items}


def observation(state: "StateLike", viewer: int) -> dict:
    """What ``viewer`` sees (JSON-able): the public state (board, hands of pieces, counters,
    scores, roll, whose turn, ply, the moves played, the result), each item place as its
    size and, when the viewer may see it, its items; the legal moves when ``viewer`` is to
    move. The same keys as ``state.to_json()`` where they mean the same thing."""
    from . import ending
    from .state_json import state_json

    ir = state.game.ir
    if not -1 <= viewer < ir.n_players:
        raise ValueError(f"no player {viewer} in {ir.title} (players 0..{ir.n_players - 1}, or -1: a spectator)")
    obs = state_json(state)
    obs["observer"] = ir.players[viewer] if viewer >= 0 else None  # -1: a spectator, who sees what is public
    deck_zones: dict[int, dict[str, dict]] = {}
    zones: dict[str, dict[str, dict]] = {}
    for place in places(state):
        if place.source == "deck":
            deck_zones.setdefault(place.owner, {})[place.zone] = _content_json(ir, place, viewer)
        else:
            owner = "game" if place.owner == GAME else ir.players[place.owner]
            zones.setdefault(place.zone, {})[owner] = _content_json(ir, place, viewer)
    for p, entry in enumerate(obs["players"]):
        entry.pop("zones", None)
        if p in deck_zones:
            entry["zones"] = deck_zones[p]
    obs.pop("zones", None)
    if zones:
        obs["zones"] = zones
    for p, entry in enumerate(obs["players"]):
        for i in ir.player_counters:
            if not counter_seen(ir, i, viewer, p):
                entry["counters"][ir.counters[i]] = None
        if not state.is_terminal():  # the final keys are the result: public
            for j, key in enumerate(ir.ranking):
                if not SEES[key_visibility(ir, j)](viewer, p):
                    entry["score"][key.name] = None
    for i in ir.game_counters:
        if not counter_seen(ir, i, viewer, GAME):
            obs["counters"][ir.counters[i]] = None
    obs["moves"] = moves_seen(state, viewer)
    finals = ending.final_keys(ir)
    if finals:  # ranking keys that mean something only at the end: not shown while the game goes on
        obs["final_keys"] = finals
    if state.is_terminal():  # how it ended: reason, ranks and scores, tie-break, length in moves
        obs["end"] = ending.ending(state)
    if viewer >= 0 and state.current_player() == viewer:
        obs["legal"] = [m.text for m in state.legal_moves()]
    return obs


def observation_string(state: "StateLike", viewer: int) -> str:
    """The observation as one line of JSON with sorted keys (stable: equal observations
    give equal strings, so they can be compared and diffed)."""
    return json.dumps(observation(state, viewer), separators=(",", ":"), sort_keys=True)


# -- moves: what another player's move shows ---------------------------------------------------


def _owner_of(ir: GameIR, owner: Any, mover: int) -> Optional[int]:
    """The seat (or GAME) an owner expression names, when it is known without the position:
    the mover, or the game's row; None for any other expression."""
    if isinstance(owner, Call) and owner.fn == "mover":
        return mover
    if isinstance(owner, Const) and owner.value == ir.n_players:
        return GAME
    return None


def _end_seen(ir: GameIR, zone: int, owner: Any, viewer: int, mover: int) -> bool:
    """Whether ``viewer`` sees zone ``zone`` of the player ``owner`` names (an expression;
    only ``mover`` is known without the position, any other owner counts as unseen)."""
    z = ir.zones.zones[zone]
    who = GAME if not z.per_player else (mover if isinstance(owner, Call) and owner.fn == "mover" else None)
    if who is None:
        return z.visible == "all"
    return SEES[z.visible](viewer, who)


def _counter_written_seen(ir: GameIR, counter: int, owner: Any, viewer: int, mover: int) -> bool:
    """Whether ``viewer`` sees counter ``counter`` (an array: its first column) of the row
    ``owner`` names; an owner not known without the position counts as unseen."""
    vis = counter_visibility(ir, counter)
    if vis == "all":
        return True
    who = _owner_of(ir, owner, mover)
    return who is not None and SEES[vis](viewer, who)


def _locals_in(e: Any) -> set[str]:
    """The names of every local an expression (or a tuple of them) mentions, however deep."""
    out: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, Local):
            out.add(x.name)
        elif isinstance(x, tuple):
            for y in x:
                walk(y)
        elif is_dataclass(x):
            for f in fields(x):
                walk(getattr(x, f.name))

    walk(e)
    return out


# an effect that writes what it is given somewhere -> (the operands whose values it writes,
# where they go is out of ``viewer``'s sight?) for the viewer and the mover. Every other
# effect writes the board, hands, public counters or sizes (all public), or runs others
# (IfEffect, ForEach: walked below).
SINKS: dict[type, Callable[[GameIR, Any, int, int], tuple[tuple, bool]]] = {
    Take: lambda ir, e, v, m: ((e.item,), not _end_seen(ir, e.frm, e.frm_owner, v, m) and not _end_seen(ir, e.to, e.to_owner, v, m)),
    SetCounter: lambda ir, e, v, m: ((e.value,), not _counter_written_seen(ir, e.counter, e.owner, v, m)),
    SetElement: lambda ir, e, v, m: ((e.value, e.index), not _counter_written_seen(ir, e.column, e.row, v, m)),
}


def _private_names(ir: GameIR, effects: tuple, viewer: int, mover: int, guards: frozenset[str] = frozenset()) -> set[str]:
    """The locals whose values ``effects`` (at any depth) write out of ``viewer``'s sight,
    and the locals of every condition that chooses whether such a write happens (an ``if``'s
    ``when``, a ``for_each``'s collection and ``where``): the values a move keeps hidden."""
    out: set[str] = set()
    for eff in effects:
        sink = SINKS.get(type(eff))
        if sink is not None:
            operands, hidden = sink(ir, eff, viewer, mover)
            if hidden:
                out |= _locals_in(operands) | guards
        elif isinstance(eff, IfEffect):
            inner = guards | _locals_in(eff.when)
            out |= _private_names(ir, eff.then, viewer, mover, inner) | _private_names(ir, eff.other, viewer, mover, inner)
        elif isinstance(eff, ForEach):
            out |= _private_names(ir, eff.effects, viewer, mover, guards | _locals_in((eff.each, eff.where)))
    return out


@by_identity
def hidden_params(ir: GameIR, action: Any, viewer: int, mover: int) -> frozenset[int]:
    """The parameters of ``mover``'s ``action`` that ``viewer`` may not see: those whose
    values the move writes out of the viewer's sight (an item ``take``n from a zone it
    cannot see into another; a value written into a counter it cannot see), or that choose
    whether such a write happens, in the action's effects at any depth (inside ``if`` and
    ``for_each``), in every step of a compound move (the same effects) and in the triggers
    that run after it (which read its parameters). Over-hiding is safe: a value also shown
    elsewhere (on the board) is still seen there."""
    if viewer == mover:
        return frozenset()
    index = next(i for i, a in enumerate(ir.actions) if a is action)
    names = _private_names(ir, action.effects, viewer, mover)
    for t in ir.triggers:
        if not t.after or index in t.after:
            names |= _private_names(ir, t.effects, viewer, mover, frozenset(_locals_in(t.when)) if t.when is not None else frozenset())
    return frozenset(i for i, param in enumerate(action.params) if param.name in names)


def moves_seen(state: "StateLike", viewer: int) -> list[str]:
    """Every move of the state's history as ``viewer`` sees it written (hidden parameters
    as ``?``, another player's private roll as ``roll:?``). ``viewer`` may be a seat or
    any other number (a spectator: sees what is public). Every place that shows moves to
    someone (observations, the web page, a report, the terminal) writes them with this."""
    game = state.game
    out = []
    for i, (move, mover) in enumerate(zip(state.history, state.movers)):
        path = state.paths.get(i)
        if path is not None and not hidden_params(game.ir, game.decode_move(move)[0], viewer, mover):
            out.append(state.texts[i])  # a compound move with nothing hidden: as written when played
        else:
            out.append(move_seen(game, move, mover, viewer, path))
    return out


def move_seen(game: "GameLike", move: int, mover: int, viewer: int, path: Optional[list] = None) -> str:
    """``mover``'s ``move`` as ``viewer`` sees it written (hidden parameters as ``?``). A
    compound move needs its ``path`` (its steps' parameters, ``State.paths``): without it
    only its first step is written."""
    ir = game.ir
    action, values = game.decode_move(move)
    into = into_of(ir.chance)
    if action is None and into is not None and not counter_seen(ir, into, viewer, mover):
        return ir.chance.name + ":" + HIDDEN_VALUE  # a private roll (chance.into) of another player
    hidden = hidden_params(ir, action, viewer, mover) if action is not None else frozenset()
    if action is None or action.chain is None:
        if not hidden:
            return game.move_text(move)
        steps = [(action.notation, values)]
    else:
        steps = [(action.notation if i == 0 else action.chain.notation, [env[p.name] for p in action.params]) for i, env in enumerate(path or [dict(zip((p.name for p in action.params), values))])]
    parts = []
    for notation, vals in steps:
        for part in notation:
            if isinstance(part, str):
                parts.append(part)
            elif part in hidden:
                parts.append(HIDDEN_VALUE)
            else:
                parts.append(game.param_text(action.params[part], vals[part]))
    return "".join(parts)


def viewer_index(ir: GameIR, who: str) -> Optional[int]:
    """A player given by name or by seat index (``"grey"`` or ``"1"``); None when neither."""
    if who in ir.players:
        return ir.players.index(who)
    if who.strip().isdigit() and int(who) < ir.n_players:
        return int(who)
    return None
