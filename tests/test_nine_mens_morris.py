"""Nine Men's Morris (specs/classics/nine-mens-morris.yaml) against the rules it quotes:
Wikipedia's "Nine men's morris" (the rules section), the draw as the Mühle program at
henked.de/spiele/muehle states it, and a double mill as yucata.de's rules ("Rules/Morris")
say. Rule tests on both back ends; the legal moves along random games against OpenSpiel's
own ``nine_mens_morris`` (pyspiel), action for action (20 games here; MIDGARDC_LONG=1
plays 1,000); 1,000 random games move for move on both engines with MIDGARDC_LONG=1 (the
quick differential is tests/test_differential.py's, as for every spec)."""

from __future__ import annotations

import os
import random

import pytest

from conftest import ENGINES, SPECS, get_game
from midgardc.runtime.game import perft
from test_differential import check_games

MORRIS = str(SPECS / "classics" / "nine-mens-morris.yaml")
WHITE, BLACK = 1, 2  # piece ids of the men
# OpenSpiel's point order (its kPointStrCoords, row by row from the top), in Wikipedia's names
POINTS = "a7 d7 g7 b6 d6 f6 c5 d5 e5 a4 b4 c4 e4 f4 g4 c3 d3 e3 b2 d2 f2 a1 d1 g1".split()


@pytest.fixture(params=ENGINES)
def game(request):
    return get_game(MORRIS, None, request.param)


def position(game, white=(), black=(), to_move="white", hands=(0, 0), removing=False, quiet=0):
    """Men on the points given, ``hands`` men still to place, the counters as given."""
    ir = game.ir
    board = [0] * ir.board.n_cells
    for name in white:
        board[ir.board.cell_names.index(name)] = WHITE
    for name in black:
        board[ir.board.cell_names.index(name)] = BLACK
    rows = [list(r) for r in ir.counter_init]  # (the men neither in hand nor on the board are lost)
    phases = dict(ir.enums)["phase"]  # the phase: a man to take, else placing or moving
    rows[-1][ir.counters.index("phase")] = phases.index("removing" if removing else "playing")
    rows[-1][ir.counters.index("quiet")] = quiet
    state = game.new_state()
    state.core.load(board, [[hands[0]], [hands[1]]], ir.players.index(to_move), counters=rows)
    return state


def moves(state) -> list[str]:
    return [m.text for m in state.legal_moves()]


def men_on_board(state, player: str) -> int:
    return sum(1 for v in state.to_json()["board"].values() if v == player)


def test_the_board_is_24_points_joined_along_the_lines(game):
    # "The board consists of a grid with twenty-four intersections or points"; the points
    # are written as on Wikipedia's board with coordinates, a1 .. g7
    assert game.ir.board.cell_names == tuple(POINTS)
    state = game.new_state()
    assert moves(state) == POINTS and state.current_player_name() == "white"


def test_placing_men_one_per_play_on_empty_points(game):
    # "The game begins with an empty board. The players ... take turns placing their men
    # one per play on empty points."
    state = game.new_state()
    state.apply("d5")
    assert state.current_player_name() == "black" and "d5" not in moves(state) and len(moves(state)) == 23
    # perft: 24 x 23 x 22 placements (no mill before white's third man)
    assert [perft(game.new_state(), d) for d in range(1, 3)] == [24, 552]


def test_perft_on_both_engines():
    # no mill before white's third man (ply 5), so the first five plies are placements
    # alone: 24, 24 x 23, ... 24 x 23 x 22 x 21 x 20; at ply 6 the removals come in
    compiled = get_game(MORRIS, None, "compiled").engine
    counts = [compiled.perft(d) for d in range(1, 6)]
    assert counts == [24, 552, 12_144, 255_024, 5_100_480]
    assert [perft(get_game(MORRIS, None, "interpreted").new_state(), d) for d in range(1, 4)] == counts[:3]


