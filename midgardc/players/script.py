"""A player written by the user as a Python file defining ``choose(observation, legal_moves, rng)``.

The script sees what its seat sees and nothing more: ``observation`` is the seat's
observation (a fresh dict of plain JSON values, as ``midgardc replay --json --as`` prints
it; places it may not see show only their size), ``legal_moves`` its legal moves (``Move``
objects: ``.id`` and ``.text``) and ``rng`` its own ``Rng``. It returns one of the moves or
its text. It never receives the game state.

The file is user code the user asked to run, so it is imported as is. Everything that
can go wrong with it (no file, no ``choose``, an exception, an answer that is not a legal
move) becomes a ``MidgardcError`` that names the file, and the line when there is one,
rather than a traceback from inside midgardc.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
import traceback
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable, Optional

from ..errors import MidgardcError, Pos
from .view import as_view

if TYPE_CHECKING:  # pragma: no cover
    from ..runtime.game import Move
    from ..runtime.rng import Rng
    from .view import PlayerView

_LOADED: dict[str, ModuleType] = {}  # absolute path -> module, so each process imports once


def load_script(path: str) -> Callable[..., Any]:
    """The ``choose`` function of the script at ``path``."""
    real = os.path.abspath(path)
    module = _LOADED.get(real)
    if module is None:
        module = _import(path, real)
        _LOADED[real] = module
    choose = getattr(module, "choose", None)
    if choose is None:
        raise MidgardcError(f"player script {path} defines no choose(observation, legal_moves, rng) function")
    if not callable(choose):
        raise MidgardcError(f"player script {path}: 'choose' is not a function")
    return choose


def _import(path: str, real: str) -> ModuleType:
    if not os.path.exists(real):
        raise MidgardcError(f"player script {path} does not exist")
    if not os.path.isfile(real):
        raise MidgardcError(f"player script {path} is not a file")
    name = "midgardc_player_" + hashlib.sha256(real.encode()).hexdigest()[:16]
    spec = importlib.util.spec_from_file_location(name, real)
    if spec is None or spec.loader is None:
        raise MidgardcError(f"player script {path} cannot be loaded as Python (is it a .py file?)")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # lets dataclasses and pickling inside the script work
    try:
        spec.loader.exec_module(module)
    except SyntaxError as exc:
        sys.modules.pop(name, None)
        pos = Pos(path, exc.lineno, exc.offset or 1) if exc.lineno else None
        raise MidgardcError(f"player script {path} is not valid Python: {exc.msg}", pos, source=_source(path)) from None
    except Exception as exc:
        sys.modules.pop(name, None)
        raise _script_failure(path, real, "while loading", exc) from None
    return module


def _script_failure(path: str, real: str, when: str, exc: BaseException) -> MidgardcError:
    """The error for an exception raised by the script, pointing at its deepest line in it."""
    pos: Optional[Pos] = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename and os.path.abspath(frame.filename) == real and frame.lineno:
            pos = Pos(path, frame.lineno, (getattr(frame, "colno", None) or 0) + 1)
    text = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    return MidgardcError(f"player script {path} raised {text} {when}", pos, source=_source(path) if pos else None)


def _source(path: str) -> str:
    """The script's text, to quote its line (code the user named to be run); read through
    the one bounded reader."""
    from ..fileio import read_input

    try:
        return read_input(path, "the player script", 4_000_000).decode("utf-8", errors="replace")
    except MidgardcError:
        return ""


class ScriptPlayer:
    """Hands the script its seat's observation (a copy: a careless script cannot change
    anything) and legal moves."""

    def __init__(self, path: str, name: Optional[str] = None):
        self.path = path
        self.real = os.path.abspath(path)
        self.name = name or f"script:{path}"
        self._choose = load_script(path)

    def choose(self, view: "PlayerView", rng: "Rng") -> int:
        view = as_view(view)
        legal = view.legal_moves()
        observation = json.loads(json.dumps(view.observation))  # plain JSON values, a copy
        try:
            answer = self._choose(observation, list(legal), rng)
        except Exception as exc:
            raise _script_failure(self.path, self.real, f"in choose() at move {view.ply() + 1}", exc) from None
        return self._resolve(answer, legal)

    def _resolve(self, answer: object, legal: "list[Move]") -> int:
        from ..runtime.game import Move

        if isinstance(answer, Move):
            if answer in legal:
                return answer.id
        elif isinstance(answer, str):
            for move in legal:
                if move.text == answer.strip():
                    return move.id
        shown = " ".join(m.text for m in legal[:20]) + (" ..." if len(legal) > 20 else "")
        raise MidgardcError(
            f"player script {self.path}: choose() returned {answer!r}, which is not one of the legal moves",
            hint=f"return one of legal_moves (or its text); legal here: {shown}",
        )
