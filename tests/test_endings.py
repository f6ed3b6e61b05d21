"""Common endings and shapes said in one line each (spec/endings.py, spec/actions.py,
spec/standard.py): draw rules (``end.draw``), endings that name themselves (``end.when``
as a mapping), clock counters (``counts``/``reset``/``reset_before``), the ``removes`` shape and the
standard word ``pieces(p)``. tests/data/endings.yaml uses them all, beside
specs/classics/nine-mens-morris.yaml (tests/test_nine_mens_morris.py); both back ends play
each the same, and a mistake is reported where it is written. ``end.no_moves`` as rules
is played by chess and shogi (their tests) and by a three-player toy here."""

from __future__ import annotations

import pytest

from conftest import ENGINES, ROOT, get_game
from midgardc.errors import SpecError
from midgardc.runtime.ending import end_reason
from midgardc.spec.lower import load_game_ir
from test_differential import check_games

TOY = str(ROOT / "tests" / "data" / "endings.yaml")
RED, BLUE = 1, 2  # piece ids of the stones


@pytest.fixture(params=ENGINES)
def game(request):
    return get_game(TOY, None, request.param)


def play(game, moves: list[str]):
    state = game.new_state()
    for m in moves:
        state.apply(m)
    return state


def counters(state) -> tuple[dict, list[dict]]:
    data = state.to_json()
    return data["counters"], [p["counters"] for p in data["players"]]


def test_a_clock_counts_its_moves_and_resets(game):
    # calm counts drops and shifts (not takes) and goes back to 0 after one that ends
    # beside the other player's stone
    state = play(game, ["a1", "b2"])
    assert counters(state)[0]["calm"] == 2
    state.apply("a1-a2")  # beside blue's b2
    assert counters(state)[0]["calm"] == 0
    state.apply("xa2")  # a take is not counted
    assert counters(state)[0]["calm"] == 0
    state.apply("c3")
    assert counters(state)[0]["calm"] == 1


def test_a_players_clock_counts_their_own_moves(game):
    # takes: a player's own takes, back to 0 after one that leaves them under 2 stones out
    state = play(game, ["a1", "c3", "a3", "b3", "xb3"])  # red has a1 and a3 on the board
    assert counters(state)[1] == [{"takes": 1}, {"takes": 0}]
    state = play(game, ["a1", "b1", "xb1"])  # red has only a1
    assert counters(state)[1] == [{"takes": 0}, {"takes": 0}]


def test_a_clock_reset_before_the_move_reads_the_position_it_is_made_in(game):
    # since_take: every move counts; a take resets it when a foe's stone is on t, which
    # only holds before the take (after it, t is empty)
    state = play(game, ["a1", "b1"])
    assert counters(state)[0]["since_take"] == 2
    state.apply("xb1")
    assert counters(state)[0]["since_take"] == 0
    state.apply("c3")
    assert counters(state)[0]["since_take"] == 1


def test_removes_takes_another_players_piece_out_of_the_game(game):
    state = play(game, ["a1", "b1"])
    assert [m.text for m in state.legal_moves() if m.text.startswith("x")] == ["xb1"]  # beside red's a1
    state.apply("xb1")
    data = state.to_json()
    assert data["board"]["b1"] is None and data["players"][1]["hand"] == {"stone": 3}  # not back in hand
    assert data["players"][1]["score"] == {"stones": 3}  # pieces(p): a1 alone is red's


def test_a_draw_rule_ends_the_game_and_levels_every_key(game):
    state = play(game, ["a1", "c3", "a2", "c2", "a3", "c1"])  # six calm drops
    assert state.is_terminal() and state.to_json()["winner"] == "draw"
    assert end_reason(state) == "a calm spell" and counters(state)[0]["drawn"] == 1
    assert [p["score"] for p in state.to_json()["players"]] == [{"stones": 0}, {"stones": 0}]


