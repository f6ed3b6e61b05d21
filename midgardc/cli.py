"""The ``midgardc`` command line: thin commands over the engine API, players and matches.

The command names and options are a contract that outside checks rely on (see
DESIGN.md); the error policy (exit 1 for user errors, 123 for bugs) lives in cli_errors.
Commands that look at single positions (replay, moves, show, perft) default to the
interpreter, which needs no build; commands that play many games (match, bench) default
to the compiled engine and fall back to the interpreter, with a note, when it cannot be
had and was not asked for by name.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any, Optional

import click

from . import __version__
from .cli_errors import EXIT_INTERRUPTED, EXIT_USER, MidgardcGroup
from .cli_options import (
    PlayersType,
    engine_option,
    json_option,
    moves_option,
    player_count_option,
    seed_option,
    spec_argument,
    specs_argument,
    variant_option,
)
from .errors import BuildError, MidgardcError, MoveError
from .fileio import write_atomic
from .humanplay import SeatsType, seats_help
from .ir.nodes import GameIR
from .players import PlayerSpec, kinds_help
from .progress import progress, progress_option
from .runtime.game import Game, State, game_from_ir, replay

COMPILED_MODULE = "midgardc.runtime.compiled"


@click.group(cls=MidgardcGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="midgardc")
def cli() -> None:
    """Compile tabletop-game rules written in YAML into engines, and play with them."""


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="midgardc")


# -- helpers ---------------------------------------------------------------------------


def _label(spec: str, variant: Optional[str], count: Optional[int] = None) -> str:
    return (f"{spec} [{variant}]" if variant else spec) + (f" ({count} players)" if count else "")


def _load_ir(spec: str, variant: Optional[str], count: Optional[int] = None) -> GameIR:
    from .spec.lower import load_game_ir

    return load_game_ir(spec, variant, count)


def _counts(spec: str, variant: Optional[str]) -> list[Optional[int]]:
    """Every player count a spec (variant) declares, or [None] when it declares none."""
    from .spec.lower import list_player_counts

    return list(list_player_counts(spec, variant)) or [None]


def _variants(spec: str) -> list[str]:
    from .spec.lower import list_variants

    return list_variants(spec)


def _engine_explicit(ctx: click.Context) -> bool:
    source = ctx.get_parameter_source("engine")
    return source is not None and source != click.core.ParameterSource.DEFAULT


def _open_game(ctx: click.Context, ir: GameIR, engine: str) -> Game:
    """The game on the chosen back end; an unavailable compiled engine that was only the
    default gives way to the interpreter (with a note on stderr)."""
    if engine != "compiled":
        return game_from_ir(ir, engine)
    try:
        return game_from_ir(ir, "compiled")
    except ModuleNotFoundError as exc:
        if exc.name != COMPILED_MODULE:
            raise
        reason = "the compiled engine is not part of this installation"
        if _engine_explicit(ctx):
            raise MidgardcError(reason, hint="use --engine interpreted") from None
    except BuildError as exc:
        if _engine_explicit(ctx):
            raise
        reason = f"the compiled engine could not be built ({exc.message})"
    click.echo(f"note: {reason}; using the interpreter (--engine interpreted skips this note)", err=True)
    return game_from_ir(ir, "interpreted")


def _play(ctx: click.Context, spec: str, variant: Optional[str], engine: str, moves: str, seed: int = 0, count: Optional[int] = None) -> State:
    game = _open_game(ctx, _load_ir(spec, variant, count), engine)
    return replay(game, game.parse_moves(moves), seed)


# -- validate / build / generate ---------------------------------------------------------


@cli.command()
@specs_argument
@variant_option
@player_count_option
def validate(specs: tuple[str, ...], variant: Optional[str], player_count: Optional[int]) -> None:
    """Check specs: schema, names, conditions and types.

    Without --variant the base game and every variant are checked, and without
    --player-count every player count the spec declares. Each good one prints "SPEC: ok"
    (or "SPEC [variant] (N players): ok"); errors go to stderr and the exit status is 1.
    """
    failed = False
    told: set[str] = set()  # a mistake shared by several variants or counts is told once

    def tell(exc: MidgardcError) -> None:
        nonlocal failed
        failed = True
        if str(exc) not in told:
            told.add(str(exc))
            click.echo(str(exc), err=True)

    for spec in specs:
        try:
            targets = [variant] if variant else [None, *_variants(spec)]
        except MidgardcError as exc:
            tell(exc)
            continue
        for target in targets:
            try:
                counts = [player_count] if player_count else _counts(spec, target)
            except MidgardcError as exc:
                tell(exc)
                continue
            for count in counts:
                try:
                    _load_ir(spec, target, count)
                except MidgardcError as exc:
                    tell(exc)
                    continue
                click.echo(f"{_label(spec, target, count if len(counts) > 1 or player_count else None)}: ok")
    if failed:
        sys.exit(EXIT_USER)


def _compiler() -> Any:
    try:
        from .compiler import build
    except ModuleNotFoundError as exc:
        if exc.name not in ("midgardc.compiler.build", "midgardc.compiler"):
            raise
        raise MidgardcError("the compiler is not part of this installation") from None
    return build


def _targets(spec: str, variant: Optional[str], all_variants: bool) -> list[Optional[str]]:
    if all_variants:
        return [None, *_variants(spec)]
    return [variant]


@cli.command()
@specs_argument
@variant_option
@click.option("--all-variants", "-a", is_flag=True, help="Build the base game and every variant, each for every player count.")
@player_count_option
@click.option("--force", "-f", is_flag=True, help="Rebuild even when the cache holds this exact engine.")
def build(specs: tuple[str, ...], variant: Optional[str], all_variants: bool, player_count: Optional[int], force: bool) -> None:
    """Generate the Cython source under generated/ and compile the engine (cached by content).

    An engine is built per spec, variant and player count."""
    if variant and all_variants:
        raise click.UsageError("--variant and --all-variants cannot be used together")
    compiler = _compiler()
    failed = False
    for spec in specs:
        try:
            targets = _targets(spec, variant, all_variants)
        except MidgardcError as exc:
            click.echo(str(exc), err=True)
            failed = True
            continue
        for target in targets:
            try:
                counts = _counts(spec, target) if all_variants and not player_count else [player_count]
            except MidgardcError as exc:
                click.echo(str(exc), err=True)
                failed = True
                continue
            for count in counts:
                try:
                    ir = _load_ir(spec, target, count)
                    started = time.perf_counter()
                    path = compiler.write_generated(ir)
                    compiler.build_engine(ir, force=force)
                    took = time.perf_counter() - started
                except MidgardcError as exc:
                    click.echo(str(exc), err=True)
                    failed = True
                    continue
                click.echo(f"{_label(spec, target, count)}: ok ({path}, {took:.1f}s)")
    if failed:
        sys.exit(EXIT_USER)


@cli.command()
@click.argument("specs", nargs=-1, type=click.Path(dir_okay=False), metavar="[SPEC]...")
@click.option("--check", is_flag=True, help="Write nothing; list stale, missing (and, for all specs, extra) files; exit 1 if there are any.")
def generate(specs: tuple[str, ...], check: bool) -> None:
    """Write generated/ sources for every spec and variant (default: every spec under specs/).

    The generated files are checked in, so a review shows what a spec change does to the
    engine; --check (for CI) fails when they are out of date.
    """
    compiler = _compiler()
    if not specs and not os.path.isdir("specs"):
        raise MidgardcError("no SPEC given and no specs/ directory here", hint="run this in the project root, or name the specs")
    if check:
        problems = _check_generated(compiler, list(specs))
        for label, path in problems:
            click.echo(f"{label}: {path}")
        if problems:
            n = len(problems)
            click.echo(f"generated/ is out of date ({n} file{'s' if n > 1 else ''}); run 'midgardc generate'", err=True)
            sys.exit(EXIT_USER)
        click.echo("generated/ is up to date", err=True)
        return
    for spec in list(specs) or compiler.spec_files("specs"):
        for target in [None, *_variants(spec)]:
            for count in _counts(spec, target):
                ir = _load_ir(spec, target, count)
                text = compiler.generate_source(ir)
                fresh = _read_text(compiler.generated_path(ir)) == text
                path = compiler.write_generated(ir, text=text)
                click.echo(f"{path}: {'unchanged' if fresh else 'written'}")


def _check_generated(compiler: Any, specs: list[str]) -> list[tuple[str, str]]:
    """(stale|missing|extra, path) for the named specs, or for all of specs/ (extras too)."""
    if not specs:
        report = compiler.check_generated("specs")
        return [(label, p) for label in ("stale", "missing", "extra") for p in getattr(report, label)]
    out = []
    for spec in specs:
        for target in [None, *_variants(spec)]:
            for count in _counts(spec, target):
                ir = _load_ir(spec, target, count)
                path = compiler.generated_path(ir)
                have = _read_text(path)
                if have is None:
                    out.append(("missing", path))
                elif have != compiler.generate_source(ir):
                    out.append(("stale", path))
    return out


def _read_text(path: str) -> Optional[str]:
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            return fh.read()
    except FileNotFoundError:
        return None


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
    as_json: bool,
    show_progress: Optional[bool],
) -> None:
    """Play games between players and print a results table.

    Game i is seeded from (seed, i) and seats rotate, so every player takes every seat
    equally often over a multiple of the number of seats. Ctrl-C stops early, prints the
    table of the games played so far and exits 130.
    """
    from .matches import run_match
    from .matches.report import match_json, match_table
    from .matches.runner import default_workers

    from .spec.lower import list_player_counts

    counts = list_player_counts(spec, variant)
    if counts and len(players) not in counts:
        supported = ", ".join(str(c) for c in counts[:-1]) + (" or " if len(counts) > 1 else "") + str(counts[-1])
        raise click.BadParameter(f"{len(players)} players were given; {spec} is played by {supported} players", param_hint="'--players'")
    ir = _load_ir(spec, variant, len(players) if counts else None)
    if len(players) != ir.n_players:
        given = f"{len(players)} player{' was' if len(players) == 1 else 's were'} given"
        raise click.BadParameter(f"{ir.title} has {ir.n_players} seats ({', '.join(ir.players)}); {given}", param_hint="'--players'")
    game = _open_game(ctx, ir, engine)
    workers = workers or default_workers()
    with progress(games, show_progress) as tick:
        outcome = run_match(game, spec, players, games, seed=seed, workers=workers, record=record, on_game=tick)
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
    The table per variant: per player games, wins, draws, losses, win rate with its 95%
    Wilson interval, Elo ± 95% (Bradley-Terry maximum likelihood, draws as half wins, 2
    virtual draws against a 0-rated player so 100% stays finite, mean 0; games of more
    than two seats count as pairwise results by rank), win rate per seat; wins by seat,
    draws, plies mean ± sd, margin; head to head. Several variants add a comparison.
    --json prints one object (stable keys, no timings), --csv one row per variant and
    player. Ctrl-C prints the table so far, keeps finished games in --record, exits 130.
    """
    from .matches.runner import RunConfig, Workshop, default_workers
    from .matches.tournament import Entry, in_process, local_pool, on_cluster, pairings, run_tournament, summary, variant_names
    from .matches.report import tournament_csv, tournament_json, tournament_table
    from .players import player_labels

    if as_json and as_csv:
        raise click.UsageError("--json and --csv cannot be used together")
    target = None
    if cluster is not None:
        from .matches.cluster import parse_cluster

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
    with progress(total, show_progress) as tick:
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


