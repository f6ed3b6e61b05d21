"""Loops over a direction set (midgardc/ir/analysis.py, set_directions; both back ends):
a quantifier or ``for_each`` over the board's directions whose condition tests a fixed
set (``wings(d)``, ``diagonal(d)``) visits only the set's directions, in board order,
instead of all of them with a test each. The games stay the interpreter's: the tests of
both engines move for move (test_differential, test_playthroughs) play these specs."""

from __future__ import annotations

import re

import pytest

from conftest import SPECS
from midgardc.compiler.build import generate_source
from midgardc.spec.lower import load_game_ir

# (spec, a loop's comment in the generated source, the set's directions by name)
CASES = [
    ("classics/chess.yaml", "any d in directions: wings(d)", ["e", "w"]),          # en passant's neighbour
    ("classics/chess.yaml", "for each d in directions where wings(d)", ["e", "w"]),  # the castling rook
    ("classics/international-draughts.yaml", "any d in directions: diagonal(d)", ["ne", "se", "sw", "nw"]),
]


def loop_members(source: str, comment: str) -> list[list[int]]:
    """The directions each loop under ``comment`` visits, as written in its C array."""
    found = []
    for m in re.finditer(re.escape(comment), source):
        body = source[m.end(): m.end() + 1500]
        head = re.search(r"cdef int (\w*dirs)\[(\d+)\]", body)
        if head is None:
            found.append(None)
            continue
        name, size = head.group(1), int(head.group(2))
        found.append([int(v) for v in re.findall(rf"{name}\[\d+\] = (\d+)", body)[:size]])
    return found


@pytest.mark.parametrize("spec, comment, names", CASES, ids=[f"{s.split('/')[-1]}:{c}" for s, c, _ in CASES])
def test_a_loop_over_a_set_visits_only_its_directions(spec, comment, names):
    ir = load_game_ir(str(SPECS / spec), None)
    want = [ir.board.directions.index(n) for n in names]
    loops = [x for x in loop_members(generate_source(ir), comment) if x is not None]
    assert loops, f"no loop over the set in {spec}'s source"
    assert all(x == want for x in loops)


def test_a_loop_without_a_set_visits_every_direction():
    source = generate_source(load_game_ir(str(SPECS / "classics" / "chess.yaml"), None))
    # the castling-rights trigger's players loop has no set; its directions loop does
    assert "for x in range(N_PLAYERS):" in source


def _for_eaches(effects):
    """Every for_each among ``effects``, nested ones included."""
    from midgardc.ir.nodes import ForEach, IfEffect
    for e in effects:
        if isinstance(e, ForEach):
            yield e
            yield from _for_eaches(e.effects)
        elif isinstance(e, IfEffect):
            yield from _for_eaches(e.then)
            yield from _for_eaches(e.other)


def test_both_engines_take_the_set_from_the_same_place():
    """The interpreter's for_each visits what set_directions says, as the compiled loop does."""
    from midgardc.ir.analysis import set_directions
    from midgardc.runtime.rules.expressions import Program

    ir = load_game_ir(str(SPECS / "classics" / "chess.yaml"), None)
    prog = Program(ir)
    wings = [ir.board.directions.index(n) for n in ("e", "w")]
    found = [e for a in ir.actions for e in _for_eaches(a.effects) if e.each.kind == "directions"]
    found += [e for t in ir.triggers for e in _for_eaches(t.effects) if e.each.kind == "directions"]
    assert len(found) >= 2  # the castling rook (move), the castling rights (trigger)
    for e in found:
        assert set_directions(ir, e.each, e.var, e.where) == wings
        assert list(prog.each_domain(e)(None, {})) == wings
    # a loop without a set visits every direction
    assert set_directions(ir, found[0].each, found[0].var, None) is None
