"""``render:`` beyond glyphs and colours: how a game looks to people (``midgardc.ir.present``).

    render:
      internal: [doing, left]              # counters never shown to people
      labels: {gems: gems in the vault}    # the rulebook's names for counters, zones, pieces...
                                           # ... actions (dig: dig a tunnel) and their parameters
                                           # (dig.d: depth, or d: depth for every action's d)
      card_text: {raid: "Move up to 2 ships to one harbour."}   # an item's face, under its name
      revealed_at_end: [cup]               # hidden counters every seat is shown once it is over
      regions:                             # cells outlined and labelled
        - {label: North, cells: ["north.*", a1, a2]}
        - {areas: "district {n}", starred: chief town}   # one per scoring area
      places:                              # off the board, holding pieces (per player)
        camp: {label: Camp, at: camp, holds: {soldier: "camp(p)", chief: "chief_at(p) == 1"}}
      tracks:                              # numbered tracks with markers
        score: {label: Score, spaces: "0..50", each: "score(p)"}
        clock: {label: Clock, spaces: "1..9", markers: {hand: hour}}
      highlight:                           # cells marked while a condition holds
        - {label: destroyed, when: "ruined(c)"}
        - {label: marker, when: "marker(p) == num(c)", of: player}
        - {label: check, when: "king_at(c) and attacked(c)", style: alert}   # a red glow
        - {label: your side, when: "edge(c, p)", of: player, style: side}   # the outline, thick
      hand: false                          # the pieces in hand are not listed (places show them)
      neutral: [pawn]                      # pieces that belong to nobody: drawn in no player's colour
      board: {style: checkered, ground: "#f0d9b5", dark: "#b58863"}   # or cells / lines
      board: {style: lines, ground: "#dcb35c", line: "#3b2f1e", points: [c3, g7]}
      board: {style: cells, ground: "#1f4fa0", hole: white}   # a frame with round holes
      figures: {leader: cross-crown, soldier: pawn, token: {red: cross, blue: ring}}
"""

from __future__ import annotations

import fnmatch
import math
import re
from typing import TYPE_CHECKING, Any

from ..errors import SpecError, did_you_mean
from ..ir.nodes import CELL, PLAYER
from ..ir import colours
from ..ir.present import BOARD_STYLES, FIGURES, HIGHLIGHT_STYLES, HighlightIR, PlaceIR, PresentIR, RegionIR, TrackIR
from .endings import DRAWN, STUCK_COUNTERS
from .schema import MAX_CARD_TEXT, MAX_TRACK
from .yamlpos import YList, YMap, YScalar

if TYPE_CHECKING:  # pragma: no cover
    from .context import Lowering

SPACES_RE = re.compile(r"\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*\Z")


def lower_present(lw: "Lowering", body: YMap, areas: tuple) -> PresentIR:
    """The presentation keys of ``render:`` (the others are lowered in lower.py)."""
    counters = {**lw.names.counters, **lw.names.game_counters}
    internal = _counter_list(lw, body["internal"], counters, "render.internal") if "internal" in body else ()
    # end.draw's and end.no_moves's bookkeeping, said by the end's reason (spec/endings.py)
    kept = (DRAWN,) * bool(lw.draw_rules) + STUCK_COUNTERS * bool(lw.stuck_rules)
    internal += tuple(counters[n] for n in kept if counters[n] not in internal)
    labels = _labels(lw, body["labels"], counters) if "labels" in body else ()
    regions = _regions(lw, body["regions"], areas) if "regions" in body else ()
    places = _places(lw, body["places"]) if "places" in body else ()
    tracks = _tracks(lw, body["tracks"]) if "tracks" in body else ()
    highlights = _highlights(lw, body["highlight"]) if "highlight" in body else ()
    hide_hand = not lw.scalar(body["hand"], bool, "render.hand") if "hand" in body else False
    neutral = []
    for name, pos in _names(lw, body["neutral"], "render.neutral") if "neutral" in body else []:
        if name not in lw.kinds:
            raise SpecError(f"render.neutral: unknown piece '{name}'", pos, did_you_mean(name, list(lw.kinds)))
        neutral.append(lw.kinds.index(name))
    # render.move_plies: how many plies the rulebook counts as one move (2: a move of each side)
    move_plies = lw.scalar(body["move_plies"], int, "render.move_plies", 1, 64) if "move_plies" in body else 1
    look = _board_look(lw, body["board"]) if "board" in body else {}
    figures, seat_figures = _figures(lw, body["figures"]) if "figures" in body else ((), ())
    card_texts = _card_texts(lw, body["card_text"]) if "card_text" in body else ()
    revealed = _counter_list(lw, body["revealed_at_end"], counters, "render.revealed_at_end") if "revealed_at_end" in body else ()
    return PresentIR(internal, labels, regions, places, tracks, highlights, hide_hand, tuple(neutral), figures=figures, seat_figures=seat_figures, move_plies=move_plies, card_texts=card_texts, revealed_at_end=revealed, **look)


