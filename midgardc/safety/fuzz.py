"""A fuzzer for specs and command lines: every input ends in success or one clear error.

Spec cases start from every spec under ``specs/`` (found afresh on each run, subfolders
included) and apply a few random mutations: on the YAML tree (delete, duplicate, retype
or rename a key; perturb a number; splice, truncate or garble a condition string) and on
the text (truncate, duplicate or drop a line, flip a character). Each case is validated
in-process with ``load_game_ir`` and must end in success or a ``MidgardcError`` with a
message; any other exception is a crash, and a case that runs longer than its timeout is
a hang. Command-line cases mutate argument lists of the real commands and run them
through click in-process; they must exit 0 or 1, never with a traceback.

Choices come from a ``Chooser``: ``hypothesis`` drives it in the tests and in ``make fuzz``
(``python -m midgardc.safety.fuzz --cases N``); a plain ``random.Random`` works too.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import io
import json
import os
import random
import signal
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence

import yaml

from ..errors import MidgardcError

CASE_TIMEOUT = 10.0  # seconds per case; longer is a hang

# Text that conditions are spliced with: tokens of the language and things it is not.
TOKENS = [
    " and ", " or ", "not ", "(", ")", ",", ":", "==", "!=", "<=", "+", "-", "*", "//", "%",
    "any x in cells: ", "all p in players: ", "count(", "empty(", "owner(", "neighbours(", "step(",
    "1", "0", "-1", "99999999999999999999999", "p", "c", "d", "true", "false", "'", '"', "\\",
    "\n", "#", "{", "}", "__import__('os')", "lambda: 0", "\u00e9", "\u0430", "\x00", " ",
]
WEIRD_VALUES: list[Any] = [
    None, True, False, 0, 1, -1, 2, 3, 7, 64, 65, 1000, 2**31, -(2**31), 2**62, 2**63, 10**30,
    "", " ", "x", "cell", "player", "int", "1..3", "0..0", "5..1", "-3..-1", "{c}", "{", "a" * 300,
    "\n", "#", "'", "\"", "\\", "\u00e9", "none", "empty(c)", "true", [], {}, [1, 2], ["a", "b"], {"a": 1}, {"a": None},
    [[]], 3.5, "1e9",
]


class Chooser:
    """Random choices; subclasses draw them from hypothesis."""

    def __init__(self, rng: Optional[random.Random] = None):
        self.rng = rng or random.Random()

    def integer(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)

    def choice(self, seq: Sequence[Any]) -> Any:
        return seq[self.integer(0, len(seq) - 1)]


class HypothesisChooser(Chooser):
    def __init__(self, data: Any):
        from hypothesis import strategies as st

        self.data = data
        self._st = st

    def integer(self, lo: int, hi: int) -> int:
        return self.data.draw(self._st.integers(lo, hi))


# --------------------------------------------------------------------------- specs


def spec_paths(specs_dir: str = "specs") -> list[str]:
    from ..compiler.build import spec_files

    return spec_files(specs_dir)


@dataclass
class Seed:
    path: str
    text: str
    tree: Any


def load_seeds(specs_dir: str = "specs") -> list[Seed]:
    seeds = []
    for path in spec_paths(specs_dir):
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        try:
            tree = yaml.safe_load(text)
        except yaml.YAMLError:
            tree = None
        seeds.append(Seed(path, text, tree))
    return seeds


def _paths(tree: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path (tuple of keys and indexes) into a plain YAML tree, the root excluded."""
    out = []
    if isinstance(tree, dict):
        for k, v in tree.items():
            out.append(prefix + (k,))
            out += _paths(v, prefix + (k,))
    elif isinstance(tree, list):
        for i, v in enumerate(tree):
            out.append(prefix + (i,))
            out += _paths(v, prefix + (i,))
    return out


def _get(tree: Any, path: tuple) -> Any:
    for p in path:
        tree = tree[p]
    return tree


def _strings(tree: Any) -> list[str]:
    return [v for p in _paths(tree) if isinstance(v := _get(tree, p), str)]


def _garble(ch: Chooser, text: str, pool: Sequence[str]) -> str:
    op = ch.integer(0, 4)
    at = ch.integer(0, len(text)) if text else 0
    if op == 0:  # truncate
        return text[:at]
    if op == 1:  # splice a token in
        return text[:at] + ch.choice(TOKENS) + text[at:]
    if op == 2 and pool:  # splice part of another string in
        other = ch.choice(pool)
        a = ch.integer(0, len(other))
        return text[:at] + other[a : a + ch.integer(0, 40)] + text[at:]
    if op == 3 and text:  # delete a stretch
        return text[:at] + text[at + ch.integer(1, 10) :]
    return text + ch.choice(TOKENS)  # op 4 (or nothing to splice): append


