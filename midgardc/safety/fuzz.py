"""A fuzzer for specs and command lines: every input ends in success or one clear error.

Spec cases start from every spec under ``specs/`` (found afresh on each run, subfolders
included) and the test specs in ``tests/data`` beside it (dice, player counts, remove,
extra_turn and placed graph nodes, which few real games use yet), and apply a few random
mutations: on the YAML tree (delete, duplicate, retype or rename a key; perturb a number;
splice, truncate or garble a condition string), aimed at the newer sections (a million
dice, face texts with separators, count patches that delete the board, extra turns
forever, removal off the board, node places that are not two numbers, zones and items with
odd owners, counts and names, zone effects dealing a pile to itself a trillion times),
and on the text
(truncate, duplicate or drop a line, flip a character). Each case is validated in-process
with ``load_game_ir`` for every variant and player count, and a valid one plays one short
random game; it must end in success or a ``MidgardcError`` with a message; any other
exception is a crash, and a case that runs longer than its timeout is a hang.

Command-line cases mutate argument lists of the real commands (tournament, report,
replay --record with records forged from good ones, --player-count, mcts parameters,
cluster addresses that can never start or reach a cluster) and run them through click
in-process; they must exit 0 or 1, never with a traceback.

Choices come from a ``Chooser``: ``hypothesis`` drives it in the tests and in ``make fuzz``
(``python -m midgardc.safety.fuzz --cases N``); a plain ``random.Random`` works too.

This module runs the cases and campaigns; the cases are made in ``spec_cases.py`` and
``cli_cases.py``, and ``outcomes.py`` holds the tally and the time limits.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
import traceback
from typing import Any, Callable, Optional

from ..errors import MidgardcError
from .cli_cases import Records, make_records, make_cli_case, check_cli_args
from .outcomes import CASE_TIMEOUT, Failure, Stats, _Timeout, time_limit
from .spec_cases import Chooser, HypothesisChooser, load_seeds, make_spec_case


def check_spec_text(text: str, workdir: str, stats: Stats, timeout: float = CASE_TIMEOUT) -> None:
    """Validate one spec text in-process and record the outcome in ``stats``."""
    from ..spec.lower import list_player_counts, list_variants, load_game_ir

    path = os.path.join(workdir, "case.yaml")
    with open(path, "w", encoding="utf-8", errors="surrogatepass") as fh:
        fh.write(text)
    stats.cases += 1
    try:
        with time_limit(timeout):
            ir = load_game_ir(path)
            for v in [None, *list_variants(path)]:  # as `validate` does: every variant, every count
                for n in list_player_counts(path, v):
                    load_game_ir(path, v, n)
                if v is not None:
                    load_game_ir(path, v)
            problem = play_briefly(ir, len(text))
        if problem:
            stats.failures.append(Failure("bad-play", problem, text))
            return
        stats.ok += 1
    except MidgardcError as exc:
        msg = str(exc)
        if not msg.strip() or "Traceback" in msg:
            stats.failures.append(Failure("bad-message", msg[:500], text))
        else:
            stats.errors += 1
    except _Timeout:
        stats.failures.append(Failure("hang", f"over {timeout} s", text))
    except Exception as exc:  # noqa: BLE001 - that is what the fuzzer looks for
        stats.failures.append(Failure("crash", "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))[-3000:], text))


PLAY_MOVES = 80  # moves (rolls included) of the one random game a valid case plays


def play_briefly(ir: Any, seed: int) -> str:
    """Play one random game of a valid spec with the interpreter for up to PLAY_MOVES moves
    (rolls sampled as a match would): no exception, ply within ``max_plies``, and a game
    with a small ``max_plies`` (extra turns forever, passes forever) really ends by it.
    Returns what went wrong, or ""."""
    from ..engines import game_from_ir

    rng = random.Random(seed)
    state = game_from_ir(ir, "interpreted").new_state(seed)
    for _ in range(PLAY_MOVES):
        if state.is_terminal():
            return ""
        if state.is_chance_node():
            state.sample_chance()
        else:
            state.apply_unchecked(rng.choice(state.legal_move_ids()))
        if state.ply() > ir.max_plies:
            return f"ply {state.ply()} is past max_plies {ir.max_plies}"
    if not state.is_terminal() and 2 * ir.max_plies + 2 < PLAY_MOVES:
        return f"not over after {PLAY_MOVES} moves with max_plies {ir.max_plies}"
    return ""


# --------------------------------------------------------------------------- campaigns


def run_campaign(cases: int, specs_dir: str = "specs", cli_share: float = 0.1, seed: Optional[int] = None, use_hypothesis: bool = True, progress: Optional[Callable[[Stats], None]] = None) -> Stats:
    """``cases`` cases (about ``cli_share`` of them command lines); returns the tally."""
    seeds = load_seeds(specs_dir)
    paths = [s.path for s in seeds]
    stats = Stats()
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="midgardc-fuzz-") as workdir:
        paths = [os.path.abspath(p) for p in paths]
        records = make_records(seeds, workdir) if cli_share > 0 else Records()

        def one(ch: Chooser) -> None:
            if ch.integer(0, 999) < cli_share * 1000:
                check_spec_text(make_spec_case(ch, seeds), workdir, Stats())  # leaves case.yaml for the command line
                check_cli_args(make_cli_case(ch, paths, workdir, records), workdir, stats)
            else:
                check_spec_text(make_spec_case(ch, seeds), workdir, stats)
            if progress is not None and stats.cases % 1000 == 0:
                progress(stats)

        if use_hypothesis:
            from hypothesis import HealthCheck, given, settings
            from hypothesis import strategies as st

            @settings(max_examples=cases, deadline=None, database=None, derandomize=seed is not None, suppress_health_check=list(HealthCheck), phases=["generate"])
            @given(st.data())
            def drive(data) -> None:
                one(HypothesisChooser(data))

            drive()
            # hypothesis may stop a little early when it thinks the space is exhausted
            rng = random.Random(seed)
            while stats.cases < cases:
                one(Chooser(rng))
        else:
            rng = random.Random(seed)
            while stats.cases < cases:
                one(Chooser(rng))
    stats.seconds = time.monotonic() - start
    return stats


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m midgardc.safety.fuzz", description="fuzz specs and command lines")
    ap.add_argument("--cases", type=int, default=10_000)
    ap.add_argument("--specs", default="specs")
    ap.add_argument("--cli-share", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--failures", default="fuzz-failures.jsonl", help="where failing cases are written")
    args = ap.parse_args(argv)
    stats = run_campaign(args.cases, args.specs, args.cli_share, args.seed, progress=lambda s: print(f"  ... {s.cases} cases", file=sys.stderr, flush=True))
    print(stats.summary())
    if stats.failures:
        with open(args.failures, "w", encoding="utf-8") as fh:
            for f in stats.failures:
                fh.write(json.dumps({"kind": f.kind, "detail": f.detail, "case": f.case}) + "\n")
        for f in stats.failures[:5]:
            print(f"--- {f.kind}:\n{f.detail[-1500:]}", file=sys.stderr)
        print(f"{len(stats.failures)} failing cases written to {args.failures}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
