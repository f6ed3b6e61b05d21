"""Perft: the number of legal move sequences of each depth, the same in both back ends.

Reference counts come from the reference interpreter (`midgardc perft specs/midgard.yaml
--depth 3 --engine interpreted`); depth 1 is also the rulebook's own count: every cell but
the centre is ice at the start (123 = 124 - 1), and Loki seeds three more (120).
"""

import pytest

from midgardc.runtime.game import perft
from conftest import MIDGARD, get_game

EXPECTED = {
    None: [123, 14_694, 1_704_162],
    "odin": [123, 14_694, 1_704_162],
    "loki": [120, 13_986, 1_582_494],
}


@pytest.mark.parametrize("variant", list(EXPECTED))
def test_perft_interpreted_depth_2(variant):
    game = get_game(MIDGARD, variant, "interpreted")
    assert [perft(game.new_state(), d) for d in (1, 2)] == EXPECTED[variant][:2]


@pytest.mark.parametrize("variant", list(EXPECTED))
def test_perft_compiled_depth_3(variant):
    game = get_game(MIDGARD, variant, "compiled")
    assert [game.engine.perft(d) for d in (1, 2, 3)] == EXPECTED[variant]
    # the generic perft over the Python API agrees with the one in C
    assert [perft(game.new_state(), d) for d in (1, 2)] == EXPECTED[variant][:2]
