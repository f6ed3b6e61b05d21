"""International draughts (specs/classics/international-draughts.yaml), rule by rule, in
both back ends. The rules are the Official FMJD rules for international draughts (FMJD
Annex 1; the articles quoted at the head of the spec are named in the tests); moves are
written in algebraic notation (a1 dark, White on rows 1-4, moving first), a multiple
capture as d4xf6xd8.

Perft from the start: 9 / 81 / 658 / 4,265 / 27,117 / 167,140 / 1,049,442, as Aart Bik
published them for his engine BikDam ("BikDam: international checkers",
aartbik.blogspot.com, posts labelled perft; "duplicate captures are removed" there, and
none arises this shallow)."""

from __future__ import annotations

import os

import pytest

from conftest import ENGINES, SPECS, get_game
from midgardc.runtime.game import perft
from test_differential import check_games

INTERNATIONAL = str(SPECS / "classics" / "international-draughts.yaml")
PERFT = [9, 81, 658, 4_265, 27_117, 167_140, 1_049_442]
LONG = bool(os.environ.get("MIDGARDC_LONG"))


@pytest.fixture(params=ENGINES)
def game(request):
    return get_game(INTERNATIONAL, None, request.param)


def position(game, pieces: dict, to_move: str, **counts: int):
    """``pieces``: cell -> 'w', 'W' (white man, king), 'b', 'B'; ``counts``: game counters."""
    ir = game.ir
    n = ir.n_kinds  # man 0, king 1, taken 2
    code = {"w": 1, "W": 2, "b": 1 + n, "B": 2 + n}  # 1 + owner * kinds + kind
    board = [0] * ir.board.n_cells
    for cell, p in pieces.items():
        board[ir.board.cell_names.index(cell)] = code[p]
    counters = [list(r) for r in ir.counter_init]
    for name, value in counts.items():
        counters[-1][ir.counters.index(name)] = value
    state = game.new_state()
    state.core.load(board, [[0] * n, [0] * n], ir.players.index(to_move), counters=counters)
    return state


def pieces(state) -> dict:
    """cell -> 'w', 'W', 'b', 'B'."""
    ir = state.game.ir
    out = {}
    for c, p in enumerate(state.core.board[: ir.board.n_cells]):
        if p > 0:
            owner, kind = divmod(p - 1, ir.n_kinds)
            letter = "wb"[owner]
            out[ir.board.cell_names[c]] = letter.upper() if ir.kinds[kind] == "king" else letter
    return out


def legal(state) -> set:
    return {m.text for m in state.legal_moves()}


def test_the_start_twenty_men_each_on_the_dark_squares_white_first(game):
    # 2.2 "The game is played on the dark squares"; 2.4 the first square at each player's left is dark
    state = game.new_state()
    b = pieces(state)
    assert sum(v == "w" for v in b.values()) == 20 == sum(v == "b" for v in b.values())
    assert all((ord(c[0]) - ord("a") + int(c[1:])) % 2 == 1 for c in b)  # a1's colour
    assert {int(c[1:]) for c, v in b.items() if v == "w"} == {1, 2, 3, 4}
    assert {int(c[1:]) for c, v in b.items() if v == "b"} == {7, 8, 9, 10}
    assert state.current_player_name() == "white"
    assert legal(state) == {"b4-a5", "b4-c5", "d4-c5", "d4-e5", "f4-e5", "f4-g5", "h4-g5", "h4-i5", "j4-i5"}


def test_perft_in_both_engines(game):
    depth = 3 if game.engine_name == "interpreted" else 4
    state = game.new_state()
    assert [perft(state, d) for d in range(1, depth + 1)] == PERFT[:depth]


@pytest.mark.skipif(not LONG, reason="perft 5-7 (1.2 million leaves); set MIDGARDC_LONG=1")
def test_perft_deep_compiled():
    state = get_game(INTERNATIONAL, None, "compiled").new_state()
    assert [perft(state, d) for d in (5, 6, 7)] == PERFT[4:7]