# -- play ------------------------------------------------------------------------------------


@cli.command()
@spec_argument
@click.option("--players", "-p", "seats", required=True, type=SeatsType(), metavar="P1,P2,...", help=f"One player per seat, comma-separated: {seats_help()}. Their number picks the player count.")
@variant_option
@player_count_option
@seed_option
@engine_option("compiled", "Falls back to the interpreter, with a note, if the compiled engine is unavailable.")
@click.option("--record", "-r", type=click.Path(dir_okay=False, writable=True), default=None, metavar="FILE.jsonl", help="Write the game as the JSON line 'match --record' writes ('replay --record' checks it).")
@click.option("--delay", type=click.FloatRange(min=0), default=0.5, show_default=True, metavar="SECONDS", help="Pause after each bot move.")
@click.option("--color/--no-color", default=None, help="Colour the board (default: when stdout is a terminal).")
@click.pass_context
def play(ctx: click.Context, spec: str, seats: list, variant: Optional[str], player_count: Optional[int], seed: int, engine: str, record: Optional[str], delay: float, color: Optional[bool]) -> None:
    """Play a game yourself: each human seat sees its board and legal moves and types a move
    (its text, a unique prefix or its number), or undo, hint, help, quit. Bots and rolls
    play themselves."""
    from .humanplay import play_session
    from .spec.lower import list_player_counts

    counts = list_player_counts(spec, variant)
    if player_count is not None and player_count != len(seats):
        raise click.BadParameter(f"--player-count {player_count} but {len(seats)} players were given", param_hint="'--players'")
    if counts and len(seats) not in counts:
        raise click.BadParameter(f"{len(seats)} players were given; {spec} is played by {', '.join(str(c) for c in counts)} players", param_hint="'--players'")
    game = _open_game(ctx, _load_ir(spec, variant, len(seats) if counts else None), engine)
    play_session(game, spec, seats, seed=seed, record=record, delay=delay, color=sys.stdout.isatty() if color is None else color)


