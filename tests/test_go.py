"""Go 9x9 (specs/classics/go.yaml) against the rules it quotes: Tromp-Taylor ("Computer
Go/Tromp-Taylor Rules", en.wikibooks.org, from John Tromp's Go page) with suicide
forbidden (AGA) and a komi of 7.5. Rule tests on both back ends, an independent oracle
for legality (captures, no suicide, positional superko) along random games, the
differential, and a comparison with OpenSpiel's own ``go`` (pyspiel) along random games:
legal moves and returns (20 games here; MIDGARDC_LONG=1 plays 1,000)."""

from __future__ import annotations

import os
import random

import pytest

from conftest import ENGINES, SPECS, get_game
from midgardc.runtime.game import perft
from test_differential import check_games

GO = str(SPECS / "classics" / "go.yaml")
BLACK, WHITE = 1, 2  # piece ids of the stones
PASS = 81  # the pass action's move id (after the 81 points)


def point(name: str) -> int:
    """a1 (bottom left) .. i9 (top right) -> board order (row 0 at the top)."""
    return (9 - int(name[1:])) * 9 + "abcdefghi".index(name[0])


def loaded(engine: str, black=(), white=(), current: int = 0):
    core = get_game(GO, None, engine).engine.new_core()
    board = [0] * 81
    for name in black:
        board[point(name)] = BLACK
    for name in white:
        board[point(name)] = WHITE
    core.load(board, [[10_000], [10_000]], current, 1 - current, 20)
    return core


@pytest.mark.parametrize("engine", ENGINES)
def test_clearing_the_opponent_color(engine):
    # "A move consists of coloring an empty point one's own color; then clearing the
    # opponent color": white's b1-c2-b3-a2 ring takes black's b2 when white plays c2
    core = loaded(engine, black=["b2"], white=["b1", "b3", "a2"], current=1)
    core.apply(point("c2"))
    assert core.board[point("b2")] == 0 and core.board[point("c2")] == WHITE
    # a whole string goes at once, and only the strings without an empty point around
    core = loaded(engine, black=["a1", "b1", "e5"], white=["a2", "b2", "d5", "e6", "f5"], current=1)
    core.apply(point("c1"))
    assert core.board[point("a1")] == core.board[point("b1")] == 0 and core.board[point("e5")] == BLACK


@pytest.mark.parametrize("engine", ENGINES)
def test_no_suicide_unless_it_captures(engine):
    # black on a1 between white's a2 and b1 would not reach empty: illegal
    core = loaded(engine, white=["a2", "b1"])
    assert point("a1") not in core.legal() and point("c1") in core.legal()
    # ... unless it clears white first: then a1 reaches the emptied points
    core = loaded(engine, black=["c1", "b2", "a3"], white=["a2", "b1"])
    assert point("a1") in core.legal()
    core.apply(point("a1"))
    assert core.board[point("a2")] == core.board[point("b1")] == 0


@pytest.mark.parametrize("engine", ENGINES)
def test_ko_cannot_be_retaken_at_once(engine):
    # "A turn is either a pass; or a move that doesn't repeat an earlier grid coloring":
    # black takes the ko at b2 (white's stone there); white may not take back at once
    core = loaded(engine, black=["b1", "a2", "b3"], white=["c1", "d2", "c3", "b2"])
    core.apply(point("c2"))
    assert core.board[point("b2")] == 0
    assert point("b2") not in core.legal()  # it would recreate the grid before c2
    core.apply(point("h8"))  # a threat elsewhere ...
    core.apply(point("h2"))  # ... answered
    assert point("b2") in core.legal()  # the grid is new now (h8 and h2 are on it)


@pytest.mark.parametrize("engine", ENGINES)
def test_two_passes_end_the_game_and_komi_decides_an_empty_board(engine):
    state = get_game(GO, None, engine).new_state()
    state.apply("pass")
    state.apply("e5")  # white plays between the passes: they are not consecutive
    state.apply("pass")
    assert not state.is_terminal()
    state.apply("pass")
    assert state.is_terminal()
    # white: e5 and the 80 empty points reaching only white, 81 points, + komi 7.5 -> 177
    # half points; black: 0
    assert state.keys() == [[0], [177]] and state.returns() == [-1.0, 1.0]
    empty = get_game(GO, None, engine).new_state()
    empty.apply("pass")
    empty.apply("pass")
    # "the number of empty points that reach only her color": none reach any colour
    assert empty.keys() == [[0], [15]] and empty.returns() == [-1.0, 1.0]


