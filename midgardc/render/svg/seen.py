"""What a picture may show (one seat's observation, or a spectator's) and the values of the
spec's presentation expressions on a state.

A picture is drawn for a *viewer*: a seat (what that seat observes: ``runtime.observe``)
or a spectator (``None``: what every seat sees publicly, and everything once the game is
over). Presentation expressions (``render:`` places, tracks, highlights) are evaluated by
the reference interpreter's expressions on the state's fields, whichever back end made it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, is_dataclass
from typing import TYPE_CHECKING, Any, Optional

from ...ir.nodes import Call, Const, DefineCall, Expr, GameIR
from ...ir.present import PresentIR
from ...runtime.ending import interpreter_core, program_of
from ...runtime.observe import SEES, by_identity, counter_visibility

if TYPE_CHECKING:  # pragma: no cover
    from ...runtime.game import State

SPECTATOR = -1  # a viewer who is no seat: sees what is public


def present_of(ir: GameIR) -> PresentIR:
    return ir.render.present or PresentIR()


@dataclass
class Seen:
    """A state as one viewer sees it."""

    state: "State"
    viewer: int  # a seat, or SPECTATOR
    all: bool  # the game is over and the viewer is a spectator: everything is shown

    @property
    def ir(self) -> GameIR:
        return self.state.game.ir

    def counter(self, i: int, owner: int) -> bool:
        """Whether counter ``i`` of ``owner`` (a seat, or GAME) is shown: what the viewer
        observes, and once the game is over what the rules then put on the table
        (``render.revealed_at_end``)."""
        return self.all or SEES[counter_visibility(self.ir, i)](self.viewer, owner) or revealed(self.state, i)

    def place(self, place: Any) -> bool:
        return self.all or place.seen_by(self.viewer)

    def expr_seen(self, expr: Expr, owner: int) -> bool:
        """Whether an expression about ``owner`` reads only what the viewer sees."""
        return self.all or SEES[expr_visibility(self.ir, expr)](self.viewer, owner)

    def value(self, expr: Expr, **env: int) -> int:
        if not hasattr(self, "_core"):
            self._core = interpreter_core(self.state)
        return int(program_of(self.ir).fn(expr)(self._core, env))


def revealed(state: "State", counter: int) -> bool:
    """Whether ``counter`` is shown to everyone now: the game is over and the spec's
    ``render.revealed_at_end`` names it (never before the end)."""
    return counter in present_of(state.game.ir).revealed_at_end and state.is_terminal()


def seen(state: "State", viewer: Optional[int]) -> Seen:
    ir = state.game.ir
    if viewer is not None and not 0 <= viewer < ir.n_players:
        raise ValueError(f"no player {viewer} in {ir.title} (players 0..{ir.n_players - 1})")
    return Seen(state, SPECTATOR if viewer is None else viewer, viewer is None and state.is_terminal())


@by_identity
def expr_visibility(ir: GameIR, expr: Expr) -> str:
    """The most private thing ``expr`` reads (counters; items through holding/top):
    "none", "owner" or "all" (as ``observe.key_visibility``)."""
    found: set[str] = set()
    zones = ir.zones.zones if ir.zones is not None else ()

    def walk(e: Any, done: frozenset) -> None:
        if isinstance(e, Call):
            if e.fn in ("counter", "game_counter", "typed_counter", "counter_at") and isinstance(e.args[0], Const):  # (an array: its first column)
                found.add(counter_visibility(ir, e.args[0].value))
            elif e.fn in ("holding", "top") and e.args and isinstance(e.args[0], Const) and e.args[0].value < len(zones):
                found.add(zones[e.args[0].value].visible)
        if isinstance(e, DefineCall) and e.index not in done:
            walk(ir.defines[e.index].body, done | {e.index})
            done = done | {e.index}
        if is_dataclass(e):
            for f in fields(e):
                v = getattr(e, f.name)
                for x in v if isinstance(v, tuple) else (v,):
                    if is_dataclass(x):
                        walk(x, done)

    walk(expr, frozenset())
    return "none" if "none" in found else "owner" if "owner" in found else "all"


@by_identity
def counters_read(ir: GameIR, expr: Expr) -> frozenset[int]:
    """The counters an expression names directly or through definitions."""
    found: set[int] = set()

    def walk(e: Any, done: frozenset) -> None:
        if isinstance(e, Call) and e.fn in ("counter", "game_counter", "typed_counter") and isinstance(e.args[0], Const):
            found.add(e.args[0].value)
        if isinstance(e, Call) and e.fn == "counter_at" and isinstance(e.args[0], Const):  # an array: all its columns
            size = 1
            for k in range(4, len(e.args), 3):  # (column, row, none, then lo, size, index per index)
                size *= e.args[k].value if isinstance(e.args[k], Const) else 1
            found.update(range(e.args[0].value, e.args[0].value + size))
        if isinstance(e, DefineCall) and e.index not in done:
            done = done | {e.index}
            walk(ir.defines[e.index].body, done)
        if is_dataclass(e):
            for f in fields(e):
                v = getattr(e, f.name)
                for x in v if isinstance(v, tuple) else (v,):
                    if is_dataclass(x):
                        walk(x, done)

    walk(expr, frozenset())
    return frozenset(found)


@by_identity
def drawn_counters(ir: GameIR) -> frozenset[int]:
    """Counters the presentation draws elsewhere (tracks, places) or hides (internal): not
    listed again in the players' panel."""
    pr = present_of(ir)
    out: set[int] = set(pr.internal)
    for t in pr.tracks:
        for e in ([t.per_player] if t.per_player is not None else []) + [e for _, e in t.markers]:
            out |= counters_read(ir, e)
    for pl in pr.places:
        for _, e in pl.holds:
            out |= counters_read(ir, e)
    if ir.render.numbers:  # written in the cells (render.numbers)
        out |= {ir.counters.index(f"{ir.render.numbers}[{name}]") for name in ir.board.cell_names}
    return frozenset(out)


__all__ = ["by_identity", "SPECTATOR", "Seen", "seen", "present_of", "drawn_counters"]
