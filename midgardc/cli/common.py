"""Helpers every command shares: loading a spec, opening a game on the asked-for back end."""

from __future__ import annotations

import contextlib
import signal
from typing import Any, Iterator, Optional

import click

from ..errors import BuildError, MidgardcError
from ..ir.nodes import GameIR
from ..runtime.game import Game, State, replay
from ..engines import game_from_ir

COMPILED_MODULE = "midgardc.runtime.compiled"


# -- helpers ---------------------------------------------------------------------------


def _label(spec: str, variant: Optional[str], count: Optional[int] = None) -> str:
    return (f"{spec} [{variant}]" if variant else spec) + (f" ({count} players)" if count else "")


def _load_ir(spec: str, variant: Optional[str], count: Optional[int] = None) -> GameIR:
    """The spec's IR (from the IR cache when the spec and the front end are unchanged)."""
    from ..spec.ircache import load_ir

    return load_ir(spec, variant, count)


def _counts(spec: str, variant: Optional[str]) -> list[Optional[int]]:
    """Every player count a spec (variant) declares, or [None] when it declares none."""
    from ..spec.lower import list_player_counts

    return list(list_player_counts(spec, variant)) or [None]


def _variants(spec: str) -> list[str]:
    from ..spec.lower import list_variants

    return list_variants(spec)


def _engine_explicit(ctx: click.Context) -> bool:
    source = ctx.get_parameter_source("engine")
    return source is not None and source != click.core.ParameterSource.DEFAULT


def _open_game(ctx: click.Context, ir: GameIR, engine: str, position: Optional[str] = None) -> Game:
    """The game on the chosen back end, starting at ``position`` (the spec's notation) if
    given; an unavailable compiled engine that was only the default gives way to the
    interpreter (with a note on stderr)."""
    if position is not None:
        from ..ir.position import read_position

        read_position(ir, position)  # a bad text is refused before any engine is built
    game = _open_engine(ctx, ir, engine)
    game.start_from(position)
    return game


def _open_compiled(ir: GameIR) -> Game:
    """The compiled game; a build (a miss in the cache) is announced on stderr first."""
    from ..progress import building

    try:
        from ..compiler.build import is_cached
    except ImportError:  # no compiler here: game_from_ir says so, as it always has
        return game_from_ir(ir, "compiled")
    if is_cached(ir):
        return game_from_ir(ir, "compiled")
    what = f"the compiled engine of {ir.name}" + (f" [{ir.variant}]" if ir.variant else "") + (f" ({ir.n_players} players)" if ir.player_counts else "")
    with building(what):
        return game_from_ir(ir, "compiled")


def _open_engine(ctx: click.Context, ir: GameIR, engine: str) -> Game:
    if engine != "compiled":
        return game_from_ir(ir, engine)
    try:
        return _open_compiled(ir)
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


def _play(ctx: click.Context, spec: str, variant: Optional[str], engine: str, moves: str, seed: int = 0, count: Optional[int] = None, position: Optional[str] = None) -> State:
    game = _open_game(ctx, _load_ir(spec, variant, count), engine, position)
    return replay(game, game.parse_moves(moves), seed)


def _compiler() -> Any:
    try:
        from ..compiler import build
    except ModuleNotFoundError as exc:
        if exc.name not in ("midgardc.compiler.build", "midgardc.compiler"):
            raise
        raise MidgardcError("the compiler is not part of this installation") from None
    return build


def _read_text(path: str) -> Optional[str]:
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            return fh.read()
    except FileNotFoundError:
        return None


@contextlib.contextmanager
def sigterm_as_ctrl_c() -> Iterator[None]:
    """'kill PID' (SIGTERM) stops the work inside as Ctrl-C does: a match or tournament
    keeps its finished games in --record and leaves no temporary file behind."""
    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread (an embedding program): leave SIGTERM alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
