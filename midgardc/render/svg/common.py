"""What every part of a picture shares: sizes, colours, the style sheet, element helpers."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Optional

from ...ir.colours import PALETTE, seat_colours
from ...ir.colours import fill as colour_fill
from ...ir.nodes import GameIR

SVG_NS = "http://www.w3.org/2000/svg"
# a series of fills for anything drawn per seat or per bot that is not a player of a game
PLAYER_FILLS = [colour_fill(c) for c in PALETTE[:8]]
STATE_FILLS = ["#d0d3d4", "#e8f6fa", "#fdebd0", "#f5eef8"]
EMPTY_FILL = "#ffffff"
NEUTRAL_FILL = "#c8a165"  # a piece that belongs to nobody (render.neutral): wood
SCALE = 40.0  # pixels per board unit (a square's side, a triangle's side, a hexagon's width)
MARGIN = 28.0  # room round the board (axis labels, wrap-around arrows, region labels)
PANEL_WIDTH = 340.0
GRAPH_SPACING = 70.0  # pixels between the closest two linked graph nodes
NODE_RADIUS = 17.0
LINE = 17.0  # one line of panel text


def player_fills(ir: GameIR) -> list[str]:
    """Each seat's fill (``#rrggbb``): a player named after a colour is drawn in it, the
    spec's ``render.colors`` wins, others take the free colours (``midgardc.ir.colours``)."""
    return [colour_fill(c) for c in seat_colours(ir)]


def text_fill(fill: str) -> str:
    """Black or white, whichever reads on ``fill``."""
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return "#222" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#fff"


def fmt(v: float) -> str:
    return f"{v:.1f}"


def sub(parent: ET.Element, tag: str, attrs: Optional[dict] = None, text: Optional[str] = None) -> ET.Element:
    el = ET.SubElement(parent, tag, {k: str(v) for k, v in (attrs or {}).items()})
    if text is not None:
        el.text = text
    return el


def text(parent: ET.Element, x: float, y: float, words: str, cls: str = "track", anchor: str = "start", **attrs: object) -> ET.Element:
    a = {"class": cls, "x": fmt(x), "y": fmt(y)}
    if anchor != "start":
        a["text-anchor"] = anchor
    a.update({k.replace("_", "-"): v for k, v in attrs.items()})
    return sub(parent, "text", a, words)


def style_sheet(ir: GameIR) -> str:
    """Fills per class, so a picture's cells change colour by changing class alone."""
    rules = [f".cell.empty{{fill:{EMPTY_FILL}}}"]
    rules += [f".cell.p{p}{{fill:{f}}}" for p, f in enumerate(player_fills(ir))]
    rules += [f".cell.s{i}{{fill:{STATE_FILLS[i % len(STATE_FILLS)]}}}" for i in range(len(ir.render.empty_states))]
    rules += [
        ".cell{stroke:#555;stroke-width:1}",
        ".edge{stroke:#888;stroke-width:2}",
        ".lines .edge{stroke-width:1.5}",
        ".cells.lines .cell{stroke:none}",
        ".cells.checkered .cell{stroke:none}",
        ".piece,.hole,.lines{pointer-events:none}",
        ".label{font-size:8px;fill:#555;pointer-events:none;paint-order:stroke;stroke:#fff;stroke-width:2px;stroke-opacity:0.8}",
        ".axis{font-size:11px;fill:#444;pointer-events:none}",
        ".glyph{font-size:14px;font-weight:bold;fill:#fff;pointer-events:none}",
        ".wrap{stroke:#c0392b;stroke-width:1.5;stroke-dasharray:6 4;fill:none}",
        ".wrap-arrow{stroke:#c0392b;stroke-width:1.5;fill:none}",
        ".wrap-label{font-size:10px;fill:#c0392b}",
        ".region{fill:none;stroke:#1f3a68;stroke-width:2.5;stroke-linejoin:round;pointer-events:none}",
        ".region.outer{stroke:#7b241c;stroke-width:3.5;stroke-dasharray:9 3}",
        ".region-label{font-size:11px;font-weight:bold;fill:#1f3a68;pointer-events:none;paint-order:stroke;stroke:#fff;stroke-width:3px}",
        ".starred{fill:#f1c40f;stroke:#7d6608;stroke-width:1;pointer-events:none}",
        ".highlight{fill:none;stroke-width:3;pointer-events:none}",
        ".side{fill:none;stroke-width:6;stroke-linecap:round;pointer-events:none}",
        ".alert{pointer-events:none}",
        ".mark-label{font-size:9px;fill:#7b241c;pointer-events:none}",
        ".area{fill:#f8f9f9;stroke:#7f8c8d;stroke-width:1.2}",
        ".area-title{font-size:12px;font-weight:bold;fill:#222}",
        ".space{fill:#fff;stroke:#999;stroke-width:1}",
        ".space-no{font-size:7px;fill:#888;pointer-events:none}",
        ".token{stroke:#222;stroke-width:1}",
        ".count{font-size:10px;fill:#222}",
        ".card{fill:#fffdf5;stroke:#555;stroke-width:1}",
        ".card.back{fill:#5d6d7e;stroke:#2c3e50}",
        ".card-text{font-size:9px;fill:#222;pointer-events:none}",
        ".card-name{font-size:10px;font-weight:bold;fill:#222;pointer-events:none}",
        ".card-code{font-size:8px;fill:#666;pointer-events:none}",
        ".card-rule{font-size:9px;fill:#333;pointer-events:none}",
        ".card-count{font-size:10px;font-weight:bold;fill:#fff;pointer-events:none}",
        ".die{fill:#fff;stroke:#222;stroke-width:1.5}",
        ".die-face{font-size:12px;font-weight:bold;fill:#222}",
        ".pip{fill:#222;pointer-events:none}",
        ".number{font-size:15px;font-weight:bold;fill:#222;pointer-events:none}",
        ".seed{fill:#8a5a2b;stroke:#3b2716;stroke-width:0.6;pointer-events:none}",
        ".bar{fill:#bbb}",
        ".track{font-size:11px;fill:#222}",
        ".player{font-size:13px;font-weight:bold;fill:#222}",
        ".status{font-size:13px;fill:#222}",
    ]
    # scoped to the picture: inside an HTML page a <style> in an <svg> applies to the page
    return "\n".join(f"svg.board {rule}" for rule in rules)