def _colour(lw: "Lowering", node: Any, what: str) -> str:
    """A colour of ``render.board`` as ``#rrggbb``."""
    value = lw.scalar(node, str, what)
    if not colours.is_colour(value):
        raise SpecError(f"{what}: '{value}' is not a colour (a colour name or #rrggbb)", node.pos, did_you_mean(value.lower(), list(colours.NAMED)))
    return colours.fill(colours.normal(value))


def _board_look(lw: "Lowering", node: Any) -> dict:
    """``render.board``: the style of the table under the pieces and its colours."""
    body = lw.keys(node, "render_board", "render.board")
    style = lw.scalar(body["style"], str, "a board style")
    if style not in BOARD_STYLES:
        raise SpecError(f"render.board: unknown style '{style}' (one of {', '.join(BOARD_STYLES)})", body["style"].pos, did_you_mean(style, list(BOARD_STYLES)))
    out: dict = {"board_style": style}
    for key in ("ground", "dark", "line", "hole"):
        if key in body:
            out[key] = _colour(lw, body[key], f"render.board.{key}")
    if "dark" in body and style != "checkered":
        raise SpecError("render.board: 'dark' colours the dark squares of a checkered board", body.key_pos["dark"])
    if style == "checkered" and lw.board.topology != "square":
        raise SpecError(f"render.board: a checkered board is a square board, not {lw.board.topology}", body["style"].pos)
    if "line" in body and style != "lines":
        raise SpecError("render.board: 'line' colours the lines of a lines board", body.key_pos["line"])
    if "points" in body:
        if style != "lines":
            raise SpecError("render.board: 'points' (star points) are marked on a lines board", body.key_pos["points"])
        out["points"] = _cells(lw, body["points"], "render.board.points")
    return out


def _figure(lw: "Lowering", value: Any) -> str:
    figure = lw.scalar(value, str, "a figure")
    if figure not in FIGURES:
        raise SpecError(f"render.figures: unknown figure '{figure}' (one of {', '.join(FIGURES)})", value.pos, did_you_mean(figure, list(FIGURES)))
    return figure


def _figures(lw: "Lowering", node: Any) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """``render.figures``: a built-in figure per kind of piece ("" where none is given), or
    per kind a figure per player (``{mark: {x: cross, o: ring}}``: every player one)."""
    if not isinstance(node, YMap):
        raise SpecError(f"render.figures maps a kind of piece to a figure ({', '.join(FIGURES)}) or to a figure per player", node.pos)
    out = [""] * len(lw.kinds)
    seats = [[""] * len(lw.kinds) for _ in lw.players]
    for kind, value in node.items.items():
        if kind not in lw.kinds:
            raise SpecError(f"render.figures: unknown piece '{kind}'", node.key_pos[kind], did_you_mean(kind, list(lw.kinds)))
        k = lw.kinds.index(kind)
        if not isinstance(value, YMap):
            out[k] = _figure(lw, value)
            continue
        for player, v in value.items.items():
            if player not in lw.players:
                raise SpecError(f"render.figures: unknown player '{player}'", value.key_pos[player], did_you_mean(player, list(lw.players)))
            seats[lw.players.index(player)][k] = _figure(lw, v)
        missing = [p for i, p in enumerate(lw.players) if not seats[i][k]]
        if missing:
            raise SpecError(f"render.figures: {kind} has no figure for {', '.join(missing)} (give every player one)", value.pos)
    return tuple(out), (tuple(tuple(s) for s in seats) if any(any(s) for s in seats) else ())


