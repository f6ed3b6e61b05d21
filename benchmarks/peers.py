"""Our compiled engines beside the peers' figures (issue 15): ``make bench-peers``.

    .venv/bin/python benchmarks/peers.py [--playouts N] [--runs K] [--json]

Runs ``midgardc bench`` (compiled engine, random playouts from the start, median of K runs)
on the classics and Midgard, and prints beside each the peers' random playouts/s as
reference constants, with their source, and our figure divided by each. Nothing outside
the project is built or run: the peer figures are constants copied from the issue's table.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Source of every constant below: issue 15 ("Speed: whole-board bit arithmetic, no
# performance cliffs, and search in C"), its table "Measured side by side in one run on
# this kind of machine (single core, pinned, interleaved, median of 5; random playouts/s
# from the start, same mean game length in every engine)". None: no figure in the table.
SOURCE = "issue 15, table measured side by side (single core, pinned, interleaved, median of 5)"
PEERS = {
    "rbg": "Regular Boardgames (generated C++)",
    "hand": "hand-written C++ (Midgard: bitboard C)",
}
# spec, title, issue's midgardc figure at the time, peers, the target for us
GAMES = [
    ("specs/classics/connect-four.yaml", "Connect Four", 889_894, {"rbg": 675_766, "hand": 6_087_196}, 3_000_000),
    ("specs/classics/breakthrough.yaml", "Breakthrough 8x8", 63_258, {"rbg": 37_707, "hand": 206_842}, 100_000),
    ("specs/classics/reversi.yaml", "Reversi 8x8", 28_139, {"rbg": 18_740, "hand": 226_932}, 110_000),
    ("specs/classics/hex.yaml", "Hex 11x11", 39_130, {"rbg": 18_700, "hand": None}, 80_000),
    ("specs/classics/tic-tac-toe.yaml", "Tic-tac-toe", 5_844_867, {"rbg": 2_396_095, "hand": None}, None),
    ("specs/midgard.yaml", "Midgard", 175_134, {"rbg": None, "hand": 363_478}, 360_000),
]


def measure(spec: str, playouts: int, runs: int) -> dict:
    """One ``midgardc bench`` run of the compiled engine, as its JSON row."""
    midgardc = Path(sys.executable).with_name("midgardc")
    command = [str(midgardc), "bench", spec, "--engine", "compiled", "--runs", str(runs), "--playouts", str(playouts), "--json"]
    out = subprocess.run(command, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return json.loads(out)["engines"]["compiled"]


def rows(playouts: int, runs: int, only: list[str]) -> list[dict]:
    result = []
    for spec, title, then, peers, target in GAMES:
        if only and not any(o in spec for o in only):
            continue
        # short games get more playouts so that every run lasts about as long
        n = playouts * (10 if "tic-tac-toe" in spec else 3 if "connect-four" in spec else 1)
        r = measure(spec, n, runs)
        rate = r["playouts_per_s"]
        result.append(
            {
                "spec": spec,
                "game": title,
                "playouts_per_s": rate,
                "mean_plies": r["mean_plies"],
                "issue_figure": then,
                "target": target,
                "peers": {k: {"playouts_per_s": v, "ratio": (round(rate / v, 3) if v else None)} for k, v in peers.items()},
            }
        )
    return result


def _num(x) -> str:
    return "-" if x is None else f"{x:,.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--playouts", type=int, default=100_000, help="playouts per run (x3 for Connect Four, x10 for tic-tac-toe)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("only", nargs="*", help="measure only the specs whose path contains one of these")
    args = parser.parse_args()
    result = rows(args.playouts, args.runs, args.only)
    if args.json:
        print(json.dumps({"source": SOURCE, "peers": PEERS, "runs": args.runs, "results": result}, indent=2))
        return
    table = [["game", "midgardc", "target", "RBG C++", "ours/RBG", "hand-written", "ours/hand"]]
    for r in result:
        rbg, hand = r["peers"]["rbg"], r["peers"]["hand"]
        table.append(
            [
                r["game"],
                _num(r["playouts_per_s"]),
                _num(r["target"]),
                _num(rbg["playouts_per_s"]),
                "-" if rbg["ratio"] is None else f"{rbg['ratio']:.2f}x",
                _num(hand["playouts_per_s"]),
                "-" if hand["ratio"] is None else f"{hand['ratio']:.2f}x",
            ]
        )
    print(f"random playouts/s from the start, compiled engine, median of {args.runs} runs (midgardc bench)")
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for row in table:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))))
    print(f"peer figures are constants, not measured here: {SOURCE}.")
    print("RBG C++: " + PEERS["rbg"] + "; hand-written: " + PEERS["hand"] + ".")


if __name__ == "__main__":
    main()
