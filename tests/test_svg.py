"""SVG pictures of every board topology: one element per cell, classed by what is on it,
the players' tracks, torus marks, graph node places (given or laid out) and their errors."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import ROOT
from midgardc.cli import cli
from midgardc.errors import SpecError
from midgardc.render.svg import render_svg, track_labels
from midgardc.engines import game_from_ir
from midgardc.spec.lower import list_variants, load_game_ir

NS = "{http://www.w3.org/2000/svg}"
# (position.yaml extends tic-tac-toe.yaml and loads only copied beside it: test_position)
SPEC_FILES = sorted(str(p) for p in (ROOT / "specs").rglob("*.yaml")) + sorted(str(p) for p in (ROOT / "tests" / "data").glob("*.yaml") if p.name != "position.yaml")
TARGETS = [(spec, v) for spec in SPEC_FILES for v in [None, *list_variants(spec)]]

GRAPH_SPEC = """\
midgardc: 1
game: {{name: ring, title: Ring, players: [a, b]}}
pieces: {{stone: {{hand: 3}}, flag: {{hand: 1}}}}
counters: {{points: 0}}
board:
  topology: graph
  nodes: {nodes}
  edges: [[n1, n2], [n2, n3], [n3, n4], [n4, n1]]
actions:
  play:
    params: {{c: cell}}
    where: empty(c)
    effects:
      - place: {{piece: stone, at: c}}
    notation: "{{c}}"
end:
  when: ["all c in cells: occupied(c)"]
ranking:
  stones: "count(c in cells: owner(c) == p)"
render:
  glyphs: {{a: "A", b: "B"}}
