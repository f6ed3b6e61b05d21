"""The built-in piece figures (``render.figures``) and the paint that keeps every piece
visible on the ground it stands on.

Each figure is drawn in a 40 x 40 box (the base of an upright figure near y = 34) and
scaled to its cell. The shapes are simple outlines drawn for midgardc (no figure set was
copied): six carved figures (a crown with a cross, a crown, a tower, a mitre, a horse's
head, a pawn), flat discs (plain, ringed,
crowned), round stones, meeples, crosses and rings. A figure is filled with its owner's colour and
outlined by ``outline``: when the fill alone has too little contrast with the ground (a
white stone on a light board) the outline is the dark or light line that has enough.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from ...ir.colours import contrast, luminance
from .common import fmt, sub

MIN_CONTRAST = 3.0  # WCAG 2.1 non-text contrast (1.4.11) for a piece against its ground
DARK, LIGHT = "#222222", "#f4f4f4"

# per figure: (tag, attributes) in the 40 x 40 box; "detail" parts are drawn in the colour
# that reads on the fill (a cross's lines, a crown on a disc), the rest in the fill
_BASE = ("path", {"d": "M11,34 H29 V30.5 H11 Z"})
SHAPES: dict[str, tuple[tuple[str, dict, bool], ...]] = {
    "pawn": (
        ("path", {"d": "M13,34 H27 V31 Q27,28.5 23.5,27.5 L22.2,21 H17.8 L16.5,27.5 Q13,28.5 13,31 Z"}, False),
        ("path", {"d": "M15.5,21.5 H24.5 Q24.5,18.5 20,18.5 Q15.5,18.5 15.5,21.5 Z"}, False),
        ("circle", {"cx": "20", "cy": "13.5", "r": "5"}, False),
    ),
    "tower": (
        (*_BASE, False),
        ("path", {"d": "M14,30.5 H26 L24.8,16 H15.2 Z"}, False),
        ("path", {"d": "M12.5,16 H27.5 V8 H24 V11 H21.8 V8 H18.2 V11 H16 V8 H12.5 Z"}, False),
    ),
    "mitre": (
        (*_BASE, False),
        ("path", {"d": "M14.5,30.5 Q12,21 20,10.5 Q28,21 25.5,30.5 Z"}, False),
        ("circle", {"cx": "20", "cy": "8", "r": "2.4"}, False),
        ("path", {"d": "M17.5,17.5 L22.5,22.5", "fill": "none"}, True),
    ),
    "horse": (
        ("path", {"d": "M12,34 H30 Q30.5,23 27,16 Q24,9.5 18,8 L16.5,4.5 L14.5,9 Q10.5,12 9.5,19 L8.5,23 Q9.5,26.5 13,25 L17.5,21.5 Q19.5,22 18.5,25 Q13,29 12,34 Z"}, False),
        ("circle", {"cx": "15.5", "cy": "13.5", "r": "1.3"}, True),
    ),
    "crown": (
        (*_BASE, False),
        ("path", {"d": "M12,30.5 L8.5,13.5 L15,23 L16.8,10.5 L20,22 L23.2,10.5 L25,23 L31.5,13.5 L28,30.5 Z"}, False),
        ("circle", {"cx": "8.5", "cy": "12", "r": "2"}, False),
        ("circle", {"cx": "16.8", "cy": "9", "r": "2"}, False),
        ("circle", {"cx": "23.2", "cy": "9", "r": "2"}, False),
        ("circle", {"cx": "31.5", "cy": "12", "r": "2"}, False),
    ),
    "cross-crown": (
        (*_BASE, False),
        ("path", {"d": "M12,30.5 Q7.5,21 13.5,17.5 Q18,15.5 20,20.5 Q22,15.5 26.5,17.5 Q32.5,21 28,30.5 Z"}, False),
        ("path", {"d": "M18.5,3.5 H21.5 V7 H25 V10 H21.5 V17 H18.5 V10 H15 V7 H18.5 Z"}, False),
    ),
    "disc": (("circle", {"cx": "20", "cy": "20", "r": "15"}, False),),
    "stone": (
        ("circle", {"cx": "20", "cy": "20", "r": "16.5"}, False),
        ("path", {"d": "M11.5,17 Q13,11 19,10", "fill": "none", "stroke": "#ffffff", "stroke-opacity": "0.45", "stroke-width": "2"}, False),
    ),
    "ringed-disc": (
        ("circle", {"cx": "20", "cy": "20", "r": "15.5"}, False),
        ("circle", {"cx": "20", "cy": "20", "r": "10.5", "fill": "none"}, True),
    ),
    "crowned-disc": (
        ("circle", {"cx": "20", "cy": "20", "r": "15.5"}, False),
        ("circle", {"cx": "20", "cy": "20", "r": "12", "fill": "none"}, True),
        ("path", {"d": "M13.5,24.5 L12.5,15 L16.8,19.5 L20,12.5 L23.2,19.5 L27.5,15 L26.5,24.5 Z"}, True),
    ),
    "cross": (("path", {"d": "M9,13 L13,9 L20,16 L27,9 L31,13 L24,20 L31,27 L27,31 L20,24 L13,31 L9,27 L16,20 Z"}, False),),
    "ring": (("path", {"d": "M20,6 A14,14 0 1 1 19.99,6 Z M20,12 A8,8 0 1 0 20.01,12 Z", "fill-rule": "evenodd"}, False),),
    "meeple": (
        ("path", {"d": "M20,5 C23.5,5 25,7.5 25,10 C25,12 24,13.5 23,14 L32,17 C34,18 34,21 32,22 L26,23 L30,33 C30.5,35 29,35 28,35 L23,35 L20,29 L17,35 L12,35 C11,35 9.5,35 10,33 L14,23 L8,22 C6,21 6,18 8,17 L17,14 C16,13.5 15,12 15,10 C15,7.5 16.5,5 20,5 Z"}, False),
    ),
}


def detail(fill: str) -> str:
    """The colour of a figure's inner lines: whichever of dark and light reads on ``fill``."""
    return DARK if contrast(fill, DARK) >= contrast(fill, LIGHT) else LIGHT


