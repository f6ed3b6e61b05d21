"""Random play agrees with an independent implementation of Midgard.

FACTS (MEASURED by an independent implementation over 2,000,000 uniform-random games):
53.7 plies on average; sea wins 56.8%, land 43.2%. Over 20,000 games the standard error of
the win rate is 0.35 points and of the mean length about 0.05 plies, so the tolerances of
the issue (±1.5 points, ±0.5 plies) leave a wide margin. Fixed seeds: no flakiness.
"""

from conftest import MIDGARD, get_game

GAMES = 20_000


def test_random_games_match_the_independent_implementation():
    game = get_game(MIDGARD, None, "compiled")
    stats = game.engine.playouts(GAMES, 20261120)
    assert stats["games"] == GAMES and stats["draws"] == 0 and stats["ply_limited"] == 0
    mean_plies = stats["plies"] / GAMES
    sea_rate = stats["wins"][0] / GAMES
    assert abs(mean_plies - 53.7) <= 0.5, mean_plies
    assert abs(sea_rate - 0.568) <= 0.015, sea_rate


def test_a_draw_never_happens():
    # FACTS (DERIVED): "a draw is impossible: equal tiles needs a full board (62-62), and
    # then the 27 perimeter cells, an odd number, decide."
    game = get_game(MIDGARD, None, "compiled")
    assert game.engine.playouts(2_000, 99)["draws"] == 0
