"""validate, build and generate: from a spec to checked, generated and compiled engines."""

from __future__ import annotations

import os
import sys
import time
from typing import Any, Optional

import click

from ..cli_errors import EXIT_USER
from ..cli_options import (
    player_count_option,
    specs_argument,
    variant_option,
)
from ..errors import MidgardcError
from .common import _compiler, _counts, _label, _load_ir, _read_text, _variants
from .group import cli


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
    from ..spec.lower import load_game_ir

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
                    load_game_ir(spec, target, count)  # the front end itself, never the IR cache
                except MidgardcError as exc:
                    tell(exc)
                    continue
                click.echo(f"{_label(spec, target, count if len(counts) > 1 or player_count else None)}: ok")
    if failed:
        sys.exit(EXIT_USER)


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
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, help="Engines built at once, each in its own process (default: the number of cores).")
def build(specs: tuple[str, ...], variant: Optional[str], all_variants: bool, player_count: Optional[int], force: bool, jobs: Optional[int]) -> None:
    """Generate the Cython source under generated/ and compile the engine (cached by content).

    An engine is built per spec, variant and player count, --jobs at a time. A line on
    stderr says when each starts; its result line (on stdout) says how long it took,
    whether it was compiled or found in the cache, and how many are done."""
    if variant and all_variants:
        raise click.UsageError("--variant and --all-variants cannot be used together")
    _compiler()
    from ..compiler.parallel import Target, build_many, default_jobs

    failed = False
    targets: list[Target] = []
    for spec in specs:
        try:
            names = _targets(spec, variant, all_variants)
        except MidgardcError as exc:
            click.echo(str(exc), err=True)
            failed = True
            continue
        for target in names:
            try:
                counts = _counts(spec, target) if all_variants and not player_count else [player_count]
            except MidgardcError as exc:
                click.echo(str(exc), err=True)
                failed = True
                continue
            targets += [Target(spec, target, count) for count in counts]
    jobs = jobs or default_jobs()
    total = len(targets)
    if total > 1:
        click.echo(f"building {total} engines, {min(jobs, total)} at a time", err=True)
    started = time.perf_counter()

    def on_start(target: Target, i: int) -> None:
        click.echo(f"[started {i}/{total}] {target.label}", err=True)

    def on_finish(outcome: Any, k: int) -> None:
        if outcome.ok:
            how = "cached" if outcome.cached else "compiled"
            click.echo(f"{outcome.target.label}: ok ({outcome.source}, {outcome.seconds:.1f}s, {how}) [done {k}/{total}]")
        else:
            click.echo(outcome.error, err=True)
            click.echo(f"{outcome.target.label}: failed [done {k}/{total}]", err=True)

    def on_generic(seconds: Optional[float], error: Optional[str]) -> None:
        if seconds is None:
            click.echo("[started] the generic engine (once, for every game), beside the games' own modules", err=True)
        elif error is None:
            click.echo(f"the generic engine: ok ({seconds:.1f}s, compiled)", err=True)
        else:
            click.echo(error, err=True)

    outcomes = build_many(targets, jobs, force=force, write_source=True, on_start=on_start, on_finish=on_finish, on_generic=on_generic)
    bad = sum(not o.ok for o in outcomes)
    if total > 1:
        cached = sum(o.ok and o.cached for o in outcomes)
        click.echo(f"{total - bad} of {total} engines ready in {time.perf_counter() - started:.1f}s ({total - bad - cached} compiled, {cached} from the cache, {bad} failed)", err=True)
    if failed or bad:
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


