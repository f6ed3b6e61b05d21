"""match, tournament and report: many games between players, and what a record of them says."""

from __future__ import annotations

from typing import Optional

import click

from ..cli_errors import EXIT_INTERRUPTED
from ..cli_options import (
    PlayersType,
    engine_option,
    json_option,
    player_count_option,
    position_option,
    seed_option,
    spec_argument,
    variant_option,
)
from ..players import PlayerSpec, kinds_help
from ..progress import progress, progress_option
from ..runtime.game import Game
from ..engines import game_from_ir
from .common import _load_ir, _open_game, _variants, sigterm_as_ctrl_c
from .group import cli
from ..matches.results import GameResult

SAY_GAMES = 10  # a match of at most this many games says how each one ended


def game_line(result: GameResult, players: list) -> str:
    """One game of a match for people: who sat where, how it ended, the ranks."""
    from ..runtime.ending import ranks_line

    end = result.ending
    if end is None:
        return f"game {result.index + 1}: {result.outcome}"
    seats = ", ".join(f"{s['player']}: {players[p].text}" for s, p in zip(end["seats"], result.seats))
    return f"game {result.index + 1} ({seats}): {end['text']}; ranks: {ranks_line(end)}"


# -- match ---------------------------------------------------------------------------------


@cli.command()
@spec_argument
@click.option(
    "--players",
    "-p",
    "players",
    required=True,
    type=PlayersType(),
    metavar="P1,P2,...",
    help=f"One player per seat, comma-separated: {kinds_help()}. Their number picks the player count.",
)
@click.option("--games", "-n", type=click.IntRange(min=1), default=100, show_default=True, help="Number of games.")
@seed_option
@variant_option
@engine_option("compiled", "Falls back to the interpreter, with a note, if the compiled engine is unavailable.")
@click.option("--workers", "-w", type=click.IntRange(min=0), default=1, show_default=True, help="Local processes to play in (0: one per CPU). Results do not depend on it.")
@click.option("--record", "-r", type=click.Path(dir_okay=False, writable=True), default=None, metavar="FILE.jsonl", help="Write every game (seats, moves, result) as one JSON line.")
@position_option
@json_option
@progress_option
@click.pass_context
def match(
    ctx: click.Context,
    spec: str,
    players: list[PlayerSpec],
    games: int,
    seed: int,
    variant: Optional[str],
    engine: str,
    workers: int,
    record: Optional[str],
    position: Optional[str],
    as_json: bool,
    show_progress: Optional[bool],
) -> None:
    """Play games between players and print a results table.

    Game i is seeded from (seed, i) and seats rotate, so every player takes every seat
    equally often over a multiple of the number of seats. Ctrl-C stops early, prints the
    table of the games played so far and exits 130.
    """
    from ..matches import run_match
    from ..matches.report import match_json, match_table
    from ..matches.runner import default_workers

    from ..spec.lower import list_player_counts

    counts = list_player_counts(spec, variant)
    if counts and len(players) not in counts:
        supported = ", ".join(str(c) for c in counts[:-1]) + (" or " if len(counts) > 1 else "") + str(counts[-1])
        raise click.BadParameter(f"{len(players)} players were given; {spec} is played by {supported} players", param_hint="'--players'")
    ir = _load_ir(spec, variant, len(players) if counts else None)
    if len(players) != ir.n_players:
        given = f"{len(players)} player{' was' if len(players) == 1 else 's were'} given"
        raise click.BadParameter(f"{ir.title} has {ir.n_players} seats ({', '.join(ir.players)}); {given}", param_hint="'--players'")
    game = _open_game(ctx, ir, engine, position)
    workers = workers or default_workers()
    with progress(games, show_progress) as tick, sigterm_as_ctrl_c():
        endings: dict[int, GameResult] = {}

        def took(result: GameResult) -> None:
            if len(endings) < SAY_GAMES:
                endings[result.index] = result
            tick(result)

        outcome = run_match(game, spec, players, games, seed=seed, workers=workers, record=record, on_game=took)
    meta = {
        "spec": spec,
        "game": game.name,
        "title": game.ir.title,
        "variant": game.variant,
        "engine": game.engine_name,
        "seed": seed,
        "seats": list(game.ir.players),
        "first_key": game.ir.ranking[0].name if game.ir.ranking else None,
        "requested": games,
        "interrupted": outcome.interrupted,
    }
    summary = outcome.tally.summary()
    click.echo(match_json(summary, meta) if as_json else match_table(summary, meta))
    if not as_json and summary["games"] <= SAY_GAMES:  # a few games: how each ended, and the ranks
        for index in sorted(endings):
            click.echo(game_line(endings[index], players))
    if record:
        click.echo(f"recorded {summary['games']} game{'s' if summary['games'] != 1 else ''} in {record}", err=True)
    if outcome.interrupted:
        ctx.exit(EXIT_INTERRUPTED)


