"""User-facing errors: one message, a position, the offending line and a caret.

Everything a user can get wrong raises ``MidgardcError`` (or a subclass); the CLI prints
``str(err)`` and exits 1. Anything else is a bug in midgardc and is reported as such.
"""

from __future__ import annotations

import difflib
from collections import OrderedDict
from dataclasses import dataclass
from typing import Iterable, Optional


@dataclass(frozen=True)
class Pos:
    """A place in a source file: 1-based line and column."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


class MidgardcError(Exception):
    """An error a user can fix. ``pos`` points at the offending text when there is one.

    The line at ``pos`` is quoted from ``source`` when given, else from the text a spec
    loader read from ``pos.file`` (``remember_source``); a file is never opened here, so a
    record, a FIFO or any file that was not read as a spec is never quoted."""

    def __init__(self, message: str, pos: Optional[Pos] = None, hint: str = "", source: Optional[str] = None):
        super().__init__(message)
        self.message = message
        self.pos = pos
        self.hint = hint
        self.source = source  # the text of pos.file, when it is not a readable file

    def __str__(self) -> str:
        message = _shorten(self.message)
        head = f"{self.pos}: error: {message}" if self.pos else f"error: {message}"
        lines = [head]
        snippet = self._snippet()
        if snippet:
            lines.append(snippet)
        if self.hint:
            lines.append(f"  hint: {_shorten(self.hint)}")
        return "\n".join(lines)

    def _snippet(self) -> str:
        if not self.pos:
            return ""
        text = self.source if self.source is not None else _SOURCES.get(self.pos.file)
        if text is None:
            return ""
        src_lines = text.splitlines()
        if not 1 <= self.pos.line <= len(src_lines):
            return ""
        line = src_lines[self.pos.line - 1].replace("\t", " ")
        if len(line) > 200:  # keep the caret near the error on very long lines
            start = max(0, self.pos.col - 100)
            line = line[start : start + 200]
            col = self.pos.col - start
        else:
            col = self.pos.col
        return f"    {line}\n    {' ' * max(col - 1, 0)}^"


# path -> text of the specs this process read (through fileio.read_input), newest last: what
# an error may quote. A few are kept: a long-running process loads many specs.
_SOURCES: "OrderedDict[str, str]" = OrderedDict()
MAX_SOURCES = 64


def remember_source(path: str, text: str) -> None:
    """``text`` was read as the spec at ``path``: its errors may quote it."""
    _SOURCES[path] = text
    _SOURCES.move_to_end(path)
    while len(_SOURCES) > MAX_SOURCES:
        _SOURCES.popitem(last=False)


MAX_MESSAGE = 2000  # characters of a message or hint shown (a hostile spec's value may be huge)


def _shorten(text: str) -> str:
    if len(text) <= MAX_MESSAGE:
        return text
    keep = MAX_MESSAGE // 2
    return f"{text[:keep]} ... ({len(text) - 2 * keep} characters left out) ... {text[-keep:]}"


class SpecError(MidgardcError):
    """The spec (YAML, schema, conditions, types) is wrong."""


class MoveError(MidgardcError):
    """A move is malformed or illegal in the position it was played in."""


class BuildError(MidgardcError):
    """An engine could not be generated or compiled."""


def did_you_mean(name: str, options: Iterable[str]) -> str:
    """A 'did you mean' hint for a misspelt name, or '' when nothing is close."""
    close = difflib.get_close_matches(name, sorted(set(options)), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else ""
