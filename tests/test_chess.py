"""Chess (specs/classics/chess.yaml), by the FIDE Laws of Chess, in both back ends: perft
from the start, each rule the Laws state (the article quoted in each test), and a
move-for-move comparison with python-chess along random games."""

from __future__ import annotations

import os
import random

import pytest

from conftest import ENGINES, SPECS, get_game
from midgardc.runtime.ending import end_reason, ending

CHESS = str(SPECS / "classics" / "chess.yaml")

# Perft from the start (chessprogramming.org "Perft Results": 20, 400, 8,902, 197,281,
# 4,865,609). midgardc's perft is the standard one: only sequences of exactly the depth
# count, so the 8 checkmates among the 197,281 positions at depth 4 add nothing at depth 5.
START_PERFT = [20, 400, 8_902, 197_281, 4_865_609]


@pytest.fixture(params=ENGINES)
def game(request):
    return get_game(CHESS, None, request.param)


def play(game, moves: str):
    state = game.new_state()
    for m in moves.split():
        state.apply(m)
    return state


def legal(state) -> set:
    return {m.text for m in state.legal_moves()}


@pytest.mark.parametrize("engine", ENGINES)
def test_slide_goes_up_to_the_first_piece_and_includes_it(engine):
    # tests/data/sliders.yaml: a1's rook stops at a3 (Black's, capturable) and at b1
    # (beside c1, White's own); c1's runs to c4 and d1, and back to b1
    sliders = get_game(str(SPECS.parent / "tests" / "data" / "sliders.yaml"), None, engine)
    assert [m.text for m in sliders.new_state().legal_moves()] == ["a1-a3", "a1-a2", "a1-b1", "c1-c4", "c1-c3", "c1-c2", "c1-b1", "c1-d1"]


def test_perft_from_the_start_on_the_interpreter():
    from midgardc.runtime.game import perft

    game = get_game(CHESS, None, "interpreted")
    assert [perft(game.new_state(), d) for d in (1, 2, 3)] == START_PERFT[:3]


def test_perft_from_the_start_on_the_compiled_engine():
    engine = get_game(CHESS, None, "compiled").engine
    counts = [engine.perft(d) for d in (1, 2, 3, 4, 5)]
    assert counts == START_PERFT


def test_the_start_twenty_moves_in_uci_notation(game):
    # 3.7.1-3.7.2: each pawn one or two squares forward; 3.6: the knights' four moves
    state = game.new_state()
    pawns = {f"{f}2{f}{r}" for f in "abcdefgh" for r in "34"}
    assert legal(state) == pawns | {"b1a3", "b1c3", "g1f3", "g1h3"}


def test_fools_mate_is_checkmate_and_black_wins(game):
    # 1.4, 1.4.1: the opponent's king under attack and no legal move: checkmate, a win
    state = play(game, "f2f3 e7e5 g2g4 d8h4")
    assert state.is_terminal() and state.to_json()["winner"] == "black"
    # said as the table says it: the reason, the length in moves of both players (1.3)
    assert ending(state)["text"] == "black wins by checkmate in 2 moves"


def test_stalemate_is_a_draw(game):
    # 5.2.1 "The game is drawn when the player to move has no legal move and his/her king
    # is not in check" (Sam Loyd's ten-move stalemate)
    state = play(game, "e2e3 a7a5 d1h5 a8a6 h5a5 h7h5 h2h4 a6h6 a5c7 f7f6 c7d7 e8f7 d7b7 d8d3 b7b8 d3h7 b8c8 f7g6 c8e6")
    assert state.is_terminal() and state.to_json()["winner"] == "draw"
    assert end_reason(state) == "stalemate"


