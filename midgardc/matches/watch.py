"""``midgardc watch``: a match rerun at every save of its spec, set beside the last run.

The designer's loop: edit a rule, save, see what it did. The spec file and every file it
``extends:`` are polled (their bytes' sha256, so an editor's save that keeps the size and
the second is still seen); when they change, the spec is loaded again (a bad edit prints
the positioned error ``validate`` prints, and the watch goes on waiting), and the match is
played again with the same players, games and seed (common random numbers: the change is
the edit's, not the luck's). Games are played one after the other; while the compiled
engine of the new rules builds (``engine_switch.PendingEngine``) they are played on the
interpreter, and on the compiled engine from the first game after it is ready: the two
play the same games move for move, so the results do not depend on where a game ran.
One build runs at a time: a save while one runs queues the next, and a build whose save has
been overtaken by a newer one by the time its turn comes is not started.

Polling, not inotify: one small file read twice a second costs nothing, works on every
platform and over network file systems, and needs no dependency.
"""

from __future__ import annotations

import hashlib
import os
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Callable, Optional, Sequence

from ..errors import MidgardcError
from ..players import PlayerSpec, player_labels
from ..engine_switch import GRACE_SECONDS, PendingEngine, compiled_game, open_switching
from ..engines import game_from_ir
from ..runtime.game import Game
from .runner import play_game
from .stats import wilson
from .tally import Tally

POLL_SECONDS = 0.5


def watched_files(spec: str) -> list[str]:
    """The spec and the files its ``extends:`` chain names, as far as they read (a file
    that does not parse is still watched: its next save may mend it)."""
    from ..spec.yamlpos import YMap, YScalar, load_yaml

    files: list[str] = []
    path = spec
    while path not in files and len(files) < 64:
        files.append(path)
        try:
            tree = load_yaml(path)
        except (MidgardcError, OSError):
            break
        ext = tree.get("extends") if isinstance(tree, YMap) else None
        if not isinstance(ext, YScalar) or not isinstance(ext.value, str):
            break
        path = os.path.join(os.path.dirname(path), ext.value)
    return files


def fingerprint(paths: Sequence[str]) -> tuple:
    """What the watched files hold now (None for a file that cannot be read)."""
    out = []
    for path in paths:
        try:
            with open(path, "rb") as fh:
                out.append((path, hashlib.sha256(fh.read()).hexdigest()))
        except OSError:
            out.append((path, None))
    return tuple(out)


@dataclass
class Run:
    """One run's results: the tally's summary and what it was played on."""

    number: int
    title: str
    seats: list[str]
    summary: dict
    engines: list[str]  # the engines that played, in order (interpreted, then compiled)


def play_run(
    ir,
    players: Sequence[PlayerSpec],
    games: int,
    seed: int,
    engine: str,
    say: Callable[[str], None],
    builder: Callable = compiled_game,
    on_game: Optional[Callable] = None,
    pending: Optional[PendingEngine] = None,
) -> tuple[dict, list[str]]:
    """The match of ``players`` on ``ir``: ``games`` games seeded from ``seed``, seats
    rotating as in ``match``; on the compiled engine as soon as ``pending`` (or a build
    started here) is ready, on the interpreter until then. The tally's summary, and the
    engines that played."""
    if len(players) != ir.n_players:
        given = f"{len(players)} player{' was' if len(players) == 1 else 's were'} given"
        raise MidgardcError(f"{ir.title} has {ir.n_players} seats ({', '.join(ir.players)}); {given}")
    labels = player_labels(list(players))
    objects = [spec.make(label) for spec, label in zip(players, labels)]
    game: Game
    if pending is None:
        game, pending = open_switching(ir, engine, builder)
    else:
        game = game_from_ir(ir, "interpreted")
    engines: list[str] = []
    if pending is not None and not pending.done():
        say("building the compiled engine... games play on the interpreter meanwhile")
    tally = Tally(ir, labels)
    for i in range(games):
        if pending is not None and pending.done():
            if pending.game is not None:
                game = pending.game
            else:
                say(f"note: the compiled engine could not be built ({pending.error}); the interpreter plays on")
            pending = None
        if not engines or engines[-1] != game.engine_name:
            engines.append(game.engine_name)
        tally.add(play_game(game, objects, i, seed))
        if on_game is not None:
            on_game(i)
    return tally.summary(), engines


# -- the comparison -------------------------------------------------------------------------


def _rate(k: int, n: int) -> str:
    low, high = wilson(k, n)
    return f"{100.0 * k / n if n else 0.0:.1f}% [{100 * low:.0f}-{100 * high:.0f}]"


def _rows(run: Run) -> dict[str, tuple[str, Optional[float]]]:
    """Each row of the comparison: its text and the number a change is measured on."""
    s = run.summary
    g = s["games"]
    rows: dict[str, tuple[str, Optional[float]]] = {}
    for p in s["players"]:
        rows[f"{p['name']} wins"] = (_rate(p["wins"], p["games"]), 100.0 * p["wins"] / p["games"] if p["games"] else 0.0)
    for seat in run.seats:
        won = sum(p["wins_by_seat"][seat] for p in s["players"])
        rows[f"seat {seat} wins"] = (_rate(won, g), 100.0 * won / g if g else 0.0)
    rows["draws"] = (_rate(s["draws"], g), 100.0 * s["draws"] / g if g else 0.0)
    if len(run.seats) > 2:
        rows["shared first"] = (_rate(s["shared"], g), 100.0 * s["shared"] / g if g else 0.0)
    rows["stopped (ply limit)"] = (_rate(s["ply_limited"], g), 100.0 * s["ply_limited"] / g if g else 0.0)
    rows["mean plies"] = (f"{s['mean_plies']:.1f}", s["mean_plies"])
    return rows


