"""The interpreter's conditions as sets (midgardc/runtime/rules/cellsets.py) mean what the
conditions say: in positions along random games of several specs, the legal moves the
loops list (conditions worked out as sets) are exactly the bindings whose `where` holds,
tried one by one, and every definition has the same value, for every argument, whether
its quantifiers work their bodies out as sets or walk their elements one by one."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from midgardc.runtime.interpreter import InterpretedEngine, random_move
from midgardc.runtime.rng import Rng
from midgardc.runtime.rules.cellsets import bits
from midgardc.runtime.rules.expressions import Program
from midgardc.spec.lower import load_game_ir

SPECS = Path(__file__).parent.parent / "specs"
# (spec, player count, positions tried, moves between them)
CASES = [
    ("midgard-vikings.yaml", 3, 12, 17),
    ("meridian.yaml", 2, 8, 9),
    ("micro-midgard.yaml", None, 8, 3),
    ("classics/breakthrough.yaml", None, 6, 7),
    ("classics/kalah.yaml", None, 6, 5),
    ("classics/yahtzee.yaml", None, 6, 5),
]


def positions(engine: InterpretedEngine, count: int, gap: int, seed: int = 7):
    """Positions of one random game (a new game when it ends), every ``gap`` moves."""
    core, rng = engine.new_core(seed), Rng(seed)
    for i in range(count * gap):
        if core.terminal:
            seed += 1
            core, rng = engine.new_core(seed), Rng(seed)
        if i % gap == 0:
            yield core
        core.apply(random_move(core, rng))


def one_by_one(core) -> list[int]:
    """Every binding of every action, its `where` (and lookahead legality) tested alone."""
    prog, out = core.prog, []
    for ai, action in enumerate(prog.ir.actions):
        sizes = prog.sizes[ai]
        for values in itertools.product(*(range(n) for n in sizes)):
            env = {p.name: v + (p.lo if p.type == "int" else 0) for p, v in zip(action.params, values)}
            if prog.wheres[ai](core, env) and (prog.afters[ai] is None or core._after_ok(ai, env)):
                offset = 0
                for v, n in zip(values, sizes):
                    offset = offset * n + v
                out.append(action.base + offset)
    return out


@pytest.mark.parametrize("spec,players,count,gap", CASES)
def test_the_loops_list_exactly_the_bindings_where_holds(spec, players, count, gap):
    ir = load_game_ir(str(SPECS / spec), None, players)
    assert not any(a.chain is not None for a in ir.actions)  # (compound moves: steps, not bindings)
    engine = InterpretedEngine(ir)
    tried = 0
    for core in positions(engine, count, gap):
        if core.chance or core.terminal:
            continue
        assert core.legal() == one_by_one(core), f"{spec}, ply {core.ply}"
        tried += 1
    assert tried >= count // 2


class PlainProgram(Program):
    """The same closures with every quantifier walking its elements (no sets)."""

    def _quant_set(self, q):
        return None


@pytest.mark.parametrize("spec,players,count,gap", CASES)
def test_definitions_have_the_same_values_with_and_without_sets(spec, players, count, gap):
    ir = load_game_ir(str(SPECS / spec), None, players)
    engine, plain = InterpretedEngine(ir), PlainProgram(ir)
    sizes = {"cell": ir.board.n_cells, "player": ir.n_players, "kind": ir.n_kinds, "dir": len(ir.board.directions), "item": ir.n_item_kinds}
    compared = 0
    for core in positions(engine, count, gap):
        for i, d in enumerate(ir.defines):
            domains = [range(p.lo, p.lo + sizes.get(p.type, p.hi - p.lo + 1)) if p.type == "int" else range(sizes.get(p.type, p.hi - p.lo + 1)) for p in d.params]
            if any(len(r) > 64 for r in domains):
                continue
            for args in itertools.product(*domains):
                env = {p.name: a for p, a in zip(d.params, args)}
                assert engine.prog.defines[i](core, dict(env)) == plain.defines[i](core, dict(env)), f"{spec}: {d.name}{args}, ply {core.ply}"
                compared += 1
    assert compared > 0


def test_bits_lists_the_members_ascending():
    assert list(bits(0)) == []
    assert list(bits(0b1011001)) == [0, 3, 4, 6]
    assert list(bits(1 << 130 | 1 << 64 | 2)) == [1, 64, 130]
