"""watch: the designer's loop, a match played again every time its spec is saved."""

from __future__ import annotations

import os
from typing import Optional

import click

from ..cli_options import PlayersType, engine_option, seed_option, spec_argument, variant_option
from ..errors import MidgardcError
from ..players import PlayerSpec, kinds_help
from ..progress import progress, progress_option
from .group import cli


@cli.command()
@spec_argument
@click.option("--players", "-p", "players", required=True, type=PlayersType(), metavar="P1,P2,...", help=f"One player per seat, comma-separated: {kinds_help()}. Their number picks the player count.")
@click.option("--games", "-n", type=click.IntRange(min=1), default=100, show_default=True, help="Games per run.")
@variant_option
@seed_option
@engine_option("compiled", "Games play on the interpreter while the compiled engine of the edited rules builds, then on it (the same games).")
@progress_option
def watch(spec: str, players: list[PlayerSpec], games: int, variant: Optional[str], seed: int, engine: str, show_progress: Optional[bool]) -> None:
    """Play a match, then again every time SPEC (or a file it extends) is saved, and show
    each run's results beside the previous run's: win rates with 95% intervals, per player
    and per seat, draws, games stopped at the ply limit, mean plies, and the change. The
    same seed every run: the games differ only by what the edit changed. A bad edit prints
    the error with its position and the watch waits for the next save. Ctrl-C stops."""
    from ..matches.watch import Watcher

    if not os.path.isfile(spec):  # a later save can mend a spec, not bring a mistyped path into being
        raise MidgardcError(f"no such spec file: {spec}")
    watcher = Watcher(spec, players, games, variant, seed, engine, say=click.echo, progress=lambda total: progress(total, show_progress))
    try:
        watcher.loop()
    except KeyboardInterrupt:
        click.echo("\nstopped watching")
