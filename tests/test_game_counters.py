"""Game counters, counter visibility and next_turn (tests/data/phases.yaml), in both back ends.

A game counter is one number for the whole game (a round, a phase), read by its bare name;
`next_turn` hands the turn to a chosen player, which is how rounds that change the seat
order (a first player by bid, a reversed draft) are written as data.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ENGINES, get_game
from midgardc.errors import SpecError
from midgardc.runtime.game import replay
from midgardc.spec.lower import load_game_ir

PHASES = str(Path(__file__).parent / "data" / "phases.yaml")


def counters(state) -> dict:
    return state.to_json()["counters"]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_round_in_seat_order_then_the_next_one_backwards(engine) -> None:
    game = get_game(PHASES, None, engine)
    state = game.new_state()
    assert counters(state) == {"round": 1, "claims": 0, "bonus_used": 0}
    seen = []
    for move in ["b2", "c2", "b3"]:  # inner cells: no edge bonus
        seen.append(state.current_player_name())
        state.apply(move)
    assert seen == ["red", "green", "blue"]
    assert counters(state)["round"] == 2
    # round 2: all tied on points, so red opens; then backwards: blue, green
    seen = []
    for move in ["c3", "a1", "d4"]:
        seen.append(state.current_player_name())
        state.apply(move)
    assert seen == ["red", "blue", "green"]
    assert counters(state) == {"round": 3, "claims": 0, "bonus_used": 0}
    # round 3 (odd, in seat order): an edge claim's extra_turn gives red a second claim
    assert state.current_player_name() == "red"
    state.apply("d1")
    assert state.current_player_name() == "red"
    assert counters(state) == {"round": 3, "claims": 1, "bonus_used": 1}
    state.apply("a4")  # the bonus is once per round
    assert state.current_player_name() == "green"


@pytest.mark.parametrize("engine", ENGINES)
def test_next_turn_run_after_extra_turn_in_the_same_move_wins(engine) -> None:
    """Round 2 runs backwards: an edge claim's extra_turn (edge_bonus) is overridden by the
    backwards trigger's next_turn written after it."""
    game = get_game(PHASES, None, engine)
    state = replay(game, ["b2", "c2", "b3", "c3"])  # round 2: red has played; blue to move
    assert state.current_player_name() == "blue"
    state.apply("a1")  # edge: extra_turn, then backwards: next_turn(green)... but the bonus
    # is written first, so next_turn (green, two seats on from blue) decides
    assert state.current_player_name() == "green"


@pytest.mark.parametrize("engine", ENGINES)
def test_the_player_with_fewest_points_opens_a_round(engine) -> None:
    game = get_game(PHASES, None, engine)
    # round 1: red claims an edge cell (a bonus claim), so red 2, green 1, blue 1
    state = replay(game, ["a1", "b2", "c2", "b3"])
    assert [state.scores()[p]["points"] for p in ("red", "green", "blue")] == [21, 10, 10]
    assert counters(state)["round"] == 2
    assert state.current_player_name() == "green"  # fewest points, lowest seat of the tie


@pytest.mark.parametrize("engine", ENGINES)
def test_a_hidden_counter_is_a_counter_like_any_other_in_the_engine(engine) -> None:
    game = get_game(PHASES, None, engine)
    state = replay(game, ["a1"])
    red = state.to_json()["players"][0]["counters"]
    assert red == {"points": 1, "edge": 1}
    assert game.ir.counter_visible == ("all", "owner", "all", "all", "all")
    assert game.ir.counter_scope == ("player", "player", "game", "game", "game")


BASE = """midgardc: 1
game: {name: t, players: [a, b]}
pieces: {stone: {hand: 3}}
counters:
  round: {start: 1, of: game}
  score: 0
board: {topology: square, rows: 2, cols: 2}
actions:
  put:
    params: {c: cell}
    where: WHERE
    effects: EFFECTS
ranking: {score: "score(p)"}
"""


def lower(tmp_path, where: str = "empty(c)", effects: str = "[{place: {piece: stone, at: c}}]", counters: str = ""):
    text = BASE.replace("WHERE", where).replace("EFFECTS", effects)
    if counters:
        text = text.replace("  round: {start: 1, of: game}\n", counters)
    path = tmp_path / "t.yaml"
    path.write_text(text)
    return load_game_ir(str(path))


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"where": '"round(a) == 1"'}, "'round' is a game counter, one for the whole game: read it by its bare name, round"),
        ({"where": '"score == 1"'}, "'score' is a function; call it with arguments"),
        ({"effects": "[{set: {counter: round, of: a, to: 2}}]"}, "'round' is a game counter: it belongs to no player, so it takes no 'of'"),
        ({"counters": "  round: {start: 1, of: table}\n"}, "a counter is 'of' player or game, not 'table'"),
        ({"counters": "  round: {start: 1, of: game, visible: owner}\n"}, "a game counter has no owner: it is visible to 'all' or 'none'"),
        ({"counters": "  round: {start: 1, visible: some}\n"}, "a counter is visible to all, owner, none, not 'some'"),
        ({"counters": "  round: {begin: 1}\n"}, "unknown key 'begin' in counter 'round'"),
        ({"effects": "[{next_turn: {to: c}}]"}, "expected a player"),
        ({"effects": "[{next_turn: {}}]"}, "needs a 'to' key"),
    ],
)
def test_mistakes_are_refused_with_a_position(tmp_path, kwargs, message) -> None:
    with pytest.raises(SpecError) as err:
        lower(tmp_path, **kwargs)
    assert message in str(err.value)
    assert err.value.pos is not None and err.value.pos.line > 1


def test_game_counters_read_and_written(tmp_path) -> None:
    ir = lower(tmp_path, where='"empty(c) and round <= 2"', effects="[{place: {piece: stone, at: c}}, {add: {counter: round, to: 1}}]")
    assert ir.counter_init[-1] == (1, 0)  # the game's row: round 1 (score's cell unused)
    assert ir.counter_init[:2] == ((0, 0), (0, 0))
