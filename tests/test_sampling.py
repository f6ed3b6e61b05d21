"""Random play step by step (``sampling: steps``, midgardc/runtime/sampling.py) for moves
of two steps (``then:``): a first step uniformly among the distinct first steps that
have a legal whole move, then one of its second steps uniformly. Both back ends draw the
same moves from the same seed (Amazons and tests/data/two_steps.yaml); the distribution
is checked against exact probabilities enumerated on a small position; without ``then:``
both samplings make the very same draws."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import ENGINES, SPECS, get_game
from midgardc.cli import cli
from midgardc.engines import load
from midgardc.ir.compound import step_blocks
from midgardc.players.registry import PlayerSpec
from midgardc.runtime.rng import Rng, derive_seed
from midgardc.runtime.sampling import draw_steps
from test_differential import SAMPLER, check_games, interpreter_games

AMAZONS = str(SPECS / "classics" / "amazons.yaml")
STEPS = str(Path(__file__).parent / "data" / "two_steps.yaml")
# two_steps.yaml where the marker may not go back on the cell the walker left, so a
# first step can have no second step (tests/test_steps.py does the same)
NO_BACK = ('where: "straight(e) and empty(step(step(f, d), e))"', 'where: "straight(e) and empty(step(step(f, d), e)) and step(step(f, d), e) != f"')


def test_both_engines_draw_the_same_games_step_by_step():
    check_games(STEPS, None, 100, 2_027, "steps")
    check_games(AMAZONS, None, 6, 1_988, "steps")


def test_the_interpreter_playouts_are_its_traced_games():
    engine = get_game(STEPS, None, "interpreted").engine
    assert engine.playouts(20, 5, sampling="steps") == interpreter_games(engine, 20, 5, "steps")[1]
    assert engine.playouts(20, 5, sampling="steps") != engine.playouts(20, 5)  # another game


@pytest.mark.parametrize("engine", ENGINES)
def test_steps_draw_other_moves_than_whole_moves(engine):
    game = get_game(AMAZONS, None, engine)
    assert game.engine.playout_trace(7, sampling="steps")[:3] != game.engine.playout_trace(7)[:3]


@pytest.mark.parametrize("engine", ENGINES)
def test_without_then_both_samplings_make_the_same_draws(engine):
    game = get_game(SAMPLER, None, engine)
    assert not step_blocks(game.ir)
    for seed in range(3):
        assert game.engine.playout_trace(seed, sampling="steps") == game.engine.playout_trace(seed)
    assert game.engine.playouts(10, 3, sampling="steps") == game.engine.playouts(10, 3)


HOP = """  hop:
    params: {h: cell}
    where: "owner(h) == mover and kind_at(h) == walker and empty(step(h, ne))"
    effects:
      - move: {from: h, to: "step(h, ne)"}
    legal_after: "walks(mover) < 3"
    notation: "{h}^"
