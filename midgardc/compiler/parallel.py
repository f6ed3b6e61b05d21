"""Building many engines at once: one process per engine, ``jobs`` at a time.

A build is mostly the C compiler's time (tens of seconds, one core), so engines built one
after another leave every other core idle; ``build_many`` keeps ``jobs`` builds running.
Each build runs ``build_engine`` in a worker process (the spec front end and the
generator are not shared between threads); the cache is safe for concurrent builds, so
two processes asked for one engine both succeed. The caller hears of each build when it
starts and when it ends (``on_start``/``on_finish``, called in the calling process, in
that order), so a command can say what it builds and how far it has got.

A build's ``MidgardcError`` comes back as its text in the ``Outcome`` (the others go on);
any other exception is a bug and is raised in the caller.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import time
from dataclasses import dataclass
from typing import Callable, Optional, Sequence

from ..errors import MidgardcError


@dataclass(frozen=True)
class Target:
    """One engine: a spec file, a variant (None: the base game), a player count (None:
    the spec's default)."""

    spec: str
    variant: Optional[str] = None
    players: Optional[int] = None

    @property
    def label(self) -> str:
        """``SPEC [variant] (N players)``, as the command line names a game."""
        return (f"{self.spec} [{self.variant}]" if self.variant else self.spec) + (f" ({self.players} players)" if self.players else "")


@dataclass(frozen=True)
class Outcome:
    """How one build ended: ``error`` is the message of a MidgardcError, else None;
    ``source`` the generated file written (when asked for); ``cached``: the module was in
    the cache already, nothing was compiled."""

    target: Target
    seconds: float
    error: Optional[str] = None
    source: Optional[str] = None
    cached: bool = False

    @property
    def ok(self) -> bool:
        return self.error is None


def default_jobs() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def build_one(target: Target, force: bool = False, write_source: bool = False) -> Outcome:
    """Build (or find in the cache) ``target``'s engine; with ``write_source``, write its
    generated source too (``build.write_generated``)."""
    from ..spec.ircache import load_ir
    from . import build

    started = time.perf_counter()
    try:
        ir = load_ir(target.spec, target.variant, target.players)
        cached = not force and build.is_cached(ir)
        source = text = None
        if write_source:
            text = build.generate_source(ir)
            source = build.write_generated(ir, text=text)
        build.build_engine(ir, force=force, text=text)
    except MidgardcError as exc:
        return Outcome(target, time.perf_counter() - started, error=str(exc))
    return Outcome(target, time.perf_counter() - started, source=source, cached=cached)


def _context() -> multiprocessing.context.BaseContext:
    """fork where there is one (a worker starts without importing midgardc again)."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else methods[0])


def build_many(
    targets: Sequence[Target],
    jobs: int,
    force: bool = False,
    write_source: bool = False,
    on_start: Optional[Callable[[Target, int], None]] = None,
    on_finish: Optional[Callable[[Outcome, int], None]] = None,
) -> list[Outcome]:
    """Build every target, ``jobs`` at a time, in the targets' order of starting.
    ``on_start(target, i)`` is called as the i-th build (1-based) starts and
    ``on_finish(outcome, k)`` as the k-th ends. Returns the outcomes in ``targets``' order.
    One job (or one target) builds in this process."""
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    outcomes: dict[int, Outcome] = {}
    done = 0

    def finished(index: int, outcome: Outcome) -> None:
        nonlocal done
        done += 1
        outcomes[index] = outcome
        if on_finish:
            on_finish(outcome, done)

    if jobs == 1 or len(targets) <= 1:
        for i, target in enumerate(targets):
            if on_start:
                on_start(target, i + 1)
            finished(i, build_one(target, force, write_source))
        return [outcomes[i] for i in range(len(targets))]

    waiting = list(enumerate(targets))
    running: dict[concurrent.futures.Future, int] = {}
    with concurrent.futures.ProcessPoolExecutor(max_workers=min(jobs, len(targets)), mp_context=_context()) as pool:
        try:
            while waiting or running:
                while waiting and len(running) < jobs:
                    i, target = waiting.pop(0)
                    if on_start:
                        on_start(target, i + 1)
                    running[pool.submit(build_one, target, force, write_source)] = i
                ready, _ = concurrent.futures.wait(running, return_when=concurrent.futures.FIRST_COMPLETED)
                for future in ready:
                    finished(running.pop(future), future.result())
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise
    return [outcomes[i] for i in range(len(targets))]
