"""Pieces that say how they move (``steps``, ``slides``, ``leaps``, ``to_empty``,
``to_capture``, ``moves_as`` on ``pieces:``): the definitions made from them
(``reaches``, ``attacked_by``) mean what the rules say, in both back ends, and a mistake
is an error at the piece. Chess and Shogi use them (their perft and rule tests); this is
the small spec that tries every kind of move and set (tests/data/piece_moves.yaml)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import assert_spec_error, get_game
from midgardc.ir.nodes import NOBODY
from midgardc.runtime.interpreter import random_move
from midgardc.runtime.rng import Rng, derive_seed

SPEC = str(Path(__file__).parent / "data" / "piece_moves.yaml")
SEED = 20_261_127


def _texts(state) -> list[str]:
    return sorted(state.move_text(m) for m in state.legal_move_ids())


def test_the_start_moves_are_the_rules():
    # the knight's (1, 2) leaps, the hopper's forward-then-diagonal path jumping its own
    # crab, the pawns' steps to empty squares, the crab (and the gold, moving as it) east
    # and north-east for north, the ferz's (1, 1) leap; the others are boxed in
    state = get_game(SPEC).new_state()
    assert _texts(state) == sorted("a2a3 b2b3 c2c3 d2e3 e2f3 f2e3 b1a3 b1c3 d1c3 d1e3".split())


def test_each_kind_from_a_position():
    game = get_game(SPEC)
    state = game.new_state()
    for text in ["a2a3", "c5b4"]:
        state.apply(game.move_id(text))
    # north: the pawn on a3 steps to the empty a4 and captures diagonally forward on b4
    # (not onto the empty b3's diagonal), the rook follows up the a-file, and the ferz on
    # b4 may be shot: the pawn attacks it
    assert _texts(state) == sorted("a3a4 a3b4 b2b3 c2c3 d2e3 e2f3 f2e3 a1a2 b1c3 d1c3 d1e3 xb4".split())
    state.apply(game.move_id("b1c3"))
    # south: b6's tower goes north and east only (off the board, onto its own hopper) and
    # steps diagonally only onto an empty square (c5, not its own crab on a5); the hopper
    # one forward (south) then diagonally, jumping c5; the gold as a crab east and
    # south-east for south; the lance is blocked; the ferz leaps (1, 1), capturing the
    # pawn on a3 and the knight on c3, which it attacks
    assert _texts(state) == sorted("b6c5 c6d4 d6c5 e6c5 e6d4 e6f4 b5c5 b5c4 d5d4 e5e4 f5f4 b4c5 b4a3 b4c3 xa3 xc3".split())


def test_shooting_is_exactly_capturing():
    # attacked_by(x, mover) holds on an opponent's piece exactly where some move of the
    # mover's (reaches, not onto its own pieces) captures it, in every position of random
    # games
    game = get_game(SPEC)
    names = game.ir.board.cell_names
    for i in range(20):
        state = game.new_state()
        rng = Rng(derive_seed(SEED, i))
        while not state.is_terminal():
            moves = [state.move_text(m) for m in state.legal_move_ids()]
            foes = {names[c] for c in range(len(names)) if state.core._owner(c) not in (NOBODY, state.current_player())}
            assert {m[1:] for m in moves if m.startswith("x")} == {m[2:] for m in moves if not m.startswith("x")} & foes
            state.core.apply(random_move(state.core, rng))


def test_both_engines_play_the_same_games():
    interp, comp = get_game(SPEC).engine, get_game(SPEC, None, "compiled").engine
    for i in range(30):
        seed = derive_seed(SEED, i)
        core, rng, moves = interp.new_core(seed), Rng(seed), []
        while not core.terminal:
            move = random_move(core, rng)
            core.apply(move)
            moves.append(move)
        assert comp.playout_trace(seed) == moves


HEAD = """midgardc: 1
game: {name: t, players: [a, b]}
board: {topology: square, size: 4}
"""
TAIL = """actions:
  move:
    moves: "reaches(f, t)"
ranking:
  n: "count(x in cells: owner(x) == p)"
"""


@pytest.mark.parametrize("pieces, message, line, col", [
    ("pieces:\n  rook: {slides: orthogonl}\n", "piece 'rook': slides names a direction set of this board", 5, 18),
    ("pieces:\n  knight: {leaps: [1]}\n", "piece 'knight': leaps: [1, 2]", 5, 19),
    ("pieces:\n  knight: {leaps: [1, 9]}\n", "a leap by numbers is two numbers from 0 to 8", 5, 19),
    ("pieces:\n  tokin: {moves_as: gold}\n", "piece 'tokin': moves_as names a kind that says its own moves", 5, 21),
    ("pieces:\n  tokin: {steps: orthogonal, moves_as: king}\n", "moves_as says it moves as another kind", 5, 30),
    ("pieces:\n  pawn: {to_empty: {hand: 2}}\n", "piece 'pawn': to_empty holds the moves it allows", 5, 20),
])
def test_mistakes_are_errors_at_the_piece(tmp_path, pieces, message, line, col):
    assert_spec_error(tmp_path, HEAD + pieces + TAIL, message, line, col)
