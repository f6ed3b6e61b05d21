"""A spec as a single-agent Gymnasium environment: one seat learns, the other seats are
midgardc players (``random``, ``greedy``, ``mcts:200``, ``script:PATH``: any text
``--players`` takes).

Observations are the seat's observation tensor (``midgardc.research.tensor``: a float32
``Box`` of the schema's size, with what that seat may see); actions are the spec's declared
``action_space`` ids, else the engine's move ids (the same ids as OpenSpiel's and
PettingZoo's). The legal
moves are ``info["action_mask"]`` (int8) and ``env.action_masks()`` (the method
sb3-contrib's MaskablePPO reads). An illegal action ends the episode at once with reward
``illegal_reward`` (default -1, a loss) and ``info["illegal_action"] = True``, so every
action of the space is a valid input (as ``check_env`` requires). The reward comes when the
game ends: the seat's ``State.returns()`` entry (+1 win, -1 loss, 0 draw for two players);
a game stopped by the spec's ply limit is truncated. Dice and the other seats' moves happen
inside ``reset``/``step``; ``reset(seed=...)`` seeds the game, its dice and the bots.
The observation ``Box``'s bounds are finite (``tensor.bounds``). ``observation=`` asks
for a learning-ready view (``midgardc.research.view``: ``"canonical"``, ``"learning"``,
``history=K``...; ``env.view`` describes it; every move, the other seats' too, goes into its
history planes). Importing this module
registers every spec of the repository's ``specs/`` as ``midgardc/<file stem>``
(``gymnasium.make("midgardc/<stem>", opponent="greedy")``); ``register`` adds others.
Gymnasium (1.x) has no plug-in entry points: ``gymnasium.make("midgardc.gymnasium:
midgardc/<stem>")`` imports the module first.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Optional

import gymnasium
import numpy as np
from gymnasium import spaces

from midgardc.players.registry import parse_player
from midgardc.players.view import PlayerView
from midgardc.research.actions import legal_actions, n_actions
from midgardc.research.tensor import bounds, observation_tensor, schema
from midgardc.research.view import Observation, Positions, make_view
from midgardc.runtime.game import State
from midgardc.engines import load
from midgardc.runtime.rng import Rng, derive_seed


class MidgardcGymEnv(gymnasium.Env):
    """One seat of a spec against bots (see the module's doc)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        spec_path: str,
        variant: Optional[str] = None,
        players: Optional[int] = None,
        opponent: str = "random",
        seat: int = 0,
        render_mode: Optional[str] = None,
        engine: str = "compiled",
        illegal_reward: float = -1.0,
        observation: Observation = None,
    ):
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r} is not supported (only 'ansi')")
        self.game = load(spec_path, variant, engine=engine, n_players=players)
        ir = self.game.ir
        if not 0 <= seat < ir.n_players:
            raise ValueError(f"no seat {seat} in {ir.title} (seats 0..{ir.n_players - 1})")
        self.seat = seat
        spec = parse_player(opponent)
        self.opponents = {p: spec.make() for p in range(ir.n_players) if p != seat}
        self.schema = schema(ir)
        self.n_actions = n_actions(self.game)
        self.view = make_view(ir, observation)
        self.positions = Positions(self.view) if self.view is not None else None
        low, high = bounds(ir) if self.view is None else self.view.bounds()
        self.observation_space = spaces.Box(low=low, high=high, dtype=np.float32)
        self.action_space = spaces.Discrete(self.n_actions)
        self.render_mode = render_mode
        self.illegal_reward = float(illegal_reward)
        self.state: Optional[State] = None
        self._rngs: dict[int, Rng] = {}

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**63))
        self.state = self.game.new_state(game_seed)
        if self.positions is not None:
            self.positions.clear()
        self._rngs = {p: Rng(derive_seed(game_seed, 1 + p)) for p in self.opponents}
        self._others()
        return self._observation(), self._info()

    def _others(self) -> None:
        """Roll the dice and let the other seats move until this seat is to move or the game
        is over."""
        state = self.state
        assert state is not None
        while not state.is_terminal():
            if state.is_chance_node():
                state.sample_chance()
                continue
            p = state.current_player()
            if p == self.seat:
                return
            move = self.opponents[p].choose(PlayerView(state, p), self._rngs[p])
            if self.positions is not None:
                self.positions.push(state)
            state.apply_unchecked(move)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        if self.state.is_terminal():
            raise RuntimeError("the game is over: call reset()")
        legal = legal_actions(self.game, self.state)
        if int(action) not in legal:
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), self.illegal_reward, True, False, info
        if self.positions is not None:
            self.positions.push(self.state)
        self.state.apply_unchecked(legal[int(action)])
        self._others()
        reward, terminated, truncated = 0.0, False, False
        if self.state.is_terminal():
            reward = float(self.state.returns()[self.seat])
            truncated = bool(self.state.core.ply_limited)
            terminated = not truncated
        return self._observation(), reward, terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """1 for each legal action of this seat (all 0 once the game is over)."""
        mask = np.zeros(self.n_actions, np.int8)
        s = self.state
        if s is not None and not s.is_terminal() and s.current_player() == self.seat:
            mask[list(legal_actions(self.game, s))] = 1
        return mask

    def _observation(self) -> np.ndarray:
        assert self.state is not None
        if self.view is not None:
            return self.view.tensor(self.state, self.seat, self.positions)
        return observation_tensor(self.state, self.seat)

    def _info(self) -> dict:
        return {"action_mask": self.action_masks()}

    def render(self) -> Optional[str]:
        if self.render_mode is None or self.state is None:
            return None
        return str(self.state)


NAMESPACE = "midgardc"
# the repository's specs (absent from an installed wheel, which then registers none)
SPECS = Path(__file__).resolve().parent.parent.parent / "specs"


def register(spec_path: str, env_id: Optional[str] = None) -> str:
    """Register a spec with Gymnasium as ``env_id`` (default ``midgardc/<file stem>``), so
    ``gymnasium.make(env_id, **make's keywords)`` builds it; returns the id."""
    env_id = env_id or f"{NAMESPACE}/{Path(spec_path).stem}"
    if env_id not in gymnasium.registry:
        gymnasium.register(id=env_id, entry_point="midgardc.research.single:MidgardcGymEnv", kwargs={"spec_path": os.path.abspath(spec_path)})
    return env_id


def register_specs(directory: Optional[str] = None) -> list[str]:
    """Register every spec of a directory and its subdirectories (default: the repository's
    ``specs/``; on import of this module); returns their ids."""
    root = Path(directory) if directory is not None else SPECS
    return [register(str(p)) for p in sorted(root.rglob("*.yaml"))] if root.is_dir() else []


register_specs()


def make(
    spec_path: str,
    variant: Optional[str] = None,
    players: Optional[int] = None,
    opponent: str = "random",
    seat: int = 0,
    render_mode: Optional[str] = None,
    engine: str = "compiled",
    illegal_reward: float = -1.0,
    observation: Observation = None,
) -> MidgardcGymEnv:
    """Seat ``seat`` of a spec against ``opponent`` players (a player as ``--players`` takes
    it: random, greedy, mcts:200, ...) as a Gymnasium environment; ``observation``: a
    learning-ready view (``midgardc.research.view``)."""
    return MidgardcGymEnv(spec_path, variant, players, opponent, seat, render_mode, engine, illegal_reward, observation)
