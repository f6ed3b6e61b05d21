"""Specs as PettingZoo AEC environments (midgardc.research.pettingzoo_env): PettingZoo's own
API test on specs of different kinds (a board game, dice, hidden zones, decks)."""

from __future__ import annotations

import os

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402

from conftest import SPECS  # noqa: E402
from midgardc.research import pettingzoo_env  # noqa: E402

KINDS = ["classics/connect-four.yaml", "magic-mids.yaml", "midgard-vikings.yaml", "meridian.yaml"]  # board, dice, hidden zones, decks
if os.environ.get("MIDGARDC_LONG"):  # every spec
    KINDS = sorted(str(p.relative_to(SPECS)) for p in list(SPECS.glob("*.yaml")) + list(SPECS.glob("classics/*.yaml")))


@pytest.mark.parametrize("spec", KINDS)
def test_api_test(spec):
    api_test(pettingzoo_env(str(SPECS / spec)), num_cycles=40, verbose_progress=False)


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
