"""bench: random playouts per second of each engine, and their ratio; with --batch, steps per
second of batches of games (``midgardc.batch``) beside the plain playout ply rate."""

from __future__ import annotations

import json
import os
import time
from typing import Optional

import click

from ..cli_options import (
    engine_option,
    json_option,
    player_count_option,
    seed_option,
    variant_option,
)
from ..errors import MidgardcError
from ..progress import progress, progress_option
from ..runtime.game import Game
from ..runtime.sampling import SAMPLINGS
from ..engines import game_from_ir
from .common import _compiler, _load_ir, _open_game, _variants
from .group import cli


# -- bench ----------------------------------------------------------------------------------

#: The interpreter's share of a bench run, at most (seconds per run; the game running at
#: the bound is finished): a slow game on the interpreter would otherwise run for minutes.
DEFAULT_INTERPRETER_SECONDS = 30.0


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
@click.option(
    "--batch",
    "batch_sizes",
    type=click.IntRange(min=1),
    multiple=True,
    metavar="B",
    help="Measure batches instead (midgardc.batch, compiled engine): B games stepped at once with random "
    "legal actions drawn in C, every step writing the observation tensor and the legal-action mask; "
    "steps/s beside the random-playout plies/s. Repeat for several sizes (--batch 1 --batch 64 --batch 1024).",
)
@click.option(
    "--sampling",
    type=click.Choice(SAMPLINGS),
    default="whole",
    show_default=True,
    help="How a random game draws a move of two steps (then:): 'whole', uniformly among the whole legal moves; "
    "'steps', a first step uniformly, then one of its second steps (docs/spec-language.md, *Random play.*). "
    "The same in both engines; without then: both draw the same moves.",
)
@click.option("--steps", type=click.IntRange(min=1), default=200_000, show_default=True, help="With --batch: game steps per batch size (at least 20 calls).")
@click.option(
    "--interpreter-seconds",
    type=click.FloatRange(min=0),
    default=DEFAULT_INTERPRETER_SECONDS,
    show_default=True,
    metavar="S",
    help="Stop each interpreter run after the game that passes S seconds and report its rate from the games it finished (0: no bound).",
)
@progress_option
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
    batch_sizes: tuple[int, ...],
    steps: int,
    interpreter_seconds: float,
    sampling: str,
    show_progress: Optional[bool],
    as_json: bool,
) -> None:
    """Measure random playouts per second (and plies per second) of each engine.

    With one SPEC: a table for that game. With no SPEC (or --all): one table over every
    spec under specs/ and each of its variants, in the same run. The interpreter's runs
    are bounded by --interpreter-seconds (a slow game's rate then comes from fewer games,
    as the output says) and show a progress bar on a terminal.
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
    if batch_sizes:
        if sampling != "whole":
            raise MidgardcError("--sampling steps measures random playouts; batches draw whole moves", hint="leave out --batch, or --sampling")
        _bench_batches(ctx, targets, list(batch_sizes), playouts or 10_000, steps, seed, runs, as_json)
        return
    results = []
    for k, (spec, v, n) in enumerate(targets):
        if len(targets) > 1:
            click.echo(f"[{k + 1}/{len(targets)}] {spec}" + (f" [{v}]" if v else ""), err=True)
        results.append(_bench_one(ctx, spec, v, playouts, engine, seed, runs, n, interpreter_seconds or None, show_progress, sampling))
    if len(results) == 1:
        _print_bench_one(results[0], as_json)
        return
    if as_json:
        click.echo(json.dumps({"seed": seed, "runs": runs, "sampling": sampling, "results": results}, indent=2))
        return
    _print_bench_table(results, seed, runs, sampling)


def _bench_one(
    ctx: click.Context,
    spec: str,
    variant: Optional[str],
    playouts: Optional[int],
    engine: str,
    seed: int,
    runs: int,
    count: Optional[int] = None,
    limit: Optional[float] = DEFAULT_INTERPRETER_SECONDS,
    show_progress: Optional[bool] = None,
    sampling: str = "whole",
) -> dict:
    ir = _load_ir(spec, variant, count)
    rows: dict[str, dict] = {}
    if engine in ("compiled", "both"):
        game = _open_game(ctx, ir, "compiled")  # may fall back when only the default
        if game.engine_name == "compiled":
            rows["compiled"] = _median_run(game, playouts or 10_000, seed, runs, sampling=sampling)
    if engine != "compiled" or not rows:
        if engine == "interpreted":
            n = playouts or 100
        else:
            n = min(playouts or 10_000, max(20, (playouts or 10_000) // 100))
        rows["interpreted"] = _median_run(game_from_ir(ir, "interpreted"), n, seed, runs, limit, show_progress, sampling)
    ratio = None
    if "compiled" in rows and "interpreted" in rows and rows["interpreted"]["playouts_per_s"]:
        ratio = round(rows["compiled"]["playouts_per_s"] / rows["interpreted"]["playouts_per_s"], 1)
    title = ir.title + (f" [{ir.variant}]" if ir.variant else "") + (f" ({ir.n_players} players)" if ir.player_counts else "")
    return {"spec": spec, "variant": variant, "title": title, "seed": seed, "sampling": sampling, "engines": rows, "ratio": ratio}


def _bench_batches(ctx: click.Context, targets: list, sizes: list[int], playouts: int, steps: int, seed: int, runs: int, as_json: bool) -> None:
    """Batch steps/s per size and the playout ply rate, each the median of ``runs`` runs
    (seeds S, S+1, ...; each run measures the playouts, then every size)."""
    from ..batch import bench as batch_bench

    out = []
    for spec, variant, count in targets:
        ir = _load_ir(spec, variant, count)
        game = _open_game(ctx, ir, "compiled")
        if game.engine_name != "compiled":
            raise MidgardcError(f"{spec}: batches need the compiled engine, which is not available here")
        measured = [batch_bench(game, sizes, seed + k, steps, playouts) for k in range(runs)]
        plies = sorted(m["playout_plies_per_s"] for m in measured)[runs // 2]
        rows = []
        for i, n in enumerate(sizes):
            row = sorted((m["batches"][i] for m in measured), key=lambda r: r["steps_per_s"])[runs // 2]
            rows.append(dict(row, vs_playout_plies=round(row["steps_per_s"] / plies, 3)))
        title = ir.title + (f" [{ir.variant}]" if ir.variant else "") + (f" ({ir.n_players} players)" if ir.player_counts else "")
        first = measured[0]
        out.append({"spec": spec, "variant": variant, "title": title, "tensor_size": first["tensor_size"], "actions": first["actions"], "playouts": first["playouts"], "playout_plies_per_s": plies, "batches": rows})
    if as_json:
        click.echo(json.dumps({"seed": seed, "runs": runs, "steps": steps, "results": out}, indent=2))
        return
    for r in out:
        click.echo(f"{r['title']}: batches of random games, seed {seed}" + (f", median of {runs} runs" if runs > 1 else ""))
        click.echo(f"observation tensor {r['tensor_size']} floats, {r['actions']} actions; random playouts: {r['playout_plies_per_s']:,.0f} plies/s ({r['playouts']} games)")
        table = [["batch", "steps", "seconds", "steps/s", "vs playout plies/s"]]
        table += [[str(b["batch"]), str(b["steps"]), f"{b['seconds']:.3f}", f"{b['steps_per_s']:,.0f}", f"{b['vs_playout_plies']:.3f}"] for b in r["batches"]]
        _echo_table(table)


def _median_run(game: Game, n: int, seed: int, runs: int, limit: Optional[float] = None, show_progress: Optional[bool] = None, sampling: str = "whole") -> dict:
    measured = sorted((_measure(game, n, seed + k, limit, show_progress, sampling) for k in range(runs)), key=lambda r: r["playouts_per_s"])
    return measured[len(measured) // 2]


def _print_bench_one(result: dict, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps({k: result[k] for k in ("spec", "variant", "seed", "sampling", "engines", "ratio")}, indent=2))
        return
    rows = result["engines"]
    click.echo(f"{result['title']}: random playouts, seed {result['seed']}" + (f", sampling {result['sampling']}" if result["sampling"] != "whole" else ""))
    header = ["engine", "playouts", "seconds", "playouts/s", "plies/s", "mean plies"]
    table = [header] + [
        [name, str(r["playouts"]), f"{r['seconds']:.3f}", f"{r['playouts_per_s']:.1f}", f"{r['plies_per_s']:.0f}", f"{r['mean_plies']:.1f}"] for name, r in rows.items()
    ]
    _echo_table(table)
    if result["ratio"] is not None:
        click.echo(f"compiled/interpreted: {result['ratio']}x playouts per second")
    _echo_time_limits([result])


def _print_bench_table(results: list[dict], seed: int, runs: int, sampling: str = "whole") -> None:
    click.echo(f"random playouts, seed {seed}" + (f", median of {runs} runs" if runs > 1 else "") + (f", sampling {sampling}" if sampling != "whole" else ""))
    header = ["spec", "variant", "engine", "playouts", "playouts/s", "plies/s", "mean plies", "compiled/interpreted"]
    table = [header]
    for r in results:
        for name, row in r["engines"].items():
            ratio = f"{r['ratio']:,.1f}x" if r["ratio"] is not None and name == "compiled" else ""
            table.append([os.path.relpath(r["spec"]), r["variant"] or "-", name, str(row["playouts"]), f"{row['playouts_per_s']:,.1f}", f"{row['plies_per_s']:,.0f}", f"{row['mean_plies']:.1f}", ratio])
    _echo_table(table, left=3)
    _echo_time_limits(results)


def _echo_time_limits(results: list[dict]) -> None:
    """A line for each interpreter run that the time bound stopped early."""
    for r in results:
        row = r["engines"].get("interpreted")
        if row and row.get("time_limited"):
            label = os.path.relpath(r["spec"]) + (f" [{r['variant']}]" if r["variant"] else "")
            click.echo(
                f"note: {label}: the interpreter stopped at the time bound after {row['playouts']} of {row['asked']} playouts "
                f"({row['seconds']:.1f}s); its rate is from the playouts it finished (--interpreter-seconds)"
            )


def _echo_table(table: list[list[str]], left: int = 1) -> None:
    """Columns padded to their widest cell; the first ``left`` columns flush left."""
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for row in table:
        click.echo("  ".join(c.ljust(w) if i < left else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))).rstrip())


def _measure(game: Game, n: int, seed: int, limit: Optional[float] = None, show_progress: Optional[bool] = None, sampling: str = "whole") -> dict:
    """One run of ``n`` playouts (``sampling``: runtime/sampling.py). The interpreter's run shows a progress bar (on a terminal,
    or as asked) and, with a ``limit``, stops after the game that passes ``limit`` seconds."""
    started = time.perf_counter()
    if game.engine_name == "interpreted":
        with progress(n, show_progress, unit="playout") as tick:

            def stop(_games: int) -> bool:
                tick()
                return limit is not None and time.perf_counter() - started >= limit

            stats = game.engine.playouts(n, seed, stop=stop, sampling=sampling)
    else:
        stats = game.engine.playouts(n, seed, sampling=sampling)
    seconds = max(time.perf_counter() - started, 1e-9)
    return {
        "playouts": stats["games"],
        "asked": n,
        "time_limited": stats["games"] < n,
        "seconds": round(seconds, 4),
        "playouts_per_s": round(stats["games"] / seconds, 2),
        "plies_per_s": round(stats["plies"] / seconds, 1),
        "mean_plies": round(stats["plies"] / max(stats["games"], 1), 3),
        "wins": stats["wins"],
        "draws": stats["draws"],
        "shared": stats["shared"],
        "ply_limited": stats["ply_limited"],
    }
