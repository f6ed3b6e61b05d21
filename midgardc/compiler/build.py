"""Generated sources and compiled engines: ``generated/*.pyx`` and the module cache.

* ``generate_source(ir)``: the Cython text for a game (deterministic).
* ``generated_path`` / ``write_generated``: the committed copy under ``generated/`` for a
  spec under ``specs/``, written atomically and only when it changed; a spec file from
  anywhere else (a copy being edited, a mutated spec) gets its own file under
  ``generated/elsewhere/``, keyed by its path, so it never replaces a committed source.
* ``check_generated``: regenerate every spec and variant under ``specs/`` in memory and
  report stale, missing and extra files in ``generated/``.
* ``build_engine(ir)``: the compiled extension module, cached in ``$MIDGARDC_CACHE``
  (else ``$XDG_CACHE_HOME/midgardc``, else ``~/.cache/midgardc``) under a key computed
  from the IR, the generator's code and the build settings without rendering the source
  (``cachekey.py``), so opening a cached engine costs no template rendering; only a
  miss renders and compiles.

A build runs in a child process inside a scratch directory of the cache; only a finished
module is renamed into place (with its sha256 beside it), under a per-module lock. A
failed or interrupted build leaves the cache as it was; concurrent builds of the same
module both succeed (the second finds the first's result). Problems are ``BuildError``s
that say what to do, with the compiler's output when it has something to say.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, Optional

from ..codedigest import cache_dir  # (here too: callers know it as build.cache_dir)
from ..errors import BuildError, MidgardcError
from ..ir.nodes import GameIR
from .. import engine as engine_sources
from .cachekey import cache_key

#: C compiler flags. Portable on purpose: no -march=native (a cache may be shared, and CI
#: machines differ from users'). -g0 drops debug info from the large generated C file.
#: host_cflags() adds the few instruction-set flags this CPU has (recorded in the key).
CFLAGS = ("-O3", "-g0")
#: Set (to anything but "" or "0") to build without host_cflags(): modules for any x86-64.
PORTABLE_ENV = "MIDGARDC_PORTABLE"
MSVC_FLAGS = ("/O2",)
#: Cython directives (also written in each generated file's first line).
DIRECTIVES = {
    "language_level": 3,
    "boundscheck": False,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": False,
}
#: Bump when the way modules are built changes, so old cache entries are not reused.
BUILD_FORMAT = 2  # 2: the rules module and the generic engine (midgardc/engine), cython + cc called directly
DRIVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_buildext.py")
SPEC_SUFFIXES = (".yaml", ".yml")
STALE_SCRATCH_SECONDS = 6 * 3600


# --------------------------------------------------------------------------- generated sources


def generate_source(ir: GameIR) -> str:
    """The Cython source of ``ir``'s compiled engine. (The generator is imported here, not
    at the top: opening a cached engine needs neither it nor Jinja2.) Nothing here may
    change the text: this file is not in the cache key's generator digest (cachekey.py)."""
    from . import codegen

    return codegen.generate_module(ir)


def module_stem(ir: GameIR) -> str:
    """``<game>`` or ``<game>__<variant>`` (dashes in the variant become underscores), and
    ``__<N>p`` for a player count other than the spec's default."""
    stem = ir.name if not ir.variant else f"{ir.name}__{ir.variant.replace('-', '_')}"
    return stem if ir.n_players == ir.default_players else f"{stem}__{ir.n_players}p"


#: Where the sources of specs from outside the project's specs/ go, under ``generated/``
#: (not committed; ``generate --check`` looks only at the files directly in generated/).
ELSEWHERE = "elsewhere"


def _specs_dir(root: str) -> str:
    """The project's specs/ directory: the sibling of ``root`` (``generated``)."""
    return os.path.join(os.path.dirname(os.path.normpath(root)), "specs")


def _under(path: str, directory: str) -> bool:
    inside = os.path.realpath(directory)
    return os.path.realpath(path).startswith(inside + os.sep)


