"""The compiled back end: a game's compiled engine behind the engine protocol.

The engine is the game's small rules module (generated from its IR, cached by content)
behind the generic engine compiled once for every game (``midgardc/engine/generic.pyx``;
docs/design.md, "Building engines"). It is built by ``midgardc.compiler.build`` and
handed in by the engine loader, ``midgardc.engines``: the runtime never imports the
compiler. Its ``Core`` has the interpreter Core's protocol, and whole random games, their
results and perft run in C without the GIL."""

from __future__ import annotations

from typing import Any, Optional

from ..ir.nodes import GameIR
from .rng import MASK
from .sampling import check_sampling


class CompiledEngine:
    """The product back end behind the common Game API (same protocol as InterpretedEngine)."""

    name = "compiled"

    def __init__(self, ir: GameIR, module: Any):
        """``module``: the engine built for ``ir`` (``midgardc.compiler.build.build_engine``)."""
        self.ir = ir
        self.module = module

    def new_core(self, seed: int = 0, start_zones: Optional[list[list[int]]] = None) -> Any:
        """A new game for ``seed``; ``start_zones``: as the interpreter's ``new_core``."""
        core = self.module.Core(seed & MASK)
        if start_zones is not None:
            core.restart(seed & MASK, start_zones)
        return core

    def playout_trace(self, seed: int, core: Optional[Any] = None, sampling: str = "whole") -> list[int]:
        """Random moves (the shared RNG, ``Rng(seed)``; ``sampling``: runtime/sampling.py)
        from the start (or a copy of ``core``) to the end of the game."""
        return self.module.playout_trace(seed & MASK, core, check_sampling(sampling))

    def playouts(self, n: int, seed: int, sampling: str = "whole") -> dict:
        """``n`` random games; game i uses ``derive_seed(seed, i)``. Aggregate results, the
        same dict as ``results.empty_stats``/``add_result`` (computed in C)."""
        if n < 0:
            raise ValueError("the number of playouts must be at least 0")
        return self.module.playouts(n, seed & MASK, check_sampling(sampling))

    def rollouts(self, core: Any, n: int, seed: int, sampling: str = "whole") -> dict:
        """``n`` random games from ``core``'s position (left as it is); game i uses
        ``derive_seed(seed, i)``. The same dict as ``playouts``."""
        if n < 0:
            raise ValueError("the number of rollouts must be at least 0")
        return self.module.rollouts(core, n, seed & MASK, check_sampling(sampling))

    def perft(self, depth: int, core: Optional[Any] = None) -> int:
        """Legal move sequences of length exactly ``depth`` from the start (or ``core``);
        a game that ends earlier adds nothing, as in ``midgardc.runtime.game.perft``."""
        return self.module.perft(depth, core)
