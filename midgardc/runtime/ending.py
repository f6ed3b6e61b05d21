"""How a finished game ended, for people: the reason, each seat's rank and score, the
tie-break, the length in moves as the rulebook counts them.

The rules never read any of this (``runtime.results`` is what a game is worth). The
reason is the first of the spec's ``end.reasons`` (name: condition, in order) that holds
on the final position, after the end effects; it is read by the reference interpreter's
expressions on the state's fields, so both back ends give the same reason. A reason is a
phrase that reads after "by" ("white wins by checkmate", "draw by stalemate"). On the
final position nobody is to move and the history is not kept: a reason that needs the
mover (``can_move()``) is kept by ``end.effects`` in a counter, and the end only the
history tells (a repetition) is named last, by ``true``.

A **tie-break** is the ranking key that decided first place when the keys before it were
level: the leaders and the best of the others agree on every earlier key.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Sequence

from ..ir.nodes import GameIR
from . import results

if TYPE_CHECKING:  # pragma: no cover
    from .protocols import StateLike as State

PLY_LIMIT = "the ply limit"  # the reason of a game stopped by game.max_plies (no result)


_PROGRAMS: dict[int, tuple[GameIR, Any]] = {}  # id(ir) -> (ir kept alive, its Program)


def program_of(ir: GameIR) -> Any:
    """The interpreter's expressions of ``ir``, made once per IR (by identity: an IR's
    hash walks the whole tree)."""
    from .rules.expressions import Program

    hit = _PROGRAMS.get(id(ir))
    if hit is None:
        hit = _PROGRAMS[id(ir)] = (ir, Program(ir))
    return hit[1]


def interpreter_core(state: "State") -> Any:
    """The state's fields on an interpreter Core (the state's own for the interpreter),
    for the interpreter's expressions; no position history (a reason cannot ask
    ``times_seen()``: name that end last, by ``true``). The pictures read
    presentation expressions through it too (``render/svg/seen.py``)."""
    from .interpreter import OFFBOARD, Core

    core = state.core
    if isinstance(core, Core):
        return core
    ir = state.game.ir
    n = ir.board.n_cells
    m = Core.__new__(Core)
    m.prog = program_of(ir)
    m.board = list(core.board)[:n] + [OFFBOARD]
    m.heights = list(core.heights)[:n] + [0]
    m.hands = [list(h) for h in core.hands]
    m.counters = [list(c) for c in core.counters]
    m.zones = [list(z) if not isinstance(z, dict) else z for z in core.zones] if ir.zones is not None else []
    m.current, m.last, m.ply = core.current, core.last, core.ply
    m.roll = list(core.roll)
    m.terminal, m.passes, m.ply_limited, m.chance = core.terminal, core.passes, core.ply_limited, core.chance
    m.deck, m.drawn = core.deck, list(core.drawn)
    m.up, m.discards = [list(u) for u in core.up], [list(d) for d in core.discards]
    m._legal, m.again, m.rng = None, 0, None
    return m


def end_reason(state: "State") -> Optional[str]:
    """The name of the end that fired (``end.reasons``), "the ply limit" for a stopped
    game, None while the game goes on or when the spec names no reason that holds."""
    if not state.is_terminal():
        return None
    ir = state.game.ir
    if state.core.ply_limited:
        return PLY_LIMIT
    if not ir.end.reasons:
        return None
    core = interpreter_core(state)
    prog = core.prog
    for name, cond in ir.end.reasons:
        if prog.fn(cond)(core, {}):
            return name
    return None


def tie_break(ir: GameIR, keys: Sequence[Sequence[int]], ranks: Optional[Sequence[int]]) -> Optional[int]:
    """The index of the ranking key that decided first place after the keys before it
    were level between the leaders and the best of the others; None when the first key
    decided it, every seat shares first place, or the game was stopped."""
    if ranks is None:
        return None
    others = [s for s, r in enumerate(ranks) if r != 1]
    if not others:
        return None
    leader = ranks.index(1)
    runner = min(others, key=lambda s: ranks[s])
    a, b = results.rank_tuple(ir, keys[leader]), results.rank_tuple(ir, keys[runner])
    first = next(i for i, (x, y) in enumerate(zip(a, b)) if x != y)
    return first if first > 0 else None


def moves_counted(ir: GameIR, plies: int) -> int:
    """The game's length as its rulebook counts moves (``render.move_plies`` plies a
    move; a move begun counts)."""
    per = ir.render.present.move_plies if ir.render.present is not None else 1
    return -(-plies // per)


def key_label(ir: GameIR, name: str) -> str:
    present = ir.render.present
    return present.label(name) if present is not None else name


def final_keys(ir: GameIR) -> list[str]:
    """The ranking keys that mean something only once the game is over (``final: true``):
    panels leave them out while it goes on."""
    return [k.name for k in ir.ranking if k.final]


def ending(state: "State", names: Optional[Sequence[str]] = None) -> Optional[dict]:
    """A finished game as people read it (JSON-able), None while it goes on: ``outcome``
    (results.game_outcome), ``reason``, ``winners``, ``seats`` (each seat's ``player``,
    ``rank`` and ``score``: its ranking keys by their shown names), ``tie_break`` (the
    deciding key's name, its shown name and both sides' values of the keys up to it),
    ``plies``, ``moves`` (as the rulebook counts them) and ``text``, the sentence.
    ``names`` are the seats' names in the sentence (default: the players)."""
    if not state.is_terminal():
        return None
    ir = state.game.ir
    keys = state.keys()
    ranks = state.ranks()
    names = list(names) if names is not None else list(ir.players)
    seats = [
        {"player": ir.players[s], "rank": None if ranks is None else ranks[s], "score": {key_label(ir, k.name): int(v) for k, v in zip(ir.ranking, keys[s])}}
        for s in range(ir.n_players)
    ]
    decided = tie_break(ir, keys, ranks)
    tb = None
    if decided is not None:
        assert ranks is not None
        leader = ranks.index(1)
        runner = min((s for s, r in enumerate(ranks) if r != 1), key=lambda s: ranks[s])
        tb = {
            "key": ir.ranking[decided].name,
            "label": key_label(ir, ir.ranking[decided].name),
            "level": [key_label(ir, k.name) for k in ir.ranking[:decided]],
            "leader": [int(v) for v in keys[leader][: decided + 1]],
            "runner_up": [int(v) for v in keys[runner][: decided + 1]],
        }
    out = {
        "outcome": results.game_outcome(ranks),
        "reason": end_reason(state),
        "winners": [ir.players[s] for s in results.leaders(ranks)],
        "seats": seats,
        "tie_break": tb,
        "plies": state.ply(),
        "moves": moves_counted(ir, state.ply()),
    }
    out["text"] = ending_sentence(out, [names[s] for s in results.leaders(ranks)])
    return out