def mutate_tree(ch: Chooser, tree: Any) -> Any:
    """One structural mutation of a copy of ``tree``."""
    tree = copy.deepcopy(tree)
    paths = _paths(tree)
    if not paths:
        return ch.choice(WEIRD_VALUES)
    path = ch.choice(paths)
    parent = _get(tree, path[:-1])
    key = path[-1]
    value = parent[key]
    op = ch.integer(0, 6)
    if op == 0:  # delete
        del parent[key]
    elif op == 1:  # duplicate (under a new key, or appended to the list)
        if isinstance(parent, dict):
            parent[f"{key}{ch.choice(['', '_', '2', 's'])}x"] = copy.deepcopy(value)
        else:
            parent.append(copy.deepcopy(value))
    elif op == 2:  # retype
        parent[key] = copy.deepcopy(ch.choice(WEIRD_VALUES))
    elif op == 3 and isinstance(parent, dict):  # rename
        new = _garble(ch, str(key), [])
        items = list(parent.items())
        parent.clear()
        for k, v in items:
            parent[new if k == key else k] = v
    elif op == 4 and isinstance(value, int) and not isinstance(value, bool):  # perturb a number
        parent[key] = ch.choice([value + 1, value - 1, 0, -value, value * 1000, 2**31, 2**62 + 1, -1])
    elif isinstance(value, str):  # splice or truncate a string (most are conditions)
        parent[key] = _garble(ch, value, _strings(tree))
    else:  # replace a container's content by a weird scalar, or a scalar by a container
        parent[key] = copy.deepcopy(ch.choice(WEIRD_VALUES))
    return tree


def mutate_text(ch: Chooser, text: str) -> str:
    """One textual mutation (for YAML syntax errors)."""
    lines = text.split("\n")
    op = ch.integer(0, 4)
    if op == 0:
        return text[: ch.integer(0, len(text))]
    i = ch.integer(0, max(len(lines) - 1, 0))
    if op == 1:
        lines.insert(i, lines[i])
    elif op == 2:
        del lines[i]
    elif op == 3:
        lines[i] = _garble(ch, lines[i], [])
    else:
        at = ch.integer(0, len(text))
        return text[:at] + ch.choice(["\t", ": ", "- ", "[", "{", "&a ", "*a", "!!python/name:os.system ", "'", '"', "\x00", "\ufeff"]) + text[at:]
    return "\n".join(lines)


def make_spec_case(ch: Chooser, seeds: Sequence[Seed]) -> str:
    seed = ch.choice(list(seeds))
    if seed.tree is None or ch.integer(0, 4) == 0:
        text = seed.text
        for _ in range(ch.integer(1, 3)):
            text = mutate_text(ch, text)
        return text
    tree = seed.tree
    for _ in range(ch.integer(1, 4)):
        tree = mutate_tree(ch, tree)
    try:
        return yaml.safe_dump(tree, sort_keys=False, allow_unicode=True, width=1_000_000)
    except yaml.YAMLError:  # pragma: no cover
        return seed.text


# --------------------------------------------------------------------------- outcomes


@dataclass
class Failure:
    kind: str  # "crash" | "hang" | "bad-message" | "bad-exit"
    detail: str
    case: str


@dataclass
class Stats:
    cases: int = 0
    ok: int = 0
    errors: int = 0  # MidgardcError, as expected for broken input
    failures: list[Failure] = field(default_factory=list)
    seconds: float = 0.0

    def summary(self) -> str:
        crashes = sum(f.kind in ("crash", "bad-message", "bad-exit") for f in self.failures)
        hangs = sum(f.kind == "hang" for f in self.failures)
        return f"{self.cases} cases in {self.seconds:.1f} s: {self.ok} valid, {self.errors} refused with a message, {crashes} tracebacks, {hangs} hangs"


class _Timeout(BaseException):
    pass


@contextlib.contextmanager
def time_limit(seconds: float):
    """Raise _Timeout in the main thread after ``seconds`` (POSIX; elsewhere no limit)."""
    if not hasattr(signal, "setitimer") or os.name == "nt":  # pragma: no cover
        yield
        return

    def fire(signum, frame):
        raise _Timeout()

    old = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def check_spec_text(text: str, workdir: str, stats: Stats, timeout: float = CASE_TIMEOUT) -> None:
    """Validate one spec text in-process and record the outcome in ``stats``."""
    from ..spec.lower import list_variants, load_game_ir

    path = os.path.join(workdir, "case.yaml")
    with open(path, "w", encoding="utf-8", errors="surrogatepass") as fh:
        fh.write(text)
    stats.cases += 1
    try:
        with time_limit(timeout):
            load_game_ir(path)
            for v in list_variants(path):
                load_game_ir(path, v)
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


# --------------------------------------------------------------------------- command lines

