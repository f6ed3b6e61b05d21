"""Pieces that change (issue 27 item 5): ``convert`` changes a piece's kind and/or owner
where it stands; ``move`` with ``capture: captor`` and ``remove`` with ``to: captor`` put
the piece taken into the mover's hand (it changes side), as its kind's ``base`` (a
promoted piece goes back as what it was); a drop from that hand is an ordinary action with
a kind parameter; ``history: {position: [..., hands]}`` makes the pieces in hand part of a
position. Both back ends, one meaning; mistakes are positioned errors. Crazyhouse
(tests/test_crazyhouse.py) is the whole game written this way."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import assert_spec_error
from midgardc.engines import load
from midgardc.errors import SpecError
from midgardc.ir.position import PositionTextError
from midgardc.runtime.game import perft
from midgardc.spec.lower import load_game_ir

# Each player starts with a soldier in hand. A move drops a piece from the hand, takes a
# piece with one's own (the piece taken joins the taker's hand, a general as a soldier),
# promotes one's soldier to a general, wins over the opponent's piece where it stands, or
# banishes a piece into one's hand. A position seen a third time ends the game.
SPEC = """midgardc: 1
game: {name: turncoats, players: [red, blue], max_plies: 8}
pieces:
  soldier: {hand: 1, notation: S}
  general: {base: soldier, notation: G}
board: {topology: square, rows: 2, cols: 2}
history:
  position: [board, turn, hands]
actions:
  drop:
    params: {k: kind, c: cell}
    where: "empty(c)"
    effects:
      - place: {piece: k, at: c}
    notation: "{k}@{c}"
  take:
    params: {f: cell, t: cell}
    where: "owner(f) == mover and occupied(t) and owner(t) != mover"
    effects:
      - move: {from: f, to: t, capture: captor}
    notation: "{f}x{t}"
  promote:
    params: {c: cell}
    where: "owner(c) == mover and kind_at(c) == soldier"
    effects:
      - convert: {at: c, piece: general}
    notation: "{c}="
  win_over:
    params: {c: cell}
    where: "occupied(c) and owner(c) != mover and kind_at(c) == soldier"
    effects:
      - convert: {at: c, owner: mover}
    notation: "{c}!"
  banish:
    params: {c: cell}
    where: "occupied(c) and owner(c) != mover and kind_at(c) == general"
    effects:
      - remove: {at: c, to: captor}
    notation: "{c}^"
end:
  when: ["times_seen() >= 3"]
ranking:
  pieces: "count(c in cells: owner(c) == p) + hand(p, soldier)"
position:
  fields:
    - board: {rows: "/", hand: "[]", pieces: {S: [red, soldier], G~: [red, general], s: [blue, soldier], g~: [blue, general]}}
    - turn: {letters: {r: red, b: blue}}
