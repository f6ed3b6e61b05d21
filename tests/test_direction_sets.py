"""Direction sets (issue 27 item 6): a square board's own orthogonal and diagonal sets and
the spec's named ones (board.direction_sets, one set per player where it differs), ranged
over in quantifiers and in remove.each, and tested as orthogonal(d) / forward(p, d).
Both back ends list the same moves (the front end lowers a set to attributes of dir, so
neither back end has code of its own for sets); chess (rook, bishop, knight, castling) and
draughts (a man's forward move, a set toward the player property up) use them, and their perft and differential tests cover them
on full games."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import assert_spec_error
from midgardc.engines import load
from midgardc.errors import SpecError
from midgardc.runtime.game import perft
from midgardc.spec.lower import load_game_ir

# A 4x4 board: a rook slides along its rank or file (orthogonal), a man steps one square
# diagonally forward (a set that differs by player) and takes the pieces orthogonally next
# to where it lands (remove.each over a set).
SPEC = """midgardc: 1
game: {name: dirsets, players: [white, black], max_plies: 12}
pieces: {rook: {}, man: {}}
board:
  topology: square
  rows: 4
  cols: 4
  direction_sets:
    forward: {white: [ne, nw], black: [se, sw]}
setup:
  - {piece: rook, owner: white, cells: [a1]}
  - {piece: man, owner: white, cells: [c1]}
  - {piece: rook, owner: black, cells: [d4]}
  - {piece: man, owner: black, cells: [b4, c3]}
define:
  rook_to(cell f, cell t): "any d in orthogonal: any x in slide(f, d): x == t"
  man_to(cell f, cell t): "any d in forward(mover): t == step(f, d)"
  lines(cell c): "count(d in orthogonal: onboard(step(c, d)))"
  open_diagonals(cell c): "sum(d in diagonal: if empty(step(c, d)) and onboard(step(c, d)) then 1 else 0)"
  boxed(cell c): "all d in orthogonal: not empty(step(c, d))"
actions:
  go:
    params: {f: cell, t: cell}
    where: "owner(f) == mover and owner(t) != mover and (kind_at(f) == rook and rook_to(f, t) or kind_at(f) == man and man_to(f, t) and empty(t))"
    effects:
      - move: {from: f, to: t}
      - if:
          when: "kind_at(t) == man"
          then:
            - remove: {each: "d in orthogonal", where: "owner(step(t, d)) == next_player(mover) and not forward(mover, d) and lines(t) + open_diagonals(t) >= 0 and not boxed(t)", at: "step(t, d)", to: out}
    notation: "{f}{t}"
ranking:
  won: "count(c in cells: owner(c) == p)"
