"""Named effect blocks (``blocks:``, tests/data/effect_blocks.yaml): one effect list with
typed parameters used from two actions, a trigger's loop and another block, expanded at
lowering so both back ends run plain effects; and their positioned errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ENGINES, assert_spec_error, get_game
from midgardc.errors import SpecError
from midgardc.ir.nodes import IfEffect, Place, SetCounter
from midgardc.runtime.game import replay
from midgardc.spec.lower import load_game_ir
from test_differential import check_games

BLOCKS = str(Path(__file__).parent / "data" / "effect_blocks.yaml")


def counters(state) -> list[dict]:
    return [p["counters"] for p in state.to_json()["players"]]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_block_places_a_fixed_kind_or_a_chosen_one(engine) -> None:
    game = get_game(BLOCKS, None, engine)
    state = replay(game, ["a1", "b1", "a2", "b2", "tower@b3"])
    board = state.to_json()["board"]
    assert (board["b3"], board["a1"]) == ("red", "red")
    assert state.to_json()["players"][0]["hand"] == {"stone": 6, "tower": 1}
    # placed by settle; points by reward: one per own orthogonal neighbour stone, as
    # played (1, 1, 1+1 for b2 beside a2 and b1), and 2 for red's tower from settle itself
    assert counters(state) == [{"points": 3 + 2, "placed": 3}, {"points": 2, "placed": 2}]


def test_a_use_expands_to_the_blocks_effects_with_its_arguments() -> None:
    ir = load_game_ir(BLOCKS)
    put, raise_ = ir.actions[0], ir.actions[1]
    place, count, tower = put.effects
    assert isinstance(place, Place) and place.kind == 0 and place.kind_expr is None  # stone, fixed
    assert isinstance(count, SetCounter) and count.add
    assert isinstance(tower, IfEffect) and isinstance(tower.then[0], SetCounter)  # reward inside settle
    assert raise_.effects[0].kind_expr is not None  # the kind the move names


def test_both_engines_play_the_same_games() -> None:
    check_games(BLOCKS, None, 100, 13)


BASE = """midgardc: 1
game: {name: t, players: [red, blue]}
pieces: {stone: {hand: 3}}
counters: {points: 0}
board: {topology: square, rows: 2, cols: 2}
blocks:
  BLOCKS
actions:
  put:
    params: {c: cell}
    where: empty(c)
    effects:
      - USE
ranking: {score: "points(p)"}
"""

GAIN = "gain: {params: {n: number}, effects: [{add: {counter: points, to: n}}]}"


@pytest.mark.parametrize(
    "blocks, use, message, line, col",
    [
        (GAIN, "gain: {m: 1}", "block 'gain' has no parameter 'm'", 13, 16),
        (GAIN, "gain: {}", "block 'gain' needs its parameter 'n' (a number)", 13, 15),
        (GAIN, "gain: {n: c}", "expected a number here, but this is a cell", 13, 19),
        (GAIN, "gian: {n: 1}", "unknown effect 'gian'", 13, 9),
        ("place: {effects: []}", "gain: {n: 1}", "'place' is already an effect; give the block another name", 7, 3),
        ("gain: {params: {n: numbr}, effects: []}", "gain: {n: 1}", "unknown type 'numbr'", 7, 22),
        ("gain: {params: {n: number}}", "gain: {n: 1}", "block 'gain' needs a 'effects' key", 7, 9),
        ("gain: {params: {n: number}, effects: [{add: {counter: points, to: x}}]}", "gain: {n: 1}", "unknown name 'x'", 7, 69),
        ("loop: {effects: [{gain: {n: 1}}]}\n  " + GAIN, "loop: {}", "unknown effect 'gain'", 7, 21),
        # even a quantifier of the argument's own: the back ends never meet one variable bound twice
        ("per: {params: {n: number}, effects: [{for_each: {each: q in players, effects: [{add: {counter: points, of: q, to: n}}]}}]}", 'per: {n: "count(q in players: q == mover)"}', "'q' is a variable of block 'per' too", 13, 18),
        ("per: {effects: [{for_each: {each: c in cells, effects: [{add: {counter: points, to: 1}}]}}]}", "per: {}", "block 'per' binds 'c', which is already a name here", 13, 9),
        (
            "per: {params: {n: number}, effects: [{for_each: {each: c in cells, effects: [{add: {counter: points, to: n}}]}}]}",
            'per: {n: "count(x in cells: x == c)"}',
            "'c' is a variable of block 'per' too, so it cannot be passed in",
            13,
            18,
        ),
    ],
)
def test_block_errors(tmp_path, blocks, use, message, line, col) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(BASE.replace("BLOCKS", blocks).replace("USE", use))
    with pytest.raises(SpecError) as info:
        load_game_ir(str(path))
    text = str(info.value)
    assert message in text, text
    assert f":{line}:{col}:" in text.splitlines()[0], text


ZONE_BLOCK = """midgardc: 1
game: {name: z, players: [red, blue], max_plies: 6}
counters: {drawn: {type: item}}
items: {ace: {}, king: {}, queen: {}}
zones:
  low: {of: game, ordered: true, items: {ace: 1, king: 1}}
  high: {of: game, ordered: true, items: {queen: 2}}
  held: {of: player}
blocks:
  draw_from:                 # a zone parameter: the pile a use names
    params: {pile: zone, n: number}
    effects:
      - set: {counter: drawn, to: top(pile)}
      - deal: {from: pile, to: held, count: n}
board: {topology: graph, nodes: [table]}
actions:
  small: {where: "zone_size(low) > 0", effects: [{draw_from: {pile: low, n: 1}}]}
  big: {where: "zone_size(high) > 0", effects: [{draw_from: {pile: high, n: 2}}]}
ranking: {cards: "zone_size(p, held)"}
"""


def test_a_zone_parameter_names_the_pile_each_use_passes(tmp_path) -> None:
    from midgardc.engines import load

    path = tmp_path / "zones.yaml"
    path.write_text(ZONE_BLOCK, encoding="utf-8")
    state = replay(load(str(path), engine="interpreted"), ["big", "small"])
    zones = state.zones()
    assert zones["high"]["game"] == [] and len(zones["low"]["game"]) == 1   # two queens dealt, one low card
    red, blue = state.to_json()["players"]
    assert red["counters"]["drawn"] == "queen" and blue["counters"]["drawn"] in ("ace", "king")
    ir = load_game_ir(str(path))
    assert ir.actions[0].effects[1].frm != ir.actions[1].effects[1].frm  # low, then high


@pytest.mark.parametrize("old, new, message, line, col", [
    ("params: {pile: zone, n: number}", "params: {low: zone, n: number}", "has the name of a zone", 11, 14),
    ("{pile: low, n: 1}", "{pile: lowest, n: 1}", "takes a zone's name for 'pile'", 17, 69),
])
def test_a_broken_zone_parameter_is_refused_at_its_place(tmp_path, old: str, new: str, message: str, line: int, col: int) -> None:
    assert_spec_error(tmp_path, ZONE_BLOCK.replace(old, new), message, line, col)
