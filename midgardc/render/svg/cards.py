"""Items as cards: every item place (the ``deck:`` section's decks, face-up items and
discard piles; every zone of ``zones:``, per owner) drawn as a labelled row of cards. A
place the viewer sees shows its items face up (``data-item``: the item as written in
moves); one it does not see is a face-down back with a count (its size is public)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from ...runtime.observe import GAME, places
from .common import PANEL_WIDTH, fmt, sub, text
from .seen import Seen, present_of

CARD_W, CARD_H = 52.0, 20.0
MAX_SHOWN = 24  # cards drawn face up per place (the rest are counted)


def draw_cards(svg: ET.Element, view: Seen, x0: float, y: float) -> float:
    ir = view.ir
    pr = present_of(ir)
    texts = ir.item_texts
    per_row = int((PANEL_WIDTH - 16) // (CARD_W + 3))
    for place in places(view.state):
        owner = "" if place.owner == GAME else ir.players[place.owner]
        name = f"{place.zone}" + (f":{owner}" if owner else "")
        g = sub(svg, "g", {"class": "zone", "data-place": name, "data-size": len(place.items)})
        title = pr.label(place.zone) + (f" of {pr.label(owner)}" if owner else "")
        shown = view.place(place)
        if not place.items:
            text(g, x0, y + 11, f"{title}: none", "track")
            y += 16
            continue
        text(g, x0, y + 11, f"{title} ({len(place.items)})", "track")
        y += 15
        if not shown:
            sub(g, "rect", {"class": "card back", "x": fmt(x0), "y": fmt(y), "width": fmt(CARD_W), "height": fmt(CARD_H), "rx": "3", "data-count": len(place.items)})
            text(g, x0 + CARD_W / 2, y + 14, f"{len(place.items)}", "card-count", "middle")
            y += CARD_H + 6
            continue
        items = list(place.items)[:MAX_SHOWN]
        for i, k in enumerate(items):
            row, col = divmod(i, per_row)
            cx, cy = x0 + col * (CARD_W + 3), y + row * (CARD_H + 3)
            word = pr.label(texts[k])
            card = sub(g, "g", {"class": "item", "data-item": texts[k]})
            sub(card, "rect", {"class": "card", "x": fmt(cx), "y": fmt(cy), "width": fmt(CARD_W), "height": fmt(CARD_H), "rx": "3"})
            sub(card, "title", text=word)
            text(card, cx + CARD_W / 2, cy + 13.5, word if len(word) <= 10 else word[:9] + "…", "card-text", "middle")
        rows = -(-len(items) // per_row)
        y += rows * (CARD_H + 3) + 3
        if len(place.items) > MAX_SHOWN:
            text(g, x0, y + 9, f"+ {len(place.items) - MAX_SHOWN} more", "count")
            y += 13
    return y
