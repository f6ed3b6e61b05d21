"""Player colours, one table for every picture: the SVG (``midgardc.render.svg``) and the
terminal board (``midgardc.runtime.view``) both read a seat's colour from here.

A colour is a name from ``NAMED`` or ``#rrggbb``. A player named after a colour is drawn
in it; the spec's ``render.colors`` may give any player a colour; every other player gets
the first colour of ``PALETTE`` whose family no other player has taken.
"""

from __future__ import annotations

import re
from typing import Mapping, Optional, Sequence

# name: (SVG fill, terminal colour for click.style: a name or an xterm-256 index, family)
NAMED: dict[str, tuple[str, object, str]] = {
    "blue": ("#2f6db5", "blue", "blue"),
    "green": ("#4f9a3a", "green", "green"),
    "red": ("#c0392b", "red", "red"),
    "yellow": ("#d4ac0d", "yellow", "yellow"),
    "purple": ("#8e44ad", "magenta", "purple"),
    "violet": ("#9b59b6", 135, "purple"),
    "magenta": ("#c2185b", "bright_magenta", "magenta"),
    "teal": ("#16a085", "cyan", "teal"),
    "cyan": ("#17a2b8", "bright_cyan", "teal"),
    "grey": ("#7f8c8d", 244, "grey"),
    "gray": ("#7f8c8d", 244, "grey"),
    "silver": ("#bdc3c7", 250, "grey"),
    "slate": ("#34495e", 60, "slate"),
    "orange": ("#e67e22", 208, "orange"),
    "gold": ("#f1c40f", 220, "yellow"),
    "brown": ("#8b5a2b", 130, "brown"),
    "pink": ("#e84393", 205, "pink"),
    "black": ("#222222", "black", "black"),
    "white": ("#f4f4f4", "bright_white", "white"),
    "navy": ("#1f3a68", 18, "blue"),
    "maroon": ("#7b241c", 88, "red"),
    "lime": ("#7ed957", 119, "green"),
}

# the colours of players who are not named after one, in order (the old seat order)
PALETTE = ("blue", "green", "red", "yellow", "purple", "teal", "grey", "slate", "orange", "brown", "pink")

HEX_RE = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")


def is_colour(value: str) -> bool:
    """Whether ``value`` is a colour: a name from ``NAMED`` or ``#rgb`` / ``#rrggbb``."""
    return value.lower() in NAMED or bool(HEX_RE.match(value))


def normal(value: str) -> str:
    """A colour written one way: a lower-case name, or ``#rrggbb`` in lower case."""
    v = value.lower()
    if v in NAMED:
        return v
    if not HEX_RE.match(v):
        raise ValueError(f"not a colour: {value!r}")
    if len(v) == 4:
        v = "#" + "".join(ch * 2 for ch in v[1:])
    return v


def family(colour: str) -> str:
    return NAMED[colour][2] if colour in NAMED else colour


def choose(players: Sequence[str], explicit: Optional[Mapping[str, str]] = None) -> tuple[str, ...]:
    """Each player's colour: the spec's explicit colour, else the colour the player is named
    after, else the first palette colour whose family is not taken (cycling when the
    palette runs out)."""
    explicit = {p: normal(c) for p, c in (explicit or {}).items()}
    fixed: dict[int, str] = {}
    for i, p in enumerate(players):
        if p in explicit:
            fixed[i] = explicit[p]
        elif p.lower() in NAMED:
            fixed[i] = p.lower()
    taken = {family(c) for c in fixed.values()}
    free = [c for c in PALETTE if family(c) not in taken] or list(PALETTE)
    out = []
    k = 0
    for i in range(len(players)):
        if i in fixed:
            out.append(fixed[i])
        else:
            out.append(free[k % len(free)])
            k += 1
    return tuple(out)


def fill(colour: str) -> str:
    """The SVG fill (``#rrggbb``) of a colour."""
    return NAMED[colour][0] if colour in NAMED else normal(colour)


def _xterm(hexcolour: str) -> int:
    """The nearest colour of the xterm-256 colour cube."""
    r, g, b = (int(hexcolour[i : i + 2], 16) for i in (1, 3, 5))
    steps = [0, 95, 135, 175, 215, 255]

    def near(v: int) -> int:
        return min(range(6), key=lambda i: abs(steps[i] - v))

    return 16 + 36 * near(r) + 6 * near(g) + near(b)


def terminal_style(colour: str) -> dict:
    """Keyword arguments for ``click.style`` that draw a glyph in this colour (black gets a
    light background, so it shows on a dark terminal)."""
    fg = NAMED[colour][1] if colour in NAMED else _xterm(normal(colour))
    style: dict = {"fg": fg, "bold": True}
    if colour == "black":
        style["bg"] = "white"
    return style


def seat_colours(ir) -> tuple[str, ...]:
    """The colours of an IR's seats (those lowered from the spec, or chosen by name)."""
    cs = getattr(ir.render, "colours", ())
    return tuple(cs) if len(cs) == ir.n_players else choose(ir.players)


def luminance(hexcolour: str) -> float:
    """WCAG 2.x relative luminance of ``#rrggbb`` (sRGB channels linearised, then weighted
    0.2126, 0.7152, 0.0722: https://www.w3.org/TR/WCAG21/#dfn-relative-luminance)."""

    def lin(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(int(hexcolour[i : i + 2], 16)) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two ``#rrggbb`` colours, 1 to 21 (lighter + 0.05 over darker
    + 0.05: https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)
