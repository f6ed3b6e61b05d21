"""Whole-board bit arithmetic in the generated code (issue 15, item 1): chosen from the
board's step tables, and move for move the same games as the interpreter's walks."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import SPECS
from test_differential import SEED, check_games
from midgardc.compiler import build
from midgardc.compiler.emit import bitboards
from midgardc.spec.lower import load_game_ir

LINES = str(Path(__file__).parent / "data" / "lines.yaml")
FLANKS = str(Path(__file__).parent / "data" / "flanks.yaml")
CONNECT_FOUR = str(SPECS / "classics" / "connect-four.yaml")


@pytest.mark.parametrize("variant", [None, "hex", "small", "wrap", "rings"], ids=str)
def test_lines_play_the_same_games(variant):
    # 81 and 121 cells (two words), 30 cells (one), a torus and concentric squares (the
    # walk); lengths 0 to 12
    check_games(LINES, variant, 60, SEED + 11)


def test_line_plans_follow_the_board():
    plan = bitboards.line_plan(load_game_ir(CONNECT_FOUR).board)
    assert plan.bits and [(s.name, opp, s.delta) for s, opp in plan.groups] == [("n", "s", -7), ("ne", "sw", -6), ("e", "w", 1), ("se", "nw", 8)]
    hexes = bitboards.line_plan(load_game_ir(LINES, "hex").board)
    assert [(s.name, opp) for s, opp in hexes.groups] == [("ne", "sw"), ("e", "w"), ("se", "nw")]
    assert len(hexes.groups[0][0].on) == 2  # 121 cells: two words
    wrap = bitboards.line_plan(load_game_ir(LINES, "wrap").board)
    assert not wrap.bits and "not one index shift" in wrap.fallback


def test_line_code_is_chosen_only_where_it_applies():
    assert "line_bits(st, c, o, length)" in build.generate_source(load_game_ir(LINES, "hex"))
    assert "t1 = " in build.generate_source(load_game_ir(LINES, "hex"))  # the second word is shifted
    assert "line_bits" not in build.generate_source(load_game_ir(LINES, "wrap"))
    assert "line_bits" not in build.generate_source(load_game_ir(str(SPECS / "classics" / "hex.yaml")))  # no line()


def test_constant_line_lengths_get_windows():
    four = build.generate_source(load_game_ir(CONNECT_FOUR))
    assert "if length == 4:\n        return line_win_4(st, c, o)" in four and "MGC_LINE_WIN_4[42][4]" in four
    hexes = build.generate_source(load_game_ir(LINES, "hex"))  # 121 cells, 3 line groups: 6 words a row
    assert all(f"MGC_LINE_WIN_{n}[121][6]" in hexes for n in (3, 5, 12))
    assert "MGC_LINE_WIN_0" not in hexes and "line_bits(st, c, o, length)" in hexes  # line(c, threes % 3 + 3): no window
    assert "LINE_WIN" not in build.generate_source(load_game_ir(LINES, "wrap"))  # the walk


def _walk_line(board, opposite, bits, c, n):
    """line(c, n) as the interpreter walks it, for the owner's cells `bits` (c among them)."""
    for d in range(len(board.directions)):
        e = opposite[d]
        if 0 <= e < d and opposite[e] == d:
            continue
        total = 1
        for way in (d, e):
            x = c
            while way >= 0:
                x = board.steps[way][x]
                if x >= board.n_cells or not (bits >> x) & 1:
                    break
                total += 1
        if total >= n:
            return True
    return False


@pytest.mark.parametrize("spec,variant", [(CONNECT_FOUR, None), (LINES, "hex"), (LINES, "small")], ids=["c4", "hex121", "small"])
def test_window_code_finds_the_walks_lines(spec, variant):
    # the emitted line_win_<n> body run as Python (words cut to 64 bits) on random
    # positions against the walk, for every length with a window
    import random

    from midgardc.ir.nodes import opposite_directions

    board = load_game_ir(spec, variant).board
    plan, words = bitboards.line_plan(board), bitboards.words_for(board.n_cells)
    opposite = opposite_directions(board)
    rng = random.Random(15)
    for n in range(2, 8):
        rows = bitboards.line_windows(board, plan, n)
        code = bitboards.window_code(plan, n, words)
        assert len(code) == len(plan.groups) * (2 + words * (1 + bitboards.window_stages(n)))
        for _ in range(150):
            cells = [x for x in range(board.n_cells) if rng.random() < rng.choice((0.4, 0.6, 0.8))]
            c = rng.randrange(board.n_cells)
            bits = sum(1 << x for x in set(cells) | {c})
            env = {"win": rows[c], "hit": 0, **{f"b{w}": (bits >> (64 * w)) & (2**64 - 1) for w in range(words)}}
            for line in code:
                if line.startswith("#"):
                    continue
                name = line.split()[0]
                exec(line, {}, env)
                env[name] &= 2**64 - 1
            assert (env["hit"] != 0) == _walk_line(board, opposite, bits, c, n), (n, c, cells)


