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
CHAR_W = 5.2  # the width of one character of a card's 9 px text, about
MAX_CHARS = 30  # a card's name is cut after this many characters


def card_width(words: list[str]) -> float:
    """A card wide enough for the longest name it shows (a card with its rulebook name, not
    a cut-off code), at least the usual card and at most the panel."""
    longest = max((min(len(w), MAX_CHARS) for w in words), default=0)
    return max(CARD_W, min(PANEL_WIDTH - 16, longest * CHAR_W + 10))


def draw_cards(svg: ET.Element, view: Seen, x0: float, y: float) -> float:
    """Every item place, one block each (drawn in its own coordinates, moved into place, so
    a block's pieces stay the same text when blocks above it grow)."""
    ir = view.ir
    pr = present_of(ir)
    texts = ir.item_texts
    for place in places(view.state):
        owner = "" if place.owner == GAME else ir.players[place.owner]
        name = f"{place.zone}" + (f":{owner}" if owner else "")
        g = sub(svg, "g", {"class": "zone", "data-place": name, "data-size": len(place.items), "transform": f"translate({fmt(x0)},{fmt(y)})"})
        title = pr.label(place.zone) + (f" of {pr.label(owner)}" if owner else "")
        if not place.items:
            text(g, 0, 11, f"{title}: none", "track")
            y += 16
            continue
        text(g, 0, 11, f"{title} ({len(place.items)})", "track")
        h = 15.0
        if not view.place(place):
            sub(g, "rect", {"class": "card back", "x": "0", "y": fmt(h), "width": fmt(CARD_W), "height": fmt(CARD_H), "rx": "3", "data-count": len(place.items)})
            text(g, CARD_W / 2, h + 14, f"{len(place.items)}", "card-count", "middle")
            y += h + CARD_H + 6
            continue
        items = list(place.items)[:MAX_SHOWN]
        width = card_width([pr.label(texts[k]) for k in items])
        per_row = max(1, int((PANEL_WIDTH - 16) // (width + 3)))
        for i, k in enumerate(items):
            row, col = divmod(i, per_row)
            word = pr.label(texts[k])
            card = sub(g, "g", {"class": "item", "data-item": texts[k], "transform": f"translate({fmt(col * (width + 3))},{fmt(h + row * (CARD_H + 3))})"})
            sub(card, "rect", {"class": "card", "x": "0", "y": "0", "width": fmt(width), "height": fmt(CARD_H), "rx": "3"})
            sub(card, "title", text=word)
            text(card, width / 2, 13.5, word if len(word) <= MAX_CHARS else word[: MAX_CHARS - 1] + "…", "card-text", "middle")
        h += -(-len(items) // per_row) * (CARD_H + 3) + 3
        if len(place.items) > MAX_SHOWN:
            text(g, 0, h + 9, f"+ {len(place.items) - MAX_SHOWN} more", "count")
            h += 13
        y += h
    return y
