"""The MCTS search in C (``midgardc/engine/generic.pyx``) against its plain Python twin
(``midgardc/players/mcts.py``): the same tree, the same draws and the same move, so a seed
plays the same game on both engines; with chance (Magic Mids, dice) and with hidden
information (Meridian, Vikings: the samples are dealt in C)."""

from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner

from conftest import MIDGARD, SPECS, get_game
from midgardc.cli import cli
from midgardc.players import parse_player
from midgardc.players.mcts import MctsPlayer, PyTreeMctsPlayer
from midgardc.players.view import PlayerView
from midgardc.runtime.game import replay
from midgardc.runtime.rng import Rng, derive_seed

TTT = str(SPECS / "classics" / "tic-tac-toe.yaml")
C4 = str(SPECS / "classics" / "connect-four.yaml")
MAGIC = str(SPECS / "magic-mids.yaml")
MERIDIAN = str(SPECS / "meridian.yaml")
VIKINGS = str(SPECS / "midgard-vikings.yaml")
DICE = str(SPECS.parent / "tests" / "data" / "dice.yaml")
CARDS = str(SPECS.parent / "tests" / "data" / "cards.yaml")


def _advance(state, rng: Rng, plies: int):
    """``plies`` uniformly random moves (rolls from the state's stream), then any roll due."""
    for _ in range(plies):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.sample_chance()
            continue
        legal = state.legal_move_ids()
        state.apply(legal[rng.below(len(legal))])
    while not state.is_terminal() and state.is_chance_node():
        state.sample_chance()
    return state


def _positions(game, seed: int) -> list:
    out = []
    for plies in (0, 4, 11):
        state = _advance(game.new_state(seed), Rng(seed + plies), plies)
        if not state.is_terminal():
            out.append(state)
    return out


@pytest.mark.parametrize(
    "spec, hidden",
    [(TTT, False), (C4, False), (MIDGARD, False), (MAGIC, False), (DICE, False), (MERIDIAN, True), (VIKINGS, True), (CARDS, True)],
    ids=lambda x: os.path.basename(x) if isinstance(x, str) else str(x),
)
def test_the_search_in_c_grows_the_python_twins_tree(spec: str, hidden: bool) -> None:
    game = get_game(spec, None, "compiled")
    assert hasattr(game.engine.module, "mcts_search") and hasattr(game.engine.module, "mcts_search_set")
    samples = 0
    for seed in (1, 2):
        for state in _positions(game, seed):
            view = PlayerView(state, state.current_player())
            samples += view.hides_something
            rng_c, rng_py = Rng(seed), Rng(seed)
            in_c = MctsPlayer(iterations=40).root_children(view, rng_c)
            twin = PyTreeMctsPlayer(iterations=40).root_children(view, rng_py)
            assert in_c == twin
            assert rng_c.state == rng_py.state != seed  # the same draws, and some were made
            total = sum(visits for _, visits, _ in in_c)
            assert total == 40 if not view.hides_something else 0 < total <= 40
            assert MctsPlayer(iterations=40).choose(view, Rng(seed + 9)) == PyTreeMctsPlayer(iterations=40).choose(view, Rng(seed + 9))
    assert (samples > 0) == hidden  # the information-set search (samples dealt in C) ran where it should


def test_rollouts_per_iteration_and_c_reach_the_search_in_c() -> None:
    state = _advance(get_game(MIDGARD, None, "compiled").new_state(0), Rng(4), 6)
    view = PlayerView(state, state.current_player())
    for params in ("iterations=30,rollouts=3", "iterations=30,c=1.5", "iterations=30,c=0"):
        new, old = parse_player("mcts:" + params).make(), parse_player("mcts-py:" + params).make()
        assert isinstance(old, PyTreeMctsPlayer) and not isinstance(new, PyTreeMctsPlayer)
        a, b = new.root_children(view, Rng(8)), old.root_children(view, Rng(8))
        assert a == b
        assert sum(visits for _, visits, _ in a) == 30 * new.rollouts


