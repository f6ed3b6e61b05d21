"""A batch step with an agent-chosen move against ``step_random`` (issue 30: "the batch
with an agent-chosen chess move at B = 64 within 2x of step_random"). Opt-in (it times
things; tests never do).

Three ways to step a ``midgardc.batch.Batch`` of chess (its declared 4,672 AlphaZero
action ids), interleaved A, B, C, A, B, C, ... in one run so a drift in the machine's speed
hits all of them:

* A ``step_random()``: a uniformly random legal action per game, drawn in C;
* B ``sample(probs)``: the agent's policy (a fixed float32 ``[B, 4672]`` array here, as a
  network's softmax would be) restricted to the legal actions and drawn in C;
* C ``step(actions)`` with actions the agent picked in numpy from the mask (a masked
  argmax of the same array plus noise: what a caller without ``sample`` writes).

Each round plays ``--steps`` batch steps per way; the table gives the median of the
rounds in game steps per second and each way's ratio to ``step_random``.

    PYTHONPATH=. .venv/bin/python benchmarks/batch_sample.py [SPEC] [--batch 64] [--rounds 5] [--steps 300]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from midgardc.batch import Batch


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("spec", nargs="?", default="specs/classics/chess.yaml")
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--steps", type=int, default=300)
    args = ap.parse_args()
    batch = Batch(args.spec, args.batch, seed=0)
    rng = np.random.default_rng(0)
    probs = rng.random((args.batch, batch.n_actions), dtype=np.float32)

    def random_step() -> None:
        batch.step_random()

    def sampled() -> None:
        batch.sample(probs)

    def numpy_choice() -> None:
        scores = np.where(batch.mask != 0, probs + rng.random(probs.shape, dtype=np.float32), -1.0)
        batch.step(scores.argmax(axis=1))

    ways = {"step_random": random_step, "sample(probs)": sampled, "numpy masked argmax": numpy_choice}
    times: dict[str, list[float]] = {name: [] for name in ways}
    for fn in ways.values():  # warm up
        for _ in range(10):
            fn()
    for _ in range(args.rounds):
        for name, fn in ways.items():
            started = time.perf_counter()
            for _ in range(args.steps):
                fn()
            times[name].append(time.perf_counter() - started)
    base = args.batch * args.steps / statistics.median(times["step_random"])
    print(f"{args.spec}: batch {args.batch}, {batch.n_actions} actions, {args.rounds} rounds of {args.steps} steps, interleaved")
    for name, ts in times.items():
        rate = args.batch * args.steps / statistics.median(ts)
        print(f"  {name:22s} {rate:12,.0f} game steps/s   {base / rate:5.2f}x step_random's time")


if __name__ == "__main__":
    main()
