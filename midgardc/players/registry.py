"""Player kinds by name, and the one parser of player specs (``name`` or ``name:param``).

The match runner passes specs, not player objects, to worker processes: a spec is a
short string that pickles trivially and rebuilds the same player anywhere. Kinds with
named parameters (``mcts:iterations=500,c=1.4``) keep them in a canonical text, so a
spec prints the same way every time and parses back to itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Sequence

from ..errors import MidgardcError, did_you_mean
from .base import Player
from .greedy import GreedyPlayer
from .mcts import PARAMS as MCTS_PARAMS
from .mcts import MctsPlayer, PyTreeMctsPlayer
from .params import Param, parse_params, params_help, params_text, params_usage
from .script import ScriptPlayer
from .uniform import RandomPlayer, RandomStepsPlayer


@dataclass(frozen=True)
class Kind:
    make: Callable[[str, str], Player]  # (param, display name) -> player
    param: Optional[str]  # what the parameter is called, None when it takes none
    help: str
    params: Sequence[Param] = ()  # named parameters (then ``param`` is optional and canonical)


def _make_mcts(param: str, name: str) -> Player:
    return MctsPlayer(name, **parse_params("mcts", param, MCTS_PARAMS))


def _make_mcts_py(param: str, name: str) -> Player:
    return PyTreeMctsPlayer(name, **parse_params("mcts-py", param, MCTS_PARAMS))


KINDS: dict[str, Kind] = {
    "random": Kind(lambda _param, name: RandomPlayer(name), None, "a uniformly random legal move"),
    "greedy": Kind(lambda _param, name: GreedyPlayer(name), None, "best first ranking key after one move, ties at random"),
    "script": Kind(lambda param, name: ScriptPlayer(param, name), "PATH", "choose(observation, legal_moves, rng) from a Python file"),
    "mcts": Kind(_make_mcts, "ITERATIONS", "UCT tree search with the engine's random games as rollouts", MCTS_PARAMS),
    "mcts-py": Kind(_make_mcts_py, "ITERATIONS", "mcts with its tree in Python (as before the search ran in C; for comparisons)", MCTS_PARAMS),
    "random-steps": Kind(lambda _param, name: RandomStepsPlayer(name), None, "a move of two steps (then:) drawn step by step: a first step, then one of its second steps"),
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
    if kind == "human":  # a person at the terminal: midgardc.cli.humanplay seats it, not the match runner
        raise MidgardcError("player 'human' (a person at the terminal) plays only in 'midgardc play'", hint=f"here the players are: {kinds_help()}")
    if kind not in KINDS:
        guess = did_you_mean(kind, KINDS)
        raise MidgardcError(f"unknown player '{kind}'; " + (guess or f"players are: {kinds_help()}"))
    info = KINDS[kind]
    if info.params:
        if sep and not param.strip():
            raise MidgardcError(f"player '{kind}': nothing after ':'", hint=params_help(kind, info.params))
        return PlayerSpec(kind, params_text(parse_params(kind, param, info.params), info.params))
    if info.param is None and sep:
        raise MidgardcError(f"player '{kind}' takes no parameter (got '{text}')")
    if info.param is not None and not param.strip():
        raise MidgardcError(f"player '{kind}' needs a parameter: {kind}:{info.param}")
    return PlayerSpec(kind, param.strip())


def parse_players(text: str) -> list[PlayerSpec]:
    """A comma-separated list of player specs (so a script path cannot contain a comma).
    A part with ``=`` and no ``:`` continues the previous player's parameters, so
    ``random,mcts:iterations=500,c=1.4,greedy`` is three players."""
    parts: list[str] = []
    for part in text.split(","):
        if "=" in part and ":" not in part:
            if not parts:
                raise MidgardcError(f"parameter '{part.strip()}' comes before any player", hint=f"write it after the player, e.g. mcts:{part.strip()}")
            parts[-1] += ("," if ":" in parts[-1] else ":") + part
        else:
            parts.append(part)
    return [parse_player(part) for part in parts]


def player_labels(specs: list[PlayerSpec]) -> list[str]:
    """Names for a table: the spec text, numbered when the same spec plays twice."""
    texts = [s.text for s in specs]
    return [t if texts.count(t) == 1 else f"{t}#{texts[:i].count(t) + 1}" for i, t in enumerate(texts)]


def kinds_help() -> str:
    return ", ".join(_kind_usage(k, v) for k, v in KINDS.items())


def _kind_usage(name: str, kind: Kind) -> str:
    if kind.params:
        return f"{name}[:{kind.param}] or {params_usage(name, kind.params)}"
    return f"{name}:{kind.param}" if kind.param else name