def _names(lw: "Lowering", node: Any, what: str) -> list[tuple[str, Any]]:
    if not isinstance(node, YList):
        raise SpecError(f"{what} is a list of names", node.pos)
    return [(lw.scalar(x, str, "a name"), x.pos) for x in node]


def _counter_list(lw: "Lowering", node: Any, counters: dict, what: str) -> tuple[int, ...]:
    """A list of counters (``render.internal``, ``render.revealed_at_end``): a counter
    array's name stands for all its elements, ``"name[index]"`` for one."""
    out = []
    arrays = lw.names.arrays
    elements = {f"{a}[{sub}]": first + k for a, (first, _, dims, _) in arrays.items() for k, sub in enumerate(lw.element_labels(dims))}
    for name, pos in _names(lw, node, what):
        if name in arrays:  # a counter array: every element
            first, _, dims, _ = arrays[name]
            out.extend(range(first, first + math.prod(size for _, _, size in dims)))
            continue
        if name in elements:  # one element of an array ("warriors[hut]")
            out.append(elements[name])
            continue
        if name not in counters:
            raise SpecError(f"{what}: unknown counter '{name}'", pos, did_you_mean(name, [*counters, *arrays, *elements]))
        out.append(counters[name])
    return tuple(out)


def _labels(lw: "Lowering", node: Any, counters: dict) -> tuple[tuple[str, str], ...]:
    if not isinstance(node, YMap):
        raise SpecError("render.labels maps names of the spec (counters, zones, pieces, items, scores, players, moves and their parameters, values) to the names shown", node.pos)
    elements = [f"{a}[{sub}]" for a, (_, _, dims, _) in lw.names.arrays.items() for sub in lw.element_labels(dims)]
    known = list(counters) + list(lw.names.arrays) + elements + list(lw.kinds) + list(lw.players) + list(getattr(lw, "zones_names", []))
    known += ["deck", "up", "discard", "hand"]
    if lw.zones_ir is not None:
        known += list(lw.zones_ir.names)
    if lw.deck_ir is not None:
        known += list(getattr(lw.deck_ir, "names", ()))
    known += list(getattr(lw, "ranking_names", [])) + list(getattr(lw, "chance_names", []))
    for action, params in getattr(lw, "action_params", {}).items():  # the page's choices: "build", "build.h", "h"
        known += [action] + [f"{action}.{p}" for p in params] + list(params)
    # the names of moves, and of values (an enumeration's values: a phase; items; faces)
    known += list(getattr(lw, "action_names", [])) + list(lw.names.constants)
    out = []
    for key, value in node.items.items():
        if key not in known and key not in lw.unseated:
            raise SpecError(f"render.labels: '{key}' names nothing of this spec", node.key_pos[key], did_you_mean(key, known))
        out.append((key, lw.scalar(value, str, "a label")))
    return tuple(out)


