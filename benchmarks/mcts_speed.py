"""MCTS in C against the Python-tree search it replaced: iterations per second, and a match
at equal time per move. Opt-in (it times things; tests never do):

    .venv/bin/python benchmarks/mcts_speed.py speed [SPEC...] [--iterations 1000] [--runs 5]
    .venv/bin/python benchmarks/mcts_speed.py match SPEC [--games 200] [--old 200] [--workers 2]

``speed``: for each spec, ``mcts`` (the search in the compiled module) and ``mcts-py`` (the
same algorithm with its tree in Python, rollouts in the compiled engine: the player as it
was before the search moved to C) each search from the same positions (the start and a
few plies into random games), runs interleaved (new, old, new, old, ...), median of
``--runs``; iterations/s = iterations / CPU seconds of search.

``match``: first measures both players' iterations/s on the spec (as ``speed``), then plays
``mcts:N_NEW`` against ``mcts-py:N_OLD`` where N_NEW = N_OLD x the measured speed ratio, so
both get the same time per move (the time is calibrated, not a clock in the loop, so the
match itself is deterministic and replays); seats alternate as in ``midgardc match``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

from midgardc.players.mcts import MctsPlayer, PyTreeMctsPlayer
from midgardc.players.view import PlayerView
from midgardc.engines import load
from midgardc.runtime.interpreter import random_move
from midgardc.runtime.rng import Rng

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def positions(game, count: int = 4) -> list:
    """The start and positions a few random plies in (the same ones every run)."""
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


def rate(player: MctsPlayer, states: list) -> float:
    """Iterations per CPU second of ``player`` over ``states`` (one search each): CPU time
    of this process, so that a shared machine's load does not count (the search is one
    thread)."""
    start = time.process_time()
    for i, state in enumerate(states):
        player.root_children(PlayerView(state, state.current_player()), Rng(i))
    return player.iterations * len(states) / max(time.process_time() - start, 1e-9)


def speed(spec: str, iterations: int, runs: int) -> tuple[float, float]:
    game = load(spec, None, engine="compiled")
    states = positions(game)
    new, old = MctsPlayer(iterations=iterations), PyTreeMctsPlayer(iterations=iterations)
    rate(new, states[:1])  # warm up
    rate(old, states[:1])
    news, olds = [], []
    for _ in range(runs):
        news.append(rate(new, states))
        olds.append(rate(old, states))
    return statistics.median(news), statistics.median(olds)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sp = sub.add_parser("speed")
    sp.add_argument("specs", nargs="*", default=[os.path.join(ROOT, "specs", "midgard.yaml"), os.path.join(ROOT, "specs", "classics", "connect-four.yaml")])
    sp.add_argument("--iterations", type=int, default=1000)
    sp.add_argument("--runs", type=int, default=5)
    mp = sub.add_parser("match")
    mp.add_argument("spec")
    mp.add_argument("--games", type=int, default=200)
    mp.add_argument("--old", type=int, default=200, help="iterations per move of mcts-py")
    mp.add_argument("--workers", type=int, default=2)
    mp.add_argument("--seed", type=int, default=1)
    mp.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    load = os.getloadavg()[0]
    print(f"load average {load:.2f} on {os.cpu_count()} cores (shared machine: figures are lower bounds)")
    if args.cmd == "speed":
        print("| spec | mcts (C) it/s | mcts-py it/s | ratio |")
        print("|---|---:|---:|---:|")
        for spec in args.specs:
            new, old = speed(spec, args.iterations, args.runs)
            print(f"| {os.path.relpath(spec, ROOT)} | {new:,.0f} | {old:,.0f} | {new / old:.1f}x |", flush=True)
        return
    new, old = speed(args.spec, args.old, args.runs)
    n_new = max(1, round(args.old * new / old))
    print(f"{os.path.relpath(args.spec, ROOT)}: mcts {new:,.0f} it/s, mcts-py {old:,.0f} it/s: mcts:{n_new} vs mcts-py:{args.old} at equal time per move", flush=True)
    cmd = [os.path.join(os.path.dirname(sys.executable), "midgardc"), "match", args.spec, "--players", f"mcts:{n_new},mcts-py:{args.old}", "--games", str(args.games), "--seed", str(args.seed), "--workers", str(args.workers)]
    print("$ " + " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)


if __name__ == "__main__":
    main()
