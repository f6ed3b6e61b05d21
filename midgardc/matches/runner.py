"""Play many games between players, in this process or in a pool of local processes.

Everything random about game ``i`` comes from ``derive_seed(seed, i)``: the state's seed
and each seat's player Rng (``Rng(derive_seed(game_seed, seat))``). A game therefore does
not depend on which process plays it or when, and ``--workers`` never changes results.
Seats rotate: in game ``i`` seat ``s`` is taken by player ``(s + i) % n``, so with a
multiple of ``n`` games every player sits in every seat equally often.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import traceback
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Optional, Sequence, Union

from ..errors import MidgardcError
from ..players import Player, PlayerSpec, player_labels
from ..runtime.results import margin_of, winner_of
from ..runtime.rng import Rng, derive_seed
from .record import RecordWriter, spec_sha256
from .tally import Tally

if TYPE_CHECKING:  # pragma: no cover
    from ..runtime.game import Game


@dataclass(frozen=True)
class GameResult:
    index: int
    seed: int  # the game's own seed, derive_seed(match seed, index)
    seats: tuple[int, ...]  # player index per seat
    moves: tuple[str, ...]  # in notation
    winner: Optional[int]  # winning seat; None for a draw
    plies: int
    keys: tuple[tuple[int, ...], ...]  # ranking keys per seat
    margin: int
    ply_limited: bool


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
    game_seed = derive_seed(seed, index)
    n = game.ir.n_players
    seats = seating(index, n)
    rngs = [Rng(derive_seed(game_seed, s)) for s in range(n)]
    state = game.new_state(game_seed)
    while not state.is_terminal():
        if state.is_chance_node():  # the dice: the state's own chance stream
            state.sample_chance()
            continue
        seat = state.current_player()
        state.apply_unchecked(players[seats[seat]].choose(state, rngs[seat]))
    keys = state.keys()
    return GameResult(
        index=index,
        seed=game_seed,
        seats=seats,
        moves=tuple(game.move_text(m) for m in state.history),
        winner=winner_of(game.ir, keys, bool(state.core.ply_limited)),
        plies=state.ply(),
        keys=tuple(tuple(k) for k in keys),
        margin=margin_of(game.ir, keys),
        ply_limited=bool(state.core.ply_limited),
    )


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
        writer = RecordWriter(record, game.ir, labels, header)

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
            _run_pool(_WorkerConfig(spec_path, game.variant, game.engine_name, tuple(players), tuple(labels), seed, game.ir.n_players), games, workers, take)
    except KeyboardInterrupt:
        outcome.interrupted = True
    except BaseException:
        if writer is not None:
            writer.discard()
        raise
    if writer is not None:
        writer.commit()
    return outcome


# -- worker processes --------------------------------------------------------------------


@dataclass(frozen=True)
class _WorkerConfig:
    """What a worker needs to rebuild the game and players (all of it pickles)."""

    spec: str
    variant: Optional[str]
    engine: str
    players: tuple[PlayerSpec, ...]
    labels: tuple[str, ...]
    seed: int
    n_players: Optional[int] = None


@dataclass(frozen=True)
class _Failure:
    """An error inside a worker, carried back as text (``user``: a MidgardcError's message)."""

    text: str
    user: bool = True


class RelayedError(MidgardcError):
    def __init__(self, text: str):
        super().__init__(text)
        self.text = text

    def __str__(self) -> str:
        return self.text


_worker: Union[None, _Failure, tuple["Game", list[Player], int]] = None


def _init_worker(config: _WorkerConfig) -> None:
    """Load the game and players once per process. Failures are kept, not raised: a pool
    whose initializer raises restarts the worker forever instead of reporting."""
    global _worker
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops the pool
    try:
        from ..runtime.game import load

        game = load(config.spec, config.variant, engine=config.engine, n_players=config.n_players)
        players = [spec.make(label) for spec, label in zip(config.players, config.labels)]
        _worker = (game, players, config.seed)
    except MidgardcError as exc:
        _worker = _Failure(str(exc))
    except Exception:
        _worker = _Failure("a worker process failed to start:\n" + traceback.format_exc(), user=False)


def _play_in_worker(index: int) -> Union[GameResult, _Failure]:
    if isinstance(_worker, _Failure) or _worker is None:
        return _worker or _Failure("worker process not initialised", user=False)
    game, players, seed = _worker
    try:
        return play_game(game, players, index, seed)
    except MidgardcError as exc:
        return _Failure(str(exc))


def _run_pool(config: _WorkerConfig, games: int, workers: int, take: Callable[[GameResult], None]) -> None:
    # 'spawn' everywhere: no inherited locks or threads, and the same behaviour on every OS.
    context = multiprocessing.get_context("spawn")
    chunk = max(1, min(4, games // (workers * 8)))  # small: results (and Ctrl-C) come back promptly
    pool = context.Pool(min(workers, games), initializer=_init_worker, initargs=(config,))
    try:
        for result in pool.imap_unordered(_play_in_worker, range(games), chunksize=chunk):
            if isinstance(result, _Failure):
                raise RelayedError(result.text) if result.user else RuntimeError(result.text)
            take(result)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def default_workers() -> int:
    return os.cpu_count() or 1
