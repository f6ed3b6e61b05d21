"""Match records: one JSON object per game per line, enough to replay and check each game.

The file is written under a temporary name next to the target and renamed into place at
the end, so a crash or Ctrl-C never leaves half a line (an interrupted match keeps the
games it finished). Lines are written in game order even when workers finish out of order.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Callable, Iterator, Optional, Sequence

from ..errors import MidgardcError, Pos
from ..fileio import AtomicFile, open_input, read_input

if TYPE_CHECKING:  # pragma: no cover
    from ..ir.nodes import GameIR
    from .results import GameResult


def spec_sha256(path: str) -> str:
    """Of the file's bytes, so a record can tell when its spec has changed since."""
    from ..spec.yamlpos import MAX_SPEC_BYTES

    return hashlib.sha256(read_input(path, "the spec", MAX_SPEC_BYTES)).hexdigest()


def result_json(ir: "GameIR", labels: Sequence[str], result: "GameResult") -> dict:
    """The ``result`` part of a record line (also what a replay is checked against).

    ``outcome`` is ``win``, ``shared`` (some seats share first place), ``draw`` (every seat
    does) or ``stopped`` (the ply limit ended the game: no result); ``winner`` is the sole
    winner's label, or that word; ``winners`` the labels of the seats ranked first;
    ``ranks`` each seat's rank (1 = first, tied seats share one), null when stopped;
    ``returns`` (a spec with ``returns:`` only) each seat's payoff."""
    rank_names = [k.name for k in ir.ranking]
    outcome = result.outcome
    return {
        "winner": labels[result.seats[result.winner]] if result.winner is not None else outcome,
        "winner_seat": None if result.winner is None else ir.players[result.winner],
        "outcome": outcome,
        "winners": [labels[result.seats[s]] for s in result.leaders],
        "ranks": None if result.ranks is None else dict(zip(ir.players, result.ranks)),
        "plies": result.plies,
        "keys": {ir.players[s]: dict(zip(rank_names, ks)) for s, ks in enumerate(result.keys)},
        "margin": result.margin,
        "ply_limited": result.ply_limited,
        **({"returns": dict(zip(ir.players, result.returns))} if result.returns is not None else {}),
    }


def record_line(ir: "GameIR", labels: Sequence[str], header: dict, result: "GameResult", extra: Optional[dict] = None) -> dict:
    """One record line: the run's ``header`` (spec, spec_sha256, variant, engine, seed, ...),
    then the game. ``labels`` name the run's players; ``result.seats`` index into them."""
    line = dict(header)
    line.update({"game": result.index, "game_seed": result.seed})
    line.update(extra or {})
    line.update(
        {
            "seat_names": list(ir.players),
            "seats": [labels[p] for p in result.seats],
            "moves": list(result.moves),
            "result": result_json(ir, labels, result),
            "final_sha256": result.final,
        }
    )
    return line


class RecordWriter:
    """Writes lines in game order (results may arrive in any order); ``make_line`` turns a
    result into its JSON object (see record_line)."""

    def __init__(self, path: str, make_line: Callable[["GameResult"], dict]):
        self.path = path
        self.make_line = make_line
        self.next_index = 0
        self.pending: dict[int, "GameResult"] = {}
        self.out = AtomicFile(path, "the record")

    def add(self, result: "GameResult") -> None:
        self.pending[result.index] = result
        while self.next_index in self.pending:
            self._write(self.pending.pop(self.next_index))
            self.next_index += 1

    def _write(self, result: "GameResult") -> None:
        self.out.write(json.dumps(self.make_line(result), separators=(",", ":")) + "\n")

    def commit(self) -> None:
        """Write what is left (in game order, gaps and all) and move the file into place."""
        for index in sorted(self.pending):
            self._write(self.pending[index])
        self.pending.clear()
        self.out.commit()

    def discard(self) -> None:
        self.out.discard()


MAX_RECORD_LINE = 32 << 20  # bytes of one line: a game of MAX_PLIES (10^6) moves fits


