"""A glyph per kind of piece (``render.glyphs: {player: {kind: glyph}}``, or the letters of
the spec's ``position:`` board notation): the text board is one grid that reads like the
game (chess ``r n b q k b n r``, draughts men and kings), pictures mark pieces with the same
glyphs, and broken glyph maps are errors at their place. Also ``render.hand: false`` hides
the pieces in hand in the text board as it does in pictures."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import ROOT
from midgardc.errors import SpecError
from midgardc.render.svg import render_svg
from midgardc.engines import load
from midgardc.runtime.view import render_text
from midgardc.spec.lower import load_game_ir

NS = "{http://www.w3.org/2000/svg}"
CLASSICS = ROOT / "specs" / "classics"


def _grid(text: str) -> list[str]:
    """The board's rows as drawn (the label and the cells), up to the first blank line."""
    return [line.strip() for line in text.split("\n\n")[0].splitlines()]


def test_chess_reads_as_one_grid_of_fen_letters_without_the_box() -> None:
    """Chess declares FEN (White's pieces in capitals, Black's in small letters) and no
    glyphs: its board is drawn in those letters, one grid, and (render.hand: false) the
    spare pieces in the box are not listed."""
    state = load(str(CLASSICS / "chess.yaml")).new_state(0)
    text = render_text(state, color=False)
    assert _grid(text) == [
        "8  r n b q k b n r",
        "7  p p p p p p p p",
        *[f"{r}  . . . . . . . ." for r in range(6, 2, -1)],
        "2  P P P P P P P P",
        "1  R N B Q K B N R",
        "a b c d e f g h",
    ]
    assert "second grid" not in text and "in hand" not in text
    assert "  white: K king   Q queen   R rook   B bishop   N knight   P pawn" in text.splitlines()
    assert "  black: k king   q queen   r rook   b bishop   n knight   p pawn" in text.splitlines()
    state.apply(state.game.move_id("e2e4"))
    assert _grid(render_text(state, color=False))[4] == "4  . . . . P . . ."


def test_draughts_men_and_kings_have_their_own_glyphs() -> None:
    """Draughts says its glyphs per kind: men in small letters, kings in capitals."""
    game = load(str(CLASSICS / "draughts.yaml"))
    state = game.new_state(0)
    rows = _grid(render_text(state, color=False))
    assert rows[0] == "8  . w . w . w . w" and rows[7] == "1  b . b . b . b ."
    ir = game.ir
    king = 1 + ir.players.index("white") * ir.n_kinds + ir.kinds.index("king")
    board = list(state.core.board)
    board[ir.board.cell_names.index("d4")] = king
    state.core.load(board, [list(h) for h in state.core.hands], state.current_player(), -1, 0, None, [list(c) for c in state.core.counters])
    assert _grid(render_text(state, color=False))[4] == "4  . . . W . . . ."


def test_pictures_draw_the_figures_the_spec_names_and_list_the_glyphs() -> None:
    """Chess names a figure per kind (render.figures): the pieces are drawn as those
    figures in their owner's colour on the light and dark squares; the legend still gives
    the glyphs the text board and the moves use."""
    state = load(str(CLASSICS / "chess.yaml")).new_state(0)
    root = ET.fromstring(render_svg(state))
    texts = ["".join(el.itertext()) for el in root.iter(NS + "text")]
    figures = {el.get("data-at"): el for el in root.iter(NS + "g") if el.get("data-figure")}
    assert sorted(figures) == sorted(c for c, v in state.to_json()["board"].items() if v is not None)
    assert (figures["e1"].get("data-figure"), figures["e1"].get("data-kind"), figures["e1"].get("data-player")) == ("cross-crown", "king", "white")
    assert (figures["d8"].get("data-figure"), figures["g8"].get("data-figure"), figures["a2"].get("data-figure")) == ("crown", "horse", "pawn")
    assert figures["e1"].get("fill") == "#f4f4f4" and figures["e8"].get("fill") == "#222222"
    assert "white: K king, Q queen, R rook, B bishop, N knight, P pawn" in texts
    assert not any("in hand" in t for t in texts)
    # the glyph marks stay empty (the figure tells the kind); the axes name the squares
    glyphs = ["".join(el.itertext()) for el in root.iter(NS + "text") if el.get("data-glyph") is not None]
    assert glyphs and not any(glyphs)
    assert not [el for el in root.iter(NS + "text") if el.get("class") == "label"]
    # a1 is a dark square, h1 a light one (FIDE Laws 2.1: "the near corner square to the
    # right of the player is white")
    ground = {el.get("data-cell"): el.get("style") for el in root.iter() if el.get("data-cell")}
    assert ground["a1"] == "fill:#b58863" and ground["h1"] == "fill:#f0d9b5" and ground["a2"] == "fill:#f0d9b5"


