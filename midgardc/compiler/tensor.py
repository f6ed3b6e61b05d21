"""Code generation for observation tensors and batches of games: the facts
``templates/tensor.pyx.j2`` and ``templates/batch.pyx.j2`` need.

The layout of the tensor (``midgardc.research.tensor.schema``) and who sees what are not
written here: the compiled writer is handed, at run time, one offset per part named in
``TENSOR_PARTS`` (-1 for a part the game has not) and 0/1 visibility masks, both computed
by ``midgardc.research.tensor`` from the same rules as ``state.observation()``. The C
only knows where each part's values come from in the state struct.
"""

from __future__ import annotations

from typing import Any

from ..ir.nodes import GameIR
from ..runtime.observe import DECK_PLACES
from .emit.common import render

#: The parts the compiled writer can fill, in the order of its layout array (the
#: research schema may only use these names; ``tests/test_tensor.py`` checks it).
TENSOR_PARTS = (
    "board",
    "height",
    "hand",
    "counters",
    "counters_known",
    "game_counters",
    "game_counters_known",
    "places_size",
    "places_known",
    "places_items",
    "roll",
    "chance_due",
    "current",
)


def tensor_facts(ir: GameIR) -> dict[str, Any]:
    """Per-game facts of the writer: each part's index in the layout array, the player and
    game counters (column in the tensor part, index in the state's counter row), and the
    item places (the deck section's per player, then one per zone slot, as
    ``runtime.observe.places`` orders them)."""
    # the writer reads each player's deck section as (deck, face-up, discard): say so
    assert tuple(z for z, *_ in DECK_PLACES) == ("deck", "up", "discard"), "templates/tensor.pyx.j2 reads the deck places in this order"
    return {
        "part": {name: i for i, name in enumerate(TENSOR_PARTS)},
        "n_parts": len(TENSOR_PARTS),
        "player_counters": list(enumerate(ir.player_counters)),
        "n_player_counters": len(ir.player_counters),
        "game_counters": list(enumerate(ir.game_counters)),
        "n_deck_places": len(DECK_PLACES) * ir.n_players if ir.deck is not None else 0,
        "item_cols": max(ir.n_item_kinds, 1),
    }


def generate_tensor(g: Any) -> str:
    return render("tensor.pyx.j2", **g.context(), tensor=tensor_facts(g.ir))


def generate_batch(g: Any) -> str:
    return render("batch.pyx.j2", **g.context(), tensor=tensor_facts(g.ir))
