"""SVG pictures of a position as one viewer sees it, for every board topology (python-chess's
chess/svg.py is the model), built with ElementTree (names from a spec are always escaped).

``render_svg(state, viewer)`` draws what ``viewer`` observes (``runtime.observe``): a seat
sees its own hidden items and counters, a spectator (``None``) what is public, and
everything once the game is over. The board is on the left (``board``): every cell is one
element (``polygon``, or ``circle`` on a graph board) with class ``cell`` plus ``empty``,
``p<seat> player-<name>`` or ``s<state> state-<name>``, its name in ``data-cell`` and a
``<title>``; regions are outlined and labelled, marked cells ringed. On the right: the
players (pieces in hand, counters, scores; ``data-track``), tracks with markers, places
off the board holding pieces (``data-place``), dice, and items as cards (``data-item``;
hidden places as backs with a count). Labels are the spec's ``render.labels``; counters in
``render.internal`` are never drawn. The HTML report's replays show these same pictures
(``frame_parts``).
"""

from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING, Optional

from .areas import draw_dice, draw_place, draw_place_at, draw_track
from .board import board_shapes, cell_looks, draw_board, kind_letters, look_class, look_fill, look_glyph, wraps
from .cards import draw_cards
from .common import EMPTY_FILL, MARGIN, NODE_RADIUS, PANEL_WIDTH, PLAYER_FILLS, STATE_FILLS, SVG_NS, player_fills, style_sheet, sub
from .panels import draw_game_counters, draw_legend, draw_players, status_text, track_labels, track_values
from .seen import SPECTATOR, Seen, present_of, seen

MIN_BOARD_AREA = 260.0  # the board's column is at least this wide: the status line fits
STATUS_CHAR = 7.0  # px: a character of the status line (13 px sans-serif), at most: where it wraps
STATUS_LINE = 16.0  # px between its lines

if TYPE_CHECKING:  # pragma: no cover
    from ...runtime.game import State


def board_svg(view: Seen, element_id: str = "board") -> ET.Element:
    """The picture of one position as ``view``'s viewer sees it."""
    ir = view.ir
    pr = present_of(ir)
    shapes, bw, bh = board_shapes(ir)
    svg = ET.Element("svg", {"xmlns": SVG_NS, "id": element_id, "class": "board", "font-family": "sans-serif", "data-topology": ir.board.topology})
    who = "" if view.viewer == SPECTATOR else f" — as seen by {ir.players[view.viewer]}"
    sub(svg, "title", text=ir.title + (f" [{ir.variant}]" if ir.variant else "") + who)
    sub(svg, "style", text=style_sheet(ir))
    draw_board(svg, view, shapes, bw, bh)
    for pl in pr.places:
        if pl.cell >= 0:  # a place standing on a board node
            draw_place_at(svg, view, pl, shapes[pl.cell].centre, NODE_RADIUS * 1.6)
    x0 = max(bw, MIN_BOARD_AREA) + 8  # (a tiny board still leaves room for the status line)
    y = draw_players(svg, view, x0, 24.0)
    y = draw_game_counters(svg, view, x0, y)
    y = draw_dice(svg, view, x0, y)
    for t in pr.tracks:
        y = draw_track(svg, view, t, x0, y)
    for pl in pr.places:
        if pl.cell < 0:
            y = draw_place(svg, view, pl, x0, y)
    y = draw_cards(svg, view, x0, y)
    y = draw_legend(svg, ir, x0, y + 4)
    width = max(bw, MIN_BOARD_AREA) + PANEL_WIDTH
    # the status line under the board; how a game ended (its reason, its tie-break) in
    # lines that stay in the board's column (the web page shows the board and the first
    # line, and says how a game ended in a banner of its own)
    status = status_text(view.state)
    lines = textwrap.wrap(status, int((max(bw, MIN_BOARD_AREA) - MARGIN) / STATUS_CHAR)) if view.state.is_terminal() else [status]
    height = max(bh + 28.0 + STATUS_LINE * (len(lines) - 1), y + 12.0)
    svg.set("viewBox", f"0 0 {width:.0f} {height:.0f}")
    svg.set("data-board-box", f"0 0 {bw:.0f} {bh + 28:.0f}")  # the board alone (the web page draws it apart from the panel)
    svg.set("width", f"{width:.0f}")
    svg.set("height", f"{height:.0f}")
    line = sub(svg, "text", {"id": f"{element_id}-status", "class": "status", "x": MARGIN, "y": f"{bh + 14:.1f}"}, lines[0] if len(lines) == 1 else None)
    if len(lines) > 1:
        for i, words in enumerate(lines):
            sub(line, "tspan", {"x": MARGIN, "dy": "0" if i == 0 else str(STATUS_LINE)}, words)
    return svg


_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\n": "&#10;"})


def _xml(el: ET.Element, out: list[str]) -> None:
    """``el`` as XML text (the pictures use no namespaces but the root's plain ``xmlns``
    attribute, so this is ElementTree's output without its namespace bookkeeping)."""
    attrs = "".join(f' {k}="{str(v).translate(_ESCAPES)}"' for k, v in el.attrib.items())
    if not len(el) and not el.text:
        out.append(f"<{el.tag}{attrs} />")
        return
    out.append(f"<{el.tag}{attrs}>")
    if el.text:
        out.append(el.text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
    for child in el:
        _xml(child, out)
        if child.tail:
            out.append(child.tail.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
    out.append(f"</{el.tag}>")


def to_text(svg: ET.Element) -> str:
    out: list[str] = []
    _xml(svg, out)
    return "".join(out)


def _piece(el: ET.Element) -> str:
    out: list[str] = []
    _xml(el, out)
    return "".join(out)


def render_svg(state: "State", viewer: Optional[int] = None, element_id: str = "board") -> str:
    """An SVG picture of ``state`` as seat ``viewer`` sees it (None: a spectator, who sees
    what is public, and everything once the game is over)."""
    return to_text(board_svg(seen(state, viewer), element_id))


def _open_tag(el: ET.Element) -> str:
    attrs = "".join(f' {k}="{str(v).translate(_ESCAPES)}"' for k, v in el.attrib.items())
    return f"<{el.tag}{attrs}>"


def frame_parts(state: "State", viewer: Optional[int] = None, element_id: str = "board") -> list[str]:
    """The picture as pieces of text whose concatenation is the whole SVG: the opening and
    closing tags of the picture and of every group in it, and every other element whole,
    so that pictures of consecutive positions share most pieces (the report's replays store
    each distinct piece once and each frame as the list of its pieces)."""
    svg = board_svg(seen(state, viewer), element_id)
    out: list[str] = []

    def walk(el: ET.Element) -> None:
        if el.tag in ("svg", "g") and len(el) and not el.text:
            out.append(_open_tag(el))
            for child in el:
                walk(child)
            out.append(f"</{el.tag}>")
        else:
            out.append(_piece(el))

    walk(svg)
    return out


__all__ = [
    "render_svg",
    "board_svg",
    "frame_parts",
    "to_text",
    "track_labels",
    "track_values",
    "status_text",
    "cell_looks",
    "kind_letters",
    "look_class",
    "look_fill",
    "look_glyph",
    "wraps",
    "player_fills",
    "PLAYER_FILLS",
    "STATE_FILLS",
    "EMPTY_FILL",
]
