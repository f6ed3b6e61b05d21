"""Digests of midgardc's own code, and where midgardc keeps what it computes.

A cached result (a compiled engine, a spec's IR) is reused only while the code that made
it is unchanged, so each cache key holds a digest of that code: the files of some of the
package's directories and every midgardc module they import, transitively (read from
their import lines, lazy imports included, so nothing is imported to find them), with the
data files beside each (templates, the condition grammar). This module sits on the lowest
floor so the front end and the compiler can both key their caches with it.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
from pathlib import Path
from typing import Callable, Optional

#: midgardc's package directory.
PACKAGE = os.path.dirname(os.path.abspath(__file__))
#: Files that are code, in the directories walked.
CODE_SUFFIXES = (".py", ".j2")
#: Data files a module reads beside it (templates, the condition grammar, the rules'
#: table copied into every generated source: midgardc/engine/vtable.pxi): part of its code.
DATA_SUFFIXES = (".j2", ".lark", ".pxi")


def cache_dir() -> Path:
    """Where compiled engines (and cached IRs) live: $MIDGARDC_CACHE,
    $XDG_CACHE_HOME/midgardc or ~/.cache/midgardc."""
    env = os.environ.get("MIDGARDC_CACHE")
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        return Path(xdg).expanduser() / "midgardc"
    return Path.home() / ".cache" / "midgardc"


_IMPORT = re.compile(r"^[ \t]*from[ \t]+(\.+)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]*)|^[ \t]*(?:import|from)[ \t]+midgardc\.([\w.]+)", re.M)


def _module_file(parts: list[str]) -> Optional[str]:
    """The file of module ``midgardc.<parts>`` (a package's ``__init__.py``), if any."""
    base = os.path.join(PACKAGE, *parts)
    for candidate in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.isfile(candidate):
            return candidate
    return None


def _imports(path: str) -> list[str]:
    """The midgardc files ``path`` imports (relative or absolute, anywhere in the file)."""
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    package = os.path.relpath(os.path.dirname(path), PACKAGE).split(os.sep)
    package = [] if package == ["."] else package
    found = []
    for match in _IMPORT.finditer(text):
        dots, name, names, absolute = match.groups()
        if absolute is not None:
            parts = absolute.split(".")
        else:
            up = len(dots) - 1
            if up > len(package):
                continue
            parts = package[: len(package) - up] + ([p for p in name.split(".")] if name else [])
        target = _module_file(parts)
        if target:
            found.append(target)
        if names and absolute is None:  # ``from . import codegen``: the names may be modules
            for item in re.split(r"[\s,()]+", names):
                item = item.split(" as ")[0].strip()
                sub = _module_file(parts + [item]) if item.isidentifier() else None
                if sub:
                    found.append(sub)
    return found


def code_files(directories: tuple[str, ...], skip: Callable[[str], bool] = lambda name: False) -> list[str]:
    """The files (``CODE_SUFFIXES``) of the package's ``directories`` and the midgardc
    modules they import, transitively, with the data files (``DATA_SUFFIXES``) beside
    each, sorted; ``skip(name)`` (a name relative to the package, with ``/``) leaves a
    file out, and what only it imports."""
    todo = []
    for directory in directories:
        for dirpath, dirnames, filenames in os.walk(os.path.join(PACKAGE, directory)):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            todo += [os.path.join(dirpath, f) for f in filenames if f.endswith(CODE_SUFFIXES)]
    seen: set[str] = set()
    while todo:
        path = todo.pop()
        if path in seen or skip(os.path.relpath(path, PACKAGE).replace(os.sep, "/")):
            continue
        seen.add(path)
        if path.endswith(".py"):
            todo += _imports(path)
            todo += _data_beside(os.path.dirname(path))
    return sorted(seen)


@functools.lru_cache(maxsize=None)
def _data_beside(directory: str) -> list[str]:
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return []
    return [os.path.join(directory, n) for n in names if n.endswith(DATA_SUFFIXES)]


def code_digest(files: list[str]) -> str:
    """sha256 over ``files`` (names relative to the package, and contents)."""
    h = hashlib.sha256()
    for path in files:
        h.update(os.path.relpath(path, PACKAGE).replace(os.sep, "/").encode("utf-8") + b"\0")
        with open(path, "rb") as fh:
            h.update(hashlib.sha256(fh.read()).digest())
    return h.hexdigest()
