"""Generic checks on every game under specs/ (OpenSpiel's basic_tests.h, for midgardc).

Every spec, variant and player count, on both back ends, plays a few random games through
the public State API, and at every step the API must hold together: the JSON of a state
has the fields DESIGN.md promises and survives a JSON round trip; every legal move's text
leads back to its id; a roll's outcome probabilities sum to 1; a clone is independent of
its original; an illegal move is refused without changing anything; the result agrees
with the returns; and replaying the moves from the start gives the same final state (the
serialization round trip). Nothing here knows any particular game: a new spec is checked
the moment it appears under specs/.
"""

from __future__ import annotations

import json
import math
import os

import pytest

from conftest import SPECS
from midgardc.compiler import build
from midgardc.errors import MoveError
from midgardc.ir.nodes import CHANCE
from midgardc.runtime.game import State, replay
from midgardc.engines import load
from midgardc.runtime.playthrough import Target, golden_targets
from midgardc.runtime.rng import Rng, derive_seed

TARGETS = golden_targets(build.spec_files(str(SPECS)))
GAMES = 2  # per target and engine; each game is checked at every step
# Specs whose random games run to hundreds of plies with hundreds of moves each (every
# step's moves are checked): their games are checked over their first plies only, without
# the end's checks (tests/test_shogi.py plays its games to their ends)
MAX_STEPS = {"shogi.yaml": 60}
SEED = 20_251_121

_games: dict = {}


def game_of(target: Target, engine: str):
    key = (target, engine)
    if key not in _games:
        _games[key] = load(target.spec, target.variant, engine=engine, n_players=target.count)
    return _games[key]


def target_id(target: Target) -> str:
    return target.golden_name(str(SPECS))[: -len(".txt")]


def check_json(state: State) -> dict:
    """The fields DESIGN.md promises for ``replay --json``, consistent with the State API."""
    game, ir = state.game, state.game.ir
    data = state.to_json()
    assert json.loads(json.dumps(data)) == data  # plain JSON: no tuples, no objects
    assert list(data["board"]) == list(ir.board.cell_names)
    for v in data["board"].values():  # empty, a player's piece, or a stack: its owner and height
        assert v is None or v in ir.players or (set(v) == {"owner", "height"} and v["owner"] in ir.players and v["height"] >= 1), v
    assert [p["name"] for p in data["players"]] == list(ir.players)
    assert [list(p["score"].values()) for p in data["players"]] == [list(k) for k in state.keys()]
    assert data["terminal"] is state.is_terminal()
    assert data["ply"] == state.ply()
    assert data["moves"] == state.texts
    if not game.compound:  # (a compound move is written in its position: State.texts)
        assert state.texts == [game.move_text(m) for m in state.history]
    if state.is_terminal():
        assert data["current"] is None
        winner = state.winner()
        assert data["winner"] == ("draw" if winner is None else ir.players[winner])
    else:
        assert data["current"] == ir.players[state.turn_player()] == state.current_player_name()
        assert data["winner"] is None
    for p, name in enumerate(ir.players):
        obs = state.observation(p)
        assert obs["observer"] == name
        assert json.loads(json.dumps(obs)) == obs
        assert {"board", "current", "terminal"} <= set(obs)
    return data