# -- tournament ------------------------------------------------------------------------------


@cli.command()
@spec_argument
@click.option("--players", "-p", "players", required=True, type=PlayersType(), metavar="P1,P2,...", help=f"The players, comma-separated (at least as many as seats): {kinds_help()}.")
@click.option("--variant", "-V", "variants", multiple=True, metavar="NAME", help="A variant to play; repeat to compare variants. 'base' is the game without a variant (the default).")
@click.option("--games", "-n", type=click.IntRange(min=1), default=100, show_default=True, help="Games per pairing per variant.")
@seed_option
@engine_option("compiled", "Falls back to the interpreter, with a note, if the compiled engine is unavailable.")
@click.option("--workers", "-w", type=click.IntRange(min=0), default=1, show_default=True, help="Local processes to play in (0: one per CPU). Results do not depend on it.")
@click.option("--cluster", "cluster", default=None, metavar="ADDRESS", help="Play on a Dask cluster: tcp://HOST:PORT of its scheduler, or 'local' / 'local:K' to start K local workers for this run (needs midgardc[cluster]).")
@click.option("--record", "-r", type=click.Path(dir_okay=False, writable=True), default=None, metavar="FILE.jsonl", help="Write every game (variant, pairing, seats, moves, result) as one JSON line; 'replay --record' replays one.")
@json_option
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV instead of text: one row per (variant, player), with a header.")
@progress_option
@player_count_option
@click.pass_context
def tournament(
    ctx: click.Context,
    spec: str,
    players: list[PlayerSpec],
    variants: tuple[str, ...],
    games: int,
    seed: int,
    engine: str,
    workers: int,
    cluster: Optional[str],
    record: Optional[str],
    as_json: bool,
    as_csv: bool,
    show_progress: Optional[bool],
    player_count: Optional[int],
) -> None:
    """Play a round robin between players (and variants) and print win rates, intervals and ratings.

    \b
    Pairings: every group of distinct players that fills the seats (2 seats, 3 players:
    3 pairings; --player-count picks the seats of a spec that supports several counts). Each pairing plays --games games per variant, seats rotating as in
    'match'; a --games that is not a multiple of the seat count leaves seats unbalanced
    (a note says so).

    \b
    Game j of pairing p is seeded from (seed, p * games + j): the same seed gives the same
    games, byte for byte, in one process, with --workers or on a --cluster, and the same
    pairing and j get the same seeds in every variant (common random numbers), so variants
    are compared on equal luck.

    \b
    The table per variant: per player games, wins (first alone), shared first places
    (3+ seats), draws, losses, games stopped at the ply limit (when any: no result), win
    rate with its 95% Wilson interval, Elo ± 95% (Bradley-Terry maximum likelihood, draws
    as half wins, 2 virtual draws against a 0-rated player so 100% stays finite, mean 0;
    every game counts as pairwise results by rank, stopped games not at all), win rate
    per seat; wins by seat, draws, plies mean ± sd, margin; head to head. Several
    variants add a comparison.
    --json prints one object (stable keys, no timings), --csv one row per variant and
    player. Ctrl-C prints the table so far, keeps finished games in --record, exits 130.
    """
    from ..matches.runner import RunConfig, Workshop, default_workers
    from ..matches.tournament import Entry, in_process, local_pool, on_cluster, pairings, run_tournament, summary, variant_names
    from ..matches.report import tournament_csv, tournament_json, tournament_table
    from ..players import player_labels

    if as_json and as_csv:
        raise click.UsageError("--json and --csv cannot be used together")
    target = None
    if cluster is not None:
        from ..matches.cluster import parse_cluster

        if ctx.get_parameter_source("workers") != click.core.ParameterSource.DEFAULT:
            raise click.UsageError("--workers and --cluster cannot be used together (the cluster's workers play)")
        target = parse_cluster(cluster)
    entries: list[Entry] = []
    opened: dict[Optional[str], Game] = {}
    chosen: Optional[str] = None
    for name, variant in variant_names(list(variants), _variants(spec)):
        ir = _load_ir(spec, variant, player_count)
        entries.append(Entry(name, variant, ir, tuple(pairings(len(players), ir.n_players))))
        game = _open_game(ctx, ir, engine) if chosen is None else game_from_ir(ir, chosen)
        chosen = game.engine_name
        opened[variant] = game
    assert chosen is not None
    labels = player_labels(list(players))
    config = RunConfig(spec, chosen, tuple(players), tuple(labels), player_count)
    shop = Workshop(config, games=opened)  # makes every player: a bad script fails here, before any game
    if any(games % e.ir.n_players for e in entries):
        seats = sorted({e.ir.n_players for e in entries})
        click.echo(f"note: --games {games} is not a multiple of the seat count ({'/'.join(map(str, seats))}); seats are not perfectly balanced", err=True)
    if target is not None:
        backend = on_cluster(target)
    else:
        workers = workers or default_workers()
        backend = local_pool(workers) if workers > 1 else in_process(shop)
    total = sum(len(e.pairings) for e in entries) * games
    with progress(total, show_progress) as tick, sigterm_as_ctrl_c():
        outcome = run_tournament(spec, entries, config, games, seed, backend, record=record, on_game=tick)
    data = summary(outcome, spec, entries[0].ir.name)
    if as_json:
        click.echo(tournament_json(data))
    elif as_csv:
        click.echo(tournament_csv(data))
    else:
        click.echo(tournament_table(data))
    if record:
        click.echo(f"recorded {outcome.played} game{'s' if outcome.played != 1 else ''} in {record}", err=True)
    if outcome.interrupted:
        ctx.exit(EXIT_INTERRUPTED)


