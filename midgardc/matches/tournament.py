"""Round-robin tournaments: every group of players that fills the seats, in every variant.

The plan is fixed before a game is played. Pairings are the combinations of ``n_seats``
distinct players in list order; each pairing plays ``games`` games with seats rotated
exactly as in a match (runner.seating). Games are numbered in the order (variant,
pairing, j), and game j of pairing p gets the seed ``derive_seed(seed, p * games + j)``:
the same in every variant (common random numbers: two variants are compared on the same
dice and the same player randomness, which sharpens the comparison) and, for a
tournament of one pairing, the same as ``match`` with that seed. Nothing depends on which
process or machine plays a game, so results are identical in-process, with a local pool
or on a Dask cluster; results are folded in game order all the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Callable, Optional, Sequence

from ..errors import MidgardcError, did_you_mean
from ..runtime.rng import derive_seed
from .record import RecordWriter, record_line, spec_sha256
from .results import GameResult
from .runner import GameTask, RunConfig, Workshop, run_pool, seating
from .stats import elo_ratings, mean_sd, wilson
from .tally import Tally

if TYPE_CHECKING:  # pragma: no cover
    from ..ir.nodes import GameIR
    from .cluster import ClusterTarget

BASE = "base"  # how the game without a variant is written in --variant and in the output

Backend = Callable[[RunConfig, Sequence[GameTask], Callable[[GameResult], None]], None]


@dataclass(frozen=True)
class Entry:
    """One variant of the tournament (``variant`` None: the base game)."""

    name: str
    variant: Optional[str]
    ir: "GameIR"
    pairings: tuple[tuple[int, ...], ...]


def pairings(n_players: int, n_seats: int) -> list[tuple[int, ...]]:
    """Every group of ``n_seats`` distinct players (indices, in list order)."""
    if n_players < n_seats:
        raise MidgardcError(f"a tournament needs at least as many players as seats: {n_seats} seats, {n_players} player{'s' if n_players != 1 else ''} given")
    return list(combinations(range(n_players), n_seats))


def variant_names(requested: Sequence[str], declared: Sequence[str]) -> list[tuple[str, Optional[str]]]:
    """(name, variant) per requested variant; ``base`` is the game without a variant."""
    if BASE in declared:
        raise MidgardcError(f"the spec declares a variant named '{BASE}', which tournament uses for the game without a variant; rename that variant")
    out: list[tuple[str, Optional[str]]] = []
    for name in requested or [BASE]:
        if any(name == have for have, _ in out):
            raise MidgardcError(f"--variant {name} is given twice")
        if name != BASE and name not in declared:
            known = ", ".join([BASE, *declared])
            raise MidgardcError(f"unknown variant '{name}' (this spec has: {known}; '{BASE}' is the game without a variant)", hint=did_you_mean(name, [BASE, *declared]))
        out.append((name, None if name == BASE else name))
    return out


def plan(entries: Sequence[Entry], games: int, seed: int) -> list[GameTask]:
    """Every game of the tournament, in its fixed global order (see the module doc)."""
    tasks: list[GameTask] = []
    for entry in entries:
        n = entry.ir.n_players
        for p, group in enumerate(entry.pairings):
            for j in range(games):
                seats = tuple(group[k] for k in seating(j, n))
                tasks.append(GameTask(len(tasks), derive_seed(seed, p * games + j), entry.variant, seats))
    return tasks


def balanced(entries: Sequence[Entry], games: int) -> bool:
    """Whether every player of a pairing takes every seat equally often."""
    return all(games % e.ir.n_players == 0 for e in entries)


# -- running ---------------------------------------------------------------------------------


@dataclass
class TournamentOutcome:
    entries: list[Entry]
    labels: list[str]
    tallies: dict[str, Tally]
    requested: int
    games_per_pairing: int
    seed: int
    engine: str
    interrupted: bool = False
    played: int = 0


def in_process(shop: Workshop) -> Backend:
    """Play in this process, with games and players already made (``shop``)."""

    def run(config: RunConfig, tasks: Sequence[GameTask], take: Callable[[GameResult], None]) -> None:
        for task in tasks:
            take(shop.play(task))

    return run


def local_pool(workers: int) -> Backend:
    def run(config: RunConfig, tasks: Sequence[GameTask], take: Callable[[GameResult], None]) -> None:
        run_pool(config, iter(tasks), len(tasks), workers, take)

    return run


def on_cluster(target: "ClusterTarget") -> Backend:
    def run(config: RunConfig, tasks: Sequence[GameTask], take: Callable[[GameResult], None]) -> None:
        from .cluster import run_on_cluster

        run_on_cluster(target, config, tasks, take)

    return run


def run_tournament(
    spec_path: str,
    entries: Sequence[Entry],
    config: RunConfig,
    games: int,
    seed: int,
    backend: Backend,
    record: Optional[str] = None,
    on_game: Optional[Callable[[GameResult], None]] = None,
) -> TournamentOutcome:
    """Play the whole plan; Ctrl-C stops early and returns what finished (``interrupted``)."""
    labels = list(config.labels)
    tasks = plan(entries, games, seed)
    by_variant = {e.variant: e for e in entries}
    outcome = TournamentOutcome(list(entries), labels, {e.name: Tally(e.ir, labels) for e in entries}, len(tasks), games, seed, config.engine)
    writer = None
    if record is not None:
        sha = spec_sha256(spec_path)
        headers = {
            e.variant: {"spec": spec_path, "spec_sha256": sha, "variant": e.variant, "players_count": e.ir.n_players, "engine": config.engine, "seed": seed, "players": labels}
            for e in entries
        }

        first: dict[Optional[str], int] = {}  # each variant's first game: its games' seeds count from there
        for i, task in enumerate(tasks):
            first.setdefault(task.variant, i)

        def make_line(result: GameResult) -> dict:
            entry = by_variant[tasks[result.index].variant]
            pairing = [labels[p] for p in sorted(result.seats)]
            # seed_index: the game's seed is derive_seed(seed, seed_index) (see plan), which a record proves
            return record_line(entry.ir, labels, headers[entry.variant], result, {"pairing": pairing, "seed_index": result.index - first[entry.variant]})

        writer = RecordWriter(record, make_line)
    pending: dict[int, GameResult] = {}
    next_index = 0

    def fold(result: GameResult) -> None:
        outcome.tallies[by_variant[tasks[result.index].variant].name].add(result)
        outcome.played += 1

    def take(result: GameResult) -> None:
        nonlocal next_index
        pending[result.index] = result  # folded in game order, whatever order they finish in
        while next_index in pending:
            fold(pending.pop(next_index))
            next_index += 1
        if writer is not None:
            writer.add(result)
        if on_game is not None:
            on_game(result)

    try:
        backend(config, tasks, take)
    except KeyboardInterrupt:
        outcome.interrupted = True
    except BaseException:
        if writer is not None:
            writer.discard()
        raise
    for index in sorted(pending):  # finished after a gap left by Ctrl-C
        fold(pending.pop(index))
    if writer is not None:
        writer.commit()
    return outcome


# -- the numbers -------------------------------------------------------------------------------


def _rate(k: float, n: int) -> dict:
    lo, hi = wilson(k, n)
    return {"rate": round(k / n, 4) if n else 0.0, "ci": [round(lo, 4), round(hi, 4)]}


def _r(x: float, digits: int) -> float:
    return round(x, digits) + 0.0  # + 0.0: no "-0.0" in the output


def variant_summary(entry: Entry, tally: Tally, games: int) -> dict:
    """The numbers of one variant's table, as plain JSON-ready values in a stable order."""
    labels = tally.labels
    seats = list(entry.ir.players)
    points = tally.pair_points()
    ratings = elo_ratings(points, tally.pair_games)
    players = []
    for i, label in enumerate(labels):
        n, w, d = tally.played[i], tally.wins[i], tally.drawn[i]
        # (n = w + shared + d + losses + stopped; see Tally)
        pair_games = sum(tally.pair_games[i])
        win = _rate(w, n)
        players.append(
            {
                "name": label,
                "games": n,
                "wins": w,
                "shared": tally.shared_firsts[i],
                "draws": d,
                "losses": tally.lost[i],
                "stopped": tally.stopped[i],
                "win_rate": win["rate"],
                "win_ci": win["ci"],
                "score": _r(sum(points[i]) / pair_games, 4) if pair_games else 0.0,
                "elo": _r(ratings[i][0], 1),
                "elo_ci": _r(ratings[i][1], 1),
                "seats": {
                    s: {"games": tally.games_by_seat[i][k], "wins": tally.wins_by_seat[i][k], **_seat_rate(tally.wins_by_seat[i][k], tally.games_by_seat[i][k])}
                    for k, s in enumerate(seats)
                },
                "mean_diff": _r(tally.diff[i] / n, 3) if n else 0.0,
                **({"returns": tally.payoff[i], "mean_returns": _r(tally.payoff[i] / n, 4) if n else 0.0} if tally.ir.returns is not None else {}),
            }
        )
    seat_wins = [sum(tally.wins_by_seat[p][k] for p in range(len(labels))) for k in range(len(seats))]
    plies = mean_sd(tally.games, tally.plies, tally.plies_sq)
    margin = mean_sd(tally.games, tally.margin, tally.margin_sq)
    head = {
        labels[a]: {
            labels[b]: {
                "games": tally.pair_games[a][b],
                "wins": tally.pair_wins[a][b],
                "draws": tally.pair_draws[a][b],
                "losses": tally.pair_wins[b][a],
                "score": _r(points[a][b] / tally.pair_games[a][b], 4) if tally.pair_games[a][b] else None,
            }
            for b in range(len(labels))
            if b != a
        }
        for a in range(len(labels))
    }
    return {
        "variant": entry.name,
        "title": entry.ir.title,
        "seats": seats,
        "pairings": [[labels[p] for p in group] for group in entry.pairings],
        "requested": len(entry.pairings) * games,
        "games": tally.games,
        "draws": tally.draws,
        "draw_rate": _r(tally.draws / tally.games, 4) if tally.games else 0.0,
        "shared": tally.shared,
        "ply_limited": tally.ply_limited,
        "plies": {"mean": _r(plies[0], 3), "sd": _r(plies[1], 3)},
        "first_key": entry.ir.ranking[0].name if entry.ir.ranking else None,
        "margin": {"mean": _r(margin[0], 3), "sd": _r(margin[1], 3)},
        "seat_wins": {s: {"games": tally.games, "wins": seat_wins[k], **_seat_rate(seat_wins[k], tally.games)} for k, s in enumerate(seats)},
        "players": players,
        "head_to_head": head,
    }


def _seat_rate(k: int, n: int) -> dict:
    r = _rate(k, n)
    return {"win_rate": r["rate"], "win_ci": r["ci"]}


def summary(outcome: TournamentOutcome, spec: str, game_name: str) -> dict:
    """The whole tournament as one JSON-ready dict: no timings, no machine-dependent paths,
    so the same seed gives the same bytes whatever plays the games."""
    variants = [variant_summary(e, outcome.tallies[e.name], outcome.games_per_pairing) for e in outcome.entries]
    comparison = [
        {
            "variant": v["variant"],
            "first_seat": v["seats"][0],
            "first_seat_win_rate": v["seat_wins"][v["seats"][0]]["win_rate"],
            "first_seat_win_ci": v["seat_wins"][v["seats"][0]]["win_ci"],
            "draw_rate": v["draw_rate"],
            "plies": v["plies"],
        }
        for v in variants
    ]
    return {
        "spec": spec,
        "game": game_name,
        "engine": outcome.engine,
        "seed": outcome.seed,
        "players": outcome.labels,
        "games_per_pairing": outcome.games_per_pairing,
        "requested": outcome.requested,
        "games": outcome.played,
        "interrupted": outcome.interrupted,
        "variants": variants,
        "comparison": comparison,
    }