def comparison(now: Run, before: Optional[Run]) -> str:
    """``now`` as a table, with ``before`` beside it and the change (percentage points for
    rates, plies for plies) when there is a previous run to compare with."""
    head = f"run {now.number}: {now.title}, {now.summary['games']} games, " + " then ".join(now.engines) + " engine"
    rows = _rows(now)
    old = _rows(before) if before is not None else {}
    table = [["", f"run {now.number}"] + ([f"run {before.number}", "change"] if before is not None else [])]
    for name, (text, value) in rows.items():
        line = [name, text]
        if before is not None:
            prev = old.get(name)
            line.append(prev[0] if prev else "-")
            line.append(f"{value - prev[1]:+.1f}" if prev and value is not None and prev[1] is not None else "new")
        table.append(line)
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
    lines = [head]
    for r in table:
        lines.append("  ".join([r[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:], widths[1:])]).rstrip())
    lines.append("win % with its 95% Wilson interval" + ("; change: percentage points (plies for mean plies)" if before is not None else ""))
    return "\n".join(lines)


# -- the loop -------------------------------------------------------------------------------


class Watcher:
    """Polls the spec's files and reruns the match when they change. ``say`` prints a
    block of text; ``builder`` builds the compiled game (a test holds it back)."""

    def __init__(
        self,
        spec: str,
        players: Sequence[PlayerSpec],
        games: int,
        variant: Optional[str] = None,
        seed: int = 0,
        engine: str = "compiled",
        say: Callable[[str], None] = print,
        builder: Callable = compiled_game,
        progress: Optional[Callable[[int], object]] = None,
    ):
        self.spec, self.players, self.games, self.variant, self.seed, self.engine = spec, list(players), games, variant, seed, engine
        self.say, self.builder = say, builder
        self.progress = progress  # progress(total) -> a context manager yielding tick(_)
        self.seen: Optional[tuple] = None
        self.building: Optional[PendingEngine] = None  # the last compiled engine asked for
        self.generation = 0  # how many have been asked for
        self.runs = 0
        self.last: Optional[Run] = None

    def changed(self) -> bool:
        now = fingerprint(watched_files(self.spec))
        if now == self.seen:
            return False
        self.seen = now
        return True

    def rerun(self) -> Optional[Run]:
        """Load, check and play the spec as it is now; print the results beside the last
        good run's (or the error); the run, or None after an error."""
        from ..spec.lower import list_player_counts, load_game_ir

        stamp = datetime.now().strftime("%H:%M:%S")
        self.say(f"\n[{stamp}] {self.spec}: {'running' if self.last is None else 'changed, running again'}")
        try:
            counts = list_player_counts(self.spec, self.variant)
            if counts and len(self.players) not in counts:
                raise MidgardcError(f"{len(self.players)} players were given; {self.spec} is played by {', '.join(map(str, counts))} players")
            ir = load_game_ir(self.spec, self.variant, len(self.players) if counts else None)
            pending = self._build(ir) if self.engine == "compiled" else None
            if self.progress is None:
                summary, engines = play_run(ir, self.players, self.games, self.seed, self.engine, self.say, self.builder, pending=pending)
            else:
                with self.progress(self.games) as tick:
                    summary, engines = play_run(ir, self.players, self.games, self.seed, self.engine, self.say, self.builder, on_game=tick, pending=pending)
        except MidgardcError as exc:
            self.say(str(exc))
            self.say("fix the spec and save it: the match runs again")
            return None
        self.runs += 1
        run = Run(self.runs, ir.title + (f" [{ir.variant}]" if ir.variant else ""), list(ir.players), summary, engines)
        self.say(comparison(run, self.last))
        self.last = run
        return run

    def _build(self, ir) -> PendingEngine:
        """The compiled engine of ``ir``, built after the build before it ends (one build at
        a time: a designer who saves every few seconds must not start a compiler each time),
        and not at all when a newer save has come by then. Waits ``GRACE_SECONDS`` for it (a
        cached engine), as ``play`` does."""
        self.generation += 1
        generation, before, builder = self.generation, self.building, self.builder

        def build(ir):
            if before is not None:
                before.wait()
            if generation != self.generation:
                raise MidgardcError("a newer save came first")
            return builder(ir)

        self.building = PendingEngine(ir, build)
        self.building.wait(GRACE_SECONDS)
        return self.building

    def poll(self) -> bool:
        """One look at the files: True when the match ran (or failed) again."""
        if not self.changed():
            return False
        self.rerun()
        files = watched_files(self.spec)
        self.say(f"watching {', '.join(files)}: save to run again, Ctrl-C to stop")
        return True

    def loop(self, sleep: Callable[[float], None] = time.sleep, interval: float = POLL_SECONDS, until: Callable[[], bool] = lambda: False) -> None:
        """Poll until ``until()`` (never, by default: Ctrl-C ends it)."""
        while True:
            self.poll()
            if until():
                return
            sleep(interval)
