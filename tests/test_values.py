"""Values of every type (tests/data/values.yaml), in both back ends: counters holding a
cell, a player and a kind, with `none`; definitions returning cells and players;
`if ... then ... else` and `either` of any type; cell names as literals in conditions.
And the type checker's positioned errors for each construct."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ENGINES, get_game
from midgardc.errors import SpecError
from midgardc.runtime.game import replay
from midgardc.spec.lower import load_game_ir
from test_differential import check_games, engines, snapshot

VALUES = str(Path(__file__).parent / "data" / "values.yaml")


def texts(state) -> list[str]:
    return [m.text for m in state.legal_moves()]


def game_counters(state) -> dict:
    return state.to_json()["counters"]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_cell_counter_starts_as_none_and_forbids_the_opposite_corner(engine) -> None:
    game = get_game(VALUES, None, engine)
    state = game.new_state()
    assert game_counters(state) == {"ko": "none", "leader": "none", "last_kind": "stone"}
    assert "d4" in texts(state)
    state.apply("a1")  # a corner: ko is the opposite corner, d4 (opposite() returns a cell)
    assert game_counters(state)["ko"] == "d4"
    assert "d4" not in texts(state) and "wd4" not in texts(state)
    state.apply("b3")  # not a corner: opposite() is none, and so is ko
    assert game_counters(state)["ko"] == "none"
    assert "d4" in texts(state)


@pytest.mark.parametrize("engine", ENGINES)
def test_player_and_kind_counters(engine) -> None:
    game = get_game(VALUES, None, engine)
    state = replay(game, ["wa2"])  # red builds a wall: blue may not build one next
    assert game_counters(state)["last_kind"] == "wall"
    assert not any(m.startswith("w") for m in texts(state))
    state.apply("b2")  # blue takes the centre first: blue leads for good
    assert game_counters(state) == {"ko": "none", "leader": "blue", "last_kind": "stone"}
    state.apply("c3")
    assert game_counters(state)["leader"] == "blue"
    players = state.to_json()["players"]
    assert [p["counters"] for p in players] == [{"last": "c3", "moves": 2}, {"last": "b2", "moves": 1}]
    # ranking: cells + 2 for the leader + 1 for holding the home corner + 1 for being ahead
    # on moves (a player chosen by if/then/else) + 1 once a last cell is set
    assert [p["score"]["cells"] for p in players] == [2 + 0 + 0 + 1 + 1, 1 + 2 + 0 + 0 + 1]


def test_typed_values_lower_to_ints_with_none_sentinels() -> None:
    ir = load_game_ir(VALUES)
    assert ir.counter_types == ("cell", "player", "kind", "cell", "int")
    n = ir.board.n_cells
    assert ir.counter_init[-1][:3] == (n, -1, 0)  # ko none, leader none, last_kind stone
    assert [row[3] for row in ir.counter_init[:2]] == [n, n]  # every player's last: none
    assert [d.type for d in ir.defines] == ["cell", "cell", "player"]


def test_both_engines_play_the_same_games() -> None:
    check_games(VALUES, None, 150, 77)


def test_both_engines_agree_after_every_move() -> None:
    import random

    interp, comp = engines(VALUES)
    rng = random.Random(5)
    for _ in range(8):
        a, b = interp.new_core(), comp.new_core()
        while not a.terminal:
            move = rng.choice(a.legal())
            a.apply(move)
            b.apply(move)
            assert snapshot(a) == snapshot(b)


# --------------------------------------------------------------------------- errors

BASE = """midgardc: 1
game: {name: t, players: [a, b]}
pieces: {stone: {hand: 3}}
counters:
  spot: {type: cell, of: game}
  who: {type: player}
  score: 0
board: {topology: square, rows: 2, cols: 2}
define:
  DEFINE
actions:
  put:
    params: {c: cell}
    where: WHERE
    effects: EFFECTS
ranking: {score: "score(p)"}
"""


def lower(tmp_path, where="empty(c)", effects="[{place: {piece: stone, at: c}}]", define="x: 1", counters=""):
    text = BASE.replace("WHERE", where).replace("EFFECTS", effects).replace("DEFINE", define)
    if counters:
        text = text.replace("  spot: {type: cell, of: game}\n", counters)
    path = tmp_path / "t.yaml"
    path.write_text(text)
    return load_game_ir(str(path))


@pytest.mark.parametrize(
    "kwargs, message, line, col",
    [
        ({"where": '"spot == a9"'}, "unknown name 'a9'", 14, 21),
        ({"where": '"spot == a"'}, "cannot compare a cell with a player", 14, 18),
        ({"where": '"none == none"'}, "cannot tell which type 'none' is here", 14, 18),
        ({"where": '"score(a) == none"'}, "a number has no 'none' value", 14, 25),
        ({"where": '"either(empty(c), a1, a) == a1"'}, "the two values of 'either' must have one type, but one is a cell and the other a player", 14, 34),
        ({"where": '"(if empty(c) then 1 else none) == 1"'}, "a number has no 'none' value", 14, 38),
        ({"where": '"if c then a1 else a2"'}, "the condition of 'if' must be a condition, got a cell", 14, 16),
        ({"define": 'nothing: "none"'}, "cannot tell which type 'none' is here", 10, 13),
        ({"effects": "[{add: {counter: spot, to: 1}}]"}, "'add' adds numbers; counter 'spot' holds a cell: use 'set'", 15, 31),
        ({"effects": "[{set: {counter: who, to: c}}]"}, "expected a player here, but this is a cell", 15, 40),
        ({"counters": "  spot: {type: cell, of: game, start: a}\n"}, "expected a cell here, but this is a player", 5, 39),
        ({"counters": "  spot: {type: cel, of: game}\n"}, "unknown type 'cel'", 5, 16),
    ],
)
def test_positioned_errors(tmp_path, kwargs, message, line, col) -> None:
    with pytest.raises(SpecError) as info:
        lower(tmp_path, **kwargs)
    text = str(info.value)
    assert message in text
    assert f":{line}:{col}:" in text.splitlines()[0], text
