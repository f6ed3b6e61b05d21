"""A kind's ``promotes`` with a list of kinds (the mover chooses the new kind as part of
the move, midgardc/spec/promotion.py) on a small spec of its own,
tests/data/promotion_choice.yaml, in both back ends (chess and crazyhouse are the other
uses: tests/test_chess.py, tests/test_crazyhouse.py): the moves listed and their order,
the piece a promotion leaves, a trigger after the moving action running after a
promotion too, the lowering into two actions, and the errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ENGINES, assert_spec_error, get_game, played
from midgardc.runtime.game import perft
from midgardc.spec.lower import load_game_ir
from test_differential import check_games

SPEC = str(Path(__file__).parent / "data" / "promotion_choice.yaml")


@pytest.fixture(params=ENGINES)
def game(request):
    return get_game(SPEC, None, request.param)


def test_the_choices_come_after_the_other_moves_in_the_pieces_order(game):
    # red's b pawn takes on a3 and faces an empty a4, beside blue's b4
    state = played(game, ["b1b2", "a4a3", "b2a3", "d4d3", "c1c2", "d3c2"])
    texts = [m.text for m in state.legal_moves()]
    assert "a3a4" not in texts
    promotions = [t for t in texts if len(t) == 5]
    # after the other moves, the kind outermost (knight before rook: the pieces' order),
    # as the move ids go
    assert promotions == ["a3a4n", "a3b4n", "a3a4r", "a3b4r"]
    assert texts[-4:] == promotions


def test_a_promotion_leaves_the_chosen_piece_and_counts_as_a_move(game):
    state = played(game, ["b1b2", "a4a3", "b2a3", "d4d3", "c1c2", "d3c2"])
    before = state.to_json()["counters"]["moves"]
    state.apply("a3a4n")
    after = state.to_json()
    assert after["kinds"]["a4"] == "knight" and after["board"]["a4"] == "red" and after["board"]["a3"] is None
    assert after["counters"]["moves"] == before + 1  # the trigger after 'move' ran after it
    # the knight leaps at once on red's next turn (b2 is empty: a4-b2)
    state.apply("c2c1r")  # blue promotes too, to a rook
    assert state.to_json()["kinds"]["c1"] == "rook"
    assert "a4b2" in {m.text for m in state.legal_moves()}


def test_it_lowers_to_the_move_and_a_promotion_action():
    ir = load_game_ir(SPEC)
    assert [(a.name, [p.name for p in a.params], a.base, a.size) for a in ir.actions] == [
        ("move", ["f", "t"], 0, 256), ("move_promote", ["k", "f", "t"], 256, 3 * 256)]


def test_both_engines_count_and_play_the_same():
    interp, comp = (get_game(SPEC, None, e) for e in ENGINES)
    assert [perft(interp.new_state(), d) for d in (1, 2, 3, 4, 5)] == [perft(comp.new_state(), d) for d in (1, 2, 3, 4, 5)]
    check_games(SPEC, None, 200, 5)


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
GO = "  go:\n    moves: \"true\"\n"


@pytest.mark.parametrize("pawn, actions, message, line, col", [
    ('{promotes: {to: [queen, rook], where: "true"}}', GO, "piece 'pawn' promotes to 'rook', which is not another kind of piece", 4, 33),
    ('{promotes: {to: [queen, pawn], where: "true"}}', GO, "piece 'pawn' promotes to 'pawn', which is not another kind of piece", 4, 33),
    ('{promotes: {to: [queen, queen], where: "true"}}', GO, "piece 'pawn' lists 'queen' twice", 4, 33),
    ('{promotes: {to: [], where: "true"}}', GO, "piece 'pawn' promotes to an empty list", 4, 25),
    ('{promotes: {to: queen, where: "true", becomes: pawn}}', GO, "'becomes' of piece 'pawn' says what a chosen kind becomes", 4, 47),
    ('{promotes: {to: [queen], where: "true"}}', "  go:\n    params: {t: cell}\n", "piece 'pawn' promotes as part of a move, but no action has the cells 'f' and 't'", 4, 20),
    ('{promotes: {to: [queen], where: "true"}}', "  go:\n    params: {f: cell, t: cell, k: kind}\n    notation: '{f}{t}{k}'\n",
     "action 'go' has one already", 4, 20),
    ('{promotes: {to: [queen], where: "true"}}', GO + "  go_promote:\n    params: {c: cell}\n",
     "piece 'pawn' promotes by choice in an action 'go_promote', but there is one already", 4, 20),
])
def test_misuse_is_an_error_with_its_place(tmp_path, pawn, actions, message, line, col):
    assert_spec_error(tmp_path, HEAD.replace("PAWN", pawn).replace("ACTIONS\n", actions), message, line, col)


def test_two_kinds_promoting_by_choice_is_an_error(tmp_path):
    text = HEAD.replace("PAWN", '{promotes: {to: [queen], where: "true"}}').replace("  queen: {}", '  queen: {promotes: {to: [pawn], where: "true"}}').replace("ACTIONS\n", GO)
    assert_spec_error(tmp_path, text, "pieces 'pawn' and 'queen' both promote to a kind the mover chooses", 5, 21)
