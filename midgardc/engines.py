"""Bring a game up on either back end: the engine loader.

This is the one module that knows both the interpreter (``midgardc.runtime``) and the
builder of compiled engines (``midgardc.compiler.build``). It sits a floor above the
runtime (docs/design.md, "Package map") so that the runtime never imports the compiler:
``runtime/compiled.py`` wraps a module that was built, and this loader builds it (or
finds it in the cache) and hands it over.
"""

from __future__ import annotations

from typing import Optional

from .ir.nodes import GameIR
from .runtime.compiled import CompiledEngine
from .runtime.game import ENGINES, Game
from .runtime.interpreter import InterpretedEngine
from .spec.ircache import load_ir

#: The back end ``load`` and ``game_from_ir`` bring up when none is named: the compiled
#: engine, as every speed-facing entry point (the research API, match, tournament, bench,
#: perft): code that loads a game mostly plays many games with it. The interpreter, the
#: reference, is there by name (``engine="interpreted"``), and the commands that look at
#: one position (moves, show, replay, playthrough) default to it, as they never wait for
#: a build.
DEFAULT_ENGINE = "compiled"


def load(spec_path: str, variant: Optional[str] = None, engine: str = DEFAULT_ENGINE, force_build: bool = False, n_players: Optional[int] = None) -> Game:
    """Load a spec (and variant, for ``n_players`` players: default the spec's default
    count) and bring up the chosen back end (default: compiled, built and cached on first
    use; ``engine="interpreted"`` for the reference). The IR of a spec loaded before comes
    from its cache (``spec/ircache.py``), without the front end."""
    ir = load_ir(spec_path, variant, n_players)
    return game_from_ir(ir, engine, force_build)


def game_from_ir(ir: GameIR, engine: str = DEFAULT_ENGINE, force_build: bool = False) -> Game:
    """A ``Game`` over ``ir`` on the named back end (default: compiled, as ``load``);
    ``compiled`` builds its module first (cached by content; ``force_build`` rebuilds it)."""
    if engine == "interpreted":
        return Game(ir, InterpretedEngine(ir))
    if engine == "compiled":
        from .compiler.build import build_engine  # (code generation and Cython: loaded only when asked for)

        return Game(ir, CompiledEngine(ir, build_engine(ir, force=force_build)))
    raise ValueError(f"unknown engine {engine!r} (engines: {', '.join(ENGINES)})")


def compiled_is_cached(ir: GameIR) -> bool:
    """Whether opening ``ir``'s compiled engine would only load it from the cache (found
    from the cache key, without rendering anything). False when that cannot be told (no
    Cython, no compiler package): such a game is not about to open either."""
    from .errors import MidgardcError

    try:
        from .compiler.build import is_cached
    except ImportError:
        return False
    try:
        return is_cached(ir)
    except MidgardcError:
        return False
