"""Pieces that say how they move (``steps``, ``slides``, ``leaps``, ``to_empty``,
``to_capture``, ``also``, ``moves_as`` on ``pieces:``): the definitions made from them
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
    # and north-east for north, the ferz's (1, 1) leap and its also, two cells north to an
    # empty cell; the others are boxed in
    state = get_game(SPEC).new_state()
    assert _texts(state) == sorted("a2a3 b2b3 c2c3 d2e3 e2f3 f2e3 f2f4 b1a3 b1c3 d1c3 d1e3".split())


def test_each_kind_from_a_position():
    game = get_game(SPEC)
    state = game.new_state()
    for text in ["a2a3", "c5b4"]:
        state.apply(game.move_id(text))
    # north: the pawn on a3 steps to the empty a4 and captures diagonally forward on b4
    # (not onto the empty b3's diagonal), the rook follows up the a-file, and the ferz on
    # b4 may be shot: the pawn attacks it
    assert _texts(state) == sorted("a3a4 a3b4 b2b3 c2c3 d2e3 e2f3 f2e3 f2f4 a1a2 b1c3 d1c3 d1e3 xb4".split())
    state.apply(game.move_id("b1c3"))
    # south: b6's tower goes north and east only (off the board, onto its own hopper) and
    # steps diagonally only onto an empty square (c5, not its own crab on a5); the hopper
    # one forward (south) then diagonally, jumping c5; the gold as a crab east and
    # south-east for south; the lance is blocked; the ferz leaps (1, 1), capturing the
    # pawn on a3 and the knight on c3, which it attacks
    assert _texts(state) == sorted("b6c5 c6d4 d6c5 e6c5 e6d4 e6f4 b5c5 b5c4 d5d4 e5e4 f5f4 b4c5 b4a3 b4c3 xa3 xc3".split())


def test_also_adds_the_moves_it_says_to_the_kind_and_its_moves_as():
    # the crab's also (retreats: one cell west, onto an empty cell) once c2 is empty; the
    # gold moves as the crab, its also included, once the crab has left d2
    game = get_game(SPEC)
    state = game.new_state()
    for text in ["c2c3", "e5e4"]:
        state.apply(game.move_id(text))
    assert "d2c2" in _texts(state) and "e2d2" not in _texts(state)
    for text in ["d2c2", "f5f4"]:
        state.apply(game.move_id(text))
    assert "e2d2" in _texts(state)


def test_an_also_move_attacks_nothing(tmp_path):
    # an also move that lands on a piece captures it (the spec said it may), but it is no
    # attack: attacked_by reads the steps, slides and leaps only (castling, en passant)
    path = tmp_path / "also.yaml"
    path.write_text(HEAD + """pieces:
  king: {steps: orthogonal, also: "t == hop(f, n)"}
setup:
  - {piece: king, owner: a, cells: [a1]}
  - {piece: king, owner: b, cells: [a3]}
actions:
  move:
    moves: "not mine(t) and reaches(f, t)"
    notation: "{f}{t}"
  shoot:
    params: {c: cell}
    where: "foe(c) and attacked_by(c, mover)"
    effects:
      - remove: {at: c}
    notation: "x{c}"
ranking:
  n: "count(x in cells: owner(x) == p)"
""", encoding="utf-8")
    for engine in ("interpreted", "compiled"):
        assert _texts(get_game(str(path), None, engine).new_state()) == ["a1a2", "a1a3", "a1b1"]


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
    ("pieces:\n  king: {steps: orthogonal, also: castles}\n", "piece 'king': also names a definition (cell f, cell t)", 5, 35),
    ("pieces:\n  king: {steps: orthogonal, also: two}\ndefine:\n  two(cell f): empty(f)\n", "'two' takes (cell), not (cell, cell)", 5, 35),
    ("pieces:\n  king: {steps: orthogonal, also: num}\ndefine:\n  num(cell f, cell t): \"count(x in cells: x == t)\"\n", "'num' gives a number, not a condition", 5, 35),
    ("pieces:\n  king: {steps: orthogonal, also: \"count(x in cells: x == t)\"}\n", "expected a condition here", 5, 36),
    ("pieces:\n  king: {steps: orthogonal, also: \"empty(t) and tt == f\"}\n", "unknown name 'tt'", 5, 49),
    ("pieces:\n  king: {steps: orthogonal, also: jump}\ndefine:\n  all_go: \"any f in cells: any t in cells: reaches(f, t)\"\n"
     "  jump(cell f, cell t): empty(t)\n", "'jump' is defined below the first definition that calls reaches", 5, 35),
    ("pieces:\n  king: {steps: orthogonal, to_empty: {also: empty(t)}}\n", "to_empty holds the moves it allows", 5, 39),
    ("pieces:\n  king: {moves_as: rook, also: empty(t)}\n  rook: {slides: orthogonal}\n", "moves_as says it moves as another kind", 5, 10),
])
def test_mistakes_are_errors_at_the_piece(tmp_path, pieces, message, line, col):
    assert_spec_error(tmp_path, HEAD + pieces + TAIL, message, line, col)


def test_an_also_that_nothing_reads_is_an_error(tmp_path):
    # also adds to reaches(f, t): a spec that never calls it (or defines it itself) would
    # silently drop the moves
    text = HEAD + "pieces:\n  king: {steps: orthogonal, also: empty(t)}\n" + TAIL.replace("reaches(f, t)", "empty(t)")
    assert_spec_error(tmp_path, text, "piece 'king': also adds moves to reaches(f, t), but this spec never calls reaches", 5, 35)
    own = TAIL.replace("actions:", "define:\n  reaches(cell f, cell t): empty(t)\nactions:")
    assert_spec_error(tmp_path, HEAD + "pieces:\n  king: {steps: orthogonal, also: empty(t)}\n" + own, "but this spec defines reaches itself", 5, 35)
