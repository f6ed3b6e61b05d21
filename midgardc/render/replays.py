"""A match record read, checked and replayed: the numbers and frames a report is made from.

Every game of the record is replayed on the spec it names (the record remembers the spec's
sha256, so a changed spec is refused rather than shown wrongly) and its result compared
with the recorded one; a report never shows a game the rules do not reproduce. Games are
grouped by variant (and by pairing, for tournament records), each group tallied with the
same ``Tally`` as ``midgardc match``, so the report's tables equal the match's.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional

from ..errors import MidgardcError, Pos, SpecError
from ..matches.proof import check_proof_fields, prove
from ..matches.record import record_lines, spec_sha256
from ..matches.results import GameResult, result_of, result_words
from ..matches.tally import Tally
from ..runtime.observe import moves_seen
from .svg import frame_parts
from .svg.seen import SPECTATOR

if TYPE_CHECKING:  # pragma: no cover
    from ..ir.nodes import GameIR
    from ..runtime.game import Game


@dataclass
class Line:
    lineno: int
    data: dict

    @property
    def game(self) -> int:
        return self.data["game"]


@dataclass
class Replay:
    """One game, ply by ply, as the pictures of ``render.svg`` (a spectator's view): the
    first position's picture as ids of its pieces of text (``Group.parts``), then per ply
    the new picture in terms of the one before (``frame_step``), and the seat to move (-1
    at the end)."""

    game: int
    seats: list[str]
    moves: list[str]
    first: list[int]
    steps: list[list[int]] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)
    result: str = ""


@dataclass
class Group:
    """The games of one variant (and pairing) of one spec."""

    key: str
    spec: str
    variant: Optional[str]
    pairing: Optional[str]
    ir: "GameIR"
    engine: str
    labels: list[str]
    results: list[GameResult] = field(default_factory=list)
    plies: list[int] = field(default_factory=list)
    seeds: set = field(default_factory=set)
    replays: list[Replay] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)  # every distinct piece of the pictures
    part_ids: dict[str, int] = field(default_factory=dict)

    @property
    def board_id(self) -> str:
        """The id of this group's picture in the report."""
        return "board-" + self.key.split("-", 1)[1]

    def frame(self, state: Any) -> list[int]:
        """The picture of ``state`` as ids of its pieces of text (new pieces are added)."""
        out = []
        for text in frame_parts(state, None, self.board_id):
            i = self.part_ids.get(text)
            if i is None:
                i = self.part_ids[text] = len(self.parts)
                self.parts.append(text)
            out.append(i)
        return out

    @property
    def tally(self) -> Tally:
        """The group's results in the same sums as ``midgardc match`` keeps."""
        tally = Tally(self.ir, self.labels)
        for r in self.results:
            tally.add(r)
        return tally

    @property
    def active(self) -> list[str]:
        """The labels that played in this group (a tournament's pairing leaves some out)."""
        played = {p for r in self.results for p in r.seats}
        return [label for i, label in enumerate(self.labels) if i in played]

    def length_stats(self) -> tuple[float, float]:
        """Mean and (population) standard deviation of the game lengths in plies."""
        n = len(self.plies)
        if not n:
            return 0.0, 0.0
        mean = sum(self.plies) / n
        return mean, math.sqrt(sum((p - mean) ** 2 for p in self.plies) / n)


def read_lines(path: str) -> list[Line]:
    """The record's lines, each checked for the fields a report needs (errors at line:col)."""
    lines = []
    for lineno, raw, data in record_lines(path):
        check_proof_fields(path, lineno, raw, data)
        lines.append(Line(lineno, data))
    if not lines:
        raise MidgardcError(f"the record {path} holds no games")
    return lines


def _pairing(data: dict) -> Optional[str]:
    p = data.get("pairing")
    if p is None:
        return None
    if isinstance(p, list) and all(isinstance(x, str) for x in p):
        return " vs ".join(p)
    return p if isinstance(p, str) else json.dumps(p, separators=(",", " "))


@contextlib.contextmanager
def _unquoted(named_by_record: bool) -> Iterator[None]:
    """A spec the record names (not the user) may be any file on this machine: its errors
    keep their position but quote none of its lines."""
    try:
        yield
    except SpecError as exc:
        if not named_by_record:
            raise
        raise SpecError(exc.message, exc.pos, exc.hint, source="") from None


def _spec_path(record: str, named: str) -> str:
    """The record's spec path as written, or else beside the record."""
    if os.path.exists(named):
        return named
    beside = os.path.join(os.path.dirname(os.path.abspath(record)), named)
    return beside if os.path.exists(beside) else named


def load_groups(
    record: str,
    open_game: Callable[["GameIR"], "Game"],
    spec: Optional[str] = None,
    max_replays: int = 200,
) -> list[Group]:
    """Read, check and replay every game of ``record``; the first ``max_replays`` games
    also keep their frames for the step-through replay."""
    from ..spec.lower import list_player_counts, load_game_ir

    counted: dict[tuple[str, Optional[str]], bool] = {}  # does the spec declare player counts?

    lines = read_lines(record)
    groups: dict[tuple, Group] = {}
    games: dict[tuple[str, Optional[str], Optional[int]], "Game"] = {}
    checked: set[tuple[str, str]] = set()  # (spec path, recorded sha256) pairs found equal
    kept = 0
    for line in lines:
        d = line.data
        path = spec or _spec_path(record, d["spec"])
        variant = d.get("variant")  # (a name or None: check_fields)
        want = d.get("spec_sha256")
        if want and (path, want) not in checked:
            if want != spec_sha256(path):
                raise MidgardcError(
                    f"{path} has changed since {record} was made (its sha256 is not the record's 'spec_sha256'), "
                    "so the games cannot be replayed faithfully",
                    Pos(record, line.lineno, 1),
                    hint="report on a record made with the current spec, or restore the spec it was made with",
                )
            checked.add((path, want))
        with _unquoted(spec is None):
            if (path, variant) not in counted:
                counted[(path, variant)] = bool(list_player_counts(path, variant))
            count = len(d["seat_names"]) if counted[(path, variant)] else None  # the count it was played with
            if (path, variant, count) not in games:
                games[(path, variant, count)] = open_game(load_game_ir(path, variant, count))
        game = games[(path, variant, count)]
        pairing = _pairing(d)
        gkey = (path, variant, count, pairing)
        if gkey not in groups:
            labels = d.get("players") if isinstance(d.get("players"), list) else None
            groups[gkey] = Group(
                key=f"group-{len(groups)}",
                spec=path,
                variant=variant,
                pairing=pairing,
                ir=game.ir,
                engine=game.engine_name,
                labels=[str(x) for x in labels] if labels else [],
            )
        group = groups[gkey]
        keep = kept < max_replays
        state, replay = _replay_line(record, line, game, group if keep else None, path)
        for label in d["seats"]:
            if str(label) not in group.labels:
                group.labels.append(str(label))
        group.results.append(result_of(state, d["game"], d["game_seed"], tuple(group.labels.index(str(label)) for label in d["seats"])))
        group.plies.append(state.ply())
        if "seed" in d:
            group.seeds.add(d["seed"])
        if replay is not None:
            group.replays.append(replay)
            kept += 1
    return list(groups.values())


def _replay_line(record: str, line: Line, game: "Game", group: Optional[Group], spec_path: str) -> tuple[Any, Optional[Replay]]:
    """Replay one recorded game, which must prove itself (``matches.proof``: every field
    reproduced), and (given the ``group`` that keeps its pictures) collect its frames."""
    d = line.data
    where = f"game {d['game']} (line {line.lineno}) of {record}"
    ir = game.ir
    game.start_from(d.get("position"))  # a game recorded from a --position start begins there
    replay: Optional[Replay] = None

    def draw(state: Any) -> None:
        nonlocal replay
        if group is None:
            return
        now = group.frame(state)
        if replay is None:
            replay = Replay(d["game"], [str(s) for s in d["seats"]], [], now)
        else:
            replay.steps.append(frame_step(replay_frame[0], now))
        replay_frame[0] = now
        replay.turns.append(state.current_player())

    replay_frame: list[list[int]] = [[]]
    state = prove(game, spec_path, d, where, Pos(record, line.lineno, 1), draw)
    labels = [str(s) for s in d["seats"]]
    if replay is not None:  # the moves as the pictures show the game: to a spectator (hidden parts as '?')
        replay.moves = moves_seen(state, SPECTATOR)
        replay.result = result_words(state.outcome(), [f"{labels[s]} ({ir.players[s]})" for s, r in enumerate(state.ranks() or ()) if r == 1])
    return state, replay


def frame_step(old: list[int], new: list[int]) -> list[int]:
    """``new`` written against ``old``: a number >= 0 is a piece's id, a pair ``-(i + 1), n``
    copies ``old[i:i + n]`` (pictures of consecutive positions share most pieces, in order;
    ``apply_step`` reads it back)."""
    from difflib import SequenceMatcher

    out: list[int] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal":
            out += [-(i1 + 1), i2 - i1]
        else:
            out += new[j1:j2]
    return out


def apply_step(old: list[int], step: list[int]) -> list[int]:
    """The picture ``frame_step`` wrote (the report's page does the same in JavaScript)."""
    out: list[int] = []
    k = 0
    while k < len(step):
        v = step[k]
        if v >= 0:
            out.append(v)
            k += 1
        else:
            out += old[-v - 1 : -v - 1 + step[k + 1]]
            k += 2
    return out
