"""Position history: what a *position* is (``history:``) and its Zobrist-style hash.

Both back ends compute exactly the hash written here (the interpreter with these
functions, the generated engine with the same formulas in C), so ``repeated()`` and
``times_seen()`` mean the same thing move for move.

A position's hash is the XOR of

* one key per occupied board cell, ``zkey(PIECE_KEYS + cell * n_pieces + piece)``
  (piece id as in the board; empty cells add nothing), kept incrementally by both back
  ends as pieces are put, moved, turned and taken;
* with ``board`` in a spec with stacks: one key per cell holding 2 or more pieces,
  ``derive_seed(zkey(HEIGHT_KEYS + cell), height)``;
* one key per covered counter and row (each player's row of a per-player counter, the
  game's row of a game counter), ``derive_seed(zkey(COUNTER_KEYS + counter * rows + row),
  value mod 2^64)``;
* with ``turn``: ``zkey(TURN_KEYS + p)`` for the player ``p`` to move (nothing for
  nobody);
* with ``hands``: one key per player and kind of piece, ``derive_seed(zkey(HAND_KEYS +
  player * n_kinds + kind), count)`` (pieces in hand that can come back into play, as
  drops do, are part of the position).

The keys come from SplitMix64 (``zkey(i) = derive_seed(HASH_SEED, i)``), so they are the
same on every machine and in both engines. The board part is the one kept incrementally
(it is what changes cell by cell); the turn, the heights and the few covered counters are
mixed in when a position is recorded or asked about.
"""

from __future__ import annotations

from dataclasses import dataclass

HASH_SEED = 0x6D69646761726463  # "midgardc": the seed of every position key
PIECE_KEYS = 0
HEIGHT_KEYS = 1 << 40
COUNTER_KEYS = 2 << 40
TURN_KEYS = 3 << 40
HAND_KEYS = 4 << 40
MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
#: The longest game (``game.max_plies``) a spec with a history may have: every state
#: carries its history (a hash per position reached), so the compiled state grows with it.
MAX_HISTORY_PLIES = 25_000


@dataclass(frozen=True)
class HistoryIR:
    """What a position is, for the history (``history: {position: [...]}``): the board
    (pieces, owners, kinds and, in a spec with stacks, heights), whose turn it is, and
    the listed counters (indices into ``GameIR.counters``). Recorded: the start position
    and the position after every move (after the turn has passed, before settling), so
    ``times_seen()`` of a position just reached counts itself."""

    board: bool
    turn: bool
    counters: tuple[int, ...] = ()
    hands: bool = False  # every player's count of every kind in hand


def _mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def derive(seed: int, index: int) -> int:
    """SplitMix64's ``derive_seed`` (as ``midgardc.runtime.rng``; kept here so the IR floor
    needs nothing above it)."""
    return _mix64((seed + (index + 1) * GOLDEN) & MASK)


def zkey(i: int) -> int:
    return derive(HASH_SEED, i)


def piece_key(cell: int, piece: int, n_pieces: int) -> int:
    """The key of piece id ``piece`` (>= 1) standing on ``cell``."""
    return zkey(PIECE_KEYS + cell * n_pieces + piece)


def height_key(cell: int, height: int) -> int:
    """The key of a stack of ``height`` (>= 2) pieces on ``cell``."""
    return derive(zkey(HEIGHT_KEYS + cell), height)


def counter_key(counter: int, row: int, rows: int, value: int) -> int:
    return derive(zkey(COUNTER_KEYS + counter * rows + row), value & MASK)


def hand_key(player: int, kind: int, n_kinds: int, count: int) -> int:
    """The key of ``count`` pieces of ``kind`` in ``player``'s hand."""
    return derive(zkey(HAND_KEYS + player * n_kinds + kind), count & MASK)


def turn_key(player: int) -> int:
    return zkey(TURN_KEYS + player) if player >= 0 else 0


def board_hash(board: list[int], n_cells: int, n_pieces: int) -> int:
    """The board part from scratch (what both engines keep incrementally)."""
    h = 0
    for c in range(n_cells):
        if board[c] > 0:
            h ^= piece_key(c, board[c], n_pieces)
    return h
