"""The compiled engine's cache key, computed without rendering its source.

Rendering a game's Cython source through the templates takes seconds (more on a loaded
machine); a process that only wants to open an engine already in the cache should not pay
that. The source is a deterministic function of three things, so the key hashes those
instead of the text:

* the IR: a canonical serialisation (``ir_text``) of the frozen dataclasses, tuples and
  plain values it is made of. Two fields the generator does not read are left out, so
  that the same spec shares one module wherever it lives: where the spec said something
  (``midgardc.errors.Pos`` values, for messages) and the spec file's directory (the
  generated source names only the file, ``GameIR.source``'s basename);
* the code that turns IR into source (``generator_digest``): every ``.py`` file of
  ``midgardc/compiler`` (but the cache and build scheduling) and ``midgardc/ir``, every
  template, and every midgardc module
  those import (found by reading their import lines, lazy imports included: the
  generator asks the interpreter for constant masks, so the interpreter is in), so an
  edit to any of them gives new keys;
* how the module is compiled: Cython and Python versions, the C flags, the directives and
  ``BUILD_FORMAT`` (``build.build_settings``).

A value of a type the serialisation does not know (a set of objects, a function, an
object whose text would name its address) is a ``TypeError``: a key that changed from
process to process would rebuild every time, and one that ignored a part could load a
stale engine.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import os
from typing import Any, Callable

from .. import codedigest
from ..errors import Pos
from ..ir.nodes import GameIR

#: Directories of the package whose every file is part of the generator.
GENERATOR_DIRS = ("compiler", "ir")
#: Files of those directories that are not the generator: the cache, its key and the scheduling of
#: builds (how a module is compiled is in the key as build.build_settings(); a change to
#: it bumps build.BUILD_FORMAT), so editing them does not rebuild every engine.
BUILD_MACHINERY = ("compiler/build.py", "compiler/parallel.py", "compiler/cachekey.py")
#: Packages never part of the generator: the front end makes the IR (which is in the key
#: itself) and the generator never calls it; lazy imports of runtime/game.py reach it.
FRONT_END = ("spec/",)

_FIELDS: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def _source_name(value: Any) -> Any:
    """``GameIR.source`` as the generator reads it: the file name only."""
    return os.path.basename(value) if isinstance(value, str) and value else value


#: (class, field) -> how the field's value is reduced to what the generator reads.
_FIELD_VIEWS: dict[tuple[type, str], Callable[[Any], Any]] = {
    (GameIR, "source"): _source_name,
}


def _serialise(obj: Any, out: list[str]) -> None:
    if obj is None or obj is True or obj is False:
        out.append(repr(obj))
    elif type(obj) in (int, str, float, bytes):
        out.append(f"{type(obj).__name__}:{obj!r}")
    elif isinstance(obj, Pos):
        out.append("pos")  # where the spec said it: messages only, never the source
    elif isinstance(obj, enum.Enum):
        out.append(f"{type(obj).__qualname__}.{obj.name}")
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        cls = type(obj)
        out.append(f"{cls.__module__}.{cls.__qualname__}(")
        for name in _field_names(cls):
            value = getattr(obj, name)
            view = _FIELD_VIEWS.get((cls, name))
            out.append(name + "=")
            _serialise(view(value) if view else value, out)
            out.append(",")
        out.append(")")
    elif type(obj) in (tuple, list):
        out.append("(" if type(obj) is tuple else "[")
        for item in obj:
            _serialise(item, out)
            out.append(",")
        out.append(")" if type(obj) is tuple else "]")
    elif type(obj) is dict:
        items = []
        for key, value in obj.items():
            k: list[str] = []
            v: list[str] = []
            _serialise(key, k)
            _serialise(value, v)
            items.append(("".join(k), "".join(v)))
        out.append("{" + ",".join(f"{k}:{v}" for k, v in sorted(items)) + "}")
    elif type(obj) in (set, frozenset):
        parts = []
        for item in obj:
            p: list[str] = []
            _serialise(item, p)
            parts.append("".join(p))
        out.append("set{" + ",".join(sorted(parts)) + "}")
    else:
        raise TypeError(f"cannot key an IR holding a {type(obj).__qualname__} ({obj!r:.60})")


def ir_text(ir: GameIR) -> str:
    """A canonical text of ``ir``: equal for IRs the generator turns into equal sources,
    the same in every process (no addresses, no set or hash order)."""
    out: list[str] = []
    _serialise(ir, out)
    return "".join(out)


def _not_generator(name: str) -> bool:
    return name.startswith(FRONT_END) or name in BUILD_MACHINERY


def generator_files() -> list[str]:
    """Every file whose content can change a generated source, sorted: the files of
    ``GENERATOR_DIRS`` and the midgardc modules they import, transitively."""
    return codedigest.code_files(GENERATOR_DIRS, _not_generator)


@functools.lru_cache(maxsize=1)
def generator_digest() -> str:
    """sha256 over the generator's files; read once per process."""
    return codedigest.code_digest(generator_files())


def cache_key(ir: GameIR, settings: str) -> str:
    """sha256 of everything that determines ``ir``'s compiled module: the IR, the
    generator's code and ``settings`` (how it is compiled, ``build.build_settings()``)."""
    h = hashlib.sha256()
    for part in (ir_text(ir), f"generator {generator_digest()}", settings):
        h.update(part.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()
