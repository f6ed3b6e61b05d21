"""The issue's bar for the MCTS player, as a fixed-seed benchmark rather than a unit test:
with 500 iterations it must beat random in at least 90 and greedy in at least 60 of 100
Midgard games (seats rotated, so each side moves first in 50). The rates are printed
(``pytest -s``) and recorded in benchmarks/README.md."""

from __future__ import annotations

import pytest

from conftest import MIDGARD, get_game
from midgardc.matches import run_match
from midgardc.players import parse_players

GAMES = 100
SEED = 500


@pytest.mark.slow
@pytest.mark.parametrize("opponent, needed", [("random", 90), ("greedy", 60)])
def test_mcts_500_beats_the_baselines_on_midgard(opponent: str, needed: int) -> None:
    game = get_game(MIDGARD, None, "compiled")
    outcome = run_match(game, MIDGARD, parse_players(f"mcts:500,{opponent}"), games=GAMES, seed=SEED, workers=2)
    tally = outcome.tally
    assert tally.games == GAMES and not outcome.interrupted
    assert tally.games_by_seat[0] == [GAMES // 2, GAMES // 2]  # both seats, equally often
    won = tally.wins[0]
    print(f"\nmcts:500 vs {opponent}: won {won}/{GAMES}, lost {tally.wins[1]}, drew {tally.draws} (seed {SEED})")
    assert won >= needed
