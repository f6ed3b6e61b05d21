"""Building many engines at once: one process per engine, ``jobs`` at a time.

A build is mostly the C compiler's time (tens of seconds, one core), so engines built one
after another leave every other core idle; ``build_many`` keeps ``jobs`` builds running.
Each build runs ``build_engine`` in a worker process (the spec front end and the
generator are not shared between threads); the cache is safe for concurrent builds, so
two processes asked for one engine both succeed. The caller hears of each build when it
starts and when it ends (``on_start``/``on_finish``, called in the calling process, in
that order), so a command can say what it builds and how far it has got.

Every engine is a game's rules module behind the generic module (build.py), and a rules
module compiles without the generic one. On an empty cache the generic module (the
longest build: tens of seconds) is therefore one job of its own, started first, and the
rules modules build beside it on the other cores; otherwise the first engines would each
build their rules module and then wait on the generic module's lock, their cores idle.
An engine is reported finished (``on_finish``) once its rules module and the generic
module are both built, as then it opens; ``on_generic`` hears of the generic build.

A build's ``MidgardcError`` comes back as its text in the ``Outcome`` (the others go on);
any other exception is a bug and is raised in the caller. When the generic build fails,
every engine fails with its message.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
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


def build_one(target: Target, force: bool = False, write_source: bool = False, generic: bool = True) -> Outcome:
    """Build (or find in the cache) ``target``'s engine; with ``write_source``, write its
    generated source too (``build.write_generated``). ``generic=False``: its rules module
    only (the generic module is another job's), and ``cached`` speaks of that module."""
    from ..spec.ircache import load_ir
    from . import build

    started = time.perf_counter()
    try:
        ir = load_ir(target.spec, target.variant, target.players)
        cached = not force and (build.is_cached(ir) if generic else build.rules_cached(ir))
        source = text = None
        if write_source:
            text = build.generate_source(ir)
            source = build.write_generated(ir, text=text)
        if generic:
            build.build_engine(ir, force=force, text=text)
        else:
            build.build_rules(ir, force=force, text=text)
    except MidgardcError as exc:
        return Outcome(target, time.perf_counter() - started, error=str(exc))
    return Outcome(target, time.perf_counter() - started, source=source, cached=cached)


def build_generic_module() -> tuple[float, Optional[str]]:
    """Build (or find) the generic module: (seconds, the MidgardcError's text or None)."""
    from . import build

    started = time.perf_counter()
    try:
        build.build_generic()
    except MidgardcError as exc:
        return time.perf_counter() - started, str(exc)
    return time.perf_counter() - started, None


def _generic_ready() -> bool:
    """Whether the cache holds the generic module; True also when that cannot be told (no
    Cython, say): each engine's build then says what is wrong, as one outcome each."""
    from . import build

    try:
        return build.generic_cached()
    except MidgardcError:
        return True


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
    on_generic: Optional[Callable[[Optional[float], Optional[str]], None]] = None,
) -> list[Outcome]:
    """Build every target, ``jobs`` at a time, in the targets' order of starting.
    ``on_start(target, i)`` is called as the i-th build (1-based) starts and
    ``on_finish(outcome, k)`` as the k-th engine is ready (or failed). With more than one
    job and the generic module missing from the cache, it is built as a job of its own
    beside the rules modules: ``on_generic(None, None)`` as it starts, ``on_generic(seconds,
    error)`` as it ends (error: None, or why it failed). Returns the outcomes in
    ``targets``' order. One job (or one target, the generic module cached) builds in this
    process, one engine after another."""
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

    if jobs == 1 or not targets or (len(targets) == 1 and _generic_ready()):
        for i, target in enumerate(targets):
            if on_start:
                on_start(target, i + 1)
            finished(i, build_one(target, force, write_source))
        return [outcomes[i] for i in range(len(targets))]

    waiting = list(enumerate(targets))
    running: dict[concurrent.futures.Future, int] = {}
    separate = not _generic_ready()  # the generic module: a job of its own
    generic: Optional[concurrent.futures.Future] = None
    generic_error: Optional[str] = None
    held: list[tuple[int, Outcome]] = []  # rules modules built before the generic module

    def ended(index: int, outcome: Outcome) -> None:
        if outcome.ok and generic_error is not None:
            outcome = dataclasses.replace(outcome, error=generic_error)
        if generic is not None and outcome.ok:
            held.append((index, outcome))  # not ready until the generic module is
        else:
            finished(index, outcome)

    workers = min(jobs, len(targets) + separate)
    with concurrent.futures.ProcessPoolExecutor(max_workers=workers, mp_context=_context()) as pool:
        try:
            if separate:
                if on_generic:
                    on_generic(None, None)
                generic = pool.submit(build_generic_module)
            while waiting or running or generic is not None:
                while waiting and len(running) + (generic is not None) < jobs:
                    i, target = waiting.pop(0)
                    if on_start:
                        on_start(target, i + 1)
                    running[pool.submit(build_one, target, force, write_source, not separate)] = i
                ready, _ = concurrent.futures.wait([*running, *([generic] if generic is not None else [])], return_when=concurrent.futures.FIRST_COMPLETED)
                for future in ready:
                    if future is generic:
                        seconds, generic_error = future.result()
                        generic = None
                        if on_generic:
                            on_generic(seconds, generic_error)
                        for index, outcome in held:
                            ended(index, outcome)
                        held.clear()
                    else:
                        ended(running.pop(future), future.result())
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise
    return [outcomes[i] for i in range(len(targets))]