def test_a_man_moves_forward_but_captures_forward_and_backward(game):
    state = position(game, {"e5": "w", "a9": "b"}, "white")
    assert legal(state) == {"e5-d6", "e5-f6"}
    # 4.1 "Capturing a piece of the opponent can be done both forwards and backwards"
    state = position(game, {"e5": "w", "d4": "b", "a9": "b"}, "white")
    assert legal(state) == {"e5xc3"}
    state.apply("e5xc3")
    assert pieces(state) == {"c3": "w", "a9": "b"}


def test_a_king_flies_along_the_diagonals(game):
    state = position(game, {"a1": "W", "d4": "w", "j10": "b"}, "white")
    assert {m for m in legal(state) if m.startswith("a1")} == {"a1-b2", "a1-c3"}  # up to its own man
    state = position(game, {"e5": "W", "j10": "b"}, "white")
    assert len([m for m in legal(state) if m.startswith("e5")]) == 4 * 4  # to the edges (j10, black, closes ne at i9)


def test_a_king_captures_from_afar_and_lands_where_it_chooses(game):
    # 4.3 "either close or in the distance, a piece of the opponent behind which one or more
    # squares are empty, he is obliged to jump over it and occupy a free square by choice"
    state = position(game, {"a1": "W", "d4": "b", "h8": "w", "a9": "b"}, "white")
    assert legal(state) == {"a1xe5", "a1xf6", "a1xg7"}  # white's own h8 closes the diagonal
    state.apply("a1xf6")
    assert pieces(state) == {"f6": "W", "h8": "w", "a9": "b"}


def test_capture_is_compulsory_and_the_most_pieces_must_be_taken(game):
    # 5.4.8 an irregularity: "Capture by a piece, of less or more than the number of possible
    # pieces to capture". c3 could take one piece; g3 takes two: only g3's capture is legal
    state = position(game, {"c3": "w", "g3": "w", "d4": "b", "h4": "b", "h6": "b", "a9": "b"}, "white")
    assert legal(state) == {"g3xi5xg7"}
    state.apply("g3xi5xg7")
    assert pieces(state) == {"c3": "w", "g7": "w", "d4": "b", "a9": "b"}


def test_among_equal_captures_the_choice_is_free(game):
    state = position(game, {"c3": "w", "g3": "w", "d4": "b", "h4": "b", "a9": "b"}, "white")
    assert legal(state) == {"c3xe5", "g3xi5"}


def test_a_king_counts_as_one_piece(game):
    # taking a king is one piece: the two men must be taken rather than the king
    state = position(game, {"c3": "w", "g3": "w", "d4": "B", "h4": "b", "h6": "b", "a9": "b"}, "white")
    assert legal(state) == {"g3xi5xg7"}


def test_a_king_must_land_where_the_capture_goes_on(game):
    # of a1's landings behind d4 only f6 lets it take g5 too: the majority rule picks it
    state = position(game, {"a1": "W", "d4": "b", "g5": "b", "a9": "b"}, "white")
    assert legal(state) == {"a1xf6xh4", "a1xf6xi3", "a1xf6xj2"}


def test_a_piece_is_jumped_once_and_lifted_after_the_capture(game):
    # 4.5 the man jumps the four men round c5 and is back on c3, next to d4 again: d4 was
    # taken already and may not be jumped twice, so the capture ends there; "The captured
    # pieces are then lifted from the board" once it is over. Either way round is a move.
    state = position(game, {"c3": "w", "d4": "b", "d6": "b", "b6": "b", "b4": "b", "j10": "b"}, "white")
    assert legal(state) == {"c3xe5xc7xa5xc3", "c3xa5xc7xe5xc3"}
    state.apply("c3xe5xc7xa5xc3")
    assert pieces(state) == {"c3": "w", "j10": "b"}
    assert state.ply() == 1 and state.current_player_name() == "black"


