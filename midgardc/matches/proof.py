"""A record line proves its game, or is refused with the field that does not hold.

A record is believed only as far as replaying it reproduces it: the spec's bytes
(``spec_sha256``), the seats (``seat_names`` are the spec's, ``seats`` one label each),
the game's seed (``game_seed`` is the run's ``derive_seed(seed, game)``, a tournament's
``derive_seed(seed, seed_index)``, and every roll in ``moves`` is the one the seed's
chance stream throws there), every move, the whole
``result`` (each of its fields, none missing, none added) and the state the game ends in
(``final_sha256``: the sha256 of everything in it, hidden hands and deck orders too, so a
game whose deal came from another seed is told apart even where its moves and result
would fit). ``replay --record`` and ``report`` both check with ``prove``; a line that
fails is one error naming the field, at the record's line.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Callable, Optional

from ..errors import MidgardcError, MoveError, Pos
from .record import FIELDS, result_json, spec_sha256
from .results import final_sha256, refuse_unfinished, result_of

if TYPE_CHECKING:  # pragma: no cover
    from ..runtime.game import Game, State

# every field a finished game's line must have (an unfinished one is refused by name)
PROVED = ("spec", "spec_sha256", "variant", "seed", "game", "game_seed", "seat_names", "seats", "moves", "result", "final_sha256")


def _refuse(where: str, field: str, what: str, pos: Optional[Pos]) -> MidgardcError:
    return MidgardcError(f"{where} does not prove its game: '{field}' {what}", pos)


def check_proof_fields(path: str, lineno: int, raw: str, data: dict) -> None:
    """Every field a game needs to be proved is there with its type (``spec_sha256`` a
    string: a record without it cannot say its spec is unchanged)."""
    from .record import check_fields

    refuse_unfinished(f"game {data.get('game', '?')} (line {lineno}) of {path}", data.get("result"))
    check_fields(path, lineno, raw, data, PROVED)
    for key in PROVED:
        types, what = FIELDS[key]
        if data[key] is None and key != "variant":
            col = raw.find(f'"{key}"') + 1 or 1
            raise MidgardcError(f"not a match record line: '{key}' ({what}) is null", Pos(path, lineno, col))


def prove(game: "Game", spec_path: str, line: dict, where: str, pos: Optional[Pos] = None, each: Optional[Callable[["State"], None]] = None) -> "State":
    """Replay ``line`` (fields checked by ``check_proof_fields``) on ``game`` (loaded from
    ``spec_path`` for the line's variant and seats) and return the final state; a field
    the replay does not reproduce is a MidgardcError naming it. ``each`` is shown the
    state at the start and after every move (a report draws its frames so)."""
    from ..runtime.rng import derive_seed

    ir = game.ir
    if line["spec_sha256"] != spec_sha256(spec_path):
        raise _refuse(where, "spec_sha256", f"is not the sha256 of {spec_path}: the spec has changed since the record was made (or it is another spec), so its games may not replay as recorded", pos)
    if line["variant"] != game.variant:
        raise _refuse(where, "variant", f"is {line['variant']!r} but the game was loaded as {game.variant!r}", pos)
    if list(line["seat_names"]) != list(ir.players):
        raise _refuse(where, "seat_names", f"is {line['seat_names']} but {ir.title} seats {list(ir.players)}", pos)
    seats = line["seats"]
    if len(seats) != ir.n_players or not all(isinstance(s, str) and s for s in seats):
        raise _refuse(where, "seats", f"must name the player in each of the {ir.n_players} seats, one label each (it is {seats})", pos)
    k = line.get("seed_index", line["game"])  # (a tournament's: see tournament.plan)
    if line["game_seed"] != derive_seed(line["seed"], k):
        raise _refuse(where, "game_seed", f"is {line['game_seed']}, not the seed of game {k} of a run with seed {line['seed']} ({derive_seed(line['seed'], k)})", pos)
    state = game.new_state(line["game_seed"])
    if each is not None:
        each(state)
    for i, text in enumerate(line["moves"], start=1):
        if not isinstance(text, str):
            raise MidgardcError(f"{where} does not replay: move {i} ({text!r}) is not a move's text (the record's 'moves')", pos)
        try:
            move = state.resolve(text)
        except MoveError as exc:
            legal = " ".join(m.text for m in state.legal_moves())
            raise MidgardcError(f"{where} does not replay: move {i} ({text}): {exc.message}; legal moves here: {legal or 'none (the game is over)'} (the record's 'moves')", pos) from None
        if state.is_chance_node():  # the roll the seed's chance stream throws here
            rolled = state.sample_chance()
            if rolled.id != move:
                raise MidgardcError(f"{where} does not replay: move {i} ({text}) is not the roll its 'game_seed' throws there ({rolled.text})", pos)
        else:
            state.apply_unchecked(move)
        if each is not None:
            each(state)
    if not state.is_terminal():
        raise MidgardcError(f"{where} does not reach the end of the game when replayed (after {state.ply()} moves): the record's 'moves' stop short", pos)
    got = result_json(ir, seats, result_of(state, line["game"], line["game_seed"], tuple(range(ir.n_players))))
    got = json.loads(json.dumps(got))  # (as a record holds it: JSON values)
    recorded = line["result"]
    for key in list(got) + sorted(set(recorded) - set(got)):
        if key not in recorded:
            raise MidgardcError(f"{where} replays to a different result: 'result.{key}' is missing (replayed: {got[key]!r})", pos)
        if key not in got:
            raise MidgardcError(f"{where} replays to a different result: 'result.{key}' is not a field of a result", pos)
        if recorded[key] != got[key]:
            raise MidgardcError(f"{where} replays to a different result: 'result.{key}' is {recorded[key]!r}, replayed {got[key]!r}", pos)
    if line["final_sha256"] != final_sha256(state):
        raise _refuse(
            where,
            "final_sha256",
            "is not the state the game ends in when replayed from its 'game_seed' and 'moves' (hidden hands or a deal differ: was the seed or a move edited?)",
            pos,
        )
    return state


__all__ = ["PROVED", "check_proof_fields", "prove"]
