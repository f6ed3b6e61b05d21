"""One finished game of a run, as every part of ``matches`` (and the report) sees it.

This module sits below its users: the runner makes GameResults, the tally folds them, the
record writes them and the report rebuilds them from a record, and none of those imports
another for the type. The meaning of a result (ranks, winners, returns) is
``midgardc.runtime.results``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

from ..runtime import results
from ..runtime.ending import ending

if TYPE_CHECKING:  # pragma: no cover
    from ..runtime.game import State


@dataclass(frozen=True)
class GameResult:
    index: int
    seed: int  # the game's own seed, derive_seed(match seed, index)
    seats: tuple[int, ...]  # player index per seat
    moves: tuple[str, ...]  # in notation
    winner: Optional[int]  # the seat ranked first alone; None for a shared first, a draw or a stop
    plies: int
    keys: tuple[tuple[int, ...], ...]  # ranking keys per seat
    margin: int
    ply_limited: bool
    ranks: Optional[tuple[int, ...]] = None  # rank per seat (1 = first, shared ranks); None: stopped
    returns: Optional[tuple[float, ...]] = None  # per seat, for a spec with returns: (its payoff counter)
    final: str = ""  # final_sha256 of the final state: what a record proves its deal by (matches/proof.py)
    # how it ended, for people (runtime/ending.py): the sentence ("white wins by checkmate in
    # 34 moves"), the reason named by the spec's end.reasons, and each seat's rank and score
    ending: Optional[dict] = None

    @property
    def reason(self) -> Optional[str]:
        return None if self.ending is None else self.ending["reason"]

    @property
    def outcome(self) -> str:
        """``win``, ``shared``, ``draw`` or ``stopped`` (see runtime/results.py)."""
        return results.game_outcome(self.ranks)

    @property
    def leaders(self) -> list[int]:
        """The seats ranked first."""
        return results.leaders(self.ranks)

    def seat_outcome(self, seat: int) -> str:
        return results.seat_outcome(self.ranks, seat)


def result_of(state: "State", index: int, seed: int, seats: tuple[int, ...], moves: tuple[str, ...] = ()) -> GameResult:
    """The GameResult of a finished ``state`` (either back end)."""
    ir = state.game.ir
    keys = state.keys()
    limited = bool(state.core.ply_limited)
    ranks = results.ranks_of(ir, keys, limited)
    return GameResult(
        index=index,
        seed=seed,
        seats=tuple(seats),
        moves=moves,
        winner=results.sole_winner(ranks),
        plies=state.ply(),
        keys=tuple(tuple(k) for k in keys),
        margin=results.margin_of(ir, keys),
        ply_limited=limited,
        ranks=ranks,
        returns=tuple(state.returns()) if ir.returns is not None else None,
        final=final_sha256(state),
        ending=ending(state),
    )


def final_sha256(state: "State") -> str:
    """The sha256 of everything in ``state`` but its move list: the board, every counter,
    every zone's and deck's items in their order (hidden ones too), the roll and the
    result; equal on both back ends (it is read through ``to_json``). A record keeps it
    (``final_sha256``) so that a game replayed from another seed is told apart
    (matches/proof.py)."""
    import hashlib
    import json

    whole = state.to_json()
    whole.pop("moves", None)
    return hashlib.sha256(json.dumps(whole, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def result_words(outcome: str, winners: list[str]) -> str:
    """A result for people: "X wins", "X and Y share first place", "draw", "stopped at the
    ply limit (no result)"."""
    if outcome == results.WIN and winners:
        return f"{winners[0]} wins"
    if outcome == results.SHARED:
        return (", ".join(winners[:-1]) + " and " + winners[-1] if len(winners) > 1 else "".join(winners)) + " share first place"
    if outcome == results.STOPPED:
        return "stopped at the ply limit (no result)"
    return "draw"


def refuse_unfinished(where: str, recorded: dict) -> None:
    """A record line left by a game that was quit (``midgardc play`` keeps its moves) has no
    result to check: say so instead of "does not reach the end"."""
    from ..errors import MidgardcError

    if isinstance(recorded, dict) and recorded.get("unfinished"):
        plies = recorded.get("plies", "?")
        raise MidgardcError(
            f"{where} is an unfinished game (stopped by its players after {plies} plies): replay and report check "
            "finished games only; to see where it stopped, pass its moves to `midgardc replay SPEC --moves ...` (with its seed)"
        )
