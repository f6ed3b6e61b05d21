"""Player kinds by name, and the one parser of player specs (``name`` or ``name:param``).

The match runner passes specs, not player objects, to worker processes: a spec is a
short string that pickles trivially and rebuilds the same player anywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from ..errors import MidgardcError, did_you_mean
from .base import Player
from .greedy import GreedyPlayer
from .script import ScriptPlayer
from .uniform import RandomPlayer


@dataclass(frozen=True)
class Kind:
    make: Callable[[str, str], Player]  # (param, display name) -> player
    param: Optional[str]  # what the parameter is called, None when it takes none
    help: str


KINDS: dict[str, Kind] = {
    "random": Kind(lambda _param, name: RandomPlayer(name), None, "a uniformly random legal move"),
    "greedy": Kind(lambda _param, name: GreedyPlayer(name), None, "best first ranking key after one move, ties at random"),
    "script": Kind(lambda param, name: ScriptPlayer(param, name), "PATH", "choose(state, legal_moves, rng) from a Python file"),
}


@dataclass(frozen=True)
class PlayerSpec:
    kind: str
    param: str = ""

    @property
    def text(self) -> str:
        return f"{self.kind}:{self.param}" if self.param else self.kind

    def make(self, name: Optional[str] = None) -> Player:
        return KINDS[self.kind].make(self.param, name or self.text)


def parse_player(text: str) -> PlayerSpec:
    """``random``, ``greedy``, ``script:my.py``: a PlayerSpec, or a MidgardcError saying why not."""
    text = text.strip()
    kind, sep, param = text.partition(":")
    kind = kind.strip()
    if not kind:
        raise MidgardcError(f"empty player name in '{text}'" if text else "empty player name", hint=f"players: {kinds_help()}")
    if kind not in KINDS:
        guess = did_you_mean(kind, KINDS)
        raise MidgardcError(f"unknown player '{kind}'; " + (guess or f"players are: {kinds_help()}"))
    info = KINDS[kind]
    if info.param is None and sep:
        raise MidgardcError(f"player '{kind}' takes no parameter (got '{text}')")
    if info.param is not None and not param.strip():
        raise MidgardcError(f"player '{kind}' needs a parameter: {kind}:{info.param}")
    return PlayerSpec(kind, param.strip())


def parse_players(text: str) -> list[PlayerSpec]:
    """A comma-separated list of player specs (so a script path cannot contain a comma)."""
    return [parse_player(part) for part in text.split(",")]


def player_labels(specs: list[PlayerSpec]) -> list[str]:
    """Names for a table: the spec text, numbered when the same spec plays twice."""
    texts = [s.text for s in specs]
    return [t if texts.count(t) == 1 else f"{t}#{texts[:i].count(t) + 1}" for i, t in enumerate(texts)]


def kinds_help() -> str:
    return ", ".join(f"{k}:{v.param}" if v.param else k for k, v in KINDS.items())
