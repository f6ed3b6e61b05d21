"""Player colours: a player named after a colour is drawn in it (SVG fills and terminal
ANSI), ``render.colors`` wins, other players take the colours nobody named has taken,
and a bad colour is an error at its place."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import click
import pytest

from midgardc.errors import SpecError
from midgardc.ir import colours
from midgardc.render.svg import render_svg
from midgardc.engines import game_from_ir
from midgardc.runtime.view import render_text
from midgardc.spec.lower import load_game_ir

NS = "{http://www.w3.org/2000/svg}"

SPEC = """\
midgardc: 1
game: {{name: dots, title: Dots, players: [{players}]}}
pieces: {{stone: {{hand: 9}}}}
board: {{topology: square, rows: 3, cols: 3}}
actions:
  play:
    params: {{c: cell}}
    where: empty(c)
    effects:
      - place: {{piece: stone, at: c}}
    notation: "{{c}}"
ranking:
  stones: "count(c in cells: owner(c) == p)"
{render}"""


def _state(tmp_path: Path, players: str, render: str = "", plies: int = 3):
    spec = tmp_path / "dots.yaml"
    spec.write_text(SPEC.format(players=players, render=render), encoding="utf-8")
    state = game_from_ir(load_game_ir(str(spec)), "interpreted").new_state(1)
    for _ in range(plies):
        state.apply(state.legal_moves()[0])
    return state


def _fills_by_owner(state) -> dict[str, set[str]]:
    """Player name -> the fills of the cells its pieces stand on, read from the SVG."""
    svg = ET.fromstring(render_svg(state))
    out: dict[str, set[str]] = {}
    for el in svg.iter(f"{NS}polygon"):
        cls = el.get("class", "").split()
        who = [c.removeprefix("player-") for c in cls if c.startswith("player-")]
        if who:
            out.setdefault(who[0], set()).add(el.get("fill"))
    return out


def test_players_named_after_colours_are_drawn_in_them_in_the_svg(tmp_path: Path) -> None:
    state = _state(tmp_path, "red, blue, orange")
    fills = _fills_by_owner(state)
    assert fills == {"red": {colours.NAMED["red"][0]}, "blue": {colours.NAMED["blue"][0]}, "orange": {colours.NAMED["orange"][0]}}
    # the colour names mean what they say: red is reddest, blue bluest
    r, g, b = (int(colours.NAMED["red"][0][i : i + 2], 16) for i in (1, 3, 5))
    assert r > g and r > b
    r, g, b = (int(colours.NAMED["blue"][0][i : i + 2], 16) for i in (1, 3, 5))
    assert b > r and b > g
    # the panel's swatches agree with the board
    svg = ET.fromstring(render_svg(state))
    swatch = {el.get("class"): el.get("fill") for el in svg.iter(f"{NS}rect") if el.get("class", "").startswith("player-")}
    assert swatch == {"player-red": "#c0392b", "player-blue": "#2f6db5", "player-orange": "#e67e22"}
    assert ".cell.p0{fill:#c0392b}" in render_svg(state)


def test_players_named_after_colours_are_drawn_in_them_in_the_terminal(tmp_path: Path) -> None:
    state = _state(tmp_path, "red, blue, orange")
    text = render_text(state, color=True)
    assert click.style("R", fg="red", bold=True) in text
    assert click.style("B", fg="blue", bold=True) in text
    assert click.style("O", fg=208, bold=True) in text  # xterm-256 orange
    assert "\x1b[38;5;208m" in text
    assert click.unstyle(text) == render_text(state, color=False)


def test_other_players_avoid_the_colours_taken_by_name(tmp_path: Path) -> None:
    # "sea" would take the palette's first colour, blue, but a player is called blue
    assert colours.choose(["sea", "blue", "land"]) == ("green", "blue", "red")
    assert colours.choose(["a", "b"]) == ("blue", "green")  # the old seat colours
    assert colours.choose(["violet", "x"]) == ("violet", "blue")
    assert colours.choose(["purple", "a", "b", "c", "d"])[1:] == ("blue", "green", "red", "yellow")
    state = _state(tmp_path, "sea, blue, land")
    assert _fills_by_owner(state) == {"sea": {"#4f9a3a"}, "blue": {"#2f6db5"}, "land": {"#c0392b"}}


def test_an_explicit_colour_wins(tmp_path: Path) -> None:
    state = _state(tmp_path, "red, land, sea", 'render:\n  colors: {red: "#2a6fdb", land: brown}\n')
    fills = _fills_by_owner(state)
    assert fills["red"] == {"#2a6fdb"} and fills["land"] == {colours.NAMED["brown"][0]}
    # sea takes the first free colour: blue (the hex #2a6fdb is no named family)
    assert fills["sea"] == {"#2f6db5"}
    text = render_text(state, color=True)
    assert click.style("R", fg=colours.terminal_style("#2a6fdb")["fg"], bold=True) in text
    assert click.style("L", fg=130, bold=True) in text


@pytest.mark.parametrize(
    "render, line, col, message",
    [
        ('render:\n  colors: {red: bleu}\n', 15, 17, "'bleu' is not a colour"),
        ('render:\n  colors: {red: "#12345"}\n', 15, 17, "'#12345' is not a colour"),
        ('render:\n  colors: {green: red}\n', 15, 12, "unknown player 'green'"),
        ("render:\n  colors: [red]\n", 15, 11, "render.colors maps player names to colours"),
    ],
)
def test_bad_colours_are_errors_at_their_place(tmp_path: Path, render: str, line: int, col: int, message: str) -> None:
    with pytest.raises(SpecError) as info:
        _state(tmp_path, "red, blue", render)
    first = str(info.value).split("\n")[0]
    assert f"dots.yaml:{line}:{col}: error: " in first and message in first, first


# -- the text board's row and column labels, as the cell names write them ----------------

from conftest import ROOT  # noqa: E402


def _board_lines(spec: str, moves: int = 0) -> list[str]:
    state = game_from_ir(load_game_ir(str(ROOT / spec)), "interpreted").new_state(3)
    for _ in range(moves):
        state.apply(state.legal_moves()[0])
    text = render_text(state, color=False)
    return text.split("\n\n")[0].split("\n")


def test_a_square_board_has_rank_numbers_and_file_letters() -> None:
    lines = _board_lines("specs/classics/connect-four.yaml")
    assert [ln.split()[0] for ln in lines[:6]] == ["6", "5", "4", "3", "2", "1"]
    assert lines[6].split() == list("abcdefg")
    # each file letter stands under its column: a disc dropped in file a lands under 'a'
    lines = _board_lines("specs/classics/tic-tac-toe.yaml", moves=1)  # x plays the first move
    assert lines[3].split() == ["a", "b", "c"]
    (x_row,) = [ln for ln in lines[:3] if "X" in ln]
    assert x_row.index("X") == lines[3].index("a")


def test_a_triangle_board_labels_each_row_by_its_row() -> None:
    lines = _board_lines("specs/midgard.yaml")
    labels = [ln.split()[0] for ln in lines]
    # rows 0..9 ("{row}.{index}"), then the row of cells affixed below the bottom edge (B1..B8)
    assert labels == [str(r) for r in range(10)] + ["B"]


def test_a_hex_board_labels_rows_and_files_like_its_notation() -> None:
    lines = _board_lines("specs/classics/hex.yaml")
    assert [ln.split()[0] for ln in lines[:11]] == [str(r) for r in range(1, 12)]
    assert lines[11].split() == list("abcdefghijk")
    # the files stand under the bottom row's cells (rank 11 is drawn furthest right)
    assert lines[11].index("a") == lines[10].index(".")


def test_labels_fall_back_to_numbers_when_names_do_not_split() -> None:
    from midgardc.runtime.view import axis_labels

    class B:
        topology = "square"
        coords = [(0, 0), (0, 2), (1, 0), (1, 2)]
        cell_names = ["north", "east", "south", "west"]

    rows, cols = axis_labels(B)
    assert rows == {0: "1", 1: "2"} and cols == [(0, "1"), (2, "2")]
    B.cell_names = ["1.1", "2.1", "1.2", "2.2"]  # "{col}.{row}": the row part is last
    rows, cols = axis_labels(B)
    assert rows == {0: "1", 1: "2"} and cols == [(0, "1"), (2, "2")]
    B.cell_names = ["3-x", "3-y", "4-x", "4-y"]  # the row part first
    rows, cols = axis_labels(B)
    assert rows == {0: "3", 1: "4"} and cols == [(0, "x"), (2, "y")]
    B.cell_names = ["r1c1", "r1c2", "r2c1", "r2c2"]  # no single part names the row: numbers
    assert axis_labels(B) == ({0: "1", 1: "2"}, [(0, "1"), (2, "2")])


def test_a_graph_board_is_drawn_at_its_places_with_its_neighbours() -> None:
    state = game_from_ir(load_game_ir(str(ROOT / "tests/data/graph_dice.yaml")), "interpreted").new_state(3)
    text = render_text(state, color=False)
    lines = text.split("\n")
    # top (2, 0) above hub (2, 2) in the same column; left (0, 2) and right (4, 2) beside hub
    (top,) = [ln for ln in lines if "top ." in ln]
    (mid,) = [ln for ln in lines if "left ." in ln]
    (foot,) = [ln for ln in lines if "foot ." in ln]
    (tail,) = [ln for ln in lines if "tail ." in ln and " - " not in ln]
    assert lines.index(top) < lines.index(mid) < lines.index(foot) < lines.index(tail)
    assert top.index("top") == mid.index("hub") == foot.index("foot") == tail.index("tail")
    assert mid.index("left") < mid.index("hub") < mid.index("right")
    assert "  hub   - top, left, right, foot" in lines
    # the eight realms of a ring round midgard: midgard in the middle of its row
    state = game_from_ir(load_game_ir(str(ROOT / "specs/micro-midgard.yaml")), "interpreted").new_state(3)
    lines = render_text(state, color=False).split("\n\n")[0].split("\n")  # the drawing
    (row,) = [ln for ln in lines if "helheim" in ln]
    assert row.index("helheim") < row.index("midgard") < row.index("vanaheim")
    (asgard,) = [ln for ln in lines if ln.strip().startswith("asgard")]
    assert asgard.index("asgard") == row.index("midgard")
