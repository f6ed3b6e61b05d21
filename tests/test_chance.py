"""The chance player: dice declared in a spec, rolled at the start of every turn.

tests/data/dice.yaml (three players, two five-faced dice read as a multiset; variant
'ordered': two players, ordered dice) is played by both back ends: the same seed gives
the same rolls and moves, perft counts each outcome as a branch, and a recorded game
(rolls included) replays to the same result.
"""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from conftest import ENGINES, get_game
from midgardc.errors import MoveError
from midgardc.ir.chance import chance_tables
from midgardc.ir.nodes import CHANCE
from midgardc.matches import run_match
from midgardc.players.registry import parse_players
from midgardc.runtime.game import perft, replay
from midgardc.runtime.results import summarize_core
from midgardc.runtime.interpreter import random_move
from midgardc.runtime.rng import Rng, derive_seed

DICE = str(Path(__file__).parent / "data" / "dice.yaml")
VARIANTS = [None, "ordered"]
SEED = 31_337
GAMES = 1000


def _interpreter_games(engine, n: int, seed: int) -> tuple[list[list[int]], dict]:
    """Games 0..n-1 of ``playouts(n, seed)`` on the interpreter, keeping their moves."""
    traces, stats = [], None
    for i in range(n):
        game_seed = derive_seed(seed, i)
        core = engine.new_core(game_seed)
        rng = Rng(game_seed)
        moves = []
        while not core.terminal:
            move = random_move(core, rng)
            core.apply(move)
            moves.append(move)
        traces.append(moves)
        stats = summarize_core(engine.ir, core, stats)
    return traces, stats


# --------------------------------------------------------------------------- two back ends


@pytest.mark.parametrize("variant", VARIANTS)
def test_both_engines_play_the_same_random_games_rolls_included(variant) -> None:
    interp = get_game(DICE, variant).engine
    comp = get_game(DICE, variant, "compiled").engine
    traces, stats = _interpreter_games(interp, GAMES, SEED)
    base = interp.ir.chance.base
    rolls = sum(1 for t in traces for m in t if m >= base)
    assert rolls > GAMES * 5  # every turn opens with a roll
    for i, trace in enumerate(traces):
        assert comp.playout_trace(derive_seed(SEED, i)) == trace, f"game {i}"
    assert comp.playouts(GAMES, SEED) == stats
    assert interp.playouts(GAMES, SEED) == stats


@pytest.mark.parametrize("variant", VARIANTS)
def test_perft_counts_each_outcome_as_a_branch_in_both_engines(variant) -> None:
    interp, comp = get_game(DICE, variant), get_game(DICE, variant, "compiled")
    outcomes = len(interp.ir.chance.outcomes)
    assert outcomes == (25 if variant else 15)
    assert perft(interp.new_state(), 1) == outcomes
    for depth in range(4):
        assert comp.engine.perft(depth) == perft(interp.new_state(), depth)
    # by hand, depth 2: after each roll, the player's moves (3 empty cells per column shown)
    state = interp.new_state()
    by_hand = 0
    for move in state.legal_moves():
        child = state.clone()
        child.apply(move)
        by_hand += len(child.legal_moves())
    assert perft(interp.new_state(), 2) == by_hand


@pytest.mark.parametrize("engine", ENGINES)
def test_the_same_seed_rolls_the_same_dice_in_both_engines(engine) -> None:
    game = get_game(DICE, None, engine)
    other = get_game(DICE, None, "interpreted")
    for seed in (0, 1, 2**63 + 5):
        a, b = game.new_state(seed), other.new_state(seed)
        assert [a.sample_chance().text for _ in range(1)] == [b.sample_chance().text]
        # a clone carries the chance stream along: it rolls what the original would
        a.apply(a.legal_moves()[0])
        b.apply(b.legal_moves()[0])
        clone = a.clone()
        assert clone.sample_chance() == a.sample_chance() == b.sample_chance()


# --------------------------------------------------------------------------- the API