def _card_texts(lw: "Lowering", node: Any) -> tuple[tuple[str, str], ...]:
    """``render.card_text``: an item (by its name in ``items:``) to the short text on its
    face; the card is drawn with its name (``labels``) and this text under it."""
    items = list(lw.zones_ir.names if lw.zones_ir is not None else getattr(lw.deck_ir, "names", ()) if lw.deck_ir is not None else ())
    if not isinstance(node, YMap):
        raise SpecError("render.card_text maps items to the short text on their face", node.pos)
    out = []
    for key, value in node.items.items():
        if key not in items:
            raise SpecError(f"render.card_text: '{key}' is not an item of this spec", node.key_pos[key], did_you_mean(key, items))
        words = lw.scalar(value, str, "a card's text").strip()
        if not words or len(words) > MAX_CARD_TEXT:
            raise SpecError(f"render.card_text: the text of '{key}' is 1 to {MAX_CARD_TEXT} characters (it has {len(words)})", getattr(value, "pos", node.key_pos[key]))
        out.append((key, " ".join(words.split())))
    return tuple(out)


def _cells(lw: "Lowering", node: Any, what: str) -> tuple[int, ...]:
    """Cell names, or patterns with ``*`` (``north.*``), in board order, each cell once."""
    names = lw.board.cell_names
    if not isinstance(node, YList) or len(node) == 0:
        raise SpecError(f"{what} is a list of cell names (a '*' matches any text: \"north.*\")", node.pos)
    out: list[int] = []
    for x in node:
        if not isinstance(x, YScalar) or x.value is None or isinstance(x.value, bool):
            raise SpecError(f"{what}: each is a cell name (or a pattern with '*')", x.pos)
        pat = str(x.value)
        hits = [i for i, n in enumerate(names) if fnmatch.fnmatchcase(n, pat)] if "*" in pat else ([names.index(pat)] if pat in names else [])
        if not hits:
            raise SpecError(f"{what}: no cell is called '{pat}'", x.pos, did_you_mean(pat, list(names)))
        out += [c for c in hits if c not in out]
    return tuple(out)


def _regions(lw: "Lowering", node: Any, areas: tuple) -> tuple[RegionIR, ...]:
    if not isinstance(node, YList):
        raise SpecError("render.regions is a list of regions, e.g. - {label: north, cells: [a1, a2]}", node.pos)
    out = []
    for item in node:
        body = lw.keys(item, "region", "a region")
        if "areas" in body:
            if "cells" in body:
                raise SpecError("a region gives 'cells' or 'areas' (one region per scoring area), not both", body.key_pos["cells"])
            if not areas:
                raise SpecError("render.regions: 'areas' draws the spec's scoring areas, and this spec has no 'areas:'", body.key_pos["areas"])
            template = lw.scalar(body["areas"], str, "an areas label (e.g. \"district {n}\")")
            word = lw.scalar(body["starred"], str, "a word for the cells that weigh more") if "starred" in body else ""
            for i, a in enumerate(areas):
                try:
                    label = template.format(n=i + 1, name=a.name)
                except (KeyError, IndexError, ValueError):
                    raise SpecError("an areas label may use {n} (the area's number) and {name}", body["areas"].pos) from None
                marks = tuple((c, word) for c, w in zip(a.cells, a.weights) if word and w > 1)
                out.append(RegionIR(label, a.cells, marks))
            continue
        if "starred" in body:
            raise SpecError("'starred' marks the heavier cells of scoring areas: it goes with 'areas'", body.key_pos["starred"])
        if "cells" not in body:
            raise SpecError("a region needs 'cells' (or 'areas')", body.pos)
        label = lw.scalar(body["label"], str, "a region's label") if "label" in body else ""
        out.append(RegionIR(label, _cells(lw, body["cells"], "a region's cells")))
    return tuple(out)


def _expr(lw: "Lowering", node: Any, scope: dict) -> Any:
    if isinstance(node, YScalar) and isinstance(node.value, bool):
        raise SpecError("expected a number or a condition here, not true/false", node.pos)
    return lw.condition(node, scope, None)