# -- replay / moves / show / perft -----------------------------------------------------------


def _result_from_state(state: State) -> dict:
    ir = state.game.ir
    w = state.winner()
    return {
        "winner_seat": None if w is None else ir.players[w],
        "plies": state.ply(),
        "keys": state.scores(),
    }


def _print_observations(state: State, who: str, seed: int) -> None:
    """``who``'s observation at every step of ``state``'s game, one JSON line each."""
    from .runtime.observe import viewer_index

    ir = state.game.ir
    viewer = viewer_index(ir, who)
    if viewer is None:
        raise MidgardcError(f"--as {who}: {ir.title} has no such player; players are {', '.join(ir.players)} (or a seat index 0..{ir.n_players - 1})")
    step = state.game.new_state(seed)
    click.echo(step.observation_string(viewer))
    for move in state.history:
        step.apply_unchecked(move)
        click.echo(step.observation_string(viewer))


def _check_against_record(state: State, line: dict, record: str) -> str:
    recorded = line.get("result") or {}
    got = _result_from_state(state)
    if not state.is_terminal():
        raise MidgardcError(f"game {line['game']} of {record} does not reach the end of the game when replayed (after {state.ply()} moves)")
    for key in ("winner_seat", "plies", "keys"):
        if key in recorded and recorded[key] != got[key]:
            raise MidgardcError(f"game {line['game']} of {record} replays to a different result: recorded {key} {recorded[key]!r}, replayed {got[key]!r}")
    who = recorded.get("winner", "draw")
    return f"game {line['game']} of {record}: replayed {state.ply()} moves; result matches the record ({'draw' if who == 'draw' else who + ' wins'})"


