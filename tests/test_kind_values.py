"""Piece kinds as values (issue 27 item 1, part): ``place.piece`` takes any expression of
type kind (a kind parameter, an attribute of type kind), and a kind parameter is written
in moves by the pieces' ``notation``. Chess's promotion is one such action (its perft and
python-chess tests in test_chess.py are unchanged); here a small spec shows both back ends
place the kind the move names, and mistakes are positioned errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import assert_spec_error
from midgardc.engines import load
from midgardc.runtime.game import perft

# Each player in turn drops a lion or a hare from the hand on an empty cell, or turns its
# own piece on a cell into the other kind (an attribute of type kind says which; the new
# piece comes from the hand and the old one leaves the game).
SPEC = """midgardc: 1
game: {name: kinds, players: [red, blue], max_plies: 6}
pieces:
  lion: {hand: 2, notation: L}
  hare: {hand: 2, notation: H}
board: {topology: square, rows: 2, cols: 2}
attributes:
  other: {of: kind, type: kind, values: {lion: hare, hare: lion}}
actions:
  drop:
    params: {k: kind, c: cell}
    where: "empty(c)"
    effects:
      - place: {piece: k, at: c}
    notation: "{k}@{c}"
  turn:
    params: {c: cell}
    where: "owner(c) == mover and hand(mover, other(kind_at(c))) > 0"
    effects:
      - place: {piece: "other(kind_at(c))", at: c}   # (the piece it replaces leaves the game)
    notation: "turn-{c}"
ranking:
  won: "count(c in cells: owner(c) == p and kind_at(c) == lion)"
"""


@pytest.fixture(scope="module")
def spec(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("kinds") / "kinds.yaml"
    path.write_text(SPEC, encoding="utf-8")
    return path


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_the_kind_a_move_names_is_placed(spec, engine):
    state = load(str(spec), None, engine=engine).new_state()
    assert sorted(m.text for m in state.legal_moves()) == sorted(f"{k}@{c}" for k in "LH" for c in ("a1", "a2", "b1", "b2"))
    state.apply("H@a1")
    state.apply("L@b2")
    state.apply("turn-a1")        # red's hare on a1 becomes a lion from red's hand
    json = state.to_json()
    assert json["board"]["a1"] == "red" and json["board"]["b2"] == "blue"
    assert json["kinds"] == {"a1": "lion", "b2": "lion"}
    assert [p["hand"] for p in json["players"]] == [{"lion": 1, "hare": 1}, {"lion": 1, "hare": 2}]


def test_both_back_ends_count_the_same_moves(spec):
    interpreted = perft(load(str(spec), None, engine="interpreted").new_state(), 4)
    assert interpreted == load(str(spec), None, engine="compiled").engine.perft(4) and interpreted > 0


BROKEN = [
    ("      - place: {piece: k, at: c}", "      - place: {piece: c, at: c}", "expected a piece kind here, but this is a cell", 14, 24),
    ("      - place: {piece: k, at: c}", "      - place: {piece: lyon, at: c}", "unknown piece kind 'lyon'", 14, 24),
    ("  hare: {hand: 2, notation: H}", "  hare: {hand: 2, notation: L}", "notation 'L' must be non-empty", 5, 29),
]


@pytest.mark.parametrize("old,new,message,line,col", BROKEN, ids=[b[2][:30] for b in BROKEN])
def test_mistakes_are_positioned_errors(tmp_path, old, new, message, line, col):
    assert old in SPEC
    assert_spec_error(tmp_path, SPEC.replace(old, new, 1), message, line, col)
