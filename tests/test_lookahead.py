"""Lookahead legality (legal_after) and the position history (history:, repeated(),
times_seen()) on both back ends, with tests/data/lookahead.yaml: stones capture chains
left without an empty neighbour, a drop must leave its chain an empty neighbour and make
a new position, a capture earns another move, and a position reached a third time ends
the game."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from conftest import ENGINES, get_game
from midgardc.ir.history import board_hash
from test_differential import check_games

LOOKAHEAD = str(Path(__file__).parent / "data" / "lookahead.yaml")
RED, BLUE = 1, 2  # piece ids: the stone of each player
SLIDE = 16  # the glide action's first move id (after the 16 drops)


def cell(name: str) -> int:
    """Board order of the 4x4 board: a4 b4 c4 d4 / a3 .. / a1 b1 c1 d1."""
    return (4 - int(name[1])) * 4 + "abcd".index(name[0])


def loaded(engine: str, stones: dict[str, int], current: int = 0, ply: int = 10):
    core = get_game(LOOKAHEAD, None, engine).engine.new_core()
    board = [0] * 16
    for name, piece in stones.items():
        board[cell(name)] = piece
    core.load(board, [[10], [10]], current, 1 - current, ply)
    return core


def test_both_engines_play_the_same_games():
    check_games(LOOKAHEAD, None, 40, 31)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_drop_without_an_empty_neighbour_is_illegal(engine):
    # red on a1 would have no empty neighbour and capture nothing
    core = loaded(engine, {"b1": BLUE, "a2": BLUE})
    assert cell("a1") not in core.legal() and cell("c1") in core.legal()


@pytest.mark.parametrize("engine", ENGINES)
def test_a_drop_that_captures_is_legal(engine):
    # red on b1 is surrounded by blue, but takes a1 (whose last empty neighbour was b1)
    around = {"a1": BLUE, "c1": BLUE, "b2": BLUE}
    assert cell("b1") not in loaded(engine, around).legal()
    core = loaded(engine, {**around, "a2": RED})
    assert cell("b1") in core.legal()
    core.apply(cell("b1"))
    assert core.board[cell("a1")] == 0 and core.counters[0][0] == 1
    assert core.current == 0  # taken(red) % 3 == 1: red moves again


@pytest.mark.parametrize("engine", ENGINES)
def test_a_third_time_ends_the_game(engine):
    core = loaded(engine, {"a4": RED, "d1": BLUE})
    assert core.times_seen() == 1
    cycle = [("a4", "b4"), ("d1", "c1"), ("b4", "a4"), ("c1", "d1")]
    for lap in (2, 3):
        for f, t in cycle:
            assert not core.terminal
            core.apply(SLIDE + cell(f) * 16 + cell(t))
        assert core.times_seen() == lap or core.terminal
    assert core.terminal and core.ply == 18


@pytest.mark.parametrize("engine", ENGINES)
def test_lookahead_against_playing_the_move(engine):
    # A drop is legal exactly when playing it (on a copy, without the legality check)
    # leaves the dropped stone's chain an empty neighbour and a position seen once.
    game = get_game(LOOKAHEAD, None, engine).engine
    nbrs = game.ir.board.neighbours
    rng = random.Random(5)
    checked = 0
    for _ in range(6):
        core = game.new_core()
        while not core.terminal:
            legal = set(core.legal())
            for c in range(16):
                if core.board[c] != 0:
                    continue
                after = core.clone()
                after.apply(c)
                me = core.current + 1
                chain, todo = {c}, [c]
                while todo:
                    for y in nbrs[todo.pop()]:
                        if y not in chain and after.board[y] == me:
                            chain.add(y)
                            todo.append(y)
                alive = after.board[c] == me and any(after.board[y] == 0 for x in chain for y in nbrs[x])
                if after.terminal or after.passes:
                    continue  # (settling moved the turn on: not the position recorded)
                assert (c in legal) == (alive and after.times_seen() == 1), (core.ply, c)
                checked += 1
            core.apply(rng.choice(sorted(legal)))
    assert checked > 200


def test_hashes_agree_and_are_kept_incrementally():
    interp = get_game(LOOKAHEAD, None, "interpreted").engine
    comp = get_game(LOOKAHEAD, None, "compiled").engine
    rng = random.Random(2)
    for _ in range(8):
        a, b = interp.new_core(), comp.new_core()
        while not a.terminal:
            assert a.legal() == b.legal()
            for turn in (-1, 0, 1):
                assert a.position_key(turn) == b.position_key(turn)
            assert a.times_seen() == b.times_seen()
            assert a.zboard == board_hash(a.board, 16, 3)
            move = rng.choice(a.legal())
            a.apply(move)
            b.apply(move)
        assert a.times_seen() == b.times_seen()


def test_the_seen_filter_has_about_sixteen_bits_a_position_in_whole_words():
    # the compiled history's filter (templates/history.pyx.j2, count_seen): a power of 2
    # words, at least 16 bits per position the history can hold, at most 1 KiB
    from midgardc.compiler.emit.history import FILTER_MAX_WORDS, filter_words

    cases = [(1, 1), (4, 1), (5, 2), (61, 16), (64, 16), (65, 32), (6001, FILTER_MAX_WORDS), (10001, FILTER_MAX_WORDS)]
    assert [filter_words(cap) for cap, _ in cases] == [words for _, words in cases]
    assert FILTER_MAX_WORDS * 64 == 8192


# -- can_move() in legal_after: the next mover's moves, one move ahead -------------------

REPLY = str(Path(__file__).parent / "data" / "lookahead_reply.yaml")


def test_reply_lookahead_both_engines_play_the_same_games():
    check_games(REPLY, None, 40, 31)


def _reply_rules(board: list[int], nbrs, c: int, me: int) -> bool:
    """lookahead_reply.yaml's where and legal_after (its can_move() as true) for a drop
    on ``c`` by player ``me`` (1 or 2, the piece id)."""
    if board[c] != 0 or any(board[y] not in (0, me) for y in nbrs[c]):
        return False
    return sum(board[y] == me for y in nbrs[c]) < 2


@pytest.mark.parametrize("engine", ENGINES)
def test_a_drop_may_not_leave_the_next_player_without_a_move(engine):
    # A drop is legal when the where and the mover's own part of legal_after hold and
    # the player who moves next (the mover again after a corner) has a drop passing its
    # where and the own part of its legal_after (its can_move() not asked: the bound).
    game = get_game(REPLY, None, engine).engine
    nbrs = game.ir.board.neighbours
    rng = random.Random(3)
    refused = 0
    for _ in range(25):
        core = game.new_core()
        while not core.terminal:
            me = core.current + 1
            expected = []
            for c in range(16):
                if not _reply_rules(core.board, nbrs, c, me):
                    continue
                after = list(core.board)
                after[c] = me
                nxt = me if len(nbrs[c]) == 2 else 3 - me
                if any(_reply_rules(after, nbrs, y, nxt) for y in range(16)):
                    expected.append(c)
                else:
                    refused += 1
            assert core.legal() == expected, (core.ply, core.board)
            core.apply(rng.choice(expected))
    assert refused > 5  # the lookahead did refuse moves