@pytest.mark.parametrize("engine", ENGINES)
def test_a_chance_node_lists_outcomes_with_their_probabilities(engine) -> None:
    game = get_game(DICE, None, engine)
    state = game.new_state(7)
    assert state.current_player() == CHANCE and state.is_chance_node()
    assert state.current_player_name() == "red"  # whose turn the roll opens
    outcomes = state.chance_outcomes()
    probs = {m.text: p for m, p in outcomes}
    assert list(probs)[:3] == ["roll:1-1", "roll:1-2", "roll:1-3"] and list(probs)[-1] == "roll:S-S"
    assert probs["roll:1-1"] == pytest.approx(1 / 25) and probs["roll:2-S"] == pytest.approx(2 / 25)
    assert sum(probs.values()) == pytest.approx(1.0)
    assert [m for m, _ in outcomes] == state.legal_moves()
    weights = dict((m.text, w) for m, w in state.chance_weights())
    assert sum(weights.values()) == 25
    state.apply("roll:2-S")
    assert not state.is_chance_node() and state.current_player() == 0
    assert state.chance_outcomes() == [] and state.roll() == ["2", "S"]


def test_multiset_tables_are_the_multinomial_counts() -> None:
    outcomes, weights, draw_outcome = chance_tables(6, 3, False)
    assert len(outcomes) == 56 and sum(weights) == 216
    counts = {o: w for o, w in zip(outcomes, weights)}
    assert counts[(0, 0, 0)] == 1 and counts[(0, 0, 3)] == 3 and counts[(0, 3, 5)] == 6
    assert all(list(o) == sorted(o) for o in outcomes)
    assert outcomes[draw_outcome[5 * 36 + 0 * 6 + 3]] == (0, 3, 5)  # throw 5, 0, 3 -> sorted
    ordered, ow, od = chance_tables(6, 3, True)
    assert len(ordered) == 216 and set(ow) == {1} and list(od) == list(range(216))


@pytest.mark.parametrize("engine", ENGINES)
def test_sampled_rolls_follow_the_outcome_probabilities(engine) -> None:
    state = get_game(DICE, None, engine).new_state(2024)
    weights = {m.id: w for m, w in state.chance_weights()}
    n = 25_000
    seen: Counter = Counter()
    for _ in range(n):
        seen[state.core.sample_chance()] += 1  # draws only: the state stays at its chance node
    for move, w in weights.items():
        expected = n * w / 25
        assert abs(seen[move] - expected) < 5 * (expected ** 0.5) + 5


@pytest.mark.parametrize("engine", ENGINES)
def test_the_roll_is_readable_in_conditions(engine) -> None:
    game = get_game(DICE, None, engine)
    state = replay(game, ["roll:2-S"])
    assert sorted(m.text for m in state.legal_moves()) == ["b1", "b2", "b3"]  # column 2
    state = replay(game, ["roll:1-4"])
    assert sorted(m.text for m in state.legal_moves()) == ["a1", "a2", "a3", "d1", "d2", "d3"]
    state = replay(game, ["roll:S-S"])
    assert len(state.legal_moves()) == 12  # a pair of stars: anywhere
    # score += face_value(die(0)) + 10 * rolled(star) - face_value(die(1)) % 3
    state = replay(game, ["roll:2-S", "b1"])
    assert state.scores()["red"]["score"] == 2 + 10 - 4 % 3
    ordered = get_game(DICE, "ordered", engine)
    state = replay(ordered, ["roll:S-2", "b1"])  # ordered: die(0) is the star
    assert state.scores()["red"]["score"] == 4 + 10 - 2 % 3


@pytest.mark.parametrize("engine", ENGINES)
def test_a_player_without_a_move_after_the_roll_passes_and_the_game_goes_on(engine) -> None:
    game = get_game(DICE, None, engine)
    ir = game.ir
    state = game.new_state(3)
    board = [0] * ir.board.n_cells
    column = dict(ir.board.props)["column"]
    for c in range(ir.board.n_cells):
        if column[c] == 1:
            board[c] = ir.piece_id(1, 0)  # column 1 is full of blue stones
    state.core.load(board, [list(h) for h in ir.hand_init], current=0, ply=4)
    assert state.is_chance_node() and state.current_player_name() == "red"
    state.apply("roll:1-1")  # only column 1: red cannot move, passes
    assert state.is_chance_node() and state.current_player_name() == "blue"
    assert state.ply() == 5 and state.core.passes == 1
    state.apply("roll:1-1")
    state.apply("roll:1-1")  # everyone passed once: with dice that does not end the game
    assert not state.is_terminal() and state.current_player_name() == "red"
    assert state.ply() == 7 and state.core.passes == 3
    state.apply("roll:1-3")
    assert sorted(m.text for m in state.legal_moves()) == ["c1", "c2", "c3"]


