"""The poker specs through the OpenSpiel adapter are OpenSpiel's own poker games: the deal
as chance nodes with exact probabilities (midgardc.research.deals), the same numbers of
information states as the native kuhn_poker and leduc_poker, and CFR finds Kuhn's value.

Cheap: OpenSpiel's consistency test, the trees' sizes, 50 CFR+ iterations on Kuhn (1-6 s).
MIDGARDC_LONG=1: CFR on Leduc through the adapter against the native game (20 iterations:
85 s to 8 minutes on this shared machine; see docs/research.md)."""

from __future__ import annotations

import os
import pickle

import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import cfr, exploitability, expected_game_score  # noqa: E402

from conftest import ENGINES, SPECS  # noqa: E402
from midgardc.research.openspiel import load_game  # noqa: E402

LONG = bool(os.environ.get("MIDGARDC_LONG"))
KUHN = str(SPECS / "kuhn-poker.yaml")
LEDUC = str(SPECS / "leduc-poker.yaml")


def tree(game) -> tuple[list[int], int]:
    """Information states per player (distinct information-state strings at that player's
    decisions) and the number of histories, by walking the whole tree."""
    sets: list[set] = [set() for _ in range(game.num_players())]
    nodes = 0

    def walk(s) -> None:
        nonlocal nodes
        nodes += 1
        if s.is_terminal():
            return
        if s.is_chance_node():
            assert abs(sum(p for _, p in s.chance_outcomes()) - 1) < 1e-12
            for a, _ in s.chance_outcomes():
                walk(s.child(a))
            return
        p = s.current_player()
        sets[p].add(s.information_state_string(p))
        for a in s.legal_actions():
            walk(s.child(a))

    walk(game.new_initial_state())
    return [len(x) for x in sets], nodes


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("spec", [KUHN, LEDUC], ids=["kuhn", "leduc"])
def test_random_sim_test(spec, engine):
    game = load_game(spec, engine=engine)
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)


def test_kuhn_deal_is_two_chance_nodes_with_exact_probabilities():
    # kuhn_poker.cc: "const double p = 1.0 / (num_players_ + 1 - history_.size())"
    game = load_game(KUHN)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert (game.min_utility(), game.max_utility()) == (-2.0, 2.0)  # kuhn_poker's
    s = game.new_initial_state()
    assert s.is_chance_node() and s.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    assert [s.action_to_string(pyspiel.PlayerId.CHANCE, a) for a in s.legal_actions()] == ["deal:J", "deal:Q", "deal:K"]
    s.apply_action(2)  # the first card dealt is a king
    assert s.chance_outcomes() == [(0, 1 / 2), (1, 1 / 2)]
    s.apply_action(0)
    assert s.current_player() == 0 and s.legal_actions() == [0, 1]  # pass, bet: kuhn_poker's ids
    assert s.mstate.zones()["cards"]["first"]["king"] == 1 and s.mstate.zones()["cards"]["second"]["jack"] == 1
    s.apply_action(1)
    s.apply_action(1)
    assert s.is_terminal() and s.returns() == [2.0, -2.0]
    again = pickle.loads(pickle.dumps(s))  # replayed from its actions, deal included
    assert again.history() == s.history() and again.returns() == s.returns()
    assert again.mstate.zones() == s.mstate.zones()


@pytest.mark.parametrize("engine", ENGINES)
def test_kuhn_tree_is_the_native_tree(engine):
    native = pyspiel.load_game("kuhn_poker")
    assert tree(load_game(KUHN, engine=engine)) == tree(native) == ([6, 6], 58)


def test_leduc_information_states_equal_the_native_games():
    # the public card is a third chance node, dealt after the first betting round
    native, game = pyspiel.load_game("leduc_poker"), load_game(LEDUC)
    ours, theirs = tree(game), tree(native)
    assert ours == theirs and ours[0] == [468, 468]
    assert (game.min_utility(), game.max_utility()) == (native.min_utility(), native.max_utility()) == (-13.0, 13.0)
    assert game.max_chance_outcomes() == native.max_chance_outcomes() == 6


