"""Moves of two different steps (``then:``, midgardc/ir/compound.py) on a small spec of
their own, tests/data/two_steps.yaml (a walker steps, then puts a marker next to where it
landed), in both back ends: the whole move listed and written as one (``a1>n+e``), its
id the mixed radix of both steps' parameters, the second step read on the board the first
left, the triggers once per whole move, and the same games in both engines. The Game of
the Amazons is the other use (tests/test_amazons.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ENGINES, assert_spec_error, get_game
from midgardc.runtime.game import MoveError, perft
from test_differential import check_games

STEPS = str(Path(__file__).parent / "data" / "two_steps.yaml")
SPEC = Path(STEPS).read_text(encoding="utf-8")


@pytest.fixture(params=ENGINES)
def game(request):
    return get_game(STEPS, None, request.param)


def test_whole_moves_are_listed_and_written_as_one(game):
    state = game.new_state()
    # the walker on a1 steps n (a2) or e (b1); the marker goes on an empty straight
    # neighbour of where it landed, a1 (the cell it left) among them
    assert [m.text for m in state.legal_moves()] == ["a1>n+n", "a1>n+e", "a1>n+s", "a1>e+n", "a1>e+e", "a1>e+w"]
    state.apply("a1>n+e")
    board = state.to_json()["board"]
    assert board["a1"] is None and board["a2"] == "x" and board["b2"] == "x"
    assert state.to_json()["kinds"]["b2"] == "marker" and state.to_json()["kinds"]["a2"] == "walker"
    assert state.ply() == 1 and state.current_player_name() == "o" and state.texts == ["a1>n+e"]


def test_the_trigger_runs_once_per_whole_move(game):
    state = game.new_state()
    state.apply("a1>n+s")  # the marker on a1, the cell the walker left
    assert state.scores()["x"]["walks"] == 1 and state.to_json()["kinds"]["a1"] == "marker"


def test_a_step_alone_is_not_a_move(game):
    state = game.new_state()
    for text in ("a1>n", "a1>w+n", "a1>n+w"):  # no second step; a first step off the board; a marker off it
        with pytest.raises(MoveError):
            state.apply(text)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_first_step_without_a_second_is_no_move(tmp_path, engine):
    # here the marker may not go back on the cell the walker left: x's walker on a1 may
    # step to a2 (its free neighbours a3 and b2 taken by markers) or to b1 (c1 free)
    from midgardc.engines import load

    path = tmp_path / "steps.yaml"
    path.write_text(SPEC.replace('where: "straight(e) and empty(step(step(f, d), e))"', 'where: "straight(e) and empty(step(step(f, d), e)) and step(step(f, d), e) != f"'), encoding="utf-8")
    game = load(str(path), None, engine=engine)
    ir = game.ir
    board = [0] * ir.board.n_cells
    for cell, code in {"a1": 1, "d4": 3, "a3": 4, "b2": 4}.items():  # 1 + owner * 2 + kind (walker 0, marker 1)
        board[ir.board.cell_names.index(cell)] = code
    state = game.new_state()
    state.core.load(board, [[0, 4], [0, 2]], 0, counters=[list(r) for r in ir.counter_init])
    assert [m.text for m in state.legal_moves()] == ["a1>e+e"]


def test_move_ids_are_the_mixed_radix_of_both_steps(game):
    state = game.new_state()
    ir = game.ir
    walk = ir.actions[0]
    cells, dirs = ir.board.cell_names, ir.board.directions
    n_dirs = len(dirs)
    ids = {m.text: m.id for m in state.legal_moves()}
    f, d, e = cells.index("a1"), dirs.index("n"), dirs.index("e")
    assert ids["a1>n+e"] == walk.base + (f * n_dirs + d) * n_dirs + e
    assert walk.size == len(cells) * n_dirs * n_dirs and [p.name for p in walk.params] == ["f", "d", "e"]
    assert game.move_text(ids["a1>n+e"]) == "a1>n+e"  # an id alone says the whole move


def test_both_engines_count_and_play_the_same():
    interp, comp = (get_game(STEPS, None, e) for e in ENGINES)
    assert [perft(interp.new_state(), d) for d in (1, 2, 3, 4)] == [perft(comp.new_state(), d) for d in (1, 2, 3, 4)] == [6, 36, 216, 1_216]
    check_games(STEPS, None, 100, 27)


@pytest.mark.parametrize("old, new, message, line, col", [
    ("      params: {e: dir}\n", "      params: {d: dir}\n", "the second step's parameter 'd' is also a parameter of the first step", 29, 16),
    ('      notation: "+{e}"\n', '      notation: "{e}"\n', "the second step's notation must start with a separator", 33, 17),
    ("      params: {e: dir}\n", "      params: {}\n", "the second step ('then') needs parameters", 29, 15),
    ('      where: "straight(e) and', '      where: "straight(q) and', "unknown name 'q'", 30, 24),
    ("    then:\n", "    legal_after: \"true\"\n    then:\n", "'then' and 'legal_after' cannot be used together yet", 30, 7),
])
def test_then_is_checked_with_positions(tmp_path, old, new, message, line, col):
    assert old in SPEC
    assert_spec_error(tmp_path, SPEC.replace(old, new), message, line, col)


def test_reading_a_move_through_its_notation_agrees_with_the_table():
    # a game of many move ids (Amazons: 1,000,000) reads a move's text through the
    # notation (Game._read_move) rather than a table of every move's text: the two agree
    game = get_game(STEPS, None, "interpreted")
    for move in range(game.ir.n_moves):
        text = game.move_text(move)
        assert game._read_move(text) == game.move_id(text) == move
    assert game._read_move("a1>n") is None and game._read_move("a1>n+e+e") is None


def test_explain_describes_both_steps():
    from midgardc.cli.explain import explain_lines
    from midgardc.spec.lower import load_game_ir

    text = "\n".join(explain_lines(load_game_ir(STEPS)))
    assert "a move of two steps: each legal binding above is a first step" in text
    assert "the second step's loops run there (where hand(mover, marker) > 0 and (straight(e) and empty(step(step(f, d), e))))" in text
    assert "loop e: every dir value" in text and "the triggers run once, after both steps" in text


ZERO = """\
midgardc: 1
game: {name: zero, players: [x, o], max_plies: 6}
pieces:
  stone: {hand: 9}
counters:
  rounds: 0
board: {topology: square, rows: 3, cols: 3}
actions:
  go:
    effects:
      - add: {counter: rounds, to: 1}
    then:
      params: {c: cell, k: 1..2}
      where: "empty(c) and rounds(mover) == k"
      effects:
        - place: {piece: stone, at: c}
ranking:
  rounds: rounds(p)
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_a_first_step_without_parameters_and_the_default_notation(tmp_path, engine):
    # the second step reads the counter the first step's effect raised (k is the round
    # the player is in: 1, then 2); its notation is the default "/{c}:{k}"
    from midgardc.engines import load

    path = tmp_path / "zero.yaml"
    path.write_text(ZERO, encoding="utf-8")
    game = load(str(path), None, engine=engine)
    state = game.new_state()
    assert [m.text for m in state.legal_moves()][:3] == ["go/a3:1", "go/b3:1", "go/c3:1"]
    assert [perft(game.new_state(), d) for d in (1, 2, 3)] == [9, 72, 504]
    state.apply("go/b2:1")
    state.apply("go/a1:1")
    assert all(m.text.endswith(":2") for m in state.legal_moves()) and len(state.legal_moves()) == 7