def _match_moves(spec: str, players: str, engine: str, games: int, seed: int, tmp_path) -> list:
    record = tmp_path / f"{engine}.jsonl"
    run = CliRunner().invoke(cli, ["match", spec, "--players", players, "--seed", str(seed), "--games", str(games), "--engine", engine, "--record", str(record)])
    assert run.exit_code == 0, run.output
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    return [(line["moves"], line["result"]) for line in lines]


@pytest.mark.parametrize(
    "spec, players, games",
    [(TTT, "mcts:200,random", 2), (C4, "mcts:200,random", 2), (MAGIC, "mcts:3,random", 1), (CARDS, "mcts:20,random", 2)],
    ids=["tic-tac-toe", "connect-four", "magic-mids", "cards-hidden"],
)
def test_a_match_plays_the_same_moves_on_both_engines(spec: str, players: str, games: int, tmp_path) -> None:
    interpreted = _match_moves(spec, players, "interpreted", games, 5, tmp_path)
    compiled = _match_moves(spec, players, "compiled", games, 5, tmp_path)
    assert interpreted == compiled and len(compiled) == games


def _play_on(state, iterations: int, seed: int) -> list[int]:
    """mcts in every seat from ``state`` to the end (rolls from the state's stream)."""
    players = [MctsPlayer(iterations=iterations) for _ in range(state.game.ir.n_players)]
    rngs = [Rng(derive_seed(seed, s)) for s in range(len(players))]
    moves = []
    while not state.is_terminal():
        if state.is_chance_node():
            moves.append(state.sample_chance())
            continue
        seat = state.current_player()
        move = players[seat].choose(PlayerView(state, seat), rngs[seat])
        state.apply(move)
        moves.append(move)
    return moves


def test_with_hidden_information_both_engines_play_the_same_end_of_a_game() -> None:
    """From a few moves before the end of a random Vikings game (interpreted rollouts are
    slow there), every seat's mcts plays on; full matches (Meridian too) are in the long
    suite."""
    spec, back = VIKINGS, 8
    interpreted = get_game(spec, None, "interpreted")
    seed = 3
    line = interpreted.engine.playout_trace(seed)
    start = [interpreted.move_text(m) for m in line[: max(0, len(line) - back)]]
    states = [replay(get_game(spec, None, engine), start, seed) for engine in ("interpreted", "compiled")]
    assert any(PlayerView(states[1], p).hides_something for p in range(states[1].game.ir.n_players))
    ends = [_play_on(state, 12, 11) for state in states]
    assert ends[0] == ends[1] and ends[0]
    assert states[0].keys() == states[1].keys() and states[0].is_terminal()


@pytest.mark.skipif(not os.environ.get("MIDGARDC_LONG"), reason="interpreted mcts games on Meridian and Vikings take minutes; set MIDGARDC_LONG=1")
@pytest.mark.parametrize("spec", [MERIDIAN, VIKINGS], ids=["meridian", "vikings"])
def test_long_a_hidden_information_match_is_the_same_on_both_engines(spec: str, tmp_path) -> None:
    n = get_game(spec, None, "compiled").ir.n_players
    players = ",".join(["mcts:20"] + ["random"] * (n - 1))
    assert _match_moves(spec, players, "interpreted", 1, 2, tmp_path) == _match_moves(spec, players, "compiled", 1, 2, tmp_path)


@pytest.mark.parametrize("spec", [MIDGARD, MAGIC, CARDS], ids=["midgard", "magic-mids", "cards-hidden"])
def test_the_node_pool_grows_and_keeps_the_same_tree(spec: str) -> None:
    # 700 iterations pass the pool's first 256 nodes (it doubles, states and untried moves too)
    game = get_game(spec, None, "compiled")
    state = _advance(game.new_state(2), Rng(6), 2)
    view = PlayerView(state, state.current_player())
    rng_c, rng_py = Rng(12), Rng(12)
    assert MctsPlayer(iterations=700).root_children(view, rng_c) == PyTreeMctsPlayer(iterations=700).root_children(view, rng_py)
    assert rng_c.state == rng_py.state