def test_a_mill_lets_the_player_remove_an_opponents_man(game):
    # "If a player is able to place three of his pieces on contiguous points in a straight
    # line, vertically or horizontally, he has formed a mill and may remove one of his
    # opponent's pieces from the board and the game."
    state = game.new_state()
    for m in ["a7", "a1", "d7", "g1", "g7"]:  # a7-d7-g7: white's mill
        state.apply(m)
    assert state.current_player_name() == "white"  # the removal is white's second step
    assert moves(state) == ["xa1", "xg1"]
    state.apply("xg1")
    assert state.current_player_name() == "black"
    assert men_on_board(state, "black") == 1
    assert state.to_json()["players"][1]["hand"] == {"man": 7}  # out of the game, not back in hand
    assert state.to_json()["players"][1]["score"]["men"] == 8


def test_a_man_in_a_mill_is_taken_only_when_no_other_is_available(game):
    # "A piece in an opponent's mill, however, can be removed only if no other pieces are
    # available."
    state = position(game, white=["a7", "d7", "g7", "b4"], black=["a1", "d1", "g1", "e4"], to_move="white", removing=True)
    assert moves(state) == ["xe4"]
    state = position(game, white=["a7", "d7", "g7", "b4"], black=["a1", "d1", "g1"], to_move="white", removing=True)
    assert moves(state) == ["xa1", "xd1", "xg1"]


def test_two_mills_at_once_still_take_one_man(game):
    # yucata.de: "In the opening, it's possible to form two mills by placing a single
    # token. The player still gets to take only one of the opponent's tokens."
    state = position(game, white=["d7", "g7", "a1", "a4"], black=["f4", "b6", "c4", "e5"], to_move="white", hands=(5, 5))
    state.apply("a7")  # closes a7-d7-g7 and a1-a4-a7
    assert state.current_player_name() == "white" and all(m.startswith("x") for m in moves(state))
    state.apply("xf4")
    assert state.current_player_name() == "black" and men_on_board(state, "black") == 3


def test_moving_to_an_adjacent_point_along_a_line(game):
    # "After all men have been placed, phase two begins." "Players continue to alternate
    # moves, this time moving one of their men to an adjacent point each turn."
    white = ["d5", "a7", "g7", "b2"]
    black = ["a1", "g1", "f6", "e3"]
    state = position(game, white=white, black=black)
    got = moves(state)
    assert [m for m in got if m.startswith("d5-")] == ["d5-d6", "d5-c5", "d5-e5"]  # not d3: no line
    assert "a7-d7" in got and "a7-a4" in got and "a7-b6" not in got  # no diagonals
    assert all("-" in m for m in got)


def test_breaking_and_remaking_a_mill_removes_again(game):
    # Wikipedia: a player can "break" a mill by moving one of his pieces out of an
    # existing mill, then moving it back to form the same mill a second time
    state = position(game, white=["a7", "d7", "g7", "b2"], black=["a1", "g1", "f2", "e3", "c3"])
    state.apply("d7-d6")
    state.apply("a1-d1")
    state.apply("d6-d7")
    assert state.current_player_name() == "white" and moves(state) == ["xc3", "xe3", "xf2", "xd1", "xg1"]


def test_flying_with_three_men(game):
    # "When a player is reduced to three pieces, there is no longer a limitation on that
    # player of moving to only adjacent points: The player's men may "fly" ... from any
    # point to any vacant point."
    state = position(game, white=["a7", "d5", "g1"], black=["b6", "f6", "b2", "f2"])
    got = moves(state)
    assert len(got) == 3 * 17 and "a7-e3" in got and "g1-d7" in got
    # black, with four men, still moves along the lines
    state.apply("a7-e3")
    assert all(m in ("b6-d6", "b6-b4", "f6-d6", "f6-f4", "b2-b4", "b2-d2", "f2-d2", "f2-f4") for m in moves(state))


def test_reduced_to_two_men_loses(game):
    # "A player wins by reducing the opponent to two pieces"
    state = position(game, white=["a7", "d7", "f4", "b2"], black=["a1", "d1", "e5"])
    state.apply("f4-g4")  # nothing yet
    state.apply("e5-e4")
    state.apply("g4-g7")  # closes a7-d7-g7
    state.apply("xe4")
    assert state.is_terminal() and state.to_json()["winner"] == "white"


