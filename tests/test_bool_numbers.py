"""A condition counts as 1 or 0 wherever a number is wanted (issue 27 item 8, the one
spelling of "1 if ... else 0"): in arithmetic, a score, a counter's new value and the body
of sum/min/max. The front end lowers it to either(C, 1, 0), so both back ends agree; a
comparison still wants numbers."""

from __future__ import annotations

from pathlib import Path

import pytest

from midgardc.engines import load
from midgardc.errors import SpecError
from midgardc.spec.lower import load_game_ir

SPEC = """midgardc: 1
game: {name: bools, players: [x, o], max_plies: 9}
pieces: {stone: {hand: 9}}
board: {topology: square, rows: 3, cols: 3, neighbourhood: 4}
counters:
  corners: {of: game}
actions:
  play:
    params: {c: cell}
    where: "empty(c)"
    effects:
      - place: {piece: stone, at: c}
      - add: {counter: corners, to: "degree(c) == 2"}
ranking:
  # 3 a stone in the centre, 1 any other (arithmetic), plus the corners held (sum)
  points: "sum(c in cells: 2 * (owner(c) == p and degree(c) == 4) + (owner(c) == p))"
  sides: "max(c in cells: owner(c) == p and degree(c) == 3)"
  first: "p == x and corners > 0"
"""


@pytest.fixture(scope="module")
def spec(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("bools") / "bools.yaml"
    path.write_text(SPEC, encoding="utf-8")
    return path


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_conditions_count_as_one_or_zero(spec, engine):
    state = load(str(spec), None, engine=engine).new_state()
    # x: the centre and a side; o: a corner, which adds 1 to corners (x's "first" reads it)
    for move in ("b2", "a1", "b1"):
        state.apply(move)
    scores = [p["score"] for p in state.to_json()["players"]]
    assert scores == [{"points": 4, "sides": 1, "first": 1}, {"points": 1, "sides": 0, "first": 0}]


def test_both_back_ends_play_the_same_random_games(spec):
    interpreted = load(str(spec), None, engine="interpreted")
    compiled = load(str(spec), None, engine="compiled")
    for seed in range(20):
        assert interpreted.engine.playout_trace(seed) == compiled.engine.playout_trace(seed)


def test_a_comparison_still_wants_numbers(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text(SPEC.replace('"p == x and corners > 0"', '"(p == x) < 2"'), encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_game_ir(str(path), None)
    assert "'<' needs numbers on both sides; this side is a condition" in str(info.value) and "broken.yaml:18:12:" in str(info.value)
