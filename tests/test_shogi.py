"""Shogi (specs/classics/shogi.yaml): perft from the start and from published positions,
and each rule as the spec's sources word it (the GNU Shogi manual, section 2.1; the
Canada Shogi Club's "Breach of the rules"; japanesechess.org on nifu), from positions in
SFEN. The pawn-drop mate is the lookahead that asks about the reply (can_move() in
legal_after, docs/spec-language.md)."""

from __future__ import annotations

import os

import pytest

from conftest import ENGINES, SPECS, get_game

SHOGI = str(SPECS / "classics" / "shogi.yaml")
LONG = os.environ.get("MIDGARDC_LONG") == "1"

# Perft from the start, as shogi programs count it (a move that may promote counts twice,
# promoted and not): 30, 900, 25,470, 719,731 (the figures shogi programs publish; the
# compiled engine also counts the next, 19,861,490, in about 20 s: not repeated here)
START_PERFT = [30, 900, 25_470, 719_731]

# Published positions with their perft: "matsuri" (a middle game rich in drops and
# promotions; 207, 28,684, 4,809,015 as shogi engines' test suites give them) and the
# position with the most legal moves known, 593 (Black holds every kind in hand)
MATSURI = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1"
MAX_MOVES = "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1"


@pytest.fixture(params=ENGINES)
def game(request):
    return get_game(SHOGI, None, request.param)


def legal(state) -> set:
    return {m.text for m in state.legal_moves()}


def hand(state, player: str) -> dict:
    return {k: v for k, v in next(p for p in state.to_json()["players"] if p["name"] == player)["hand"].items() if v}


def test_perft_from_the_start_on_the_interpreter():
    from midgardc.runtime.game import perft

    state = get_game(SHOGI, None, "interpreted").new_state()
    assert [perft(state, d) for d in (1, 2)] == START_PERFT[:2]


def test_perft_from_the_start_on_the_compiled_engine():
    engine = get_game(SHOGI, None, "compiled").engine
    depth = 4 if LONG else 3
    assert [engine.perft(d) for d in range(1, depth + 1)] == START_PERFT[:depth]


def test_perft_from_published_positions():
    from midgardc.runtime.game import perft

    compiled = get_game(SHOGI, None, "compiled")
    assert [perft(compiled.state_at(MATSURI), d) for d in (1, 2)] == [207, 28_684]
    assert perft(compiled.state_at(MAX_MOVES), 1) == 593
    if LONG:
        assert perft(compiled.state_at(MATSURI), 3) == 4_809_015
    assert perft(get_game(SHOGI, None, "interpreted").state_at(MATSURI), 1) == 207


def test_both_engines_list_the_same_moves_along_random_games():
    # (test_differential plays whole games of every spec; Shogi's random games run to
    # hundreds of plies on the interpreter, so here: 16 plies from the matsuri position,
    # rich in drops, checks and promotions, compared at every ply)
    import random

    interp, comp = (get_game(SHOGI, None, e) for e in ENGINES)
    rng = random.Random(11)
    for start in (MATSURI,):
        a, b = interp.state_at(start), comp.state_at(start)
        for _ in range(16):
            if a.is_terminal():
                break
            moves = sorted(legal(a))
            assert moves == sorted(legal(b)) and a.to_json() == b.to_json()
            move = rng.choice(moves)
            a.apply(move)
            b.apply(move)
        assert a.to_json() == b.to_json()


# -- the rules --------------------------------------------------------------------------


def test_a_pawn_drop_may_not_give_mate(game):
    # "持ち駒の歩を打って相手の王様を詰ませるのは、反則です" (dropping a pawn from the hand
    # to checkmate the king is a foul): P*1b checks the king on 1a, which cannot take it
    # (the gold on 1c guards it) nor step aside (its own knight and pawn): not listed
    state = game.state_at("7nk/7p1/8G/9/9/9/9/9/4K4 b P 1")
    assert "P*1b" not in legal(state) and "P*5e" in legal(state)


