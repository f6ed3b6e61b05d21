"""What the section helpers of the front end may use of the lowerer, as a protocol.

The helpers beside ``lower.py`` (glyphs, history, pools, position, present, zones) are
called by ``Lowerer`` with itself. They used to name ``Lowerer`` for their annotations,
which made every helper and ``lower.py`` one circle of imports. They are handed this
narrower thing instead: the names, the tables lowered so far and the checked readers,
which ``Lowerer`` has (structural typing: it need not name this class), so a helper can
be read, and tested, without the rest of the lowerer.
"""

from __future__ import annotations

from typing import Any, Optional, Protocol

from ..conditions.check import Names
from ..errors import Pos
from ..ir.items import DeckIR, ZonesIR
from ..ir.nodes import BoardIR, Expr
from .yamlpos import YMap, YNode


class Lowering(Protocol):
    """The lowerer as the section helpers see it (``midgardc.spec.lower.Lowerer``)."""

    tree: YMap  # the whole spec, after variants and player counts
    names: Names  # every name a condition may use, as lowered so far
    kinds: list[str]  # piece kinds, by index
    players: list[str]  # the seated players, in seat order
    unseated: set[str]  # players declared but not seated at this count
    board: Optional[BoardIR]
    has_phases: bool  # a phases: section was declared (spec/phases.py)
    deck_ir: Optional[DeckIR]
    zones_ir: Optional[ZonesIR]
    zones_names: list[str]  # zone names by index
    array_columns: int
    pools: dict  # places off the board (pools:), spec/pools.py
    pool_labels: dict[str, str]
    pool_needs: dict[int, Expr]
    pool_stacks: dict[int, Expr]

    def keys(self, node: YNode, section: str, what: str) -> YMap:
        """``node`` checked as a mapping with the keys ``section`` allows and needs."""
        ...

    def scalar(self, node: YNode, typ: type, what: str, lo: Optional[int] = None, hi: Optional[int] = None) -> Any:
        """``node``'s value checked as one ``typ`` (int within lo..hi, bool or str)."""
        ...

    def ident(self, text: str, pos: Pos, what: str) -> str:
        """``text`` checked as a name a spec may declare."""
        ...

    def condition(self, node: YNode, scope: dict[str, str], want: Optional[str] = ...) -> Expr:
        """``node`` parsed and type-checked as an expression of type ``want``."""
        ...

    def kind(self, node: YNode) -> int:
        """The index of the piece kind ``node`` names."""
        ...

    def lower_define(self, head: str, body: YNode, locate: Any) -> None:
        """One definition (``head`` like ``name(cell c)``, ``body`` its condition) added
        to the spec's; ``locate`` maps an offset in ``head`` to a position."""
        ...

    def value_names(self, typ: str) -> list[str]:
        """The names of a finite type's values."""
        ...

    def element_labels(self, dims: Any) -> list[str]:
        """The labels of a counter array's elements (``a,b`` per index)."""
        ...