def generated_path(ir: GameIR, root: str = "generated", specs_dir: Optional[str] = None) -> str:
    """``<root>/<stem>.pyx`` for a spec under the project's specs/ (``specs_dir``, by
    default the sibling of ``root``), the committed name; also when there is no such
    directory (a designer's own folder). A spec file from anywhere else in a project (a
    copy being edited, a mutated spec) gets ``<root>/elsewhere/<stem>--<key>.pyx``, keyed
    by the spec file's absolute path, so it never replaces the source of the spec under
    specs/ that has the same game name."""
    stem = module_stem(ir)
    specs = _specs_dir(root) if specs_dir is None else specs_dir
    if not ir.source:
        return os.path.join(root, stem + ".pyx")
    if os.path.isdir(specs) and _under(ir.source, specs):
        _refuse_a_namesake(ir, specs, os.path.join(root, stem + ".pyx"))
        return os.path.join(root, stem + ".pyx")
    if not os.path.isdir(specs) and os.path.dirname(os.path.realpath(ir.source)) == os.path.realpath(os.path.dirname(os.path.normpath(root)) or "."):
        return os.path.join(root, stem + ".pyx")  # a designer's own folder: its spec files cannot share a name
    key = hashlib.sha256(os.path.realpath(ir.source).encode("utf-8")).hexdigest()[:12]
    return os.path.join(root, ELSEWHERE, f"{stem}--{key}.pyx")


def _refuse_a_namesake(ir: GameIR, specs: str, path: str) -> None:
    """Two spec files under specs/ with one file name (in different folders) and one game
    name would write one generated file, each over the other's (its SPEC line names only
    the file name, so the overwrite cannot be told from an edit): refused."""
    from ..spec.variants import load_tree

    base = os.path.basename(ir.source)
    mine = os.path.realpath(ir.source)
    for other in spec_files(specs):
        if os.path.basename(other) != base or os.path.realpath(other) == mine:
            continue
        try:
            game = load_tree(other).get("game")
            name = game.get("name") if game is not None and hasattr(game, "get") else None
        except MidgardcError:
            continue  # a broken namesake generates nothing
        if name is not None and getattr(name, "value", None) == ir.name:
            raise BuildError(f"{ir.source} and {other} have one file name and one game name ({ir.name}), so both would generate {path}", hint="give one of the games another game.name")


_SPEC_LINE = re.compile(r"^SPEC = (.*)$", re.M)


def _generated_from(text: str) -> Optional[str]:
    """The spec file name a generated source records (its ``SPEC = ...`` line)."""
    match = _SPEC_LINE.search(text)
    if not match:
        return None
    try:
        value = ast.literal_eval(match.group(1))
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, str) else None


def _write_atomic(path: str, text: str) -> None:
    directory = os.path.dirname(path) or "."
    os.makedirs(directory, exist_ok=True)
    try:
        mode = os.stat(path).st_mode & 0o777
    except OSError:
        umask = os.umask(0o022)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_generated(ir: GameIR, root: str = "generated", text: Optional[str] = None) -> str:
    """Write ``generated_path(ir)`` (atomically; untouched when unchanged), refusing to
    replace a file another spec file generated. Returns its path."""
    path = generated_path(ir, root)
    text = generate_source(ir) if text is None else text
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            have = fh.read()
    except OSError:
        have = None
    if have == text:
        return path
    if have is not None:
        # never replace the source another spec file generated (two specs under specs/
        # with one game name: the file would flip between them)
        theirs, ours = _generated_from(have), _generated_from(text)
        if theirs is not None and ours is not None and theirs != ours:
            raise BuildError(
                f"{path} was generated from another spec file ({theirs}); {ir.source} would overwrite it",
                hint="give one of the games another game.name",
            )
    try:
        _write_atomic(path, text)
    except OSError as exc:
        raise BuildError(f"cannot write {path}: {exc.strerror or exc}") from None
    return path


def spec_files(specs_dir: str = "specs") -> list[str]:
    """Every spec file under ``specs_dir`` (subfolders included), sorted."""
    out = []
    for dirpath, dirnames, filenames in os.walk(specs_dir):
        dirnames.sort()
        for f in sorted(filenames):
            if f.endswith(SPEC_SUFFIXES) and not f.startswith("."):
                out.append(os.path.join(dirpath, f))
    return sorted(out)


