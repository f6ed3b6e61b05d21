"""The command line contract: every command's happy path, its output shapes, and exit
codes (0 ok, 1 user error without a traceback, 123 internal error, 130 interrupted)."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Optional

import pytest
from click.testing import CliRunner, Result

from conftest import MIDGARD, ROOT, get_game
from midgardc.cli import common as cli_module  # where _open_game finds game_from_ir
from midgardc.cli import cli

BROKEN = ROOT / "tests" / "broken"
ANSI = re.compile(r"\x1b\[[0-9;]*m")
_HAS_COMPILER = importlib.util.find_spec("midgardc.compiler.build") is not None


def run(*args: str, env: Optional[dict] = None) -> Result:
    return CliRunner().invoke(cli, list(args), env=env)


def _exe() -> list[str]:
    local = Path(sys.executable).parent / "midgardc"
    return [str(local)] if local.exists() else [sys.executable, "-m", "midgardc.cli"]


def run_process(*args: str, **kw) -> subprocess.CompletedProcess:
    env = dict(os.environ, NO_COLOR="1")
    return subprocess.run([*_exe(), *args], capture_output=True, text=True, timeout=120, env=env, **kw)


def finished_game() -> list[str]:
    """The moves of one whole random game (the interpreter's own playout)."""
    game = get_game(MIDGARD)
    return [game.move_text(m) for m in game.engine.playout_trace(3)]


# -- validate / moves / perft ---------------------------------------------------------------


def test_validate_checks_the_base_game_and_every_variant() -> None:
    result = run("validate", MIDGARD)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [f"{MIDGARD}: ok"] + [f"{MIDGARD} [{v}]: ok" for v in ("mere-mortal", "odin", "loki")]


def test_validate_one_variant_and_report_every_bad_spec() -> None:
    assert run("validate", MIDGARD, "--variant", "odin").stdout == f"{MIDGARD} [odin]: ok\n"
    bad = str(BROKEN / "unknown_function.yaml")
    result = run("validate", bad, MIDGARD)
    assert result.exit_code == 1
    assert f"{bad}:" in result.stderr and "error:" in result.stderr
    assert f"{MIDGARD}: ok" in result.stdout  # the good spec after it was still checked


def test_moves_lists_legal_moves_on_one_line() -> None:
    start = run("moves", MIDGARD).stdout.split()
    assert len(start) == 123 and start[0] == "0.0" and "6.6" not in start
    after = run("moves", MIDGARD, "--moves", "0.0 9.0").stdout
    assert after.count("\n") == 1
    assert len(after.split()) == 119 and "1.1" not in after.split() and "9.1" not in after.split()


def test_moves_after_the_end_is_an_empty_line() -> None:
    result = run("moves", MIDGARD, "--moves", " ".join(finished_game()))
    assert result.exit_code == 0 and result.stdout == "\n"
    assert "the game is over" in result.stderr


def test_perft_prints_one_line_per_depth() -> None:
    result = run("perft", MIDGARD, "--depth", "2")
    assert result.exit_code == 0, result.output
    assert result.stdout == "1 123\n2 14694\n"


# -- replay ---------------------------------------------------------------------------------


def test_replay_json_shape() -> None:
    result = run("replay", MIDGARD, "--moves", "0.0 9.0 1.0", "--json")
    assert result.exit_code == 0, result.output
    assert result.stdout.count("\n") == 1
    state = json.loads(result.stdout)
    board = state["board"]
    assert len(board) == 124
    assert set(board.values()) <= {None, "sea", "land"}
    assert board["0.0"] == "sea" and board["9.0"] == "land" and board["6.6"] is None
    assert [p["name"] for p in state["players"]] == ["sea", "land"]
    assert state["current"] == "land" and state["terminal"] is False and state["winner"] is None
    assert state["moves"] == ["0.0", "9.0", "1.0"]


def test_replay_json_of_a_finished_game_names_the_winner() -> None:
    state = json.loads(run("replay", MIDGARD, "--moves", " ".join(finished_game()), "--json").stdout)
    assert state["terminal"] is True and state["current"] is None
    assert state["winner"] in ("sea", "land")
    tiles = {p["name"]: p["score"]["tiles"] for p in state["players"]}
    assert tiles[state["winner"]] >= max(tiles.values())


def test_replay_text_draws_the_board() -> None:
    result = run("replay", MIDGARD, "--moves", "0.0")
    assert result.exit_code == 0
    assert "land to move (move 2)" in result.stdout and "\x1b[" not in result.stdout


def test_illegal_move_in_replay_exits_1_naming_its_position() -> None:
    proc = run_process("replay", MIDGARD, "--moves", "0.0 1.1 9.0")
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert "move 2 (1.1)" in proc.stderr and "legal moves here: 1.0 1.2" in proc.stderr
    assert "Traceback" not in proc.stderr


# -- bad options: exit 1, one message, no traceback -------------------------------------------


@pytest.mark.parametrize(
    "args, message",
    [
        (["match", MIDGARD, "--players", "randm,greedy", "-e", "interpreted"], "unknown player 'randm'; did you mean 'random'?"),
        (["match", MIDGARD, "--players", "random", "-e", "interpreted"], "Midgard has 2 seats (sea, land); 1 player was given"),
        (["match", MIDGARD, "--players", "random,random", "--games", "0"], "0 is not in the range x>=1"),
        (["match", MIDGARD, "--players", "random,random", "--games", "many"], "'many' is not a valid integer"),
        (["match", MIDGARD, "--players", "random,random", "--engine", "fast"], "'fast' is not one of 'compiled', 'interpreted'"),
        (["match", MIDGARD, "--players", "random,random", "--seed", "-1"], "--seed"),
        (["match", MIDGARD], "Missing option '--players'"),
        (["perft", MIDGARD, "--depth", "0"], "0 is not in the range x>=1"),
        (["moves", MIDGARD, "--variant", "lokki"], "unknown variant 'lokki'"),
        (["moves", MIDGARD, "--moves", "Z9"], "'Z9' is not a move of Midgard"),
        (["moves", "no/such/spec.yaml"], "no such spec file: no/such/spec.yaml"),
        (["replay", MIDGARD, "--game", "2"], "--game needs --record"),
        (["replay", MIDGARD, "--record", "no-such-record.jsonl"], "cannot read the record no-such-record.jsonl"),
        (["frobnicate"], "No such command 'frobnicate'"),
    ],
)
def test_bad_option_values_exit_1_with_a_message(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.exit_code == 1, result.output
    assert message in result.stderr, result.stderr
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)  # a clean exit, not an escaped exception


def test_bad_option_in_a_real_process_has_no_traceback() -> None:
    proc = run_process("match", MIDGARD, "--players", "random,nobody", "--games", "2")
    assert proc.returncode == 1
    assert "unknown player 'nobody'" in proc.stderr and "Traceback" not in proc.stderr


def test_unexpected_exception_is_an_internal_error_123(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_args, **_kw):
        raise RuntimeError("wires crossed")

    monkeypatch.setattr(cli_module, "_load_ir", broken)  # moves -> common._play -> _load_ir
    result = run("moves", MIDGARD)
    assert result.exit_code == 123
    assert "internal error: RuntimeError: wires crossed" in result.stderr
    assert "bug in midgardc" in result.stderr and "Traceback" not in result.stderr
    shown = run("moves", MIDGARD, env={"MIDGARDC_TRACEBACK": "1"})
    assert shown.exit_code == 123 and "Traceback" in shown.stderr


# -- match ----------------------------------------------------------------------------------


def test_match_prints_an_aligned_table() -> None:
    result = run("match", MIDGARD, "--players", "random,greedy", "--games", "2", "--engine", "interpreted", "--seed", "4")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Midgard: 2 games, seed 4, interpreted engine"
    header = next(line for line in lines if line.startswith("player"))
    assert header.split() == ["player", "wins", "win", "%", "as", "sea", "as", "land", "mean", "diff"]
    rows = [line for line in lines if line.startswith(("random", "greedy"))]
    assert len(rows) == 2
    assert all(len(r) <= len(header) for r in rows)
    assert any(line.startswith("draws ") and "mean plies" in line and "mean margin" in line for line in lines)


def test_match_json_has_the_table_numbers() -> None:
    args = ["match", MIDGARD, "--players", "random,random", "--games", "4", "--engine", "interpreted", "--seed", "1"]
    data = json.loads(run(*args, "--json").stdout)
    assert data["games"] == 4 and data["seats"] == ["sea", "land"] and data["engine"] == "interpreted"
    assert [p["name"] for p in data["players"]] == ["random#1", "random#2"]
    assert sum(p["wins"] for p in data["players"]) + data["draws"] == 4
    table = run(*args).stdout
    for p in data["players"]:
        assert re.search(rf"^{re.escape(p['name'])}\s+{p['wins']}\s+{p['win_pct']:.1f}%", table, re.M), table
    assert f"mean plies {data['mean_plies']:.1f}" in table


def test_match_results_do_not_depend_on_workers() -> None:
    args = ["match", MIDGARD, "--players", "random,random", "--games", "6", "--engine", "interpreted", "--json", "--seed", "8"]
    one = run(*args, "--workers", "1")
    two = run(*args, "--workers", "2")
    assert one.exit_code == two.exit_code == 0, two.output
    assert one.stdout == two.stdout


def test_match_record_replays_through_the_cli(tmp_path: Path) -> None:
    record = tmp_path / "match.jsonl"
    result = run("match", MIDGARD, "-p", "greedy,random", "-n", "2", "-e", "interpreted", "--record", str(record))
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert len(lines) == 2 and lines[1]["seats"] == ["random", "greedy"]
    replayed = run("replay", MIDGARD, "--record", str(record), "--game", "1", "--json")
    assert replayed.exit_code == 0, replayed.output
    state = json.loads(replayed.stdout)
    assert state["terminal"] and state["moves"] == lines[1]["moves"]
    assert state["winner"] == lines[1]["result"]["winner_seat"]
    assert "result matches the record" in replayed.stderr
    # A record whose result no longer follows from its moves is caught.
    lines[0]["result"]["plies"] += 1
    record.write_text(json.dumps(lines[0]) + "\n")
    tampered = run("replay", MIDGARD, "--record", str(record))
    assert tampered.exit_code == 1 and "replays to a different result" in tampered.stderr


def test_match_with_a_script_player(tmp_path: Path) -> None:
    script = tmp_path / "last.py"
    script.write_text("def choose(observation, legal_moves, rng):\n    return legal_moves[-1]\n")
    result = run("match", MIDGARD, "-p", f"script:{script},random", "-n", "2", "-e", "interpreted", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["players"][0]["name"] == f"script:{script}"
    broken = tmp_path / "broken.py"
    broken.write_text("def choose(observation, legal_moves, rng):\n    return None\n")
    failed = run("match", MIDGARD, "-p", f"script:{broken},random", "-n", "2", "-e", "interpreted")
    assert failed.exit_code == 1 and f"player script {broken}: choose() returned None" in failed.stderr


def test_default_engine_falls_back_with_a_note_but_an_explicit_one_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    real = cli_module.game_from_ir

    def no_compiled(ir, engine="interpreted", force_build=False):
        if engine == "compiled":
            raise ModuleNotFoundError("No module named 'midgardc.runtime.compiled'", name=cli_module.COMPILED_MODULE)
        return real(ir, engine)

    monkeypatch.setattr(cli_module, "game_from_ir", no_compiled)
    result = run("match", MIDGARD, "-p", "random,random", "-n", "2", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["engine"] == "interpreted"
    assert "note: the compiled engine is not part of this installation" in result.stderr
    explicit = run("match", MIDGARD, "-p", "random,random", "-n", "2", "--engine", "compiled")
    assert explicit.exit_code == 1 and "hint: use --engine interpreted" in explicit.stderr


def test_ctrl_c_prints_the_partial_table_and_exits_130(tmp_path: Path) -> None:
    record = tmp_path / "games.jsonl"
    proc = subprocess.Popen(
        [*_exe(), "match", MIDGARD, "-p", "random,random", "-n", "100000", "-e", "interpreted", "--record", str(record)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # a test runner may ignore it
    )
    deadline = time.monotonic() + 60
    while not any(p.name.endswith(".tmp") for p in tmp_path.iterdir()):  # the match has started
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.05)
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted after" in out and "of 100000" in out
    assert "Traceback" not in err
    assert [p.name for p in tmp_path.iterdir()] == ["games.jsonl"]
    for line in record.read_text().splitlines():
        json.loads(line)


# -- show / bench / build / generate ---------------------------------------------------------


def test_show_draws_text_with_or_without_colour(tmp_path: Path) -> None:
    plain = run("show", MIDGARD, "--moves", "0.0 9.0", "--no-color")
    assert plain.exit_code == 0 and "\x1b[" not in plain.stdout
    assert "sea to move (move 3)" in plain.stdout
    coloured = run("show", MIDGARD, "--moves", "0.0 9.0", "--color")
    assert "\x1b[" in coloured.stdout and ANSI.sub("", coloured.stdout) == plain.stdout


def test_show_writes_an_svg(tmp_path: Path) -> None:
    svg = tmp_path / "board.svg"
    result = run("show", MIDGARD, "--moves", "0.0", "--variant", "mere-mortal", "--svg", str(svg))
    assert result.exit_code == 0, result.output
    text = svg.read_text()
    assert text.startswith("<svg") and text.count("<polygon") == 124
    # the drop on 0.0 is the one cell drawn in sea's colours (the legend's swatch is not a cell)
    assert 'class="cell p0 player-sea" fill="#2f6db5" data-cell="0.0"' in text
    assert text.count('class="cell p0 player-sea"') == 1
    to_stdout = run("show", MIDGARD, "--svg", "-")
    assert to_stdout.stdout.startswith("<svg")
    nowhere = run("show", MIDGARD, "--svg", str(tmp_path / "no" / "dir" / "x.svg"))
    assert nowhere.exit_code == 1 and "cannot write the picture" in nowhere.stderr and nowhere.stdout == ""


def test_bench_reports_speed() -> None:
    result = run("bench", MIDGARD, "--engine", "interpreted", "--playouts", "3", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    row = data["engines"]["interpreted"]
    assert row["playouts"] == 3 and row["playouts_per_s"] > 0 and row["plies_per_s"] > 0 and 20 < row["mean_plies"] < 130
    assert data["ratio"] is None
    text = run("bench", MIDGARD, "--engine", "interpreted", "--playouts", "2").stdout
    assert text.splitlines()[1].split() == ["engine", "playouts", "seconds", "playouts/s", "plies/s", "mean", "plies"]


def test_version() -> None:
    result = run("--version")
    assert result.exit_code == 0 and result.stdout.startswith("midgardc, version")


@pytest.mark.skipif(not _HAS_COMPILER, reason="the compiler is being written in parallel")
def test_generate_writes_and_checks_generated_sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "specs").mkdir()
    shutil.copy(MIDGARD, tmp_path / "specs" / "midgard.yaml")
    monkeypatch.chdir(tmp_path)
    missing = run("generate", "--check")
    assert missing.exit_code == 1 and "missing: generated/midgard.pyx" in missing.stdout
    written = run("generate")
    assert written.exit_code == 0, written.output
    assert "generated/midgard__odin.pyx: written" in written.stdout
    assert run("generate").stdout.count("unchanged") == 4
    assert run("generate", "--check").exit_code == 0
    Path("generated/midgard__loki.pyx").write_text("# edited by hand\n")
    stale = run("generate", "--check", "specs/midgard.yaml")
    assert stale.exit_code == 1 and stale.stdout == "stale: generated/midgard__loki.pyx\n"


@pytest.mark.skipif(not _HAS_COMPILER, reason="the compiler is being written in parallel")
def test_build_writes_the_source_and_compiles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = tmp_path / "midgard.yaml"
    shutil.copy(MIDGARD, spec)
    monkeypatch.chdir(tmp_path)
    result = run("build", str(spec), "--variant", "odin")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"{spec} [odin]: ok (generated/midgard__odin.pyx")
    assert (tmp_path / "generated" / "midgard__odin.pyx").exists()
    both = run("build", str(spec), "--variant", "odin", "--all-variants")
    assert both.exit_code == 1 and "cannot be used together" in both.stderr
