"""``props: {NAME: checkered}``: a square board's squares of its bottom-left corner's
colour, named on the board instead of listed (chess's dark squares, specs/classics/chess.yaml,
and the toy game tests/data/checkered.yaml, a board of 3 rows and 4 columns)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ENGINES, SPECS, get_game
from midgardc.errors import SpecError
from midgardc.spec.lower import load_game_ir

CHECKERED = str(Path(__file__).parent / "data" / "checkered.yaml")


def _dark(ir) -> set[str]:
    names, values = dict(ir.board.props)["dark"], ir.board.cell_names
    return {values[c] for c, v in enumerate(names) if v}


def test_chess_dark_squares_are_a1s_colour():
    """FIDE 2.1: the near corner square to each player's right is light: h1 light, a1 dark
    (the 32 squares chess.yaml listed before it said checkered)."""
    listed = """a1 c1 e1 g1 b2 d2 f2 h2 a3 c3 e3 g3 b4 d4 f4 h4
                a5 c5 e5 g5 b6 d6 f6 h6 a7 c7 e7 g7 b8 d8 f8 h8""".split()
    assert _dark(load_game_ir(str(SPECS / "classics" / "chess.yaml"))) == set(listed)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_board_of_another_shape_is_coloured_from_its_bottom_left(engine):
    game = get_game(CHECKERED, None, engine)
    assert _dark(game.ir) == {"a1", "c1", "b2", "d2", "a3", "c3"}
    state = game.new_state()
    assert sorted(m.text for m in state.legal_moves()) == ["a1", "a3", "b2", "c1", "c3", "d2"]
    state.apply("a1")
    state.apply("d2")
    assert sorted(m.text for m in state.legal_moves() if m.text.endswith("!")) == ["a2!", "b1!", "b3!", "c2!", "d1!", "d3!"]


def test_checkered_colours_only_a_square_board(tmp_path):
    text = Path(CHECKERED).read_text().replace("  topology: square\n  rows: 3\n  cols: 4\n", "  topology: hex\n  rows: 3\n  cols: 4\n")
    path = tmp_path / "t.yaml"
    path.write_text(text)
    with pytest.raises(SpecError) as info:
        load_game_ir(str(path))
    assert "'checkered' colours a square board's squares" in info.value.message
    assert info.value.pos.line == text.splitlines().index("  props: {dark: checkered}") + 1
