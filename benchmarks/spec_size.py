"""How long each spec is: non-comment lines and tokens, beside Ludii's and RBG's files.

    .venv/bin/python benchmarks/spec_size.py [SPEC ...] [--json]

Issue 27 measures the spec language against Ludii's ``.lud`` files and Regular Boardgames'
``.rbg`` files by counting, outside comments, non-comment lines and tokens: identifiers,
numbers and punctuation marks (a run of operator characters such as ``==`` or ``>=`` is
one mark; YAML's quotes are not counted, since a condition needs them only because it is
written inside YAML). The ``render:`` section is left out: it says how a game is drawn,
which the other languages keep out of their rule files too. With no SPEC every spec under
``specs/`` (subfolders included) is counted. The table prints the peers' figures and the
issue's targets for the five classics measured side by side.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Issue 27's table ("counting non-comment lines and tokens (identifiers, numbers and
# punctuation marks) [...] Ludii's metadata block left out"): (lines, tokens) of Ludii's
# .lud file and of Regular Boardgames' .rbg file for the same game; None where RBG has none.
PEERS: dict[str, tuple[tuple[int, int], tuple[int, int] | None]] = {
    "chess": ((155, 1014), (146, 1366)),
    "draughts": ((44, 263), (87, 714)),
    "go": ((52, 290), (100, 646)),
    "kalah": ((51, 342), None),
    "nine-mens-morris": ((49, 229), (104, 803)),
}
# Issue 27's proof: "at most 1.25 times the tokens of Ludii's file"
TARGETS: dict[str, int] = {
    "chess": 1270, "draughts": 330, "go": 360, "kalah": 430, "nine-mens-morris": 290,
}

# An identifier (YAML keys and words inside conditions alike), a number, or one mark: a
# run of the operator characters that the condition grammar reads as one token, or any
# other single punctuation character. Quotes and block scalar indicators are not tokens.
TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?|[=!<>]=|->|[^\sA-Za-z0-9_\"'|>]|[<>]")
# a YAML comment: '#' at the start of a line or after a space, outside quotes
COMMENT = re.compile(r"(^|\s)#.*$")


@dataclass(frozen=True)
class Size:
    """One spec's counts: the lines that say something, and their tokens."""

    lines: int
    tokens: int


def strip_comment(line: str) -> str:
    """The line without its comment; a '#' inside a quoted string is kept."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'" and (i == 0 or not line[i - 1].isalnum()):
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i]
    return line


def rule_lines(text: str) -> list[str]:
    """The spec's lines outside comments and outside the top-level ``render:`` section."""
    out: list[str] = []
    in_render = False
    for raw in text.splitlines():
        line = strip_comment(raw).rstrip()
        if not line.strip():
            continue
        if not line[0].isspace():              # a top-level key starts or ends a section
            in_render = line.startswith("render:")
        if not in_render:
            out.append(line)
    return out


def measure(text: str) -> Size:
    """Count a spec's text (see the module docstring for what counts)."""
    lines = rule_lines(text)
    return Size(len(lines), sum(len(TOKEN.findall(line)) for line in lines))


def table(paths: list[Path]) -> list[dict]:
    """One row per spec: its name, counts, and the peers' figures and target if it has them."""
    rows = []
    for path in paths:
        size = measure(path.read_text(encoding="utf-8"))
        ludii, rbg = PEERS.get(path.stem, (None, None))
        rows.append({"spec": str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path),
                     "lines": size.lines, "tokens": size.tokens,
                     "ludii": ludii, "rbg": rbg, "target_tokens": TARGETS.get(path.stem)})
    return rows


def _pair(p: tuple[int, int] | None) -> str:
    return "-" if p is None else f"{p[0]:,} / {p[1]:,}"


def render(rows: list[dict]) -> str:
    """The table as Markdown, the issue's columns plus the token target."""
    out = ["| spec | lines / tokens | Ludii lines / tokens | RBG lines / tokens | target tokens |",
           "|---|---|---|---|---|"]
    for r in rows:
        target = "-" if r["target_tokens"] is None else f"<= {r['target_tokens']:,}"
        out.append(f"| {r['spec']} | {r['lines']:,} / {r['tokens']:,} | {_pair(r['ludii'])} | "
                   f"{_pair(r['rbg'])} | {target} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("specs", nargs="*", type=Path)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    paths = args.specs or sorted((ROOT / "specs").rglob("*.yaml"))
    rows = table([p.resolve() for p in paths])
    print(json.dumps(rows) if args.json else render(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
