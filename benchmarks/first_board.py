"""How long a person waits for the first board of ``midgardc play`` and ``midgardc serve``
on an EMPTY engine cache (issue 25: "play and serve show a first board within 3 s on an
empty cache"). Opt-in (it times things; tests never do: tests/test_engine_switch.py checks
that a board is shown before the compiled engine is ready, not how soon).

Each run starts a new process with ``MIDGARDC_CACHE`` set to a new, empty directory, so
neither the compiled modules (the generic one and the game's rules) nor the IR cache are
there, as on a fresh clone; the build the command starts in the background competes for
the machine as it would for a new user. The clock runs from the process's start to:

* ``play`` (``--players human,random`` in a pseudo-terminal): the first prompt after the
  board and the list of legal moves ("..., your legal moves ..." then "NAME> ");
* ``serve`` (``--port 0``): the printed seat address answered with the seat's page and
  then its board JSON (``/state`` with a non-empty ``svg``), the two requests a browser
  makes to draw the board.

Then the process group is killed (the background build with it) and the cache removed.
Runs are interleaved: every spec and command once per round (A, B, C, D, A, B, ...), so a
drift in the machine's load hits them all alike. Prints min / median / max wall seconds of
each, the 1-minute load average before and after, and whether each median meets the 3 s
target.

    PYTHONPATH=. .venv/bin/python benchmarks/first_board.py [SPEC...] [--runs N]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from typing import Callable

TARGET_SECONDS = 3.0
DEFAULT_SPECS = ("specs/classics/tic-tac-toe.yaml", "specs/midgard.yaml")
#: a run that shows nothing for this long is reported as a failure, not waited for
GIVE_UP_SECONDS = 120.0
URL = re.compile(rb"(http://[^\s]+/seat/\d+/\S+)")


def _env(cache: str) -> dict[str, str]:
    env = dict(os.environ, MIDGARDC_CACHE=cache)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def _kill_group(pid: int) -> None:
    """Kill the command and everything it started (the background build's compiler too):
    each command runs in a session of its own."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def first_play_board(spec: str, cache: str) -> float:
    """Seconds from starting ``midgardc play`` in a pty to its first prompt."""
    import pexpect

    start = time.perf_counter()
    child = pexpect.spawn(sys.executable, ["-m", "midgardc.cli", "play", spec, "--players", "human,random", "--seed", "1"], env=_env(cache), encoding="utf-8", timeout=GIVE_UP_SECONDS, dimensions=(50, 120))
    try:
        child.expect("your legal moves")
        child.expect(r"\S> ")
        return time.perf_counter() - start
    finally:
        _kill_group(child.pid)
        child.close(force=True)


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=GIVE_UP_SECONDS) as response:
        return response.read()


def first_serve_board(spec: str, cache: str) -> float:
    """Seconds from starting ``midgardc serve`` to the seat's page and board JSON."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "midgardc.cli", "serve", spec, "--port", "0", "--seed", "1"], env=_env(cache), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        assert proc.stdout is not None
        seen = b""
        while True:
            line = proc.stdout.readline()
            if not line:
                raise RuntimeError(f"serve ended before printing an address:\n{seen.decode(errors='replace')}")
            seen += line
            found = URL.search(line)
            if found:
                url = found.group(1).decode()
                break
            if time.perf_counter() - start > GIVE_UP_SECONDS:
                raise RuntimeError("serve printed no address")
        if b"<" not in _get(url):
            raise RuntimeError(f"{url} sent no page")
        board = json.loads(_get(url + "/state"))
        if not board.get("svg"):
            raise RuntimeError(f"{url}/state sent no board")
        return time.perf_counter() - start
    finally:
        _kill_group(proc.pid)
        proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()


COMMANDS: dict[str, Callable[[str, str], float]] = {"play": first_play_board, "serve": first_serve_board}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="*", default=list(DEFAULT_SPECS))
    parser.add_argument("--runs", type=int, default=5, help="rounds (each spec and command once a round)")
    args = parser.parse_args()

    cases = [(spec, command) for spec in args.specs for command in COMMANDS]
    times: dict[tuple[str, str], list[float]] = {case: [] for case in cases}
    load_before = os.getloadavg()[0]
    for round_ in range(1, args.runs + 1):
        for spec, command in cases:
            cache = tempfile.mkdtemp(prefix="midgardc-first-board-")
            try:
                seconds = COMMANDS[command](spec, cache)
            finally:
                shutil.rmtree(cache, ignore_errors=True)
            times[(spec, command)].append(seconds)
            print(f"  round {round_}: {command} {spec}: {seconds:.2f} s", file=sys.stderr, flush=True)
    load_after = os.getloadavg()[0]
    print(f"first board on an empty engine cache, {args.runs} runs each, interleaved; load {load_before:.1f} before, {load_after:.1f} after; {os.cpu_count()} cores")
    for (spec, command), got in times.items():
        median = statistics.median(got)
        verdict = "meets" if median <= TARGET_SECONDS else "MISSES"
        print(f"  {command:5s} {spec}: min {min(got):.2f} s, median {median:.2f} s, max {max(got):.2f} s ({verdict} the {TARGET_SECONDS:.0f} s target)")


if __name__ == "__main__":
    main()