def test_no_legal_move_loses(game):
    # "... or by leaving him without a legal move": black's four men are hemmed in
    state = position(game, white=["d7", "a4", "g4", "d1", "b6", "f6", "b2", "f2", "c4"], black=["a7", "g7", "a1", "g1"], to_move="white")
    state.apply("c4-c5")
    assert state.is_terminal() and state.to_json()["winner"] == "white"


def test_fifty_moves_each_without_a_mill_draw(game):
    # henked.de: a draw "wenn innerhalb von 50 aufeinanderfolgenden Spielzügen (das sind
    # 100 Halbzüge) keine Mühle geschlossen wurde"
    state = position(game, white=["a7", "g7", "c3", "e3"], black=["a1", "g1", "c5", "e5"], quiet=98)
    state.apply("c3-d3")
    assert not state.is_terminal()
    state.apply("c5-d5")
    assert state.is_terminal() and state.to_json()["winner"] == "draw"


def test_the_same_position_a_third_time_draws(game):
    # henked.de: a draw "wenn die gleiche Zugfolge dreimal hintereinander gespielt wurde"
    state = position(game, white=["a7", "g7", "c3", "e3"], black=["a1", "g1", "c5", "e5"])
    shuttle = ["c3-d3", "c5-d5", "d3-c3", "d5-c5"]
    for m in shuttle * 2:
        assert not state.is_terminal()
        state.apply(m)
    assert state.is_terminal() and state.to_json()["winner"] == "draw"


def _openspiel_action(text: str) -> int:
    """Our move text as OpenSpiel's action: a point (placing, removing) or 24 + from * 24 + to."""
    if text.startswith("x"):
        return POINTS.index(text[1:])
    if "-" in text:
        f, t = text.split("-")
        return 24 + POINTS.index(f) * 24 + POINTS.index(t)
    return POINTS.index(text)


def _against_openspiel(n_games: int) -> tuple[int, int]:
    """Random games on both: the same legal actions in the same order at every step, and
    the same winner when OpenSpiel's game ends with a win. OpenSpiel stops after 200 turns
    (a draw) and has no repetition or 50-move draw, so a game is compared up to whichever
    ends first. Returns (steps compared, games both ended with a win)."""
    pyspiel = pytest.importorskip("pyspiel")
    spiel = pyspiel.load_game("nine_mens_morris")
    ours_game = get_game(MORRIS, None, "compiled")
    steps = wins = 0
    for g in range(n_games):
        rng = random.Random(g)
        ours, theirs = ours_game.new_state(), spiel.new_initial_state()
        while not ours.is_terminal() and not theirs.is_terminal():
            legal = moves(ours)
            assert [_openspiel_action(m) for m in legal] == theirs.legal_actions(), (g, ours.to_json())
            move = rng.choice(legal)
            ours.apply(move)
            theirs.apply_action(_openspiel_action(move))
            steps += 1
        if theirs.is_terminal() and theirs.returns()[0] != 0:
            assert ours.is_terminal(), g
            assert ours.to_json()["winner"] == ("white" if theirs.returns()[0] > 0 else "black"), g
            wins += 1
    return steps, wins


def test_against_openspiel_nine_mens_morris():
    steps, wins = _against_openspiel(20)
    assert steps > 2000 and wins > 5


@pytest.mark.skipif(not os.environ.get("MIDGARDC_LONG"), reason="1,000 games against pyspiel; set MIDGARDC_LONG=1")
def test_against_openspiel_thousand_games():
    steps, wins = _against_openspiel(1000)
    assert wins > 300


@pytest.mark.skipif(not os.environ.get("MIDGARDC_LONG"), reason="1,000 interpreter games; set MIDGARDC_LONG=1")
def test_morris_thousand_games_move_for_move():
    check_games(MORRIS, None, 1000, 11)
