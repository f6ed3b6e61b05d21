"""Crazyhouse (specs/classics/crazyhouse.yaml, chess.yaml extended with pieces that change
side): perft from the start and from positions with pieces in hand, each rule as the
Internet Chess Club's help page words it (chessclub.com/assets/Dasher/Crazyhouse.htm; the
promoted pawn's rule as pathguy.com/chess/Crazyhou.html words it), and a move-for-move
comparison with python-chess's chess.variant.CrazyhouseBoard along random games."""

from __future__ import annotations

import os
import random

import pytest

from conftest import ENGINES, SPECS, get_game

ZH = str(SPECS / "classics" / "crazyhouse.yaml")

# Perft from the start: chess's (chessprogramming.org "Perft Results": 20, 400, 8,902,
# 197,281) while no captured piece can be dropped yet (the first capture is ply 3, its drop
# ply 5 at the earliest); at depth 5, 4,888,832 against chess's 4,865,609: python-chess's
# CrazyhouseBoard counts the same (a perft of depth 5 with its legal_moves, 2026-11-27;
# about 2 minutes, too long to repeat here).
START_PERFT = [20, 400, 8_902, 197_281, 4_888_832]

# Positions with pieces in hand (crazyhouse FEN: the pieces in hand in brackets after the
# board, a promoted pawn marked '~'), each with the depth python-chess counts in a second
POSITIONS = {
    "both hands hold a pawn": ("r1bqkb1r/ppp2ppp/2n2n2/3pp3/4P3/2N2N2/PPPP1PPP/R1BQKB1R[Pp] w KQkq - 0 5", 3),
    "kiwipete with knights in hand": ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R[Nn] w KQkq - 0 1", 2),
    "every kind in hand": ("2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1", 2),
    "a promoted queen on the board": ("4k3/8/8/8/8/8/8/Q~3K3[p] b - - 0 1", 3),
    "a pawn to promote and a rook to take": ("r3k3/1P6/1n6/8/8/8/8/4K3[] w q - 0 1", 3),
}


@pytest.fixture(params=ENGINES)
def game(request):
    return get_game(ZH, None, request.param)


def legal(state) -> set:
    return {m.text for m in state.legal_moves()}


def play(game, moves: str, position=None):
    state = game.state_at(position) if position else game.new_state()
    for m in moves.split():
        state.apply(m)
    return state


def hand(state, player: str) -> dict:
    return {k: v for k, v in next(p for p in state.to_json()["players"] if p["name"] == player)["hand"].items() if v}


