"""Places off the board holding pieces, numbered tracks with markers, and dice."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from ...ir.dice import into_of
from ...ir.present import PlaceIR, TrackIR, has_kind_glyphs, piece_glyph
from .board import kind_letters
from .figures import PIPS
from .common import PANEL_WIDTH, fmt, player_fills, sub, text, text_fill
from .seen import Seen, present_of

SPACE = 20.0  # a track's space
TOKEN = 6.0  # a piece token's radius


def _holdings(view: Seen, pl: PlaceIR) -> list[tuple[int, int, Any]]:
    """(seat, kind, count or None when hidden) of every piece the place holds, by seat."""
    out = []
    for p in range(view.ir.n_players):
        for kind, expr in pl.holds:
            if not view.expr_seen(expr, pl.seat if pl.seat >= 0 else p):
                out.append((p, kind, None))
                continue
            n = view.value(expr, p=p)
            if n:
                out.append((p, kind, n))
    return out


def _token(parent: ET.Element, view: Seen, x: float, y: float, p: int, kind: int, n: Any) -> None:
    ir = view.ir
    fill = player_fills(ir)[p]
    who = ir.players[p]
    kname = present_of(ir).label(ir.kinds[kind])
    many = ir.n_kinds > 1
    shape = "rect" if many and kind > 0 else "circle"
    if shape == "circle":
        el = sub(parent, "circle", {"class": f"token p{p}", "fill": fill, "cx": fmt(x), "cy": fmt(y), "r": fmt(TOKEN), "data-player": who, "data-kind": ir.kinds[kind]})
    else:  # a second kind of piece: a square token marked with its letter
        el = sub(parent, "rect", {"class": f"token p{p}", "fill": fill, "x": fmt(x - TOKEN - 1), "y": fmt(y - TOKEN - 1), "width": fmt(2 * TOKEN + 2), "height": fmt(2 * TOKEN + 2), "data-player": who, "data-kind": ir.kinds[kind]})
        mark = piece_glyph(ir, 1 + p * ir.n_kinds + kind) if has_kind_glyphs(ir) else kind_letters(ir)[kind][:1]
        text(parent, x, y + 3.5, mark, "count", "middle", fill=text_fill(fill))
    shown = "?" if n is None else str(n)
    sub(el, "title", text=f"{who}: {shown} {kname}")
    text(parent, x + TOKEN + 2, y + 4, f"×{shown}", "count")


def draw_place_at(svg: ET.Element, view: Seen, pl: PlaceIR, centre: tuple[float, float], r: float) -> None:
    """A place that stands on a board node: its label above the node, its pieces inside
    and under it."""
    g = sub(svg, "g", {"class": "place", "data-place": pl.name})
    cx, cy = centre
    text(g, cx, cy - r - 4, pl.label, "area-title", "middle")
    items = _holdings(view, pl)
    per_row = 3
    for i, (p, kind, n) in enumerate(items):
        row, col = divmod(i, per_row)
        x = cx - 40 + col * 32
        y = cy + r + 10 + row * 16
        _token(g, view, x, y, p, kind, n)


def draw_place(svg: ET.Element, view: Seen, pl: PlaceIR, x0: float, y: float) -> float:
    """A place off the board: a labelled area holding the pieces of every player."""
    g = sub(svg, "g", {"class": "place", "data-place": pl.name})
    items = _holdings(view, pl)
    per_row = 6
    rows = max(1, -(-len(items) // per_row))
    h = 22 + rows * 17
    sub(g, "rect", {"class": "area", "x": fmt(x0), "y": fmt(y), "width": fmt(PANEL_WIDTH - 16), "height": fmt(h), "rx": "6"})
    text(g, x0 + 6, y + 14, pl.label, "area-title")
    if not items:
        text(g, x0 + 8, y + 31, "empty", "count")
    for i, (p, kind, n) in enumerate(items):
        row, col = divmod(i, per_row)
        _token(g, view, x0 + 14 + col * 52, y + 28 + row * 17, p, kind, n)
    return y + h + 6


def draw_track(svg: ET.Element, view: Seen, t: TrackIR, x0: float, y: float) -> float:
    """A numbered track, lo..hi, in rows of spaces, with a marker per player and named
    markers (a value past either end stands on the end space, its title says where)."""
    ir = view.ir
    fills = player_fills(ir)
    g = sub(svg, "g", {"class": "track-area", "data-track-name": t.name})
    text(g, x0, y + 11, t.label, "area-title")
    y += 16
    per_row = int((PANEL_WIDTH - 20) // SPACE)
    n = t.hi - t.lo + 1
    spaces = {}
    for i in range(n):
        row, col = divmod(i, per_row)
        sx, sy = x0 + col * SPACE, y + row * (SPACE + 2)
        spaces[t.lo + i] = (sx, sy)
        sub(g, "rect", {"class": "space", "x": fmt(sx), "y": fmt(sy), "width": fmt(SPACE - 1), "height": fmt(SPACE - 1), "data-space": t.lo + i})
        if n <= per_row or (t.lo + i) % 5 == 0 or i == 0:
            text(g, sx + 1.5, sy + 6.5, str(t.lo + i), "space-no")
    markers: list[tuple[str, str, Any]] = []  # (name, fill, value or None)
    if t.per_player is not None:
        for p in range(ir.n_players):
            seen = view.expr_seen(t.per_player, p)
            markers.append((ir.players[p], fills[p], view.value(t.per_player, p=p) if seen else None))
    for label, expr in t.markers:
        markers.append((label, "#34495e", view.value(expr) if view.expr_seen(expr, -1) else None))
    stacked: dict[int, int] = {}
    for k, (name, fill, v) in enumerate(markers):
        if v is None:
            continue
        at = min(max(v, t.lo), t.hi)
        slot = stacked.get(at, 0)
        stacked[at] = slot + 1
        sx, sy = spaces[at]
        cx = sx + 5.5 + (slot % 2) * 8.5
        cy = sy + 10 + (slot // 2) * 5
        el = sub(g, "circle", {"class": "token marker", "fill": fill, "cx": fmt(cx), "cy": fmt(cy), "r": "4.2", "data-marker": name, "data-value": v})
        sub(el, "title", text=f"{t.label}: {name} {v}")
    rows = -(-n // per_row)
    y += rows * (SPACE + 2)
    names = [f"{name} {'?' if v is None else v}" for name, _, v in markers]
    line = sub(g, "text", {"class": "count", "x": fmt(x0), "y": fmt(y + 10)})
    line.text = ", ".join(names)
    return y + 18


def draw_dice(svg: ET.Element, view: Seen, x0: float, y: float) -> float:
    ir = view.ir
    state = view.state
    roll = state.roll() if ir.chance is not None else []
    if ir.chance is None or into_of(ir.chance) is not None:  # a private roll lands in counters: the panel shows it
        return y
    g = sub(svg, "g", {"class": "dice", "data-place": ir.chance.name})
    due = state.is_chance_node()
    text(g, x0, y + 11, f"{present_of(ir).label(ir.chance.name)}" + (" (due)" if due else ""), "area-title")
    y += 16
    if not roll:
        text(g, x0, y + 12, "not rolled yet", "count")
        return y + 20
    for i, face in enumerate(roll):
        x = x0 + i * 34
        sub(g, "rect", {"class": "die", "x": fmt(x), "y": fmt(y), "width": "28", "height": "28", "rx": "5", "data-die": i, "data-face": face})
        if face in ("1", "2", "3", "4", "5", "6"):  # a number a die shows: its pips
            for px, py in PIPS[int(face)]:
                sub(g, "circle", {"class": "pip", "cx": fmt(x + px), "cy": fmt(y + py), "r": "2.6"})
        else:  # a face with a word or a letter on it, in a size that keeps a word on the die
            word = face[:5]
            sized = {"font_size": f"{40 / len(word):.1f}px"} if len(word) > 3 else {}
            text(g, x + 14, y + 18.5, word, "die-face", "middle", **sized)
    return y + 34


__all__ = ["draw_place", "draw_place_at", "draw_track", "draw_dice"]
