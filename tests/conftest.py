"""Shared fixtures: games loaded once per session, per spec, variant and back end."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "specs"
MIDGARD = str(SPECS / "midgard.yaml")
MIDGARD_VARIANTS = [None, "mere-mortal", "odin", "loki"]
ENGINES = ["interpreted", "compiled"]

_games: dict = {}


def get_game(spec: str, variant=None, engine: str = "interpreted"):
    """Load (and for 'compiled', build — cached by content hash) a game once per session."""
    from midgardc.engines import load

    key = (spec, variant, engine)
    if key not in _games:
        _games[key] = load(spec, variant, engine=engine)
    return _games[key]


def played(game, moves: list):
    """A new game of ``game`` after ``moves`` (their notation), each applied in turn."""
    state = game.new_state()
    for m in moves:
        state.apply(m)
    return state


def assert_spec_error(tmp_path, text: str, message: str, line: int, col: int,
                      name: str = "broken.yaml") -> None:
    """A broken spec is refused with one error that says ``message`` at ``name:line:col``
    (the error tests of every construct check the position the same way)."""
    from midgardc.errors import SpecError
    from midgardc.spec.lower import load_game_ir

    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_game_ir(str(path), None)
    got = str(info.value)
    assert message in got and f"{name}:{line}:{col}:" in got.splitlines()[0], got


@pytest.fixture(params=ENGINES)
def engine(request) -> str:
    return request.param


@pytest.fixture
def midgard(engine):
    return lambda variant=None: get_game(MIDGARD, variant, engine)


# -- warming the engine cache -----------------------------------------------------------
# A whole-suite run needs the compiled engine of every spec and variant (the differential
# tests play them all); built lazily, test by test, they would compile one after another.
# Before the tests start, the controller (never an xdist worker) builds them all, on every
# core. MIDGARDC_WARM: "auto" (the default: only when the whole suite runs), "1" (always),
# "0" (never); MIDGARDC_WARM_JOBS: builds at once (default: the number of cores).
WARM_ENV, WARM_JOBS_ENV = "MIDGARDC_WARM", "MIDGARDC_WARM_JOBS"
WARM_DIRS = (SPECS, ROOT / "tests" / "data")


def _whole_suite(config) -> bool:
    """Whether the run names no narrower place than the tests directory."""
    tests = (ROOT / "tests").resolve()
    args = [a.split("::")[0] for a in config.args if not a.startswith("-")] or [str(tests)]
    return all(Path(a).resolve() in (tests, ROOT) for a in args)


def warm_targets() -> list:
    """Every spec and variant (default player count) under specs/ and tests/data/."""
    from midgardc.compiler.build import spec_files
    from midgardc.compiler.parallel import Target
    from midgardc.errors import MidgardcError
    from midgardc.spec.lower import list_variants

    out = []
    for directory in WARM_DIRS:
        for path in spec_files(str(directory)):
            try:
                variants = list_variants(path)
            except MidgardcError:
                continue  # the tests that load it say what is wrong
            out += [Target(path, v) for v in [None, *variants]]
    return out


def pytest_sessionstart(session):
    config = session.config
    want = os.environ.get(WARM_ENV, "auto")
    if hasattr(config, "workerinput") or want == "0" or (want != "1" and not _whole_suite(config)):
        return
    from midgardc.compiler.parallel import build_many, default_jobs

    jobs = int(os.environ.get(WARM_JOBS_ENV) or default_jobs())
    targets = warm_targets()
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    say = reporter.write_line if reporter else print
    say(f"warming the engine cache: {len(targets)} engines, {jobs} at a time ({WARM_ENV}=0: skip)")

    def on_finish(outcome, k: int) -> None:
        if not outcome.cached:
            state = "ok" if outcome.ok else "failed (the tests that load it will say why)"
            say(f"  [{k}/{len(targets)}] {outcome.target.label}: {state}, {outcome.seconds:.0f}s")

    def on_generic(seconds, error) -> None:
        if seconds is not None:
            say(f"  the generic engine: {'ok' if error is None else 'failed (the tests that load an engine will say why)'}, {seconds:.0f}s")

    build_many(targets, jobs, on_finish=on_finish, on_generic=on_generic)


def pytest_report_header(config):
    return f"midgardc engine cache: {os.environ.get('MIDGARDC_CACHE', '(default)')}"
