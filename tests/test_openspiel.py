"""Every spec as an OpenSpiel game (midgardc.research.openspiel): OpenSpiel's own consistency
test with serialization, its MCTS bot through the adapter, and the native tic_tac_toe and
connect_four games against the specs move for move.

Default cost: each spec's default player count, 1 random simulation; MIDGARDC_LONG=1 runs
every variant and player count with more simulations, and 1,000 native-comparison games."""

from __future__ import annotations

import json
import os
import pickle
import random
import subprocess
import sys

import pytest

pyspiel = pytest.importorskip("pyspiel")

from conftest import SPECS  # noqa: E402
from midgardc.research.openspiel import load_game  # noqa: E402
from midgardc.spec.lower import list_player_counts, list_variants  # noqa: E402

LONG = bool(os.environ.get("MIDGARDC_LONG"))
ALL_SPECS = sorted(str(p) for p in list(SPECS.glob("*.yaml")) + list(SPECS.glob("classics/*.yaml")))
TICTACTOE = str(SPECS / "classics" / "tic-tac-toe.yaml")
CONNECT4 = str(SPECS / "classics" / "connect-four.yaml")
MIDGARD = str(SPECS / "midgard.yaml")


def _cases():
    for spec in ALL_SPECS:
        name = os.path.basename(spec)
        if not LONG:
            yield pytest.param(spec, None, None, id=name)
            continue
        for variant in [None, *list_variants(spec)]:
            for n in list_player_counts(spec, variant) or (None,):
                yield pytest.param(spec, variant, n, id=f"{name}-{variant or 'base'}-{n or 'default'}")


@pytest.mark.parametrize("spec,variant,players", list(_cases()))
def test_random_sim_test(spec, variant, players):
    game = load_game(spec, variant, players)
    # one whole random game per spec, serialised at every state (Micro Midgard's two took
    # 36 s); ten per variant and count in the long run (MIDGARDC_LONG=1)
    pyspiel.random_sim_test(game, num_sims=10 if LONG else 1, serialize=True, verbose=False)


def test_game_string_round_trip_and_action_ids():
    game = load_game(MIDGARD)
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    state = game.new_initial_state()
    mstate = state.mstate
    assert state.legal_actions() == sorted(mstate.legal_move_ids())
    a = state.legal_actions()[3]
    assert state.action_to_string(state.current_player(), a) == mstate.game.move_text(a)
    assert game.num_distinct_actions() == mstate.game.ir.n_action_moves


def test_dice_are_chance_nodes_with_exact_probabilities():
    game = load_game(str(SPECS / "magic-mids.yaml"))
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    state = game.new_initial_state()
    while not state.is_chance_node():
        state.apply_action(random.Random(0).choice(state.legal_actions()))
    outcomes = state.chance_outcomes()
    ir = state.mstate.game.ir
    assert [p for _, p in outcomes] == [w / ir.chance.n_draws for w in ir.chance.weights]
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-12
    assert game.max_chance_outcomes() == len(ir.chance.outcomes)


def test_hidden_zones_give_imperfect_information_strings():
    game = load_game(str(SPECS / "midgard-vikings.yaml"))
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    state = game.new_initial_state()
    for p in range(game.num_players()):
        seen = json.loads(state.information_state_string(p))
        truth = state.mstate.zones()
        hidden = [(z, o) for z, owners in seen["zones"].items() for o, e in owners.items() if e["items"] is None and e["size"] > 0]
        assert hidden  # something of the start is out of this player's sight...
        assert all(truth[z][o] for z, o in hidden)  # ...though the truth holds items there
        own = {z.name for z in game.mgame.ir.zones.zones if z.per_player and z.visible == "owner"}
        assert own and not [(z, o) for z, o in hidden if z in own and o == game.mgame.ir.players[p]]  # its own are seen
    assert state.observation_string(0) == state.mstate.observation_string(0).replace(',"moves":[]', "")


def _mcts(game, seed, sims):
    from open_spiel.python.algorithms.mcts import MCTSBot, RandomRolloutEvaluator

    rng = __import__("numpy").random.RandomState(seed)
    return MCTSBot(game, uct_c=2, max_simulations=sims, evaluator=RandomRolloutEvaluator(1, rng), random_state=rng)


def test_mcts_bot_plays_tic_tac_toe_through_the_adapter():
    game = load_game(TICTACTOE)
    for seed in range(2):
        bot = _mcts(game, seed, 200)
        state = game.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.current_player() == 0:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        assert state.returns()[0] >= 0  # 200-simulation MCTS never loses to random play from the start


def test_mcts_bot_plays_midgard_through_the_adapter():
    game = load_game(MIDGARD)
    bot = _mcts(game, 0, 8)
    state = game.new_initial_state()
    plies = 0
    while not state.is_terminal() and plies < 12:
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        plies += 1
    assert plies == 12 or state.is_terminal()


