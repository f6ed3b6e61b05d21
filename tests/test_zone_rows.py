"""Zone columns in a rule table (``columns: {from: zone}``, tests/data/zone_rows.yaml):
a row names the zones its move uses, as a block's use names its zone parameters. The
rows play exactly as the same actions written out by hand (same move ids, texts and
games), both back ends agree, a row that leaves a zone column out may do so only where
its own values make the use vanish, and a broken table is refused at its place. (The
second use: specs/micro-midgard.yaml's blessing squares that move relics.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import assert_spec_error
from midgardc.engines import load
from midgardc.spec.lower import load_game_ir
from test_action_rows import games
from test_differential import check_games

ROWS = str(Path(__file__).parent / "data" / "zone_rows.yaml")

# tests/data/zone_rows.yaml with every row written out as an action of its own
BY_HAND = """midgardc: 1
game: {name: zone-rows, players: [red, blue], max_plies: 16}
counters: {coins: 2}
zones:
  stock: {of: game, ordered: true, items: {apple: 4, pear: 4}}
  basket: {of: player}
  stall: {of: player}
  bin: {of: game}
board: {topology: graph, nodes: [market]}
actions:
  draw: {where: "zone_size(stock) > 0", effects: [{deal: {from: stock, to: basket}}]}
  play:
    params: {k: item}
    where: "coins(mover) >= 1 and holding(mover, basket, k) > 0"
    effects: [{add: {counter: coins, to: -1}}, {take: {item: k, from: basket, to: stall}}]
    notation: "play:{k}"
  rest: {effects: [{add: {counter: coins, to: 1}}]}
  scrap:
    params: {k: item}
    where: "holding(mover, stall, k) > 0"
    effects: [{add: {counter: coins, to: 2}}, {take: {item: k, from: stall, to: bin}}, {deal: {from: stock, to: bin}}]
    notation: "scrap:{k}"
ranking: {coins: "coins(p)", stall: "zone_size(p, stall)"}
"""


def test_rows_with_zone_columns_play_as_the_actions_written_out(tmp_path) -> None:
    hand = tmp_path / "by_hand.yaml"
    hand.write_text(BY_HAND, encoding="utf-8")
    rows, written = load(ROWS, engine="interpreted"), load(str(hand), engine="interpreted")
    assert [(a.name, a.base, a.size) for a in load_game_ir(ROWS).actions] == [(a.name, a.base, a.size) for a in load_game_ir(str(hand)).actions]
    played = games(rows, 30)
    assert played == games(written, 30)
    assert any(text.startswith("scrap:") for trace in played for text in (m[1] for m in trace[::2]))


def test_a_row_leaving_the_zones_out_moves_nothing() -> None:
    """``rest`` gives no fruit and no zones: its take of no item and its undecided refill
    are gone, so the row is the coin alone."""
    (rest,) = [a for a in load_game_ir(ROWS).actions if a.name == "rest"]
    assert [type(e).__name__ for e in rest.effects] == ["SetCounter"]


def test_both_engines_play_the_same_games() -> None:
    check_games(ROWS, None, 40, 5)


HEAD = """midgardc: 1
game: {name: t, players: [red, blue]}
counters: {coins: 3}
zones: {basket: {of: player, items: {apple: 1}}, stall: {of: player}}
board: {topology: graph, nodes: [a]}
actions:
"""
TAIL = "ranking: {coins: coins(p)}\n"


@pytest.mark.parametrize("actions, message, line, col", [
    # a row leaves out a zone its move still uses (the item is not none)
    ("  put:\n    columns: {k: item, to: zone}\n    params: {c: item}\n    effects: [{take: {item: c, from: basket, to: to}}]\n    rows:\n      a: {to: stall}\n      b: {}\n",
     "row 'b' leaves out the zone column 'to', which the action uses for it", 13, 7),
    ("  put:\n    columns: {to: zone}\n    rows:\n      a: {to: shelf}\n", "column 'to' of action 'put' takes a zone's name", 10, 15),
    ("  put:\n    columns: {basket: zone}\n    rows:\n      a: {}\n", "the zone column 'basket' has the name of a zone", 8, 15),
    ("  put:\n    columns: {to: zone}\n    rows:\n      a: {}\n", "no row gives the zone column 'to'", 8, 15),
])
def test_a_broken_zone_column_is_refused_at_its_place(tmp_path, actions: str, message: str, line: int, col: int) -> None:
    assert_spec_error(tmp_path, HEAD + actions + TAIL, message, line, col)