@cli.command("replay")
@spec_argument
@moves_option
@variant_option
@player_count_option
@seed_option
@engine_option("interpreted")
@click.option("--record", "-r", type=click.Path(dir_okay=False), default=None, metavar="FILE.jsonl", help="Replay a game recorded by 'match --record' or 'tournament --record' and check its result; a spec changed since the record was made is refused.")
@click.option("--game", "-g", "game_index", type=click.IntRange(min=0), default=None, help="Which game of --record (default 0).")
@click.option("--as", "as_player", default=None, metavar="PLAYER", help="Print only what PLAYER (a name or a seat index) sees: its observation at every step, one JSON object per line (its legal moves on its turns).")
@json_option
@click.pass_context
def replay_cmd(
    ctx: click.Context,
    spec: str,
    moves: str,
    variant: Optional[str],
    player_count: Optional[int],
    seed: int,
    engine: str,
    record: Optional[str],
    game_index: Optional[int],
    as_player: Optional[str],
    as_json: bool,
) -> None:
    """Play moves from the start and show where they lead.

    An illegal move stops the replay with its position in the list and the legal moves
    there (exit 1). With --json the final state is printed as one JSON object: board,
    players, current, terminal, winner, ... With --as PLAYER only that player's
    observation is printed, at the start and after every move (JSON lines): places it may
    not see show only their size, and its legal moves are listed on its turns.
    """
    note = None
    start_seed = seed
    if record is None:
        if game_index is not None:
            raise click.UsageError("--game needs --record")
        state = _play(ctx, spec, variant, engine, moves, seed, player_count)
    else:
        from .matches import read_record, spec_sha256

        if moves:
            raise click.UsageError("--moves and --record cannot be used together")
        if ctx.get_parameter_source("seed") != click.core.ParameterSource.DEFAULT:
            raise click.UsageError("--seed and --record cannot be used together (the record holds each game's seed)")
        line = read_record(record, game_index or 0)
        rec_variant = line.get("variant")
        if variant is not None and variant != rec_variant:
            raise click.UsageError(f"--variant {variant} does not match the record's variant ({rec_variant or 'none'})")
        if line.get("spec_sha256") and line["spec_sha256"] != spec_sha256(spec):
            made_from = f" (it was made from {line['spec']})" if line.get("spec") else ""
            raise MidgardcError(
                f"{spec} is not the spec {record} was made from{made_from}: the file has changed since, so its games "
                "may no longer replay as recorded; refusing to replay",
                hint="replay with the unchanged spec file, or record the games again",
            )
        seated = len(line.get("seat_names") or []) or None
        if player_count is not None and seated is not None and player_count != seated:
            raise click.UsageError(f"--player-count {player_count} does not match the record ({seated} players)")
        from .spec.lower import list_player_counts

        game = _open_game(ctx, _load_ir(spec, rec_variant, seated if list_player_counts(spec, rec_variant) else None), engine)
        try:
            state = replay(game, [str(m) for m in line["moves"]], int(line.get("game_seed", 0)))
        except MoveError as exc:  # say which game of which file does not replay
            raise MoveError(f"game {line['game']} of {record} does not replay: {exc.message}") from None
        note = _check_against_record(state, line, record)
        start_seed = int(line.get("game_seed", 0))
    if as_player is not None:
        _print_observations(state, as_player, start_seed)
    elif as_json:
        click.echo(json.dumps(state.to_json()))
    else:
        from .runtime.view import render_text

        click.echo(render_text(state, color=True))
    if note:
        click.echo(note, err=True)