def test_a_pawn_drop_may_give_check_that_is_not_mate(game):
    # without the gold, the king takes the pawn: the check is no mate, and the drop legal
    state = game.state_at("7nk/7p1/9/9/9/9/9/9/4K4 b P 1")
    assert "P*1b" in legal(state)
    state.apply("P*1b")
    assert not state.is_terminal() and legal(state) == {"1a1b"}


def test_a_pawn_drop_is_mate_only_if_every_reply_is_illegal(game):
    # the king may not take the pawn when another piece would then check it: with a
    # sente lance on 1i behind the gold's place (the gold gone), 1a1b is illegal, and the
    # knight's and pawn's moves leave the king in check: mate, so the drop is not listed
    state = game.state_at("7nk/7p1/9/9/9/9/9/9/4K3L b P 1")
    assert "P*1b" not in legal(state)


def test_a_pawn_moved_may_give_mate(game):
    # "しかし、盤上の歩を動かして詰ませるのは問題ありません" (but moving a pawn on the board
    # to checkmate is no problem): the pawn on 1c steps to 1b, the lance on 1i behind it
    state = game.state_at("7nk/7p1/8P/9/9/9/9/9/4K3L b - 1")
    assert {"1c1b", "1c1b+"} <= legal(state)
    state.apply("1c1b")
    assert state.is_terminal() and state.to_json()["winner"] == "sente"


def test_another_piece_dropped_may_give_mate(game):
    # the rule is the pawn's: a lance dropped on 1b mates
    state = game.state_at("7nk/7p1/8G/9/9/9/9/9/4K4 b L 1")
    assert "L*1b" in legal(state)
    state.apply("L*1b")
    assert state.is_terminal() and state.to_json()["winner"] == "sente"


def test_two_unpromoted_pawns_may_not_share_a_file(game):
    # nifu: "you cannot drop a pawn onto a file [...] if you already have an unpromoted
    # pawn somewhere on that same file"; "A promoted pawn (tokin) does not count": Black
    # has a pawn on file 9 and a tokin on file 8; White's pawn on file 7 is not Black's
    state = game.state_at("4k4/9/9/9/6p2/9/P8/1+P7/4K4 b P 1")
    drops = {m[2:] for m in legal(state) if m.startswith("P*")}
    assert not any(c[0] == "9" for c in drops)
    assert {"8e", "7f", "7d"} <= drops


def test_a_piece_may_not_be_dropped_where_it_could_never_move(game):
    # "You cannot drop or move your pieces to the square where they cannot move anymore":
    # a pawn or lance not on the last rank, a knight not on the last two; a gold anywhere
    state = game.state_at("4k4/9/9/9/9/9/9/9/4K4 b GNLP 1")
    for letter, banned in (("P", "a"), ("L", "a"), ("N", "ab"), ("G", "")):
        ranks = {m[3] for m in legal(state) if m.startswith(letter + "*")}
        assert ranks == set("abcdefghi") - set(banned), letter


def test_promotion_in_the_zone_is_a_choice(game):
    # "A player may, but is not required to, promote a piece after making a move in which
    # the piece begins and/or ends in the promotion zone": into (5d5c), within (1b1a) and
    # out of it (3c3d) a silver may promote or not; outside it (5e5d... here 7f7e), not
    state = game.state_at("k8/8S/4S1S2/9/9/2S6/9/9/4K4 b - 1")
    moves = legal(state)
    assert {"5c5b", "5c5b+", "1b1a", "1b1a+", "3c4d", "3c4d+", "7f7e"} <= moves
    assert "7f7e+" not in moves


