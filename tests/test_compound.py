"""Compound moves (``continue:``, midgardc/ir/compound.py) on a small spec of their own,
tests/data/compound.yaml (a stone hops on while it can), in both back ends: whole moves
listed and written as one (``b2>n>e>w``), the step bound by its limit and its ``while``,
the triggers run once per whole move, and the same games in both engines. English
draughts' multi-jump is the other use (tests/test_draughts.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ENGINES, get_game
from midgardc.errors import SpecError
from midgardc.runtime.game import MoveError, perft
from midgardc.spec.lower import load_game_ir
from test_differential import check_games

HOPS = str(Path(__file__).parent / "data" / "compound.yaml")


@pytest.fixture(params=ENGINES)
def game(request):
    return get_game(HOPS, None, request.param)


def test_whole_moves_are_listed_and_written_as_one(game):
    state = game.new_state()
    # b2 hops b3 (o's, taken) to b4, then its own c4 to d4, then c4 back to b4: the
    # third step is the last (limit 3); c4 hops c3 to c2, then d2 (to e2, the edge: the
    # move ends there) or its own b2 (to a2, the edge)
    assert [m.text for m in state.legal_moves()] == ["b4", "d4", "d3", "c2", "c4>s>e", "c4>s>w", "b2>n>e>w"]
    state.apply("b2>n>e>w")
    board = state.to_json()["board"]
    assert board["b4"] == "x" and board["c4"] == "x" and board["b3"] is None and board["b2"] is None
    assert state.ply() == 1 and state.current_player_name() == "o"
    counters = state.to_json()["counters"]
    assert counters["hops"] == 0 and state.scores()["x"]["score"] == 9  # the trigger ran once: 3 * 3
    assert state.texts == ["b2>n>e>w"]


def test_a_first_step_alone_is_not_a_move(game):
    state = game.new_state()
    with pytest.raises(MoveError, match="not legal for x here"):
        state.apply("b2>n")


def test_move_ids_are_the_first_step_and_the_way_it_goes_on(game):
    state = game.new_state()
    ir = game.ir
    hop = ir.actions[1]
    ids = {m.text: m.id for m in state.legal_moves()}
    n_dirs = len(ir.board.directions)
    c4 = ir.board.cell_names.index("c4")
    s = ir.board.directions.index("s")
    first = hop.base + (c4 * n_dirs + s) * hop.chain.ways
    assert ids["c4>s>e"] == first + 0 and ids["c4>s>w"] == first + 1  # continuations in ascending step order


def test_both_engines_count_and_play_the_same():
    interp, comp = (get_game(HOPS, None, e) for e in ENGINES)
    assert [perft(interp.new_state(), d) for d in (1, 2, 3)] == [perft(comp.new_state(), d) for d in (1, 2, 3)]
    check_games(HOPS, None, 150, 7)


def test_continue_is_checked_with_positions(tmp_path):
    spec = Path(HOPS).read_text().replace("      limit: 3\n", "      limit: 99\n")
    path = tmp_path / "bad.yaml"
    path.write_text(spec)
    with pytest.raises(SpecError, match="continue.limit must be between 1 and 64, got 99"):
        load_game_ir(str(path))
    path.write_text(Path(HOPS).read_text().replace("params: {f: cell, d: dir}", "params: {f: cell, d: dir, n: 1..1000}").replace('"{f}>{d}"', '"{f}>{d}>{n}"'))
    with pytest.raises(SpecError, match="a step has 8000 bindings for one value of its first parameter 'f' \\(at most 4096\\)"):
        load_game_ir(str(path))


def test_explain_describes_the_compound_move():
    from midgardc.cli.explain import explain_lines

    text = "\n".join(explain_lines(load_game_ir(HOPS)))
    assert "a compound move: each legal binding above is a first step" in text
    assert "a step with f = landing(f, d) must follow when one is legal (at most 3 steps)" in text
    assert '">{d}" per further step' in text


def test_too_many_moves_names_the_count_and_the_continue_ways(tmp_path):
    # 25 cells x 8 directions x 2 = 400 first steps, numbered 4096 times each = 1,638,400
    # ids: over the limit only because of continue.ways (issue 28, item 5)
    text = Path(HOPS).read_text().replace("params: {f: cell, d: dir}", "params: {f: cell, d: dir, n: 1..2}").replace('"{f}>{d}"', '"{f}>{d}>{n}"').replace("ways: 16", "ways: 4096")
    path = tmp_path / "many.yaml"
    path.write_text(text)
    with pytest.raises(SpecError) as err:
        load_game_ir(str(path))
    assert "action 'hop' has 1,638,400 possible moves (400 first steps, each numbered 4,096 times: a continue:'s ways multiply the first step's moves), after 25 of the actions before it; the limit is 1,048,576 in all" in err.value.message
    assert "continue.ways" in err.value.hint


# continue.most (a second use beside international draughts' majority capture,
# tests/test_international_draughts.py): tests/data/compound_most.yaml is the same hopping
# game where a stone must hop as far as possible.
LONGEST = str(Path(__file__).parent / "data" / "compound_most.yaml")


@pytest.mark.parametrize("engine", ENGINES)
def test_most_keeps_only_the_longest_whole_moves(engine):
    game = get_game(LONGEST, None, engine)
    state = game.new_state()
    # c4's hops (two each: c4>s>e, c4>s>w) are shorter than b2's three: only b2's is legal
    assert [m.text for m in state.legal_moves()] == ["b4", "d4", "d3", "c2", "b2>n>e>w"]
    with pytest.raises(MoveError, match="not legal for x here"):
        state.apply("c4>s>e")
    state.apply("b2>n>e>w")
    assert state.scores()["x"]["score"] == 9 and state.to_json()["counters"]["hops"] == 0


@pytest.mark.parametrize("engine", ENGINES)
def test_most_keeps_every_longest_move_and_numbers_them_among_themselves(engine):
    game = get_game(LONGEST, None, engine)
    ir = game.ir
    board = [0] * ir.board.n_cells
    for cell, code in {"c3": 1, "d3": 1, "a1": 2, "a3": 2, "b4": 2, "d2": 2}.items():  # 1: x's stone, 2: o's
        board[ir.board.cell_names.index(cell)] = code
    state = game.new_state()
    state.core.load(board, [[4], [4]], 0)
    # d3 hops c3 west onto b3, then n (over b4, onto the edge: one hop less), or e back
    # over c3 to d3 and on s or w: without `most` d3>w starts d3>w>n (k 0), d3>w>e>s (1)
    # and d3>w>e>w (2); c3>e and d3>s are one hop. Only the three-hop moves stay, and they
    # are numbered among themselves: k 0 and 1
    hop = ir.actions[1]
    hops = {m.text: divmod(m.id - hop.base, hop.chain.ways) for m in state.legal_moves() if ">" in m.text}
    d3, w = ir.board.cell_names.index("d3"), ir.board.directions.index("w")
    first = d3 * len(ir.board.directions) + w
    assert hops == {"d3>w>e>s": (first, 0), "d3>w>e>w": (first, 1)}
    state.apply("d3>w>e>w")
    assert state.to_json()["board"]["b3"] == "x" and state.to_json()["board"]["c3"] == "x"


def test_most_in_both_engines_counts_and_plays_the_same():
    interp, comp = (get_game(LONGEST, None, e) for e in ENGINES)
    assert [perft(interp.new_state(), d) for d in (1, 2, 3, 4)] == [perft(comp.new_state(), d) for d in (1, 2, 3, 4)] == [5, 26, 121, 724]
    check_games(LONGEST, None, 150, 9)


def test_most_must_be_a_number(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(Path(LONGEST).read_text().replace("most: hops ", "most: f "))
    with pytest.raises(SpecError, match="expected a number here, but this is a cell") as err:
        load_game_ir(str(path))
    assert "bad.yaml:43:13" in str(err.value)


def test_explain_says_the_most_rule():
    from midgardc.cli.explain import explain_lines

    text = "\n".join(explain_lines(load_game_ir(LONGEST)))
    assert "of the action's whole moves here only those with the greatest hops (after the move, before its triggers) are legal" in text