def _places(lw: "Lowering", node: Any) -> tuple[PlaceIR, ...]:
    if not isinstance(node, YMap):
        raise SpecError("render.places maps a place's name to {label, at, holds}", node.pos)
    out = []
    for name, item in node.items.items():
        body = lw.keys(item, "render_place", f"place '{name}'")
        hnode = body["holds"]
        if not isinstance(hnode, YMap) or not hnode.items:
            raise SpecError(f"place '{name}': holds maps a kind of piece to how many of a player's are there (p is the player)", hnode.pos)
        holds = []
        for kind, count in hnode.items.items():
            if kind not in lw.kinds:
                raise SpecError(f"place '{name}': unknown piece '{kind}'", hnode.key_pos[kind], did_you_mean(kind, list(lw.kinds)))
            holds.append((lw.kinds.index(kind), _expr(lw, count, {"p": PLAYER})))
        cell = -1
        if "at" in body:
            at = lw.scalar(body["at"], str, "a cell name")
            if at not in lw.board.cell_names:
                raise SpecError(f"place '{name}': no cell is called '{at}'", body["at"].pos, did_you_mean(at, list(lw.board.cell_names)))
            cell = lw.board.cell_names.index(at)
        label = lw.scalar(body["label"], str, "a place's label") if "label" in body else name
        out.append(PlaceIR(name, label, tuple(holds), cell))
    return tuple(out)


def _tracks(lw: "Lowering", node: Any) -> tuple[TrackIR, ...]:
    if not isinstance(node, YMap):
        raise SpecError("render.tracks maps a track's name to {label, spaces, each, markers}", node.pos)
    out = []
    for name, item in node.items.items():
        body = lw.keys(item, "track", f"track '{name}'")
        spaces = lw.scalar(body["spaces"], str, "a track's spaces (\"0..20\")")
        m = SPACES_RE.match(spaces)
        if m is None or not int(m.group(1)) < int(m.group(2)) or int(m.group(2)) - int(m.group(1)) > MAX_TRACK:
            raise SpecError(f"track '{name}': spaces is a range \"lo..hi\" with lo < hi, at most {MAX_TRACK} spaces", body["spaces"].pos)
        each = _expr(lw, body["each"], {"p": PLAYER}) if "each" in body else None
        markers = []
        if "markers" in body:
            mnode = body["markers"]
            if not isinstance(mnode, YMap) or not mnode.items:
                raise SpecError(f"track '{name}': markers maps a marker's name to its space (an expression)", mnode.pos)
            markers = [(k, _expr(lw, v, {})) for k, v in mnode.items.items()]
        if each is None and not markers:
            raise SpecError(f"track '{name}' has no markers: give 'each' (a marker per player, p is the player) or 'markers'", body.pos)
        label = lw.scalar(body["label"], str, "a track's label") if "label" in body else name
        out.append(TrackIR(name, label, int(m.group(1)), int(m.group(2)), each, tuple(markers)))
    return tuple(out)


def _highlights(lw: "Lowering", node: Any) -> tuple[HighlightIR, ...]:
    if not isinstance(node, YList):
        raise SpecError("render.highlight is a list of {label, when} (c is the cell)", node.pos)
    out = []
    for item in node:
        body = lw.keys(item, "highlight", "a highlight")
        per_player = False
        if "of" in body:
            of = lw.scalar(body["of"], str, "a highlight's 'of'")
            if of != "player":
                raise SpecError(f"a highlight is 'of: player' (one per player, p is the player), not '{of}'", body["of"].pos)
            per_player = True
        scope = {"c": CELL, **({"p": PLAYER} if per_player else {})}
        when = lw.condition(body["when"], scope)
        label = lw.scalar(body["label"], str, "a highlight's label") if "label" in body else ""
        style = lw.scalar(body["style"], str, "a highlight's style") if "style" in body else "ring"
        if style not in HIGHLIGHT_STYLES:
            raise SpecError(f"a highlight's style is {', '.join(HIGHLIGHT_STYLES[:-1])} or {HIGHLIGHT_STYLES[-1]}, not '{style}'", body["style"].pos, did_you_mean(style, list(HIGHLIGHT_STYLES)))
        out.append(HighlightIR(label, when, per_player, style))
    return tuple(out)


__all__ = ["lower_present"]
