"""`mcts:1000`'s iterations per CPU second in any checkout of the project, for comparing
with the player of an earlier commit (issue 15's "5x the mcts of the day it was filed":
f51a49a). Opt-in (it times things; tests never do). The script only uses what every
version of the player has (MctsPlayer(iterations=...).choose()), so it runs against the
checkout on PYTHONPATH, e.g.

    git archive f51a49a | tar -x -C /tmp/f51
    cd /tmp/f51 && PYTHONPATH=/tmp/f51 /path/to/.venv/bin/python /path/to/benchmarks/mcts_then.py specs/midgard.yaml 5
    cd /path/to/worktree && PYTHONPATH=. .venv/bin/python benchmarks/mcts_then.py specs/midgard.yaml 5

Positions: as benchmarks/mcts_speed.py (the start and a few random plies in), one search
each per run, after one warm-up run; prints each run's rate and the median.
"""

import statistics
import sys
import time

from midgardc.players.mcts import MctsPlayer
from midgardc.players.view import PlayerView
from midgardc.engines import load
from midgardc.runtime.interpreter import random_move
from midgardc.runtime.rng import Rng


def positions(game, count: int = 4) -> list:
    """The start and positions a few random plies in (as benchmarks/mcts_speed.py)."""
    out = []
    for i in range(count):
        state = game.new_state(i)
        rng = Rng(100 + i)
        for _ in range(3 * i):
            if state.is_terminal():
                break
            state.apply(random_move(state.core, rng) if not state.core.chance else state.core.sample_chance())
        while not state.is_terminal() and state.is_chance_node():
            state.sample_chance()
        if not state.is_terminal() and len(state.legal_move_ids()) > 1:
            out.append(state)
    return out


def main() -> None:
    spec, runs = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 5
    game = load(spec, None, engine="compiled")
    states = positions(game)
    player = MctsPlayer(iterations=1000)
    rates = []
    for _ in range(runs + 1):  # (the first run warms up)
        start = time.process_time()
        for i, state in enumerate(states):
            player.choose(PlayerView(state, state.current_player()), Rng(i))
        rates.append(1000 * len(states) / max(time.process_time() - start, 1e-9))
    print(f"{spec}: {len(states)} positions, it/s per run {[round(x) for x in rates[1:]]}, median {round(statistics.median(rates[1:]))}")


if __name__ == "__main__":
    main()
