"""Go's compiled random playouts against OpenSpiel's native Go, per ply and per CPU-second,
and chess's agent-chosen batch step against ``step_random`` (issue 30, item 7 and its
benchmark). Opt-in: it times things, and tests never do.

    PYTHONPATH=. .venv/bin/python benchmarks/go_vs_openspiel.py [--rounds 5] [--games 2000] [--steps 300] [--json]

What is timed, each in CPU seconds of this process (``time.process_time``: other work on a
shared machine slows the wall clock, much less the CPU time), interleaved A, B, C, D, A, B,
... in one run so a drift in the machine's speed hits every way alike:

* ``midgardc``: ``engine.playouts(n, seed)`` of specs/classics/go.yaml, the compiled
  engine's own C playout loop (what ``midgardc bench`` times);
* ``openspiel``: ``pyspiel.evaluate_bots`` with two ``make_uniform_random_bot`` bots, which
  plays whole games in C++ (the bot draws uniformly from ``LegalActions()``, pass
  included; ours draw each legal move as likely, by rejection: only the move drawn is
  looked ahead, see docs/design.md). Its plies are counted by replaying the same games from
  Python with bots of the same seeds (a uniform bot's draws depend only on its seed and the
  legal actions, so the games are the same; the returns are compared to prove it);
  that replay is not timed;
* ``chess step_random`` and ``chess sample(probs)`` at ``--batch`` games: a ``Batch`` of
  specs/classics/chess.yaml stepped with a random legal move drawn in C, and with an
  agent's policy (a fixed float32 ``[B, n_actions]`` array, as a network's softmax would
  be) restricted to the legal moves and drawn in C.

pgx (JAX) is measured beside them when ``import pgx`` works; it is not one of the project's
extras, so without it the row is left out and the run says so.

Where the two Go games differ (OpenSpiel's open_spiel/games/go/go.cc): OpenSpiel forbids
simple ko and suicide but not a move that repeats an earlier position: such a move ends
the game as a draw (``superko_``). Ours forbids it (positional superko, ``legal_after``),
and the game goes on. OpenSpiel stops at ``max_game_length`` (2 * 81 = 162 plies by
default, here raised to 6,000 like our spec's safety stop so that no game is cut short).
Both score by Tromp-Taylor area with komi 7.5. The games therefore differ in length; the
figure compared is plies per CPU-second.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from typing import Callable, Optional

import numpy as np

from midgardc.batch import Batch
from midgardc.engines import load

GO_SPEC = "specs/classics/go.yaml"
CHESS_SPEC = "specs/classics/chess.yaml"
# OpenSpiel's parameters matching our spec: a 9x9 board, komi 7.5, and the length limit
# raised to our safety stop (max_plies: 6000) so that random games end by the rules
OPENSPIEL_GO = {"board_size": 9, "komi": 7.5, "max_game_length": 6000}


def cpu_time(fn: Callable[[], int]) -> tuple[float, int]:
    """(CPU seconds, plies or steps) of one call of ``fn``, which returns its count."""
    started = time.process_time()
    count = fn()
    return time.process_time() - started, count


class OpenSpielGo:
    """OpenSpiel's native Go played by uniform random bots in C++, with a ply counter."""

    def __init__(self, games: int) -> None:
        import pyspiel

        self.pyspiel = pyspiel
        self.game = pyspiel.load_game("go", OPENSPIEL_GO)
        self.games = games
        self.round = 0

    def bots(self, seed: int) -> list:
        return [self.pyspiel.make_uniform_random_bot(p, seed * 2 + p) for p in range(2)]

    def run(self) -> int:
        """Plays ``games`` games in C++ (timed by the caller); returns their plies, which
        an untimed Python replay of the same games counts afterwards."""
        seed = self.round
        self.round += 1
        bots = self.bots(seed)
        returns = [self.pyspiel.evaluate_bots(self.game.new_initial_state(), bots, 0) for _ in range(self.games)]
        self._pending = (seed, returns)
        return 0

    def count_plies(self) -> int:
        """The plies of the games the last ``run`` played, replayed from Python."""
        seed, returns = self._pending
        bots = self.bots(seed)
        plies = 0
        for want in returns:
            state = self.game.new_initial_state()
            for bot in bots:
                bot.restart()
            while not state.is_terminal():
                state.apply_action(bots[state.current_player()].step(state))
                plies += 1
            if state.returns() != want:
                raise SystemExit("OpenSpiel's replay differs from its C++ games: the ply count would be wrong")
        return plies


