"""`phases:`: the parts of a game or of a turn, each with its actions, who moves and what
comes next (docs/spec-language.md, "phases").

Two uses of the construct: tests/data/phase_rules.yaml (stages of a game, a bonus step of
the same turn, a turn of several moves ended by one action) and the specs that use it,
Nine Men's Morris (placing, moving, the removal after a mill) and Micro Midgard (the steps
of a turn). Both back ends play them the same (here and in test_differential.py); the
phase is part of the state, its JSON and a position; mistakes get one positioned message.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import SPECS, get_game
from midgardc.errors import SpecError
from midgardc.runtime.game import perft
from midgardc.spec.lower import load_game_ir

RULES = str(Path(__file__).parent / "data" / "phase_rules.yaml")
MORRIS = str(SPECS / "classics" / "nine-mens-morris.yaml")


def play(spec: str, engine: str, moves: list[str]):
    state = get_game(spec, None, engine).new_state()
    for text in moves:
        state.apply(text)
    return state


def phase_and_mover(state) -> tuple[str, str]:
    data = state.to_json()
    return data["counters"]["phase"], data["current"]


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_stages_and_steps_of_a_turn(engine):
    # placing: a stone off the corners passes the turn; a corner keeps it for one bonus move
    state = play(RULES, engine, [])
    assert phase_and_mover(state) == ("placing", "red")
    state = play(RULES, engine, ["b1"])
    assert phase_and_mover(state) == ("placing", "blue")
    state = play(RULES, engine, ["b1", "a1"])
    assert phase_and_mover(state) == ("bonus", "blue")  # first: same
    assert sorted(m.text for m in state.legal_moves()) == ["gift", "score"]  # only the phase's actions
    state.apply("score")
    assert phase_and_mover(state) == ("placing", "red")  # next: placing, the turn passes
    # the last stone placed on a corner: its bonus, then sliding begins with the other player
    state = play(RULES, engine, ["b1", "b2", "b3", "c2", "a2", "c3", "score"])
    assert phase_and_mover(state) == ("sliding", "red")
    # a sliding turn: several moves of one player (mover: same), ended only by `done`
    state.apply("b1-a1")
    assert phase_and_mover(state) == ("sliding", "red")
    state.apply("a1-c1") if "a1-c1" in [m.text for m in state.legal_moves()] else state.apply("a2-a3")
    assert phase_and_mover(state) == ("sliding", "red")
    assert all(m.text == "done" for m in state.legal_moves())  # two slides made
    state.apply("done")
    assert phase_and_mover(state) == ("sliding", "blue")  # first: next


def test_perft_counts_the_phases_alike_in_both_engines():
    # 9 placings; then 4 corners x 2 bonus moves + 5 other cells x 8 placings of blue
    counts = [perft(get_game(RULES, None, "interpreted").new_state(), d) for d in (1, 2, 3, 4)]
    assert counts == [9, 48, 244, 1128]
    assert [perft(get_game(RULES, None, "compiled").new_state(), d) for d in (1, 2, 3, 4)] == counts


def test_the_phase_is_an_enumeration_and_a_game_counter():
    ir = load_game_ir(RULES)
    assert dict(ir.enums)["phase"] == ("placing", "bonus", "sliding")
    i = ir.counters.index("phase")
    assert ir.counter_scope[i] == "game" and ir.counter_types[i] == "enum:phase"
    assert ir.counter_init[-1][i] == 0  # the first phase written


def test_the_phase_is_part_of_every_position():
    # Nine Men's Morris lists [board, turn, hands]: the phase (a man due to be taken)
    # joins them, so a position before and after a mill differs
    ir = load_game_ir(MORRIS)
    assert ir.counters.index("phase") in ir.history.counters


def test_morris_removal_is_a_step_of_the_same_turn():
    # white closes the mill a1-a4-a7 while placing: white takes a black man, then black
    # places (the phase `playing`, where a player places while men are in hand)
    state = play(MORRIS, "interpreted", ["a1", "d1", "a4", "d2", "a7"])
    assert phase_and_mover(state) == ("removing", "white")
    assert {m.text for m in state.legal_moves()} == {"xd1", "xd2"}
    state.apply("xd1")
    assert phase_and_mover(state) == ("playing", "black")
    assert state.legal_moves() and all("-" not in m.text for m in state.legal_moves())  # placings only


SPEC = """\
midgardc: 1
game: {name: t, players: [red, blue]}
pieces:
  stone: {hand: 3}
board: {topology: square, rows: 2, cols: 2}
phases:
  one:
    actions: [put]
    next: two
  two:
    actions: [pass_on]
    first: same
actions:
  put:
    params: {c: cell}
    where: empty(c)
    effects:
      - place: {piece: stone, at: c}
  pass_on:
    effects: []
ranking:
  stones: "count(c in cells: owner(c) == p)"
