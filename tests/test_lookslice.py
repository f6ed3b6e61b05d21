"""The lookahead's slice (midgardc/ir/lookslice.py): the compiled lookahead applies only the
effects and triggers of a move that can change what its legal_after condition reads, and
copies only the parts of the state they and the condition touch; the interpreter applies
everything, and both play the same games."""

from __future__ import annotations

from pathlib import Path

from conftest import SPECS
from midgardc.compiler.build import generate_source
from midgardc.ir.lookslice import ANY, look_slice
from midgardc.ir.nodes import Convert, ForEach, IfEffect, MovePiece, Remove, SetCounter
from midgardc.ir.plan import STATE_READS
from midgardc.spec.lower import load_game_ir
from test_differential import check_games, engines

LOOK_SLICE = str(Path(__file__).parent / "data" / "look_slice.yaml")
CHESS = str(SPECS / "classics" / "chess.yaml")
GO = str(SPECS / "classics" / "go.yaml")


def test_chess_lookahead_moves_only_pieces():
    ir = load_game_ir(CHESS, None)
    move = look_slice(ir, 0, STATE_READS)
    # kept: the en passant capture, the castling rook, the move; left out: the clock, the
    # en passant square, and every trigger (castling rights, the en passant square)
    assert [type(e) for e in move.effects] == [Remove, ForEach, MovePiece]
    assert move.triggers == () and not move.whole
    assert move.reads == {"board", "turn", "counter:en_passant"}  # (the en passant capture reads its square)
    promote = look_slice(ir, 1, STATE_READS)  # move_promote: the move, then the new kind
    assert [type(e) for e in promote.effects] == [Remove, ForEach, MovePiece, Convert]
    assert promote.reads == {"board", "turn", "counter:en_passant"}
    text = generate_source(ir)
    assert "look_action_0(st, a0, a1)" in text and "cdef void look_action_0(" in text


def test_a_trigger_the_condition_reads_is_kept():
    ir = load_game_ir(LOOK_SLICE, None)
    s = look_slice(ir, 0, STATE_READS)
    assert [type(e) for e in s.effects] == [SetCounter]  # placed += 1 (the place and moves += 1 left out)
    assert ir.counters[s.effects[0].counter] == "placed"
    (index, kept), = s.triggers
    assert ir.triggers[index].name == "tally" and [type(e) for e in kept] == [IfEffect]  # (moves += 0 left out)
    assert s.reads == {"turn", "counter:placed", "counter:streak"}
    text = generate_source(ir)
    after = text[text.index("cdef bint after_ok_0("):]
    after = after[: after.index("\n\n\n")]
    assert "st.counters[row][0] = origin.counters[row][0]" in after  # streak
    assert "st.counters[row][1] = origin.counters[row][1]" in after  # placed
    assert "st.counters[row][2]" not in after and "memcpy(&st.hands" not in after


def test_what_the_slice_does_not_know_keeps_the_whole_move():
    ir = load_game_ir(GO, None)
    s = look_slice(ir, 0, STATE_READS)
    assert ANY in s.reads and s.whole  # times_seen() reads the position history: all of it
    assert "look_action_" not in generate_source(ir)


def test_both_engines_play_the_same_games():
    check_games(LOOK_SLICE, None, 60, 17)


def test_the_condition_decides_moves_in_these_games():
    # (so the games above test the slice: a lookahead that missed the trigger would allow
    # a third edge drop in a row, and the games would differ)
    interp, _ = engines(LOOK_SLICE, None)
    core = interp.new_core(3)
    refused = 0
    for _ in range(30):
        if core.terminal:
            break
        legal = core.legal()
        if len(legal) < sum(1 for c in range(16) if core.board[c] == 0):
            refused += 1
        core.apply(legal[0])
    assert refused > 0


def test_explain_says_what_a_lookahead_applies_and_copies():
    from midgardc.cli.explain import explain_lines

    chess = explain_lines(load_game_ir(CHESS, None))
    assert "  lookahead: 3 of 4 effect(s) and 0 of 2 trigger(s) on a copy of board, counter en_passant, turn (what legal_after reads, directly or through the effects kept)" in chess
    mine = explain_lines(load_game_ir(LOOK_SLICE, None))
    assert "  lookahead: 1 of 3 effect(s) and 1 of 1 trigger(s) on a copy of board, counter placed, counter streak, turn (what legal_after reads, directly or through the effects kept)" in mine
    go = explain_lines(load_game_ir(GO, None))
    assert any(line.startswith("  lookahead: the whole move on a copy of the whole state") for line in go)


def test_the_interpreter_looks_ahead_on_the_same_slice():
    """Both back ends run one analysis: the interpreter's lookahead copy runs the slice the
    compiled look_action_N runs (the whole move only where nothing is left out)."""
    from midgardc.runtime.rules.expressions import Program

    for spec in (CHESS, LOOK_SLICE, GO):
        ir = load_game_ir(spec, None)
        prog = Program(ir)
        for i, a in enumerate(ir.actions):
            want = look_slice(ir, i, STATE_READS)
            assert prog.look_slices[i] == (want if want is not None and not want.whole else None), (spec, a.name)
    chess = Program(load_game_ir(CHESS, None))
    assert chess.look_slices[0] is not None and chess.look_slices[0].triggers == ()  # no castling rights in a lookahead