def ending_sentence(end: dict, winners: Sequence[str]) -> str:
    """"white wins by checkmate in 34 moves", "draw by stalemate in 40 moves", "red and
    blue share first place in 30 moves", "73-73 tie broken by tokens (9-7)"."""
    outcome, reason, n = end["outcome"], end["reason"], end["moves"]
    length = f"{n} move{'s' if n != 1 else ''}"
    if outcome == results.STOPPED:
        return f"stopped at the ply limit after {length} (no result)"
    by = f" by {reason}" if reason else ""
    if outcome == results.WIN:
        head = f"{winners[0]} wins{by} in {length}"
    elif outcome == results.SHARED:
        head = ", ".join(winners[:-1]) + " and " + winners[-1] + f" share first place{by} in {length}"
    else:
        head = f"draw{by} in {length}"
    if end["tie_break"] is not None:
        head += "; " + tie_break_words(end["tie_break"])
    return head


def tie_break_words(tb: dict) -> str:
    """"73-73 tie broken by tokens (9-7)": the first key's level values, then the deciding
    key's (``ending``'s ``tie_break``)."""
    return f"{tb['leader'][0]}-{tb['runner_up'][0]} tie broken by {tb['label']} ({tb['leader'][-1]}-{tb['runner_up'][-1]})"


def ranks_line(end: dict) -> str:
    """Each seat's rank and score in one line: "1. white (won 1)  2. black (won 0)"."""
    seats = sorted(end["seats"], key=lambda s: (s["rank"] is None, s["rank"] or 0))
    parts = []
    for s in seats:
        score = ", ".join(f"{k} {v}" for k, v in s["score"].items())
        parts.append(f"{s['rank'] if s['rank'] is not None else '-'}. {s['player']} ({score})")
    return "  ".join(parts)
