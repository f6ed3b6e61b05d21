"""``midgardc watch``: the match runs again when the spec (or a file it extends) is saved,
beside the previous run; a bad edit prints the positioned error and the next save
recovers; games move from the interpreter to the compiled engine when it is ready without
changing a result; Ctrl-C stops the command cleanly. The spec is a copy of
tests/data/dice.yaml (3 seats, dice; each player's stash of stones is a constant,
``stone: {hand: 6}``, that an edit changes)."""

from __future__ import annotations

import re
import shutil
import sys
import threading
from pathlib import Path
from typing import Callable

import pytest

from conftest import ROOT
from midgardc.matches.watch import Watcher, comparison, play_run, watched_files
from midgardc.players import parse_player
from midgardc.engines import game_from_ir
from midgardc.spec.lower import load_game_ir

DICE = ROOT / "tests" / "data" / "dice.yaml"
HAND = "  stone: {hand: 6}"
PLAYERS = [parse_player("random")] * 3


def _spec(tmp_path: Path) -> Path:
    path = tmp_path / "dice.yaml"
    shutil.copy(DICE, path)
    assert HAND in path.read_text()
    return path


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def _watch(spec: Path, edits: list[Callable[[], None]], **kw) -> str:
    """Run a watcher whose every pause makes the next edit; the text it printed."""
    out: list[str] = []
    watcher = Watcher(str(spec), PLAYERS, kw.pop("games", 12), seed=3, engine=kw.pop("engine", "interpreted"), say=out.append, **kw)
    pending = list(edits)
    watcher.loop(sleep=lambda _s: pending.pop(0)() if pending else None, until=lambda: not pending and watcher.seen is not None and not watcher.changed())
    return "\n".join(out)


def test_a_save_reruns_the_match_beside_the_previous_run_and_a_bad_edit_recovers(tmp_path: Path) -> None:
    spec = _spec(tmp_path)
    out = _watch(
        spec,
        [
            lambda: None,  # no save: nothing runs
            lambda: _edit(spec, HAND, "  stone: {hand: 2}"),  # too few stones to fill the board: no game ends
            lambda: _edit(spec, "  stone: {hand: 2}", "  stone: {hand: 2"),  # a YAML mistake
            lambda: _edit(spec, "  stone: {hand: 2", "  stone: {hand: 4}"),  # mended
        ],
    )
    runs = re.findall(r"^run (\d+): Dice placement \(a chance test\), 12 games, interpreted engine$", out, re.M)
    assert runs == ["1", "2", "3"], out
    # each rerun is shown beside the previous good run, with the change
    assert re.search(r"^\s+run 2\s+run 1\s+change$", out, re.M) and re.search(r"^\s+run 3\s+run 2\s+change$", out, re.M)
    plies = [float(p) for p in re.findall(r"^mean plies\s+(\d+\.\d)", out, re.M)]
    assert plies[0] < 60.0 and plies[1] == 60.0  # the game ends on a full board, else at max_plies 60
    assert re.search(r"^stopped \(ply limit\)\s+0\.0% \[0-\d+\]\s+100\.0% \[\d+-100\]\s+-100\.0$", out, re.M), out  # run 3 beside run 2
    change = re.search(r"^mean plies\s+(\d+\.\d)\s+(\d+\.\d)\s+([+-]\d+\.\d)$", out, re.M)
    assert change and float(change.group(3)) == pytest.approx(float(change.group(1)) - float(change.group(2)), abs=0.11)
    assert re.search(r"^random#1 wins\s+\d+\.\d% \[\d+-\d+\]", out, re.M)  # a rate with its interval
    # the bad edit: the error with its position, as 'validate' prints it, and the watch goes on
    assert re.search(rf"{re.escape(str(spec))}:\d+:\d+: error: invalid YAML", out), out
    assert "fix the spec and save it" in out
    assert out.count("watching ") == 4


