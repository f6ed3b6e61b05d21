"""Saying a board and a game's items once: a row of graph nodes (``{row: hut, count: n,
at, step, linked}``), an edge of three or more names (a path), and the kinds of item
named only by the zones they start in (no ``items:``). Each builds what the long form
builds, and a broken one is refused at its place."""

from __future__ import annotations

import pytest

from conftest import assert_spec_error
from midgardc.spec.lower import load_game_ir

SPEC = """midgardc: 1
game: {name: t, players: [red, blue]}
pieces: {stone: {hand: 4}}
board:
  topology: graph
  BOARD
actions:
  drop: {params: {c: cell}, where: empty(c), effects: [{place: {piece: stone, at: c}}]}
ranking: {stones: "count(c in cells: owner(c) == p)"}
"""


def board(tmp_path, text: str, name: str = "b.yaml"):
    path = tmp_path / name
    path.write_text(SPEC.replace("BOARD", text), encoding="utf-8")
    return load_game_ir(str(path)).board


def same_board(a, b) -> bool:
    return (a.cell_names, a.neighbours, a.polygons) == (b.cell_names, b.neighbours, b.polygons)


def test_a_linked_row_is_its_nodes_in_a_line_each_linked_to_the_next(tmp_path) -> None:
    short = board(tmp_path, "nodes:\n    - {row: hut, count: 3, at: [0, 2], linked: true}\n    - {name: well, at: [1, 0]}\n  edges: [[well, hut.2]]")
    long = board(tmp_path, "nodes:\n    - {name: hut.1, at: [0, 2]}\n    - {name: hut.2, at: [1, 2]}\n    - {name: hut.3, at: [2, 2]}\n"
                 "    - {name: well, at: [1, 0]}\n  edges: [[hut.1, hut.2], [hut.2, hut.3], [well, hut.2]]", "long.yaml")
    assert same_board(short, long)
    assert short.cell_names == ("hut.1", "hut.2", "hut.3", "well")


def test_an_unlinked_row_with_a_step_and_a_row_without_places(tmp_path) -> None:
    stepped = board(tmp_path, "nodes:\n    - {row: pier, count: 2, at: [5, 0], step: [0, 1.5]}")
    assert stepped.neighbours == ((), ()) and [p[0] for p in stepped.polygons] == [(5.0, 0.0), (5.0, 1.5)]
    plain = board(tmp_path, "nodes:\n    - {row: pier, count: 2}\n    - dock", "plain.yaml")
    assert plain.cell_names == board(tmp_path, "nodes: [pier.1, pier.2, dock]", "names.yaml").cell_names


def test_an_edge_of_more_names_is_a_path_in_order(tmp_path) -> None:
    ring = board(tmp_path, "nodes: [a, b, c, m]\n  edges: [[a, b, c, a], [m, a]]")
    pairs = board(tmp_path, "nodes: [a, b, c, m]\n  edges: [[a, b], [b, c], [c, a], [m, a]]", "pairs.yaml")
    assert same_board(ring, pairs)
    assert ring.neighbours[0] == (1, 2, 3)  # a: b, then c (the path's last edge), then m


def test_a_star_is_the_hub_linked_to_each_node_in_order(tmp_path) -> None:
    """``{from: hub, to: [...]}``: a hub linked to every node it lists (a board's centre,
    the spokes of a wheel), the same board as the pairs written out, neighbours in order."""
    star = board(tmp_path, "nodes: [a, b, c, m]\n  edges: [[a, b, c, a], {from: m, to: [a, b, c]}]")
    pairs = board(tmp_path, "nodes: [a, b, c, m]\n  edges: [[a, b, c, a], [m, a], [m, b], [m, c]]", "pairs.yaml")
    assert same_board(star, pairs)
    assert star.neighbours[3] == (0, 1, 2) and star.neighbours[0] == (1, 2, 3)


@pytest.mark.parametrize("text, message, line, col", [
    ("nodes: [a, b]\n  edges: [{from: a, to: [b, z]}]", "unknown node 'z' in edge", 7, 29),
    ("nodes: [a, b]\n  edges: [{from: a, to: b}]", "a star of edges is {from: hub, to: [a, b, ...]}", 7, 11),
    ("nodes: [a, b]\n  edges: [{from: a, with: [b]}]", "a star of edges is", 7, 11),
    ("nodes:\n    - {row: hut, count: 0}", "needs 'count'", 7, 25),
    ("nodes:\n    - {row: hut, count: 2, size: 3}", "unknown key 'size' for a row of graph nodes", 7, 28),
    ("nodes:\n    - {row: hut, count: 2, step: [0, 1]}", "give the first node's place", 7, 28),
    ("nodes:\n    - {row: hut, count: 2, linked: 1}", "'linked' is true or false", 7, 36),
    ("nodes:\n    - {row: hut, count: 2}\n    - hut.2", "node 'hut.2' is listed twice", 8, 7),
    ("nodes: [a, b]\n  edges: [[a]]", "an edge is a list of two node names", 7, 11),
    ("nodes: [a, b]\n  edges: [[a, b, z]]", "unknown node 'z' in edge", 7, 18),
])
def test_a_broken_row_or_path_is_refused_at_its_place(tmp_path, text: str, message: str, line: int, col: int) -> None:
    assert_spec_error(tmp_path, SPEC.replace("BOARD", text), message, line, col)


ZONES = """midgardc: 1
game: {name: t, players: [red, blue]}
ITEMS
zones:
  deck: {of: game, ordered: true, items: {ace: 2, king: 1}}
  held: {of: player, items: {king: 1, queen: 1}}
board: {topology: graph, nodes: [table]}
actions:
  draw: {effects: [{deal: {from: deck, to: held}}]}
ranking: {cards: "zone_size(p, held)"}
"""


def test_the_zones_items_declare_the_kinds_in_the_order_first_named(tmp_path) -> None:
    bare = tmp_path / "bare.yaml"
    bare.write_text(ZONES.replace("ITEMS", ""), encoding="utf-8")
    listed = tmp_path / "listed.yaml"
    listed.write_text(ZONES.replace("ITEMS", "items: {ace: {}, king: {}, queen: {}}"), encoding="utf-8")
    a, b = load_game_ir(str(bare)).zones, load_game_ir(str(listed)).zones
    assert a == b and a.names == ("ace", "king", "queen") and a.texts == a.names


def test_with_an_items_section_a_zone_may_not_name_an_undeclared_kind(tmp_path) -> None:
    text = ZONES.replace("ITEMS", "items: {ace: {}, king: {}}")
    assert_spec_error(tmp_path, text, "unknown item 'queen'", 6, 39)