def test_promotion_is_forced_where_a_piece_could_not_move_again(game):
    # "You must promote a pawn or a lance after moving it to the last rank. You must
    # promote a knight after moving it to either of the last two ranks."
    state = game.state_at("k8/4P4/9/6L2/3N5/9/9/9/4K4 b - 1")
    moves = legal(state)
    assert "5b5a+" in moves and "5b5a" not in moves
    assert {"3d3c", "3d3c+", "3d3b", "3d3b+", "3d3a+"} <= moves and "3d3a" not in moves
    assert {"6e7c", "6e7c+", "6e5c", "6e5c+"} <= moves  # (rank c: not the last two)
    knight = game.state_at("k8/9/9/3N5/9/9/9/9/4K4 b - 1")
    assert {"6d7b+", "6d5b+"} <= legal(knight) and not {"6d7b", "6d5b"} & legal(knight)


def test_gold_and_king_do_not_promote(game):
    state = game.state_at("k8/9/3G5/9/9/9/9/9/4K4 b - 1")
    assert not any(m.endswith("+") for m in legal(state))


def test_a_captured_piece_goes_to_the_captors_hand_unpromoted(game):
    # "When captured, pieces lose their promoted status" (liquisearch's copy of the
    # Wikipedia article "Shogi", Promotion): a dragon taken is a rook in hand
    state = game.state_at("k8/9/9/9/4+r4/4G4/9/9/4K4 b - 1")
    state.apply("5f5e")
    assert hand(state, "sente") == {"rook": 1}
    assert "R*5a" not in legal(state)  # (gote to move)


def test_a_dropped_piece_is_unpromoted_even_in_the_zone(game):
    # "Pieces 'dropped' onto the board [...] always drop in the unpromoted state"
    state = game.state_at("k8/9/9/9/9/9/9/9/4K4 b S 1")
    assert "S*5b" in legal(state)
    state.apply("S*5b")
    assert state.to_json()["kinds"]["5b"] == "silver"


def test_no_move_may_leave_the_king_attacked(game):
    # pinned by the lance on 5a, the gold on 5h may move only along the file
    state = game.state_at("k3l4/9/9/9/9/9/9/4G4/4K4 b - 1")
    assert {m for m in legal(state) if m.startswith("5h")} == {"5h5g"}


def test_fourfold_repetition_is_a_draw(game):
    # "'Sennichi-te' is repeating the same situation 4 times. Normally it will end in a
    # draw": the kings step out and back; the start is the first time, ply 12 the fourth
    state = game.state_at("k8/9/9/9/9/9/9/9/8K b - 1")
    moves = ("1i1h 9a9b 1h1i 9b9a " * 3).split()
    for ply, move in enumerate(moves, 1):
        assert not state.is_terminal(), ply
        state.apply(move)
    assert state.is_terminal() and state.to_json()["winner"] == "draw"


def test_checkmate_wins(game):
    # "A game of shogi is won by capturing the opponent's king. In general, this is done
    # by checkmating the king" (GNU Shogi 2.1.5): a king that cannot
    # escape capture is mated, and the player who mated wins
    state = game.state_at("k8/9/1G7/9/9/9/9/9/4K4 b G 1")
    state.apply("G*9b")
    assert state.is_terminal() and state.to_json()["winner"] == "sente"


def test_the_start_position_is_the_manuals(game):
    # 2.1: each side's nine pieces on its back rank (lance, knight, silver, gold, king,
    # gold, silver, knight, lance), the bishop and rook on the rank before it (Black's
    # bishop on 8h, rook on 2h), nine pawns on the third rank; the hands empty. The spec
    # writes it as an SFEN board text; this is the square-by-square list it replaced.
    back = ["lance", "knight", "silver", "gold", "king", "gold", "silver", "knight", "lance"]
    want = {}
    for side, home, front, pawns, bishop, rook in (("sente", "i", "h", "g", "8", "2"), ("gote", "a", "b", "c", "2", "8")):
        want.update({(f"{9 - k}{home}"): (side, kind) for k, kind in enumerate(back)})
        want.update({f"{k}{pawns}": (side, "pawn") for k in range(1, 10)})
        want.update({f"{bishop}{front}": (side, "bishop"), f"{rook}{front}": (side, "rook")})
    data = game.new_state().to_json()
    got = {c: (owner, data["kinds"][c]) for c, owner in data["board"].items() if owner}
    assert got == want
    assert hand(game.new_state(), "sente") == {} and hand(game.new_state(), "gote") == {}