def info_state_tensors(ours, native) -> list[tuple[tuple, tuple]]:
    """(native tensor, our tensor) of the player to move at every decision node, walking
    the two trees in step (the specs use the native games' action ids, deals included)."""
    pairs = []

    def walk(a, b) -> None:
        assert a.is_terminal() == b.is_terminal() and a.is_chance_node() == b.is_chance_node()
        if b.is_terminal():
            return
        if b.is_chance_node():
            assert a.chance_outcomes() == b.chance_outcomes()
        else:
            p = b.current_player()
            assert a.current_player() == p and a.legal_actions() == b.legal_actions()
            pairs.append((tuple(b.information_state_tensor(p)), tuple(a.information_state_tensor(p))))
        for action in b.legal_actions():
            walk(a.child(action), b.child(action))

    walk(ours.new_initial_state(), native.new_initial_state())
    return pairs


@pytest.mark.parametrize("spec,native,count", [(KUHN, "kuhn_poker", 12), (LEDUC, "leduc_poker", 936)], ids=["kuhn", "leduc"])
def test_information_state_tensors_partition_as_the_native_games(spec, native, count):
    # the observation would alias them (Leduc: 576 distinct observation tensors)
    game, theirs = load_game(spec), pyspiel.load_game(native)
    assert game.get_type().provides_information_state_tensor
    assert game.max_game_length() == theirs.max_game_length()
    pairs = info_state_tensors(game, theirs)
    ours_distinct, native_distinct = {o for _, o in pairs}, {n for n, _ in pairs}
    # one of ours per native information state and the other way round: the same partition
    assert len(ours_distinct) == len(native_distinct) == len(set(pairs)) == count
    assert {len(o) for o in ours_distinct} == {game.information_state_tensor_shape()[0]}


def test_a_spec_without_a_declared_memory_has_no_information_state_tensor():
    from midgardc.research.infostate import NoInformationState

    game = load_game(str(SPECS / "midgard-vikings.yaml"), engine="interpreted")
    assert not game.get_type().provides_information_state_tensor
    state = game.new_initial_state()
    with pytest.raises(NoInformationState, match="does not declare what a player remembers"):
        state.information_state_tensor(0)
    assert state.information_state_string(0)  # the string is still there
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()


def test_cfr_plus_finds_kuhns_value():
    game = load_game(KUHN)
    solver = cfr.CFRPlusSolver(game)
    for _ in range(50):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    value = expected_game_score.policy_value(game.new_initial_state(), [policy] * 2)
    assert abs(value[0] - (-1 / 18)) < 0.002 and abs(value[0] + value[1]) < 1e-9
    assert exploitability.exploitability(game, policy) < 0.01


@pytest.mark.skipif(not LONG, reason="CFR on Leduc through the adapter takes minutes; set MIDGARDC_LONG=1")
def test_cfr_on_leduc_matches_the_native_game():
    iterations = 20
    results = []
    for game in (pyspiel.load_game("leduc_poker"), load_game(LEDUC)):
        solver = cfr.CFRSolver(game)
        for _ in range(iterations):
            solver.evaluate_and_update_policy()
        results.append(exploitability.exploitability(game, solver.average_policy()))
    native, ours = results
    assert abs(ours - native) <= 0.01 * native, results


def test_pettingzoo_rewards_are_chips():
    # PettingZoo's rewards are the same returns: the payoff counter, in chips
    from pettingzoo.test import api_test

    from midgardc.research import pettingzoo_env

    api_test(pettingzoo_env(LEDUC), num_cycles=40, verbose_progress=False)
    env = pettingzoo_env(KUHN)
    seen = set()
    for seed in range(12):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            if terminated or truncated:
                seen.add(reward)
                env.step(None)
            else:
                env.step(int(obs["action_mask"].nonzero()[0][-1]))  # always bet
        assert sorted(env.state_.returns()) == [-2.0, 2.0]  # bet, call: a showdown for 2 chips
    assert seen == {-2.0, 2.0}