def test_pull_words_carries_bits_across_words():
    # word w of {c : c + delta in s}, checked against a set of cells
    cells = {0, 5, 63, 64, 70, 127}
    for delta in (-70, -64, -9, -1, 1, 8, 63, 64, 65):
        texts = bitboards.pull_words("s", delta, 2)
        s = [sum(1 << (c - 64 * w) for c in cells if c >> 6 == w) for w in range(2)]
        got = {64 * w + i for w, t in enumerate(texts) for i in range(64) if (eval(t.replace("s0", str(s[0])).replace("s1", str(s[1]))) >> i) & 1}
        assert got == {c - delta for c in cells if 0 <= c - delta < 128}, delta


@pytest.mark.parametrize("variant", [None, "hex", "wordings", "wrap"], ids=str)
def test_flanks_play_the_same_games(variant):
    # 100 cells (two words), a hex board, three more wordings of the test, a torus (walks)
    check_games(FLANKS, variant, 15, SEED + 12)


def test_flanks_are_fills_where_directions_are_shifts():
    square = build.generate_source(load_game_ir(FLANKS))
    assert square.count("flanked_cells(st, ") == 8  # one fill per direction, in the legal cell set
    assert build.generate_source(load_game_ir(FLANKS, "hex")).count("flanked_cells(st, ") == 6
    wrap = build.generate_source(load_game_ir(FLANKS, "wrap"))
    assert "flanked_cells" not in wrap and "flanked_run(st, f0" in wrap  # the walk, cell by cell
    assert "flip_bits(st, at)" in square and "flip_bits" not in wrap


def test_explain_shows_the_bit_operations_and_what_falls_back():
    from click.testing import CliRunner

    from midgardc.cli import cli

    def explain(*args):
        result = CliRunner().invoke(cli, ["explain", *args])
        assert result.exit_code == 0, result.output
        return result.output

    out = explain(FLANKS)
    assert "100 cells in 2 64-bit word(s)" in out and "direction e: a shift by +1 cells" in out
    assert "whole-board operations: 8 directional fill(s) {c : flanked(c, n) > 0}" in out
    assert "flanked(c, d) > 0: 8 directional fill(s)" in out and "flip_flanked: the run along each direction grown" in out
    wrap = explain(FLANKS, "--variant", "wrap")
    assert "direction e: not one index shift on the whole board" in wrap and "flanked(c, d): walked from each cell" in wrap
    assert "flip_flanked: walked from the placed piece" in wrap
    four = explain(CONNECT_FOUR)
    assert "line(c, 4): the owner's pieces in c's window along n+s, ne+sw, e+w, se+nw" in four
    assert "line(c, n): shift-and-AND" not in four  # every length is a constant with a window
    assert "line(c, n): shift-and-AND runs of the owner's pieces along ne+sw, e+w, se+nw" in explain(LINES, "--variant", "hex")
    assert "line(c, n): walked cell by cell from c (direction n is not one index shift" in explain(LINES, "--variant", "wrap")
    assert "no directions on a triangle board" in explain(str(SPECS / "midgard.yaml"))


STEP_MOVES = str(Path(__file__).parent / "data" / "step_moves.yaml")
BREAKTHROUGH = str(SPECS / "classics" / "breakthrough.yaml")


@pytest.mark.parametrize("variant", [None, "hex", "wrap", "both"], ids=str)
def test_step_moves_play_the_same_games(variant):
    # 100 cells (two words), a hex board, a torus and a condition on both cells (loops)
    check_games(STEP_MOVES, variant, 20, SEED + 13)


