"""Magic Mids (specs/magic-mids.yaml) against its rulebook, in both back ends.

Each test names the rulebook paragraph it checks (Looney Pyramid Games Wiki, "Magic
Mids", v2.0 05/2002) or the FACTS.md assumption it relies on. The roll table is checked
outcome by outcome against an independent reading of the table written here.
"""

from __future__ import annotations

from itertools import product
from pathlib import Path

import pytest

from conftest import ENGINES, SPECS, get_game
from midgardc.engines import load

MIDS = str(SPECS / "magic-mids.yaml")
FACES = ["A", "2", "3", "4", "5", "blank"]  # the dice faces in the spec's order
COLUMN = {"2": "a", "3": "b", "4": "c", "5": "d"}  # "headers 2, 3, 4, 5" over columns a..d
SMALL, MEDIUM, LARGE = 0, 1, 2
RED, YELLOW = 0, 1

_games: dict = {}


def mids(engine: str = "interpreted", n: int = 2):
    if n == 2:
        return get_game(MIDS, None, engine)
    key = (engine, n)
    if key not in _games:
        _games[key] = load(MIDS, None, engine, n_players=n)
    return _games[key]


def position(game, mids_on: dict[str, tuple[int, int]], hands=None, current: int = RED):
    """A state at the start of `current`'s turn (the roll due) with mids (cell ->
    (owner, size)) on the board; hands default to the full stashes."""
    ir = game.ir
    board = [0] * ir.board.n_cells
    for name, (owner, size) in mids_on.items():
        board[ir.board.cell_names.index(name)] = ir.piece_id(owner, size)
    state = game.new_state()
    state.core.load(board, hands or [list(h) for h in ir.hand_init], current=current)
    assert state.is_chance_node()
    return state


def board_of(state) -> dict[str, tuple[str, str]]:
    ir = state.game.ir
    out = {}
    for c, piece in enumerate(state.core.board[: ir.board.n_cells]):
        if piece > 0:
            out[ir.board.cell_names[c]] = (ir.players[ir.piece_owner(piece)], ir.kinds[ir.piece_kind(piece)])
    return out


# --------------------------------------------------------------------------- the roll table


def table_reading(three: tuple[str, ...]) -> set[tuple[str, str]]:
    """'Rolling and Placing' for three non-blank dice: {(size letter, column or '*')}."""
    counts = {f: three.count(f) for f in set(three)}
    if counts.get("A") == 3:
        return {("S", "*")}  # "3 Aces: place a small mid on any unoccupied square"
    if counts.get("A") == 2:
        third = next(f for f in three if f != "A")
        return {("S", third)}  # "2 Aces: ... a small mid ... in the column of the third die"
    for f, k in counts.items():
        if f != "A" and k == 3:
            return {("L", f)}  # "Triples (except Aces): ... a large mid ... of the column rolled"
        if f != "A" and k == 2:
            return {("M", f)}  # "Doubles (except Aces): ... a medium mid ... the [other] is ignored"
    return set()  # "Any other combination of dice results in the player not making a play"


def allowed_by_the_table(roll: tuple[str, ...]) -> set[tuple[str, str]]:
    """Every placement some reading of the blanks allows ("A blank die copies the roll of
    any die rolled"; FACTS: the roller chooses any reading the table allows)."""
    others = [f for f in roll if f != "blank"]
    if not others:
        return {(size, "*") for size in "SML"}  # "3 Blanks: place any size mid on any unoccupied square"
    out: set = set()
    for copies in product(sorted(set(others)), repeat=len(roll) - len(others)):
        out |= table_reading(tuple(others) + copies)
    return out


def placements(state) -> set[tuple[str, str]]:
    """The legal placements as (size letter, cell); none once the turn has passed on to
    the next player's roll."""
    if state.is_chance_node():
        return set()
    return {tuple(m.text.split(":")) for m in state.legal_moves()}


def expand(allowed: set, cells: list[str]) -> set[tuple[str, str]]:
    return {(size, c) for size, col in allowed for c in cells if col == "*" or c[0] == COLUMN[col]}


@pytest.mark.parametrize("engine", ENGINES)
def test_every_roll_of_the_table_allows_exactly_its_placements(engine) -> None:
    # "Rolling and Placing", every row of the table, for all 56 rolls of three dice
    game = mids(engine)
    cells = list(game.ir.board.cell_names)
    start = game.new_state()
    rolls = [m.text for m in start.legal_moves()]
    assert len(rolls) == 56
    rows_seen = set()
    for text in rolls:
        state = game.new_state()
        state.apply(text)
        roll = tuple(text.split(":")[1].split("-"))
        expected = expand(allowed_by_the_table(roll), cells)
        assert placements(state) == expected, text
        rows_seen |= {size + ("*" if col == "*" else "col") for size, col in allowed_by_the_table(roll)}
        if not expected:  # no play: the turn passes to the next player's roll
            assert state.is_chance_node() and state.current_player_name() == "yellow"
    assert rows_seen == {"S*", "Scol", "Mcol", "Lcol", "M*", "L*"}