"""


@pytest.fixture(scope="module")
def spec(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("dirsets") / "dirsets.yaml"
    path.write_text(SPEC, encoding="utf-8")
    return path


def legal(game) -> list[str]:
    return sorted(m.text for m in game.legal_moves())


def test_sets_give_the_moves_the_rules_say(spec):
    state = load(str(spec), None, engine="interpreted").new_state()
    # the rook on a1: up the a-file to a4 and along the first rank up to its own man on c1
    # (no diagonal); White's man on c1: forward is up the board, ne and nw, both empty
    assert legal(state) == sorted(["a1a2", "a1a3", "a1a4", "a1b1", "c1b2", "c1d2"])
    state.apply("c1d2")
    # Black's men step down the board (se, sw): b4 to a3 (c3 is its own), c3 to b2 and d2
    # is White's man, so not there; the rook on d4 slides down the d-file to d3 and takes
    # d2, and along the fourth rank to c4 (b4 is its own)
    assert legal(state) == sorted(["b4a3", "c3b2", "d4c4", "d4d3", "d4d2"])


def test_a_man_takes_the_pieces_orthogonally_next_to_where_it_lands(spec):
    state = load(str(spec), None, engine="interpreted").new_state()
    for move in ("a1a2", "c3b2"):   # Black's man lands on b2 beside White's rook on a2 (w)
        state.apply(move)
    board = state.to_json()["board"]
    assert board.get("a2") is None and board.get("b2") == "black"


@pytest.mark.parametrize("depth", [4])
def test_both_back_ends_count_the_same_moves(spec, depth):
    interpreted = perft(load(str(spec), None, engine="interpreted").new_state(), depth)
    compiled = load(str(spec), None, engine="compiled").engine.perft(depth)
    assert interpreted == compiled and interpreted > 0


def test_a_set_is_the_same_as_its_attribute_filter():
    # chess ranges over the board's own sets; the rook's four directions and the bishop's
    # four come out as the attribute tables of dir the back ends read
    ir = load_game_ir(str(Path(__file__).parent.parent / "specs/classics/chess.yaml"), None)
    tables = {a.name: a.table for a in ir.attributes}
    dirs = ir.board.directions
    assert [d for i, d in enumerate(dirs) if tables["orthogonal"][i + 1]] == ["n", "e", "s", "w"]
    assert [d for i, d in enumerate(dirs) if tables["diagonal"][i + 1]] == ["ne", "se", "sw", "nw"]


def test_a_set_toward_a_player_property_is_each_players_directions_ahead(tmp_path):
    # forward: {toward: ahead} with ahead {white: n, black: s}: the directions with a part
    # along it; the same man moves as the listed set once the man's diagonals are asked for
    toward = SPEC.replace("    forward: {white: [ne, nw], black: [se, sw]}", "    forward: {toward: ahead}").replace(
        "define:", "player_props:\n  ahead: {white: n, black: s}\ndefine:").replace(
        "any d in forward(mover): t == step(f, d)", "any d in forward(mover): diagonal(d) and t == step(f, d)").replace(
        "not forward(mover, d)", "not (diagonal(d) and forward(mover, d))")
    path = tmp_path / "toward.yaml"
    path.write_text(toward)
    tables = {a.name: a.table for a in load_game_ir(str(path)).attributes}
    dirs = load_game_ir(str(path)).board.directions
    assert [d for i, d in enumerate(dirs) if tables["forward.white"][i + 1]] == ["n", "ne", "nw"]
    assert [d for i, d in enumerate(dirs) if tables["forward.black"][i + 1]] == ["se", "s", "sw"]
    listed = tmp_path / "listed.yaml"
    listed.write_text(SPEC)
    for engine in ("interpreted", "compiled"):
        assert [perft(load(str(path), engine=engine).new_state(), d) for d in (1, 2, 3)] == [perft(load(str(listed), engine=engine).new_state(), d) for d in (1, 2, 3)]
    assert_spec_error(tmp_path, toward.replace("{toward: ahead}", "{toward: nowhere}"),
                      "'toward' names a player property that gives every player a direction", 9, 23)
    assert_spec_error(tmp_path, toward.replace("{toward: ahead}", "{toward: ahead, white: [n]}"),
                      "'toward' is the whole set, give no 'white' beside it", 9, 30)


BROKEN = [
    # (text replaced in SPEC, replacement, message, line, column)
    ("    forward: {white: [ne, nw], black: [se, sw]}", "    forward: {white: [ne, nw]}",
     "direction set 'forward' differs by player: give every player's directions (black's are missing)", 9, 14),
    ("    forward: {white: [ne, nw], black: [se, sw]}", "    forward: {white: [ne, up], black: [se, sw]}",
     "'up' is not a direction of this board", 9, 27),
    ("    forward: {white: [ne, nw], black: [se, sw]}", "    diagonal: [ne]",
     "'diagonal' is already a direction set of this board", 9, 5),
    ('"any d in forward(mover): t == step(f, d)"', '"any d in forward: t == step(f, d)"',
     "the direction set 'forward' differs by player: say whose, e.g. forward(mover)", 17, 37),
    ('"any d in orthogonal: any x', '"any d in orthogonal(mover): any x',
     "the direction set 'orthogonal' is the same for every player", 16, 38),
    ('"count(d in orthogonal: onboard(step(c, d)))"', '"max(d in orthogonal: 1)"',
     "'max' over a direction set is not supported", 18, 19),
    ("  rook_to(cell f, cell t)", "  diagonal(cell f) : \"true\"\n  rook_to(cell f, cell t)",
     "'diagonal' is already a direction set of this board", 16, 3),
]


@pytest.mark.parametrize("old,new,message,line,col", BROKEN, ids=[b[2][:40] for b in BROKEN])
def test_mistakes_are_positioned_errors(tmp_path, old, new, message, line, col):
    assert old in SPEC
    assert_spec_error(tmp_path, SPEC.replace(old, new, 1), message, line, col)


def test_a_graph_board_has_no_direction_sets(tmp_path):
    path = tmp_path / "graph.yaml"
    path.write_text("""midgardc: 1
game: {name: g, players: [a, b]}
pieces: {stone: {}}
board:
  topology: graph
  nodes: [x, y]
  edges: [[x, y]]
  direction_sets: {up: [n]}
actions:
  put: {params: {c: cell}, where: "empty(c)", effects: [{place: {piece: stone, at: c}}]}
ranking:
  won: "0"
""", encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_game_ir(str(path), None)
    assert "unknown key 'direction_sets' for a graph board" in str(info.value) and "graph.yaml:8:3:" in str(info.value)
