"""Files that appear whole or not at all: written under a temporary name, then renamed.

A crash, a full disk or Ctrl-C part-way through leaves the old file (or none), never half
of a new one.
"""

from __future__ import annotations

import os
import tempfile
from typing import IO

from .errors import MidgardcError


class AtomicFile:
    """A text file open for writing at a temporary path; ``commit()`` moves it into place."""

    def __init__(self, path: str, what: str = ""):
        self.path = path
        directory = os.path.dirname(os.path.abspath(path))
        try:
            fd, self.tmp = tempfile.mkstemp(dir=directory, prefix=f".{os.path.basename(path)}.", suffix=".tmp")
        except OSError as exc:
            raise MidgardcError(f"cannot write {what + ' ' if what else ''}{path}: {exc.strerror}") from None
        os.chmod(self.tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the usual mode
        self.fh: IO[str] = os.fdopen(fd, "w", encoding="utf-8")

    def write(self, text: str) -> None:
        self.fh.write(text)

    def commit(self) -> None:
        self.fh.close()
        os.replace(self.tmp, self.path)

    def discard(self) -> None:
        self.fh.close()
        try:
            os.unlink(self.tmp)
        except OSError:
            pass


def write_atomic(path: str, text: str, what: str = "") -> None:
    out = AtomicFile(path, what)
    try:
        out.write(text)
    except BaseException:
        out.discard()
        raise
    out.commit()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