@pytest.mark.parametrize(
    "roll, expected",
    [
        ("roll:blank-blank-blank", {("S", "*"), ("M", "*"), ("L", "*")}),  # "3 Blanks"
        ("roll:A-A-4", {("S", "c")}),  # "2 Aces ... you place a small mid in column 4"
        ("roll:A-A-A", {("S", "*")}),  # "3 Aces"
        ("roll:2-4-4", {("M", "c")}),  # "double 4s and a 2 ... medium mid in column 4 and the 2 is ignored"
        ("roll:5-5-5", {("L", "d")}),  # "triple 5s, you place a large mid in column 5"
        ("roll:2-3-5", set()),  # "Any other roll"
        ("roll:A-4-blank", {("S", "c"), ("M", "c")}),  # "two Aces could be an Ace and a blank"
        ("roll:4-4-blank", {("L", "c")}),  # the blank copies a 4: triple 4s
        ("roll:3-blank-blank", {("L", "b")}),  # both blanks copy the 3
        ("roll:A-blank-blank", {("S", "*")}),  # three aces
        ("roll:2-4-blank", {("M", "a"), ("M", "c")}),  # double 2s or double 4s
    ],
)
def test_rows_of_the_roll_table_by_name(roll, expected) -> None:
    # "Rolling and Placing": the rows as the rulebook words them (columns a..d = 2..5)
    state = mids().new_state()
    state.apply(roll)
    got = {(size, "*" if len({c[0] for s, c in placements(state) if s == size}) == 4 else cell[0]) for size, cell in placements(state)}
    assert got == expected


@pytest.mark.parametrize("engine", ENGINES)
def test_three_blanks_place_any_size_then_roll_again(engine) -> None:
    # "3 Blanks: Place any size mid on any unoccupied square and roll again."
    state = mids(engine).new_state(5)
    state.apply("roll:blank-blank-blank")
    assert len(state.legal_moves()) == 3 * 20
    state.apply("L:b2")
    assert state.is_chance_node() and state.current_player_name() == "red"  # red rolls again
    state.apply("roll:2-3-5")
    assert state.current_player_name() == "yellow"  # a roll with no play ends red's turn


# --------------------------------------------------------------------------- capturing


@pytest.mark.parametrize("engine", ENGINES)
def test_a_capture_across_the_wrap_around_edge(engine) -> None:
    # "A capture move can wrap around the top and bottom of the board as well as the
    # sides, so there is no safe space on the board."
    game = mids(engine)
    # sides: d3 | a3 | b3 in a row across the edge between columns d and a
    state = position(game, {"d3": (RED, SMALL), "a3": (YELLOW, MEDIUM)})
    state.apply("roll:3-3-A")  # double 3s (any order): a medium in column 3 (b)
    state.apply("M:b3")  # power 2 + 1 = 3 > 2
    assert board_of(state) == {"d3": ("red", "small"), "b3": ("red", "medium")}
    assert state.core.hands[YELLOW][MEDIUM] == game.ir.hand_init[YELLOW][MEDIUM] + 1  # "returned to their owner"
    # top and bottom: a5 | a1 | a2 in a column across the edge between rows 5 and 1
    state = position(game, {"a5": (RED, LARGE), "a1": (YELLOW, LARGE)})
    state.apply("roll:A-A-2")  # two aces and a 2: a small in column 2 (a)
    state.apply("S:a2")  # power 1 + 3 = 4 > 3
    assert board_of(state) == {"a5": ("red", "large"), "a2": ("red", "small")}


@pytest.mark.parametrize("engine", ENGINES)
def test_a_diagonal_capture(engine) -> None:
    # "Mids can be captured in any direction: diagonal, horizontal or vertical."
    state = position(mids(engine), {"a1": (RED, MEDIUM), "b2": (YELLOW, MEDIUM)})
    state.apply("roll:4-4-4")
    state.apply("L:c3")  # c3 - b2 - a1 on the diagonal: 3 + 2 > 2
    assert board_of(state) == {"a1": ("red", "medium"), "c3": ("red", "large")}


@pytest.mark.parametrize("engine", ENGINES)
def test_power_must_exceed_the_surrounded_mid(engine) -> None:
    # "your mids have more power than the mids they are surrounding": 1 + 2 = 3 is not
    # more than a large's 3; 2 + 2 is
    game = mids(engine)
    state = position(game, {"a1": (RED, MEDIUM), "a2": (YELLOW, LARGE)})
    state.apply("roll:A-A-2")
    state.apply("S:a3")
    assert board_of(state)["a2"] == ("yellow", "large")
    state = position(game, {"a1": (RED, MEDIUM), "a2": (YELLOW, LARGE)})
    state.apply("roll:2-2-5")
    state.apply("M:a3")
    assert "a2" not in board_of(state)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_placement_between_two_enemy_mids_is_safe(engine) -> None:
    # "A mid placed between an opponent's mids is safe from capture from those mids."
    state = position(mids(engine), {"a3": (RED, LARGE), "c3": (RED, LARGE)}, current=YELLOW)
    state.apply("roll:A-A-3")
    state.apply("S:b3")
    assert board_of(state)["b3"] == ("yellow", "small")
    assert state.core.hands[YELLOW][SMALL] == 4


