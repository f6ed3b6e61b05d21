"""Action shapes (``moves:``, ``drops:``): one line for a common kind of move, the same
game as its long form, in the classics that use them and in a small spec."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import SPECS
from midgardc.errors import SpecError
from midgardc.spec.lower import load_game_ir

HEAD = """midgardc: 1
game: {name: t, players: [red, blue]}
pieces: {stone: {hand: 3}}
board: {topology: square, size: 3}
counters: {placed: 0}
"""
TAIL = "ranking:\n  placed: placed(p)\n"
SHAPED = HEAD + """actions:
  put:
    drops: stone
    where: "not onboard(step(t, n)) or occupied(step(t, n))"
    effects: [add: {counter: placed, to: 1}]
  shift:
    moves: "empty(t) and any d in orthogonal: t == step(f, d)"
""" + TAIL
LONG = HEAD + """actions:
  put:
    params: {t: cell}
    where: "empty(t) and (not onboard(step(t, n)) or occupied(step(t, n)))"
    effects: [place: {piece: stone, at: t}, add: {counter: placed, to: 1}]
    notation: "{t}"
  shift:
    params: {f: cell, t: cell}
    where: "owner(f) == mover and empty(t) and any d in orthogonal: t == step(f, d)"
    effects: [move: {from: f, to: t}]
    notation: "{f}-{t}"
""" + TAIL


def _ir(tmp_path: Path, text: str, name: str = "t.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_game_ir(str(path))


def test_a_shaped_action_is_its_long_form(tmp_path):
    shaped, long = _ir(tmp_path, SHAPED, "a.yaml"), _ir(tmp_path, LONG, "b.yaml")
    assert shaped.actions == long.actions


def test_the_classics_use_both_shapes():
    morris = {a.name: a for a in load_game_ir(str(SPECS / "classics" / "nine-mens-morris.yaml")).actions}
    assert [p.name for p in morris["place"].params] == ["t"] and [p.name for p in morris["move"].params] == ["f", "t"]
    draughts = {a.name: a for a in load_game_ir(str(SPECS / "classics" / "draughts.yaml")).actions}
    assert draughts["move"].notation == (0, "-", 1) and draughts["jump"].notation == (0, "x", 1)  # its own kept


@pytest.mark.parametrize("old,new,message", [
    ("    drops: stone\n", "    drops: stone\n    params: {c: cell}\n", "has the parameters t: remove 'params'"),
    ("    drops: stone\n", "    drops: stone\n    moves: \"true\"\n", "one shape: 'moves' or 'drops'"),
    ("    drops: stone\n", "    drops: stones\n", "unknown kind of piece 'stones'"),
])
def test_shape_errors_say_where(tmp_path, old, new, message):
    with pytest.raises(SpecError) as err:
        _ir(tmp_path, SHAPED.replace(old, new))
    assert message in str(err.value) and err.value.pos.line in (8, 9)


STANDARD = HEAD.replace("board: {topology: square, size: 3}", "board: {topology: square, size: 4}") + """define:
  near(cell f, cell t): "adjacent(f, t) or t == hop(f, e)"
actions:
  put:
    drops: stone
    where: "not foe(step(t, s))"
  shift:
    moves: "empty(t) and near(f, t) and mine(f)"
""" + TAIL


def test_standard_definitions_are_there_when_called(tmp_path):
    ir = _ir(tmp_path, STANDARD)
    assert [d.name for d in ir.defines] == ["mine", "foe", "hop", "adjacent", "near"]
    assert not [d.name for d in _ir(tmp_path, SHAPED, "plain.yaml").defines]   # none called, none added
    for spec, words in (("draughts.yaml", {"edge"}), ("international-draughts.yaml", {"edge"}), ("nine-mens-morris.yaml", {"foe", "adjacent", "pieces"}), ("go.yaml", {"foe"})):
        assert words <= {d.name for d in load_game_ir(str(SPECS / "classics" / spec)).defines}


def test_a_spec_s_own_word_wins(tmp_path):
    own = STANDARD.replace("define:\n", "define:\n  hop(cell c, dir d): \"step(c, d)\"\n")
    hops = [d for d in _ir(tmp_path, own).defines if d.name == "hop"]
    assert len(hops) == 1 and "step" in repr(hops[0].body) and repr(hops[0].body).count("step") == 1
    counter = STANDARD.replace("counters: {placed: 0}", "counters: {placed: 0, mine: 0}").replace("mine(f)", "mine(mover) == 0")
    assert "mine" not in [d.name for d in _ir(tmp_path, counter, "c.yaml").defines]


def test_a_standard_definition_that_does_not_fit_is_an_error_at_its_call(tmp_path):
    graph = STANDARD.replace("board: {topology: square, size: 4}", "board: {topology: graph, nodes: [x, y, z], edges: [[x, y], [y, z]]}")
    graph = graph.replace('define:\n  near(cell f, cell t): "adjacent(f, t) or t == hop(f, e)"\n', "")
    graph = graph.replace('near(f, t)', "empty(hop(t, n))")
    with pytest.raises(SpecError) as err:
        _ir(tmp_path, graph)
    assert "the standard definition hop(cell c, dir d)" in str(err.value) and "directions" in str(err.value)
    assert (err.value.pos.line, err.value.pos.col) == (11, 32)   # the call hop(t, n)
