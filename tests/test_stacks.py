"""Stacks and pushes: a cell holds a piece and a height; a place may push a run of
pieces along a direction; ``height(c)``, ``room(c, d)`` and the collection ``ray(c, d)``
read them. tests/data/stacks.yaml uses all of it (heights strictly increase towards the
north along each column, as in a game of stacked towers on lines). Both back ends must
agree on every state, heights included.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import get_game
from midgardc.cli import cli
from midgardc.errors import SpecError
from midgardc.runtime.game import replay
from midgardc.runtime.interpreter import random_move
from midgardc.runtime.rng import Rng, derive_seed
from midgardc.spec.lower import load_game_ir

STACKS = str(Path(__file__).parent / "data" / "stacks.yaml")


def engines():
    return get_game(STACKS, None, "interpreted").engine, get_game(STACKS, None, "compiled").engine


def snapshot(core) -> tuple:
    return (core.legal(), core.keys(), core.board, core.heights, core.hands, core.current, core.ply, bool(core.terminal))


def column(state, col: str) -> list:
    """A column of the 5x3 board from the bottom (row 1) up: (owner, height) or None."""
    board = state.to_json()["board"]
    out = []
    for row in range(1, 6):
        cell = board[f"{col}{row}"]
        out.append(None if cell is None else (cell["owner"], cell["height"]))
    return out


@pytest.fixture(params=["interpreted", "compiled"])
def game(request):
    return get_game(STACKS, None, request.param)


def test_the_spec_is_marked_as_using_stacks():
    assert load_game_ir(STACKS).stacks
    # a spec that never reads or sets heights has no height layer in its compiled state
    assert not load_game_ir(str(Path(__file__).parent.parent / "specs" / "classics" / "tic-tac-toe.yaml")).stacks


def test_a_stack_takes_its_height_from_the_hand(game):
    state = replay(game, ["a1x3"])
    assert column(state, "a")[0] == ("red", 3)
    assert state.to_json()["players"][0]["hand"] == {"block": 11}


def test_heights_must_increase_northwards(game):
    state = replay(game, ["a2x3"])
    legal = {m.text for m in state.legal_moves()}
    assert {"a1x1", "a1x2", "a3x4"} <= legal  # shorter below, taller above
    assert not legal & {"a1x3", "a1x4", "a3x1", "a3x2", "a3x3"}


def test_a_shorter_stack_pushes_the_run_north(game):
    state = replay(game, ["a1x2", "a2x3", "a1x1^"])  # red, blue, red
    assert column(state, "a") == [("red", 1), ("red", 2), ("blue", 3), None, None]
    assert state.to_json()["players"][0]["hand"] == {"block": 14 - 2 - 1}


def test_a_taller_stack_pushes_the_run_south(game):
    state = replay(game, ["a4x2", "a5x4", "a4x3v"])
    assert column(state, "a") == [None, None, ("red", 2), ("red", 3), ("blue", 4)]


def test_no_push_without_room(game):
    # the last stack of the run would leave the board at the southern edge
    state = replay(game, ["a1x1", "a2x3"])
    legal = {m.text for m in state.legal_moves()}
    assert "a2x4v" not in legal and "a3x4" in legal
    # ... and at the northern edge
    state = replay(game, ["a4x3", "a5x4"])
    legal = {m.text for m in state.legal_moves()}
    assert "a4x2^" not in legal and "a3x2" in legal
    # with room, the same kind of push is legal
    state = replay(game, ["a2x1", "a4x3"])
    legal = {m.text for m in state.legal_moves()}
    assert {"a4x4v", "a2x2v", "a4x2^"} <= legal


def test_room_and_ray_read_the_board(game):
    prog_state = replay(game, ["a2x1", "a3x2", "a4x3", "a5x4"])
    core = prog_state.core
    ir = game.ir
    n = ir.board.directions.index("n")
    s = ir.board.directions.index("s")
    cells = {name: i for i, name in enumerate(ir.board.cell_names)}
    mirror = get_game(STACKS, None, "interpreted").engine.prog
    from midgardc.runtime.state_json import mirror as mirror_of

    m = mirror_of(prog_state)
    room = mirror.builtins["room"]
    assert not room(m, cells["a2"], n) and room(m, cells["a2"], s) and room(m, cells["b3"], n)
    assert core.heights[cells["a4"]] == 3 and core.heights[cells["b4"]] == 0


def test_lift_returns_the_whole_stack(game):
    state = replay(game, ["a1x3", "b1x4", "c1x1", "lift:b1"])
    assert column(state, "b")[0] is None
    assert state.to_json()["players"][1]["hand"] == {"block": 14}


def test_show_prints_heights():
    result = CliRunner().invoke(cli, ["show", STACKS, "--moves", "a1x3 b1x4", "--engine", "interpreted"])
    assert result.exit_code == 0, result.output
    assert "R3" in result.output and "B4" in result.output


def test_replay_json_gives_owner_and_height():
    result = CliRunner().invoke(cli, ["replay", STACKS, "--moves", "a1x3", "--json", "--engine", "interpreted"])
    assert result.exit_code == 0, result.output
    board = json.loads(result.output)["board"]
    assert board["a1"] == {"owner": "red", "height": 3} and board["a2"] is None


def test_loaded_heights_agree():
    interp, comp = engines()
    n = interp.ir.board.n_cells
    board = [0] * n
    heights = [0] * n
    cells = {name: i for i, name in enumerate(interp.ir.board.cell_names)}
    for name, piece, h in (("a1", 1, 1), ("a2", 2, 2), ("a3", 1, 4)):
        board[cells[name]], heights[cells[name]] = piece, h
    a, b = interp.new_core(), comp.new_core()
    a.load(board, [[5], [5]], 1, heights=heights)
    b.load(board, [[5], [5]], 1, heights=heights)
    assert snapshot(a) == snapshot(b)
    assert a.heights[cells["a3"]] == 4
    with pytest.raises(ValueError):
        b.load(board, [[5], [5]], 1, heights=[0] * n)


def test_every_state_agrees_with_heights():
    interp, comp = engines()
    rng = random.Random(11)
    for game in range(40):
        a, b = interp.new_core(), comp.new_core()
        while not a.terminal:
            move = rng.choice(a.legal())
            a.apply(move)
            b.apply(move)
            assert snapshot(a) == snapshot(b), f"game {game}, ply {a.ply}"


def check_games(n: int, seed: int) -> None:
    interp, comp = engines()
    for i in range(n):
        game_seed = derive_seed(seed, i)
        core, rng, moves = interp.new_core(game_seed), Rng(game_seed), []
        while not core.terminal:
            move = random_move(core, rng)
            core.apply(move)
            moves.append(move)
        assert comp.playout_trace(game_seed) == moves, f"game {i}"
    assert comp.playouts(n, seed) == interp.playouts(n, seed)


def test_random_games_agree():
    check_games(200, 7)


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("MIDGARDC_LONG"), reason="1,000 interpreter games; set MIDGARDC_LONG=1")
def test_thousand_random_games_agree():
    """What the long run adds: 1,000 games (the default run plays the 200 of
    test_random_games_agree)."""
    check_games(1000, 8)


@pytest.mark.parametrize(
    "text, message",
    [
        ("height: c", "expected a number here, but this is a cell"),
        ("height: h, push: 3", "expected a direction here"),
    ],
)
def test_bad_place_fields(tmp_path, text, message):
    spec = Path(STACKS).read_text().replace("height: h}", text + "}", 1)
    path = tmp_path / "bad.yaml"
    path.write_text(spec)
    with pytest.raises(SpecError, match=message):
        load_game_ir(str(path))


def test_push_and_room_need_directions(tmp_path):
    spec = Path(STACKS).read_text().replace("topology: square\n  rows: 5\n  cols: 3", "topology: graph\n  nodes: [a, b]\n  edges: [[a, b]]")
    path = tmp_path / "graph.yaml"
    path.write_text(spec)
    with pytest.raises(SpecError, match="directions"):
        load_game_ir(str(path))
