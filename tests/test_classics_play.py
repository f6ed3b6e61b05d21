"""The classic games against published numbers and across the two back ends.

* perft (legal move sequences per depth) equals the published counts, in both engines:
  Connect Four 7^d up to depth 6, Reversi (Othello) 4 .. 55,092 to depth 7, and 8x8
  Breakthrough 22, 484, 11,132 (the interpreter goes less deep: it is the slow oracle);
* uniformly random games of the movers test spec (60; and 1,000 of it and of each classic
  with MIDGARDC_LONG=1) are the same in both engines, move for move, with the same
  aggregate results (tests/test_differential.py plays 60 of each classic in every run);
* the mean length of uniformly random games (20,000 compiled games) is within 3% of the
  published figures: Connect Four 21.3, Breakthrough 64.1, Reversi 60.4. A pass is not a
  move (no move id; ``ply`` counts moves, ``passes`` the passes before the player to move);
  the Reversi figure counts the passes in the middle of a game as plies (about 0.4 per
  random game: 59.98 moves + 0.42 passes), so that test adds them up itself.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import SPECS, get_game
from midgardc.runtime.game import perft
from test_differential import check_games

CLASSICS = SPECS / "classics"
MOVERS = str(Path(__file__).parent / "data" / "movers.yaml")

PERFT = {
    "connect-four": ([7, 49, 343, 2_401, 16_807, 117_649], 4),
    "reversi": ([4, 12, 56, 244, 1_396, 8_200, 55_092], 5),
    "breakthrough": ([22, 484, 11_132], 2),
}

LONG = bool(os.environ.get("MIDGARDC_LONG"))

MEAN_PLIES = {"connect-four": 21.3, "breakthrough": 64.1, "reversi": 60.4}


def spec(name: str) -> str:
    return str(CLASSICS / f"{name}.yaml")


@pytest.mark.parametrize("name", list(PERFT))
def test_perft_compiled_matches_published_counts(name):
    expected, _ = PERFT[name]
    game = get_game(spec(name), None, "compiled")
    assert [game.engine.perft(d) for d in range(1, len(expected) + 1)] == expected


@pytest.mark.parametrize("name", list(PERFT))
def test_perft_interpreted_matches_published_counts(name):
    expected, depth = PERFT[name]
    game = get_game(spec(name), None, "interpreted")
    assert [perft(game.new_state(), d) for d in range(1, depth + 1)] == expected[:depth]


@pytest.mark.slow
@pytest.mark.skipif(not LONG, reason="1,000 interpreter games of each; set MIDGARDC_LONG=1")
@pytest.mark.parametrize("path", [spec(n) for n in PERFT] + [MOVERS], ids=lambda p: Path(p).stem)
def test_thousand_random_games_move_for_move(path):
    """What the long run adds: 1,000 games of each (the default run plays 60 of each classic
    in tests/test_differential.py and 60 of movers.yaml below)."""
    check_games(path, None, 1000, 20_261_120)


def test_movers_random_games_move_for_move():
    # movers.yaml is in no other differential test: a quick slice of the thousand above
    check_games(MOVERS, None, 60, 20_261_120)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(MEAN_PLIES))
def test_mean_plies_of_random_games(name):
    stats = get_game(spec(name), None, "compiled").engine.playouts(20_000, 7)
    assert stats["games"] == 20_000 and stats["ply_limited"] == 0
    mean = stats["plies"] / stats["games"]
    assert abs(mean - MEAN_PLIES[name]) <= 0.03 * MEAN_PLIES[name], mean


@pytest.mark.slow
def test_reversi_mean_plies_including_passes():
    from midgardc.runtime.rng import Rng

    engine = get_game(spec("reversi"), None, "compiled").engine
    games, moves, passes = 4000, 0, 0
    for i in range(games):
        core, rng = engine.new_core(), Rng(i)
        while not core.terminal:
            legal = core.legal()
            core.apply(legal[rng.below(len(legal))])
            if not core.terminal:
                passes += core.passes  # a pass in the middle of the game
        moves += core.ply
    mean = (moves + passes) / games
    assert abs(mean - 60.4) <= 0.01 * 60.4, mean


@pytest.mark.parametrize("path", [spec(n) for n in PERFT] + [MOVERS], ids=lambda p: Path(p).stem)
def test_state_agrees_after_every_move(path):
    # board, hands (captured pieces go back to hand in the movers spec), counters, passes
    import random

    from test_differential import engines, snapshot

    interp, comp = engines(path)
    rng = random.Random(Path(path).stem)
    for game in range(8):
        a, b = interp.new_core(), comp.new_core()
        assert snapshot(a) == snapshot(b)
        while not a.terminal:
            move = rng.choice(a.legal())
            a.apply(move)
            b.apply(move)
            assert snapshot(a) == snapshot(b), f"game {game}, ply {a.ply}, after move {move}"


def test_movers_captured_pieces_go_back_to_hand(engine):
    from midgardc.runtime.game import replay

    game = get_game(MOVERS, None, engine)
    state = replay(game, ["a5-a3"])  # north's runner takes west's runner
    assert state.core.hands[2] == [4, 1]  # west: 4 stones, and the runner back in hand
    assert state.to_json()["board"]["a3"] == "north"