"""
PLAIN_NODES = "[n1, n2, n3, n4]"
PLACED_NODES = "[{name: n1, at: [0, 0]}, {name: n2, at: [4, 0]}, {name: n3, at: [4, 3]}, {name: n4, at: [0, 3]}]"


def _state_after(spec: str, variant, plies: int):
    game = game_from_ir(load_game_ir(spec, variant), "interpreted")
    state = game.new_state(7)
    for _ in range(plies):
        if state.is_terminal():
            break
        moves = state.legal_moves()
        state.apply(moves[len(moves) // 2])
    return state


def _cells(root: ET.Element) -> list[ET.Element]:
    return [el for el in root.iter() if el.get("data-cell") is not None]


@pytest.mark.parametrize("spec,variant", TARGETS, ids=[f"{Path(s).stem}-{v or 'base'}" for s, v in TARGETS])
def test_every_spec_draws_one_classed_element_per_cell(spec: str, variant) -> None:
    state = _state_after(spec, variant, 5)
    ir = state.game.ir
    root = ET.fromstring(render_svg(state))
    assert root.tag == NS + "svg"
    cells = _cells(root)
    assert [el.get("data-cell") for el in cells] == list(ir.board.cell_names)
    board = state.to_json()["board"]
    marks = state.to_json().get("marks", {})
    owned = 0
    for el in cells:
        classes = el.get("class").split()
        assert classes[0] == "cell"
        owner = board[el.get("data-cell")]
        if isinstance(owner, dict):  # a stack: its owner, and its height as the cell's mark
            assert root.find(f".//{NS}text[@data-glyph='{el.get('data-index')}']").text.endswith(str(owner["height"]))
            owner = owner["owner"]
        if owner is not None:
            owned += 1
            assert classes[1:] == [f"p{ir.players.index(owner)}", f"player-{owner}"]
        elif classes[1] != "empty":
            state = int(classes[1][1:])
            assert classes[1:] == [f"s{state}", f"state-{ir.render.empty_states[state][0]}"]
        for name, cell_names in marks.items():
            if el.get("data-cell") in cell_names:
                assert classes[1] == f"s{[s[0] for s in ir.render.empty_states].index(name)}"
        assert el.find(NS + "title").text == el.get("data-cell")
    assert owned == sum(1 for v in board.values() if v is not None)


def test_tracks_show_hands_counters_and_scores() -> None:
    spec = str(ROOT / "specs" / "midgard.yaml")
    state = _state_after(spec, None, 3)
    root = ET.fromstring(render_svg(state))
    texts = {int(el.get("data-track")): el.text for el in root.iter(NS + "text") if el.get("data-track") is not None}
    labels = track_labels(state.game.ir)
    assert len(texts) == len(labels)
    data = state.to_json()
    expected = []
    for p in data["players"]:
        expected += [f"{k} in hand: {v}" for k, v in p["hand"].items()]
        expected += [f"score: {k}: {v}" for k, v in p["score"].items()]
    assert [texts[i] for i in range(len(texts))] == expected
    status = [el.text for el in root.iter(NS + "text") if el.get("class") == "status"]
    assert status == [f"{data['current']} to move (move 4)"]


def test_several_kinds_are_marked_with_their_letter() -> None:
    spec = str(ROOT / "tests" / "data" / "steps.yaml")
    game = game_from_ir(load_game_ir(spec), "interpreted")
    state = game.new_state(0)
    first = state.legal_moves()[0]
    state.apply(first)
    root = ET.fromstring(render_svg(state))
    glyphs = {el.get("data-glyph"): el.text or "" for el in root.iter(NS + "text") if el.get("data-glyph") is not None}
    filled = [c for c, v in glyphs.items() if v]
    assert len(filled) == 1
    kind = state.game.ir.kinds[state.game.ir.piece_kind(state.core.board[int(filled[0])])]
    assert glyphs[filled[0]] == kind[0].upper()


@pytest.mark.parametrize("wrap", [True, False])
def test_a_torus_marks_its_wrap_around_edges(tmp_path: Path, wrap: bool) -> None:
    text = (ROOT / "tests" / "data" / "steps.yaml").read_text()
    spec = tmp_path / "torus.yaml"
    spec.write_text(text.replace("board: {topology: square, rows: 5, cols: 6}", f"board: {{topology: square, rows: 5, cols: 6, wrap: {str(wrap).lower()}}}"))
    state = game_from_ir(load_game_ir(str(spec)), "interpreted").new_state(0)
    root = ET.fromstring(render_svg(state))
    dashed = [el for el in root.iter(NS + "rect") if el.get("class") == "wrap"]
    arrows = [el for el in root.iter(NS + "path") if el.get("class") == "wrap-arrow"]
    assert (len(dashed), len(arrows)) == ((1, 4) if wrap else (0, 0))
    assert len(_cells(root)) == 30


def _graph(tmp_path: Path, nodes: str) -> Path:
    spec = tmp_path / "ring.yaml"
    spec.write_text(GRAPH_SPEC.format(nodes=nodes))
    return spec


def test_graph_nodes_are_drawn_at_their_places_with_edges(tmp_path: Path) -> None:
    spec = _graph(tmp_path, PLACED_NODES)
    state = game_from_ir(load_game_ir(str(spec)), "interpreted").new_state(0)
    state.apply("n3")
    root = ET.fromstring(render_svg(state))
    circles = {el.get("data-cell"): el for el in root.iter(NS + "circle") if el.get("data-cell")}
    assert sorted(circles) == ["n1", "n2", "n3", "n4"]
    xy = {n: (float(el.get("cx")), float(el.get("cy"))) for n, el in circles.items()}
    # the given places, scaled alike: n1 left of n2 on one line, n4 below n1
    assert xy["n1"][1] == xy["n2"][1] and xy["n1"][0] < xy["n2"][0]
    assert xy["n1"][0] == xy["n4"][0] and xy["n4"][1] > xy["n1"][1]
    assert (xy["n2"][0] - xy["n1"][0]) / (xy["n4"][1] - xy["n1"][1]) == pytest.approx(4 / 3, rel=1e-2)
    assert circles["n3"].get("class") == "cell p0 player-a" and circles["n1"].get("class") == "cell empty"
    edges = sorted(el.get("data-edge") for el in root.iter(NS + "line") if el.get("class") == "edge")
    assert edges == ["n1-n2", "n1-n4", "n2-n3", "n3-n4"]


def test_graph_nodes_without_places_are_laid_out_the_same_way_every_time(tmp_path: Path) -> None:
    spec = _graph(tmp_path, PLAIN_NODES)
    pictures = [render_svg(game_from_ir(load_game_ir(str(spec)), "interpreted").new_state(0)) for _ in range(2)]
    assert pictures[0] == pictures[1]
    root = ET.fromstring(pictures[0])
    places = {(el.get("cx"), el.get("cy")) for el in root.iter(NS + "circle") if el.get("data-cell")}
    assert len(places) == 4  # every node at its own place


@pytest.mark.parametrize(
    "nodes,message,col",
    [
        ("[n1, {name: n2, at: [1, 2]}, n3, n4]", "node 'n2' has a place but the first node has no 'at:'", 15),
        ("[{name: n1, at: [0, x]}, n2]", "a node's place is given by two numbers", 30),
        ("[{name: n1, at: [0]}, n2]", "'at' is a list of two numbers", 26),
        ("[{name: n1, where: [0, 1]}, n2]", "unknown key 'where' for a graph node", 22),
        ("[{at: [0, 1]}, n2]", "a node needs a 'name'", 11),
    ],
)
def test_bad_node_places_are_errors_with_positions(tmp_path: Path, nodes: str, message: str, col: int) -> None:
    spec = _graph(tmp_path, nodes)
    with pytest.raises(SpecError) as info:
        load_game_ir(str(spec))
    assert message in info.value.message
    assert (info.value.pos.line, info.value.pos.col) == (7, col)


def test_show_writes_a_graph_picture(tmp_path: Path) -> None:
    spec = _graph(tmp_path, PLACED_NODES)
    out = tmp_path / "ring.svg"
    result = CliRunner().invoke(cli, ["show", str(spec), "--moves", "n1 n2", "--svg", str(out)])
    assert result.exit_code == 0, result.output
    root = ET.parse(out).getroot()
    classes = {el.get("data-cell"): el.get("class") for el in _cells(root)}
    assert classes == {"n1": "cell p0 player-a", "n2": "cell p1 player-b", "n3": "cell empty", "n4": "cell empty"}


def test_the_dice_roll_is_shown_and_a_due_roll_is_said() -> None:
    """Issue 3: 'midgardc show' for a game with dice makes the roll visible."""
    from midgardc.runtime.game import replay

    game = game_from_ir(load_game_ir(str(ROOT / "specs" / "magic-mids.yaml"), None), "interpreted")
    rolled = ET.fromstring(render_svg(replay(game, ["roll:A-A-5", "S:d5", "roll:2-3-blank"])))
    texts = [t.text or "" for t in rolled.iter("{http://www.w3.org/2000/svg}text")]
    assert "yellow to move (move 2, roll 2-3-blank)" in texts
    # a word on a face is written small enough to stay on the die (28 wide; about 0.62 em a
    # bold letter): 'blank' at 8 px, a letter at the die's 12 px
    faces = {t.text: t.get("font-size") for t in rolled.iter("{http://www.w3.org/2000/svg}text") if t.get("class") == "die-face"}
    assert faces == {"blank": "8.0px"} and 5 * 0.62 * 8.0 < 28
    due = ET.fromstring(render_svg(replay(game, ["roll:A-A-5", "S:d5"])))
    assert "a roll is due for yellow (move 2)" in [t.text for t in due.iter("{http://www.w3.org/2000/svg}text")]


def test_stacks_are_drawn_with_owner_and_height() -> None:
    """Issue 3: 'midgardc show' shows stacks with heights and owners (Meridian, fig. A's 2-high tower)."""
    from midgardc.runtime.game import replay

    game = game_from_ir(load_game_ir(str(ROOT / "specs" / "meridian.yaml"), None, 2), "interpreted")
    state = replay(game, ["9:9.4:3"])
    root = ET.fromstring(render_svg(state))
    cell = [el for el in _cells(root) if el.get("data-cell") == "9.4"][0]
    assert cell.get("class") == "cell p0 player-orange"
    assert root.find(f".//{NS}text[@data-glyph='{cell.get('data-index')}']").text == "3"


def test_numbers_are_written_in_their_cells() -> None:
    """Kalah says render.numbers: seeds: a picture writes each pit's seeds in the pit (as
    the text board does), and the seeds are not listed again beside the board."""
    state = _state_after(str(ROOT / "specs" / "classics" / "kalah.yaml"), None, 3)
    root = ET.fromstring(render_svg(state))
    numbers = {el.get("data-number"): int(el.text) for el in root.iter(NS + "text") if el.get("data-number")}
    seeds = state.to_json()["counters"]
    assert numbers == {c: seeds[f"seeds[{c}]"] for c in state.game.ir.board.cell_names}
    assert sum(numbers.values()) == 48  # 4 seeds in each of 12 pits, sown, none lost
    assert not [el for el in root.iter(NS + "text") if (el.get("data-counter") or "").startswith("seeds[")]


def test_cell_names_are_drawn_over_highlight_rings_and_regions() -> None:
    """Micro Midgard rings a realm in its owner's colour (render.highlight), over the
    realm's name below it: the names are drawn last, with a light halo, so they stay
    readable over rings, outlines and coloured cells."""
    game = game_from_ir(load_game_ir(str(ROOT / "specs" / "micro-midgard.yaml"), None), "interpreted")
    root = ET.fromstring(render_svg(game.new_state(3)))
    layers = [g.get("class") for g in root if g.tag == NS + "g"]
    assert "highlights" in layers and layers.index("marks") > layers.index("highlights") > layers.index("cells cells")
    sheet = "".join(s.text or "" for s in root.iter(NS + "style"))
    assert ".label{" in sheet and "paint-order:stroke;stroke:#fff" in sheet.split(".label{", 1)[1].split("}", 1)[0]


def test_a_cell_name_on_a_piece_reads_on_its_colour() -> None:
    """Midgard's tiles fill their cells in the owner's colour: the cell's name on a tile is
    written light on a dark tile (dark on a light one), without the halo of names on the
    board's own colours."""
    from midgardc.runtime.game import replay

    game = game_from_ir(load_game_ir(str(ROOT / "specs" / "midgard.yaml"), None), "interpreted")
    root = ET.fromstring(render_svg(replay(game, ["2.2"])))
    names = {t.text: t.get("style") for t in root.iter(NS + "text") if t.get("class") == "label"}
    assert names["2.2"] == "fill:#fff;stroke:none" and names["2.1"] is None


def test_a_side_highlight_draws_each_players_board_edges_in_their_colour() -> None:
    """``style: side`` (Hex: red joins top and bottom, blue left and right): the marked
    cells' edges on the board's outline, thick, in the player's colour; no inner edge."""
    from midgardc.render.svg.board import board_shapes, outline_edges
    from midgardc.render.svg.common import player_fills

    game = game_from_ir(load_game_ir(str(ROOT / "specs" / "classics" / "hex.yaml"), None), "interpreted")
    root = ET.fromstring(render_svg(game.new_state(0)))
    fills = dict(zip(player_fills(game.ir), game.ir.players))
    sides: dict[str, set[str]] = {}
    for line in root.iter("{http://www.w3.org/2000/svg}line"):
        if line.get("class") == "side":
            sides.setdefault(fills[line.get("stroke")], set()).add(line.get("data-at"))
    assert {c[1:] for c in sides["red"]} == {"1", "11"} and {c[0] for c in sides["blue"]} == {"a", "k"}
    assert len(sides["red"]) == len(sides["blue"]) == 22
    shapes, _, _ = board_shapes(game.ir)
    assert set(outline_edges(shapes)) == {c for c, name in enumerate(game.ir.board.cell_names) if name[0] in "ak" or name[1:] in ("1", "11")}


def test_connect_four_rings_the_winning_four() -> None:
    """render.highlight on line(c, 4): the four that won are ringed, nothing before."""
    from midgardc.runtime.game import replay

    game = game_from_ir(load_game_ir(str(ROOT / "specs" / "classics" / "connect-four.yaml"), None), "interpreted")
    ringed = re.compile(r'class="highlight"[^>]*data-at="(\w+)"')
    assert ringed.findall(render_svg(replay(game, ["a1", "b1", "a2", "b2", "a3", "b3"]))) == []
    assert sorted(ringed.findall(render_svg(replay(game, ["a1", "b1", "a2", "b2", "a3", "b3", "a4"])))) == ["a1", "a2", "a3", "a4"]


def test_a_long_legend_wraps_inside_the_panel() -> None:
    """A spec with many kinds (promoted pieces beside the plain ones) lists them all, in
    lines of at most 60 characters, so none runs off the picture's right edge."""
    root = ET.fromstring(render_svg(_state_after(str(ROOT / "specs/classics/crazyhouse.yaml"), None, 0)))
    legend = root.find(".//{http://www.w3.org/2000/svg}g[@class='legend']")
    lines = ["".join(t.itertext()) for t in legend.iter("{http://www.w3.org/2000/svg}text")]
    assert lines and max(len(line) for line in lines) <= 60, lines
    whole = " ".join(line.strip() for line in lines)
    assert "white: K king" in whole and "promoted queen" in whole.replace("_", " "), whole
