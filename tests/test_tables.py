"""Tables as data (``tables:``, tests/data/tables.yaml): a rule table keyed by a number
range, a kind or a player, read as ``name[key]``, in both back ends; and the positioned
errors of a table (a missing key, a wrong type, a key out of range)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ENGINES, assert_spec_error, get_game
from midgardc.runtime.game import replay
from midgardc.spec.lower import load_game_ir
from test_differential import check_games

TABLES = str(Path(__file__).parent / "data" / "tables.yaml")


def scores(state) -> list[int]:
    return [p["score"]["score"] for p in state.to_json()["players"]]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_ladder_by_a_number_range_and_a_worth_by_kind(engine) -> None:
    game = get_game(TABLES, None, engine)
    state = replay(game, ["a1", "b1", "a2"])  # red 2 stones, blue 1
    # ladder[2] = 3 plus 1 a stone; ladder[1] = 1 plus 1
    assert scores(state) == [3 + 2, 1 + 1]
    state = replay(game, ["a1", "b1", "tc1", "c2", "a2", "d2", "a3", "d3", "a4", "d4", "b2"])
    # 5 stones each (above the range: the default 15) + 5, and red's tower is worth 3
    assert scores(state) == [15 + 5 + 3, 15 + 5]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_table_of_players_gates_a_move(engine) -> None:
    game = get_game(TABLES, None, engine)
    towers = lambda state: [m.text for m in state.legal_moves() if m.text.startswith("t")]
    state = game.new_state()
    assert towers(state) == []  # red's rival, blue, has no stone
    state.apply("a1")
    assert "tc1" in towers(state)  # blue's rival, red, has one
    state.apply("tb1")  # a tower is not a stone: red, with a stone of its own, still may not build
    assert towers(state) == []


def test_tables_lower_to_constant_tables_with_the_default_first() -> None:
    ir = load_game_ir(TABLES)
    by_name = {a.name: a for a in ir.attributes}
    assert by_name["ladder"].table == (15, 0, 1, 3, 6, 10) and by_name["ladder"].keys == 5
    assert by_name["worth"].table == (0, 1, 3) and by_name["worth"].keys == 0
    assert by_name["rival"].table == (-1, 1, 0)


def test_both_engines_play_the_same_games() -> None:
    check_games(TABLES, None, 100, 31)


BASE = """midgardc: 1
game: {name: t, players: [red, blue]}
enums:
  suit: [hearts, spades]
pieces: {stone: {hand: 3}}
board: {topology: square, rows: 2, cols: 2}
tables:
  TABLES
actions:
  put:
    params: {c: cell}
    where: WHERE
    effects: [{place: {piece: stone, at: c}}]
ranking: {score: "count(x in cells: owner(x) == p)"}
"""


@pytest.mark.parametrize(
    "tables, where, message, line, col",
    [
        ("pts: {key: 0..3, values: [0, 1, 3]}", "empty(c)", "table 'pts' has 4 keys (0 to 3) but 3 values", 8, 28),
        ("pts: {key: suit, values: {hearts: 2}}", "empty(c)", "table 'pts' gives no value for spades", 8, 28),
        ("pts: {key: suit, values: {hearts: 2, clubs: 1}}", "empty(c)", "'clubs' is not a key of table 'pts'", 8, 40),
        ("pts: {key: suit, values: {hearts: 2, spades: red}}", "empty(c)", "expected a number here, but this is a player", 8, 48),
        ("pts: {key: cells, values: [1]}", "empty(c)", "unknown type 'cells'", 8, 14),
        ("pts: {key: 3..1, values: [1]}", "empty(c)", "the key range 3..1 of table 'pts'", 8, 14),
        ("pts: {key: 0..3, values: [0, 1, 3, 6]}", '"pts[4] > 0"', "4 is outside the keys of table 'pts' (0..3)", 12, 17),
        ("pts: {key: 0..3, values: [0, 1, 3, 6]}", '"pts[hearts] > 0"', "the key of table 'pts' must be a number, got a suit value", 12, 17),
        ("pts: {key: suit, values: [0, 1]}", '"pts[c] > 0"', "the key of table 'pts' must be a suit value, got a cell", 12, 17),
        ("pts: {key: 0..3, values: [0, 1, 3, 6]}", '"pts(1) > 0"', "'pts' is a table: read an entry with brackets, pts[...]", 12, 13),
        ("pts: {key: 0..3, values: [0, 1, 3, 6]}", '"pts[1, 2] > 0"', "table 'pts' takes 1 key: pts[KEY]", 12, 13),
        ("stone: {key: 0..3, values: [0, 1, 3, 6]}", "empty(c)", "'stone' is already a name in this spec", 8, 3),
    ],
)
def test_table_errors(tmp_path, tables, where, message, line, col) -> None:
    assert_spec_error(tmp_path, BASE.replace("TABLES", tables).replace("WHERE", where), message, line, col)