@cli.command()
@spec_argument
@moves_option
@variant_option
@player_count_option
@engine_option("interpreted")
@seed_option  # (the game's seed: it shuffles the decks of a spec with a deck)
@click.pass_context
def moves(ctx: click.Context, spec: str, moves: str, variant: Optional[str], player_count: Optional[int], engine: str, seed: int) -> None:
    """Print the legal moves after a sequence of moves, in notation, on one line.

    Where a roll is due the legal moves are the roll's outcomes (e.g. roll:A-4-blank)."""
    state = _play(ctx, spec, variant, engine, moves, seed=seed, count=player_count)
    click.echo(" ".join(m.text for m in state.legal_moves()))
    if state.is_terminal():
        click.echo("(the game is over: no legal moves)", err=True)


@cli.command()
@spec_argument
@moves_option
@variant_option
@player_count_option
@engine_option("interpreted")
@click.option("--svg", type=click.Path(dir_okay=False, allow_dash=True), default=None, metavar="FILE", help="Also write an SVG picture of the board to FILE ('-': to stdout, instead of the text).")
@click.option("--color/--no-color", default=None, help="Colour the text board (default: when stdout is a terminal).")
@seed_option  # (the game's seed: it shuffles the decks of a spec with a deck)
@click.pass_context
def show(ctx: click.Context, spec: str, moves: str, variant: Optional[str], player_count: Optional[int], engine: str, svg: Optional[str], color: Optional[bool], seed: int) -> None:
    """Draw the board after a sequence of moves (text on the terminal, or SVG)."""
    from .runtime.view import render_svg, render_text

    state = _play(ctx, spec, variant, engine, moves, seed=seed, count=player_count)
    picture = None
    if svg is not None:
        try:
            picture = render_svg(state)
        except ValueError as exc:
            raise MidgardcError(f"cannot draw an SVG: {exc}") from None
    if svg == "-":
        click.echo(picture)
        return
    if svg is not None and picture is not None:
        write_atomic(svg, picture + "\n", "the picture")
        click.echo(f"wrote {svg}", err=True)
    click.echo(render_text(state, color=True), color=color)


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
    from .render.report import report_text, write_report

    groups = write_report(record, lambda ir: _open_game(ctx, ir, engine), html_out, spec, max_replays)
    click.echo(report_text(groups))
    if html_out:
        click.echo(f"wrote {html_out}", err=True)


