"""``setup:`` as a text, the board row by row as a FEN writes it: read by the spec's own
position notation (chess) or, without one, by each kind's letter (draughts); both give
exactly the cells the listed form gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import SPECS
from midgardc.errors import SpecError
from midgardc.spec.lower import load_game_ir

SPEC = """midgardc: 1
game: {name: t, players: [red, blue]}
pieces: PIECES
board: {topology: square, rows: 3, cols: 4}
setup: SETUP
actions:
  pass: {}
ranking:
  none: "0"
"""


def _ir(tmp_path: Path, setup: str, pieces: str = "{man: {}, king: {}}"):
    path = tmp_path / "t.yaml"
    path.write_text(SPEC.replace("SETUP", setup).replace("PIECES", pieces), encoding="utf-8")
    return load_game_ir(str(path))


def _placed(ir) -> dict[str, tuple[str, str]]:
    nk = len(ir.kinds)
    return {ir.board.cell_names[c]: (ir.players[(p - 1) // nk], ir.kinds[(p - 1) % nk])
            for c, p in enumerate(ir.initial_board) if p}


def test_letters_by_kind_and_seat(tmp_path):
    ir = _ir(tmp_path, "M2k/4/1Km1")
    assert _placed(ir) == {"a3": ("red", "man"), "d3": ("blue", "king"), "b1": ("red", "king"), "c1": ("blue", "man")}
    # the same cells as the listed form
    listed = _ir(tmp_path, "[{piece: man, owner: red, cells: [a3]}, {piece: king, owner: blue, cells: [d3]},"
                           " {piece: king, owner: red, cells: [b1]}, {piece: man, owner: blue, cells: [c1]}]")
    assert listed.initial_board == ir.initial_board


def test_a_one_letter_notation_is_the_letter(tmp_path):
    ir = _ir(tmp_path, "N3/4/3n", "{king: {}, knight: {notation: n}}")
    assert _placed(ir) == {"a3": ("red", "knight"), "d1": ("blue", "knight")}


def test_the_classics_set_up_as_they_listed():
    chess = load_game_ir(str(SPECS / "classics" / "chess.yaml"))       # by its FEN's board field
    assert _placed(chess)["e1"] == ("white", "king") and _placed(chess)["d8"] == ("black", "queen")
    assert len(_placed(chess)) == 32
    draughts = load_game_ir(str(SPECS / "classics" / "draughts.yaml"))  # by its kinds' letters
    assert {c for c, (p, _) in _placed(draughts).items() if p == "black"} == {
        "a1", "c1", "e1", "g1", "b2", "d2", "f2", "h2", "a3", "c3", "e3", "g3"}
    assert len(_placed(draughts)) == 24


@pytest.mark.parametrize("setup,pieces,message", [
    ("M2k/4", "{man: {}, king: {}}", "2 rows"),
    ("M2k/5/4", "{man: {}, king: {}}", "row 2 would hold 5 cells"),
    ("M2x/4/4", "{man: {}, king: {}}", "'x': not a piece letter"),
    ("4/4/4", "{king: {}, knight: {}}", "give one of them a one-letter 'notation'"),
])
def test_a_bad_setup_text_is_an_error_at_it(tmp_path, setup, pieces, message):
    with pytest.raises(SpecError) as err:
        _ir(tmp_path, setup, pieces)
    assert message in str(err.value) and err.value.pos.line == 5