def pgx_go(games: int) -> Optional[Callable[[], int]]:
    """pgx's 9x9 Go stepped by uniform random legal actions, ``games`` at once under
    ``jax.vmap`` on the CPU until all end; None if pgx is not importable."""
    try:
        import jax
        import jax.numpy as jnp
        import pgx
    except ImportError:
        return None
    env = pgx.make("go_9x9")
    init, step = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))
    key = jax.random.PRNGKey(0)

    def run() -> int:
        nonlocal key
        key, sub = jax.random.split(key)
        state = init(jax.random.split(sub, games))
        plies = 0
        while not bool(state.terminated.all() | state.truncated.all()):
            key, sub = jax.random.split(key)
            logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
            action = jax.random.categorical(sub, logits)
            live = ~(state.terminated | state.truncated)
            plies += int(live.sum())
            state = step(state, action)
        return plies

    run()  # compile
    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--games", type=int, default=2000, help="Go games per way and round")
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--steps", type=int, default=300, help="chess batch steps per way and round")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    go = load(GO_SPEC, engine="compiled")
    openspiel = OpenSpielGo(args.games)
    chess = Batch(CHESS_SPEC, args.batch, seed=0)
    probs = np.random.default_rng(0).random((args.batch, chess.n_actions), dtype=np.float32)
    seeds = iter(range(1, 1_000_000))

    def ours() -> int:
        return go.engine.playouts(args.games, next(seeds))["plies"]

    def chess_random() -> int:
        for _ in range(args.steps):
            chess.step_random()
        return args.batch * args.steps

    def chess_sample() -> int:
        for _ in range(args.steps):
            chess.sample(probs)
        return args.batch * args.steps

    ways: dict[str, Callable[[], int]] = {
        "midgardc go (compiled C playouts)": ours,
        "openspiel go (C++, evaluate_bots)": openspiel.run,
        f"chess step_random B={args.batch}": chess_random,
        f"chess sample(probs) B={args.batch}": chess_sample,
    }
    pgx_run = pgx_go(args.batch)
    if pgx_run is not None:
        ways[f"pgx go_9x9 (JAX CPU, B={args.batch})"] = pgx_run
    for fn in ways.values():  # warm up (and build the engines)
        fn()
    openspiel.count_plies()

    names = list(ways)
    rates: dict[str, list[float]] = {name: [] for name in ways}
    lengths: dict[str, list[float]] = {"midgardc": [], "openspiel": []}
    for _ in range(args.rounds):
        for name, fn in ways.items():
            seconds, count = cpu_time(fn)
            if name == names[1]:  # the C++ games' plies, counted by an untimed replay
                count = openspiel.count_plies()
                lengths["openspiel"].append(count / args.games)
            elif name == names[0]:
                lengths["midgardc"].append(count / args.games)
            rates[name].append(count / max(seconds, 1e-9))

    med = {name: statistics.median(r) for name, r in rates.items()}
    result = {
        "load_average": os.getloadavg(),
        "rounds": args.rounds,
        "games": args.games,
        "batch": args.batch,
        "rates": {n: {"min": min(r), "median": med[n], "max": max(r)} for n, r in rates.items()},
        "mean_plies": {k: statistics.mean(v) for k, v in lengths.items()},
        "go_ratio": med[names[0]] / med[names[1]],
        "chess_sample_time_vs_step_random": med[names[2]] / med[names[3]],
        "pgx": pgx_run is not None,
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{args.rounds} rounds, interleaved; CPU time; load average {' '.join(f'{x:.2f}' for x in result['load_average'])}")
    print(f"{'way':40s} {'min':>12s} {'median':>12s} {'max':>12s}   (Go: plies/CPU-s; chess: game steps/CPU-s)")
    for name, r in rates.items():
        print(f"{name:40s} {min(r):12,.0f} {med[name]:12,.0f} {max(r):12,.0f}")
    if pgx_run is None:
        print("pgx: not importable here, left out")
    print(f"mean game length: midgardc {result['mean_plies']['midgardc']:.1f} plies, openspiel {result['mean_plies']['openspiel']:.1f}")
    print(f"Go: midgardc / openspiel plies per CPU-second = {result['go_ratio']:.2f}x (issue 30's target: >= 3x)")
    print(f"chess B={args.batch}: sample(probs) takes {result['chess_sample_time_vs_step_random']:.2f}x step_random's time (target: <= 2x)")


if __name__ == "__main__":
    main()
