"""``render.glyphs``: the one character each player's pieces are drawn as, or one per kind
of piece (``midgardc.ir.present.piece_glyph``), so that a board of several kinds reads as
one grid, the way players write it:

    render:
      glyphs: {white: W, black: B}                          # a glyph per player
      glyphs:                                               # or a glyph per kind of piece
        black: {man: b, king: B}
        white: {man: w, king: W}

With several kinds of piece and no glyph per kind, a spec whose ``position:`` notation has
a ``board`` field draws each piece by its letter there (a letter per owner and kind: upper
case for one player, lower case for the other, say), so the board ``show`` draws is the
one a position text writes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from ..errors import SpecError, did_you_mean
from ..ir.position import BoardField
from .yamlpos import YMap

if TYPE_CHECKING:  # pragma: no cover
    from .context import Lowering

EMPTY = "."  # an empty cell's glyph


def _glyph(lw: "Lowering", node: Any) -> str:
    glyph = lw.scalar(node, str, "a glyph")
    if len(glyph) != 1 or not glyph.isprintable() or glyph.isspace():
        raise SpecError(f"a glyph is one printable character, not '{glyph[:20]}'", node.pos)
    return glyph


def lower_glyphs(lw: "Lowering", body: Optional[dict], position: Any) -> tuple[list[str], tuple[tuple[str, ...], ...]]:
    """(a glyph per seat, a glyph per seat and kind or ()) from ``render.glyphs``, else
    from the position notation's piece letters."""
    glyphs = [p[0].upper() for p in lw.players]
    kinds = list(lw.kinds)
    node = body.get("glyphs") if body else None
    if node is None:
        return glyphs, _from_position(lw, position)
    if not isinstance(node, YMap):
        raise SpecError("render.glyphs maps player names to one-character glyphs, or to a glyph per kind of piece ({king: K, ...})", node.pos)
    per_kind: dict[int, tuple[str, ...]] = {}
    said: dict[str, tuple[str, str]] = {}  # glyph -> (player, kind) that has it
    mode = None
    for p, v in node.items.items():
        if p in lw.unseated:
            continue
        if p not in lw.players:
            raise SpecError(f"unknown player '{p}'", node.key_pos[p], did_you_mean(p, lw.players))
        seat = lw.players.index(p)
        if mode is not None and mode != isinstance(v, YMap):
            raise SpecError("render.glyphs: give every player a glyph per kind of piece, or every player one glyph (not some of each)", node.key_pos[p])
        mode = isinstance(v, YMap)
        if not mode:
            glyphs[seat] = _glyph(lw, v)
            continue
        if not kinds:
            raise SpecError("render.glyphs: the spec has no kinds of piece to give glyphs to", v.pos)
        row: dict[int, str] = {}
        for k, g in v.items.items():
            if k not in kinds:
                raise SpecError(f"render.glyphs: unknown kind of piece '{k}'", v.key_pos[k], did_you_mean(k, kinds))
            glyph = _glyph(lw, g)
            if glyph == EMPTY:
                raise SpecError(f"render.glyphs: '{EMPTY}' is an empty cell's glyph; give {p}'s {k} another", g.pos)
            if glyph in said:
                raise SpecError(f"render.glyphs: '{glyph}' is already {said[glyph][0]}'s {said[glyph][1]}; each piece needs a glyph of its own", g.pos)
            said[glyph] = (p, k)
            row[kinds.index(k)] = glyph
        missing = [k for i, k in enumerate(kinds) if i not in row]
        if missing:
            raise SpecError(f"render.glyphs: {p} has no glyph for {', '.join(missing)} (give every kind of piece one)", v.pos)
        per_kind[seat] = tuple(row[i] for i in range(len(kinds)))
    if not per_kind:
        return glyphs, ()
    missing = [p for i, p in enumerate(lw.players) if i not in per_kind]
    if missing:
        raise SpecError(f"render.glyphs: no glyphs for {', '.join(missing)}'s pieces (give every player a glyph per kind)", node.pos)
    return glyphs, tuple(per_kind[i] for i in range(len(lw.players)))


def _from_position(lw: "Lowering", position: Any) -> tuple[tuple[str, ...], ...]:
    """Each piece's letter in the position notation's board field, when the game has
    several kinds of piece and the notation names every (owner, kind) (the first letter
    of each when it names one twice)."""
    n_kinds = len(lw.kinds)
    if position is None or n_kinds < 2:
        return ()
    for f in position.fields:
        if not isinstance(f, BoardField):
            continue
        letter: dict[int, str] = {}
        for text, piece in sorted(f.pieces, key=lambda tp: len(tp[0])):  # (Q before Q~)
            if text[0] != EMPTY:
                letter.setdefault(piece, text[0])  # (a marked letter, Q~, draws as its letter)
        pieces = range(1, len(lw.players) * n_kinds + 1)
        if all(pc in letter for pc in pieces):
            return tuple(tuple(letter[1 + seat * n_kinds + k] for k in range(n_kinds)) for seat in range(len(lw.players)))
    return ()