def spec_irs(specs_dir: str = "specs") -> Iterator[GameIR]:
    """The IR of every spec under ``specs_dir``, of each of its variants and player counts."""
    from ..spec.lower import list_player_counts, list_variants, load_game_ir

    for path in spec_files(specs_dir):
        for variant in [None, *list_variants(path)]:
            default = load_game_ir(path, variant)
            yield default
            for n in list_player_counts(path, variant):
                if n != default.n_players:
                    yield load_game_ir(path, variant, n)


def expected_generated(specs_dir: str = "specs", root: str = "generated") -> dict[str, str]:
    """path -> text of every file ``generated/`` should hold for the specs."""
    out: dict[str, str] = {}
    owners: dict[str, str] = {}
    for ir in spec_irs(specs_dir):
        path = generated_path(ir, root, specs_dir)
        who = f"{ir.source}" + (f" (variant {ir.variant})" if ir.variant else "") + (f" ({ir.n_players} players)" if ir.player_counts else "")
        if path in out:
            raise BuildError(f"{who} and {owners[path]} would both generate {path}; give one of the games another name")
        out[path] = generate_source(ir)
        owners[path] = who
    return out


@dataclass
class GeneratedCheck:
    """What differs between ``generated/`` and what the specs generate."""

    stale: list[str] = field(default_factory=list)  # present but different
    missing: list[str] = field(default_factory=list)  # should be there, is not
    extra: list[str] = field(default_factory=list)  # there, but no spec generates it

    @property
    def ok(self) -> bool:
        return not (self.stale or self.missing or self.extra)

    def __bool__(self) -> bool:  # truthy when something is wrong
        return not self.ok

    def __str__(self) -> str:
        if self.ok:
            return "generated/ is up to date"
        lines = []
        for label, paths in (("stale", self.stale), ("missing", self.missing), ("extra", self.extra)):
            lines += [f"{label}: {p}" for p in paths]
        lines.append("run `midgardc build` on the specs to regenerate")
        return "\n".join(lines)


def check_generated(specs_dir: str = "specs", root: str = "generated") -> GeneratedCheck:
    """Regenerate every spec and variant under ``specs_dir`` in memory and compare with
    the ``.pyx`` files in ``root`` (nothing is written)."""
    expected = expected_generated(specs_dir, root)
    report = GeneratedCheck()
    for path, text in sorted(expected.items()):
        try:
            with open(path, encoding="utf-8", newline="") as fh:
                if fh.read() != text:
                    report.stale.append(path)
        except FileNotFoundError:
            report.missing.append(path)
    present = sorted(os.path.join(root, f) for f in os.listdir(root) if f.endswith(".pyx")) if os.path.isdir(root) else []
    report.extra = [p for p in present if p not in expected]
    return report


def write_all_generated(specs_dir: str = "specs", root: str = "generated") -> list[str]:
    """Write the generated file of every spec and variant; returns their paths."""
    paths = []
    for path, text in sorted(expected_generated(specs_dir, root).items()):
        try:
            with open(path, encoding="utf-8", newline="") as fh:
                if fh.read() == text:
                    paths.append(path)
                    continue
        except OSError:
            pass
        _write_atomic(path, text)
        paths.append(path)
    return paths


# --------------------------------------------------------------------------- the module cache


def _cython_version() -> str:
    try:
        import Cython
    except ImportError:
        raise BuildError("Cython is not installed; the compiled engine needs it", hint="install midgardc's dependencies: pip install 'cython>=3.0'") from None
    return Cython.__version__


def _ext_suffix() -> str:
    return sysconfig.get_config_var("EXT_SUFFIX") or importlib.machinery.EXTENSION_SUFFIXES[0]


@functools.lru_cache(maxsize=1)
def _cpu_info() -> dict[str, str]:
    """The first processor's fields of /proc/cpuinfo ({} where there is none); read once
    per process (build_key() asks for every engine it names)."""
    out: dict[str, str] = {}
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if not line.strip():
                    break
                key, _, value = line.partition(":")
                out[key.strip()] = value.strip()
    except OSError:
        return {}
    return out


