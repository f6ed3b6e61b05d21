"""play: a person at the terminal against bots (or other people, hot seat)."""

from __future__ import annotations

import sys
from typing import Optional

import click

from ..cli_options import engine_option, player_count_option, position_option, seed_option, spec_argument, variant_option
from .common import _load_ir
from .group import cli
from .humanplay import SeatsType, seats_help


# -- play ------------------------------------------------------------------------------------


@cli.command()
@spec_argument
@click.option("--players", "-p", "seats", required=True, type=SeatsType(), metavar="P1,P2,...", help=f"One player per seat, comma-separated: {seats_help()}. Their number picks the player count.")
@variant_option
@player_count_option
@seed_option
@engine_option("compiled", "The game starts at once on the interpreter and goes on on the compiled engine when it is built (same moves); if it cannot be built, a note says so and the interpreter plays on.")
@click.option("--record", "-r", type=click.Path(dir_okay=False, writable=True), default=None, metavar="FILE.jsonl", help="Write the game as the JSON line 'match --record' writes ('replay --record' checks it).")
@click.option("--delay", type=click.FloatRange(min=0), default=0.5, show_default=True, metavar="SECONDS", help="Pause after each bot move.")
@click.option("--color/--no-color", default=None, help="Colour the board (default: when stdout is a terminal).")
@position_option
@click.pass_context
def play(ctx: click.Context, spec: str, seats: list, variant: Optional[str], player_count: Optional[int], seed: int, engine: str, record: Optional[str], delay: float, color: Optional[bool], position: Optional[str]) -> None:
    """Play a game yourself: each human seat sees its board and legal moves and types a move
    (its text, a unique prefix or its number), or undo, hint, help, quit. Bots and rolls
    play themselves."""
    from ..spec.lower import list_player_counts
    from .humanplay import open_session_game, play_session

    counts = list_player_counts(spec, variant)
    if player_count is not None and player_count != len(seats):
        raise click.BadParameter(f"--player-count {player_count} but {len(seats)} players were given", param_hint="'--players'")
    if counts and len(seats) not in counts:
        raise click.BadParameter(f"{len(seats)} players were given; {spec} is played by {', '.join(str(c) for c in counts)} players", param_hint="'--players'")
    game, pending = open_session_game(_load_ir(spec, variant, len(seats) if counts else None), engine, position)
    play_session(game, spec, seats, seed=seed, record=record, delay=delay, color=sys.stdout.isatty() if color is None else color, pending=pending)