def test_the_second_draw_rule_is_named_by_its_reason(game):
    # the same position (a1 against b2, red to move) a third time; each shuttle ends
    # beside the other's stone every other move, so the calm spell never reaches 6
    state = play(game, ["a1", "b2"] + ["a1-a2", "b2-b1", "a2-a1", "b1-b2"] * 2)
    assert state.is_terminal() and state.to_json()["winner"] == "draw"
    assert end_reason(state) == "repetition" and counters(state)[0]["drawn"] == 2


def test_an_ending_named_in_when_names_the_result(game):
    ir = game.ir
    board = [0] * ir.board.n_cells
    board[ir.board.cell_names.index("a1")] = RED
    board[ir.board.cell_names.index("b1")] = BLUE
    state = game.new_state()
    state.core.load(board, [[0], [0]], 0, counters=[list(r) for r in ir.counter_init])
    state.apply("xb1")
    assert state.is_terminal() and state.to_json()["winner"] == "red"
    assert end_reason(state) == "taking the last stone"


def test_both_back_ends_play_the_toy_move_for_move():
    check_games(TOY, None, 40, 27)


SPEC = """\
midgardc: 1
game: {name: t, players: [red, blue]}
pieces:
  stone: {hand: 3}
board: {topology: square, rows: 2, cols: 2}
counters:
  calm: {of: game, counts: put, reset: "line(t, 2)"}
actions:
  put:
    drops: stone
  take:
    removes: "true"
end:
  when: {"a full board": "all c in cells: occupied(c)"}
  draw: {"a calm spell": "calm >= 4"}
ranking:
  stones: "pieces(p)"
"""


@pytest.mark.parametrize(
    "old, new, line, col, message",
    [
        ('  draw: {"a calm spell": "calm >= 4"}\n', '  draw: "calm >= 4"\n', 15, 9, "end.draw maps each draw rule's reason"),
        ('  draw: {"a calm spell": "calm >= 4"}\n', '  draw: {"a calm spell": "calm >= four"}\n', 15, 35, "unknown name 'four'"),
        ("counters:\n", "counters:\n  drawn: 0\n", 7, 3, "the counter 'drawn' is the draw rule that ended"),
        ('reset: "line(t, 2)"', 'reset: "line(d, 2)"', 7, 46, "unknown name 'd'"),
        ('reset: "line(t, 2)"', 'reste: "line(t, 2)"', 7, 33, "unknown key 'reste'"),
        ('counts: put, reset: "line(t, 2)"', "counts: put", 7, 9, "clock counter 'calm' needs a 'reset'"),
        ('counts: put, reset: "line(t, 2)"', 'counts: puts, reset: "true"', 7, 28, "unknown action 'puts'"),
        ("{of: game, counts", "{of: game, type: cell, counts", 7, 20, "counter 'calm' is a clock (counts, reset): a number, not a 'type'"),
        ('reset: "line(t, 2)"', 'reset_before: "line(f, 2)"', 7, 53, "unknown name 'f'"),
        ('reset: "line(t, 2)"', 'reset_before: {put: "line(q, 2)"}', 7, 59, "unknown name 'q'"),
        ('reset: "line(t, 2)"', 'reset_before: {take: "true"}', 7, 48, "'take' is not an action clock 'calm' counts (put)"),
        ('reset: "line(t, 2)"', 'reset: "line(t, 2)", reset_before: "true"', 7, 33, "counter 'calm' has a 'reset' and a 'reset_before'"),
        ('counts: put, reset: "line(t, 2)"', 'type: cell, reset_before: "true"', 7, 20, "counter 'calm' is a clock (counts, reset_before): a number, not a 'type'"),
        ('reset: "line(t, 2)"', "reset_before: {put: 3}", 7, 53, "expected a condition here, but this is a number"),
        ("    drops: stone\n", "    drops: stone\n    removes: \"true\"\n", 11, 14, "an action has one shape"),
        ('    removes: "true"\n', '    removes: "true"\n    params: {c: cell}\n', 13, 13, "an action with 'removes' has the parameters t: remove 'params'"),
        ('"a full board": "all c in cells: occupied(c)"', '"blocked": "not can_move()"', 14, 26, "can_move() is allowed only"),
        ('  draw: {"a calm spell": "calm >= 4"}\n', "  no_moves: {stuck: lose}\n", 15, 21, "end.no_moves maps each reason"),
        ('  draw: {"a calm spell": "calm >= 4"}\n', '  no_moves: {stuck: {when: "true", result: loss}}\n', 15, 21, "the last rule of end.no_moves ('stuck') has no 'when'"),
        ('  draw: {"a calm spell": "calm >= 4"}\n', "  no_moves: {a: draw, b: loss}\n", 15, 13, "only the last rule of end.no_moves may leave out 'when'"),
        ('  draw: {"a calm spell": "calm >= 4"}\n', "  no_moves: {a: {result: loss, whn: x}, b: draw}\n", 15, 32, "unknown key 'whn' in end.no_moves 'a'"),
        ('  draw: {"a calm spell": "calm >= 4"}\n', '  no_moves: {a: {when: "four > 0", result: loss}, b: draw}\n', 15, 25, "unknown name 'four'"),
        ("ranking:\n  stones: \"pieces(p)\"\n", "", 1, 1, "needs a 'ranking' key"),
    ],
)
def test_mistakes_are_reported_where_they_are(tmp_path, old, new, line, col, message):
    assert old in SPEC
    path = tmp_path / "t.yaml"
    path.write_text(SPEC.replace(old, new))
    with pytest.raises(SpecError) as err:
        load_game_ir(str(path))
    assert message in err.value.message, err.value.message
    assert (err.value.pos.line, err.value.pos.col) == (line, col), (err.value.pos, err.value.message)


