"""Defaults that finish (issue 25): perft counts on the compiled engine unless told
otherwise, bench bounds the interpreter's share by time and says so, playthrough says what
it plays, and the library's load() brings up the same engine as the research entry points."""

from __future__ import annotations

import inspect
import json

import pytest
from click.testing import CliRunner

from conftest import SPECS
from midgardc.cli import cli
from midgardc.cli import common as cli_module
from midgardc import engines as game_module
from midgardc.engines import load

TTT = str(SPECS / "classics" / "tic-tac-toe.yaml")


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


@pytest.fixture
def engines_opened(monkeypatch):
    """The engine names the command line opens games on."""
    opened: list[str] = []
    real = cli_module.game_from_ir

    def recording(ir, engine="compiled", *rest):
        opened.append(engine)
        return real(ir, engine, *rest)

    monkeypatch.setattr(cli_module, "game_from_ir", recording)
    return opened


def test_perft_counts_on_the_compiled_engine_unless_told(engines_opened):
    compiled = run("perft", TTT, "--depth", "3")
    assert compiled.exit_code == 0, compiled.output
    assert engines_opened == ["compiled"]
    interpreted = run("perft", TTT, "--depth", "3", "--engine", "interpreted")
    assert engines_opened == ["compiled", "interpreted"]
    assert compiled.stdout == interpreted.stdout == "1 9\n2 72\n3 504\n"


def test_the_interpreter_stops_when_asked_with_the_games_it_finished():
    engine = load(TTT, engine="interpreted").engine
    seen = []
    stopped = engine.playouts(10, 7, stop=lambda games: seen.append(games) or games >= 3)
    assert seen == [1, 2, 3] and stopped["games"] == 3
    assert stopped == engine.playouts(3, 7)  # the same first games


def test_bench_bounds_the_interpreter_by_time_and_says_so():
    # a bound every game passes: the interpreter stops after its first game, whatever the machine
    bounded = run("bench", TTT, "--engine", "interpreted", "-n", "50", "--interpreter-seconds", "1e-9", "--json")
    assert bounded.exit_code == 0, bounded.output
    row = json.loads(bounded.stdout)["engines"]["interpreted"]
    assert (row["playouts"], row["asked"], row["time_limited"]) == (1, 50, True) and row["playouts_per_s"] > 0
    text = run("bench", TTT, "--engine", "both", "-n", "5000", "--interpreter-seconds", "1e-9").stdout
    assert "the interpreter stopped at the time bound after 1 of 50 playouts" in text and "its rate is from the playouts it finished" in text
    unbounded = run("bench", TTT, "--engine", "interpreted", "-n", "5", "--interpreter-seconds", "0", "--json")
    row = json.loads(unbounded.stdout)["engines"]["interpreted"]
    assert (row["playouts"], row["time_limited"]) == (5, False)
    assert "time bound" not in run("bench", TTT, "--engine", "interpreted", "-n", "5", "--interpreter-seconds", "0").stdout


def test_bench_shows_the_interpreters_progress_when_asked():
    result = run("bench", TTT, "--engine", "interpreted", "-n", "7", "--progress")
    assert result.exit_code == 0, result.output
    assert "7/7" in result.stderr and "playout" in result.stderr
    several = run("bench", TTT, str(SPECS / "classics" / "connect-four.yaml"), "--engine", "interpreted", "-n", "2", "--no-progress")
    assert f"[1/2] {TTT}" in several.stderr and "[2/2] " in several.stderr


def test_playthrough_says_what_it_plays():
    result = run("playthrough", TTT, "--seed", "3", "--progress")
    assert result.exit_code == 0, result.output
    assert f"playthrough: {TTT}, seed 3, on the interpreted engine" in result.stderr
    steps = result.stdout.count("## step ") + result.stdout.count("\nstep ")
    assert f"{steps}step" in result.stderr.replace(" ", "")  # the bar counted every step
    quiet = run("playthrough", TTT, "--seed", "3", "--no-progress")
    assert quiet.stdout == result.stdout and "step" not in quiet.stderr


def test_load_brings_up_the_engine_the_research_entry_points_do():
    assert game_module.DEFAULT_ENGINE == "compiled"
    for function in (game_module.load, game_module.game_from_ir):
        assert inspect.signature(function).parameters["engine"].default == game_module.DEFAULT_ENGINE
    from midgardc.research import openspiel_game

    assert inspect.signature(openspiel_game.load_game).parameters["engine"].default == game_module.DEFAULT_ENGINE
    assert load(TTT).engine_name == "compiled"


def test_a_build_on_first_use_is_announced(monkeypatch):
    from midgardc.compiler import build

    quiet = run("perft", TTT, "--depth", "1")
    assert quiet.exit_code == 0 and "building" not in quiet.stderr  # in the cache: nothing to say
    monkeypatch.setattr(build, "is_cached", lambda ir: False)  # as on a cold cache (the load itself is quick)
    told = run("perft", TTT, "--depth", "1")
    assert told.exit_code == 0, told.output
    assert "building the compiled engine of tic-tac-toe (first use; cached after) ...\n" in told.stderr
    assert "built the compiled engine of tic-tac-toe in " in told.stderr
    assert told.stdout == quiet.stdout


def test_a_failed_build_says_it_stopped(capsys):
    from midgardc.progress import building

    with pytest.raises(RuntimeError):
        with building("an engine", enabled=False):
            raise RuntimeError("the compiler broke")
    err = capsys.readouterr().err
    assert err.startswith("building an engine (first use; cached after) ...\n") and "building an engine stopped after " in err
