"""How a finished game ended, for people (runtime/ending.py): the reason named by the spec's
``end.reasons``, each seat's rank and score, the tie-break, the length in the rulebook's
moves; ranking keys that mean something only at the end (``final: true``) left out of
the panels while the game goes on (issue 26, item 5)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import SPECS, get_game
from midgardc.errors import SpecError
from midgardc.runtime.ending import end_reason, ending, ending_sentence, tie_break
from midgardc.runtime.game import replay
from midgardc.runtime.view import render_text
from midgardc.spec.lower import load_game_ir

TTT = str(SPECS / "classics" / "tic-tac-toe.yaml")
GO = str(SPECS / "classics" / "go.yaml")
DRAUGHTS = str(SPECS / "classics" / "draughts.yaml")
MIDGARD = str(SPECS / "midgard.yaml")


def test_a_win_says_its_reason_its_length_and_every_seats_rank_and_score(engine):
    # tic-tac-toe: "the first player to get 3 of their marks in a row ... is the winner"
    state = replay(get_game(TTT, None, engine), ["a1", "b1", "a2", "b2", "a3"])
    end = ending(state)
    assert end["text"] == "x wins by three in a row in 5 moves"
    assert end["reason"] == "three in a row" and end["winners"] == ["x"]
    assert end["seats"] == [{"player": "x", "rank": 1, "score": {"line": 1}}, {"player": "o", "rank": 2, "score": {"line": 0}}]
    assert end["tie_break"] is None and (end["plies"], end["moves"]) == (5, 5)
    # a seat's observation carries it (the page reads it there), the text board says it
    assert state.observation(1)["end"] == end
    assert "x wins by three in a row in 5 moves" in render_text(state) and "ranks: 1. x (line 1)  2. o (line 0)" in render_text(state)


def test_a_full_board_is_a_draw_by_it(engine):
    state = replay(get_game(TTT, None, engine), ["a1", "b1", "c1", "b2", "a2", "a3", "c2", "c3", "b3"])
    assert ending(state)["text"] == "draw by a full board in 9 moves"


def test_both_engines_name_the_same_reasons():
    games = [get_game(TTT, None, e) for e in ("interpreted", "compiled")]
    for seed in range(20):
        rng = random.Random(seed)
        states = [g.new_state() for g in games]
        while not states[0].is_terminal():
            move = rng.choice(states[0].legal_moves()).text
            for s in states:
                s.apply(move)
        assert ending(states[0]) == ending(states[1])


def test_go_ends_by_two_passes_and_its_score_is_shown_only_at_the_end():
    # "The game ends after two consecutive passes." White's komi wins an empty board.
    game = get_game(GO, None, "interpreted")
    state = game.new_state()
    text = render_text(state)
    assert "score" not in text.split("game:")[0] and "in hand" not in text  # no "score 15", no "stone 10000"
    assert state.observation(0)["final_keys"] == ["score"]
    state.apply("pass")
    state.apply("pass")
    assert end_reason(state) == "points after two passes"
    assert ending(state)["text"].startswith("white wins by points after two passes in 2 moves")
    assert "score 15" in render_text(state)  # at the end the score is the result


def test_draughts_shows_no_win_before_the_end():
    # the `won` key credits whoever moved last: meaningless while the game goes on
    game = get_game(DRAUGHTS, None, "interpreted")
    state = game.new_state()
    state.apply(state.legal_moves()[0].text)
    assert state.observation(0)["final_keys"] == ["won"]
    assert "won" not in render_text(state)


def test_the_tie_break_is_the_key_that_decided_first_place():
    ir = load_game_ir(MIDGARD)  # ranking: tiles, then perimeter
    keys = [[60, 10], [60, 12]]
    assert tie_break(ir, keys, (2, 1)) == 1
    assert tie_break(ir, [[61, 10], [60, 12]], (1, 2)) is None  # the first key decided
    assert tie_break(ir, [[60, 10], [60, 10]], (1, 1)) is None  # a draw: nothing broke it
    end = {"outcome": "win", "reason": "points after the last tile", "moves": 50, "tie_break": {"label": "perimeter", "leader": [60, 12], "runner_up": [60, 10]}}
    assert ending_sentence(end, ["sea"]) == "sea wins by points after the last tile in 50 moves; 60-60 tie broken by perimeter (12-10)"


def test_replay_and_match_say_how_games_ended():
    from midgardc.cli import cli

    out = CliRunner().invoke(cli, ["replay", TTT, "--moves", "a1 b1 a2 b2 a3", "--engine", "interpreted"])
    assert out.exit_code == 0 and "x wins by three in a row in 5 moves" in out.output
    out = CliRunner().invoke(cli, ["match", TTT, "-p", "random,random", "-n", "2", "--engine", "interpreted", "--seed", "1"])
    assert out.exit_code == 0, out.output
    games = [line for line in out.output.splitlines() if line.startswith("game ")]
    assert len(games) == 2 and all(" by " in g and "ranks: 1. " in g for g in games)


def _spec(tmp_path: Path, old: str, new: str) -> str:
    text = Path(TTT).read_text()
    assert old in text
    path = tmp_path / "t.yaml"
    path.write_text(text.replace(old, new, 1))
    return str(path)


def test_reasons_are_a_mapping_of_conditions_read_where_no_one_is_to_move(tmp_path):
    with pytest.raises(SpecError, match="end.reasons maps a reason's name"):
        load_game_ir(_spec(tmp_path, '    "three in a row": "any p in players: has_line(p)"\n    "a full board": true', "    - three in a row"))
    with pytest.raises(SpecError, match=r"can_move\(\) is allowed only"):
        load_game_ir(_spec(tmp_path, "    \"a full board\": true", "    \"a full board\": \"not can_move()\""))
    with pytest.raises(SpecError, match="final must be true or false"):
        load_game_ir(_spec(tmp_path, "final: true}", "final: 3}"))
