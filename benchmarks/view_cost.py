"""What a learning-ready observation costs a batch step (issue 30, item 4). Opt-in (it
times things; tests never do).

``midgardc.batch.Batch(spec, B).step_random()`` with the raw tensor (A, today's default)
against the same with ``observation=VIEW`` (B, default ``learning``: canonical seats,
normalised counts, the (C, H, W) layout and the spec's history planes), interleaved
A, B, A, B, ... in one run so a drift in the machine's speed hits both. Each round plays
at least ``--steps`` batch steps per way (about 0.2 s of the raw batch); the table gives the median of the rounds in game steps
per second and B's ratio to A.

    PYTHONPATH=. .venv/bin/python benchmarks/view_cost.py [SPEC...] [--view learning] [--batch 64] [--rounds 7] [--steps 300]
"""

from __future__ import annotations

import argparse
import statistics
import time

from midgardc.batch import Batch


def rate(batch: Batch, steps: int) -> float:
    started = time.perf_counter()
    for _ in range(steps):
        batch.step_random()
    return batch.n * steps / max(time.perf_counter() - started, 1e-9)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("specs", nargs="*", default=["specs/classics/connect-four.yaml", "specs/classics/chess.yaml", "specs/classics/go.yaml"])
    ap.add_argument("--view", default="learning")
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--steps", type=int, default=300)
    args = ap.parse_args()
    print(f"{'spec':<36}{'view shape':<16}{'raw steps/s':>14}{'view steps/s':>14}{'view/raw':>10}")
    for spec in args.specs:
        a, b = Batch(spec, args.batch, seed=0), Batch(spec, args.batch, seed=0, observation=args.view)
        a.step_random(), b.step_random()  # (warm)
        # at least --steps calls a round, more for a fast game: about 0.2 s of the raw batch
        steps = max(args.steps, int(0.2 * rate(a, args.steps) / args.batch))
        ra, rb = [], []
        for _ in range(args.rounds):
            ra.append(rate(a, steps))
            rb.append(rate(b, steps))
        ma, mb = statistics.median(ra), statistics.median(rb)
        print(f"{spec.split('/')[-1]:<36}{str(b.view.shape):<16}{ma:>14,.0f}{mb:>14,.0f}{mb / ma:>10.2f}")


if __name__ == "__main__":
    main()
