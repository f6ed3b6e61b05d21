"""AlphaZero through the OpenSpiel adapter (midgardc.research.alphazero): the numpy
network's gradients, two rounds of the self-play/learn loop with a tiny network and its
checkpoint, evaluation games, and the refusal of games it cannot play. OpenSpiel's own
JAX AlphaZero (the stock actor/learner loop) runs two steps on a spec with
MIDGARDC_LONG=1 when the ``alphazero`` extra is installed."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

pytest.importorskip("pyspiel")

from conftest import SPECS  # noqa: E402
from midgardc.research import alphazero as az  # noqa: E402

CONNECT4 = str(SPECS / "classics" / "connect-four.yaml")
TICTACTOE = str(SPECS / "classics" / "tic-tac-toe.yaml")
LONG = bool(os.environ.get("MIDGARDC_LONG"))


def _batch(rng: np.random.Generator, n: int, n_in: int, n_actions: int):
    x = rng.standard_normal((n, n_in))
    mask = (rng.random((n, n_actions)) < 0.7).astype(np.float64)
    mask[:, 0] = 1
    pi = rng.random((n, n_actions)) * mask
    pi /= pi.sum(axis=1, keepdims=True)
    z = rng.uniform(-1, 1, n)
    return x, mask, pi, z


def test_gradients_match_finite_differences():
    # the backward pass is written by hand: every parameter's gradient against a
    # central difference of the loss, in float64
    rng = np.random.default_rng(3)
    net = az.Net(5, 4, (6, 3), seed=1)
    net.params = {k: v.astype(np.float64) + rng.normal(0, 0.3, v.shape) for k, v in net.params.items()}
    net.scale = np.ones(5)
    x, mask, pi, z = _batch(rng, 7, 5, 4)
    _, _, grads = net.loss_and_grads(x, mask, pi, z)
    eps = 1e-6
    for name, param in net.params.items():
        numeric = np.zeros_like(param)
        for i in np.ndindex(param.shape):
            keep = param[i]
            param[i] = keep + eps
            up = sum(net.loss_and_grads(x, mask, pi, z)[:2])
            param[i] = keep - eps
            down = sum(net.loss_and_grads(x, mask, pi, z)[:2])
            param[i] = keep
            numeric[i] = (up - down) / (2 * eps)
        np.testing.assert_allclose(grads[name], numeric, rtol=1e-4, atol=1e-7, err_msg=name)


def test_training_fits_a_fixed_batch():
    rng = np.random.default_rng(0)
    x, mask, pi, z = (a.astype(np.float32) for a in _batch(rng, 32, 10, 5))
    net = az.Net(10, 5, (32,), seed=0)
    first = sum(net.train_step(x, mask, pi, z, 1e-2, 0.0))
    for _ in range(300):
        last = sum(net.train_step(x, mask, pi, z, 1e-2, 0.0))
    # the policy loss cannot go below the targets' entropy; the value loss can reach 0
    entropy = float(-(pi * np.log(pi + 1e-9)).sum() / len(pi))
    assert last < first
    assert last - entropy < 0.1 * (first - entropy)


def test_illegal_actions_get_no_probability():
    net = az.Net(4, 3, (8,), seed=0)
    v, policy = net.predict(np.ones(4, np.float32), np.array([1, 0, 1], np.float32))
    assert policy[1] == 0 and policy.sum() == pytest.approx(1.0)
    assert -1 < v < 1


def test_seat_orders_put_the_mover_first():
    game = az._game(az.Config(spec=CONNECT4))
    orders = az.seat_orders(game)
    state = game.new_initial_state()
    state.apply_action(3)  # seat 0 drops a disc; seat 1 to move
    sch = game.schema
    mine = az._observe(state, 1, orders)
    theirs = az._observe(game.new_initial_state(), 0, orders)
    # seat 1 sees the disc as the opponent's (seat axis position 1) and itself as to move
    assert sch.view(mine, "board")[1].sum() == 1 and sch.view(mine, "board")[0].sum() == 0
    assert list(sch.view(mine, "current")) == [1, 0] == list(sch.view(theirs, "current"))
    assert sorted(orders[1]) == list(range(sch.size))


def test_two_rounds_checkpoint_and_evaluation(tmp_path, capsys):
    cfg = az.Config(spec=TICTACTOE, simulations=4, train_simulations=4, mcts_simulations=4, hidden=(8,))
    ckpt = str(tmp_path / "az.npz")
    out = io.StringIO()
    with az._pool(1) as pool:
        net = az.train(cfg, minutes=0, seed=5, actors=1, games_per_round=2, batch=8, rounds=2, checkpoint=ckpt, out=out, pool=pool)
        scores = [az.evaluate(cfg, net, opp, 2, seed=5, actors=1, out=out, pool=pool) for opp in ("random", "mcts")]
    lines = out.getvalue().splitlines()
    assert [line.split(":")[0] for line in lines if line.startswith("round")] == ["round 1", "round 2"]
    loaded, meta = az.load_checkpoint(ckpt)
    assert (meta["rounds"], meta["games"]) == (2, 4)
    assert 4 * 5 <= meta["positions"] <= 4 * 9  # a tic-tac-toe game has 5 to 9 moves
    for name, value in net.params.items():
        np.testing.assert_array_equal(loaded.params[name], value)
    assert [s.games for s in scores] == [2, 2]
    assert scores[1].line().startswith("vs mcts:4 ")
    # the command line evaluates a saved checkpoint without training
    assert az.main([TICTACTOE, "--load", ckpt, "--eval-random", "2", "--eval-mcts", "0", "--simulations", "4", "--actors", "1"]) == 0
    shown = capsys.readouterr().out
    assert "loaded " + ckpt + ": 2 rounds, 4 games" in shown and "vs uniform random: win " in shown and "\nround " not in shown


def test_wilson_interval():
    assert az.wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert az.wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert az.wilson(200, 200)[1] == 1.0


def test_refuses_hidden_information(capsys):
    # the search would see the cards it may not (OpenSpiel's MCTS reads the whole state)
    assert az.main([str(SPECS / "leduc-poker.yaml"), "--rounds", "1"]) == 1
    err = capsys.readouterr().err
    assert "two-player game of perfect information" in err and "Traceback" not in err


_STOCK = textwrap.dedent(
    """
    import json, sys
    import midgardc.research.openspiel_game as og
    from open_spiel.python.algorithms.alpha_zero import alpha_zero
    game = og.load_game(sys.argv[1])
    config = alpha_zero.Config(
        game=str(game), path=sys.argv[2], learning_rate=0.01, weight_decay=1e-4, decouple_weight_decay=False,
        train_batch_size=8, replay_buffer_size=32, replay_buffer_reuse=4, max_steps=2, checkpoint_freq=1,
        actors=1, evaluators=0, evaluation_window=4, eval_levels=2, uct_c=2.0, max_simulations=4,
        policy_alpha=1.0, policy_epsilon=0.25, temperature=1.0, temperature_drop=4, nn_model="mlp",
        nn_width=8, nn_depth=1, observation_shape=None, output_size=None, verbose=False, quiet=True)
    alpha_zero.alpha_zero(config)
    """
)


@pytest.mark.skipif(not LONG, reason="OpenSpiel's JAX AlphaZero (spawned processes, JIT): set MIDGARDC_LONG=1")
def test_stock_openspiel_alphazero_runs_two_steps(tmp_path):
    pytest.importorskip("flax", reason="OpenSpiel's AlphaZero needs JAX and Flax: pip install -e '.[alphazero]'")
    # its own process: OpenSpiel's module forces the 'spawn' start method on import
    run = subprocess.run([sys.executable, "-c", _STOCK, TICTACTOE, str(tmp_path)], capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-4000:]
    steps = [json.loads(line)["step"] for line in (tmp_path / "learner.jsonl").read_text().splitlines()]
    assert steps == [1, 2]


def test_buffer_keeps_the_newest_positions():
    buf = az.Buffer(3)
    buf.add(x=np.arange(5, dtype=np.float32)[:, None], z=np.arange(5, dtype=np.float32))
    assert buf.size == 3 and sorted(buf.rows["x"][:, 0]) == [2, 3, 4]
    sample = buf.sample(50, np.random.default_rng(0))
    assert set(sample["z"]) == {2.0, 3.0, 4.0} and (sample["x"][:, 0] == sample["z"]).all()