def outline(fill: str, ground: str) -> str:
    """The line round a piece of colour ``fill`` standing on ``ground``: dark, unless the
    fill itself is too close to the ground and a light line stands out more."""
    if contrast(fill, ground) >= MIN_CONTRAST:
        return DARK
    return DARK if contrast(DARK, ground) >= contrast(LIGHT, ground) else LIGHT


def visible(fill: str, ground: str) -> bool:
    """Whether a piece of ``fill`` with its ``outline`` stands out from ``ground``."""
    return max(contrast(fill, ground), contrast(outline(fill, ground), ground)) >= MIN_CONTRAST


def draw_figure(parent: ET.Element, figure: str, cx: float, cy: float, size: float, fill: str, ground: str, attrs: dict) -> ET.Element:
    """``figure`` centred at (cx, cy) in a box of ``size`` pixels, painted to stand out on
    ``ground``; ``attrs`` go on its group (class, data-*)."""
    k = size / 40.0
    line = outline(fill, ground)
    g = sub(parent, "g", {**attrs, "data-figure": figure, "fill": fill, "stroke": line, "stroke-width": "1.5", "stroke-linejoin": "round", "transform": f"translate({fmt(cx - 20 * k)},{fmt(cy - 20 * k)}) scale({k:.3f})"})
    inner = detail(fill)
    for tag, a, is_detail in SHAPES[figure]:
        part = dict(a)
        if is_detail:
            part["stroke"] = inner
            part["stroke-width"] = "1.6"
            if "fill" not in part:
                part["fill"] = inner
        sub(g, tag, part)
    return g


# the pips of a die's face, in a 28 x 28 die: the usual layouts of one to six
PIPS = {
    1: ((14, 14),),
    2: ((8, 8), (20, 20)),
    3: ((8, 8), (14, 14), (20, 20)),
    4: ((8, 8), (20, 8), (8, 20), (20, 20)),
    5: ((8, 8), (20, 8), (14, 14), (8, 20), (20, 20)),
    6: ((8, 7), (20, 7), (8, 14), (20, 14), (8, 21), (20, 21)),
}

__all__ = ["SHAPES", "PIPS", "MIN_CONTRAST", "draw_figure", "outline", "detail", "visible"]
