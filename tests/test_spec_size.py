"""benchmarks/spec_size.py counts what issue 27 counts: lines and tokens outside comments
and outside ``render:``, on a small spec counted by hand."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "spec_size.py"

SMALL = '''# a comment line, not counted
midgardc: 1
game:
  name: tiny            # a trailing comment
  players: [a, b]
define:
  near(cell c): "count(x in neighbours(c): x != c) >= 2"

render:
  hand: false
'''
# by hand: `midgardc : 1` 3; `game :` 2; `name : tiny` 3; `players : [ a , b ]` 7;
# `define :` 2; `near ( cell c ) :` 6 and
# `count ( x in neighbours ( c ) : x != c ) >= 2` 15 (21 on the line): 38 tokens on 6 lines
SMALL_LINES, SMALL_TOKENS = 6, 38


def _module():
    spec = importlib.util.spec_from_file_location("spec_size", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["spec_size"] = mod          # dataclasses look their module up by name
    spec.loader.exec_module(mod)
    return mod


def test_counts_a_small_spec_by_hand():
    size = _module().measure(SMALL)
    assert (size.lines, size.tokens) == (SMALL_LINES, SMALL_TOKENS)


def test_hash_inside_quotes_is_not_a_comment():
    assert _module().strip_comment('name: "a #b"  # c') == 'name: "a #b"  '


def test_runs_and_prints_every_spec(tmp_path):
    spec = tmp_path / "tiny.yaml"
    spec.write_text(SMALL, encoding="utf-8")
    one = subprocess.run([sys.executable, str(SCRIPT), str(spec)], capture_output=True, text=True, check=True)
    assert f"| {SMALL_LINES} / {SMALL_TOKENS} |" in one.stdout
    every = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, check=True, cwd=ROOT)
    specs = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "specs").rglob("*.yaml"))
    assert [line.split(" | ")[0][2:] for line in every.stdout.splitlines()[2:]] == specs
    chess = next(line for line in every.stdout.splitlines() if "chess.yaml" in line)
    assert "155 / 1,014" in chess and "146 / 1,366" in chess and "<= 1,270" in chess
