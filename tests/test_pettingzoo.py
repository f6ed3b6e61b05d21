"""Specs as PettingZoo AEC environments (midgardc.pettingzoo.env, also
midgardc.research.pettingzoo_env): PettingZoo's own API test on every spec; one seat as a
single-agent Gymnasium environment against bots (midgardc.gymnasium.make): Gymnasium's
check_env and whole episodes."""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

import midgardc.gymnasium  # noqa: E402
import midgardc.pettingzoo  # noqa: E402
import midgardc.research.pz  # noqa: E402
import midgardc.research.single  # noqa: E402

from conftest import SPECS  # noqa: E402
from midgardc.research import pettingzoo_env  # noqa: E402

ALL_SPECS = sorted(str(p.relative_to(SPECS)) for p in list(SPECS.glob("*.yaml")) + list(SPECS.glob("classics/*.yaml")))
LONG = bool(os.environ.get("MIDGARDC_LONG"))


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_api_test(spec):
    api_test(midgardc.pettingzoo.env(str(SPECS / spec)), num_cycles=200 if LONG else 40, verbose_progress=False)


def test_public_names_and_the_old_ones():
    import midgardc.openspiel
    import midgardc.research.openspiel

    assert midgardc.pettingzoo.env is midgardc.research.pz.env
    assert midgardc.openspiel.load_game is midgardc.research.openspiel.load_game
    assert midgardc.gymnasium.make is midgardc.research.single.make
    e = midgardc.pettingzoo.env(str(SPECS / "magic-mids.yaml"), None, 3)
    assert e.possible_agents == pettingzoo_env(str(SPECS / "magic-mids.yaml"), players=3).possible_agents
    assert len(e.possible_agents) == 3
    g = midgardc.openspiel.load_game(str(SPECS / "magic-mids.yaml"), None, 3)
    assert g.num_players() == 3


GYM_CASES = [
    ("classics/connect-four.yaml", {}),
    ("magic-mids.yaml", {"players": 3, "opponent": "greedy", "seat": 1}),  # dice, a bot
    ("midgard-vikings.yaml", {"players": 3}),  # hidden zones
]


@pytest.mark.parametrize("spec,kwargs", GYM_CASES, ids=["plain", "dice-greedy-seat1", "zones"])
def test_gymnasium_check_env(spec, kwargs):
    env = midgardc.gymnasium.make(str(SPECS / spec), **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (advice only: no registered env spec)
        check_env(env, skip_render_check=True)


def test_gymnasium_episode_against_a_bot():
    env = midgardc.gymnasium.make(str(SPECS / "classics" / "connect-four.yaml"), opponent="greedy", seat=1, render_mode="ansi")
    obs, info = env.reset(seed=4)
    assert obs.shape == env.observation_space.shape and env.observation_space.contains(obs)
    assert np.array_equal(info["action_mask"], env.action_masks()) and info["action_mask"].sum() == 7
    assert env.state.ply() == 1  # the bot in seat 0 moved first
    again, _ = env.reset(seed=4)
    assert np.array_equal(again, obs)  # a seed replays the same start
    rng = np.random.default_rng(4)
    done, steps = False, 0
    while not done:
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        done, steps = terminated or truncated, steps + 1
    assert reward == env.state.returns()[1] and reward in (-1.0, 0.0, 1.0) and steps >= 3  # (the fewest: seat 0 wins with its 4th disc)
    assert not info["action_mask"].any() and "a b c d e f g" in env.render()
    with pytest.raises(RuntimeError, match="over"):
        env.step(0)
    # an illegal action ends the episode as a loss
    env.reset(seed=5)
    assert env.action_masks().all()  # (Connect Four's declared actions: 7 columns, all open)
    illegal = 7
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -1.0 and info["illegal_action"]
    with pytest.raises(ValueError, match="seat"):
        midgardc.gymnasium.make(str(SPECS / "classics" / "connect-four.yaml"), seat=2)


def test_agent_names_are_configurable():
    spec = str(SPECS / "classics" / "tic-tac-toe.yaml")
    env = midgardc.pettingzoo.env(spec, agent_names="index")
    assert env.possible_agents == ["player_0", "player_1"]
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)  # (api_test warns about other names)
        warnings.filterwarnings("ignore", message=".*NumPy array")  # (the observation is a dict)
        warnings.filterwarnings("ignore", message=".*spaces.box")
        api_test(env, num_cycles=10, verbose_progress=False)
    assert midgardc.pettingzoo.env(spec).possible_agents == ["x", "o"]
    assert midgardc.pettingzoo.env(spec, agent_names=["me", "you"]).possible_agents == ["me", "you"]
    for bad in ("seats", ["a"], ["a", "a"]):
        with pytest.raises(ValueError, match="agent_names"):
            midgardc.pettingzoo.env(spec, agent_names=bad)


def test_gymnasium_registration_and_finite_bounds():
    import gymnasium

    env = gymnasium.make("midgardc/connect-four", opponent="greedy", seat=1)
    space = env.observation_space
    assert np.isfinite(space.low).all() and np.isfinite(space.high).all()
    assert space.shape == midgardc.gymnasium.make(str(SPECS / "classics" / "connect-four.yaml")).observation_space.shape
    obs, info = env.reset(seed=2)
    done = False
    while not done:
        assert space.contains(obs)
        obs, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        done = terminated or truncated
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(gymnasium.make("midgardc/leduc-poker").unwrapped, skip_render_check=True)
    assert "midgardc/midgard" in gymnasium.registry and "midgardc/chess" in gymnasium.registry
    pz = midgardc.pettingzoo.env(str(SPECS / "midgard.yaml")).observation_space("sea")["observation"]
    assert np.isfinite(pz.low).all() and np.isfinite(pz.high).all()


def test_loop_plays_a_game_to_its_end_and_renders_the_board():
    env = pettingzoo_env(str(SPECS / "classics" / "tic-tac-toe.yaml"))
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    steps, final = 0, {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            final[agent] = reward
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert env.agents == [] and set(final) == {"x", "o"}
    assert 5 <= steps <= 9
    assert "a b c" in env.render()  # the text board: files a b c under it and sorted(final.values()) in ([-1.0, 1.0], [0.0, 0.0])