BASE = """\
midgardc: 1
game: {name: plain, players: [a, b]}
pieces: {man: {}, king: {}}
board: {topology: square, rows: 2, cols: 3}
actions:
  play: {params: {c: cell}, where: empty(c), effects: [{place: {piece: man, at: c}}], notation: "{c}"}
ranking:
  men: "count(c in cells: owner(c) == p)"
render:
"""


def _lower(tmp_path: Path, render: str):
    path = tmp_path / "g.yaml"
    path.write_text(BASE + render)
    return load_game_ir(str(path))


def test_a_glyph_per_kind_lowers(tmp_path: Path) -> None:
    ir = _lower(tmp_path, "  glyphs:\n    a: {man: x, king: X}\n    b: {man: o, king: O}\n")
    assert ir.render.present.kind_glyphs == (("x", "X"), ("o", "O"))
    ir = _lower(tmp_path, "  glyphs: {a: x, b: o}\n")  # a glyph per player: as before
    assert ir.render.piece_glyphs == ("x", "o") and ir.render.present.kind_glyphs == ()


@pytest.mark.parametrize(
    "render,message,line,col",
    [
        ("  glyphs:\n    c: {man: x, king: X}\n", "unknown player 'c'", 11, 5),
        ("  glyphs:\n    a: {man: x, kign: X}\n    b: {man: o, king: O}\n", "render.glyphs: unknown kind of piece 'kign'", 11, 17),
        ("  glyphs:\n    a: {man: xx, king: X}\n    b: {man: o, king: O}\n", "a glyph is one printable character, not 'xx'", 11, 14),
        ("  glyphs:\n    a: {man: x, king: X}\n    b: {man: o, king: x}\n", "render.glyphs: 'x' is already a's man; each piece needs a glyph of its own", 12, 23),
        ("  glyphs:\n    a: {man: x, king: X}\n    b: {man: o}\n", "render.glyphs: b has no glyph for king", 12, 8),
        ("  glyphs:\n    a: {man: x, king: X}\n    b: o\n", "give every player a glyph per kind of piece, or every player one glyph", 12, 5),
        ("  glyphs:\n    a: {man: x, king: X}\n", "render.glyphs: no glyphs for b's pieces", 11, 5),
        ("  glyphs:\n    a: {man: ., king: X}\n    b: {man: o, king: O}\n", "'.' is an empty cell's glyph", 11, 14),
    ],
)
def test_broken_glyphs_are_errors_at_their_place(tmp_path: Path, render: str, message: str, line: int, col: int) -> None:
    with pytest.raises(SpecError) as info:
        _lower(tmp_path, render)
    assert message in info.value.message
    assert (info.value.pos.line, info.value.pos.col) == (line, col)


def test_the_vikings_board_shows_each_number_once() -> None:
    """Vikings' text board: the counter `score` is also the ranking key `score` (score(p)),
    so it is written once, with the scores; `warriors[hut]` (no rule counts warriors in
    huts: they are pieces on the board) is render.internal, so it is never written; a
    leader on the board is told from a warrior (R and r)."""
    state = load(str(ROOT / "specs" / "midgard-vikings.yaml")).new_state(0)
    text = render_text(state, color=False)
    lines = text.splitlines()
    at = lines.index("  red: score 0, tokens 0")
    assert lines[at + 1] == "    leader_at boat, plays 0"
    assert lines[at + 2] == "    warriors: boat 5, asgard 0, vanaheim 0, valhalla 0, offboard 6"
    assert "hut 0" not in text and text.count("score 0") == state.game.ir.n_players
    assert "  red: r warrior   R leader" in lines


def test_an_array_element_can_be_internal(tmp_path: Path) -> None:
    spec = BASE.replace("board:", "enums: {side: [near, far]}\ncounters: {seen: {index: side, start: 0}}\nboard:") + '  internal: ["seen[far]"]\n'
    path = tmp_path / "g.yaml"
    path.write_text(spec)
    ir = load_game_ir(str(path))
    assert [ir.counters[i] for i in ir.render.present.internal] == ["seen[far]"]
    path.write_text(spec.replace("seen[far]", "seen[fra]"))
    with pytest.raises(SpecError, match="render.internal: unknown counter 'seen\\[fra\\]'"):
        load_game_ir(str(path))