def test_the_spec_the_mistakes_are_made_in_is_sound(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text(SPEC)
    ir = load_game_ir(str(path))
    assert [t.name for t in ir.triggers] == ["clock: calm"] and [k.name for k in ir.ranking] == ["stones"]
    assert [r[0] for r in ir.end.reasons] == ["a calm spell", "a full board"]


STUCK = """\
midgardc: 1
game: {name: t, players: [red, blue, green]}
pieces:
  stone: {hand: 1}
board: {topology: square, rows: 2, cols: 2}
actions:
  put:
    drops: stone
end:
  no_moves: {"no stone left": {when: "pieces(mover) > 0", result: loss}, "an empty hand": draw}
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_a_stuck_mover_loses_and_the_others_share_first(tmp_path, engine):
    # each player drops their one stone; then red, to move, has none: "no stone left"
    # holds (red has a stone on the board), red loses and blue and green share first
    # (no ranking written: the one key `won` is the no_moves rules')
    path = tmp_path / "t.yaml"
    path.write_text(STUCK)
    state = play(get_game(str(path), None, engine), ["a1", "a2", "b1"])
    assert state.is_terminal() and end_reason(state) == "no stone left"
    assert [k.name for k in state.game.ir.ranking] == ["won"]
    assert tuple(state.ranks()) == (3, 1, 1)
    assert counters(state)[0] == {"no_move_rule": 1, "no_move_player": "red"}


@pytest.mark.parametrize("engine", ENGINES)
def test_a_stuck_mover_draws_by_the_last_rule(tmp_path, engine):
    # with each stone taken out of the game as it is dropped, red is stuck with none on the board: the
    # first rule does not hold, the last (a draw) does
    path = tmp_path / "t.yaml"
    path.write_text(STUCK.replace("    drops: stone\n", "    drops: stone\n    effects:\n      - remove: {at: t, to: out}\n"))
    state = play(get_game(str(path), None, engine), ["a1", "a2", "b1"])
    assert state.is_terminal() and end_reason(state) == "an empty hand"
    assert tuple(state.ranks()) == (1, 1, 1)


def test_the_no_moves_counters_are_the_rules_own(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text(STUCK.replace("actions:\n", "counters:\n  no_move_player: 0\nactions:\n"))
    with pytest.raises(SpecError) as err:
        load_game_ir(str(path))
    assert "the counter 'no_move_player' is kept by end.no_moves's rules" in err.value.message
    assert (err.value.pos.line, err.value.pos.col) == (7, 3)