@cli.command()
@spec_argument
@click.option("--depth", "-d", type=click.IntRange(min=1), required=True, help="Count move sequences of every length 1..N.")
@variant_option
@player_count_option
@engine_option("interpreted")
@click.pass_context
def perft(ctx: click.Context, spec: str, depth: int, variant: Optional[str], player_count: Optional[int], engine: str) -> None:
    """Count legal move sequences, one line "depth count" per depth 1..N.

    A game that ends before the depth counts once, as a leaf where it ended. A roll's
    outcomes count as moves, one branch each (not weighted by probability). Both engines
    must give the same counts; a difference is a bug in one of them.
    """
    from .runtime.game import perft as count

    game = _open_game(ctx, _load_ir(spec, variant, player_count), engine)
    native = getattr(game.engine, "perft", None)
    for d in range(1, depth + 1):
        n = native(d) if native is not None else count(game.new_state(0), d)
        click.echo(f"{d} {n}")


# -- playthrough -------------------------------------------------------------------------------

GOLDEN_DIR = os.path.join("tests", "playthroughs")


@cli.command()
@click.argument("spec", required=False, type=click.Path(dir_okay=False))
@variant_option
@player_count_option
@seed_option
@engine_option("interpreted")
@click.option("--out", "-o", type=click.Path(dir_okay=False, writable=True), default=None, metavar="FILE", help="Write the playthrough to FILE instead of stdout.")
@click.option("--full-steps", type=click.IntRange(min=0), default=20, show_default=True, metavar="N", help="Write the first N steps in full.")
@click.option("--every", type=click.IntRange(min=1), default=10, show_default=True, metavar="K", help="After those, write every K-th step in full and the others in one line each (--every 1: all in full).")
@click.option("--all", "every_spec", is_flag=True, help="Every spec under specs/, each variant and player count: compare with the golden files (exit 1 on a difference).")
@click.option("--update", is_flag=True, help="With --all: rewrite the golden files (and remove those of specs that are gone); review the diff.")
@click.option("--dir", "golden_dir", type=click.Path(file_okay=False), default=GOLDEN_DIR, show_default=True, metavar="DIR", help="Where the golden files live (with --all).")
@click.pass_context
def playthrough(
    ctx: click.Context,
    spec: Optional[str],
    variant: Optional[str],
    player_count: Optional[int],
    seed: int,
    engine: str,
    out: Optional[str],
    full_steps: int,
    every: int,
    every_spec: bool,
    update: bool,
    golden_dir: str,
) -> None:
    """Write one random game step by step: boards, legal moves, observations, moves, result.

    The game is the back end's own random playout from --seed, so both engines must write
    exactly the same text. With --all the golden files under tests/playthroughs/ (one per
    spec, variant and player count, seed 0) are checked, or rewritten with --update.
    """
    from .runtime.playthrough import DEFAULT_DETAIL, Detail, playthrough as write_playthrough

    # the golden settings (a long game writes fewer steps in full) unless the detail is given
    chosen = any(ctx.get_parameter_source(n) == click.core.ParameterSource.COMMANDLINE for n in ("full_steps", "every"))
    detail = Detail(full_steps, every) if chosen else DEFAULT_DETAIL
    if not every_spec:
        if spec is None:
            raise MidgardcError("name a SPEC, or use --all for every spec under specs/")
        if update or ctx.get_parameter_source("golden_dir") == click.core.ParameterSource.COMMANDLINE:
            raise MidgardcError(f"{'--update' if update else '--dir'} goes with --all (for one spec, use --out FILE)")
        game = _open_game(ctx, _load_ir(spec, variant, player_count), engine)
        text = write_playthrough(game, seed, detail=detail)
        if out is None:
            click.echo(text, nl=False)
        else:
            write_atomic(out, text, "the playthrough")
            click.echo(f"wrote {out}", err=True)
        return
    fixed = [name for name in ("spec", "variant", "player_count", "seed", "out", "full_steps", "every") if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE]
    if fixed:
        given = ", ".join("SPEC" if n == "spec" else "--" + n.replace("_", "-") for n in fixed)
        raise MidgardcError(f"--all uses the golden settings (every spec, seed 0, the default detail); drop {given}")
    _golden_playthroughs(ctx, engine, golden_dir, update)


