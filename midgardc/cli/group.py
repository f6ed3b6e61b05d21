"""The ``midgardc`` command group; each command lives in the module of its concern."""

from __future__ import annotations

import click

from .. import __version__
from ..cli_errors import MidgardcGroup


@click.group(cls=MidgardcGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="midgardc")
def cli() -> None:
    """Compile tabletop-game rules written in YAML into engines, and play with them."""
    from ..fileio import forget_inputs

    forget_inputs()  # an output may not replace an input of this command (fileio.check_output)


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="midgardc")