COMMANDS = {
    "validate": ["--variant"],
    "moves": ["--moves", "--variant", "--engine"],
    "replay": ["--moves", "--variant", "--seed", "--engine", "--json", "--record", "--game"],
    "perft": ["--depth", "--variant", "--engine"],
    "show": ["--moves", "--variant", "--engine", "--color"],
    "match": ["--players", "--games", "--seed", "--variant", "--engine", "--json", "--workers"],
}
OPTION_VALUES = {
    "--variant": ["nope", "", "-", "x" * 100, "\u00e9"],
    "--moves": ["", "a1", "zz", "a1 a1", "pass", ",,,", "a1,b2 c3", "\x00", "9.9.9", "{c}", "'", "a1 " * 50],
    "--seed": ["0", "1", "-1", "x", "99999999999999999999999999", "1e3", ""],
    "--engine": ["interpreted", "compiled", "both", "", "c"],
    "--record": ["missing.jsonl", "", "/", "case.yaml", "record.jsonl"],
    "--game": ["0", "1", "-1", "x", "999999"],
    "--depth": ["0", "1", "2", "-1", "x", "99999999999999999999"],
    "--players": ["random,greedy", "random", "", ",", "greedy,greedy,greedy", "script:missing.py", "script:", "nobody,random", "random," * 20],
    "--games": ["0", "1", "2", "-1", "x", "99999999999999999999"],
    "--workers": ["0", "1", "-1", "x"],
    "--color": ["always", "never", "x"],
    "--json": [None],
}
FLAGS = {"--json"}


def make_cli_case(ch: Chooser, specs: Sequence[str], workdir: str) -> list[str]:
    command = ch.choice(list(COMMANDS))
    args = [command]
    for _ in range(ch.integer(0, 2)):
        args.append(ch.choice([*specs, os.path.join(workdir, "case.yaml"), "missing.yaml", "", "-", "/", workdir]))
    for _ in range(ch.integer(0, 4)):
        opt = ch.choice(COMMANDS[command] + ["--nope", "-x", "--"])
        args.append(opt)
        if opt in OPTION_VALUES and opt not in FLAGS:
            if ch.integer(0, 5):
                args.append(ch.choice(OPTION_VALUES[opt]))
    if command in ("perft",) and "--depth" not in args:
        args += ["--depth", "1"]
    if command == "match" and "--games" not in args:
        args += ["--games", "1"]
    # Keep honest work small: no deep perft, no long matches, no compiled builds of mutated
    # specs (each would be a new module in the engine cache).
    if os.path.join(workdir, "case.yaml") in args:
        args = ["interpreted" if a == "compiled" else a for a in args]
    for i, a in enumerate(args[:-1]):
        if a in ("--depth", "--games") and args[i + 1].isdigit() and int(args[i + 1]) > 2:
            args[i + 1] = "2"
    return args


def check_cli_args(args: list[str], workdir: str, stats: Stats, timeout: float = CASE_TIMEOUT) -> None:
    """Run ``midgardc ARGS`` in-process through click; exit 0 or 1, no traceback."""
    from click.testing import CliRunner

    from ..cli import cli

    stats.cases += 1
    runner = CliRunner()
    old = os.getcwd()
    try:
        os.chdir(workdir)
        with time_limit(timeout):
            result = runner.invoke(cli, args, catch_exceptions=True)
    except _Timeout:
        stats.failures.append(Failure("hang", f"over {timeout} s", json.dumps(args)))
        return
    finally:
        os.chdir(old)
    output = result.output
    with contextlib.suppress(ValueError, AttributeError):  # click < 8.2 mixes stderr in
        output += result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        exc = result.exception
        stats.failures.append(Failure("crash", "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))[-3000:], json.dumps(args)))
    elif result.exit_code not in (0, 1) or "Traceback" in output or "internal error" in output:
        stats.failures.append(Failure("bad-exit", f"exit {result.exit_code}: {output[-1500:]}", json.dumps(args)))
    elif result.exit_code == 0:
        stats.ok += 1
    else:
        stats.errors += 1


# --------------------------------------------------------------------------- campaigns


def run_campaign(cases: int, specs_dir: str = "specs", cli_share: float = 0.1, seed: Optional[int] = None, use_hypothesis: bool = True, progress: Optional[Callable[[Stats], None]] = None) -> Stats:
    """``cases`` cases (about ``cli_share`` of them command lines); returns the tally."""
    seeds = load_seeds(specs_dir)
    paths = [s.path for s in seeds]
    stats = Stats()
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="midgardc-fuzz-") as workdir:
        paths = [os.path.abspath(p) for p in paths]

        def one(ch: Chooser) -> None:
            if ch.integer(0, 999) < cli_share * 1000:
                check_spec_text(make_spec_case(ch, seeds), workdir, Stats())  # leaves case.yaml for the command line
                check_cli_args(make_cli_case(ch, paths, workdir), workdir, stats)
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