def test_threefold_repetition_ends_the_game_in_a_draw(game):
    # 9.2, 9.2.2: the same position for the third time (the start, White to move, after the
    # knights went out and back twice)
    state = play(game, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1")
    assert not state.is_terminal()
    state.apply("f6g8")
    assert state.is_terminal() and state.to_json()["winner"] == "draw"
    assert end_reason(state) == "threefold repetition"


def test_a_position_with_other_castling_rights_is_not_the_same(game):
    # 9.2.3.2: the kings leave and come back: the rights are lost, so the start position
    # after it is a new one
    state = play(game, "e2e4 e7e5 e1e2 e8e7 e2e1 e7e8 e1e2 e8e7 e2e1 e7e8")
    assert not state.is_terminal()
    state.apply("e1e2")
    state.apply("e8e7")
    assert state.is_terminal()  # e2/e7 kings for the third time (rights already lost)


def test_castling_both_wings_moves_the_rook(game):
    # 3.8.2 "the king is transferred from its original square two squares towards the
    # rook on its original square, then that rook is transferred to the square the king
    # has just crossed"
    state = play(game, "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6")
    assert "e1g1" in legal(state)
    state.apply("e1g1")
    kinds = state.to_json()["kinds"]
    assert kinds["g1"] == "king" and kinds["f1"] == "rook" and "h1" not in kinds and "e1" not in kinds
    state = play(game, "d2d4 d7d5 b1c3 b8c6 c1f4 c8f5 d1d2 d8d7")
    state.apply("e1c1")
    kinds = state.to_json()["kinds"]
    assert kinds["c1"] == "king" and kinds["d1"] == "rook" and "a1" not in kinds


def test_castling_rights_are_lost_when_the_king_or_the_rook_moves(game):
    # 3.8.2.1 "The right to castle has been lost: 1) If the king has already moved, or 2) With
    # a rook that has already moved"
    state = play(game, "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 h1g1 f8c5 g1h1 d7d6")
    assert "e1g1" not in legal(state)
    state = play(game, "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1e2 f8c5 e2e1 d7d6")
    assert "e1g1" not in legal(state)


def test_no_castling_out_of_through_or_into_check(game):
    # 3.8.2.2 "Castling is prevented temporarily: 3) If the square on which the king
    # stands, or the square which it must cross, or the square which it is to occupy, is
    # attacked by one or more of the opponent's pieces"
    crossed = play(game, "e2e4 b7b6 g1f3 c8a6 g2g3 e7e6 f1h3 d7d6")  # the bishop on a6 sees f1
    assert "e1g1" not in legal(crossed) and "e1f1" not in legal(crossed)
    check = play(game, "e2e3 e7e6 g1f3 f8b4 f1e2 b4d2")  # Bxd2+
    assert legal(check) == {"b1d2", "c1d2", "d1d2", "e1d2", "e1f1", "f3d2"}
    # 3.8.2.2 "4) If there is any piece between the king and the rook with which castling
    # is to be effected"
    between = play(game, "e2e4 e7e5 g1f3 b8c6")
    assert "e1g1" not in legal(between)


def test_en_passant_capture_only_right_after_the_double_step(game):
    # 3.7.3.1 "A pawn occupying a square on the same rank as and on an adjacent file to an
    # opponent's pawn which has just advanced two squares [...] may capture this
    # opponent's pawn as though the latter had been moved only one square"; 3.7.3.2 "This
    # capture is only legal on the move following this advance"
    state = play(game, "e2e4 a7a6 e4e5 d7d5")
    assert "e5d6" in legal(state)
    state.apply("e5d6")
    assert "d5" not in state.to_json()["kinds"] and state.to_json()["kinds"]["d6"] == "pawn"
    late = play(game, "e2e4 a7a6 e4e5 d7d5 a2a3 a6a5")
    assert "e5d6" not in legal(late)


def test_promotion_to_any_piece_on_the_last_rank(game):
    # 3.7.3.3 "he/she must exchange that pawn as part of the same move for a new queen,
    # rook, bishop or knight of the same colour on the intended square of arrival"
    state = play(game, "h2h4 g7g5 h4g5 h7h6 g5h6 f8g7 h6g7 g8f6")
    moves = legal(state)
    assert {"g7h8q", "g7h8r", "g7h8b", "g7h8n"} <= moves and "g7h8" not in moves
    state.apply("g7h8n")
    assert state.to_json()["kinds"]["h8"] == "knight" and state.to_json()["board"]["h8"] == "white"


def test_a_pinned_piece_may_not_move(game):
    # 3.9.2 "No piece can be moved that will either expose the king of the same colour to
    # check or leave that king in check": the knight on d7 is pinned by the bishop on b5
    state = play(game, "e2e4 d7d5 f1b5 b8d7 a2a3")
    assert not any(m.startswith("d7") for m in legal(state))


def test_the_fifty_move_clock_counts_plies_without_a_pawn_move_or_a_capture(game):
    # 9.3: the clock the fifty-move rule reads (its end: test_position.py, from a FEN)
    state = play(game, "e2e4")
    assert state.to_json()["counters"]["quiet_moves"] == 0
    state.apply("g8f6")
    state.apply("b1c3")
    assert state.to_json()["counters"]["quiet_moves"] == 2
    state.apply("f6e4")  # a capture
    assert state.to_json()["counters"]["quiet_moves"] == 0


# After the last pawn move (e6e5), 98 quiet plies: the knights go out and back (no position
# three times), Black's bishop goes round f8-d6-e7-f8 (checked with python-chess when made)
FIFTY_QUIET = (
    "f2f3 e7e6 g2g4 e6e5 b1c3 g8e7 g1h3 e7f5 h3f2 b8c6 c3b1 f5d6 f2h3 c6a5 h3f4 d6b5 f4d3 "
    "a5c6 b1a3 c6e7 d3f4 e7f5 f4g2 f5h6 g2h4 b5d6 a3b1 d6f5 b1c3 f5e7 c3e4 h6f5 e4g3 e7g8 "
    "h4g2 f5e7 g3e4 e7g6 e4f2 g8e7 g2f4 e7f5 f2e4 f5d6 f4d3 g6e7 d3f2 e7d5 e4g3 d6b5 f2d3 "
    "b5d6 d3f4 d5e7 f4d3 e7g6 d3f2 d6f5 g3e4 f5e7 f2d3 e7g8 d3f4 g6e7 e4f2 e7f5 f4g2 g8e7 "
    "f2e4 f5h6 e4g3 e7f5 g2h4 f5d6 g3e4 d6b5 e4c3 h6f5 c3b1 f5e7 b1a3 e7c6 h4g2 c6a5 g2f4 "
    "b5d6 f4d3 a5c6 a3b1 d6f5 d3f4 c6b8 f4h3 f5e7 h3f2 e7g8 b1c3 f8d6 f2h3 d6e7 h3g1 e7f8"
)


def test_a_mate_on_the_hundredth_quiet_ply_wins(game):
    # 9.6.2 "If the last move resulted in checkmate, that shall take precedence" (and
    # 5.1.1: a checkmate "immediately ends the game"): the fool's mate as the 100th ply
    # without a pawn move or a capture wins for Black
    state = play(game, FIFTY_QUIET)
    blocked = state.clone()
    state.apply("c3b1")
    assert not state.is_terminal() and state.to_json()["counters"]["quiet_moves"] == 99
    state.apply("d8h4")
    assert state.to_json()["counters"]["quiet_moves"] == 100
    assert state.is_terminal() and state.to_json()["winner"] == "black"
    assert end_reason(state) == "checkmate"
    # the same check with White's knight on e4, which could block on f2 or g3: not a
    # mate, so the fifty-move rule draws
    blocked.apply("c3e4")
    blocked.apply("d8h4")
    assert blocked.is_terminal() and blocked.to_json()["winner"] == "draw"
    assert end_reason(blocked) == "the fifty-move rule"


# 5.2.2 dead positions, each from a FEN start, with White to move: a dead position ends the
# game at once in a draw; the others play on. The cases are python-chess's
# is_insufficient_material() (chess/__init__.py, has_insufficient_material: no pawn, rook
# or queen; a knight only alone against a bare king; bishops only all on one colour, and
# no knight). a1, b2, c1, e3 and f8 are dark squares, b1 and c8 light (2.1: h1 is light).
DEAD = {
    "K v K": "8/8/8/4k3/8/8/8/4K3 w - - 0 1",
    "K+N v K": "8/8/8/4k3/8/8/8/4KN2 w - - 0 1",
    "K v K+N": "8/8/2n5/4k3/8/8/8/4K3 w - - 0 1",
    "K+B v K": "8/8/8/4k3/8/8/8/2B1K3 w - - 0 1",
    "K v K+B": "8/8/8/4k3/8/8/8/4K1b1 w - - 0 1",
    "K+B v K+B, one colour": "5b2/8/8/4k3/8/8/8/2B1K3 w - - 0 1",
    "K+B+B v K+B, one colour": "5b2/8/8/4k3/8/4B3/8/2B1K3 w - - 0 1",
    "K+B+B v K, one colour": "7k/8/8/8/8/8/1B6/B3K3 w - - 0 1",
}
ALIVE = {
    "K+B v K+B, two colours": "2b5/8/8/4k3/8/8/8/2B1K3 w - - 0 1",
    "K+B+B v K, two colours": "7k/8/8/8/8/8/8/BB2K3 w - - 0 1",
    "K+N v K+N": "8/8/2n5/4k3/8/8/8/4KN2 w - - 0 1",
    "K+N v K+B": "8/8/8/4k3/8/8/8/4KNb1 w - - 0 1",
    "K+N+N v K": "8/8/8/4k3/8/8/8/1N2KN2 w - - 0 1",
    "K+B+N v K": "8/8/8/4k3/8/8/8/2B1KN2 w - - 0 1",
    "K+P v K": "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
    "K+R v K": "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
    "K+Q v K": "8/8/8/4k3/8/8/8/3QK3 w - - 0 1",
}


@pytest.mark.parametrize("name", list(DEAD))
def test_a_dead_position_ends_the_game_in_a_draw(game, name):
    # 5.2.2 "The game is drawn when a position has arisen in which neither player can
    # checkmate the opponent's king with any series of legal moves [...] This immediately
    # ends the game"
    state = game.state_at(DEAD[name])
    assert state.is_terminal() and legal(state) == set() and state.to_json()["winner"] == "draw"
    assert end_reason(state) == "insufficient material"


@pytest.mark.parametrize("name", list(ALIVE))
def test_material_that_can_still_mate_plays_on(game, name):
    # the material these leave can mate (or be mated: K+N v K+N by a helped mate), so the
    # position is not dead (5.2.2) and White has moves
    state = game.state_at(ALIVE[name])
    assert not state.is_terminal() and legal(state)


def test_a_capture_that_leaves_a_dead_position_ends_the_game(game):
    # 5.2.2 "a position has arisen": the king takes the last rook, K v K is left
    state = game.state_at("8/8/8/4k3/8/8/3r4/4K3 w - - 0 1")
    assert not state.is_terminal()
    state.apply("e1d2")
    assert state.is_terminal() and state.to_json()["winner"] == "draw"
    # promoting to a bishop on a light square against a bishop on dark: two colours, alive;
    # the same bishop on a dark square against it: dead
    state = game.state_at("k7/6P1/8/8/8/8/7b/K7 w - - 0 1")
    state.apply("g7g8b")  # g8 is light, h2's bishop dark
    assert not state.is_terminal()
    state = game.state_at("k7/7P/8/8/8/8/7b/K7 w - - 0 1")
    state.apply("h7h8b")  # h8 is dark, as h2
    assert state.is_terminal() and state.to_json()["winner"] == "draw"


def test_the_dead_position_cases_are_python_chess_insufficient_material():
    # the FENs above say what python-chess says (a check of the tables, not of midgardc)
    chess = pytest.importorskip("chess")
    assert all(chess.Board(fen).is_insufficient_material() for fen in DEAD.values())
    assert not any(chess.Board(fen).is_insufficient_material() for fen in ALIVE.values())


def python_chess_over(chess, board) -> bool:
    """Whether the game is over at python-chess's position, as the spec ends it: python-chess's
    outcome(claim_draw=True), with the claims of the fifty-move rule and of threefold
    repetition taken when they are due (9.2.2 "has just appeared", 9.3), not on a move
    still to be played (9.2.1, 9.3.1: a claim the spec does not make for the player)."""
    outcome = board.outcome(claim_draw=True)
    if outcome is None:
        return False
    claims = (chess.Termination.FIFTY_MOVES, chess.Termination.THREEFOLD_REPETITION)
    return outcome.termination not in claims or board.is_fifty_moves() or board.is_repetition(3)


# python-chess's Termination names, as the spec's end.reasons name them
REASONS = {"CHECKMATE": "checkmate", "STALEMATE": "stalemate", "INSUFFICIENT_MATERIAL": "insufficient material", "FIFTY_MOVES": "the fifty-move rule", "THREEFOLD_REPETITION": "threefold repetition"}


def random_game_against_python_chess(game, seed: int) -> int:
    """A random game (moves drawn by python-chess's list) where, at every position, our
    legal moves are python-chess's, the game ends exactly when python-chess's does
    (checkmate, stalemate, insufficient material, the fifty-move rule, threefold
    repetition) with the result of python-chess's outcome(claim_draw=True). Returns the
    plies played."""
    chess = pytest.importorskip("chess")
    rng = random.Random(seed)
    state, board = game.new_state(), chess.Board()
    while True:
        over = python_chess_over(chess, board)
        theirs = sorted(m.uci() for m in board.legal_moves) if not over else []
        ours = sorted(m.text for m in state.legal_moves()) if not state.is_terminal() else []
        assert (ours, state.is_terminal()) == (theirs, over), f"seed {seed} at {board.fen()}"
        if over:
            expected = {"1-0": "white", "0-1": "black", "1/2-1/2": "draw"}[board.outcome(claim_draw=True).result()]
            assert state.to_json()["winner"] == expected, f"seed {seed} at {board.fen()}"
            termination = board.outcome(claim_draw=True).termination
            if termination in (chess.Termination.FIFTY_MOVES, chess.Termination.THREEFOLD_REPETITION):
                termination = chess.Termination.FIFTY_MOVES if board.is_fifty_moves() else chess.Termination.THREEFOLD_REPETITION
            assert end_reason(state) == REASONS[termination.name], f"seed {seed} at {board.fen()}"
            return board.ply()
        move = rng.choice(theirs)
        state.apply(move)
        board.push_uci(move)


def test_random_games_agree_with_python_chess_move_for_move():
    game = get_game(CHESS, None, "compiled")
    plies = sum(random_game_against_python_chess(game, seed) for seed in range(8))
    assert plies > 8 * 100  # whole games, not openings


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("MIDGARDC_LONG"), reason="1,000 games; set MIDGARDC_LONG=1")
def test_thousand_random_games_agree_with_python_chess():
    game = get_game(CHESS, None, "compiled")
    for seed in range(1_000):
        random_game_against_python_chess(game, 1000 + seed)