triggers:"""


def test_beside_an_action_with_legal_after_both_engines_draw_alike(tmp_path):
    # random games draw such a spec's whole moves by rejection (legal_after); step by
    # step they draw from the legal list instead, in both engines
    path = tmp_path / "hop.yaml"
    path.write_text(Path(STEPS).read_text(encoding="utf-8").replace("triggers:", HOP, 1), encoding="utf-8")
    for sampling in ("whole", "steps"):
        check_games(str(path), None, 40, 11, sampling)
    game = get_game(str(path), None, "compiled")
    hop = game.ir.actions[1]
    assert any(hop.base <= m < hop.base + hop.size for s in range(20) for m in game.engine.playout_trace(s, sampling="steps"))


def test_with_dice_both_engines_draw_alike(tmp_path):
    # a roll opens each turn and the walker steps north only on a 2: the roll comes from
    # the chance stream, the move step by step from the playout's
    text = Path(STEPS).read_text(encoding="utf-8").replace("pieces:", "chance:\n  dice: 1\n  faces: {one: {value: 1}, two: {value: 2}}\npieces:", 1)
    text = text.replace('straight(d) and empty(step(f, d))"', 'straight(d) and empty(step(f, d)) and (d != n or face_value(die(0)) == 2)"')
    path = tmp_path / "rolled.yaml"
    path.write_text(text, encoding="utf-8")
    for sampling in ("whole", "steps"):
        check_games(str(path), None, 40, 5, sampling)


def small_position(tmp_path, engine: str):
    """x's walker on b2 with o's markers on a1 and a3: stepping n (b3) leaves 2 second
    steps (b4, c3), e (c2) 3 (c3, d2, c1), s (b1) 1 (c1), and w (a2) none (a1, a3 taken,
    b2 the cell left)."""
    path = tmp_path / "steps.yaml"
    path.write_text(Path(STEPS).read_text(encoding="utf-8").replace(*NO_BACK), encoding="utf-8")
    game = load(str(path), None, engine=engine)
    ir = game.ir
    board = [0] * ir.board.n_cells
    for cell, code in {"b2": 1, "d4": 3, "a1": 4, "a3": 4}.items():  # 1 + owner * 2 + kind (walker 0, marker 1)
        board[ir.board.cell_names.index(cell)] = code
    state = game.new_state()
    state.core.load(board, [[0, 4], [0, 2]], 0, counters=[list(r) for r in ir.counter_init])
    return game, state


def exact_steps(texts: list[str]) -> dict[str, float]:
    """Each whole move's chance drawn step by step, by enumeration: 1 / (first steps with a
    second step) x 1 / (that first step's second steps)."""
    firsts = Counter(t.split("+")[0] for t in texts)
    return {t: 1 / len(firsts) / firsts[t.split("+")[0]] for t in texts}


def test_the_distribution_is_the_step_by_step_one(tmp_path):
    game, state = small_position(tmp_path, "interpreted")
    legal = [m.id for m in state.legal_moves()]
    text = {m.id: m.text for m in state.legal_moves()}
    assert sorted(text.values()) == sorted(["b2>n+n", "b2>n+e", "b2>e+n", "b2>e+e", "b2>e+s", "b2>s+e"])
    exact = exact_steps(list(text.values()))
    assert exact["b2>s+e"] == 1 / 3 and exact["b2>n+e"] == 1 / 6 and exact["b2>e+s"] == 1 / 9  # whole moves: 1/6 each
    rng, n = Rng(2_027), 60_000
    drawn = Counter(text[draw_steps(step_blocks(game.ir), legal, rng)] for _ in range(n))
    assert set(drawn) == set(exact)  # the dead end (w) is never drawn
    for t, p in exact.items():  # within 5 standard deviations (a fixed seed: no flakiness)
        assert abs(drawn[t] / n - p) < 5 * (p * (1 - p) / n) ** 0.5, (t, drawn[t] / n, p)


def test_both_engines_draw_the_same_first_move_in_the_small_position(tmp_path):
    firsts = {}
    for engine in ENGINES:
        (tmp_path / engine).mkdir()
        game, state = small_position(tmp_path / engine, engine)
        firsts[engine] = [game.engine.playout_trace(derive_seed(9, i), state.core, sampling="steps")[0] for i in range(200)]
    assert firsts["interpreted"] == firsts["compiled"]
    assert len(set(firsts["compiled"])) == 6


def test_bench_takes_the_sampling():
    runner = CliRunner()
    out = runner.invoke(cli, ["bench", STEPS, "--engine", "interpreted", "-n", "3", "--sampling", "steps"])
    assert out.exit_code == 0 and "sampling steps" in out.output
    bad = runner.invoke(cli, ["bench", STEPS, "--sampling", "steps", "--batch", "2"])
    assert bad.exit_code == 1 and "--sampling steps measures random playouts" in bad.output


@pytest.mark.parametrize("engine", ENGINES)
def test_the_random_steps_player_plays_the_playouts_games(engine):
    # a match of two random-steps players with one Rng plays the game playout_trace
    # draws with that seed (sampling steps), as random plays the whole-move one
    game = get_game(STEPS, None, engine)
    player = PlayerSpec("random-steps").make()
    for seed in range(4):
        state, rng, moves = game.new_state(seed), Rng(seed), []
        while not state.is_terminal():
            moves.append(player.choose(state, rng))
            state.apply(moves[-1])
        assert moves == game.engine.playout_trace(seed, sampling="steps")
