"""English draughts (specs/classics/draughts.yaml), rule by rule, in both back ends. The
rules are those of the World Checkers/Draughts Federation (WCDF) and the English Draughts
Association, paraphrased in each test (not quoted: the rulebook is not in the project and
these are summaries, not its words); moves are
written in algebraic notation (a1 dark, Black on rows 1-3), a multi-jump as c3xe5xc7.
Perft from the start: 7 / 49 / 302 / 1,469 / 7,361 / 36,768 / 179,740 (the published
figures for checkers, e.g. Aart Bik's "Perft for checkers")."""

from __future__ import annotations

import os

import pytest

from conftest import ENGINES, SPECS, get_game
from midgardc.runtime.game import perft
from test_differential import check_games

DRAUGHTS = str(SPECS / "classics" / "draughts.yaml")
PERFT = [7, 49, 302, 1_469, 7_361, 36_768, 179_740]


@pytest.fixture(params=ENGINES)
def game(request):
    return get_game(DRAUGHTS, None, request.param)


def position(game, pieces: dict, to_move: str, quiet: int = 0):
    """``pieces``: cell -> 'b', 'B' (black man, king), 'w', 'W'; kings come from the hand."""
    ir = game.ir
    code = {"b": 1, "B": 2, "w": 3, "W": 4}  # 1 + owner * kinds + kind (man 0, king 1)
    board = [0] * ir.board.n_cells
    for cell, p in pieces.items():
        board[ir.board.cell_names.index(cell)] = code[p]
    hands = [[0, 12 - sum(p == "B" for p in pieces.values())], [0, 12 - sum(p == "W" for p in pieces.values())]]
    counters = [list(r) for r in ir.counter_init]
    counters[-1][ir.counters.index("quiet")] = quiet
    state = game.new_state()
    state.core.load(board, hands, ir.players.index(to_move), counters=counters)
    return state


def pieces(state) -> dict:
    out = {}
    for cell, v in state.to_json()["board"].items():
        if v is not None:
            out[cell] = v
    return out


def kinds(state) -> dict:
    ir = state.game.ir
    return {ir.board.cell_names[c]: ir.kinds[(p - 1) % ir.n_kinds] for c, p in enumerate(state.core.board[: ir.board.n_cells]) if p > 0}


def legal(state) -> set:
    return {m.text for m in state.legal_moves()}


def test_the_start_twelve_men_each_on_the_dark_squares_black_first(game):
    state = game.new_state()
    b = pieces(state)
    assert sum(v == "black" for v in b.values()) == 12 == sum(v == "white" for v in b.values())
    assert all((ord(c[0]) - ord("a") + int(c[1:])) % 2 == 1 for c in b)  # a1's colour: the dark squares
    assert state.current_player_name() == "black"
    # rules (paraphrased): Black moves first; the seven moves of the men on the third row
    assert legal(state) == {"a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"}


def test_perft_shallow_in_both_engines(game):
    depth = 3 if game.engine_name == "interpreted" else 5
    state = game.new_state()
    assert [perft(state, d) for d in range(1, depth + 1)] == PERFT[:depth]


def test_perft_deep_compiled():
    from midgardc.runtime.game import perft as count

    state = get_game(DRAUGHTS, None, "compiled").new_state()
    assert count(state, 6) == PERFT[5]
    assert count(state, 7) == PERFT[6]


def test_men_move_diagonally_forward_only(game):
    state = position(game, {"d4": "b", "h8": "w"}, "black")
    assert legal(state) == {"d4-c5", "d4-e5"}  # not back to c3 or e3
    state = position(game, {"d4": "w", "a1": "b"}, "white")
    assert legal(state) == {"d4-c3", "d4-e3"}


def test_capture_is_compulsory(game):
    # rules (paraphrased): capturing is compulsory; the jump is the only move
    state = position(game, {"c3": "b", "g3": "b", "d4": "w", "h8": "w"}, "black")
    assert legal(state) == {"c3xe5"}


def test_a_multi_jump_is_one_move_and_must_be_completed(game):
    # rules (paraphrased): a capturing piece must go on jumping while it can; c3 jumps d4 and then d6
    state = position(game, {"c3": "b", "d4": "w", "d6": "w", "h8": "w"}, "black")
    assert legal(state) == {"c3xe5xc7"}  # the first jump alone is no move
    state.apply("c3xe5xc7")
    assert pieces(state) == {"c7": "black", "h8": "white"}
    assert state.ply() == 1 and state.current_player_name() == "white"
    assert state.to_json()["moves"] == ["c3xe5xc7"]


