"""Natural game lengths: how long games get when no safety stop cuts them.

    .venv/bin/python benchmarks/game_lengths.py SPEC [--player random|greedy|mcts:100]
        [--games N] [--variant V] [--player-count N] [--budget SECONDS] [--seed S]

Every seat is played by the same kind of player, on the compiled engine, with the spec's
``game.max_plies`` raised in memory to the language's ceiling (1,000,000), so a game ends
only by its rules. Prints one JSON line per variant and player count (every variant and
count unless --variant / --player-count name one): games played, the longest and mean
length in plies, how many reached the spec's own max_plies, and how many would have been
stopped at the ceiling. Game i is seeded with derive_seed(seed, i). ``--budget`` stops a
configuration after that many seconds (the line says how many games it played).

The figures beside each spec's ``max_plies`` come from this script (issue 12: a safety stop
must never decide a game the rules would finish; the limit is at least 10x the longest game
of 2,000 random, 2,000 greedy and 100 mcts:100 games). Run it single-process (``nice``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from midgardc.players.registry import parse_player  # noqa: E402
from midgardc.players.view import PlayerView  # noqa: E402
from midgardc.engines import game_from_ir  # noqa: E402
from midgardc.runtime.rng import Rng, derive_seed  # noqa: E402
from midgardc.spec.lower import MAX_PLIES, list_player_counts, list_variants, load_game_ir  # noqa: E402


def lengths(spec: str, variant, n, player: str, games: int, seed: int, budget: float) -> dict:
    ir = load_game_ir(spec, variant, n)
    own = ir.max_plies
    game = game_from_ir(dataclasses.replace(ir, max_plies=MAX_PLIES), "compiled")
    kind = parse_player(player)
    players = [kind.make(player) for _ in range(ir.n_players)]
    started = time.monotonic()
    done = longest = total = at_own = stopped = 0
    for i in range(games):
        game_seed = derive_seed(seed, i)
        rngs = [Rng(derive_seed(game_seed, s)) for s in range(ir.n_players)]
        state = game.new_state(game_seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.sample_chance()
                continue
            seat = state.current_player()
            state.apply_unchecked(players[seat].choose(PlayerView(state, seat), rngs[seat]))
        plies = state.ply()
        done += 1
        total += plies
        longest = max(longest, plies)
        at_own += plies >= own
        stopped += bool(state.core.ply_limited)
        if budget and time.monotonic() - started > budget:
            break
    return {
        "spec": spec, "variant": variant, "players": ir.n_players, "player": player, "games": done,
        "longest": longest, "mean": round(total / max(done, 1), 1), "reached_max_plies": at_own,
        "max_plies": own, "stopped_at_ceiling": stopped,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("spec")
    ap.add_argument("--player", default="random")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--variant", default=None)
    ap.add_argument("--player-count", type=int, default=None)
    ap.add_argument("--budget", type=float, default=0.0)
    ap.add_argument("--seed", type=int, default=12)
    a = ap.parse_args()
    variants = [a.variant] if a.variant else [None, *list_variants(a.spec)]
    for v in variants:
        played = list(list_player_counts(a.spec, v)) or [None]
        counts = [n for n in played if n == a.player_count] if a.player_count else played
        for n in counts:
            print(json.dumps(lengths(a.spec, v, n, a.player, a.games, a.seed, a.budget)), flush=True)


if __name__ == "__main__":
    main()
