"""Perfect-recall information-state tensors, for specs that declare what a player remembers.

An information state must tell apart every two histories the player could tell apart; the
observation tensor (``midgardc.research.tensor``) is only what the player sees *now*, so
handing it out as the information state would alias states (a poker spec of the project's had
936 information states but 576 observation tensors) and silently break CFR-style learners. A spec says what its
players remember with ``game.remembers`` (docs/spec-language.md#game); without it there is
no information-state tensor and asking for one is an error (``NoInformationState``).

``remembers: moves`` (with ``game.horizon``, the most moves a game takes): the information
state is what the player sees now and every move of the game so far as it saw it. The
spec's author asserts that this is all the player ever knew: nothing it once saw is hidden
from it again except as moves it saw show (a card stays in its hand, a public card stays
up). The tensor, float32, laid out by ``info_schema``:

- ``observer``     (players,): one-hot of the player whose information state this is;
- ``observation``  (observation size,): its observation tensor (``tensor.schema``);
- ``moves``        (slots, players + seen moves): per move of the game, in order, the
                   mover one-hot, then the move *as this player saw it* one-hot (a move
                   whose parameters it may not see is the same entry whatever they were,
                   as the information-state string writes it with ``?``); slots after the
                   last move are 0. Slots: the horizon, and as many again plus one for
                   dice rolls (which are moves of the history) in a game with dice.

The seen-move vocabulary is every distinct text ``observe.move_seen`` writes for any move,
mover and viewer, in sorted order: a fact of the spec, the same for every viewer.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import TYPE_CHECKING, Any, Optional

import numpy as np

from ..runtime.observe import move_seen
from .tensor import Part, Schema, observation_tensor, schema

if TYPE_CHECKING:  # pragma: no cover
    from ..runtime.game import Game, State


class NoInformationState(ValueError):
    """The spec does not say what its players remember, or a game went past its horizon."""


@dataclass(frozen=True)
class InfoLayout:
    """The information-state tensor's layout and the seen-move table behind it."""

    schema: Schema
    slots: int
    vocabulary: tuple[str, ...]
    seen: np.ndarray  # int32 [viewer, mover, move id]: the vocabulary index of what viewer sees


_LAYOUTS: dict[int, tuple[Any, InfoLayout]] = {}


def info_layout(game: "Game") -> InfoLayout:
    """The layout for a game (spec, variant, player count); NoInformationState when the
    spec does not declare ``game.remembers``."""
    hit = _LAYOUTS.get(id(game))
    if hit is not None and hit[0] is game:
        return hit[1]
    ir = game.ir
    if ir.remembers is None:
        raise NoInformationState(
            f"{ir.title} has no information-state tensor: its spec does not declare what a player "
            "remembers (game.remembers: moves, with game.horizon; docs/spec-language.md#game). "
            "The observation tensor is only what a player sees now, not its information state; "
            "the information-state string is available."
        )
    if game.compound:  # (a compound move's text depends on its position: no fixed vocabulary)
        raise NoInformationState(f"{ir.title}: game.remembers: moves is not supported for compound moves (their text depends on the position)")
    assert ir.remembers == "moves" and ir.horizon is not None  # (the front end requires both)
    P, n_moves = ir.n_players, ir.n_moves
    texts = [[[move_seen(game, m, mover, viewer) for m in range(n_moves)] for mover in range(P)] for viewer in range(P)]
    vocabulary = tuple(sorted({t for per_viewer in texts for per_mover in per_viewer for t in per_mover}))
    index = {t: i for i, t in enumerate(vocabulary)}
    seen = np.array([[[index[t] for t in per_mover] for per_mover in per_viewer] for per_viewer in texts], dtype=np.int32)
    slots = ir.horizon + (ir.horizon + 1 if ir.chance is not None else 0)
    obs = schema(ir).size
    shapes = [("observer", (P,)), ("observation", (obs,)), ("moves", (slots, P + len(vocabulary)))]
    parts, offset = [], 0
    for name, shape in shapes:
        parts.append(Part(name, shape, offset))
        offset += prod(shape)
    out = InfoLayout(Schema(tuple(parts)), slots, vocabulary, seen)
    _LAYOUTS[id(game)] = (game, out)
    return out


def information_state_tensor(state: "State", viewer: int, out: Optional[np.ndarray] = None) -> np.ndarray:
    """Player ``viewer``'s perfect-recall information-state tensor (flat float32, layout
    ``info_layout(game).schema``), written into ``out`` when given."""
    game = state.game
    layout = info_layout(game)
    ir = game.ir
    if not 0 <= viewer < ir.n_players:
        raise ValueError(f"no player {viewer} (players 0..{ir.n_players - 1})")
    sch = layout.schema
    if out is None:
        out = np.zeros(sch.size, dtype=np.float32)
    else:
        out[: sch.size] = 0
    history = state.history
    if len(history) > layout.slots:
        raise NoInformationState(
            f"{ir.title}: the game has {len(history)} moves, more than game.horizon {ir.horizon} allows "
            f"({layout.slots} slots): the declared horizon is wrong"
        )
    sch.view(out, "observer")[viewer] = 1
    part = sch.part("observation")
    observation_tensor(state, viewer, out[part.offset : part.offset + part.size])
    if history:
        moves = sch.view(out, "moves")
        n = len(history)
        movers = np.asarray(state.movers, dtype=np.intp)
        rows = np.arange(n)
        moves[rows, movers] = 1
        moves[rows, ir.n_players + layout.seen[viewer, movers, np.asarray(history, dtype=np.intp)]] = 1
    return out
