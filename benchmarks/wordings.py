"""No cliffs: the speed of each pair of equal wordings (issue 15).

    .venv/bin/python benchmarks/wordings.py [--playouts N] [--runs K] [--engine compiled|interpreted]

tests/data/equal_wordings.yaml words its rules one way in the base game and another in
its variant ``other`` (tests/test_plans.py checks that both give the same move plan, loop
code and perft). This measures random playouts per second of both, interleaved (base,
other, base, ...), and prints the median of each and their ratio, which should stay
within 1.2x: equal wordings compile to the same loops. ``make bench`` runs it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from midgardc.engines import game_from_ir  # noqa: E402
from midgardc.spec.lower import load_game_ir  # noqa: E402

SPEC = str(Path(__file__).resolve().parents[1] / "tests" / "data" / "equal_wordings.yaml")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--playouts", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--engine", choices=("compiled", "interpreted"), default="compiled")
    args = parser.parse_args()
    games = {v: game_from_ir(load_game_ir(SPEC, v), args.engine) for v in (None, "other")}
    rates: dict = {v: [] for v in games}
    for run in range(args.runs):
        for v, game in games.items():
            start = time.perf_counter()
            game.engine.playouts(args.playouts, run)
            rates[v].append(args.playouts / (time.perf_counter() - start))
    base, other = (statistics.median(rates[v]) for v in (None, "other"))
    print(f"equal wordings ({args.engine}, {args.playouts} playouts, median of {args.runs} interleaved runs)")
    print(f"  base game (quantified, definitions, a == b):  {base:12,.0f} playouts/s")
    print(f"  variant other (unrolled, bodies, b == a):     {other:12,.0f} playouts/s")
    ratio = max(base, other) / min(base, other)
    print(f"  ratio {ratio:.2f}x ({'within' if ratio <= 1.2 else 'OUTSIDE'} 1.2x)")


if __name__ == "__main__":
    main()