def _golden_playthroughs(ctx: click.Context, engine: str, golden_dir: str, update: bool) -> None:
    from .runtime.playthrough import GOLDEN_SEED, first_difference, golden_files, golden_targets, playthrough as write_playthrough

    if not os.path.isdir("specs"):
        raise MidgardcError("no specs/ directory here", hint="run this in the project root")
    if not update and not os.path.isdir(golden_dir):
        raise MidgardcError(f"no golden playthroughs here: {golden_dir} is not a directory", hint="write them with --all --update")
    targets = golden_targets(_compiler().spec_files("specs"))
    wanted = {t.golden_name(): t for t in targets}
    stray = [name for name in golden_files(golden_dir) if name not in wanted] if os.path.isdir(golden_dir) else []
    problems: list[str] = []
    written = 0
    for name, target in wanted.items():
        path = os.path.join(golden_dir, name)
        game = _open_game(ctx, _load_ir(target.spec, target.variant, target.count), engine)
        text = write_playthrough(game, GOLDEN_SEED)
        old = _read_text(path)
        if old == text:
            continue
        if update:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            write_atomic(path, text, "the playthrough")
            click.echo(f"wrote {path}")
            written += 1
        else:
            problems.append(f"missing: {path} (create it: {target.command()} --out {path})" if old is None else f"differs: {path}, {first_difference(old, text)}")
    for name in stray:
        path = os.path.join(golden_dir, name)
        if update:
            os.unlink(path)
            click.echo(f"removed {path} (no spec, variant or player count makes it)")
        else:
            problems.append(f"stray: {path} (no spec, variant or player count makes it)")
    if update:
        click.echo(f"{len(wanted)} playthroughs ({engine}): {written} written, {len(wanted) - written} unchanged, {len(stray)} removed")
        return
    for line in problems:
        click.echo(line, err=True)
    click.echo(f"{len(wanted)} playthroughs ({engine}): {len(wanted) - len(problems) + len(stray)} match, {len(problems)} problem(s)")
    if problems:
        click.echo("after an intended rule change: midgardc playthrough --all --update (or make playthroughs), then review the diff", err=True)
        sys.exit(EXIT_USER)


# -- bench ----------------------------------------------------------------------------------


@cli.command()
@click.argument("specs", nargs=-1, type=click.Path(dir_okay=False), metavar="[SPEC]...")
@click.option(
    "--playouts",
    "-n",
    type=click.IntRange(min=1),
    default=None,
    help="Random games for the compiled engine (default 10000). The interpreter plays N/100 of them "
    "(at least 20) when both engines run, or N (default 100) when it runs alone.",
)
@engine_option("compiled", "'both' also measures the interpreter and prints the speed ratio.", choices=("compiled", "interpreted", "both"))
@seed_option
@variant_option
@click.option("--all", "every_spec", is_flag=True, help="Every spec under specs/ (recursively) with all its variants; the same as naming no SPEC.")
@click.option("--all-variants", is_flag=True, help="Measure every variant of each named SPEC too.")
@player_count_option
@click.option(
    "--runs",
    "-r",
    type=click.IntRange(min=1, max=99),
    default=1,
    show_default=True,
    help="Measure each engine this many times (seeds S, S+1, ...) and report the median run by playouts/s.",
)
@json_option
@click.pass_context
def bench(
    ctx: click.Context,
    specs: tuple[str, ...],
    playouts: Optional[int],
    engine: str,
    seed: int,
    variant: Optional[str],
    every_spec: bool,
    all_variants: bool,
    player_count: Optional[int],
    runs: int,
    as_json: bool,
) -> None:
    """Measure random playouts per second (and plies per second) of each engine.

    With one SPEC: a table for that game. With no SPEC (or --all): one table over every
    spec under specs/ and each of its variants, in the same run.
    """
    if every_spec or not specs:
        if not os.path.isdir("specs"):
            raise MidgardcError("no SPEC given and no specs/ directory here", hint="run this in the project root, or name the specs")
        specs = tuple(_compiler().spec_files("specs")) if not specs or every_spec else specs
        all_variants = True
    targets: list[tuple[str, Optional[str], Optional[int]]] = []
    for spec in specs:
        if all_variants:
            targets += [(spec, v, player_count) for v in [None, *_variants(spec)]]
        else:
            targets.append((spec, variant, player_count))
    results = [_bench_one(ctx, spec, v, playouts, engine, seed, runs, n) for spec, v, n in targets]
    if len(results) == 1:
        _print_bench_one(results[0], as_json)
        return
    if as_json:
        click.echo(json.dumps({"seed": seed, "runs": runs, "results": results}, indent=2))
        return
    _print_bench_table(results, seed, runs)