# 1,000 random games move for move on both engines (the every-spec differential of
# tests/test_differential.py plays 8 chess games per run, 60 with MIDGARDC_LONG=1). The
# interpreter plays a chess game in about 3.5 s of CPU (2026-11-23), so the 1,000 are ten
# blocks of 100 (about 6 minutes each on an idle core; each interpreted game is played
# once): run them all, or some blocks at a time in parallel processes with -k
# (benchmarks/README.md).
CHESS_BLOCKS, CHESS_BLOCK_GAMES = 10, 100


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("MIDGARDC_LONG"), reason="1,000 interpreter games (about an hour of CPU); set MIDGARDC_LONG=1")
@pytest.mark.parametrize("block", range(CHESS_BLOCKS), ids=lambda b: f"block{b}")
def test_thousand_random_games_identical_in_both_engines(block):
    from midgardc.runtime.interpreter import random_move
    from midgardc.runtime.results import summarize_core
    from midgardc.runtime.rng import Rng, derive_seed

    interp, comp = get_game(CHESS, None, "interpreted").engine, get_game(CHESS, None, "compiled").engine
    seed = 7_000 + block
    stats = None
    for i in range(CHESS_BLOCK_GAMES):
        game_seed = derive_seed(seed, i)
        core, rng, moves = interp.new_core(game_seed), Rng(game_seed), []
        while not core.terminal:
            move = random_move(core, rng)
            core.apply(move)
            moves.append(move)
        assert comp.playout_trace(game_seed) == moves, f"block {block}, game {i}"
        stats = summarize_core(interp.ir, core, stats)
    assert comp.playouts(CHESS_BLOCK_GAMES, seed) == stats  # (the interpreter's playouts(), game for game)