def test_step_moves_are_bit_sets_where_directions_are_shifts():
    src = build.generate_source(load_game_ir(BREAKTHROUGH))
    assert "nsets = step_moves_0(st, cand0, step_deltas, step_froms)" in src and "cands_0(st, " not in src
    square = build.generate_source(load_game_ir(STEP_MOVES))
    assert "cdef inline int step_moves_0(" in square and "cdef inline int step_moves_1(" in square
    assert square.count("m = step_merge(") == 10 + 8  # one set per clause: 8 + 2 walks, 8 jumps
    assert "d = PPROP_0[st.current + 1]" in square  # a direction read at run time: its shift from a table
    wrap = build.generate_source(load_game_ir(STEP_MOVES, "wrap"))
    assert "step_moves_" not in wrap and "cands_0(st, " in wrap  # wrapping steps: the loops (a candidate listing)
    both = build.generate_source(load_game_ir(STEP_MOVES, "both"))
    assert "step_moves_0(" in both and "step_moves_1(" not in both  # jump reads f beside t


def test_explain_says_which_step_moves_are_bit_sets():
    from click.testing import CliRunner

    from midgardc.cli import cli

    out = CliRunner().invoke(cli, ["explain", BREAKTHROUGH]).output
    assert "step moves as bit sets (compiled engine): the loops above are replaced by 3 whole-board set(s) of f" in out
    assert "clause 0: t == step(f, player_prop(0, mover)) and empty(t)" in out
    wrap = CliRunner().invoke(cli, ["explain", STEP_MOVES, "--variant", "wrap"]).output
    assert "step moves as bit sets: no (direction n is not one index shift on the whole board)" in wrap
    both = CliRunner().invoke(cli, ["explain", STEP_MOVES, "--variant", "both"]).output
    assert "step moves as bit sets: no (a condition reads both f and t)" in both


GROUPS = str(Path(__file__).parent / "data" / "groups.yaml")
HEX = str(SPECS / "classics" / "hex.yaml")


@pytest.mark.parametrize("variant", [None, "hex", "small", "kings", "wrap"], ids=str)
def test_group_floods_play_the_same_games(variant):
    # any/all/count over group(c) and region(c) (of an empty cell and past the edge too):
    # flooded as bits on 81 and 121 cells (two words), 30 (one), 8 neighbours; walked on a torus
    check_games(GROUPS, variant, 6, SEED + 13)


def test_flood_shifts_follow_the_neighbours():
    square = bitboards.flood_shifts(load_game_ir(GROUPS).board)  # 8 directions, 4 neighbours
    assert [(s.name, s.delta) for s in square[0]] == [("n", -9), ("e", 1), ("s", 9), ("w", -1)] and square[1] is None
    kings = bitboards.flood_shifts(load_game_ir(GROUPS, "kings").board)[0]
    assert [s.name for s in kings] == ["n", "ne", "e", "se", "s", "sw", "w", "nw"]
    assert [s.delta for s in bitboards.flood_shifts(load_game_ir(HEX).board)[0]] == [-10, 1, 11, 10, -1, -11]
    shifts, why = bitboards.flood_shifts(load_game_ir(GROUPS, "wrap").board)
    assert shifts == [] and "not one index shift" in why


def test_group_quantifiers_flood_bits_where_neighbours_are_shifts():
    hexes = build.generate_source(load_game_ir(HEX))
    # Hex's connection test: both group quantifiers meet one flood with a cell set, no walk
    assert hexes.count("return flood_bits(st, f0, True, found, chain)") == 2 and "group_fill(" not in hexes
    go = build.generate_source(load_game_ir(str(SPECS / "classics" / "go.yaml")))
    # Go's reach (one definition, reaches(c, q); reaching empty is reaching nobody)
    assert go.count("return flood_bits(st, f0, False, found, chain)") == 1
    wrap = build.generate_source(load_game_ir(GROUPS, "wrap"))
    assert "flood_bits" not in wrap and "group_fill(st, f0, chain)" in wrap and "region_fill(st, " in wrap

    from click.testing import CliRunner

    from midgardc.cli import cli

    out = CliRunner().invoke(cli, ["explain", HEX]).output
    assert "group(c)/region(c): 2 of 2 quantifier(s) flood the group as bits from c" in out and "ne, e, se, sw, w, nw" in out
    out = CliRunner().invoke(cli, ["explain", GROUPS, "--variant", "wrap"]).output
    assert "9 quantifier(s) walk the group breadth-first over the neighbour tables (direction n is not one index shift" in out
