"""The history's default position: a spec that asks ``times_seen()``, ``repeated()`` or
``moves_since_first_seen()`` without a ``history`` section compares the whole state its
rules read (spec/history.py, docs/spec-language.md ``history``). Chess and Crazyhouse use
it; tests/data/history_default.yaml is a toy whose default has hands and a counter but
not its clock."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from conftest import ENGINES, SPECS, get_game
from midgardc.ir.history import HistoryIR
from midgardc.spec.lower import load_game_ir

CLASSICS = SPECS / "classics"
TOY = str(Path(__file__).parent / "data" / "history_default.yaml")


def _with_history(tmp_path: Path, spec: str, position: str) -> str:
    """A copy of a classic spec (beside a copy of chess.yaml, which it may extend) with
    an explicit ``history: {position: [...]}``."""
    for name in ("chess.yaml", spec):
        shutil.copy(CLASSICS / name, tmp_path / name)
    path = tmp_path / spec
    path.write_text(path.read_text() + f"\nhistory:\n  position: {position}\n")
    return str(path)


@pytest.mark.parametrize("spec, position", [
    ("chess.yaml", "[board, turn, castling, en_passant]"),          # 9.2.3 (chess.yaml)
    ("crazyhouse.yaml", "[board, turn, castling, en_passant, hands]"),  # a capture goes into a hand
])
def test_the_default_is_the_list_the_rulebook_gives(tmp_path, spec, position):
    default = load_game_ir(str(CLASSICS / spec)).history
    assert default is not None and default == load_game_ir(_with_history(tmp_path, spec, position)).history


def test_the_toy_default_has_hands_and_counters_but_no_clock(tmp_path):
    ir = load_game_ir(TOY)
    assert ir.history == HistoryIR(board=True, turn=True, counters=(ir.counters.index("parity"),), hands=True)
    explicit = tmp_path / "explicit.yaml"
    explicit.write_text(Path(TOY).read_text() + "history:\n  position: [board, turn, hands, parity]\n")
    assert load_game_ir(str(explicit)).history == ir.history


def test_a_spec_that_asks_nothing_keeps_no_history():
    assert load_game_ir(str(CLASSICS / "tic-tac-toe.yaml")).history is None


def test_an_explicit_history_is_kept():
    # Go's positional superko compares the stones alone, not the turn nor its counters
    assert load_game_ir(str(CLASSICS / "go.yaml")).history == HistoryIR(board=True, turn=False)


def test_both_engines_count_the_toys_positions_alike():
    games = [get_game(TOY, None, e) for e in ENGINES]
    repeats = 0
    for seed in range(6):
        states = [g.new_state(seed) for g in games]
        rng = random.Random(seed)
        while not states[0].is_terminal():
            seen = [(s.core.times_seen(), s.core.position_key(s.core.current)) for s in states]
            assert seen[0] == seen[1], (seed, states[0].history)
            repeats += seen[0][0] > 1
            move = rng.choice(states[0].legal_moves()).text
            for s in states:
                s.apply(move)
        assert states[1].is_terminal() and states[0].to_json()["winner"] == states[1].to_json()["winner"]
    assert repeats > 0  # (the toy's positions do repeat)
