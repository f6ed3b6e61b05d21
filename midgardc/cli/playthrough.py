"""playthrough: one random game step by step, and the golden files built from them."""

from __future__ import annotations

import os
import sys
from typing import Optional

import click

from ..cli_errors import EXIT_USER
from ..cli_options import (
    engine_option,
    player_count_option,
    seed_option,
    variant_option,
)
from ..errors import MidgardcError
from ..fileio import write_atomic
from ..ir.nodes import GameIR
from ..progress import progress, progress_option
from .common import _compiler, _load_ir, _open_game, _read_text
from .group import cli


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
@progress_option
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
    show_progress: Optional[bool],
) -> None:
    """Write one random game step by step: boards, legal moves, observations, moves, result.

    The game is the back end's own random playout from --seed, so both engines must write
    exactly the same text. With --all the golden files under tests/playthroughs/ (one per
    spec, variant and player count, seed 0) are checked, or rewritten with --update.
    What it is playing, and (on a terminal) the steps played so far, go to stderr.
    """
    from ..runtime.playthrough import DEFAULT_DETAIL, Detail, playthrough as write_playthrough

    # the golden settings (a long game writes fewer steps in full) unless the detail is given
    chosen = any(ctx.get_parameter_source(n) == click.core.ParameterSource.COMMANDLINE for n in ("full_steps", "every"))
    detail = Detail(full_steps, every) if chosen else DEFAULT_DETAIL
    if not every_spec:
        if spec is None:
            raise MidgardcError("name a SPEC, or use --all for every spec under specs/")
        if update or ctx.get_parameter_source("golden_dir") == click.core.ParameterSource.COMMANDLINE:
            raise MidgardcError(f"{'--update' if update else '--dir'} goes with --all (for one spec, use --out FILE)")
        ir = _load_ir(spec, variant, player_count)
        game = _open_game(ctx, ir, engine)
        click.echo(f"playthrough: {_what(spec, ir)}, seed {seed}, on the {game.engine_name} engine", err=True)
        with progress(None, show_progress, unit="step", desc="playing") as tick:
            text = write_playthrough(game, seed, detail=detail, on_step=tick)
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
    _golden_playthroughs(ctx, engine, golden_dir, update, show_progress)


def _what(spec: str, ir: GameIR) -> str:
    """``SPEC [variant] (N players)``: the game a playthrough plays."""
    return spec + (f" [{ir.variant}]" if ir.variant else "") + (f" ({ir.n_players} players)" if ir.player_counts else "")


def _golden_playthroughs(ctx: click.Context, engine: str, golden_dir: str, update: bool, show_progress: Optional[bool] = None) -> None:
    from ..runtime.playthrough import GOLDEN_SEED, first_difference, golden_files, golden_targets, playthrough as write_playthrough

    if not os.path.isdir("specs"):
        raise MidgardcError("no specs/ directory here", hint="run this in the project root")
    if not update and not os.path.isdir(golden_dir):
        raise MidgardcError(f"no golden playthroughs here: {golden_dir} is not a directory", hint="write them with --all --update")
    targets = golden_targets(_compiler().spec_files("specs"))
    wanted = {t.golden_name(): t for t in targets}
    stray = [name for name in golden_files(golden_dir) if name not in wanted] if os.path.isdir(golden_dir) else []
    problems: list[str] = []
    written = 0
    for k, (name, target) in enumerate(wanted.items()):
        path = os.path.join(golden_dir, name)
        game = _open_game(ctx, _load_ir(target.spec, target.variant, target.count), engine)
        click.echo(f"[{k + 1}/{len(wanted)}] {name} ({game.engine_name})", err=True)
        with progress(None, show_progress, unit="step", desc="playing") as tick:
            text = write_playthrough(game, GOLDEN_SEED, on_step=tick)
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
