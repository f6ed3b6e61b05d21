"""No cliffs: equal wordings of a rule list moves with the same loops (midgardc/ir/plan.py).

tests/data/equal_wordings.yaml words three actions one way in its base game and another
way in its variant `other` (a quantifier over directions against its unrolled
disjunction, a definition against its body, `a == b` against `b == a`, a quantifier over
players against the players written out). Each pair must give the same move plan, the
same generated loop code (names and comments aside) and the same perft. And
`midgardc explain` prints the plans.
"""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from midgardc.cli import cli
from midgardc.compiler.codegen import Generator, generate_legality
from midgardc.ir.nodes import BOOL, CELL, DIR, Binary, Local, Quant, Domain, Call
from midgardc.ir.analysis import reads
from midgardc.ir.plan import EACH, WHEN, candidates, plan_action, plan_game, plan_shape
from midgardc.runtime.game import perft
from midgardc.spec.lower import load_game_ir
from conftest import get_game

WORDINGS = str(Path(__file__).parent / "data" / "equal_wordings.yaml")
BREAKTHROUGH = str(Path(__file__).parent.parent / "specs" / "classics" / "breakthrough.yaml")


def loop_code(ir) -> str:
    """The generated legal-move loops without comments, with lifted functions numbered by
    first use (two wordings may number the same function differently)."""
    text = re.sub(r"#.*", "", generate_legality(Generator(ir)))
    names: dict = {}
    return re.sub(r"\b(cellset|quant|define)_\d+\b", lambda m: names.setdefault(m.group(0), f"{m.group(1)}_{len(names)}"), text)


def test_equal_wordings_give_the_same_plans_and_loops():
    base, other = load_game_ir(WORDINGS, None), load_game_ir(WORDINGS, "other")
    assert [a.where for a in base.actions] != [a.where for a in other.actions]  # (they are worded differently)
    for a, b in zip(plan_game(base), plan_game(other)):
        assert plan_shape(base, a) == plan_shape(other, b), base.actions[a.action].name
    assert loop_code(base) == loop_code(other)


def test_equal_wordings_pin_the_targets_to_candidates():
    ir = load_game_ir(WORDINGS, None)
    go, jump, push = plan_game(ir)
    # go: `near(f, t)` (any d in directions: t == step(f, d)) pins t to 8 cells, exactly
    assert len(go.levels[1].candidates) == 8 and go.levels[1].exact
    assert all(c is not go.levels[1].pin for c in go.levels[1].conds)
    # jump: the pin holds only with an enemy piece between: that condition guards each
    # candidate (tested with t equal to it), so the pin is still exact
    assert len(jump.levels[1].candidates) == 8 and jump.levels[1].exact
    assert all(c.fn == WHEN and reads(c.args[0]) == {"f"} for c in jump.levels[1].candidates)
    # push: a quantifier over players, one forward cell each
    assert len(push.levels[1].candidates) == 2


def test_equal_wordings_have_the_same_perft():
    for engine in ("interpreted", "compiled"):
        counts = [[perft(get_game(WORDINGS, v, engine).new_state(0), d) for d in (1, 2, 3)] for v in (None, "other")]
        assert counts[0] == counts[1], engine
        assert counts[0][0] > 0


def test_candidates_through_quantifiers_ranges_and_either_side():
    ir = load_game_ir(WORDINGS, None)
    f, t = Local("f", CELL), Local("t", CELL)
    step = lambda d: Call("step", (f, d), CELL)  # noqa: E731
    d = Local("d", DIR)
    quantified = Quant("any", "d", Domain("directions", (), DIR), Binary("==", step(d), t, BOOL), BOOL)
    found, exact = candidates(quantified, "t", ir)
    assert len(found) == len(ir.board.directions) and exact
    # a conjunction pins exactly, the other conjunct guarding the candidate (with t equal
    # to it); a condition that does not pin gives None
    found, exact = candidates(Binary("and", Binary("==", t, f, BOOL), Call("empty", (t,), BOOL), BOOL), "t", ir)
    assert found == [Call(WHEN, (Call("empty", (f,), BOOL), f), CELL)] and exact
    # a quantifier over a slide gives one candidate per cell of it (listed in the state)
    d = Local("d", DIR)
    along = Quant("any", "x", Domain("slide", (f, d), CELL), Binary("==", Local("x", CELL), t, BOOL), BOOL)
    found, exact = candidates(along, "t", ir)
    assert found == [Quant(EACH, "x", Domain("slide", (f, d), CELL), Local("x", CELL), CELL)] and exact
    assert candidates(Call("empty", (t,), BOOL), "t", ir) is None


def test_integer_bounds_replace_comparisons_and_quantified_limits():
    # Meridian-like heights: `h < height(c)` and `all x in ray(c, n): empty(x) or height(x) > h`
    # become bounds of the h loop, and the conjuncts they say all of are not tested again
    ir = load_game_ir(str(Path(__file__).parent.parent / "specs" / "meridian.yaml"), None)
    names = [a.name for a in ir.actions]
    build = plan_action(ir, names.index("build")).levels[2]
    push_up = plan_action(ir, names.index("push_up")).levels[2]
    assert build.upper and build.lower and push_up.upper
    assert len(build.conds) == 1  # only `h >= 2 or towers_on(c) > 0` is left to test


def test_a_plan_splits_where_through_definitions():
    ir = load_game_ir(BREAKTHROUGH, None)
    (advance,) = plan_game(ir)
    assert advance.levels[1].candidates is not None  # may_go(f, t) pins t


def test_explain_prints_every_action_with_its_loops():
    result = CliRunner().invoke(cli, ["explain", WORDINGS])
    assert result.exit_code == 0, result.output
    out = result.output
    for name in ("go", "jump", "push"):
        assert f"action {name}(f: cell, t: cell)" in out
    assert "only the 8 candidate cell(s) step(f, n), step(f, ne)" in out
    assert "not tested again" in out
    assert "by bitboard operations: {f in cells: owner(f) == mover}" in out
    other = CliRunner().invoke(cli, ["explain", WORDINGS, "--variant", "other"])
    assert other.exit_code == 0 and "[other]" in other.output


def test_explain_says_why_a_loop_scans_every_cell(tmp_path):
    spec = tmp_path / "scan.yaml"
    spec.write_text(
        "midgardc: 1\n"
        "game: {name: scan, players: [a, b], max_plies: 10}\n"
        "pieces: {dot: {hand: 5}}\n"
        "board: {topology: square, rows: 3, cols: 3}\n"
        "actions:\n"
        "  hop:\n"
        "    params: {f: cell, t: cell}\n"
        "    where: \"f != t and height(t) < 2\"\n"
        "    effects: [place: {piece: dot, at: t}]\n"
        "end: {no_moves: end}\n"
        "ranking: {dots: \"count(c in cells: owner(c) == p)\"}\n"
    )
    result = CliRunner().invoke(cli, ["explain", str(spec)])
    assert result.exit_code == 0, result.output
    assert "loop f: a full scan of the 9 cells (no condition pins it to a few cells" in result.output
    assert "there is no condition on it alone" in result.output


def test_explain_errors_name_the_problem():
    bad_variant = CliRunner().invoke(cli, ["explain", WORDINGS, "--variant", "nope"])
    assert bad_variant.exit_code == 1 and "nope" in bad_variant.output and "Traceback" not in bad_variant.output
    missing = CliRunner().invoke(cli, ["explain", "no/such/spec.yaml"])
    assert missing.exit_code == 1 and "Traceback" not in missing.output