@pytest.mark.parametrize("spec", ALL_SPECS, ids=os.path.basename)
def test_games_and_states_pickle(spec):
    # OpenSpiel's AlphaZero hands the game to its worker processes by pickle
    game = load_game(spec, engine="interpreted")
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and again.num_distinct_actions() == game.num_distinct_actions()
    a, b = game.new_initial_state(), again.new_initial_state()
    rng = random.Random(3)
    for _ in range(6):
        if a.is_terminal():
            break
        assert str(a) == str(b) and a.legal_actions() == b.legal_actions()
        action = rng.choice([o for o, _ in a.chance_outcomes()] if a.is_chance_node() else a.legal_actions())
        a.apply_action(action)
        b.apply_action(action)
    copied = pickle.loads(pickle.dumps(a))
    assert copied.history() == a.history() and str(copied) == str(a)
    assert copied.legal_actions() == a.legal_actions() and copied.is_terminal() == a.is_terminal()


def test_a_pickled_game_loads_in_a_fresh_process_and_the_import_registers():
    # a worker process unpickles the game before anything imports midgardc; and the
    # game type is registered by importing midgardc.openspiel (OpenSpiel has no entry points)
    game = load_game(TICTACTOE, engine="interpreted")
    state = game.new_initial_state()
    state.apply_action(4)
    code = (
        "import pickle, sys\n"
        "game, state = pickle.loads(sys.stdin.buffer.read())\n"
        "print(game.new_initial_state().legal_actions(), state.history())\n"
        "import pyspiel, midgardc.openspiel\n"
        "print(pyspiel.load_game(sys.argv[1]).num_distinct_actions())\n"
    )
    out = subprocess.run([sys.executable, "-c", code, str(game)], input=pickle.dumps((game, state)), capture_output=True, check=True)
    assert out.stdout.decode().split("\n")[:2] == [str(list(range(9))) + " [4]", "9"]


def test_max_game_length_is_the_declared_horizon():
    # OpenSpiel counts decisions: Connect Four's 42 cells; without a horizon, the safety stop
    assert load_game(CONNECT4, engine="interpreted").max_game_length() == pyspiel.load_game("connect_four").max_game_length() == 42
    game = load_game(MIDGARD, engine="interpreted")
    assert game.mgame.ir.horizon is None and game.max_game_length() == game.mgame.ir.max_plies


# -- the native games, move for move ---------------------------------------------------------


def _ttt_native(text: str) -> int:
    """a3 (the spec's top left) -> OpenSpiel's action row * 3 + col, row 0 at the top."""
    return (3 - int(text[1])) * 3 + "abc".index(text[0])


def _c4_native(text: str) -> int:
    """The spec's drop written by its landing cell (d1) -> OpenSpiel's column (3)."""
    return "abcdefg".index(text[0])


@pytest.mark.parametrize("spec,native,translate", [(TICTACTOE, "tic_tac_toe", _ttt_native), (CONNECT4, "connect_four", _c4_native)], ids=["tic-tac-toe", "connect-four"])
def test_native_game_agrees(spec, native, translate):
    ours, theirs = load_game(spec), pyspiel.load_game(native)
    rng = random.Random(14)
    ends = set()
    for _ in range(1000 if LONG else 100):
        a, b = ours.new_initial_state(), theirs.new_initial_state()
        while not b.is_terminal():
            assert not a.is_terminal()
            assert a.current_player() == b.current_player()
            mapped = {translate(a.action_to_string(a.current_player(), m)): m for m in a.legal_actions()}
            assert sorted(mapped) == b.legal_actions()
            native_action = rng.choice(b.legal_actions())
            b.apply_action(native_action)
            a.apply_action(mapped[native_action])
        assert a.is_terminal()
        assert a.returns() == b.returns()
        ends.add(tuple(b.returns()))
    assert len(ends) >= 2  # both wins and another result were reached


@pytest.mark.parametrize("spec", [TICTACTOE, str(SPECS / "magic-mids.yaml")], ids=["tic-tac-toe", "magic-mids"])
def test_interpreted_engine_behind_the_adapter_gives_the_same_games(spec):
    comp, interp = load_game(spec), load_game(spec, engine="interpreted")
    pyspiel.random_sim_test(interp, num_sims=1, serialize=True, verbose=False)
    rng = random.Random(2)
    a, b = comp.new_initial_state(), interp.new_initial_state()
    while not a.is_terminal():
        if a.is_chance_node():
            assert a.chance_outcomes() == b.chance_outcomes()
            action = rng.choice([o for o, _ in a.chance_outcomes()])
        else:
            assert a.legal_actions() == b.legal_actions()
            p = a.current_player()
            assert a.observation_tensor(p) == b.observation_tensor(p)
            assert a.information_state_string(p) == b.information_state_string(p)
            action = rng.choice(a.legal_actions())
        a.apply_action(action)
        b.apply_action(action)
    assert b.is_terminal() and a.returns() == b.returns()