"""


@pytest.fixture(scope="module")
def spec(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("turncoats") / "turncoats.yaml"
    path.write_text(SPEC, encoding="utf-8")
    return path


def board(state) -> dict:
    return {c: p for c, p in state.to_json()["board"].items() if p is not None}


def hands(state) -> list:
    return [p["hand"] for p in state.to_json()["players"]]


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_convert_changes_kind_and_owner_in_place(spec, engine):
    state = load(str(spec), None, engine=engine).new_state()
    for move in ("S@a1", "S@b2", "a1="):   # red's soldier on a1 becomes a general
        state.apply(move)
    assert board(state) == {"a1": "red", "b2": "blue"} and state.to_json()["kinds"] == {"a1": "general", "b2": "soldier"}
    assert hands(state) == [{"soldier": 0, "general": 0}, {"soldier": 0, "general": 0}]  # (hands do not change)
    state.apply("a1^")                     # blue banishes red's general: into blue's hand, as a soldier
    assert board(state) == {"b2": "blue"}
    assert hands(state) == [{"soldier": 0, "general": 0}, {"soldier": 1, "general": 0}]
    state.apply("b2!")                     # red wins blue's soldier over where it stands
    assert board(state) == {"b2": "red"} and state.to_json()["kinds"] == {"b2": "soldier"}


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_a_captured_piece_joins_the_captors_hand_as_its_base(spec, engine):
    state = load(str(spec), None, engine=engine).new_state()
    for move in ("S@a1", "S@b2", "a1=", "b2xa1"):   # blue takes red's general
        state.apply(move)
    assert board(state) == {"a1": "blue"}
    assert hands(state) == [{"soldier": 0, "general": 0}, {"soldier": 1, "general": 0}]
    assert sorted(m.text for m in state.legal_moves()) == ["a1!"]  # red's hand is empty: no drop


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_the_pieces_in_hand_are_part_of_a_position(spec, tmp_path, engine):
    # red's soldier alone on a2 with blue to move comes three times (plies 1, 5 and 7),
    # the first time with blue holding the other soldier, then with red holding it: three
    # times the same board and turn, twice the same position
    moves = ("S@a2", "S@b2", "b2!", "a2!", "b2xa2", "a2!", "a2!")
    state = load(str(spec), None, engine=engine).new_state()
    for move in moves:
        state.apply(move)
    assert board(state) == {"a2": "red"} and hands(state)[0]["soldier"] == 1
    assert not state.is_terminal()
    board_only = tmp_path / "board_only.yaml"
    board_only.write_text(SPEC.replace("[board, turn, hands]", "[board, turn]"), encoding="utf-8")
    state = load(str(board_only), None, engine=engine).new_state()
    for move in moves:
        state.apply(move)
    assert state.is_terminal()


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_a_position_text_gives_the_pieces_in_hand_and_marked_letters(spec, engine):
    # '[...]' after the rows says every hand (one letter per piece); G~ is a general
    game = load(str(spec), None, engine=engine)
    state = game.state_at("G~1/1s[SSs] b")
    assert board(state) == {"a2": "red", "b1": "blue"} and state.to_json()["kinds"] == {"a2": "general", "b1": "soldier"}
    assert hands(state) == [{"soldier": 2, "general": 0}, {"soldier": 1, "general": 0}]
    assert hands(game.state_at("2/2 r")) == [{"soldier": 1, "general": 0}, {"soldier": 1, "general": 0}]  # (no '[...]': the start's)
    with pytest.raises(PositionTextError, match=r"field 1 \(board\), character 9 'x': not a piece letter \(.*\) in hand"):
        game.state_at("G~1/1s[Sx] b")


def test_both_back_ends_count_the_same_moves(spec):
    interpreted = perft(load(str(spec), None, engine="interpreted").new_state(), 6)
    assert interpreted == load(str(spec), None, engine="compiled").engine.perft(6) and interpreted > 100


BROKEN = [
    ("      - convert: {at: c, piece: general}", "      - convert: {at: c}", "convert changes the piece on a cell: give its new kind", 26, 18),
    ("      - convert: {at: c, piece: general}", "      - convert: {at: c, piece: colonel}", "unknown piece kind 'colonel'", 26, 33),
    ("      - convert: {at: c, owner: mover}", "      - convert: {at: c, owner: c}", "expected a player here, but this is a cell", 32, 33),
    ("      - move: {from: f, to: t, capture: captor}", "      - move: {from: f, to: t, capture: taker}", "move.capture is 'remove'", 20, 41),
    ("      - remove: {at: c, to: captor}", "      - remove: {at: c, to: taker}", "remove.to is 'hand'", 38, 29),
    ("  general: {base: soldier, notation: G}", "  general: {base: sergeant, notation: G}", "unknown piece kind 'sergeant'", 5, 19),
    ("  position: [board, turn, hands]", "  position: [board, turn, hand]", "unknown part of a position 'hand'", 8, 27),
    ('rows: "/", hand: "[]"', 'rows: "/", hand: "["', "the board field's 'hand' is the two characters", 46, 32),
    ('rows: "/", hand: "[]"', 'rows: "/", hand: "S]"', "the board field's 'hand' is the two characters", 46, 32),
    ("G~: [red, general]", "G~~~: [red, general]", "a letter of a position is one character", 46, 66),
]


@pytest.mark.parametrize("old,new,message,line,col", BROKEN, ids=[b[2][:30] for b in BROKEN])
def test_mistakes_are_positioned_errors(tmp_path, old, new, message, line, col):
    assert old in SPEC
    assert_spec_error(tmp_path, SPEC.replace(old, new, 1), message, line, col)


def test_a_base_with_a_base_of_its_own_is_refused(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text(SPEC.replace("  soldier: {hand: 1, notation: S}", "  soldier: {hand: 1, notation: S, base: general}", 1), encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_game_ir(str(path), None)
    assert "has a base of its own" in str(info.value) and "broken.yaml:" in str(info.value)