def _fast_pdep(info: dict[str, str]) -> bool:
    """pdep is one fast instruction on Intel and on AMD from Zen 3 (family 25) on; AMD's
    earlier cores with BMI2 run it as slow microcode, so the byte search stays there."""
    vendor = info.get("vendor_id", "")
    if vendor == "GenuineIntel":
        return True
    if vendor in ("AuthenticAMD", "HygonGenuine"):
        with contextlib.suppress(ValueError):
            return int(info.get("cpu family", "0")) >= 25
    return False


def _compiler_takes(flags: tuple[str, ...]) -> bool:
    """Whether the C compiler ($CC, else Python's) accepts ``flags``."""
    return _cc_takes(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc", flags)


@functools.lru_cache(maxsize=None)
def _cc_takes(cc: str, flags: tuple[str, ...]) -> bool:
    """Whether compiler command ``cc`` accepts ``flags`` (preprocessing an empty file;
    asked once per process and compiler)."""
    try:
        proc = subprocess.run([*cc.split(), *flags, "-E", "-x", "c", "-"], input="", capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return False
    return proc.returncode == 0


def host_cflags() -> tuple[str, ...]:
    """Instruction-set flags for this machine, added to CFLAGS (and to the build key, so a
    shared cache keeps one module per flag set): on x86-64 Linux, -mpopcnt when the CPU
    has popcnt (set_count, nth_cell: one instruction instead of a call or a SWAR count),
    and -mbmi -mbmi2 when it has BMI2 with a fast pdep (the k-th cell of a set in one
    instruction); each only when the C compiler takes it. None where the CPU cannot be
    read, on other machines, or with $MIDGARDC_PORTABLE set. The flags change speed only:
    every way computes the same values."""
    if os.environ.get(PORTABLE_ENV, "") not in ("", "0") or os.name == "nt":
        return ()
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return ()
    info = _cpu_info()
    have = set(info.get("flags", "").split())
    flags: tuple[str, ...] = ()
    if "popcnt" in have and _compiler_takes(("-mpopcnt",)):
        flags += ("-mpopcnt",)
    if {"bmi1", "bmi2"} <= have and _fast_pdep(info) and _compiler_takes(("-mbmi", "-mbmi2")):
        flags += ("-mbmi", "-mbmi2")
    return flags


def build_settings() -> str:
    """How modules are compiled here, as text for the cache key: Cython and Python
    versions, the C flags, the directives and BUILD_FORMAT."""
    return "\0".join(
        (
            f"cython {_cython_version()}",
            f"python {sys.version} {sys.implementation.cache_tag} {_ext_suffix()} {platform.machine()}",
            f"cflags {' '.join(CFLAGS + host_cflags())} msvc {' '.join(MSVC_FLAGS)}",
            f"directives {json.dumps(DIRECTIVES, sort_keys=True)}",
            f"format {BUILD_FORMAT}",
        )
    )


def build_key(ir: GameIR, tag: str = "") -> str:
    """sha256 of everything that determines ``ir``'s compiled module, found without
    rendering its source (``cachekey``: the IR, the generator's code, build_settings()).
    ``tag`` names a change made to the generator at run time (a test forcing another
    code path by setting a constant), which its files cannot show: such a module gets a
    key of its own instead of the one the unchanged generator's module has."""
    return cache_key(ir, build_settings() + (f"\0tag {tag}" if tag else ""))


def module_name(ir: GameIR, tag: str = "") -> str:
    """``mgc_<game>_<hash16>``: an importable name that changes with the content."""
    game = "".join(ch if ch.isalnum() else "_" for ch in ir.name)
    return f"mgc_{game}_{build_key(ir, tag)[:16]}"


def _sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _cache_valid(so: Path, digest: Path) -> bool:
    try:
        recorded = digest.read_text(encoding="ascii").split()[0]
        return so.is_file() and _sha256_file(so) == recorded
    except (OSError, IndexError, UnicodeDecodeError):
        return False


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """An exclusive lock on ``path`` (POSIX flock; elsewhere builds just race safely)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    with open(path, "a+b") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def _find_compiler() -> str:
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or ("cl" if os.name == "nt" else "cc")
    exe = cc.split()[0]
    if os.name == "nt" or shutil.which(exe):
        return exe
    raise BuildError(
        f"no C compiler found (looked for '{exe}'); the compiled engine needs one",
        hint="install a C compiler: 'sudo apt install build-essential' (Debian/Ubuntu), "
        "'sudo dnf install gcc' (Fedora), 'xcode-select --install' (macOS); or set CC; "
        "or use --engine interpreted",
    )


def _check_headers() -> None:
    include = sysconfig.get_paths().get("include") or ""
    if include and not os.path.exists(os.path.join(include, "Python.h")):
        ver = f"{sys.version_info.major}.{sys.version_info.minor}"
        raise BuildError(
            f"the Python development headers are missing (no Python.h in {include})",
            hint=f"install them: 'sudo apt install python{ver}-dev' (Debian/Ubuntu) or 'sudo dnf install python3-devel' (Fedora)",
        )


def _clean_scratch(cache: Path) -> None:
    """Remove scratch directories that interrupted builds left behind long ago."""
    now = time.time()
    with contextlib.suppress(OSError):
        for entry in cache.iterdir():
            if entry.name.startswith(".build-") and entry.is_dir():
                with contextlib.suppress(OSError):
                    if now - entry.stat().st_mtime > STALE_SCRATCH_SECONDS:
                        shutil.rmtree(entry, ignore_errors=True)


def _tail(text: str, lines: int = 60) -> str:
    out = text.strip().splitlines()
    if len(out) > lines:
        out = [f"... ({len(out) - lines} earlier lines)"] + out[-lines:]
    return "\n".join("    " + line for line in out)


def _compile(text: str, name: str, cache: Path, so: Path, digest: Path, what: str) -> None:
    _find_compiler()
    _check_headers()
    _cython_version()
    scratch = Path(tempfile.mkdtemp(prefix=f".build-{name}-", dir=cache))
    try:
        (scratch / f"{name}.pyx").write_text(text, encoding="utf-8")
        options = {"cflags": list(CFLAGS + host_cflags()), "msvc_flags": list(MSVC_FLAGS), "directives": DIRECTIVES}
        try:
            proc = subprocess.run(
                [sys.executable, DRIVER, str(scratch), name, json.dumps(options)],
                cwd=scratch,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                errors="replace",
            )
        except OSError as exc:
            raise BuildError(f"could not start the build of {what}: {exc}") from None
        built = scratch / f"{name}{_ext_suffix()}"
        if proc.returncode != 0 or not built.is_file():
            raise BuildError(f"compiling the engine for {what} failed:\n{_tail(proc.stdout)}", hint="this is a bug in midgardc if a C compiler is installed and working; please report it with the output above")
        sha = _sha256_file(built)
        tmp_digest = scratch / "digest"
        tmp_digest.write_text(f"{sha}  {so.name}\n", encoding="ascii")
        os.replace(built, so)  # atomic on one filesystem: the scratch dir is in the cache
        os.replace(tmp_digest, digest)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _load(name: str, path: Path):
    loaded = sys.modules.get(name)
    if loaded is not None:
        return loaded
    loader = importlib.machinery.ExtensionFileLoader(name, str(path))
    spec = importlib.util.spec_from_file_location(name, str(path), loader=loader)
    if spec is None:  # pragma: no cover
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    sys.modules[name] = module
    return module


def _cached_module(source: Callable[[], str], name: str, what: str, force: bool):
    """The extension module ``name``: loaded, else built into the cache (under its lock)
    from ``source()`` (called only on a miss: rendering a game's source takes seconds)
    and loaded."""
    if not force and name in sys.modules:
        return sys.modules[name]
    cache = cache_dir()
    try:
        cache.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BuildError(f"cannot create the engine cache {cache}: {exc.strerror or exc}", hint="set MIDGARDC_CACHE to a writable directory") from None
    so = cache / f"{name}{_ext_suffix()}"
    digest = cache / f"{name}{_ext_suffix()}.sha256"
    try:
        open(cache / f"{name}.lock", "a+b").close()
    except OSError as exc:  # a read-only cache (shared, or on a read-only mount): usable if it holds the module
        if force or not _cache_valid(so, digest):
            raise BuildError(f"cannot write to the engine cache {cache}: {exc.strerror or exc}", hint="set MIDGARDC_CACHE to a writable directory") from None
        return _load(name, so)
    _clean_scratch(cache)
    with _locked(cache / f"{name}.lock"):
        if force or not _cache_valid(so, digest):
            _compile(source(), name, cache, so, digest, what)
    try:
        return _load(name, so)
    except ImportError:
        # A cached module that verifies but does not load: rebuild it once.
        with _locked(cache / f"{name}.lock"):
            _compile(source(), name, cache, so, digest, what)
        try:
            return _load(name, so)
        except ImportError as exc:
            raise BuildError(f"the compiled engine for {what} does not load: {exc}") from None


def generic_module_name(text: Optional[str] = None) -> str:
    """``midgardc_generic_<hash16>``: the generic engine's importable name, which changes
    with its source (midgardc/engine/generic.pyx with the table's text, vtable.pxi, in
    it) and with build_settings() (flags, Cython and Python versions, BUILD_FORMAT)."""
    text = engine_sources.generic_source() if text is None else text
    h = hashlib.sha256()
    for part in (text, build_settings()):
        h.update(part.encode("utf-8"))
        h.update(b"\0")
    return f"midgardc_generic_{h.hexdigest()[:16]}"


def build_generic(force: bool = False):
    """The generic engine module (midgardc/engine/generic.pyx): compiled once per
    midgardc version and shared by every game's rules module."""
    try:
        text = engine_sources.generic_source()
        return _cached_module(lambda: text, generic_module_name(text), "the generic engine (once, for every game)", force)
    except MidgardcError:
        raise
    except OSError as exc:
        raise BuildError(f"building the generic engine failed: {exc}") from None


def _in_cache(name: str) -> bool:
    so = cache_dir() / f"{name}{_ext_suffix()}"
    return _cache_valid(so, Path(f"{so}.sha256"))


def generic_cached() -> bool:
    """Whether the cache holds the generic engine, whole."""
    return _in_cache(generic_module_name())


def rules_cached(ir: GameIR) -> bool:
    """Whether the cache holds ``ir``'s rules module, whole."""
    return _in_cache(module_name(ir))


def is_cached(ir: GameIR) -> bool:
    """Whether the cache holds ``ir``'s rules module and the generic engine, whole (so
    build_engine() will only load them)."""
    return rules_cached(ir) and generic_cached()


def _what(ir: GameIR) -> str:
    return f"{ir.name}" + (f" (variant {ir.variant})" if ir.variant else "")


def build_rules(ir: GameIR, force: bool = False, text: Optional[str] = None, tag: str = ""):
    """``ir``'s rules module alone (built on a miss, cached, loaded), without the generic
    engine: its build needs nothing of the generic module, so ``parallel.build_many`` runs
    rules builds beside the generic module's instead of after it. ``text``, ``tag``: as
    for build_engine."""
    try:
        return _cached_module(lambda: generate_source(ir) if text is None else text, module_name(ir, tag), _what(ir), force)
    except MidgardcError:
        raise
    except OSError as exc:
        raise BuildError(f"building the engine for {_what(ir)} failed: {exc}") from None


#: rules module name -> its Engine (the generic module's view of it)
_ENGINES: dict[str, object] = {}


def build_engine(ir: GameIR, force: bool = False, text: Optional[str] = None, tag: str = ""):
    """The compiled engine for ``ir``: its rules module (built on first use and cached
    under a key computed from the IR, cachekey.py) behind the generic engine's
    ``Engine``, which has the protocol a whole generated module had (Core, playouts,
    rollouts, perft, playout_trace, write_tensor, Batch, mcts_search, mcts_search_set;
    INFO, GAME... from the rules module). ``text``: the rules module's source when the
    caller has rendered it already (else rendered on a miss); ``tag``: a run-time change
    to the generator (``build_key``), which gets a rules module of its own."""
    what = _what(ir)
    try:
        name = module_name(ir, tag)
        if not force and name in _ENGINES:
            return _ENGINES[name]
        rules = build_rules(ir, force, text, tag)
        generic = build_generic()
        engine = generic.Engine(rules)
        _ENGINES[name] = engine
        return engine
    except MidgardcError:
        raise
    except OSError as exc:
        raise BuildError(f"building the engine for {what} failed: {exc}") from None
