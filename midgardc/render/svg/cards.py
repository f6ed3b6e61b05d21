"""Items as cards: every item place (the ``deck:`` section's decks, face-up items and
discard piles; every zone of ``zones:``, per owner) drawn as a labelled row of cards. A
place the viewer sees shows its items face up (``data-item``: the item as written in
moves); one it does not see is a face-down back with a count (its size is public).

A card is named by its label (``render.labels``, else the text moves write it by). A place
holding a card with a text of its own (``render.card_text``) is drawn as the table shows
cards: two to a row, each with its name, the code moves write it by in its corner (where
that differs from the name) and its text under them, wrapped to the card's width; the
cards of a row are as tall as its longest, so they line up. The panel keeps its
width: long texts make it taller, never wider (the board beside it keeps its size)."""

from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET

from ...runtime.observe import GAME, places
from .common import PANEL_WIDTH, fmt, sub, text
from .seen import Seen, present_of

CARD_W, CARD_H = 52.0, 20.0
MAX_SHOWN = 24  # cards drawn face up per place (the rest are counted)
CHAR_W = 5.2  # the width of one character of a card's 9 px text, about
MAX_CHARS = 30  # a card's name is cut after this many characters
# cards with a text (render.card_text): FACE_COLUMNS to a row; characters of the 10 px bold
# name, the 8 px code and the 9 px text, about (px; where lines wrap), and line heights
FACE_COLUMNS = 2
NAME_CHAR, CODE_CHAR, RULE_CHAR = 5.8, 4.6, 4.5
NAME_LINE, RULE_LINE = 12.0, 10.5
PAD = 4.0  # px: a face's text from the card's edge


def card_width(words: list[str]) -> float:
    """A card wide enough for the longest name it shows (a card with its rulebook name, not
    a cut-off code), at least the usual card and at most the panel."""
    longest = max((min(len(w), MAX_CHARS) for w in words), default=0)
    return max(CARD_W, min(PANEL_WIDTH - 16, longest * CHAR_W + 10))


def face_lines(name: str, code: str, rule: str, width: float) -> tuple[list[str], list[str]]:
    """A face's name and text, wrapped to a card ``width`` wide (the name beside its code)."""
    room = width - 2 * PAD
    name_room = room - (len(code) * CODE_CHAR + 4 if code else 0)
    names = textwrap.wrap(name, max(4, int(name_room / NAME_CHAR))) or [""]
    return names, textwrap.wrap(rule, max(8, int(room / RULE_CHAR)))


def draw_faces(g: ET.Element, faces: list[tuple[str, str, str, str]], h: float) -> float:
    """Cards with their name, code and text (``faces``: item text, name, code or "", text),
    FACE_COLUMNS to a row from ``h`` down in ``g``, the cards of a row as tall as its
    longest; returns the height drawn below ``h``."""
    width = (PANEL_WIDTH - 16 - 3 * (FACE_COLUMNS - 1)) / FACE_COLUMNS
    laid = [(item, code, *face_lines(name, code, rule, width)) for item, name, code, rule in faces]
    top = h
    for first in range(0, len(laid), FACE_COLUMNS):
        row = laid[first : first + FACE_COLUMNS]
        height = max(PAD + NAME_LINE * len(names) + RULE_LINE * len(rules) + (PAD if rules else 2) for _, _, names, rules in row)
        for col, (item, code, names, rules) in enumerate(row):
            card = sub(g, "g", {"class": "item face", "data-item": item, "transform": f"translate({fmt(col * (width + 3))},{fmt(top)})"})
            sub(card, "rect", {"class": "card", "x": "0", "y": "0", "width": fmt(width), "height": fmt(height), "rx": "3"})
            sub(card, "title", text=" ".join(names) + (f" ({code})" if code else "") + ("\n" + " ".join(rules) if rules else ""))
            for k, line in enumerate(names):
                text(card, PAD, PAD + 9 + k * NAME_LINE, line, "card-name")
            if code:
                text(card, width - PAD, PAD + 8, code, "card-code", "end")
            for k, line in enumerate(rules):
                text(card, PAD, PAD + NAME_LINE * len(names) + 8 + k * RULE_LINE, line, "card-rule")
        top += height + 3
    return top - h + 3


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
        shown = [pr.item_label(ir.item_names[k], texts[k]) for k in items]
        rules = [pr.card_text(ir.item_names[k]) for k in items]
        if any(rules):  # cards with a text of their own: faces as the table shows them
            h += draw_faces(g, [(texts[k], word, texts[k] if texts[k] != word else "", rule) for k, word, rule in zip(items, shown, rules)], h)
            if len(place.items) > MAX_SHOWN:
                text(g, 0, h + 9, f"+ {len(place.items) - MAX_SHOWN} more", "count")
                h += 13
            y += h
            continue
        width = card_width(shown)
        per_row = max(1, int((PANEL_WIDTH - 16) // (width + 3)))
        for i, k in enumerate(items):
            row, col = divmod(i, per_row)
            word = shown[i]
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
