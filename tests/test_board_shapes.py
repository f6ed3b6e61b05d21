"""Two board generators that spare a spec its lists of cells: ``size`` on a square board
(rows and cols alike) and the ``concentric`` topology (squares joined at the middles of
their sides, the board of the mill games), each met in two uses."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import SPECS
from midgardc.errors import SpecError
from midgardc.spec.lower import load_game_ir

LINES = str(Path(__file__).parent / "data" / "lines.yaml")
SPEC = "midgardc: 1\ngame: {name: t, players: [a, b]}\npieces: {man: {hand: 9}}\nboard: BOARD\n" \
       "actions:\n  put:\n    params: {c: cell}\n    where: empty(c)\n    effects: [place: {piece: man, at: c}]\n" \
       "ranking:\n  lines: \"count(c in cells: line(c, 3) and owner(c) == p)\"\n"


def _ir(tmp_path: Path, board: str):
    path = tmp_path / "t.yaml"
    path.write_text(SPEC.replace("BOARD", board), encoding="utf-8")
    return load_game_ir(str(path))


def _edges(board) -> set[frozenset[str]]:
    return {frozenset((board.cell_names[a], board.cell_names[b])) for a, ns in enumerate(board.neighbours) for b in ns}


def _lines_of_three(board) -> set[tuple[str, ...]]:
    """Every run of three points stepping one direction (each line once, ends sorted)."""
    n = board.n_cells
    out = set()
    for steps in board.steps:
        for c in range(n):
            b = steps[c]
            e = steps[b] if b < n else n
            if e < n:
                out.add(tuple(sorted((board.cell_names[c], board.cell_names[b], board.cell_names[e]))))
    return out


def test_three_rings_are_the_twenty_four_points_and_sixteen_mills(tmp_path):
    board = _ir(tmp_path, "{topology: concentric, rings: 3}").board
    assert board.cell_names[:6] == ("a7", "d7", "g7", "b6", "d6", "f6") and board.cell_names[-3:] == ("a1", "d1", "g1")
    assert len(board.cell_names) == 24 and len(_edges(board)) == 32
    assert {"c4", "e4"} not in [set(e) for e in _edges(board)]    # the centre is not crossed
    assert frozenset(("d5", "d3")) not in _edges(board)
    lines = _lines_of_three(board)
    assert len(lines) == 16 and ("a1", "a4", "a7") in lines and ("d5", "d6", "d7") in lines
    assert ("a4", "b4", "c4") in lines and not any("e4" in line and "c4" in line for line in lines)
    assert board.topology == "graph" and board.polygons[1] == ((3.0, 0.0),)  # drawn as a placed graph


def test_two_rings_and_their_lines_in_play(tmp_path):
    board = _ir(tmp_path, "{topology: concentric, rings: 2, cell_name: 'p{col1}{row1}'}").board
    assert len(board.cell_names) == 16 and len(_edges(board)) == 20 and len(_lines_of_three(board)) == 8
    assert board.cell_names[:3] == ("p11", "p31", "p51")
    # lines.yaml's `rings` variant plays line(c, n) on it (and test_bitboards plays it on both back ends)
    assert load_game_ir(LINES, "rings").board.n_cells == 16


def test_nine_mens_morris_reads_its_mills_off_the_board():
    ir = load_game_ir(str(SPECS / "classics" / "nine-mens-morris.yaml"))
    assert ir.board.n_cells == 24 and ir.board.directions == ("n", "e", "s", "w")


@pytest.mark.parametrize("board,message", [
    ("{topology: concentric, rings: 0}", "board.rings"),
    ("{topology: concentric}", "needs 'rings'"),
    ("{topology: concentric, rings: 3, rows: 3}", "unknown key 'rows'"),
    ("{topology: square, size: 8, cols: 8}", "'size' (rows and cols alike) or 'rows' and 'cols', not both"),
    ("{topology: square, size: 99}", "board.size"),
])
def test_board_shape_errors_say_where(tmp_path, board, message):
    with pytest.raises(SpecError) as err:
        _ir(tmp_path, board)
    assert message in str(err.value) and err.value.pos.line == 4


def test_size_is_rows_and_cols(tmp_path):
    sized = _ir(tmp_path, "{topology: square, size: 5}").board
    spelled = _ir(tmp_path, "{topology: square, rows: 5, cols: 5}").board
    assert sized.cell_names == spelled.cell_names and sized.steps == spelled.steps and sized.n_cells == 25
    for spec in ("go.yaml", "draughts.yaml"):
        assert load_game_ir(str(SPECS / "classics" / spec)).board.n_cells in (81, 64)
