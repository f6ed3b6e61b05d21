"""Lowering of ``observation:``: what the learning-ready views of the observation tensor
(``midgardc.research.view``) need to know of a game that the rules do not say. The engines
never read it.

    observation:
      forward: PROP           # a player property of directions: each seat's "forward";
                              # the mover's view mirrors the board where it is opposite seat 0's
      history: K              # positions in the history planes (this one included)
      scale:                  # maxima of counts, for the normalised view: a number (0 .. it)
        COUNTER: N            # or [min, max]; keys: counters (an array's name covers its
        KIND: N               # elements), piece kinds (their hands), repetition, height,
        repetition: N         # items (the item places' sizes and counts)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ..errors import SpecError, did_you_mean
from ..ir.nodes import DIR, ObservationIR
from .yamlpos import YList, YMap, YNode, YScalar

if TYPE_CHECKING:  # pragma: no cover
    from .context import Lowering

#: The most positions the history planes may hold.
MAX_HISTORY = 64
#: Scale keys besides counters and piece kinds.
SCALE_WORDS = ("repetition", "height", "items")
_BOUND = 2**62


def forward_prop(low: "Lowering", fnode: YNode, player_props: tuple, what: str) -> tuple[int, ...]:
    """Each seat's forward direction, from ``forward: PROP`` (a player property of
    directions): what the observation's views and an action space mirror the board by."""
    name = low.scalar(fnode, str, what)
    props = dict(player_props)
    typ = low.names.player_props.get(name, (None, None))[1]
    if name not in props:
        raise SpecError(f"{what} names a player property of directions; there is no '{name}'", fnode.pos, did_you_mean(name, list(props)))
    if typ != DIR:
        raise SpecError(f"{what}: player property '{name}' holds {typ} values, not directions", fnode.pos)
    return tuple(props[name])


def lower_observation(low: "Lowering", node: Optional[YNode], counters: list[str], kinds: list[str], player_props: tuple, has_history: bool) -> Optional[ObservationIR]:
    """The ``observation`` section, checked; None without one."""
    if node is None:
        return None
    body = low.keys(node, "observation", "'observation'")
    forward = forward_prop(low, body["forward"], player_props, "observation.forward") if "forward" in body else ()
    history = 1
    if "history" in body:
        history = low.scalar(body["history"], int, "observation.history", 1, MAX_HISTORY)
    scales: list[tuple[str, int, int]] = []
    if "scale" in body:
        snode = body["scale"]
        if not isinstance(snode, YMap):
            raise SpecError("observation.scale maps a counter, piece kind, repetition, height or items to its maximum (or [min, max])", snode.pos)
        bases = {c.split("[")[0] for c in counters}
        names = [*counters, *sorted(bases - set(counters)), *kinds, *SCALE_WORDS]
        for key, vnode in snode.items.items():
            kpos = snode.key_pos[key]
            if key not in names:
                raise SpecError(f"observation.scale: unknown '{key}' (a counter, a piece kind, {', '.join(SCALE_WORDS)})", kpos, did_you_mean(key, names))
            if key == "repetition" and not has_history:
                raise SpecError("observation.scale: repetition needs a history: section (nothing counts positions)", kpos)
            if isinstance(vnode, YList):
                if len(vnode) != 2:
                    raise SpecError(f"observation.scale.{key}: a maximum, or [min, max]", vnode.pos)
                lo = low.scalar(vnode.items[0], int, f"observation.scale.{key}'s min", -_BOUND, _BOUND)
                hi = low.scalar(vnode.items[1], int, f"observation.scale.{key}'s max", -_BOUND, _BOUND)
            else:
                lo, hi = 0, low.scalar(vnode, int, f"observation.scale.{key}", -_BOUND, _BOUND)
            if hi <= lo:
                raise SpecError(f"observation.scale.{key}: the maximum must be above the minimum ({lo})", vnode.pos if not isinstance(vnode, YScalar) else kpos)
            scales.append((key, lo, hi))
    return ObservationIR(forward, history, tuple(scales))
