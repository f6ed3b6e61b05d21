"""The Game of the Amazons (specs/classics/amazons.yaml), rule by rule, in both back ends.
The rules are PlayStrategy's page (https://playstrategy.org/variant/amazons, read
2026-11-27, which follows the English Wikipedia article "Game of the Amazons"), quoted in
the spec. A move is one move of two different steps (``then:``): the amazon, then the
arrow from where it landed, written d1-d7/g7. Perft from the start: 2,176 and 4,307,152
(the counts the Regular Games project checks its Amazons with: radekmie/rg,
interpreter_node/src/bench.test.ts, ``'amazons-naive.hrg': [1, 2176, 4307152]``)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from conftest import ENGINES, SPECS, get_game
from midgardc.render.svg import render_svg
from midgardc.runtime.game import MoveError, perft
from midgardc.runtime.view import render_text
from test_differential import check_games

AMAZONS = str(SPECS / "classics" / "amazons.yaml")
NS = "{http://www.w3.org/2000/svg}"
CODE = {"W": 1, "x": 2, "B": 3, "+": 4}  # 1 + owner * kinds + kind (amazon 0, arrow 1)


@pytest.fixture(params=ENGINES)
def game(request):
    return get_game(AMAZONS, None, request.param)


def position(game, pieces: dict, to_move: str):
    """``pieces``: cell -> 'W', 'B' (amazons), 'x', '+' (white's and black's arrows)."""
    ir = game.ir
    board = [0] * ir.board.n_cells
    for cell, p in pieces.items():
        board[ir.board.cell_names.index(cell)] = CODE[p]
    hands = [[0, 46 - sum(p == "x" for p in pieces.values())], [0, 46 - sum(p == "+" for p in pieces.values())]]
    state = game.new_state()
    state.core.load(board, hands, ir.players.index(to_move), counters=[list(r) for r in ir.counter_init])
    return state


def test_the_start_has_2176_moves(game):
    moves = [m.text for m in game.new_state().legal_moves()]
    assert len(moves) == 2_176 == len(set(moves))
    assert "d1-d7/g7" in moves and "d1-d7/d1" in moves  # the arrow may fly back to the square left


def test_perft_matches_the_published_counts():
    compiled = get_game(AMAZONS, None, "compiled")
    assert [compiled.engine.perft(d) for d in (1, 2)] == [2_176, 4_307_152]
    assert perft(get_game(AMAZONS, None, "interpreted").new_state(), 1) == 2_176


def test_an_amazon_moves_like_a_queen_and_stops_at_any_piece(game):
    # "moves ... one or more empty squares in a straight line (orthogonally or diagonally)
    # ... it may not capture anything": d6 (an amazon), f4 and b2 (arrows) stop it
    state = position(game, {"d4": "W", "d6": "B", "f4": "+", "b2": "x"}, "white")
    reached = {m.text.split("/")[0].split("-")[1] for m in state.legal_moves()}
    assert reached == {
        "d5", "d3", "d2", "d1", "e4", "c4", "b4", "a4",
        "e5", "f6", "g7", "h8", "i9", "j10", "c5", "b6", "a7", "e3", "f2", "g1", "c3",
    }


def test_the_arrow_flies_like_a_queen_from_where_the_amazon_landed(game):
    # "shoots an arrow from its destination ... (even backwards), but cannot cross or
    # enter a square where another arrow has landed or amazons of either colour"
    state = position(game, {"d4": "W", "d6": "B", "f4": "+", "b2": "x"}, "white")
    shots = {m.text.split("/")[1] for m in state.legal_moves() if m.text.startswith("d4-d5/")}
    assert {"d4", "d3", "d2", "d1"} <= shots  # back over the square the amazon left
    assert "d6" not in shots and "d7" not in shots  # the black amazon stops it
    assert "e5" in shots and "a5" in shots and "h1" in shots


def test_a_move_is_the_amazon_and_the_arrow_in_one(game):
    state = game.new_state()
    with pytest.raises(MoveError):
        state.apply("d1-d7")  # the amazon alone is not a move
    state.apply("d1-d7/g7")
    data = state.to_json()
    assert data["board"]["d1"] is None and data["board"]["d7"] == "white" and data["board"]["g7"] == "white"
    assert data["kinds"]["d7"] == "amazon" and data["kinds"]["g7"] == "arrow"
    assert state.ply() == 1 and state.current_player_name() == "black" and state.texts == ["d1-d7/g7"]
    assert len(state.legal_moves()) > 0 and all("/" in m.text for m in state.legal_moves())


def test_the_player_who_cannot_move_loses(game):
    # "The last player to be able to make a move wins": black walls in white's only
    # amazon (a1, with a2 and b1 burnt) by moving to c3 and shooting b2
    state = position(game, {"a1": "W", "a2": "+", "b1": "+", "j10": "B"}, "black")
    state.apply("j10-c3/b2")
    data = state.to_json()
    assert data["terminal"] and data["winner"] == "black"
    assert state.scores()["black"]["won"] == 1 and state.scores()["white"]["won"] == 0


def test_random_games_are_the_same_in_both_engines():
    check_games(AMAZONS, None, 12, 1_988)


def test_the_board_shows_amazons_and_arrows():
    game = get_game(AMAZONS, None, "interpreted")
    state = game.new_state()
    state.apply("d1-d7/g7")
    state.apply("d10-d8/d9")
    rows = [line for line in render_text(state, color=False).splitlines() if line.strip()[:2].strip().isdigit()]
    assert rows[1].split() == ["9", ".", ".", ".", "+", ".", ".", ".", ".", ".", "."]
    assert rows[3].split() == ["7", "B", ".", ".", "W", ".", ".", "x", ".", ".", "B"]
    root = ET.fromstring(render_svg(state))
    figures = {el.get("data-at"): el for el in root.iter(NS + "g") if el.get("data-figure")}
    assert (figures["d7"].get("data-figure"), figures["d8"].get("data-figure")) == ("crown", "crown")
    assert (figures["g7"].get("data-figure"), figures["d9"].get("data-figure")) == ("disc", "disc")
    # an arrow burns a square for both: drawn alike whoever shot it (render.neutral), and
    # unlike either player's amazons
    assert figures["g7"].get("fill") == figures["d9"].get("fill") not in (figures["d7"].get("fill"), figures["d8"].get("fill"))
    ground = {el.get("data-cell"): el.get("style") for el in root.iter() if el.get("data-cell")}
    assert ground["a1"] != ground["b1"]  # a checkered board