def test_a_save_of_an_extended_file_reruns_too(tmp_path: Path) -> None:
    base = _spec(tmp_path)
    child = tmp_path / "child.yaml"
    child.write_text("extends: dice.yaml\ngame:\n  title: A dice variant\n")
    assert watched_files(str(child)) == [str(child), str(base)]
    out = _watch(child, [lambda: _edit(base, HAND, "  stone: {hand: 3}")])
    assert re.findall(r"^run (\d+): A dice variant", out, re.M) == ["1", "2"]


def _gated(gate: threading.Event) -> Callable:
    def builder(ir):
        game = game_from_ir(ir, "compiled")  # cached by content
        assert gate.wait(900)
        return game

    return builder


def test_games_move_to_the_compiled_engine_when_it_is_ready_and_the_results_do_not_change() -> None:
    ir = load_game_ir(str(DICE), None, 3)
    gate = threading.Event()
    said: list[str] = []

    def after(i: int) -> None:  # the engine becomes ready after game 4
        if i == 3:
            gate.set()
            pending_box[0].wait(900)

    from midgardc.engine_switch import PendingEngine

    pending_box = [PendingEngine(ir, _gated(gate))]
    summary, engines = play_run(ir, PLAYERS, 10, 5, "compiled", said.append, pending=pending_box[0], on_game=after)
    assert engines == ["interpreted", "compiled"]
    assert any("games play on the interpreter meanwhile" in s for s in said)
    alone, used = play_run(ir, PLAYERS, 10, 5, "interpreted", said.append)
    assert used == ["interpreted"] and alone == summary


def test_the_comparison_of_a_first_run_has_no_change_column() -> None:
    from midgardc.matches.watch import Run

    ir = load_game_ir(str(DICE), None, 3)
    summary, engines = play_run(ir, PLAYERS, 4, 1, "interpreted", lambda s: None)
    text = comparison(Run(1, ir.title, list(ir.players), summary, engines), None)
    assert "change" not in text and "run 1" in text and "seat red wins" in text


def test_the_command_reruns_on_save_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    spec = _spec(tmp_path)
    child = pexpect.spawn(sys.executable, ["-m", "midgardc.cli", "watch", str(spec), "--players", "random,random,random", "--games", "6", "--engine", "interpreted"], cwd=str(ROOT), encoding="utf-8", timeout=300, dimensions=(50, 120))
    child.expect("save to run again, Ctrl-C to stop")
    assert "run 1: Dice placement" in child.before
    _edit(spec, HAND, "  stone: {hand: 2}")
    child.expect("save to run again, Ctrl-C to stop")
    assert re.search(r"run 2\s+run 1\s+change", child.before)
    child.sendintr()
    child.expect(pexpect.EOF)
    assert "stopped watching" in child.before and "Traceback" not in child.before
    child.close()
    assert child.exitstatus == 0


def test_a_spec_that_does_not_exist_is_one_error_not_a_watch(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from midgardc.cli import cli

    result = CliRunner().invoke(cli, ["watch", str(tmp_path / "nothing.yaml"), "--players", "random,random"])
    assert result.exit_code == 1 and "no such spec file" in result.output and "Traceback" not in result.output


def test_one_build_at_a_time_and_none_for_an_overtaken_save(tmp_path: Path) -> None:
    spec = _spec(tmp_path)
    title = "  title: Dice placement (a chance test)"
    gate = threading.Event()
    built: list[str] = []

    def builder(ir):  # a stand-in that records what it was asked to build
        built.append(ir.title)
        assert gate.wait(900)
        return game_from_ir(ir, "interpreted")

    out: list[str] = []
    watcher = Watcher(str(spec), PLAYERS, 3, seed=1, engine="compiled", say=out.append, builder=builder)
    watcher.poll()  # run 1: its build starts and is held
    first = watcher.building
    _edit(spec, title, "  title: Second")
    watcher.poll()  # run 2: its build waits for run 1's
    _edit(spec, "  title: Second", "  title: Third")
    watcher.poll()  # run 3 overtakes run 2
    assert built == ["Dice placement (a chance test)"]
    gate.set()
    assert watcher.building.wait(900) and first.done()
    assert built == ["Dice placement (a chance test)", "Third"]
    assert "".join(out).count("games play on the interpreter meanwhile") == 3
