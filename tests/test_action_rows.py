"""Action rows (``columns:`` and ``rows:`` of an action, tests/data/action_rows.yaml): a
rule table written once as an action and once as data, each row a move of its own. The
rows play exactly as the same actions written out by hand (same move ids, texts and
games), both back ends agree, and a broken table is refused at its place."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from conftest import assert_spec_error, get_game
from midgardc.engines import load
from midgardc.runtime.game import replay
from midgardc.spec.lower import load_game_ir
from test_differential import check_games

ROWS = str(Path(__file__).parent / "data" / "action_rows.yaml")

# tests/data/action_rows.yaml with every row written out as an action of its own
BY_HAND = """midgardc: 1
game: {name: action-rows, players: [red, blue], max_plies: 12}
enums: {good: [grain, wool, ore]}
counters: {coins: 6, points: 0, stock: {index: good}}
board: {topology: graph, nodes: [market]}
actions:
  wait: {effects: [{add: {counter: coins, to: 1}}]}
  buy_grain:
    where: "coins(mover) >= 1"
    effects: [{add: {counter: coins, to: -1}}, {add: {counter: "stock[mover, grain]", to: 1}}]
  buy_wool:
    where: "coins(mover) >= 2"
    effects: [{add: {counter: coins, to: -2}}, {add: {counter: "stock[mover, wool]", to: 1}}, {add: {counter: points, to: 1}}]
  buy_ore:
    where: "coins(mover) >= 4"
    effects: [{add: {counter: coins, to: -4}}, {add: {counter: "stock[mover, ore]", to: 1}}, {add: {counter: "stock[mover, grain]", to: 1}}, {add: {counter: points, to: 2}}]
  sell_grain:
    params: {n: "1..2"}
    where: "stock[mover, grain] >= n"
    effects: [{add: {counter: "stock[mover, grain]", to: "-n"}}, {add: {counter: coins, to: n}}]
    notation: "sell_grain:{n}"
  sell_wool:
    params: {n: "1..2"}
    where: "stock[mover, wool] >= n"
    effects: [{add: {counter: "stock[mover, wool]", to: "-n"}}, {add: {counter: coins, to: "2 * n"}}]
    notation: "sell_wool:{n}"
  sell_ore:
    params: {k: "1..3"}
    where: "stock[mover, ore] >= 1"
    effects: [{add: {counter: "stock[mover, ore]", to: -1}}, {add: {counter: coins, to: "k + 2"}}]
    notation: "ore{k}"
ranking: {points: "points(p)", coins: "coins(p)"}
"""


def games(game, n: int) -> list[list[tuple[int, str, dict]]]:
    """``n`` random games: every move's id and text and the state after it."""
    out = []
    for seed in range(n):
        state, rng, trace = game.new_state(seed), random.Random(seed), []
        while not state.is_terminal():
            move = rng.choice(state.legal_move_ids())
            trace.append((move, state.move_text(move)))
            state.apply(move)
            trace.append(state.to_json()["players"])
        out.append(trace)
    return out


def test_each_row_is_an_action_named_by_the_row_in_order() -> None:
    ir = load_game_ir(ROWS)
    assert [(a.name, a.base, a.size) for a in ir.actions] == [
        ("wait", 0, 1), ("buy_grain", 1, 1), ("buy_wool", 2, 1), ("buy_ore", 3, 1),
        ("sell_grain", 4, 2), ("sell_wool", 6, 2), ("sell_ore", 8, 3)]


def test_rows_play_as_the_actions_written_out(tmp_path) -> None:
    hand = tmp_path / "by_hand.yaml"
    hand.write_text(BY_HAND, encoding="utf-8")
    rows, written = load(ROWS, engine="interpreted"), load(str(hand), engine="interpreted")
    assert games(rows, 30) == games(written, 30)


def test_a_row_of_a_left_out_column_and_a_row_parameter() -> None:
    game = get_game(ROWS, None, "interpreted")
    # red buys ore (4 coins: 2 points, an ore and, from the extra column, a grain); blue
    # waits; red sells the grain (1 coin) and its ore for 3 + 2 = 5
    state = replay(game, ["buy_ore", "wait", "sell_grain:1", "wait", "ore3"])
    red = state.to_json()["players"][0]["counters"]
    assert (red["points"], red["coins"], red["stock[grain]"], red["stock[ore]"]) == (2, 2 + 1 + 5, 0, 0)


def test_both_engines_play_the_same_games() -> None:
    check_games(ROWS, None, 60, 27)


HEAD = """midgardc: 1
game: {name: t, players: [red, blue]}
counters: {coins: 3}
board: {topology: graph, nodes: [a]}
actions:
"""
TAIL = "ranking: {coins: coins(p)}\n"


@pytest.mark.parametrize("actions, message, line, col", [
    ("  buy:\n    columns: {cost: number}\n    rows:\n      cheap: {cots: 1}\n", "action 'buy' has no column 'cots'", 9, 15),
    ("  buy:\n    columns: {cost: number}\n    effects: [{add: {counter: coins, to: cost}}]\n", "has columns but no rows", 7, 14),
    ("  buy:\n    params: {cost: 1..2}\n    columns: {cost: number}\n    rows:\n      cheap: {}\n", "'cost' is both a parameter and a column", 8, 15),
    ("  cheap: {}\n  buy:\n    columns: {cost: number}\n    rows:\n      cheap: {cost: 1}\n", "there is already an action 'cheap'", 10, 7),
    ("  buy:\n    params: {n: 1..2}\n    columns: {cost: number}\n    where: coins(mover) >= n\n    rows:\n      one: {params: {m: 1..3}, cost: m}\n",
     "row 'one' has its own params without 'n'", 11, 7),
    ("  buy:\n    columns: {params: number}\n    rows:\n      one: {}\n", "a column may not be named 'params'", 7, 15),
    ("  buy:\n    columns: {cost: number}\n    rows:\n      one: {cost: red}\n", "expected a number", 9, 19),
])
def test_a_broken_table_is_refused_at_its_place(tmp_path, actions: str, message: str, line: int, col: int) -> None:
    assert_spec_error(tmp_path, HEAD + actions + TAIL, message, line, col)


def test_what_a_row_decides_is_folded_away() -> None:
    """A row's constants are computed where the spec is read: ``0 == 0 and x`` is ``x``,
    ``1 < 0 or x`` is ``x``, ``not (2 > 1)`` is false; a division is left for the run."""
    from midgardc.ir.nodes import BOOL, INT, Binary, Const, Local, Unary
    from midgardc.spec.rows import fold

    x = Local("x", BOOL)
    assert fold(Binary("and", Binary("==", Const(0, INT), Const(0, INT), BOOL), x, BOOL)) == x
    assert fold(Binary("or", x, Binary("<", Const(1, INT), Const(0, INT), BOOL), BOOL)) == x
    assert fold(Binary("or", Const(1, BOOL), x, BOOL)) == Const(1, BOOL)
    assert fold(Unary("not", Binary(">", Const(2, INT), Const(1, INT), BOOL), BOOL)) == Const(0, BOOL)
    assert fold(Binary("-", Const(4, INT), Const(1, INT), INT)) == Const(3, INT)
    assert isinstance(fold(Binary("//", Const(4, INT), Const(0, INT), INT)), Binary)
