"""B games of a spec stepped at once in the compiled engine, for learning.

``Batch(spec, n, variant=None, players=None, seed=0)`` holds ``n`` games of a spec (a path,
or a compiled ``Game`` already loaded). Its arrays
(numpy, overwritten in place by every call; copy what you keep):

* ``obs`` float32 ``[n, size]``: each game's observation tensor (``midgardc.research.tensor``,
  layout ``batch.schema``) for the player to move, with what that player may see;
* ``mask`` int8 ``[n, actions]``: that player's legal actions (the engine's move ids, the
  same as OpenSpiel's and PettingZoo's action ids);
* ``player`` int32 ``[n]``: who that is;
* ``rewards`` float32 ``[n, players]``: every seat's return for a game that ended in the
  last step (from the ranks, as ``State.returns()``: +1/-1 for two players, 0 each on a
  draw or a game stopped by the ply limit), else 0;
* ``done`` / ``truncated`` uint8 ``[n]``: the game ended in the last step (truncated: it
  was stopped by the spec's ply limit).

``step(actions)`` plays one legal action per game; then, in C without the GIL, for every
game: the move, the dice (the game's own chance stream), the result, a new game when it
ended (auto-reset: the observation is then the new game's first), the tensor and the
mask. ``step_random()`` draws a uniformly random legal action per game in C (benchmarks,
random opponents). Slot i's k-th game is seeded ``derive_seed(derive_seed(seed, i), k)``
and starts as ``game.new_state(that seed)`` does, so any slot can be replayed through the
State API (``tests/test_batch.py`` does).
"""

from __future__ import annotations

import time
from typing import Optional, Union

import numpy as np

from .research.tensor import native_facts, place_visibility, schema
from .runtime.game import Game
from .engines import load
from .runtime.rng import MASK, derive_seed

Arrays = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


class Batch:
    def __init__(self, spec: Union[str, Game], n: int, variant: Optional[str] = None, players: Optional[int] = None, seed: int = 0, room: int = 512):
        """``room``: legal actions kept per game for ``step_random`` (beyond them, the draw
        scans the game's mask; the memory is n * min(actions, room) ints)."""
        if n < 1:
            raise ValueError("a batch holds at least one game")
        self.game = spec if isinstance(spec, Game) else load(spec, variant, engine="compiled", n_players=players)
        module = getattr(self.game.engine, "module", None)
        if module is None or not hasattr(module, "Batch"):
            raise ValueError("batches need the compiled engine (it could not be built here)")
        ir = self.game.ir
        if self.game.new_state(seed).is_terminal():
            raise ValueError(f"{ir.title}: the game is over before the first move; nothing to step")
        self.n = n
        self.seed = seed
        self.schema = schema(ir)
        self.n_actions = ir.n_action_moves
        facts = native_facts(ir)
        n_places = len(place_visibility(ir))
        places = b"".join(bytes(m[:n_places]) for m in facts.places)
        counters = b"".join(bytes(m[: (ir.n_players + 1) * len(ir.counters)]) for m in facts.counters)
        self.obs = np.zeros((n, self.schema.size), np.float32)
        self.mask = np.zeros((n, self.n_actions), np.int8)
        self.player = np.zeros(n, np.intc)
        self.rewards = np.zeros((n, ir.n_players), np.float32)
        self.done = np.zeros(n, np.uint8)
        self.truncated = np.zeros(n, np.uint8)
        self._c = module.Batch(
            n, seed & MASK, [int(x) for x in facts.layout], places, counters, n_places, self.n_actions,
            self.obs, self.mask, self.rewards, self.done, self.truncated, self.player, room,
        )  # (the arrays are bound: every call writes into them)
        self._c.reset()

    def reset(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every game starts its next game (its next seed); returns (obs, mask, player)."""
        self._c.reset()
        return self.obs, self.mask, self.player

    def step(self, actions: np.ndarray) -> Arrays:
        """Play ``actions`` (one legal action per game); returns (obs, mask, rewards, done,
        truncated, player), the batch's own arrays."""
        actions = np.ascontiguousarray(actions, dtype=np.int64)
        if actions.shape != (self.n,):
            raise ValueError(f"one action per game: shape ({self.n},), got {actions.shape}")
        self._c.step(actions)
        return self.obs, self.mask, self.rewards, self.done, self.truncated, self.player

    def step_random(self) -> Arrays:
        """A uniformly random legal action in every game (drawn in C), then as ``step``."""
        self._c.step_random()
        return self.obs, self.mask, self.rewards, self.done, self.truncated, self.player

    def game_seed(self, slot: int, k: int) -> int:
        """The seed of slot ``slot``'s ``k``-th game (from 0)."""
        return derive_seed(derive_seed(self.seed, slot), k)

    def games_started(self) -> list[int]:
        return self._c.games_started

    def core(self, slot: int):
        """A copy of slot ``slot``'s state (a compiled Core)."""
        return self._c.core(slot)


def bench(game: Game, sizes: list[int], seed: int = 0, steps: int = 200_000, playouts: int = 2_000) -> dict:
    """Batch steps per second (a random legal action per game drawn in C; every step writes
    the observation and the mask) for each batch size, beside the engine's random-playout
    plies per second (``playouts`` games). About ``steps`` game steps per size (at least
    20 calls of ``step_random``, after one call to warm up)."""
    started = time.perf_counter()
    stats = game.engine.playouts(playouts, seed)
    playout_seconds = max(time.perf_counter() - started, 1e-9)
    plies_per_s = stats["plies"] / playout_seconds
    rows = []
    for n in sizes:
        batch = Batch(game, n, seed=seed)
        calls = max(20, steps // n)
        batch.step_random()
        started = time.perf_counter()
        for _ in range(calls):
            batch.step_random()
        seconds = max(time.perf_counter() - started, 1e-9)
        rate = n * calls / seconds
        rows.append(
            {
                "batch": n,
                "steps": n * calls,
                "seconds": round(seconds, 4),
                "steps_per_s": round(rate, 1),
                "vs_playout_plies": round(rate / plies_per_s, 3),
            }
        )
    ir = game.ir
    return {
        "seed": seed,
        "tensor_size": schema(ir).size,
        "actions": ir.n_action_moves,
        "playouts": stats["games"],
        "playout_seconds": round(playout_seconds, 4),
        "playout_plies_per_s": round(plies_per_s, 1),
        "batches": rows,
    }
