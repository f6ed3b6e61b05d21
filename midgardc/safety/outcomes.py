"""What a fuzz case can end in (``Failure``, the tally ``Stats``) and the time limits that
turn a case that runs too long into a hang."""

from __future__ import annotations

import contextlib
import os
import signal
from dataclasses import dataclass, field

CASE_TIMEOUT = 10.0  # seconds per case; longer is a hang
# A match or tournament plays whole games on the interpreter (up to two, see _keep_small):
# a slow game with a searching player is honest work of many seconds on a loaded machine
# (one interpreted game of a stack-and-push spec with a one-ply player took 10.1 s and was
# reported as a hang by CI), so these cases get a longer budget; an endless loop still trips it.
PLAY_TIMEOUT = 60.0


# --------------------------------------------------------------------------- outcomes


@dataclass
class Failure:
    kind: str  # "crash" | "hang" | "bad-message" | "bad-exit" | "bad-play"
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
        crashes = sum(f.kind in ("crash", "bad-message", "bad-exit", "bad-play") for f in self.failures)
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