def record_lines(path: str) -> Iterator[tuple[int, str, dict]]:
    """Each non-blank line of a record as (line number, raw text, JSON object); a line that
    is not a JSON object is an error at its line:col. The file is read through the one
    bounded reader (a regular file), a line at a time, none longer than MAX_RECORD_LINE."""
    with open_input(path, "the record") as fh:
        lineno = 0
        while True:
            try:
                data = fh.readline(MAX_RECORD_LINE + 1)
            except OSError as exc:
                raise MidgardcError(f"cannot read the record {path}: {exc.strerror}") from None
            if not data:
                return
            lineno += 1
            if len(data) > MAX_RECORD_LINE:
                raise MidgardcError(f"not a match record line: longer than the limit of {MAX_RECORD_LINE:,} bytes", Pos(path, lineno, 1))
            try:
                raw = data.decode("utf-8")
            except UnicodeDecodeError:
                raise MidgardcError(f"the record {path} is not UTF-8 text (is it a match record?)") from None
            if not raw.strip():
                continue
            yield lineno, raw, _json_line(path, lineno, raw)


def _json_line(path: str, lineno: int, raw: str) -> dict:
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise MidgardcError(f"not a match record line: {exc.msg}", Pos(path, lineno, exc.colno)) from None
    except RecursionError:
        raise MidgardcError("not a match record line: its JSON nests too deeply", Pos(path, lineno, 1)) from None
    except ValueError:  # an integer of more digits than Python converts (sys.get_int_max_str_digits)
        raise MidgardcError("not a match record line: a number has too many digits to read", Pos(path, lineno, 1)) from None
    if not isinstance(data, dict):
        raise MidgardcError("not a match record line (expected a JSON object)", Pos(path, lineno, 1))
    return data


# field -> (types, what it is): checked wherever a line has the field (and where required)
FIELDS = {
    "spec": ((str,), "the spec's path"),
    "spec_sha256": ((str, type(None)), "the spec's sha256"),
    "variant": ((str, type(None)), "a variant name or null"),
    "game": ((int,), "the game's number"),
    "game_seed": ((int,), "the game's seed"),
    "seed": ((int,), "the run's seed"),
    "seed_index": ((int,), "the number the game's seed is derived with"),
    "seat_names": ((list,), "the seats' names"),
    "seats": ((list,), "the player in each seat"),
    "moves": ((list,), "the moves"),
    "result": ((dict,), "the result"),
    "final_sha256": ((str,), "the sha256 of the final state"),
}


def check_fields(path: str, lineno: int, raw: str, data: dict, required: Sequence[str]) -> None:
    """A line's known fields have their types, and the ``required`` ones are there; an
    edited or forged line is an error at its line:col, not a crash further on."""
    for key, (types, what) in FIELDS.items():  # a field there of the wrong type first, then one missing
        value = data.get(key)
        if key in data and (not isinstance(value, types) or isinstance(value, bool)):
            col = raw.find(f'"{key}"') + 1 or 1
            raise MidgardcError(f"not a match record line: '{key}' ({what}) is a {type(value).__name__}", Pos(path, lineno, col))
    for key in FIELDS:
        if key in required and key not in data:
            raise MidgardcError(f"not a match record line: '{key}' ({FIELDS[key][1]}) is missing", Pos(path, lineno, 1))


def read_record(path: str, index: int) -> dict:
    """The line of game ``index`` in a record file."""
    return read_record_line(path, index)[2]


def read_record_line(path: str, index: int) -> tuple[int, str, dict]:
    """The line of game ``index`` in a record file: (line number, raw text, JSON object)."""
    found = []
    for lineno, raw, line in record_lines(path):
        check_fields(path, lineno, raw, line, ("game", "moves"))
        if line["game"] == index:
            return lineno, raw, line
        found.append(line["game"])
    if not found:
        raise MidgardcError(f"the record {path} holds no games")
    raise MidgardcError(f"the record {path} has no game {index} (it holds games {min(found)}..{max(found)})")
