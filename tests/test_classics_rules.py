"""The classic games' rules, test by test, from their standard rules: Connect Four
(gravity, four in a row, full grid draw), Breakthrough (steps, captures, the far row,
capturing every piece) and Reversi (flanking, flips in several directions at once,
passes, the end and the count). Every test runs on both back ends."""

from __future__ import annotations

import pytest

from conftest import SPECS, get_game
from midgardc.errors import MoveError
from midgardc.runtime.game import replay

CONNECT_FOUR = str(SPECS / "classics" / "connect-four.yaml")
BREAKTHROUGH = str(SPECS / "classics" / "breakthrough.yaml")
REVERSI = str(SPECS / "classics" / "reversi.yaml")


@pytest.fixture
def game(engine):
    return lambda spec: get_game(spec, None, engine)


def board(state) -> dict:
    return state.to_json()["board"]


def legal(state) -> set[str]:
    return {m.text for m in state.legal_moves()}


def position(game, pieces: dict, to_move: str, hands=None):
    """A state with player -> cells on the board (kind 0), the rest empty."""
    ir = game.ir
    cells = [0] * ir.board.n_cells
    for player, names in pieces.items():
        for name in names:
            cells[ir.board.cell_names.index(name)] = ir.piece_id(ir.players.index(player), 0)
    state = game.new_state()
    hands = hands if hands is not None else [list(h) for h in ir.hand_init]
    state.core.load(cells, hands, ir.players.index(to_move))
    return state


# -- Connect Four -------------------------------------------------------------------------


def test_connect_four_discs_fall_to_the_lowest_empty_cell(game):
    g = game(CONNECT_FOUR)
    state = g.new_state()
    assert legal(state) == {f"{col}1" for col in "abcdefg"}
    state = replay(g, ["d1", "d2", "d3"])
    assert legal(state) == {"a1", "b1", "c1", "d4", "e1", "f1", "g1"}
    with pytest.raises(MoveError):
        replay(g, ["d2"])  # a disc cannot float


def test_connect_four_a_full_column_takes_no_more_discs(game):
    state = replay(game(CONNECT_FOUR), ["a1", "a2", "a3", "a4", "a5", "a6"])
    assert not any(m.startswith("a") for m in legal(state))
    assert not state.is_terminal()


@pytest.mark.parametrize(
    "moves, winner",
    [
        (["a1", "a2", "b1", "b2", "c1", "c2", "d1"], "red"),  # across
        (["a1", "b1", "a2", "b2", "a3", "b3", "c1", "b4"], "yellow"),  # down
        # diagonal up to the right: red a1, b2, c3, d4
        (["a1", "b1", "b2", "c1", "c2", "d1", "c3", "d2", "g1", "d3", "d4"], "red"),
        # diagonal down to the right, the last disc dropped in the middle of the row
        (["d1", "c1", "c2", "b1", "a1", "a2", "a3", "b2", "a4", "g1", "b3"], "red"),
    ],
)
def test_connect_four_four_in_a_row_wins(game, moves, winner):
    state = replay(game(CONNECT_FOUR), moves)
    assert state.is_terminal()
    assert state.game.players[state.winner()] == winner


def test_connect_four_three_in_a_row_does_not_win(game):
    state = replay(game(CONNECT_FOUR), ["a1", "a2", "b1", "b2", "c1", "c2"])
    assert not state.is_terminal()


def test_connect_four_a_full_grid_without_four_is_a_draw(game):
    # a full grid found by random play (seed 159): no four of one colour ever lines up
    moves = (
        "c1 g1 f1 c2 g2 d1 e1 f2 e2 f3 a1 f4 a2 d2 g3 b1 a3 a4 a5 g4 d3 b2 b3 e3 d4 b4 g5 b5 "
        "d5 g6 e4 d6 b6 e5 e6 c3 a6 c4 c5 c6 f5 f6"
    ).split()
    state = replay(game(CONNECT_FOUR), moves[:-1])
    assert not state.is_terminal() and legal(state) == {"f6"}
    state.apply("f6")
    assert state.is_terminal() and state.ply() == 42
    assert state.winner() is None


# -- Breakthrough -------------------------------------------------------------------------


def test_breakthrough_start_and_first_moves(game):
    state = game(BREAKTHROUGH).new_state()
    b = board(state)
    assert sum(v == "white" for v in b.values()) == 16 == sum(v == "black" for v in b.values())
    assert b["a1"] == b["h2"] == "white" and b["a7"] == b["h8"] == "black"
    moves = legal(state)
    assert len(moves) == 22
    assert {"a2-a3", "a2-b3", "b2-a3", "b2-b3", "b2-c3", "h2-g3", "h2-h3"} <= moves
    assert "a2-a4" not in moves and "a1-a2" not in moves


def test_breakthrough_straight_steps_need_an_empty_cell_and_diagonals_capture(game):
    g = game(BREAKTHROUGH)
    state = position(g, {"white": ["d4", "a1"], "black": ["d5", "e5", "c5", "h8"]}, "white")
    assert legal(state) == {"d4-c5", "d4-e5", "a1-a2", "a1-b2"}  # d5 blocks the straight step
    state.apply("d4-e5")
    b = board(state)
    assert b["e5"] == "white" and b["d4"] is None
    assert sum(v == "black" for v in b.values()) == 3
    # black moves down the board; it may capture diagonally too
    state = position(g, {"white": ["d4", "a1"], "black": ["e5", "h8"]}, "black")
    assert legal(state) == {"e5-d4", "e5-e4", "e5-f4", "h8-g7", "h8-h7"}


