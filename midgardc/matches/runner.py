"""Play many games between players, in this process or in a pool of local processes.

Everything random about game ``i`` comes from ``derive_seed(seed, i)``: the state's seed
and each seat's player Rng (``Rng(derive_seed(game_seed, seat))``). A game therefore does
not depend on which process plays it or when, and ``--workers`` never changes results.
Seats rotate: in game ``i`` seat ``s`` is taken by player ``(s + i) % n``, so with a
multiple of ``n`` games every player sits in every seat equally often.

Underneath, a run is a list of GameTasks (index, seed, variant, seats) played by a
Workshop, which caches loaded games per process: a match is one kind of run, a
tournament (tournament.py) another, and local pools and Dask workers (cluster.py) play
the same tasks the same way.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import signal
import traceback
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Optional, Sequence, Union

from ..errors import MidgardcError
from ..players import Player, PlayerSpec, player_labels
from ..players.view import PlayerView
from ..runtime.rng import Rng, derive_seed
from .record import RecordWriter, record_line, spec_sha256
from .results import GameResult, result_of
from .tally import Tally

if TYPE_CHECKING:  # pragma: no cover
    from ..runtime.game import Game, State


@dataclass
class MatchOutcome:
    tally: Tally
    requested: int
    interrupted: bool = False


def seating(index: int, n: int) -> tuple[int, ...]:
    """Player index per seat in game ``index``."""
    return tuple((s + index) % n for s in range(n))


def play_game(game: "Game", players: Sequence[Player], index: int, seed: int) -> GameResult:
    """Game ``index`` of a match started with ``seed``."""
    return play_seated(game, players, seating(index, game.ir.n_players), index, derive_seed(seed, index))


def play_seated(game: "Game", players: Sequence[Player], seats: Sequence[int], index: int, game_seed: int) -> GameResult:
    """One game with ``players[seats[s]]`` in seat ``s``, seeded with ``game_seed`` (the
    state's seed; seat s's player draws from ``Rng(derive_seed(game_seed, s))``)."""
    n = game.ir.n_players
    rngs = [Rng(derive_seed(game_seed, s)) for s in range(n)]
    state = game.new_state(game_seed)
    while not state.is_terminal():
        if state.is_chance_node():  # the dice: the state's own chance stream
            state.sample_chance()
            continue
        seat = state.current_player()
        # a player sees its seat's view, never the state
        state.apply_unchecked(players[seats[seat]].choose(PlayerView(state, seat), rngs[seat]))
    return result_of(state, index, game_seed, tuple(seats), tuple(state.texts))


def run_match(
    game: "Game",
    spec_path: str,
    players: Sequence[PlayerSpec],
    games: int,
    seed: int = 0,
    workers: int = 1,
    record: Optional[str] = None,
    on_game: Optional[Callable[[GameResult], None]] = None,
) -> MatchOutcome:
    """Play ``games`` games; Ctrl-C stops early and returns what finished (``interrupted``)."""
    n = game.ir.n_players
    if len(players) != n:
        seats = ", ".join(game.ir.players)
        raise MidgardcError(f"{game.ir.title} has {n} seats ({seats}) but {len(players)} players were given")
    labels = player_labels(list(players))
    objects = [spec.make(label) for spec, label in zip(players, labels)]  # fail early on bad scripts
    tally = Tally(game.ir, labels)
    outcome = MatchOutcome(tally, games)
    writer = None
    if record is not None:
        header = {"spec": spec_path, "spec_sha256": spec_sha256(spec_path), "variant": game.variant, "players_count": game.ir.n_players, "engine": game.engine_name, "seed": seed}
        if game.start is not None:  # games from a --position start: replay needs it
            header["position"] = game.start.text
        writer = RecordWriter(record, lambda result: record_line(game.ir, labels, header, result))

    def take(result: GameResult) -> None:
        tally.add(result)
        if writer is not None:
            writer.add(result)
        if on_game is not None:
            on_game(result)

    try:
        if workers <= 1 or games <= 1:
            for i in range(games):
                take(play_game(game, objects, i, seed))
        else:
            config = RunConfig(spec_path, game.engine_name, tuple(players), tuple(labels), game.ir.n_players, game.start.text if game.start is not None else None)
            tasks = (GameTask(i, derive_seed(seed, i), game.variant, seating(i, n)) for i in range(games))
            run_pool(config, tasks, games, workers, take)
    except KeyboardInterrupt:
        outcome.interrupted = True
    except BaseException:
        if writer is not None:
            writer.discard()
        raise
    if writer is not None:
        writer.commit()
    return outcome


# -- jobs and worker processes ------------------------------------------------------------


@dataclass(frozen=True)
class GameTask:
    """One game of a run: everything that differs from game to game (it pickles small)."""

    index: int  # the game's number in the run (a record's "game")
    seed: int  # the game's own seed
    variant: Optional[str]
    seats: tuple[int, ...]  # index into the run's players, per seat


@dataclass(frozen=True)
class RunConfig:
    """What any process needs to rebuild the games and players of a run (all of it pickles)."""

    spec: str
    engine: str
    players: tuple[PlayerSpec, ...]
    labels: tuple[str, ...]
    n_players: Optional[int] = None  # the player count the spec is loaded for (None: its default)
    position: Optional[str] = None  # where every game starts (the spec's position notation; None: the setup)


class Workshop:
    """Plays tasks of one run in one process, loading each variant's game once and making
    the players once: a worker serves any mix of (variant, seating) tasks."""

    def __init__(self, config: RunConfig, spec_path: Optional[str] = None, games: Optional[dict] = None):
        self.config = config
        self.spec_path = spec_path or config.spec
        self.games: dict[Optional[str], "Game"] = dict(games or {})
        self.players = [spec.make(label) for spec, label in zip(config.players, config.labels)]

    def game(self, variant: Optional[str]) -> "Game":
        game = self.games.get(variant)
        if game is None:
            from ..engines import load

            game = self.games[variant] = load(self.spec_path, variant, engine=self.config.engine, n_players=self.config.n_players)
            game.start_from(self.config.position)
        return game

    def play(self, task: GameTask) -> GameResult:
        return play_seated(self.game(task.variant), self.players, task.seats, task.index, task.seed)


@dataclass(frozen=True)
class Failure:
    """An error inside a worker, carried back as text (``user``: a MidgardcError's message)."""

    text: str
    user: bool = True

    def raise_it(self) -> None:
        raise RelayedError(self.text) if self.user else RuntimeError(self.text)


class RelayedError(MidgardcError):
    def __init__(self, text: str):
        super().__init__(text)
        self.text = text

    def __str__(self) -> str:
        return self.text


def play_safely(workshop: Union[Workshop, Failure], task: GameTask) -> Union[GameResult, Failure]:
    """A result, or the error as a Failure that pickles back to the parent."""
    if isinstance(workshop, Failure):
        return workshop
    try:
        return workshop.play(task)
    except MidgardcError as exc:
        return Failure(str(exc))
    except Exception:
        return Failure(f"game {task.index} failed in a worker:\n" + traceback.format_exc(), user=False)


def open_workshop(config: RunConfig, spec_path: Optional[str] = None) -> Union[Workshop, Failure]:
    """A Workshop, or why not. Failures are kept, not raised: a pool whose initializer
    raises restarts the worker forever instead of reporting."""
    try:
        return Workshop(config, spec_path)
    except MidgardcError as exc:
        return Failure(str(exc))
    except Exception:
        return Failure("a worker process failed to start:\n" + traceback.format_exc(), user=False)


_workshop: Union[None, Failure, Workshop] = None


def _init_worker(config: RunConfig) -> None:
    global _workshop
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops the pool
    _workshop = open_workshop(config)


def _play_in_worker(tasks: list[GameTask]) -> list[Union[GameResult, Failure]]:
    workshop = _workshop or Failure("worker process not initialised", user=False)
    return [play_safely(workshop, task) for task in tasks]


def run_pool(config: RunConfig, tasks: Iterable[GameTask], count: int, workers: int, take: Callable[[GameResult], None]) -> None:
    """Play ``count`` tasks in a pool of local processes; ``take`` sees results as they finish.

    A ProcessPoolExecutor rather than multiprocessing.Pool: when a worker dies (killed, out
    of memory, a crash in C) the Pool silently loses its task and the parent waits forever,
    while the executor fails every pending future with BrokenProcessPool, which becomes one
    clear error here."""
    # 'spawn' everywhere: no inherited locks or threads, and the same behaviour on every OS.
    context = multiprocessing.get_context("spawn")
    chunk = max(1, min(4, count // (workers * 8)))  # small: results (and Ctrl-C) come back promptly
    executor = ProcessPoolExecutor(min(workers, count), mp_context=context, initializer=_init_worker, initargs=(config,))
    pending: set = set()
    batches = _batches(iter(tasks), chunk)
    try:
        for batch in itertools.islice(batches, workers * 4):  # a few batches ahead per worker
            pending.add(executor.submit(_play_in_worker, batch))
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                try:
                    results = future.result()
                except BrokenProcessPool:
                    raise RelayedError("a worker process died before finishing its games (killed, or out of memory?); try again, or with fewer --workers") from None
                for result in results:
                    if isinstance(result, Failure):
                        result.raise_it()
                    take(result)
                batch = next(batches, None)
                if batch is not None:
                    pending.add(executor.submit(_play_in_worker, batch))
    finally:
        for process in list(getattr(executor, "_processes", {}).values()):  # stop at once (Ctrl-C, errors)
            if process.is_alive():
                process.terminate()
        executor.shutdown(wait=True, cancel_futures=True)


def _batches(tasks: Iterator[GameTask], size: int) -> Iterator[list[GameTask]]:
    while True:
        batch = list(itertools.islice(tasks, size))
        if not batch:
            return
        yield batch


def default_workers() -> int:
    return os.cpu_count() or 1
