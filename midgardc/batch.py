"""B games of a spec stepped at once in the compiled engine, for learning.

``Batch(spec, n, variant=None, players=None, seed=0)`` holds ``n`` games of a spec (a path,
or a compiled ``Game`` already loaded). Its arrays
(numpy, overwritten in place by every call; copy what you keep):

* ``obs`` float32 ``[n, size]``: each game's observation tensor (``midgardc.research.tensor``,
  layout ``batch.schema``) for the player to move, with what that player may see;
* ``mask`` int8 ``[n, actions]``: that player's legal actions (the spec's declared
  ``action_space`` ids, else the engine's move ids: the same as OpenSpiel's and
  PettingZoo's action ids; ``move_ids=True`` keeps the move ids);
* ``player`` int32 ``[n]``: who that is;
* ``rewards`` float32 ``[n, players]``: every seat's return for a game that ended in the
  last step (from the ranks, as ``State.returns()``: +1/-1 for two players, 0 each on a
  draw or a game stopped by the ply limit), else 0;
* ``done`` / ``truncated`` uint8 ``[n]``: the game ended in the last step (truncated: it
  was stopped by the spec's ply limit);
* ``final_obs`` float32 ``[n, players, size]`` (unless ``keep_final=False``): for a slot
  whose game ended in the last step (``done[i]``), that game's last tensor as every seat
  sees it, written before the slot's next game starts (other rows hold older games' ends).

``observation=`` asks for a learning-ready view (``midgardc.research.view``: ``"canonical"``,
``"normalised"``, ``"spatial"``, ``"learning"``, ``history=K``, or a ``ViewOptions``): then
``obs`` is ``[n, *batch.view.shape]`` (``[n, C, H, W]`` for a spatial view), written in C
through the view's tables, its history planes kept per slot in C; ``batch.view`` describes
it. The default (None) is the raw tensor, as before.

``reset(seed)`` seeds the batch again, ``reset_slots(which)`` starts the next game in some
slots only, ``save()``/``restore()`` take the whole batch back to a point (games, counts,
random stream, arrays), and ``observe_seats()`` gives every slot's tensor for every seat.

``step(actions)`` plays one legal action per game; then, in C without the GIL, for every
game: the move, the dice (the game's own chance stream), the result, a new game when it
ended (auto-reset: the observation is then the new game's first), the tensor and the
mask. ``step_random()`` draws a uniformly random legal action per game in C (benchmarks,
random opponents); ``sample(probs)`` draws each game's action from a policy's
``[n, actions]`` weights restricted to the legal ones, in C, and steps (so a wide mask
(thousands of actions) costs no numpy pass per step). A declared action space reaches C as one
table (action id per seat and move id), so the ids cost nothing per step either. Slot i's k-th game is seeded ``derive_seed(derive_seed(seed, i), k)``
and starts as ``game.new_state(that seed)`` does, so any slot can be replayed through the
State API (``tests/test_batch.py`` does).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Optional, Sequence, Union

import numpy as np

from .research.actions import action_map
from .research.tensor import native_facts, place_visibility, schema
from .research.view import Observation, View, make_view
from .runtime.game import Game
from .engines import load
from .runtime.rng import MASK, derive_seed

Arrays = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


@dataclass(frozen=True)
class Saved:
    """A batch at one point (``Batch.save``): its engine, the C state, copies of its arrays."""

    engine: str
    seed: int
    core: tuple
    arrays: tuple[np.ndarray, ...]


class Batch:
    def __init__(
        self,
        spec: Union[str, Game],
        n: int,
        variant: Optional[str] = None,
        players: Optional[int] = None,
        seed: int = 0,
        room: int = 512,
        keep_final: bool = True,
        move_ids: bool = False,
        observation: Observation = None,
    ):
        """``room``: legal actions kept per game for ``step_random`` (beyond them, the draw
        scans the game's mask; the memory is n * min(actions, room) ints). ``keep_final``:
        keep ``final_obs`` (n * players * size floats, written only when a game ends).
        ``move_ids``: actions are the engine's move ids even when the spec declares an
        action space. ``observation``: a learning-ready view (see the module's doc)."""
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
        self.view: Optional[View] = make_view(ir, observation)
        shape = self.view.shape if self.view is not None else (self.schema.size,)
        size = self.view.size if self.view is not None else self.schema.size
        amap = None if move_ids else action_map(self.game)
        self.n_actions = amap.size if amap is not None else ir.n_action_moves
        table = np.ascontiguousarray(amap.table, dtype=np.intc) if amap is not None else None
        facts = native_facts(ir)
        n_places = len(place_visibility(ir))
        places = b"".join(bytes(m[:n_places]) for m in facts.places)
        counters = b"".join(bytes(m[: (ir.n_players + 1) * len(ir.counters)]) for m in facts.counters)
        flat = np.zeros((n, size), np.float32)
        self.obs = flat.reshape((n, *shape))  # (a view of flat: C writes rows of `size` floats)
        self.mask = np.zeros((n, self.n_actions), np.int8)
        self.player = np.zeros(n, np.intc)
        self.rewards = np.zeros((n, ir.n_players), np.float32)
        self.done = np.zeros(n, np.uint8)
        self.truncated = np.zeros(n, np.uint8)
        self._c = module.Batch(
            n, seed & MASK, [int(x) for x in facts.layout], places, counters, n_places, self.n_actions,
            flat if self.view is None else None, self.mask, self.rewards, self.done, self.truncated, self.player, room, table,
        )  # (the arrays are bound: every call writes into them)
        if self.view is not None:
            v = self.view
            self._c.use_view(flat, v.size, v.runs, v.ext_size, v.options.history, v.hist_src, v.hist_off, v.hist_size, v.rep_off)
        self.final_obs: Optional[np.ndarray] = None
        if keep_final:
            final = np.zeros((n, ir.n_players, size), np.float32)
            self._c.keep_final(final)
            self.final_obs = final.reshape((n, ir.n_players, *shape))
        self._module = module.__name__
        self._c.reset()

    def reset(self, seed: Optional[int] = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every slot starts its next game (its next seed); with ``seed``, the batch is
        seeded again: slot i plays game 0 of ``seed`` next, exactly as ``Batch(.., seed)``
        starts, and ``step_random``'s draws restart. Returns (obs, mask, player)."""
        if seed is not None:
            self.seed = seed
            self._c.reseed(seed & MASK)
        self._c.reset()
        return self.obs, self.mask, self.player

    def reset_slots(self, which: Union[np.ndarray, Sequence[int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Start the next game in some slots only: ``which`` is a bool array of n flags (the
        ``done`` array as bools, say), or the slots' indices. Their observation, mask and
        player are rewritten, their done, truncated and rewards zeroed; the other slots are
        left as they are."""
        arr = np.asarray(which)
        if arr.dtype == bool:
            flags = np.ascontiguousarray(arr, dtype=np.uint8)
        else:
            flags = np.zeros(self.n, np.uint8)
            idx = arr.astype(np.intp).ravel()
            if idx.size and (idx.min() < 0 or idx.max() >= self.n):
                raise IndexError(f"slots 0..{self.n - 1}; got {sorted(set(idx.tolist()))}")
            flags[idx] = 1
        if flags.shape != (self.n,):
            raise ValueError(f"one flag per game: shape ({self.n},), got {flags.shape}")
        self._c.reset_slots(flags)
        return self.obs, self.mask, self.player

    def observe_seats(self, out: Optional[np.ndarray] = None) -> np.ndarray:
        """Every slot's tensor (or view) for every seat, float32 ``[n, players, *shape]``
        (written into ``out`` when given), each with what that seat may see."""
        shape = self.view.shape if self.view is not None else (self.schema.size,)
        if out is None:
            out = np.empty((self.n, self.game.ir.n_players, *shape), np.float32)
        self._c.observe_seats(out.reshape(self.n, self.game.ir.n_players, -1))
        return out

    def save(self) -> Saved:
        """The whole batch now: every game, the games started, the random stream and copies
        of the arrays; ``restore`` takes the batch back to it (any number of times)."""
        arrays = tuple(a.copy() for a in self._arrays())
        return Saved(self._module, self.seed, self._c.save(), arrays)

    def restore(self, saved: Saved) -> None:
        """Back to ``saved`` (a ``save()`` of a batch of the same game, size and room)."""
        mine = self._arrays()
        if saved.engine != self._module or [a.shape for a in mine] != [a.shape for a in saved.arrays]:
            raise ValueError("a save of another batch (not this game, size and final_obs)")
        self._c.restore(saved.core)  # (checked first: a refused save changes nothing)
        self.seed = saved.seed
        for a, kept in zip(mine, saved.arrays):
            np.copyto(a, kept)

    def _arrays(self) -> list[np.ndarray]:
        out = [self.obs, self.mask, self.player, self.rewards, self.done, self.truncated]
        return out + ([self.final_obs] if self.final_obs is not None else [])

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

    def sample(self, probs: np.ndarray, out: Optional[np.ndarray] = None) -> Arrays:
        """Draw every game's action from ``probs`` (float32 ``[n, actions]``: a policy's
        weights, e.g. softmax output; only the legal actions' count, negatives as 0, and
        uniform over the legal ones when those are all 0) in C, then step as ``step``.
        The actions drawn are in ``self.chosen`` (or ``out``, int64 ``[n]``)."""
        probs = np.ascontiguousarray(probs, dtype=np.float32)
        if out is None:
            if getattr(self, "chosen", None) is None:
                self.chosen = np.zeros(self.n, np.int64)
            out = self.chosen
        self._c.step_sample(probs, out)
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