@pytest.mark.parametrize("engine", ENGINES)
def test_replay_rejects_a_move_where_a_roll_is_due(engine) -> None:
    game = get_game(DICE, None, engine)
    with pytest.raises(MoveError, match=r"move 3 \(c3\): 'c3' is not legal here: a roll is due.*legal moves here: roll:1-1 roll:1-2"):
        replay(game, ["roll:2-4", "b2", "c3"])
    with pytest.raises(MoveError, match=r"move 1 \(roll:4-7\): 'roll:4-7' is not a move"):
        replay(game, ["roll:4-7"])
    # a multiset roll may be written in any order; it is recorded in face order
    assert replay(game, ["roll:4-1"]).to_json()["moves"] == ["roll:1-4"]
    assert replay(get_game(DICE, "ordered", engine), ["roll:4-1"]).to_json()["moves"] == ["roll:4-1"]  # as thrown
    with pytest.raises(MoveError, match=r"'roll:4-1-1' is not a move"):
        replay(game, ["roll:4-1-1"])  # two dice, not three
    with pytest.raises(MoveError, match="no roll is due"):
        replay(game, ["roll:2-4"]).sample_chance()


# --------------------------------------------------------------------------- matches and records


@pytest.mark.parametrize("engine", ENGINES)
def test_recorded_rolls_replay_to_the_recorded_result(tmp_path: Path, engine) -> None:
    game = get_game(DICE, None, engine)
    record = tmp_path / "dice.jsonl"
    run_match(game, DICE, parse_players("random,greedy,random"), games=3, seed=8, record=str(record))
    lines = [json.loads(x) for x in record.read_text().splitlines() if x.strip()]
    lines = [x for x in lines if "moves" in x]
    assert len(lines) == 3
    for line in lines:
        moves = line["moves"]
        rolls = [m for m in moves if m.startswith("roll:")]
        assert rolls and moves[0].startswith("roll:")
        state = replay(game, moves, line["game_seed"])
        assert state.is_terminal()
        assert line["result"]["plies"] == state.ply()
        assert line["result"]["keys"] == state.scores()
        # replayed on the other back end too
        other = get_game(DICE, None, "compiled" if engine == "interpreted" else "interpreted")
        assert replay(other, moves).to_json() == state.to_json()


def test_both_engines_play_the_same_match_with_dice() -> None:
    players = parse_players("random,greedy,random")
    interpreted = run_match(get_game(DICE), DICE, players, games=6, seed=5)
    compiled = run_match(get_game(DICE, None, "compiled"), DICE, players, games=6, seed=5)
    assert compiled.tally.summary() == interpreted.tally.summary()


@pytest.mark.parametrize("engine", ENGINES)
def test_json_shows_the_roll_and_whether_one_is_due(engine) -> None:
    game = get_game(DICE, None, engine)
    state = replay(game, ["roll:3-S"])
    out = state.to_json()
    assert out["roll"] == ["3", "S"] and out["chance"] is False and out["current"] == "red"
    state.apply("c2")
    out = state.to_json()
    assert out["chance"] is True and out["current"] == "blue" and out["moves"] == ["roll:3-S", "c2"]
    assert "  roll: 3-S" in str(replay(game, ["roll:3-S"]))
    assert "last roll: 3-S" in str(state) and "blue to move (roll due)" in str(state)


def test_probabilities_are_exact_fractions_of_the_throws() -> None:
    state = get_game(DICE).new_state()
    total = sum(Fraction(w, 25) for _, w in state.chance_weights())
    assert total == 1
