"""How a game is presented to people (``render:`` beyond glyphs and colours): regions of
cells outlined and labelled, places off the board holding pieces, tracks with markers,
cells marked by a condition, the names shown for counters, zones, pieces and items, the
short text printed on a card, and the counters nobody is shown. Pictures read this
(``midgardc.render.svg``); rules never do.

Quantities are expressions of the spec's condition language: ``p`` is a player (a place's
or a track's per-player count), ``c`` a cell (a marked cell). They are evaluated on a
state by the reference interpreter's expressions, whichever back end made the state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from .nodes import Expr


# the built-in piece figures (``render.figures``), named by what they show: six carved
# figures, flat discs plain, ringed or crowned, round stones, meeples, crosses and rings
FIGURES = ("cross-crown", "crown", "tower", "mitre", "horse", "pawn", "ringed-disc", "crowned-disc", "stone", "disc", "meeple", "cross", "ring")
BOARD_STYLES = ("cells", "checkered", "lines")
# how a highlighted cell is marked: a ring (in the player's colour with ``of: player``), or
# an alert, a red glow under the piece for a threat the rules name (a piece the rules say is attacked)
# a side, the cell's edges on the board's outline drawn thick (each player's sides to join)
HIGHLIGHT_STYLES = ("ring", "alert", "side")


@dataclass(frozen=True)
class RegionIR:
    """A named set of cells drawn outlined and labelled; ``marks``: (cell, word) drawn as a
    marked cell inside it (e.g. a starred cell that scores more)."""

    label: str
    cells: tuple[int, ...]
    marks: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True)
class PlaceIR:
    """An area off the board holding pieces: per player, ``holds`` (kind, count in p). A
    place may stand for a board node (``cell``, else -1): it is drawn there."""

    name: str
    label: str
    holds: tuple[tuple[int, Expr], ...]
    cell: int = -1
    # the seat the place belongs to (a player's pool): its counters hidden from the others
    # are hidden by that seat's, not by the pieces' owner's (-1: each player's pieces' own)
    seat: int = -1


@dataclass(frozen=True)
class TrackIR:
    """A numbered track ``lo..hi`` with markers: one per player (``per_player``, in p), and
    named ones (``markers``: label, expression without p)."""

    name: str
    label: str
    lo: int
    hi: int
    per_player: Optional[Expr] = None
    markers: tuple[tuple[str, Expr], ...] = ()


@dataclass(frozen=True)
class HighlightIR:
    """Cells marked by a condition in c (and, ``per_player``, in p: marked in p's colour),
    as a ring, ``style`` "alert" a red glow, or "side" its edges on the board's outline
    drawn thick (HIGHLIGHT_STYLES)."""

    label: str
    when: Expr
    per_player: bool = False
    style: str = "ring"


@dataclass(frozen=True)
class PresentIR:
    internal: tuple[int, ...] = ()  # counters never shown to people
    labels: tuple[tuple[str, str], ...] = ()  # a name of the spec -> the rulebook's name
    regions: tuple[RegionIR, ...] = ()
    places: tuple[PlaceIR, ...] = ()
    tracks: tuple[TrackIR, ...] = ()
    highlights: tuple[HighlightIR, ...] = ()
    hide_hand: bool = False  # the pieces in hand are shown by places instead
    neutral: tuple[int, ...] = ()  # kinds of piece that belong to nobody on the table
    # a glyph per kind of piece, per seat (render.glyphs: {player: {kind: glyph}}, or the
    # letters of the spec's position notation); () : a glyph per player only
    kind_glyphs: tuple[tuple[str, ...], ...] = ()
    # render.board: how the table looks under the pieces. "cells": every cell a shape,
    # filled by its owner's colour (territory games); "checkered": light and dark squares
    # (``ground`` and ``dark``); "lines": pieces on the intersections of lines (``line``)
    # drawn over ``ground``, with star points (``points``, cells) marked
    board_style: str = "cells"
    ground: str = ""  # the colour of an empty cell ("" : white), the light squares
    dark: str = ""  # the dark squares of a checkered board
    line: str = ""  # the lines of a lines board
    hole: str = ""  # an empty cell drawn as a round hole of this colour (a frame's holes)
    points: tuple[int, ...] = ()
    # render.figures: per kind of piece, the built-in figure it is drawn as ("": none; the
    # piece fills its cell, or on a checkered or lines board is a plain disc)
    figures: tuple[str, ...] = ()
    # a figure per seat and kind where the spec gives one per player ({mark: {x: cross,
    # o: ring}}): () or, per seat, per kind ("" : the kind's figure above)
    seat_figures: tuple[tuple[str, ...], ...] = ()
    move_plies: int = 1  # plies the rulebook counts as one move (render.move_plies; 2: one of each side)
    # render.card_text: an item's name -> the short text on its face (what the card does, in
    # the rulebook's words), drawn on the card under its name
    card_texts: tuple[tuple[str, str], ...] = ()
    # render.revealed_at_end: counters every seat's picture and page show once the game is
    # over, where the rules put them on the table then (the cups lifted after a challenge);
    # observations are unchanged
    revealed_at_end: tuple[int, ...] = ()

    def label(self, name: str) -> str:
        for k, v in self.labels:
            if k == name:
                return v
        if name.endswith("]") and "[" in name:  # an array's element: its array's label, indexed by its value's
            head, sub = name[:-1].split("[", 1)
            shown, index = self.label(head), self.label(sub)
            return name if (shown, index) == (head, sub) else f"{shown} [{index}]"
        return name

    def item_label(self, name: str, text: str) -> str:
        """The name an item is shown by: its label (given for the item's name, or for the
        text moves write it by), else that text: a card read as the table reads it, with
        the code of the move notation only where the spec names nothing better."""
        for k, v in self.labels:
            if k == name:
                return v
        return self.label(text)

    def card_text(self, name: str) -> str:
        """The short text on an item's face (``render.card_text``; "" : none)."""
        return dict(self.card_texts).get(name, "")


def piece_glyph(ir, piece: int) -> str:
    """The one character a piece (id > 0) is drawn as: its kind's glyph for its owner
    when the spec gives a glyph per kind, else its owner's glyph."""
    owner = ir.piece_owner(piece)
    present = ir.render.present
    if present is not None and present.kind_glyphs:
        return present.kind_glyphs[owner][ir.piece_kind(piece)]
    return ir.render.piece_glyphs[owner]


_HAND_KINDS: dict[int, tuple[object, tuple[int, ...]]] = {}  # id(ir) -> (ir kept alive, its kinds)


def hand_kinds(ir) -> list[int]:
    """The kinds the pictures list in each hand: those some hand starts with and, in a
    spec where captured pieces change side into the captor's hand (``captor``), every
    kind a piece is in a hand (its own base): a hand that fills only by captures starts empty.
    Found once per IR (by identity: an IR's hash walks the whole tree): the search for a
    captor walks every rule, and a picture asks for each seat's panel (that walk was most
    of a picture's time, 0.13 s of 0.15 on a card game)."""
    hit = _HAND_KINDS.get(id(ir))
    if hit is None or hit[0] is not ir:
        from .analysis import contains
        from .nodes import MovePiece, Remove

        captor = contains((ir.actions, ir.triggers, ir.end, ir.start_effects), lambda x: isinstance(x, MovePiece) and x.capture == "captor" or isinstance(x, Remove) and x.to == "captor")
        kinds = tuple(k for k in range(ir.n_kinds) if any(h[k] for h in ir.hand_init) or captor and ir.base_of(k) == k)
        hit = _HAND_KINDS[id(ir)] = (ir, kinds)
    return list(hit[1])


def has_kind_glyphs(ir) -> bool:
    """Whether every piece is drawn by a glyph of its own (owner and kind)."""
    return ir.render.present is not None and bool(ir.render.present.kind_glyphs)


def scored_counters(ir) -> frozenset[int]:
    """The per-player counters a ranking key of the same name shows as they are
    (``ranking: {score: score(p)}``): the text board lists them once, with the scores."""
    from .nodes import Call, Const, Local

    out = set()
    for key in ir.ranking:
        e = key.expr
        if isinstance(e, Call) and e.fn == "counter" and len(e.args) == 2 and isinstance(e.args[0], Const) and isinstance(e.args[1], Local) and e.args[1].name == "p":
            i = e.args[0].value
            if 0 <= i < len(ir.counters) and ir.counters[i] == key.name:
                out.add(i)
    return frozenset(out)