@pytest.mark.parametrize("engine", ENGINES)
def test_area_scoring(engine):
    # a black wall on the e file, a white one on the f file: a..d reach only black,
    # g..i only white, and nothing is shared
    black = [f"e{r}" for r in range(1, 10)]
    white = [f"f{r}" for r in range(1, 10)]
    core = loaded(engine, black=black, white=white)
    assert core.keys() == [[2 * 45], [2 * 36 + 15]]
    # one white stone inside black's side: the empty points around it reach both colours
    core = loaded(engine, black=black, white=white + ["b5"])
    assert core.keys() == [[2 * 9], [2 * 37 + 15]]


def test_perft_shallow():
    # 81 points and a pass; after a play, 80 points and a pass; after a pass, 81 and a pass
    assert get_game(GO, None, "compiled").engine.perft(1) == 82
    assert get_game(GO, None, "compiled").engine.perft(2) == 81 * 81 + 82
    assert perft(get_game(GO, None, "interpreted").new_state(), 2) == 81 * 81 + 82


@pytest.mark.parametrize("engine", ENGINES)
def test_legality_against_an_oracle(engine):
    # Along random games: a play is legal exactly when, played on a copy, its stone is
    # still there with an empty neighbour in its string and the grid was never seen
    # before (every earlier grid, whoever was to move): an independent reading of the
    # rules, with its own flood fill and its own record of grids.
    game = get_game(GO, None, engine).engine
    nbrs = game.ir.board.neighbours
    rng = random.Random(11)
    checked = 0
    for _ in range(1 if engine == "interpreted" else 12):
        core = game.new_core()
        grids = {tuple(core.board[:81])}
        while not core.terminal:
            legal = set(core.legal())
            assert PASS in legal
            me = core.current + 1
            # (the interpreter, slow, checks a sample: a few legal plays and every illegal one)
            sample = range(81) if engine == "compiled" else [c for c in range(81) if c not in legal or rng.random() < 0.05]
            for c in sample:
                if core.board[c]:
                    assert c not in legal
                    continue
                after = core.clone()
                after.apply(c)
                string, todo = {c}, [c]
                while todo:
                    for y in nbrs[todo.pop()]:
                        if y not in string and after.board[y] == me:
                            string.add(y)
                            todo.append(y)
                alive = after.board[c] == me and any(after.board[y] == 0 for x in string for y in nbrs[x])
                assert (c in legal) == (alive and tuple(after.board[:81]) not in grids), (core.ply, c)
                checked += 1
            core.apply(rng.choice(sorted(legal)))
            grids.add(tuple(core.board[:81]))
    assert checked > (1000 if engine == "compiled" else 100)


def test_both_engines_play_the_same_games():
    check_games(GO, None, 20, 9)


@pytest.mark.skipif(not os.environ.get("MIDGARDC_LONG"), reason="about 11 minutes of interpreter games on a loaded machine; set MIDGARDC_LONG=1")
def test_thousand_random_games_move_for_move():
    check_games(GO, None, 1000, 20_261_123)


# --------------------------------------------------------------------------- OpenSpiel


def _openspiel_action(move: int) -> int:
    """Our move id (a point in board order from the top, or the pass) -> OpenSpiel's (row
    from the bottom * 9 + column, pass 81)."""
    if move == PASS:
        return 81
    return (8 - move // 9) * 9 + move % 9


def test_against_openspiel_go():
    # OpenSpiel's go (Chinese-style area scoring, suicide illegal) forbids only the
    # simple ko's immediate retake, where we forbid every repeated grid: so its legal
    # moves must be ours plus exactly the plays that would repeat a grid; everything
    # else (captures, suicide, the two passes, the scores with komi) must agree.
    pyspiel = pytest.importorskip("pyspiel")
    games = 1000 if os.environ.get("MIDGARDC_LONG") else 20
    spiel = pyspiel.load_game("go", {"board_size": 9, "komi": 7.5, "max_game_length": 5000})
    ours = get_game(GO, None, "compiled")
    rng = random.Random(2026)
    superko_only = 0
    for _ in range(games):
        a, b = ours.new_state(), spiel.new_initial_state()
        while not a.is_terminal():
            assert not b.is_terminal()
            mine = a.legal_move_ids()
            theirs = set(b.legal_actions())
            extra = theirs - {_openspiel_action(m) for m in mine}
            assert {_openspiel_action(m) for m in mine} <= theirs
            for action in extra:  # a grid repeated: legal for OpenSpiel, not for us
                move = next(c for c in range(81) if _openspiel_action(c) == action)
                after = a.core.clone()
                after.apply(move)
                assert after.times_seen() >= 2, (a.history, move)
                superko_only += 1
            move = mine[rng.randrange(len(mine))]
            a.apply_unchecked(move)
            b.apply_action(_openspiel_action(move))
        assert b.is_terminal()
        assert a.returns() == list(b.returns())
    assert games < 1000 or superko_only > 0