@cli.command()
@click.argument("record", type=click.Path(dir_okay=False), metavar="FILE.jsonl")
@click.option("--html", "html_out", type=click.Path(dir_okay=False, writable=True), default=None, metavar="OUT.html", help="Write one self-contained HTML page: tables, charts and a step-through replay.")
@click.option("--spec", "spec", type=click.Path(dir_okay=False), default=None, metavar="SPEC", help="The spec to replay the games on (default: the one the record names).")
@click.option("--max-replays", type=click.IntRange(min=0), default=200, show_default=True, help="Embed step-through replays of at most this many games (the tables count all).")
@engine_option("compiled", "Falls back to the interpreter, with a note, if the compiled engine is unavailable.")
@click.pass_context
def report(ctx: click.Context, record: str, html_out: Optional[str], spec: Optional[str], max_replays: int, engine: str) -> None:
    """Summarise a record of 'match --record' (text tables, or an HTML page with --html).

    Every game is replayed on the spec and must reach the recorded result; a spec changed
    since the record was made is refused.
    """
    from ..render.report import report_text, write_report

    groups = write_report(record, lambda ir: _open_game(ctx, ir, engine), html_out, spec, max_replays)
    click.echo(report_text(groups))
    if html_out:
        click.echo(f"wrote {html_out}", err=True)
