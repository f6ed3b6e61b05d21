"""Builds you can trust: concurrent builds, a build killed half way, a corrupted cache
entry, and a machine without a C compiler or Cython.

Every test builds the small tests/safety/ply_limited.yaml engine in its own cache
($MIDGARDC_CACHE) and working directory, through the real `midgardc build`. A cache that
a test builds into starts with nothing but the generic engine module
(midgardc/engine/generic.pyx) copied from this session's cache, so the test builds only
the rules module whose safety it checks: the generic module cost 25-60 CPU seconds in each
cache, about 114 in all (issue 25, the suite's time budget). Building the generic module
from nothing, two processes at once, is tests/test_codegen.py's
test_builds_are_cached_verified_and_safe_when_concurrent; it goes through the same cache
code (build._cached_module) as a rules module.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SPEC = str(ROOT / "tests" / "safety" / "ply_limited.yaml")

pytestmark = pytest.mark.skipif(os.name == "nt", reason="POSIX signals and flock")


def _env(cache: Path, **extra: str) -> dict:
    env = dict(os.environ, MIDGARDC_CACHE=str(cache))
    env.pop("MIDGARDC_TRACEBACK", None)
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def generic() -> list[Path]:
    """The generic engine module and its recorded sha256, in this session's cache (built
    there first when missing: once, not once per test)."""
    from midgardc.compiler import build

    build.build_generic()
    so = build.cache_dir() / f"{build.generic_module_name()}{build._ext_suffix()}"
    return [so, Path(f"{so}.sha256")]


@pytest.fixture
def cache(tmp_path: Path, generic: list[Path]) -> Path:
    """An engine cache that holds the generic module only (no rules module, no lock)."""
    cache = tmp_path / "cache"
    cache.mkdir()
    for path in generic:
        shutil.copyfile(path, cache / path.name)
    return cache


def _generic_untouched(cache: Path, generic: list[Path]) -> None:
    """The builds used the seeded generic module: no other one was built beside it."""
    assert sorted(p.name for p in cache.glob("midgardc_generic_*") if p.suffix != ".lock") == sorted(p.name for p in generic)


def _cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "midgardc.cli", *args]


def _build(cache: Path, cwd: Path, *args: str, **extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(_cmd("build", SPEC, *args), cwd=cwd, env=_env(cache, **extra), capture_output=True, text=True, timeout=300)


def _modules(cache: Path) -> list[Path]:
    return sorted(p for p in cache.iterdir() if p.name.startswith("mgc_") and p.suffix in (".so", ".pyd"))


def _plays(cache: Path, cwd: Path) -> None:
    """A fresh process loads the cached engine and plays a game on it."""
    code = (
        "from midgardc.engines import load\n"
        f"g = load({SPEC!r}, engine='compiled')\n"
        "s = g.new_state(1)\n"
        "while not s.is_terminal():\n"
        "    s.apply_unchecked(s.legal_move_ids()[0])\n"
        "print(s.to_json()['winner'], s.to_json().get('ply_limited'))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=_env(cache), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["stopped", "True"]  # the ply limit stops it: no result


def test_two_builds_at_once_both_succeed_and_leave_one_module(tmp_path, cache, generic):
    procs = [subprocess.Popen(_cmd("build", SPEC), cwd=tmp_path, env=_env(cache), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [p.communicate(timeout=300) for p in procs]
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0, err
        assert "Traceback" not in err
    assert len(_modules(cache)) == 1
    assert not [p for p in cache.iterdir() if p.name.startswith(".build-")]
    _plays(cache, tmp_path)
    _generic_untouched(cache, generic)


def test_a_build_killed_half_way_leaves_nothing_to_trip_over(tmp_path, cache):
    proc = subprocess.Popen(_cmd("build", "--force", SPEC), cwd=tmp_path, env=_env(cache), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        # Wait until the compiler is at work: the scratch directory holds the C file.
        while time.monotonic() < deadline:
            if cache.is_dir() and any(cache.glob(".build-*/*.c")):
                break
            assert proc.poll() is None, "the build ended before it could be killed"
            time.sleep(0.02)
        else:
            pytest.fail("the build never started compiling")
        time.sleep(0.3)
        os.killpg(proc.pid, signal.SIGKILL)  # the build and its compiler children
    finally:
        proc.wait(timeout=60)
    assert not _modules(cache), "a killed build left a module in the cache"
    again = _build(cache, tmp_path)
    assert again.returncode == 0, again.stderr
    assert len(_modules(cache)) == 1
    _plays(cache, tmp_path)


@pytest.mark.parametrize("damage", ["truncate", "flip"])
def test_a_corrupted_cache_entry_is_detected_and_rebuilt(tmp_path, cache, damage):
    first = _build(cache, tmp_path)
    assert first.returncode == 0, first.stderr
    (so,) = _modules(cache)
    digest = Path(str(so) + ".sha256").read_text().split()[0]
    data = so.read_bytes()
    if damage == "truncate":
        so.write_bytes(data[: len(data) // 2])
    else:
        i = len(data) // 2
        so.write_bytes(data[:i] + bytes([data[i] ^ 0xFF]) + data[i + 1 :])
    _plays(cache, tmp_path)  # loading verifies the recorded hash and rebuilds
    import hashlib

    assert hashlib.sha256(so.read_bytes()).hexdigest() == digest  # the same module again


def test_a_missing_c_compiler_is_one_clear_message(tmp_path):
    cache = tmp_path / "cache"
    proc = _build(cache, tmp_path, "--force", CC="/nonexistent/gcc")
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert "no C compiler found" in proc.stderr and "/nonexistent/gcc" in proc.stderr
    assert "install" in proc.stderr
    assert not cache.exists() or not _modules(cache)


def test_missing_cython_is_one_clear_message(tmp_path):
    cache = tmp_path / "cache"
    code = "import sys; sys.modules['Cython'] = None\nfrom midgardc.cli import main\nsys.argv = ['midgardc', 'build', '--force', %r]\nmain()\n" % SPEC
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=_env(cache), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "Cython is not installed" in proc.stderr and "pip install" in proc.stderr


def _cli(cache: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(_cmd(*args), cwd=cwd, env=_env(cache), capture_output=True, text=True, timeout=300)


def test_building_a_copy_of_a_spec_never_overwrites_the_originals_source(tmp_path, cache):
    # A project (specs/ and its committed generated/), and a copy of its spec elsewhere
    # with the same game.name that a designer is editing.
    project = tmp_path / "project"
    (project / "specs").mkdir(parents=True)
    original = project / "specs" / "ply_limited.yaml"
    shutil.copy(SPEC, original)
    assert _cli(cache, project, "generate").returncode == 0
    committed = project / "generated" / "ply-limited.pyx"
    before = committed.read_bytes()
    edited = tmp_path / "edits" / "ply_limited.yaml"
    edited.parent.mkdir()
    edited.write_text(Path(SPEC).read_text().replace("max_plies: 3", "max_plies: 4"))

    proc = _cli(cache, project, "build", str(edited))
    assert proc.returncode == 0, proc.stderr
    assert committed.read_bytes() == before  # the committed source is untouched
    own = list((project / "generated" / "elsewhere").glob("ply-limited--*.pyx"))
    assert len(own) == 1 and str(own[0].relative_to(project)) in proc.stdout
    assert own[0].read_text() != before.decode()  # the copy's own engine source
    # the committed sources still check out, and building the original keeps its name
    assert _cli(cache, project, "generate", "--check").returncode == 0
    assert _cli(cache, project, "build", "specs/ply_limited.yaml").returncode == 0
    assert committed.read_bytes() == before

    # Another spec file under specs/ with the same game name is refused: one message, exit 1.
    (project / "specs" / "other.yaml").write_text(edited.read_text())
    proc = _cli(cache, project, "build", "specs/other.yaml")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "generated/ply-limited.pyx was generated from another spec file (ply_limited.yaml)" in proc.stderr
    assert committed.read_bytes() == before


def test_a_read_only_cache_that_holds_the_module_is_used(tmp_path, cache):
    # issue 28, item 11: the build took the module's lock (a file it creates) before
    # looking, so a read-only cache that holds the module failed with "building ... failed"
    assert _build(cache, tmp_path).returncode == 0
    for lock in cache.glob("*.lock"):  # root writes through permissions: a lock that cannot
        lock.unlink()  # be opened stands for a read-only mount as well
        lock.mkdir()
    cache.chmod(0o555)
    try:
        _plays(cache, tmp_path)
    finally:
        cache.chmod(0o755)


def test_namesakes_in_two_folders_never_share_a_generated_file(tmp_path):
    # issue 28, item 11: one game name and one file name in two folders wrote one
    # generated file, each over the other's (its SPEC line names only the file name)
    from midgardc.compiler import build
    from midgardc.errors import BuildError
    from midgardc.spec.lower import load_game_ir

    text = Path(SPEC).read_text()
    project = tmp_path / "project"
    for folder, plies in (("a", 3), ("b", 4)):
        (project / "specs" / folder).mkdir(parents=True)
        (project / "specs" / folder / "game.yaml").write_text(text.replace("max_plies: 3", f"max_plies: {plies}"))
    root = str(project / "generated")
    with pytest.raises(BuildError, match="have one file name and one game name"):
        build.write_generated(load_game_ir(str(project / "specs" / "a" / "game.yaml")), root)
    assert not (project / "generated").exists()

    # a designer's folder (no specs/): its own files keep the plain name, others are keyed
    designer = tmp_path / "designer"
    for folder in ("", "a", "b"):
        (designer / folder).mkdir(parents=True, exist_ok=True)
        (designer / folder / "game.yaml").write_text(text)
    root = str(designer / "generated")
    paths = [build.generated_path(load_game_ir(str(designer / folder / "game.yaml")), root) for folder in ("", "a", "b")]
    assert paths[0] == os.path.join(root, "ply-limited.pyx") and len(set(paths)) == 3
