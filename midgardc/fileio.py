"""Files in and out: every input is read through ``open_input``/``read_input`` (a regular
file, read to a byte limit at most), and outputs appear whole or not at all (written under
a temporary name, then renamed).

A spec, a record or a report's input may come from a stranger (a spec's ``extends:``, a
record's ``spec``), so reading one must never hang on a FIFO, read a device or a file of
/proc without end, or grow to the machine's memory: the file's kind is checked before it
is opened and again on the open descriptor, and at most limit + 1 bytes are read. A crash,
a full disk or Ctrl-C part-way through a write leaves the old file (or none), never half
of a new one.
"""

from __future__ import annotations

import os
import stat
import tempfile
from typing import IO, BinaryIO, Optional

from .errors import MidgardcError

# Trees of device and kernel files: never an input, whatever they resolve to (/dev/stdin
# may point at a regular file; /proc/self/environ is one, with secrets in it).
SYSTEM_TREES = ("/dev", "/proc", "/sys")
_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def open_input(path: str, noun: str, error: type[MidgardcError] = MidgardcError, missing: Optional[str] = None) -> BinaryIO:
    """``path`` open for reading in binary, if it is a regular file outside /dev, /proc and
    /sys; else ``error`` with one line: "cannot read {noun} {path}: why" (``missing``, if
    given, is the message for a file that does not exist)."""
    for name in {os.path.abspath(path), os.path.realpath(path)}:
        if any(name == tree or name.startswith(tree + os.sep) for tree in SYSTEM_TREES):
            raise error(f"cannot read {noun} {path}: a device or system file, not a regular file")
    try:
        _check_kind(os.stat(path).st_mode, path, noun, error)  # before opening: opening a device may act
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise error(missing or f"cannot read {noun} {path}: no such file") from None
    except OSError as exc:
        raise error(f"cannot read {noun} {path}: {exc.strerror}") from None
    fh = os.fdopen(fd, "rb")
    try:
        st = os.fstat(fd)
        _check_kind(st.st_mode, path, noun, error)  # it may have been swapped since
        _INPUTS[(st.st_dev, st.st_ino)] = (path, noun)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
    except BaseException:
        fh.close()
        raise
    return fh


# (device, inode) -> (path, noun) of every file this command read as an input: an output
# that is one of them is refused (``check_output``). ``forget_inputs`` starts a command.
_INPUTS: dict[tuple[int, int], tuple[str, str]] = {}


def forget_inputs() -> None:
    """A new command begins (several run in one process under tests): its inputs only."""
    _INPUTS.clear()


def check_output(path: str, what: str) -> None:
    """Refuse to write ``what`` to ``path`` when that file is one this command reads (the
    spec, a base it extends, the record): ``--record`` or ``--html`` naming the spec would
    otherwise replace it without a word."""
    try:
        st = os.stat(path)
    except OSError:
        return  # not there yet (or unreachable: the write says why)
    read = _INPUTS.get((st.st_dev, st.st_ino))
    if read is not None:
        source, noun = read
        same = "" if os.path.abspath(source) == os.path.abspath(path) else f" ({source})"
        raise MidgardcError(f"refusing to write {what} to {path}: it is {noun}{same} this command reads", hint="name another file to write")


def read_input(path: str, noun: str, limit: int, error: type[MidgardcError] = MidgardcError, missing: Optional[str] = None) -> bytes:
    """The bytes of ``path`` (see ``open_input``), refused once more than ``limit`` of them
    are read: at most limit + 1 bytes are ever read, whatever the file's claimed size."""
    with open_input(path, noun, error, missing) as fh:
        try:
            data = fh.read(limit + 1)
        except OSError as exc:
            raise error(f"cannot read {noun} {path}: {exc.strerror}") from None
    if len(data) > limit:
        raise error(f"cannot read {noun} {path}: it is larger than the limit of {limit:,} bytes")
    return data


def _check_kind(mode: int, path: str, noun: str, error: type[MidgardcError]) -> None:
    if stat.S_ISREG(mode):
        return
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    raise error(f"cannot read {noun} {path}: it is {kind}, not a regular file")


class AtomicFile:
    """A text file open for writing at a temporary path; ``commit()`` moves it into place."""

    def __init__(self, path: str, what: str = ""):
        check_output(path, what or "the output")
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
