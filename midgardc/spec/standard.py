"""Standard definitions: words for the commonest conditions, written in the condition
language itself (as Ludii keeps a library of defines). A spec gets the ones it calls and
does not define or use as another name; its own definition of a word wins."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..errors import Pos, SpecError
from .yamlpos import YList, YMap, YNode, YScalar

if TYPE_CHECKING:  # pragma: no cover
    from .context import Lowering

STANDARD_DEFINES: dict[str, tuple[str, str]] = {
    "mine": ("mine(cell c)", "owner(c) == mover"),                   # the mover's piece stands on c
    "foe": ("foe(cell c)", "occupied(c) and owner(c) != mover"),     # another player's piece stands on c
    "hop": ("hop(cell c, dir d)", "step(step(c, d), d)"),            # two steps from c along d
    "adjacent": ("adjacent(cell a, cell b)", "any x in neighbours(a): x == b"),   # b is a neighbour of a
    "edge": ("edge(cell c, dir d)", "not onboard(step(c, d))"),     # no cell beyond c along d (the far row)
    "pieces": ("pieces(player p)", "count(x in cells: owner(x) == p)"),   # how many pieces p has on the board
    "is": ("is(cell c, player q, kind k)", "owner(c) == q and kind_at(c) == k"),   # q's piece of kind k stands on c
}


_CALL = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(")


def _called_names(node: YNode, words=STANDARD_DEFINES) -> dict[str, Pos]:
    """The standard definitions the spec's texts (keys and values) call, with where each is
    first called (in file order). Only a text's first call of each is located: finding a
    position reads the text up to it, so locating every call made a long hostile condition
    quadratic."""
    out: dict[str, Pos] = {}

    def note(text: str, locate) -> None:
        first: set[str] = set()
        for m in _CALL.finditer(text):
            name = m.group(1)
            if name not in words or name in first:
                continue
            first.add(name)
            pos = locate(m.start())
            if name not in out or (pos.line, pos.col) < (out[name].line, out[name].col):
                out[name] = pos

    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, YMap):
            stack.extend(n.items.values())
            for key in n.items:
                knode = n.key_nodes.get(key)
                note(key, knode.text_pos if knode is not None else (lambda off, p=n.key_pos[key]: p))
        elif isinstance(n, YList):
            stack.extend(n.items)
        elif isinstance(n, YScalar) and isinstance(n.value, str) and "(" in n.value:
            note(n.value, n.text_pos)
    return out




def lower_standard_defines(low: "Lowering", own: set[str]) -> None:
    """Add the standard definitions the spec calls and does not define (``own``) or name
    otherwise, before its own; one that does not fit the spec is an error at its first call."""
    called = _called_names(low.tree)
    names = low.names
    taken = {*names.all_callables(), *names.all_values(), *names.dir_sets, *names.arrays}
    for name, (head, text) in STANDARD_DEFINES.items():
        if name in called and name not in own and name not in taken:
            at = called[name]  # where the spec first calls it: what an error points at
            try:
                low.lower_define(head, YScalar(text, at), lambda off, at=at: at)
            except SpecError as exc:
                raise SpecError(f"the standard definition {head}: {text} does not fit this spec: {exc.message}", at) from None
