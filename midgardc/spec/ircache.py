"""The IR of a spec, cached: a new process opens a game without the YAML parser, the
condition grammar or the lowering.

Loading a spec (YAML with positions, the Lark condition grammar, checking and lowering)
costs a new process most of a second, more than opening its cached compiled engine. The
IR is a pure function of the spec's files (the spec and those it ``extends:``), the
variant, the player count and the front end's code; ``load_ir`` keys a pickled IR by
those, in the engine cache's directory (``ir/``):

* the key: the path as given (the IR records it, for messages), the current directory
  when that path is relative, the variant and count, the front end's digest (every
  ``.py`` file of ``midgardc/spec`` but this one, and the midgardc modules they import,
  the IR's classes included), ``FORMAT`` and the Python version;
* the entry: the spec files read with their sha256, then the pickled IR. A hit reads and
  hashes those files again, so an edit to any of them (or to a file it extends) is a miss.

Only a spec that loads is cached: an error always comes from the front end itself, with
its position. A damaged or unreadable entry is a miss; entries are written atomically.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import pickle
import sys
import tempfile
from pathlib import Path
from typing import Optional

from ..codedigest import cache_dir, code_digest, code_files
from ..ir.nodes import GameIR

#: Bump when the entries' layout changes.
FORMAT = 1
#: Entries kept; past that the least recently used go (specs in scratch directories, as
#: tests write them, would otherwise pile up).
MAX_ENTRIES = 400


@functools.lru_cache(maxsize=1)
def front_end_digest() -> str:
    """sha256 over the front end's code (midgardc/spec and what it imports); once a process."""
    return code_digest(code_files(("spec",), lambda name: name == "spec/ircache.py"))


def _key(path: str, variant: Optional[str], n_players: Optional[int]) -> str:
    where = "" if os.path.isabs(path) else os.getcwd()
    text = "\0".join((f"format {FORMAT}", path, where, repr(variant), repr(n_players), front_end_digest(), sys.version))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _entry(path: str, variant: Optional[str], n_players: Optional[int]) -> Path:
    return cache_dir() / "ir" / f"{_key(path, variant, n_players)}.pickle"


def _sha256(path: str) -> Optional[str]:
    try:
        with open(path, "rb") as fh:
            return hashlib.sha256(fh.read()).hexdigest()
    except OSError:
        return None


def spec_files_read(path: str) -> list[str]:
    """The spec file and every file it extends (real paths)."""
    from .variants import load_tree

    seen: set[str] = set()
    load_tree(path, seen)
    return sorted(seen)


def cached_ir(path: str, variant: Optional[str] = None, n_players: Optional[int] = None) -> Optional[GameIR]:
    """The cached IR, when there is one and every spec file it came from is unchanged."""
    try:
        entry = _entry(path, variant, n_players)
        with open(entry, "rb") as fh:
            files = pickle.load(fh)
            if not isinstance(files, list) or any(_sha256(f) != digest for f, digest in files):
                return None
            ir = pickle.load(fh)
        with contextlib.suppress(OSError):
            os.utime(entry)  # recently used: kept by _prune
    except Exception:  # absent, damaged, from another version: a miss, never an error
        return None
    return ir if isinstance(ir, GameIR) else None


def _prune(directory: Path) -> None:
    """Remove the least recently used entries past MAX_ENTRIES."""
    entries = []
    for item in directory.iterdir():
        if item.suffix == ".pickle":
            with contextlib.suppress(OSError):
                entries.append((item.stat().st_mtime, item))
    for _, item in sorted(entries)[: max(0, len(entries) - MAX_ENTRIES)]:
        with contextlib.suppress(OSError):
            item.unlink()


def store_ir(ir: GameIR, path: str, variant: Optional[str] = None, n_players: Optional[int] = None) -> None:
    """Cache ``ir`` (loaded from ``path``); silently nothing when the cache is not writable."""
    try:
        files = [(f, _sha256(f)) for f in spec_files_read(path)]
        if not files or any(digest is None for _, digest in files):
            return
        entry = _entry(path, variant, n_players)
        entry.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".ir-", suffix=".tmp", dir=entry.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                pickle.dump(files, fh, protocol=pickle.HIGHEST_PROTOCOL)
                pickle.dump(ir, fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, entry)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        _prune(entry.parent)
    except Exception:  # a cache is an optimisation: a failure to write one is not the user's problem
        return


def load_ir(path: str, variant: Optional[str] = None, n_players: Optional[int] = None) -> GameIR:
    """``load_game_ir(path, variant, n_players)``, from the cache when it holds it."""
    ir = cached_ir(path, variant, n_players)
    if ir is not None:
        return ir
    from .lower import load_game_ir

    ir = load_game_ir(path, variant, n_players)
    store_ir(ir, path, variant, n_players)
    return ir
