"""Options shared by several commands, defined once (pip-tools' scripts/options.py style)."""

from __future__ import annotations

from typing import Any, Optional

import click

from .errors import MidgardcError
from .players import PlayerSpec, parse_players

ENGINE_CHOICES = ("compiled", "interpreted")
MAX_SEED = (1 << 64) - 1


class PlayersType(click.ParamType):
    """``random,greedy,script:my.py`` -> PlayerSpecs, with the players module's messages."""

    name = "players"

    def convert(self, value: Any, param: Optional[click.Parameter], ctx: Optional[click.Context]) -> list[PlayerSpec]:
        if isinstance(value, list):
            return value
        try:
            return parse_players(value)
        except MidgardcError as exc:
            text = exc.message + (f" ({exc.hint})" if exc.hint else "")
            self.fail(text, param, ctx)


class SeedType(click.ParamType):
    """A 64-bit unsigned seed (the RNG's state size), without a 20-digit range in --help."""

    name = "seed"

    def convert(self, value: Any, param: Optional[click.Parameter], ctx: Optional[click.Context]) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            seed = value
        else:
            try:
                seed = int(str(value), 0)
            except ValueError:
                self.fail(f"{value!r} is not a whole number", param, ctx)
        if not 0 <= seed <= MAX_SEED:
            self.fail(f"{value} is not between 0 and 2**64-1", param, ctx)
        return seed


spec_argument = click.argument("spec", type=click.Path(dir_okay=False))
specs_argument = click.argument("specs", nargs=-1, required=True, type=click.Path(dir_okay=False), metavar="SPEC...")

variant_option = click.option("--variant", "-V", metavar="NAME", default=None, help="Play a variant declared in the spec.")
seed_option = click.option(
    "--seed", "-s", type=SeedType(), default=0, show_default=True, metavar="S", help="Seed: the same seed gives the same games on either engine."
)
moves_option = click.option("--moves", "-m", default="", metavar='"M1 M2 ..."', help="Moves in notation from the start, separated by spaces (or commas).")
position_option = click.option(
    "--position",
    "-P",
    "position",
    default=None,
    metavar="TEXT",
    help="Start from this position, written in the notation the spec declares (its 'position:' section) instead of the setup.",
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
player_count_option = click.option(
    "--player-count",
    "--players-count",
    "player_count",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Play the N-player game of a spec that supports several counts (default: the spec's default count).",
)


def engine_option(default: str, help_extra: str = "", choices: tuple[str, ...] = ENGINE_CHOICES) -> Any:
    return click.option(
        "--engine",
        "-e",
        type=click.Choice(choices),
        default=default,
        show_default=True,
        help="Back end: the compiled engine (fast; built and cached on first use) or the reference interpreter." + (f" {help_extra}" if help_extra else ""),
    )