def _bench_one(ctx: click.Context, spec: str, variant: Optional[str], playouts: Optional[int], engine: str, seed: int, runs: int, count: Optional[int] = None) -> dict:
    ir = _load_ir(spec, variant, count)
    rows: dict[str, dict] = {}
    if engine in ("compiled", "both"):
        game = _open_game(ctx, ir, "compiled")  # may fall back when only the default
        if game.engine_name == "compiled":
            rows["compiled"] = _median_run(game, playouts or 10_000, seed, runs)
    if engine != "compiled" or not rows:
        if engine == "interpreted":
            n = playouts or 100
        else:
            n = min(playouts or 10_000, max(20, (playouts or 10_000) // 100))
        rows["interpreted"] = _median_run(game_from_ir(ir, "interpreted"), n, seed, runs)
    ratio = None
    if "compiled" in rows and "interpreted" in rows and rows["interpreted"]["playouts_per_s"]:
        ratio = round(rows["compiled"]["playouts_per_s"] / rows["interpreted"]["playouts_per_s"], 1)
    title = ir.title + (f" [{ir.variant}]" if ir.variant else "") + (f" ({ir.n_players} players)" if ir.player_counts else "")
    return {"spec": spec, "variant": variant, "title": title, "seed": seed, "engines": rows, "ratio": ratio}


def _median_run(game: Game, n: int, seed: int, runs: int) -> dict:
    measured = sorted((_measure(game, n, seed + k) for k in range(runs)), key=lambda r: r["playouts_per_s"])
    return measured[len(measured) // 2]


def _print_bench_one(result: dict, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps({k: result[k] for k in ("spec", "variant", "seed", "engines", "ratio")}, indent=2))
        return
    rows = result["engines"]
    click.echo(f"{result['title']}: random playouts, seed {result['seed']}")
    header = ["engine", "playouts", "seconds", "playouts/s", "plies/s", "mean plies"]
    table = [header] + [
        [name, str(r["playouts"]), f"{r['seconds']:.3f}", f"{r['playouts_per_s']:.1f}", f"{r['plies_per_s']:.0f}", f"{r['mean_plies']:.1f}"] for name, r in rows.items()
    ]
    _echo_table(table)
    if result["ratio"] is not None:
        click.echo(f"compiled/interpreted: {result['ratio']}x playouts per second")


def _print_bench_table(results: list[dict], seed: int, runs: int) -> None:
    click.echo(f"random playouts, seed {seed}" + (f", median of {runs} runs" if runs > 1 else ""))
    header = ["spec", "variant", "engine", "playouts", "playouts/s", "plies/s", "mean plies", "compiled/interpreted"]
    table = [header]
    for r in results:
        for name, row in r["engines"].items():
            ratio = f"{r['ratio']:,.1f}x" if r["ratio"] is not None and name == "compiled" else ""
            table.append([os.path.relpath(r["spec"]), r["variant"] or "-", name, str(row["playouts"]), f"{row['playouts_per_s']:,.1f}", f"{row['plies_per_s']:,.0f}", f"{row['mean_plies']:.1f}", ratio])
    _echo_table(table, left=3)


def _echo_table(table: list[list[str]], left: int = 1) -> None:
    """Columns padded to their widest cell; the first ``left`` columns flush left."""
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for row in table:
        click.echo("  ".join(c.ljust(w) if i < left else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))).rstrip())


def _measure(game: Game, n: int, seed: int) -> dict:
    started = time.perf_counter()
    stats = game.engine.playouts(n, seed)
    seconds = max(time.perf_counter() - started, 1e-9)
    return {
        "playouts": stats["games"],
        "seconds": round(seconds, 4),
        "playouts_per_s": round(stats["games"] / seconds, 2),
        "plies_per_s": round(stats["plies"] / seconds, 1),
        "mean_plies": round(stats["plies"] / max(stats["games"], 1), 3),
        "wins": stats["wins"],
        "draws": stats["draws"],
    }


if __name__ == "__main__":  # pragma: no cover
    main()