def test_each_way_of_jumping_on_is_a_move_of_its_own(game):
    # after c3xe5 the man may go on over d6 or over f6: two whole moves
    state = position(game, {"c3": "b", "d4": "w", "d6": "w", "f6": "w", "a7": "w"}, "black")
    assert legal(state) == {"c3xe5xc7", "c3xe5xg7"}
    state.apply("c3xe5xg7")
    assert pieces(state) == {"g7": "black", "d6": "white", "a7": "white"}


def test_a_man_reaching_the_far_row_is_crowned_and_the_move_ends(game):
    # rules (paraphrased): a man reaching the far row is crowned, and the move ends; a man crowned by a
    # capture cannot jump on in the same move (as a new king it could jump b7 to a6)
    state = position(game, {"e6": "b", "d7": "w", "b7": "w", "h2": "w"}, "black")
    assert legal(state) == {"e6xc8"}
    state.apply("e6xc8")
    assert kinds(state)["c8"] == "king" and pieces(state)["b7"] == "white"
    assert state.current_player_name() == "white"
    # a man that steps onto the far row is crowned too
    state = position(game, {"b7": "b", "h2": "w"}, "black")
    state.apply("b7-a8")
    assert kinds(state)["a8"] == "king"


def test_kings_move_and_jump_backwards(game):
    state = position(game, {"d4": "B", "h8": "w"}, "black")
    assert legal(state) == {"d4-c3", "d4-e3", "d4-c5", "d4-e5"}
    # a king jumps backwards, and on, in one move
    state = position(game, {"e5": "B", "d4": "w", "d2": "w", "h8": "w"}, "black")
    assert legal(state) == {"e5xc3xe1"}
    state.apply("e5xc3xe1")
    assert pieces(state) == {"e1": "black", "h8": "white"}


def test_a_player_who_cannot_move_loses(game):
    # white's only man is blocked: black wins with its move
    state = position(game, {"a1": "w", "b2": "b", "c3": "b", "h2": "b"}, "black")
    state.apply("h2-g3")
    assert state.is_terminal() and state.to_json()["winner"] == "black"
    # a player with no pieces left cannot move either
    state = position(game, {"c3": "b", "d4": "w"}, "black")
    state.apply("c3xe5")
    assert state.is_terminal() and state.to_json()["winner"] == "black"


# The draw rule, WCDF (quoted at the head of the spec): a draw "where [...] Neither player
# has advanced an uncrowned man towards the king-row during their own previous 40 moves.
# No pieces have been removed from the board during their own previous 40 moves", taken
# as claimed as soon as it can be: 80 plies without a man's move or a capture.


def test_forty_moves_each_without_a_mans_move_or_a_capture_is_a_draw(game):
    state = position(game, {"a1": "B", "h8": "W"}, "black", quiet=79)
    state.apply("a1-b2")
    assert state.is_terminal() and state.to_json()["winner"] == "draw"
    state = position(game, {"a1": "B", "h8": "W"}, "black", quiet=78)
    state.apply("a1-b2")
    assert not state.is_terminal() and state.to_json()["counters"]["quiet"] == 79


def test_a_kings_move_does_not_reset_the_draw_count(game):
    # a king's move is no man's advance and removes nothing: the count goes on, the man
    # standing still beside it
    state = position(game, {"a1": "B", "c1": "b", "h8": "W"}, "black", quiet=40)
    state.apply("a1-b2")
    assert state.to_json()["counters"]["quiet"] == 41


def test_a_mans_move_resets_the_draw_count(game):
    # "advanced an uncrowned man towards the king-row": a man only moves forward, so any
    # move of a man is one
    state = position(game, {"a1": "B", "c1": "b", "h8": "W"}, "black", quiet=79)
    state.apply("c1-d2")
    assert not state.is_terminal() and state.to_json()["counters"]["quiet"] == 0


def test_a_man_crowned_resets_the_draw_count(game):
    # the man's last advance, onto the king-row, is one too
    state = position(game, {"c7": "b", "a1": "W"}, "black", quiet=79)
    state.apply("c7-d8")
    assert kinds(state)["d8"] == "king"
    assert not state.is_terminal() and state.to_json()["counters"]["quiet"] == 0


def test_a_capture_resets_the_draw_count(game):
    # "No pieces have been removed from the board": a capture, here by a king (no man moves)
    state = position(game, {"c3": "B", "d4": "w", "h8": "W"}, "black", quiet=79)
    state.apply("c3xe5")
    assert not state.is_terminal() and state.to_json()["counters"]["quiet"] == 0


# (60 random games of each spec: tests/test_differential.py test_every_spec_plays_the_same_games)
@pytest.mark.skipif(not os.environ.get("MIDGARDC_LONG"), reason="1,000 interpreter games; set MIDGARDC_LONG=1")
def test_draughts_thousand_games_move_for_move():
    check_games(DRAUGHTS, None, 1000, 11)