"""


@pytest.mark.parametrize(
    "old, new, line, col, message",
    [
        ("    actions: [put]\n", "    actions: [putt]\n", 8, 15, "unknown action 'putt' in phase 'one'"),
        ("    actions: [pass_on]\n", "    actions: [put]\n", 19, 3, "action 'pass_on' is in no phase"),
        ("    next: two\n", "    next: tow\n", 9, 11, "unknown name 'tow'"),
        ("    next: two\n", "    next: 3\n", 9, 11, "phase"),
        ("    first: same\n", "    first: red_player\n", 12, 12, "unknown name 'red_player'"),
        ("    first: same\n", "    first: same\n    after: put\n", 13, 12, "phase 'two' can only end after its own actions; 'put' is not one"),
        ("    next: two\n", "    next:\n      - {to: two}\n    until: true\n", 11, 5, "leave out 'until'"),
        ("    effects: []\n", "    effects: [{set: {counter: phase, to: one}}]\n", 20, 31, "the phase changes only as 'phases' says"),
        ("  two:\n", "  red:\n", 10, 3, "phase 'red' has the same name as another value"),
        ("    first: same\n", "    first: same\n    untill: true\n", 13, 5, "unknown key 'untill' in phase 'two'"),
        ("    actions: [pass_on]\n", "    actions: others\n    mover: same\n  three:\n    actions: others\n", 14, 14, "only one phase may take the actions no other phase lists"),
    ],
)
def test_mistakes_in_phases_are_reported_where_they_are(tmp_path, old, new, line, col, message):
    assert old in SPEC
    path = tmp_path / "t.yaml"
    path.write_text(SPEC.replace(old, new, 1))
    with pytest.raises(SpecError) as err:
        load_game_ir(str(path))
    text = str(err.value)
    assert text.startswith(f"{path}:{line}:{col}: error:"), text
    assert message in text


def test_the_example_spec_plays_without_phases_errors(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text(SPEC)
    ir = load_game_ir(str(path))
    assert [t.name for t in ir.triggers] == ["phases: one", "phases: two"]


PASSING = str(Path(__file__).parent / "data" / "phase_passing.yaml")


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_phases_without_actions_pass_in_the_move_that_enters_them(engine):
    # the fifth stone ends placing; scoring and clearing pass in the same move: red 3
    # corners, blue none, the board cleared, a round counted, placing again with red
    state = play(PASSING, engine, ["a1", "b2", "c1", "b1", "a3"])
    assert phase_and_mover(state) == ("placing", "red")
    data = state.to_json()
    assert data["counters"]["rounds"] == 1 and not any(data["board"].values())
    assert [p["counters"]["points"] for p in data["players"]] == [3, 0]
    # a tie (2 corners each): scoring leads to choosing, whose effects give blue the move
    state = play(PASSING, engine, ["a1", "a3", "c1", "c3", "b2"])
    assert phase_and_mover(state) == ("choosing", "blue")
    assert state.to_json()["counters"]["rounds"] == 0  # clearing has not come yet
    assert sorted(m.text for m in state.legal_moves()) == ["give", "take"]
    state.apply("give")
    assert phase_and_mover(state) == ("placing", "red")  # clearing passed, first: red
    assert [p["counters"]["points"] for p in state.to_json()["players"]] == [3, 2]


def test_passing_phases_play_alike_in_both_engines():
    counts = [perft(get_game(PASSING, None, "interpreted").new_state(), d) for d in (4, 5, 6)]
    assert [perft(get_game(PASSING, None, "compiled").new_state(), d) for d in (4, 5, 6)] == counts


PASS_SPEC = SPEC.replace("    actions: [pass_on]\n    first: same\n", "    actions: [pass_on]\n    first: same\n  three:\n    next: four\n  four:\n    next: one\n")


@pytest.mark.parametrize(
    "old, new, line, col, message",
    [
        ("    actions: [put]\n    next: two\n", "    next: two\n", 7, 3, "phase 'one' has no actions, so it passes as it begins"),
        ("    next: four\n", "    next: four\n    until: true\n", 15, 5, "phase 'three' has no actions: it passes at once, so it has no 'until'"),
        ("    next: one\n", "    next: three\n", 13, 3, "phases without actions lead back to themselves (three -> four -> three)"),
        ("    next: one\n", "    next: \"if true then one else if false then two else phase\"\n", 15, 3, "phase 'four' has no actions: name the phase that follows it"),
        ("    next: one\n", "    next:\n      - {to: one, when: true}\n", 17, 19, "leave out its last exit's 'when'"),
    ],
)
def test_mistakes_in_phases_without_actions(tmp_path, old, new, line, col, message):
    assert old in PASS_SPEC
    path = tmp_path / "t.yaml"
    path.write_text(PASS_SPEC.replace(old, new, 1))
    with pytest.raises(SpecError) as err:
        load_game_ir(str(path))
    text = str(err.value)
    assert text.startswith(f"{path}:{line}:{col}: error:"), text
    assert message in text
