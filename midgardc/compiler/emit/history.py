"""Lookahead legality and the position history in C: the facts ``templates/history.pyx.j2``
needs (the keys of the position hash, which counters and rows it covers) and the
``legal_after`` conditions of the actions. The Python meaning is
``midgardc.runtime.rules.history``; the hash is ``midgardc/ir/history.py``'s."""

from __future__ import annotations

from typing import Optional

from ...ir.history import COUNTER_KEYS, HAND_KEYS, HASH_SEED, HEIGHT_KEYS, MAX_HISTORY_PLIES, PIECE_KEYS, TURN_KEYS, zkey
from ...ir.nodes import GameIR


# The filter in front of the history's hashes (templates/history.pyx.j2): about 16 bits
# per position a game can record, so that a new position seldom finds its bit set by
# another (a set bit costs a scan of the list), and at most 8,192 bits (1 KiB): a game
# records its plies, not its cap, and the filter is cleared at every start.
FILTER_BITS_PER_POSITION = 16
FILTER_MAX_WORDS = 128


def filter_words(cap: int) -> int:
    """Words of the seen-filter for a history of `cap` positions: a power of 2."""
    words = 1
    while words * 64 < cap * FILTER_BITS_PER_POSITION and words < FILTER_MAX_WORDS:
        words *= 2
    return words


def history_facts(ir: GameIR) -> Optional[dict]:
    """What the template needs to keep and read the history, or None without one."""
    h = ir.history
    if h is None:
        return None
    rows = ir.n_players + 1
    counters = []
    for i in h.counters:
        per_player = not ir.counter_scope or ir.counter_scope[i] == "player"
        for r in (range(ir.n_players) if per_player else (ir.n_players,)):
            counters.append({"counter": i, "row": r, "key": f"0x{zkey(COUNTER_KEYS + i * rows + r):016x}ULL", "name": ir.counters[i]})
    cap = min(ir.max_plies, MAX_HISTORY_PLIES) + 1
    return {
        "board": h.board,
        "turn": h.turn,
        "hands": h.hands,
        "hand_keys": HAND_KEYS,
        "counters": counters,
        # the start and a position per move; the front end keeps max_plies within the limit
        # (an IR made by hand with more plies keeps the first MAX_HISTORY_PLIES + 1)
        "cap": cap,
        "filter_words": filter_words(cap),
        "limit": MAX_HISTORY_PLIES,
        "seed": f"0x{HASH_SEED:016x}ULL",
        "piece_keys": PIECE_KEYS,
        "height_keys": HEIGHT_KEYS,
        "turn_keys": TURN_KEYS,
    }
