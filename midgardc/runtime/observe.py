"""What one player may see of a state: its observation, and the item places it cannot see.

Everything is read generically from the IR and the engine API (``state_json`` and the
cores' item fields), so both back ends give equal observations. What a viewer sees of a
place is decided by one table, ``SEES``: visibility -> (viewer, owner) -> sees contents.
A place the viewer cannot see shows only its size; sizes are always public.

Item places today come from the ``deck:`` section: every player's deck (ordered, visibility
``none``: its order is what nobody sees), face-up items and discard pile (public). The
same ``Place`` rows will carry the spec's ``zones:``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Optional

from ..ir.nodes import GameIR

if TYPE_CHECKING:  # pragma: no cover
    from .game import State

GAME = -1  # the owner of a place of the whole game (not of a player)

# visibility -> does ``viewer`` see the contents of a place owned by ``owner``?
SEES: dict[str, Callable[[int, int], bool]] = {
    "all": lambda viewer, owner: True,
    "owner": lambda viewer, owner: viewer == owner,
    "none": lambda viewer, owner: False,
}


@dataclass(frozen=True)
class Place:
    """Items somewhere: ``items`` are item kinds, top first when ``ordered``, else sorted.
    ``pool``: places whose hidden items may be exchanged with each other when a player
    samples what it cannot see (see ``midgardc.runtime.determinize``)."""

    zone: str
    owner: int  # a seat, or GAME
    visible: str  # a key of SEES
    ordered: bool
    items: tuple[int, ...]
    pool: str

    def seen_by(self, viewer: int) -> bool:
        return SEES[self.visible](viewer, self.owner)


def _spread(counts: list[int]) -> tuple[int, ...]:
    return tuple(k for k, n in enumerate(counts) for _ in range(n))


# the deck: section's places per player: (zone, visibility, ordered, read(core, p)). A deck
# never gives items to another player, so each deck's remaining items are known to all (the
# deck's composition minus that player's face-up and discarded items): only the order is
# hidden, and a sample reorders each deck on its own (its own pool).
DECK_PLACES: tuple[tuple[str, str, bool, Callable[[Any, int], tuple[int, ...]]], ...] = (
    ("deck", "none", True, lambda core, p: tuple(core.deck[p][core.drawn[p]:])),
    ("up", "all", False, lambda core, p: _spread(core.up[p])),
    ("discard", "all", False, lambda core, p: _spread(core.discards[p])),
)


def places(state: "State") -> list[Place]:
    """Every item place of the state, in a fixed order (per player, the deck section's)."""
    ir = state.game.ir
    core = state.core
    out: list[Place] = []
    if ir.deck is not None:
        for p in range(ir.n_players):
            for zone, visible, ordered, read in DECK_PLACES:
                out.append(Place(zone, p, visible, ordered, read(core, p), f"{zone}:{p}"))
    return out


def may_hide(ir: GameIR) -> bool:
    """Whether any place of this game can ever be hidden from some player (a static fact of
    the spec): when not, an observation is the whole state and a sample is a copy."""
    if ir.deck is not None and any(v != "all" for _, v, _, _ in DECK_PLACES):
        return True
    return False


def _zone_json(ir: GameIR, place: Place, viewer: int) -> dict:
    texts = ir.deck.texts if ir.deck is not None else ()
    items = [texts[k] for k in place.items] if place.seen_by(viewer) else None
    return {"size": len(place.items), "items": items}


def observation(state: "State", viewer: int) -> dict:
    """What ``viewer`` sees (JSON-able): the public state (board, hands of pieces, counters,
    scores, roll, whose turn, ply, the moves played, the result), each item place as its
    size and, when the viewer may see it, its items; the legal moves when ``viewer`` is to
    move. The same keys as ``state.to_json()`` where they mean the same thing."""
    from .view import state_json

    ir = state.game.ir
    if not 0 <= viewer < ir.n_players:
        raise ValueError(f"no player {viewer} in {ir.title} (players 0..{ir.n_players - 1})")
    obs = state_json(state)
    obs["observer"] = ir.players[viewer]
    by_owner: dict[int, dict[str, dict]] = {}
    for place in places(state):
        by_owner.setdefault(place.owner, {})[place.zone] = _zone_json(ir, place, viewer)
    for p, entry in enumerate(obs["players"]):
        entry.pop("zones", None)
        if p in by_owner:
            entry["zones"] = by_owner[p]
    if GAME in by_owner:
        obs["zones"] = by_owner[GAME]
    if state.current_player() == viewer:
        obs["legal"] = [m.text for m in state.legal_moves()]
    return obs


def observation_string(state: "State", viewer: int) -> str:
    """The observation as one line of JSON with sorted keys (stable: equal observations
    give equal strings, so they can be compared and diffed)."""
    return json.dumps(observation(state, viewer), separators=(",", ":"), sort_keys=True)


def viewer_index(ir: GameIR, who: str) -> Optional[int]:
    """A player given by name or by seat index (``"grey"`` or ``"1"``); None when neither."""
    if who in ir.players:
        return ir.players.index(who)
    if who.strip().isdigit() and int(who) < ir.n_players:
        return int(who)
    return None
