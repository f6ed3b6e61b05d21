"""``midgardc play``: the move parser, a whole game through a pseudo-terminal (mistyped,
ambiguous input, undo, hint, the record replays), and hot seat on a spec with hidden hands
(tests/data/draft.yaml: each player's draft and picked zones are owner-only)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from midgardc.errors import MidgardcError
from midgardc.cli.humanplay import parse_seats
from midgardc.players.human import MAX_SHOWN, MoveInputError, group_moves, move_list, numbered, parse_move
from midgardc.runtime.game import Move

pexpect = pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parents[1]
TTT = "specs/classics/tic-tac-toe.yaml"
DRAFT = "tests/data/draft.yaml"
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
MOVES = [Move(i, t) for i, t in enumerate(["a3", "b3", "c3", "a2", "pass", "pick:A", "pick:B"])]


# -- the parser ------------------------------------------------------------------------------


def test_a_move_by_its_text() -> None:
    assert parse_move("b3", MOVES).id == 1
    assert parse_move("  PICK:b ", MOVES).id == 6  # case and spaces aside


def test_a_move_by_its_number() -> None:
    assert parse_move("1", MOVES).text == "a3"
    assert parse_move("7", MOVES).text == "pick:B"
    with pytest.raises(MoveInputError, match="no move 8: the moves are numbered 1 to 7"):
        parse_move("8", MOVES)
    with pytest.raises(MoveInputError, match="no move 0"):
        parse_move("0", MOVES)


def test_a_move_by_a_unique_prefix() -> None:
    assert parse_move("pa", MOVES).text == "pass"
    assert parse_move("pick:a", MOVES).text == "pick:A"


def test_an_ambiguous_prefix_lists_its_candidates() -> None:
    with pytest.raises(MoveInputError) as err:
        parse_move("pi", MOVES)
    assert str(err.value) == "'pi' is ambiguous: it starts 2 moves (pick:A, pick:B); type more of it, or its number"
    with pytest.raises(MoveInputError, match=r"starts 3 moves \(pass, pick:A, pick:B\)"):
        parse_move("p", MOVES)


def test_an_unknown_input_suggests_the_closest_moves() -> None:
    with pytest.raises(MoveInputError) as err:
        parse_move("b33", MOVES)
    assert str(err.value) == "'b33' is not a legal move here; did you mean b3?"
    with pytest.raises(MoveInputError, match="'zz' is not a legal move here; type a number from the list, or help"):
        parse_move("zz", MOVES)
    with pytest.raises(MoveInputError, match="type a move"):
        parse_move("   ", MOVES)


def test_a_move_whose_text_is_a_number_is_taken_as_its_text() -> None:
    moves = [Move(0, "2"), Move(1, "1")]
    assert parse_move("1", moves).id == 1  # the move written "1", not the first one


def test_moves_are_numbered_in_columns() -> None:
    lines = numbered(MOVES, width=40)
    assert lines[0].split() == ["1.", "a3", "4.", "a2", "7.", "pick:B"]
    assert sum(len(line.split()) for line in lines) == 2 * len(MOVES)


def test_seats_are_humans_and_bots() -> None:
    assert [p.text for p in parse_seats("human,mcts:500")] == ["human", "mcts:iterations=500"]
    assert [p.text for p in parse_seats("human, mcts:iterations=50,c=1,human")] == ["human", "mcts:iterations=50,c=1", "human"]
    with pytest.raises(MidgardcError, match="'human' takes no parameter"):
        parse_seats("human:3,random")
    with pytest.raises(MidgardcError, match="unknown player 'humna'"):
        parse_seats("humna,random")


def test_match_says_where_a_human_plays() -> None:
    from midgardc.players import parse_players

    with pytest.raises(MidgardcError, match="plays only in 'midgardc play'"):
        parse_players("human,random")


# -- what a seat is shown ---------------------------------------------------------------------


def test_a_seat_is_shown_its_own_hidden_score_and_not_the_others() -> None:
    from midgardc.players.view import PlayerView
    from midgardc.runtime.game import replay
    from midgardc.engines import load
    from midgardc.runtime.view import render_text

    state = replay(load("tests/data/phases.yaml", None, engine="interpreted"), ["a4", "a1", "d4"], 0)
    whole = render_text(state, color=False)
    assert "red: in hand stone 6; points 21" in whole and "green: in hand stone 7; points 10" in whole
    red = PlayerView(state, 0).text()
    assert "red: in hand stone 6; points 21" in red and "green: in hand stone 7; points ?" in red
    green = PlayerView(state, 1).text()
    assert "red: in hand stone 6; points ?" in green and "green: in hand stone 7; points 10" in green
    public = render_text(state, color=False, viewer=-1)  # a spectator: nobody's hidden tally
    assert "points 21" not in public and "points 10" not in public


def test_a_seat_is_shown_its_own_hand_and_only_the_size_of_the_others() -> None:
    from midgardc.players.view import PlayerView
    from midgardc.runtime.game import replay
    from midgardc.engines import load
    from midgardc.runtime.view import render_text

    state = replay(load("tests/data/draft.yaml", None, engine="interpreted", n_players=2), ["open", "open"], 1)
    whole = render_text(state, color=False)  # the whole truth, as show prints it
    hands = {p: re.search(rf"^  draft of {p} \(player zone, visible: owner\): ([ABCD ]+) \[3\]$", whole, re.M).group(1) for p in ("north", "east")}
    north = PlayerView(state, 0).text()
    assert f"draft of north (player zone, visible: owner): {hands['north']} [3]" in north
    assert "draft of east (player zone, visible: owner): hidden [3]" in north
    assert "stock (game zone, ordered, visible: none): hidden [14]" in north
    east = PlayerView(state, 1).text()
    assert f"draft of east (player zone, visible: owner): {hands['east']} [3]" in east
    assert "draft of north (player zone, visible: owner): hidden [3]" in east


# -- through a pseudo-terminal -----------------------------------------------------------------


def _spawn(*args: str):
    child = pexpect.spawn(sys.executable, ["-m", "midgardc.cli", "play", *args], cwd=str(ROOT), encoding="utf-8", timeout=120, dimensions=(50, 120))
    return child


def _text(raw: str) -> str:
    return ANSI.sub("", raw).replace("\r", "")


def test_a_whole_game_of_tic_tac_toe(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    child = _spawn(TTT, "--players", "human,random", "--delay", "0", "--seed", "3", "--record", str(record))
    child.expect("x> ")
    first = _text(child.before)
    assert "x to move (move 1)" in first and "1. a3" in first and "9. c1" in first
    child.sendline("zz")
    child.expect("x> ")
    assert "'zz' is not a legal move here" in _text(child.before)
    child.sendline("b22")
    child.expect("x> ")
    assert "did you mean b2?" in _text(child.before)
    child.sendline("a")
    child.expect("x> ")
    assert "'a' is ambiguous: it starts 3 moves (a3, a2, a1)" in _text(child.before)
    child.sendline("help")
    child.expect("x> ")
    assert "undo" in _text(child.before) and "hint" in _text(child.before)
    child.sendline("hint")
    child.expect("x> ")
    assert re.search(r"hint: mcts with 500 iterations would play [abc][123]", _text(child.before))
    child.sendline("undo")
    child.expect("x> ")
    assert "nothing to undo: this is your first decision" in _text(child.before)
    child.sendline("b2")
    child.expect("x> ")
    after = _text(child.before)
    assert "x (human) plays b2" in after and re.search(r"o \(random\) plays [abc][123]", after)
    assert "x to move (move 3)" in after
    child.sendline("undo")
    child.expect("x> ")
    back = _text(child.before)
    assert "undo: back to move 1 (taking back 2 moves)" in back and "x to move (move 1)" in back
    # undo puts the bot's random stream back too: the same move gets the same answer
    answer = re.search(r"o \(random\) plays ([abc][123])", after).group(1)
    child.sendline("b2")
    child.expect("x> ")
    assert f"o (random) plays {answer}" in _text(child.before)
    child.sendline("undo")
    child.expect("x> ")
    assert "undo: back to move 1 (taking back 2 moves)" in _text(child.before)
    # then the first legal move, by number, until the game is over
    ended = None
    for _ in range(6):
        child.sendline("1")
        i = child.expect(["x> ", pexpect.EOF])
        if i == 1:
            ended = _text(child.before)
            break
    assert ended is not None, "the game did not end"
    assert re.search(r"game over: \S+ wins by three in a row in \d+ moves", ended)  # the reason (issue 26)
    assert re.search(r"ranks: 1\. \S+ \(line 1\)  2\. \S+ \(line 0\)", ended)
    assert "Tic-tac-toe: 1 game, seed 3" in ended and re.search(r"^human\s+[01]\s", ended, re.M)
    assert f"recorded the game in {record}" in ended
    child.close()
    assert child.exitstatus == 0
    line = json.loads(record.read_text())
    assert line["seats"] == ["human", "random"] and line["seed"] == 3 and line["moves"][0] == "a3"
    replayed = subprocess.run([sys.executable, "-m", "midgardc.cli", "replay", TTT, "--record", str(record)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert replayed.returncode == 0, replayed.stderr
    assert "result matches the record" in replayed.stderr


def test_hot_seat_never_shows_the_other_seats_hidden_hand(tmp_path: Path) -> None:
    record = tmp_path / "draft.jsonl"
    child = _spawn(DRAFT, "--players", "human,human", "--delay", "0", "--seed", "1", "--engine", "interpreted", "--record", str(record))
    seats = ("north", "east")
    turns = 0
    seen_own_items = hidden_from_me = 0
    while turns < 10:
        child.expect(r"pass the terminal to (\w+) \(human#\d\), then press Enter")
        seat = child.match.group(1)
        other = seats[1 - seats.index(seat)]
        child.sendline("")
        child.expect(f"{seat}> ")
        assert "\x1b[2J" in child.before  # the screen is cleared before this seat's view
        screen = _text(child.before)
        assert f"{other} (human#" not in screen  # not even the other seat's last move
        for zone in ("draft", "picked"):
            theirs = re.search(rf"^  {zone} of {other} \(player zone, visible: owner\): (.*)$", screen, re.M)
            assert theirs is not None, screen
            assert re.fullmatch(r"(hidden|-) \[\d+\]", theirs.group(1)), theirs.group(0)
            mine = re.search(rf"^  {zone} of {seat} \(player zone, visible: owner\): (.*)$", screen, re.M)
            assert mine is not None and "hidden" not in mine.group(1)
            seen_own_items += bool(re.match(r"[ABCD]( [ABCD])* \[", mine.group(1)))
            hidden_from_me += theirs.group(1) != "- [0]"
        child.sendline("1")
        turns += 1
    assert seen_own_items > 0 and hidden_from_me > 0  # a seat sees its own hand, not the other's
    child.expect(r"pass the terminal to \w+")
    child.sendline("")
    child.expect(r"\w+> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert "recorded the unfinished game" in _text(child.before)
    child.close()
    line = json.loads(record.read_text())
    assert len(line["moves"]) == 10 and line["result"] == {"unfinished": True, "plies": 10}
    # replay and report check finished games: they refuse this one and say why
    for args in (["replay", DRAFT, "--record", str(record)], ["report", str(record)]):
        refused = subprocess.run([sys.executable, "-m", "midgardc.cli", *args], cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert refused.returncode == 1 and "Traceback" not in refused.stderr
        assert "is an unfinished game (stopped by its players after 10 plies)" in refused.stderr


def test_a_bots_hidden_pick_is_printed_as_the_human_sees_it() -> None:
    child = _spawn(DRAFT, "--players", "human,random", "--delay", "0", "--seed", "1", "--engine", "interpreted")
    picks = []
    for _ in range(4):
        child.expect("north> ")
        picks += re.findall(r"east \(random\) plays (\S+)", _text(child.before))
        child.sendline("1")
    child.expect("north> ")
    picks += re.findall(r"east \(random\) plays (\S+)", _text(child.before))
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert "pick:?" in picks and not any(re.fullmatch(r"pick:[ABCD]", p) for p in picks), picks


def _turn(screen: str) -> tuple[str, str, str]:
    """(the roll line, the move number, the legal moves) of a screen of magic-mids."""
    roll = re.search(r"^  roll: (\S+)$", screen, re.M)
    number = re.search(r"red to move \(move (\d+)\)", screen)
    assert roll and number, screen
    return roll.group(1), number.group(1), screen.split("your legal moves")[1]


def test_undo_in_a_game_with_dice_goes_back_to_the_same_roll() -> None:
    # moves are plies and rolls: undo must take back both to reach the human's last decision
    child = _spawn("specs/magic-mids.yaml", "--players", "human,random,random", "--delay", "0", "--seed", "2", "--engine", "interpreted")
    child.expect("red> ")
    first = _turn(_text(child.before))
    child.sendline("1")
    child.expect("red> ")
    second = _turn(_text(child.before))
    assert second[1] != first[1]
    child.sendline("1")
    child.expect("red> ")
    child.sendline("undo")
    child.expect("red> ")
    screen = _text(child.before)
    assert re.search(rf"undo: back to move {second[1]} \(taking back \d+ moves, rolls included\)", screen)
    assert _turn(screen) == second
    child.sendline("undo")
    child.expect("red> ")
    assert _turn(_text(child.before)) == first
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()


# -- many moves ------------------------------------------------------------------------------

# A Meridian-like opening: a card, a city, a height (``6:6.2:3``): 4 cards x 10 cities x 3 heights
MANY = [Move(i, f"{card}:{card}.{city}:{h}") for i, (card, city, h) in enumerate((c, t, h) for c in (4, 5, 6, 7) for t in range(1, 11) for h in (1, 2, 3))]


def test_many_moves_are_grouped_by_how_they_start_a_word_at_a_time() -> None:
    groups = group_moves([m.text for m in MANY])
    assert groups == [("4:4.", 30), ("5:5.", 30), ("6:6.", 30), ("7:7.", 30)]  # one word more would make 40 groups
    assert group_moves([m.text for m in MANY[:30]]) == [(f"4:4.{t}:", 3) for t in range(1, 11)]
    assert group_moves(["a1", "b2", "c3"]) == [("a1", 1), ("b2", 1), ("c3", 1)]  # lone moves are themselves


def test_a_long_move_list_shows_groups_and_moves_lists_them_all() -> None:
    assert len(MANY) > MAX_SHOWN
    short = "\n".join(move_list(MANY, 100))
    assert "120 moves, grouped by how they start" in short and "4:4.… (30)" in short and "4:4.1:1" not in short
    every = "\n".join(move_list(MANY, 100, every=True))
    assert "1. 4:4.1:1" in every and "120. 7:7.10:3" in every
    few = "\n".join(move_list(MOVES, 100))
    assert "1. a3" in few and "grouped" not in few


def test_an_ambiguous_prefix_lists_its_moves_with_their_numbers() -> None:
    from midgardc.players.human import HumanPlayer

    class View:  # the least a HumanPlayer reads of its seat's view
        game = type("G", (), {"players": ["north", "south"]})()
        player = 0

        def legal_moves(self):
            return MANY

        def text(self, color=False):
            return "(board)"

    said: list[str] = []
    typed = iter(["5:5.3", "5:5.3:2"])
    human = HumanPlayer(ask=lambda prompt: next(typed), say=said.append)
    import midgardc.players.human as human_module

    real = human_module.as_view
    human_module.as_view = lambda v: v
    try:
        assert human.choose(View(), None) == 37  # 5:5.3:2 is the 38th move
    finally:
        human_module.as_view = real
    screen = "\n".join(said)
    assert "'5:5.3' is ambiguous: it starts 3 moves (5:5.3:1, 5:5.3:2, 5:5.3:3)" in screen
    assert "37. 5:5.3:1" in screen and "38. 5:5.3:2" in screen and "39. 5:5.3:3" in screen


# Midgard-like moves: a cell named row.column, 30 rows of 5: the first word alone makes 30
# groups, more than GROUPS (issue 26: one group "… (150)" said nothing)
CELLS = [Move(i, f"{r}.{c}") for i, (r, c) in enumerate((r, c) for r in range(1, 31) for c in range(1, 6))]


def _human_view(moves):
    class View:  # the least a HumanPlayer reads of its seat's view
        game = type("G", (), {"players": ["land", "sea"]})()
        player = 0

        def legal_moves(self):
            return moves

        def text(self, color=False):
            return "(board)"

    return View()


def _choose(moves, typed_lines):
    from midgardc.players.human import HumanPlayer
    import midgardc.players.human as human_module

    said: list[str] = []
    typed = iter(typed_lines)
    human = HumanPlayer(ask=lambda prompt: next(typed), say=said.append)
    real = human_module.as_view
    human_module.as_view = lambda v: v
    try:
        return human.choose(_human_view(moves), None), "\n".join(said)
    finally:
        human_module.as_view = real


def test_when_one_group_would_hold_everything_the_first_word_groups():
    groups = group_moves([m.text for m in CELLS])
    assert groups == [(f"{r}.", 5) for r in range(1, 31)]
    screen = "\n".join(move_list(CELLS, 100))
    assert "7.… (5)" in screen and "… (150)" not in screen


def test_a_number_never_shown_is_the_start_of_a_move_not_a_move():
    # the grouped list shows no numbers: "7" names the moves starting "7", never move 7 (1.2)
    with pytest.raises(MoveInputError, match="'7' is ambiguous: it starts 5 moves") as err:
        parse_move("7", CELLS, shown=set())
    assert [m.text for m in err.value.candidates] == [f"7.{c}" for c in range(1, 6)]
    with pytest.raises(MoveInputError, match="no move numbered 99 is on screen"):
        parse_move("99", CELLS, shown=set())
    assert parse_move("7", CELLS, shown={7}).text == "2.2"  # a number on screen is a move
    assert parse_move("7", MOVES).text == "pick:B"  # a list shown whole: every number


def test_at_the_terminal_7_lists_the_moves_starting_7_and_their_numbers_then_count():
    chosen, screen = _choose(CELLS, ["7", "33"])
    assert CELLS[chosen].text == "7.3"  # 33 was on screen after "7": the 33rd move, 7.3
    assert "'7' is ambiguous" in screen and "33. 7.3" in screen
    chosen, _ = _choose(CELLS, ["moves", "7"])  # 'moves' numbers them all: 7 is move 7
    assert CELLS[chosen].text == "2.2"
