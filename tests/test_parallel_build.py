"""Building many engines at once (midgardc/compiler/parallel.py, `midgardc build
--jobs`, the test suite's warm-up): every build is started and finished in the caller's
view, in order, with a count; a bad spec is one clean message and the others still build."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

import conftest
from conftest import ROOT, SPECS
from midgardc.compiler.parallel import Target, build_many, default_jobs

SMALL = str(ROOT / "tests" / "safety" / "ply_limited.yaml")
TIC_TAC_TOE = str(SPECS / "classics" / "tic-tac-toe.yaml")


def test_build_many_reports_each_start_and_end_and_keeps_going_after_an_error(tmp_path):
    missing = str(tmp_path / "missing.yaml")
    targets = [Target(SMALL), Target(missing), Target(TIC_TAC_TOE)]
    started, ended = [], []
    outcomes = build_many(targets, 2, on_start=lambda t, i: started.append((t, i)), on_finish=lambda o, k: ended.append((o.target, k)))
    assert started == [(t, i + 1) for i, t in enumerate(targets)]  # in order, as each starts
    assert sorted(ended, key=lambda e: e[1]) == ended and [k for _, k in ended] == [1, 2, 3]
    assert {t for t, _ in ended} == set(targets)
    assert [o.target for o in outcomes] == targets  # the outcomes in the targets' order
    assert [o.ok for o in outcomes] == [True, False, True]
    assert "no such spec file" in outcomes[1].error and "Traceback" not in outcomes[1].error
    again = build_many(targets[:1], 1)  # one job: in this process, found in the cache
    assert again[0].ok and again[0].cached


def test_on_an_empty_cache_the_generic_module_builds_beside_the_rules_modules(monkeypatch):
    # As if the cache had no generic module (the worker processes are forked, so they see
    # it so too; the real one is found in the cache, so nothing slow is built): it is a job
    # of its own, started first, and an engine is reported ready only after it.
    from midgardc.compiler import build

    monkeypatch.setattr(build, "generic_cached", lambda: False)
    events = []
    targets = [Target(SMALL), Target(TIC_TAC_TOE)]
    outcomes = build_many(targets, 2, on_start=lambda t, i: events.append(("start", i)), on_finish=lambda o, k: events.append(("done", k)), on_generic=lambda s, e: events.append(("generic", s is not None, e)))
    assert events[0] == ("generic", False, None)  # before any engine's build starts
    ended = events.index(("generic", True, None))
    assert {("start", 1), ("start", 2)} <= set(events) and [e for e in events if e[0] == "done"] == [("done", 1), ("done", 2)]
    assert all(events.index(("done", k)) > ended for k in (1, 2))  # ready only with the generic module
    assert [o.ok for o in outcomes] == [True, True] and [o.target for o in outcomes] == targets


def test_a_failed_generic_build_fails_every_engine_with_its_message(monkeypatch):
    from midgardc.compiler import build
    from midgardc.errors import BuildError

    def broken():
        raise BuildError("the generic engine does not compile here")

    monkeypatch.setattr(build, "generic_cached", lambda: False)
    monkeypatch.setattr(build, "build_generic", broken)
    told = []
    outcomes = build_many([Target(SMALL), Target(TIC_TAC_TOE)], 2, on_generic=lambda s, e: told.append(e))
    assert told == [None, "error: the generic engine does not compile here"]
    assert [o.error for o in outcomes] == ["error: the generic engine does not compile here"] * 2


def test_jobs_must_be_positive():
    assert default_jobs() >= 1
    with pytest.raises(ValueError):
        build_many([Target(SMALL)], 0)


def test_build_command_says_what_it_builds_and_counts(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("MIDGARDC_TRACEBACK", None)
    cmd = [sys.executable, "-m", "midgardc.cli", "build", SMALL, str(tmp_path / "missing.yaml"), TIC_TAC_TOE, "--jobs", "2"]
    proc = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 1  # one spec is missing
    assert "Traceback" not in proc.stderr
    assert "building 3 engines, 2 at a time" in proc.stderr
    for i, spec in enumerate([SMALL, str(tmp_path / "missing.yaml"), TIC_TAC_TOE]):
        assert f"[started {i + 1}/3] {spec}\n" in proc.stderr
    assert f"error: no such spec file: {tmp_path / 'missing.yaml'}" in proc.stderr
    done = sorted(int(line.rsplit("[done ", 1)[1].split("/")[0]) for line in (proc.stdout + proc.stderr).splitlines() if "[done " in line)
    assert done == [1, 2, 3]
    # specs from outside the current folder get generated/elsewhere/ names (namesakes never share one)
    assert f"{SMALL}: ok (generated/elsewhere/ply-limited--" in proc.stdout and f"{TIC_TAC_TOE}: ok (generated/elsewhere/tic-tac-toe--" in proc.stdout
    assert "2 of 3 engines ready" in proc.stderr and "1 failed" in proc.stderr
    assert len(list((tmp_path / "generated" / "elsewhere").glob("tic-tac-toe--*.pyx"))) == 1


def test_the_build_command_refuses_zero_jobs(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "midgardc.cli", "build", SMALL, "--jobs", "0"], cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr and "--jobs" in proc.stderr


def test_the_suite_warms_the_cache_only_for_a_whole_run():
    def config(*args):
        return SimpleNamespace(args=list(args))

    assert conftest._whole_suite(config())
    assert conftest._whole_suite(config(str(ROOT / "tests")))
    assert conftest._whole_suite(config(str(ROOT)))
    assert not conftest._whole_suite(config(str(ROOT / "tests" / "test_cli.py")))
    assert not conftest._whole_suite(config(str(ROOT / "tests"), str(ROOT / "tests" / "test_cli.py") + "::test_x"))
    labels = {t.label for t in conftest.warm_targets()}
    midgard = str(SPECS / "midgard.yaml")
    assert {midgard, f"{midgard} [odin]", f"{midgard} [loki]", f"{midgard} [mere-mortal]"} <= labels
    assert str(ROOT / "tests" / "data" / "sampler.yaml") in labels  # the differential tests play it
    assert not any("broken" in label for label in labels)


def test_the_warm_up_is_in_the_controller_not_in_xdist_workers(monkeypatch):
    calls = []
    monkeypatch.setattr("midgardc.compiler.parallel.build_many", lambda *a, **k: calls.append(a))
    monkeypatch.setenv(conftest.WARM_ENV, "1")
    worker = SimpleNamespace(config=SimpleNamespace(workerinput={}, args=[], pluginmanager=None))
    conftest.pytest_sessionstart(worker)
    assert calls == []
    monkeypatch.setenv(conftest.WARM_ENV, "0")
    plugins = SimpleNamespace(get_plugin=lambda name: None)
    conftest.pytest_sessionstart(SimpleNamespace(config=SimpleNamespace(args=[], pluginmanager=plugins)))
    assert calls == []
    monkeypatch.setenv(conftest.WARM_ENV, "1")
    conftest.pytest_sessionstart(SimpleNamespace(config=SimpleNamespace(args=[str(Path(__file__))], pluginmanager=plugins)))
    assert len(calls) == 1 and len(calls[0][0]) == len(conftest.warm_targets())
