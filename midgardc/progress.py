"""A progress bar (count, rate, ETA) on stderr for runs worth watching.

stderr, never stdout: ``--json`` output stays clean enough to pipe. On by default only
when stderr is a terminal; commands offer ``--progress/--no-progress`` to force it.
"""

from __future__ import annotations

import contextlib
import sys
from typing import Any, Callable, Iterator, Optional

import click

progress_option = click.option(
    "--progress/--no-progress",
    "show_progress",
    default=None,
    help="A progress bar with rate and ETA on stderr (default: when stderr is a terminal).",
)


@contextlib.contextmanager
def progress(total: Optional[int], enabled: Optional[bool] = None, unit: str = "game", desc: Optional[str] = None) -> Iterator[Callable[[Any], None]]:
    """Yield ``tick(_)``, called once per finished item (it ignores its argument, so it can
    be an ``on_game`` callback). ``total`` None: a count and a rate, for work of unknown
    length (the steps of a game). The bar is closed on the way out, Ctrl-C included, so a
    table printed after it starts on a clean line."""
    stream = sys.stderr  # looked up now: test runners swap it
    if enabled is None:
        enabled = (total is None or total > 1) and stream.isatty()
    if not enabled:
        yield lambda _item=None: None
        return
    from tqdm import tqdm

    bar = tqdm(total=total, file=stream, unit=unit, desc=desc, dynamic_ncols=True, mininterval=0.2, leave=True)
    try:
        yield lambda _item=None: bar.update(1)
    finally:
        bar.close()


@contextlib.contextmanager
def building(what: str, enabled: Optional[bool] = None) -> Iterator[None]:
    """Say on stderr that ``what`` is being built, before the wait (a compiled engine takes
    tens of seconds on first use), and how long it took after it. On a terminal (or with
    ``enabled``) the line counts the seconds while the build runs, so a long build never
    looks like a hang."""
    import threading
    import time

    stream = sys.stderr
    ticking = stream.isatty() if enabled is None else enabled
    started = time.perf_counter()
    head = f"building {what} (first use; cached after)"
    stream.write(head + (" ..." if ticking else " ...\n"))
    stream.flush()
    done = threading.Event()

    def tick() -> None:
        while not done.wait(1.0):
            stream.write(f"\r{head} ... {time.perf_counter() - started:.0f}s")
            stream.flush()

    ticker = threading.Thread(target=tick, daemon=True) if ticking else None
    if ticker:
        ticker.start()
    ok = False
    try:
        yield
        ok = True
    finally:
        done.set()
        if ticker:
            ticker.join()
            stream.write("\r\x1b[K")
        seconds = time.perf_counter() - started
        stream.write(f"built {what} in {seconds:.1f}s\n" if ok else f"building {what} stopped after {seconds:.1f}s\n")
        stream.flush()
