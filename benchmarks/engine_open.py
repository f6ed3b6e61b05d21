"""How long a new process takes to open a cached compiled engine and play one random game
(issue 25: "a new process opens a cached Midgard engine in at most 0.5 s"). Opt-in (it
times things; tests never do).

Each run is a whole ``python -c`` process, timed from outside: wall seconds and the CPU
seconds the operating system charged it. The compiled open (A) is interleaved with the
interpreter's open of the same game (B), A, B, A, B, so a drift in the machine's speed
hits both; the engine is built (or found) first and one warm-up pair is not counted.

    PYTHONPATH=. .venv/bin/python benchmarks/engine_open.py [SPEC] [--variant V] [--runs N]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

OPEN = (
    "import sys\n"
    "from midgardc.engines import load\n"
    "game = load(sys.argv[1], sys.argv[2] or None, engine=sys.argv[3])\n"
    "game.engine.playouts(1, 1)\n"
)


def run_once(spec: str, variant: str, engine: str) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one new process opening ``engine`` + one playout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", OPEN, spec, variant, engine], check=True, stdin=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("spec", nargs="?", default="specs/midgard.yaml")
    parser.add_argument("--variant", default="")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()

    from midgardc.compiler.build import build_engine
    from midgardc.spec.lower import load_game_ir

    print(f"building (or finding) the compiled engine of {args.spec} ...", file=sys.stderr, flush=True)
    build_engine(load_game_ir(args.spec, args.variant or None))
    figures: dict[str, list[tuple[float, float]]] = {"compiled": [], "interpreted": []}
    for i in range(args.runs + 1):  # the first pair warms up
        for engine in figures:
            got = run_once(args.spec, args.variant, engine)
            if i:
                figures[engine].append(got)
    print(f"{args.spec}{' [' + args.variant + ']' if args.variant else ''}: a new process opens the engine and plays one game; {args.runs} runs each, interleaved; load {os.getloadavg()[0]:.1f}")
    for engine, runs in figures.items():
        walls, cpus = [w for w, _ in runs], [c for _, c in runs]
        print(f"  {engine:11s} wall median {statistics.median(walls):.3f} s (min {min(walls):.3f}, max {max(walls):.3f}); cpu median {statistics.median(cpus):.3f} s")
    ratios = [a[0] / b[0] for a, b in zip(figures["compiled"], figures["interpreted"])]
    print(f"  compiled / interpreted wall, pair by pair: median {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