def test_captured_pieces_still_block_during_the_capture(game):
    # the Turkish strike: the pieces taken are lifted only after the capture (4.5), so the
    # king that takes d2 (landing on c1) cannot fly back over it to take f4 as well: each
    # of the two is a capture of one piece (were d2 lifted at once, e3xc1xg5 would take two)
    state = position(game, {"e3": "W", "d2": "b", "f4": "b", "a9": "b"}, "white")
    assert legal(state) == {"e3xc1", "e3xg5", "e3xh6", "e3xi7", "e3xj8"}
    state.apply("e3xc1")
    assert pieces(state) == {"c1": "W", "f4": "b", "a9": "b"}


def test_a_man_passing_the_far_row_in_a_capture_stays_a_man(game):
    # a white man jumps e9 onto f10 (the far row) and must go on over g9: it ends on h8 a man
    state = position(game, {"d8": "w", "e9": "b", "g9": "b", "a1": "b"}, "white")
    assert legal(state) == {"d8xf10xh8"}
    state.apply("d8xf10xh8")
    assert pieces(state) == {"h8": "w", "a1": "b"}
    # one that ends its capture there is crowned
    state = position(game, {"d8": "w", "e9": "b", "a1": "b"}, "white")
    state.apply("d8xf10")
    assert pieces(state) == {"f10": "W", "a1": "b"}


def test_a_player_who_cannot_move_loses(game):
    state = position(game, {"c3": "w", "d4": "b"}, "white")
    state.apply("c3xe5")
    assert state.is_terminal() and state.to_json()["winner"] == "white"
    # blocked: black's only man, on j8, can neither step (i7 is white's) nor jump i7 (h6 is
    # white's too, so nothing is free behind it)
    state = position(game, {"j8": "b", "i7": "w", "h6": "w", "a1": "w"}, "white")
    state.apply("a1-b2")
    assert state.is_terminal() and state.to_json()["winner"] == "white"


# Article 6 (the draw; paraphrased at the head of the spec), taken as holding at once.


def test_twenty_five_moves_each_of_kings_only_is_a_draw(game):
    state = position(game, {"a1": "W", "j10": "B", "e1": "w", "f10": "b"}, "white", quiet=49)
    state.apply("a1-b2")
    assert state.is_terminal() and state.to_json()["winner"] == "draw"
    state = position(game, {"a1": "W", "j10": "B", "e1": "w", "f10": "b"}, "white", quiet=49)
    state.apply("e1-f2")  # a man's move starts the count again
    assert not state.is_terminal() and state.to_json()["counters"]["quiet"] == 0


def test_the_third_appearance_of_a_position_is_a_draw(game):
    state = position(game, {"c1": "W", "h10": "B", "e1": "w", "f10": "b"}, "white")
    for _ in range(2):
        for move in ("c1-d2", "h10-i9", "d2-c1", "i9-h10"):
            assert not state.is_terminal()
            state.apply(move)
    assert state.is_terminal() and state.to_json()["winner"] == "draw"


def test_three_pieces_against_a_lone_king_draw_after_sixteen_moves_each(game):
    state = position(game, {"a1": "W", "c1": "W", "e1": "w", "j10": "B"}, "white", ending16=32)
    state.apply("a1-b2")
    assert state.is_terminal() and state.to_json()["winner"] == "draw"
    state = position(game, {"a1": "W", "c1": "W", "e1": "w", "j10": "B"}, "white", ending16=31)
    state.apply("a1-b2")
    assert not state.is_terminal() and state.to_json()["counters"]["ending16"] == 32


def test_two_pieces_against_a_lone_king_draw_after_five_moves_each(game):
    state = position(game, {"a1": "W", "e1": "w", "j10": "B"}, "white", ending5=10)
    state.apply("a1-b2")
    assert state.is_terminal() and state.to_json()["winner"] == "draw"
    state = position(game, {"a1": "W", "e1": "w", "j10": "B"}, "white")
    state.apply("a1-b2")
    assert state.to_json()["counters"]["ending5"] == 1 and state.to_json()["counters"]["ending16"] == 0


def test_both_engines_play_the_same_games():
    check_games(INTERNATIONAL, None, 12, 5)


@pytest.mark.skipif(not LONG, reason="300 interpreter games; set MIDGARDC_LONG=1")
def test_three_hundred_games_move_for_move():
    check_games(INTERNATIONAL, None, 300, 11)