def check_moves(state: State) -> None:
    """Legal moves: ids in range, texts distinct and each leading back to its id; at a
    roll, the outcomes with probabilities summing to 1."""
    game, ir = state.game, state.game.ir
    legal = state.legal_moves()
    assert [m.id for m in legal] == state.legal_move_ids()
    assert len({m.id for m in legal}) == len(legal) == len({m.text for m in legal})
    for m in legal:
        assert 0 <= m.id < ir.n_moves
        assert state.move_text(m.id) == m.text
        if not game.compound:  # (a compound move's text needs its position: State.move_text)
            assert game.move_text(m.id) == m.text
            assert game.move_id(m.text) == m.id
    # State.resolve checks legality against the whole list, so asking it of every move of a
    # roll with hundreds of outcomes is quadratic: every move where there are few, else a
    # spread of 32 (the first and the last among them)
    step = max(1, len(legal) // 32)
    for m in legal[::step] + legal[-1:]:
        assert state.resolve(m.text) == m.id
    if state.is_terminal():
        assert legal == []  # who is to move at the end: test_a_finished_game_offers_no_roll
        return
    player = state.current_player()
    assert legal, "a live state without a legal move"
    if state.is_chance_node():
        assert player == CHANCE
        weights = state.chance_weights()
        assert [m for m, _ in weights] == legal
        assert all(w > 0 for _, w in weights)
        total = sum(w for _, w in weights)
        if getattr(ir.chance, "keep", None) is None:
            assert total == ir.chance.n_draws
        else:  # a partial roll (chance.keep) throws only the dice not kept: faces ** thrown
            assert any(total == len(ir.chance.faces) ** k for k in range(1, ir.chance.dice + 1)), total
        assert math.isclose(math.fsum(p for _, p in state.chance_outcomes()), 1.0, rel_tol=0, abs_tol=1e-12)
    else:
        assert 0 <= player < ir.n_players
        assert state.chance_weights() == [] == state.chance_outcomes()


def check_clone(state: State, data: dict, rng: Rng) -> None:
    """A clone moves on alone: the original's state, legal moves and history stay put."""
    legal = state.legal_move_ids()
    copy = state.clone()
    copy.apply(legal[rng.below(len(legal))])
    if not copy.is_terminal():
        copy.apply_unchecked(copy.legal_move_ids()[0])
    assert state.to_json() == data
    assert state.legal_move_ids() == legal
    assert copy.history[: len(state.history)] == state.history and len(copy.history) > len(state.history)


def check_illegal(state: State, data: dict) -> None:
    """A move that is not legal here is refused with MoveError and changes nothing."""
    legal = set(state.legal_move_ids())
    illegal = next((m for m in range(state.game.ir.n_moves) if m not in legal), None)
    if illegal is None:
        return
    with pytest.raises(MoveError):
        state.apply(illegal)
    with pytest.raises(MoveError):
        state.apply(state.game.move_text(illegal))
    assert state.to_json() == data


def check_end(state: State, seed: int) -> None:
    ir = state.game.ir
    winner = state.winner()
    returns = state.returns()
    # returns from ranks (runtime/results.py): the k leaders get n/k - 1 each, the others -1
    # (a sole winner n - 1; a draw or a stopped game 0 for all); zero-sum
    n = ir.n_players
    assert math.isclose(math.fsum(returns), 0.0, abs_tol=1e-9)
    if ir.returns is not None:  # returns: a payoff counter (chips) within the spec's bounds
        i = ir.returns.counter
        assert returns == [float(state.core.counters[p][i]) for p in range(n)] or state.core.ply_limited
        assert all(ir.returns.lo <= r <= ir.returns.hi for r in returns)
        returns = []  # (the rank-derived checks below are for specs without returns:)
    leaders = [p for p, r in enumerate(returns) if r > -1.0]
    assert all(math.isclose(returns[p], n / len(leaders) - 1) for p in leaders)
    assert all(r == -1.0 for p, r in enumerate(returns) if p not in leaders)
    if winner is not None and returns:
        assert leaders == [winner] and returns[winner] == n - 1
    with pytest.raises(MoveError, match="over"):
        state.apply(state.game.move_text(0))
    # the serialization round trip: the moves in notation rebuild the same final state
    again = replay(state.game, state.texts, seed)
    assert again.to_json() == state.to_json()
    assert again.is_terminal() and again.returns() == state.returns()


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
@pytest.mark.parametrize("target", TARGETS, ids=target_id)
def test_random_games_keep_the_state_api_consistent(target: Target, engine: str) -> None:
    game = game_of(target, engine)
    for g in range(GAMES):
        seed = derive_seed(SEED, g)
        rng = Rng(seed)
        state = game.new_state(seed)
        steps = 0
        cap = MAX_STEPS.get(os.path.basename(target.spec))
        while not state.is_terminal():
            if cap is not None and steps >= cap:
                break
            data = check_json(state)
            check_moves(state)
            check_clone(state, data, rng)
            if steps % 5 == 0:
                check_illegal(state, data)
            if state.is_chance_node():
                state.sample_chance()
            else:
                legal = state.legal_move_ids()
                state.apply(legal[rng.below(len(legal))])
            steps += 1
        check_json(state)
        check_moves(state)
        if state.is_terminal():
            check_end(state, seed)


CHANCE_TARGETS = [t for t in TARGETS if load(t.spec, t.variant, engine="interpreted", n_players=t.count).ir.chance is not None]


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
@pytest.mark.parametrize("target", CHANCE_TARGETS, ids=target_id)
def test_a_finished_game_offers_no_roll(target: Target, engine: str) -> None:
    game = game_of(target, engine)
    state = game.new_state(SEED)
    rng = Rng(SEED)
    while not state.is_terminal():
        if state.is_chance_node():
            state.sample_chance()
        else:
            legal = state.legal_move_ids()
            state.apply_unchecked(legal[rng.below(len(legal))])
    data = state.to_json()
    assert state.current_player() == -1
    assert not state.is_chance_node()
    assert state.chance_weights() == [] == state.chance_outcomes()
    assert data["chance"] is False
    with pytest.raises(MoveError, match="over"):
        state.sample_chance()
    assert state.to_json() == data
