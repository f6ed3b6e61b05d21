"""Any spec as a PettingZoo AEC environment (``midgardc.research.pettingzoo_env``).

Agents are the spec's players (by name; ``agent_names="index"`` names them ``player_0``,
``player_1``, ... as PettingZoo's conventions do, or pass a list). Each observation is a dict: ``"observation"``, the
player's float32 tensor (``midgardc.research.tensor``, a Box of the schema's size), and
``"action_mask"``, an int8 Box over the action ids (the spec's declared ``action_space``,
``midgardc.research.actions``, else the engine's move ids; only the agent to move has legal
actions). Dice are rolled by the
environment itself, with the state's own chance stream seeded by ``reset(seed)``: agents never
see a chance node. Rewards come once, at the end: the State's returns (+1 the winner, -1 the
others, 0 each on a draw). A game stopped by the spec's ply limit is a truncation (a draw).
``render()`` returns the text board (render mode ``"ansi"``). ``observation=`` asks for a
learning-ready view (``midgardc.research.view``; ``env.view`` describes it): then
``"observation"`` is that view of the tensor, in its shape (``(C, H, W)`` when spatial).
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Union

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from midgardc.research.actions import legal_actions, n_actions
from midgardc.research.tensor import bounds, observation_tensor, schema
from midgardc.research.view import Observation, Positions, make_view
from midgardc.runtime.game import Game
from midgardc.engines import load


class MidgardcEnv(AECEnv):
    metadata = {"render_modes": ["ansi"], "name": "midgardc", "is_parallelizable": False}

    def __init__(self, game: Game, render_mode: Optional[str] = None, agent_names: Union[str, Sequence[str]] = "spec", observation: Observation = None):
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render mode {render_mode!r} is not supported (only 'ansi')")
        self.game = game
        self.render_mode = render_mode
        ir = game.ir
        self.metadata = dict(self.metadata, name=f"midgardc-{ir.name}")
        self._schema = schema(ir)
        self._n_actions = n_actions(game)
        self.possible_agents = agents(ir.players, agent_names)
        self.view = make_view(ir, observation)
        self.positions = Positions(self.view) if self.view is not None else None
        low, high = bounds(ir) if self.view is None else self.view.bounds()
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low=low, high=high, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(self._n_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self._n_actions) for a in self.possible_agents}
        self.state_ = None
        self._seed = 0

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- the game ------------------------------------------------------------------------

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        if seed is not None:
            self._seed = int(seed)
        else:
            self._seed += 1  # another deal and other rolls for the next game
        self.state_ = self.game.new_state(self._seed)
        if self.positions is not None:
            self.positions.clear()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._settle()

    def _settle(self) -> None:
        """Roll any due dice; then select the agent to move, or end the game for everyone."""
        s = self.state_
        while s.is_chance_node():
            s.sample_chance()
        if s.is_terminal():
            limited = bool(s.core.ply_limited)
            for a, r in zip(self.possible_agents, s.returns()):
                if a in self.agents:
                    self.rewards[a] = float(r)
                    self.terminations[a] = not limited
                    self.truncations[a] = limited
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[s.current_player()]

    def observe(self, agent: str) -> dict:
        p = self.possible_agents.index(agent)
        mask = np.zeros(self._n_actions, dtype=np.int8)
        s = self.state_
        if not s.is_terminal() and s.current_player() == p:
            mask[list(legal_actions(self.game, s))] = 1
        tensor = self.view.tensor(s, p, self.positions) if self.view is not None else observation_tensor(s, p)
        return {"observation": tensor, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action = int(action)
        legal = legal_actions(self.game, self.state_)
        if action not in legal:
            raise ValueError(f"action {action} is not legal for {agent} here (see the action mask)")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.positions is not None:
            self.positions.push(self.state_)
        self.state_.apply_unchecked(legal[action])
        self._settle()
        self._accumulate_rewards()

    def render(self) -> Optional[str]:
        if self.render_mode is None:
            return None
        return str(self.state_)

    def close(self) -> None:
        pass


def agents(players: Sequence[str], names: Union[str, Sequence[str]]) -> list[str]:
    """The agents' names: ``"spec"`` the spec's player names, ``"index"`` PettingZoo's
    ``player_0``, ``player_1``, ...; or one distinct name per seat, in seat order."""
    if names == "spec":
        return list(players)
    if names == "index":
        return [f"player_{i}" for i in range(len(players))]
    if isinstance(names, str):
        raise ValueError(f"agent_names: 'spec', 'index' or a list of {len(players)} names, not {names!r}")
    out = [str(n) for n in names]
    if len(out) != len(players) or len(set(out)) != len(out):
        raise ValueError(f"agent_names: {len(players)} distinct names, one per seat; got {out}")
    return out


def env(
    spec_path: str,
    variant: Optional[str] = None,
    players: Optional[int] = None,
    engine: str = "compiled",
    render_mode: Optional[str] = "ansi",
    agent_names: Union[str, Sequence[str]] = "spec",
    observation: Observation = None,
) -> MidgardcEnv:
    """An AEC environment for a spec, variant and player count (default: the spec's);
    ``agent_names``: see ``agents``; ``observation``: a learning-ready view
    (``midgardc.research.view``)."""
    return MidgardcEnv(load(spec_path, variant, engine=engine, n_players=players), render_mode=render_mode, agent_names=agent_names, observation=observation)