def test_sfen_reads_promoted_pieces_and_counted_hands(game):
    state = game.state_at(MATSURI)
    data = state.to_json()
    assert data["kinds"]["4b"] == "tokin" and data["kinds"]["3i"] == "bishop"
    assert hand(state, "sente") == {"rook": 1, "gold": 1}
    assert hand(state, "gote") == {"gold": 1, "silver": 1, "knight": 1, "pawn": 5}


@pytest.mark.parametrize(
    "text, message",
    [
        ("4k4/9/9/9/9/9/9/9/4K4 b 2X 1", "SFEN field 3 (hands), character 26 'X': not a piece letter"),
        ("4k4/9/9/9/9/9/9/9/4K4 b 0P 1", "SFEN field 3 (hands), character 26 'P': a count of 0"),
        ("4k4/9/9/9/9/9/9/9/4K4 b P3 1", "SFEN field 3 (hands), character 26 '3': not a piece letter"),
    ],
)
def test_a_hands_field_sfen_does_not_read_is_refused_where_it_fails(text, message):
    from midgardc.ir.position import PositionTextError, read_position

    with pytest.raises(PositionTextError) as err:
        read_position(get_game(SHOGI, None, "interpreted").ir, text)
    assert message in str(err.value)


def test_random_games_list_cshogis_moves():
    # cshogi (a Python binding of a shogi engine's move generator; not a dependency of
    # the project: the test runs where it is installed) lists the same legal moves, in
    # USI, at every ply of random games, the pawn-drop mate and nifu included. (Checked
    # 2026-11-27 over 200 games of up to 600 plies: 85,564 positions, all the same.)
    cshogi = pytest.importorskip("cshogi")
    import random

    game = get_game(SHOGI, None, "compiled")
    for seed in range(20):
        rng = random.Random(seed)
        state, board = game.new_state(), cshogi.Board()
        for _ in range(200):
            if state.is_terminal():
                break
            ours = sorted(legal(state))
            assert ours == sorted(cshogi.move_to_usi(m) for m in board.legal_moves), (seed, board.sfen())
            move = rng.choice(ours)
            state.apply(move)
            board.push_usi(move)


def test_perpetual_check_loses_for_the_checking_side(game):
    # "if this is caused by consecutive checks [...] by one side, the player giving these
    # checks loses the game" (GNU Shogi 2.1.6): the rook checks along file 5, then file 4,
    # the king steps between them; the position after the first check comes back a fourth
    # time at ply 13, every Black move since a check: Black loses
    state = game.state_at("4k4/9/9/9/9/9/9/3R5/K8 b - 1")
    moves = ["6h5h"] + "5a4a 5h4h 4a5a 4h5h".split() * 3
    for ply, move in enumerate(moves, 1):
        assert not state.is_terminal(), ply
        state.apply(move)
    data = state.to_json()
    assert state.is_terminal() and data["winner"] == "gote"


def test_a_repetition_with_a_quiet_move_in_it_is_a_draw(game):
    # the same shuffle, but Black's rook steps aside once per cycle (5h6h, no check) and
    # back: not every Black move of the repetition checked, so a draw
    state = game.state_at("4k4/9/9/9/9/9/9/4R4/K8 w - 1")
    cycle = "5a4a 5h6h 4a5a 6h5h".split()
    for move in cycle * 3:
        assert not state.is_terminal()
        state.apply(move)
    assert state.is_terminal() and state.to_json()["winner"] == "draw"