@pytest.mark.parametrize("engine", ENGINES)
def test_two_captures_at_once(engine) -> None:
    # "Multiple mids can be captured at once as long as your mids have more power than
    # the mids they are capturing." (FACTS: each direction is judged alone)
    game = mids(engine)
    state = position(
        game,
        {
            "b4": (YELLOW, SMALL), "b5": (RED, SMALL),  # north of b3, b5 beyond b4
            "c2": (YELLOW, MEDIUM), "d1": (RED, MEDIUM),  # south-east, d1 beyond c2
            "a3": (YELLOW, LARGE), "d3": (RED, SMALL),  # west, wrapping: 2 + 1 is not more than 3
        },
    )
    state.apply("roll:3-3-5")
    state.apply("M:b3")
    board = board_of(state)
    assert "b4" not in board and "c2" not in board  # two captured
    assert board["a3"] == ("yellow", "large")  # not enough power that way
    assert state.core.hands[YELLOW] == [game.ir.hand_init[YELLOW][0] + 1, game.ir.hand_init[YELLOW][1] + 1, game.ir.hand_init[YELLOW][2]]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_player_cannot_capture_his_own_mids(engine) -> None:
    # "A player cannot capture his own mids."
    state = position(mids(engine), {"a1": (RED, LARGE), "a2": (RED, SMALL)})
    state.apply("roll:2-2-4")
    state.apply("M:a3")
    assert board_of(state)["a2"] == ("red", "small")


# --------------------------------------------------------------------------- running out, the end


@pytest.mark.parametrize("engine", ENGINES)
def test_a_roll_that_needs_a_size_the_player_has_run_out_of(engine) -> None:
    # "Note: if a player has run out of the rolled mid, he cannot make a play this turn."
    game = mids(engine)
    hands = [[5, 5, 0], [5, 5, 5]]  # red has no large mid left
    state = position(game, {}, hands=hands)
    state.apply("roll:5-5-5")  # triple 5s: a large mid
    assert state.is_chance_node() and state.current_player_name() == "yellow"  # red's turn is lost
    # a roll with two readings still allows the one whose size is in hand
    state = position(game, {}, hands=[[5, 0, 5], [5, 5, 5]])
    state.apply("roll:A-4-blank")  # small in column 4, or medium in column 4
    assert {m.text[0] for m in state.legal_moves()} == {"S"}
    # three blanks: any size that is left
    state = position(game, {}, hands=[[0, 2, 0], [5, 5, 5]])
    state.apply("roll:blank-blank-blank")
    assert {m.text[0] for m in state.legal_moves()} == {"M"}


@pytest.mark.parametrize("engine", ENGINES)
def test_the_first_to_place_every_mid_wins(engine) -> None:
    # "Game End": "Be the first player to place all of your mids on the board and you win."
    game = mids(engine)
    state = position(game, {"a1": (RED, SMALL)}, hands=[[1, 0, 0], [3, 0, 0]])
    state.apply("roll:A-A-A")
    state.apply("S:c3")
    assert state.is_terminal() and state.winner() == RED


@pytest.mark.parametrize("engine", ENGINES)
def test_a_full_board_ends_the_game_fewest_in_stash_then_pips(engine) -> None:
    # FACTS (deadlock): "when the board is full, the game ends; fewest mids in stash
    # wins, then most pips on the board, else a draw."
    game = mids(engine)
    cells = list(game.ir.board.cell_names)
    yellow_all = {c: (YELLOW, SMALL) for c in cells[:-1]}  # no red mid: no capture
    # fewest in stash: red's last placement leaves red 1 and yellow 2
    state = position(game, yellow_all, hands=[[1, 0, 1], [0, 1, 1]])
    state.apply("roll:A-A-A")
    state.apply(f"S:{cells[-1]}")
    assert state.is_terminal() and state.winner() == RED
    assert state.scores()["red"]["stash"] == 1 and state.scores()["yellow"]["stash"] == 2
    # equal stashes: most pips on the board (yellow's 19 smalls against red's 1)
    state = position(game, yellow_all, hands=[[1, 0, 1], [0, 0, 1]])
    state.apply("roll:A-A-A")
    state.apply(f"S:{cells[-1]}")
    assert state.is_terminal() and state.winner() == YELLOW
    assert state.scores()["yellow"]["pips"] == 19 and state.scores()["red"]["pips"] == 1