def test_breakthrough_reaching_the_far_row_wins(game):
    g = game(BREAKTHROUGH)
    state = position(g, {"white": ["b7", "a1"], "black": ["h8", "h6"]}, "white")
    state.apply("b7-b8")
    assert state.is_terminal() and state.game.players[state.winner()] == "white"
    state = position(g, {"white": ["b7", "a3"], "black": ["h8", "g2"]}, "black")
    state.apply("g2-g1")
    assert state.is_terminal() and state.game.players[state.winner()] == "black"


def test_breakthrough_capturing_every_enemy_piece_wins(game):
    g = game(BREAKTHROUGH)
    state = position(g, {"white": ["c3", "a1"], "black": ["d4"]}, "white")
    state.apply("c3-d4")
    assert state.is_terminal() and state.game.players[state.winner()] == "white"


# -- Reversi ------------------------------------------------------------------------------


def test_reversi_start_position_and_the_four_openings(game):
    state = game(REVERSI).new_state()
    b = board(state)
    assert (b["d4"], b["e5"], b["d5"], b["e4"]) == ("white", "white", "black", "black")
    assert sum(v is not None for v in b.values()) == 4
    assert legal(state) == {"d3", "c4", "f5", "e6"}


def test_reversi_a_move_flips_the_flanked_run(game):
    state = replay(game(REVERSI), ["d3"])
    b = board(state)
    assert b["d3"] == b["d4"] == b["d5"] == b["e4"] == "black" and b["e5"] == "white"
    with pytest.raises(MoveError):
        replay(game(REVERSI), ["a1"])  # flanks nothing


def test_reversi_flips_in_several_directions_at_once(game):
    g = game(REVERSI)
    # black plays d4: runs to the east (e4, f4), north (d5), north-east (e5) and south-west
    # (c3) are closed by black; the run to the west (c4, open at b4) is not
    state = position(
        g,
        {
            "white": ["e4", "f4", "d5", "e5", "c3", "c4"],
            "black": ["g4", "d6", "f6", "b2", "h1"],
        },
        "black",
    )
    state.apply("d4")
    b = board(state)
    for cell in ("d4", "e4", "f4", "d5", "e5", "c3"):
        assert b[cell] == "black", cell
    assert b["c4"] == "white"


def test_reversi_a_player_without_a_move_passes(game):
    g = game(REVERSI)
    # white cannot flank a1 (the board ends behind it); black can flank b1 from c1
    state = position(g, {"black": ["a1"], "white": ["b1"]}, "white")
    assert not state.is_terminal()
    assert state.current_player_name() == "black" and state.core.passes == 1
    assert legal(state) == {"c1"}
    state.apply("c1")
    assert state.is_terminal()  # all black now: white cannot move, nor can black
    assert state.game.players[state.winner()] == "black"


def test_reversi_the_game_ends_when_neither_can_move_and_most_discs_wins(game):
    g = game(REVERSI)
    state = position(g, {"black": ["a1", "b1"], "white": ["h8"]}, "black")
    assert state.is_terminal()
    assert state.game.players[state.winner()] == "black"
    state = position(g, {"black": ["a1"], "white": ["h8"]}, "white")
    assert state.is_terminal() and state.winner() is None  # equal counts draw


def test_reversi_a_full_board_ends_the_game(game):
    g = game(REVERSI)
    cells = g.ir.board.cell_names
    state = position(g, {"black": cells[:40], "white": cells[40:]}, "white")
    assert state.is_terminal() and state.game.players[state.winner()] == "black"


# -- the new sections and effects refuse bad specs clearly ----------------------------------

_BASE = """
game: {name: t, players: [a, b]}
pieces: {stone: {hand: 3}}
board: {topology: square, rows: 3, cols: 3}
actions:
  play: {params: {c: cell}, where: empty(c), effects: [{place: {piece: stone, at: c}}]}
ranking: {n: "count(c in cells: owner(c) == p)"}
"""


@pytest.mark.parametrize(
    "extra, message",
    [
        ("setup: [{piece: stone, owner: a, cells: [a1, z9]}]", "unknown cell 'z9'"),
        ("setup: [{piece: stone, owner: c, cells: [a1]}]", "unknown player 'c'"),
        ("setup: [{piece: stone, owner: a, cells: [a1]}, {piece: stone, owner: b, cells: [a1]}]", "set up twice"),
        ("player_props: {ahead: {a: n}}", "no value for b"),
        ("player_props: {ahead: {a: n, b: 3}}", "mixes"),
        ("player_props: {ahead: {a: n, b: up}}", "not a number, direction, cell"),
        ("triggers: {t: {effects: [{move: {from: a1, to: a2, capture: keep}}]}}", "move.capture"),
    ],
)
def test_bad_setup_player_props_and_move_are_refused(tmp_path, extra, message):
    from midgardc.errors import SpecError
    from midgardc.spec.lower import load_game_ir

    path = tmp_path / "t.yaml"
    path.write_text(_BASE + extra + "\n", encoding="utf-8")
    with pytest.raises(SpecError, match=message):
        load_game_ir(str(path))