def theirs_perft(board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    n = 0
    for m in list(board.legal_moves):
        board.push(m)
        n += theirs_perft(board, depth - 1)
        board.pop()
    return n


def test_perft_from_the_start_on_the_interpreter():
    from midgardc.runtime.game import perft

    state = get_game(ZH, None, "interpreted").new_state()
    assert [perft(state, d) for d in (1, 2, 3)] == START_PERFT[:3]


def test_perft_from_the_start_on_the_compiled_engine():
    engine = get_game(ZH, None, "compiled").engine
    assert [engine.perft(d) for d in (1, 2, 3, 4, 5)] == START_PERFT


@pytest.mark.parametrize("name", POSITIONS)
def test_perft_from_positions_with_pieces_in_hand_is_python_chess(name):
    variant = pytest.importorskip("chess.variant")
    from midgardc.runtime.game import perft

    fen, depth = POSITIONS[name]
    expected = [theirs_perft(variant.CrazyhouseBoard(fen), d) for d in range(1, depth + 1)]
    compiled = get_game(ZH, None, "compiled")
    assert [perft(compiled.state_at(fen), d) for d in range(1, depth + 1)] == expected
    assert [perft(get_game(ZH, None, "interpreted").state_at(fen), d) for d in range(1, min(depth, 2) + 1)] == expected[:2]


# -- the rules, as the ICC help page words them --------------------------------------


def test_a_captured_piece_joins_the_captors_hand_in_the_captors_colour(game):
    # "when you capture a piece, you receive a piece of the same kind, but of your color"
    state = play(game, "e2e4 d7d5 e4d5")
    assert hand(state, "white") == {"pawn": 1} and hand(state, "black") == {}
    state.apply("d8d5")
    assert hand(state, "black") == {"pawn": 1}
    state.apply("b1c3")
    state.apply("d5a2")                   # the queen takes a pawn, then is taken
    state.apply("a1a2")
    assert hand(state, "white") == {"pawn": 1, "queen": 1} and hand(state, "black") == {"pawn": 2}
    assert "q@d5" in legal(play(game, "e2e4 d7d5 e4d5 d8d5 b1c3 d5a2 a1a2 e7e5"))


def test_en_passant_puts_the_pawn_taken_in_the_captors_hand(game):
    state = play(game, "e2e4 a7a6 e4e5 d7d5 e5d6")
    assert hand(state, "white") == {"pawn": 1}


def test_any_piece_may_be_dropped_on_any_open_square_but_a_pawn_not_on_the_first_or_eighth_rank(game):
    # "any piece may be dropped on any open square with the exception that pawns may not be
    # dropped on the 1st or 8th ranks"
    state = game.state_at("4k3/8/8/8/8/8/8/4K3[NP] w - - 0 1")
    empty = {f"{f}{r}" for f in "abcdefgh" for r in range(1, 9)} - {"e1", "e8"}
    drops = {m for m in legal(state) if "@" in m}
    assert {m[2:] for m in drops if m.startswith("n@")} == empty
    assert {m[2:] for m in drops if m.startswith("p@")} == {c for c in empty if c[1] not in "18"}
    assert not any(m[0] not in "np" for m in drops)     # nothing else in hand, no king


def test_a_drop_must_leave_a_legal_position(game):
    # "provided it is not a pawn on the 1st or 8th ranks and that the resulting position is
    # legal": in check from a1's rook, a drop must block it
    state = game.state_at("4k3/8/8/8/8/8/8/r3K3[N] w - - 0 1")
    assert {m for m in legal(state) if "@" in m} == {"n@b1", "n@c1", "n@d1"}


def test_a_drop_that_can_block_the_check_saves_the_king(game):
    # "For checkmate to occur, there must be no possibility of avoiding checkmate by a drop
    # interposition": the back-rank check a1a8 is mate only with nothing in Black's hand
    held = game.state_at("6k1/5ppp/8/8/8/8/8/R5K1[n] w - - 0 1")
    held.apply("a1a8")
    assert not held.is_terminal() and {"n@b8", "n@f8"} <= legal(held)
    bare = game.state_at("6k1/5ppp/8/8/8/8/8/R5K1[] w - - 0 1")
    bare.apply("a1a8")
    assert bare.is_terminal() and bare.to_json()["winner"] == "white"


def test_a_drop_may_give_check_and_mate(game):
    # "You may place a piece to give check or mate" (everything2's summary of the rules)
    state = game.state_at("k7/8/1K6/8/8/8/8/8[Q] w - - 0 1")
    state.apply("q@a7")
    assert state.is_terminal() and state.to_json()["winner"] == "white"


def test_a_promoted_pawn_captured_goes_into_the_hand_as_a_pawn(game):
    # "Promoted pieces revert to pawn status upon being captured" (pathguy.com)
    state = game.state_at("r3k3/1P6/1n6/8/8/8/8/4K3[] w q - 0 1")
    state.apply("b7a8q")                  # the pawn takes the rook and promotes
    assert hand(state, "white") == {"rook": 1} and state.to_json()["kinds"]["a8"] == "promoted_queen"
    assert not {"e8d8", "e8f8"} & legal(state)   # (it attacks along the 8th rank as a queen)
    state.apply("b6a8")                   # the knight takes it: a pawn for Black's hand
    assert hand(state, "black") == {"pawn": 1}


def test_a_position_repeats_only_with_the_same_pieces_in_hand(game):
    # "the same board position must be reached 3 times with the same player to move", and
    # (as python-chess and lichess count it) the same pieces in hand: Black's knight, dropped
    # and taken, is White's when the board comes back (ply 12), so the position counts
    # again from one; the third time of that one (ply 20) ends the game in a draw
    variant = pytest.importorskip("chess.variant")
    fen = "k7/8/8/8/3N4/8/8/K7[n] w - - 0 1"
    moves = "a1b1 a8b8 b1a1 b8a8 a1b1 n@e6 d4e6 a8b8 b1a1 b8b7 e6d4 b7a8 " + "a1b1 a8b8 b1a1 b8a8 " * 2
    state, board = game.state_at(fen), variant.CrazyhouseBoard(fen)
    for ply, move in enumerate(moves.split(), 1):
        state.apply(move)
        board.push_uci(move)
        assert state.is_terminal() == board.is_repetition(3) == (ply == 20), ply
    assert state.to_json()["winner"] == "draw"


def test_a_pawn_dropped_on_its_second_rank_may_advance_two_squares(game):
    state = game.state_at("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1")
    state.apply("p@d2")
    state.apply("e8f8")
    assert "d2d4" in legal(state)


# -- random games against python-chess ----------------------------------------------------


def random_game_against_python_chess(game, seed: int) -> int:
    """A random game (moves drawn from python-chess's list) where, at every position, our
    legal moves are python-chess's (drops in small letters), the game ends exactly when
    python-chess's does (checkmate, stalemate, threefold repetition: it has no fifty-move
    rule in crazyhouse and no material ever leaves the game), with its result. Returns the
    plies played."""
    variant = pytest.importorskip("chess.variant")
    rng = random.Random(seed)
    state, board = game.new_state(), variant.CrazyhouseBoard()
    while True:
        # (python-chess's outcome(claim_draw=True) would also try every move for a claim
        # on the next one, nine tenths of the time here: the spec makes no such claim)
        mate = board.is_checkmate()
        over = mate or board.is_stalemate() or board.is_repetition(3)
        theirs = sorted(m.uci().lower() for m in board.legal_moves) if not over else []
        ours = sorted(m.text for m in state.legal_moves()) if not state.is_terminal() else []
        assert (ours, state.is_terminal()) == (theirs, over), f"seed {seed} at {board.fen()}"
        if over:
            expected = ("black" if board.turn else "white") if mate else "draw"
            assert state.to_json()["winner"] == expected, f"seed {seed} at {board.fen()}"
            return board.ply()
        move = rng.choice(theirs)
        state.apply(move)
        board.push_uci(move)


def test_random_games_agree_with_python_chess_move_for_move():
    game = get_game(ZH, None, "compiled")
    plies = sum(random_game_against_python_chess(game, seed) for seed in range(120))
    assert plies > 120 * 50  # whole games, not openings (2,000 with MIDGARDC_LONG=1, below)


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("MIDGARDC_LONG"), reason="2,000 games; set MIDGARDC_LONG=1")
def test_two_thousand_random_games_agree_with_python_chess():
    game = get_game(ZH, None, "compiled")
    for seed in range(2_000):
        random_game_against_python_chess(game, 10_000 + seed)


def test_the_pieces_in_hand_are_shown(game):
    # the pockets are in play (chess's spare pieces are not drawn): the text lists each
    # kind a hand can hold (a promoted queen never is: it goes back as a pawn), and the
    # picture a line per kind a captured piece can be
    from midgardc.render.svg import render_svg
    from midgardc.runtime.view import render_text

    state = play(game, "e2e4 d7d5 e4d5")
    assert "white: in hand king 0, queen 0, rook 0, bishop 0, knight 0, pawn 1\n" in render_text(state, color=False)
    svg = render_svg(state)
    assert "pawn in hand" in svg and "queen in hand" in svg and "promoted_queen in hand" not in svg
