"""The direction shapes ``steps:`` and ``hops:``, ``compulsory: true`` and a kind's
``promotes:`` on a small spec of their own, tests/data/hop_shapes.yaml, in both back ends
(English and international draughts are the other uses: tests/test_draughts.py,
tests/test_international_draughts.py): the moves each lists, the piece a hop takes, the
priority of a compulsory action, the promotion and where it comes from, the test
"has a legal move" without a loop over the target cells, and the errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ENGINES, assert_spec_error, get_game, played
from midgardc.ir.nodes import Quant
from midgardc.runtime.game import perft
from midgardc.spec.blocks import _walk
from midgardc.spec.lower import load_game_ir
from test_differential import check_games

SPEC = str(Path(__file__).parent / "data" / "hop_shapes.yaml")


@pytest.fixture(params=ENGINES)
def game(request):
    return get_game(SPEC, None, request.param)


def test_a_pawn_steps_forward_only(game):
    assert [m.text for m in game.new_state().legal_moves()] == ["a1-a2", "b1-b2", "c1-c2", "d1-d2", "e1-e2"]


def test_a_hop_takes_the_piece_and_is_compulsory(game):
    state = played(game, ["c1-c2", "c5-c4", "c2-c3"])
    # blue's c4 faces red's c3 with c2 empty behind it: the hop is the only move
    assert [m.text for m in state.legal_moves()] == ["c4xc2"]
    state.apply("c4xc2")
    board = state.to_json()["board"]
    assert board["c3"] is None and board["c4"] is None and board["c2"] == "blue"


def test_a_pawn_on_the_far_row_becomes_a_queen_from_the_hand(game):
    state = played(game, ["c1-c2", "c5-c4", "c2-c3", "c4xc2", "b1-b2", "c2-c1"])
    assert state.to_json()["kinds"]["c1"] == "queen"
    hands = {p["name"]: p["hand"] for p in state.to_json()["players"]}
    assert hands["blue"]["queen"] == 1 and hands["red"]["queen"] == 2
    # a queen steps in every orthogonal direction (here back up the c file and onto b1)
    state.apply("a1-a2")
    assert {m.text for m in state.legal_moves() if m.text.startswith("c1")} == {"c1-b1", "c1-c2"}


def test_both_engines_count_and_play_the_same():
    interp, comp = (get_game(SPEC, None, e) for e in ENGINES)
    assert [perft(interp.new_state(), d) for d in (1, 2, 3, 4)] == [perft(comp.new_state(), d) for d in (1, 2, 3, 4)]
    check_games(SPEC, None, 100, 11)


def test_has_a_hop_is_tested_without_a_loop_over_targets():
    ir = load_game_ir(SPEC)
    step = ir.actions[0]
    loops = [n.var for n in _walk(step.where) if isinstance(n, Quant)]
    assert loops == ["d", "f", "d"]   # its own direction, then the hop's piece and direction: no 't'


HEAD = """midgardc: 1
game: {name: t, players: [red, blue]}
pieces:
  pawn: PAWN
  queen: {}
board: {topology: square, size: 3}
actions:
ACTIONS
ranking:
  n: 0
"""


@pytest.mark.parametrize("pawn, actions, message, line, col", [
    ('{promotes: {to: rook, where: "true"}}', "  go:\n    steps: \"true\"\n", "piece 'pawn' promotes to 'rook', which is not another kind of piece", 4, 25),
    ('{promotes: {to: queen, where: "true"}}', "  go:\n    params: {c: cell}\n", "piece 'pawn' promotes where a move ends, but no action has a destination cell 't'", 4, 20),
    ('{promotes: {to: queen}}', "  go:\n    steps: \"true\"\n", "'promotes' of piece 'pawn' needs a 'where' key", 4, 20),
    ("{}", "  go:\n    params: {k: kind}\n    compulsory: true\n  stay: {}\n", "'compulsory' needs parameters of type cell, dir, player or a range", 10, 17),
    ("{}", "  go:\n    steps: \"true\"\n    compulsory: yes please\n", "compulsory (true or false)", 10, 17),
    ("{}", "  go:\n    hops: \"t == f\"\n    params: {f: cell}\n", "an action with 'hops' has the parameters f, t: remove 'params'", 10, 13),
    ("{}", "  go:\n    steps: \"true\"\n    compulsory: true\nphases:\n  playing: {actions: [go]}\n", "'compulsory' cannot be used with phases yet", 10, 17),
])
def test_misuse_is_an_error_with_its_place(tmp_path, pawn, actions, message, line, col):
    assert_spec_error(tmp_path, HEAD.replace("PAWN", pawn).replace("ACTIONS\n", actions), message, line, col)
