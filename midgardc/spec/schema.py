"""The spec language's schema and limits: the keys each section allows and requires, the
parameter types, name patterns and the bounds every spec is checked against."""

from __future__ import annotations

import re

from ..ir.nodes import CELL, DIR, INT, KIND, PLAYER, ITEM
from .zones import ZONE_SECTIONS
from .pools import POOL_SECTIONS
from .piles import PILE_SECTIONS
from .position import POSITION_SECTIONS

SPEC_VERSION = 1
MAX_PLAYERS = 8
MAX_HAND = 10_000
MAX_MOVES = 1 << 20
MAX_PLIES = 1_000_000
MAX_TRACK = 1000  # spaces on one drawn track (render.tracks)
MAX_CARD_TEXT = 200  # characters of one card's text (render.card_text): a few lines, not a rules page
MAX_FACES = 64
MAX_DRAWS = 1 << 16  # faces ** dice: the sampling table's size
COUNTER_SCOPES = ("player", "game")  # a counter per player, or one for the game
# game.remembers: what a player's information state holds (docs/spec-language.md#game)
REMEMBERS = ("moves",)
VISIBILITIES = ("all", "owner", "none")  # who sees a value: everyone, its owner, nobody
REGION_VAR = "$cell"  # the candidate cell inside assess_regions (not a user-writable name)

# section -> (allowed keys, required keys)
SECTIONS: dict[str, tuple[set[str], set[str]]] = {
    "": ({"midgardc", "game", "pieces", "counters", "board", "define", "actions", "triggers", "end", "ranking", "render", "variants", "extends", "setup", "player_props", "chance", "player_counts", "deck", "areas", "items", "zones", "enums", "attributes", "tables", "blocks", "history", "start", "returns", "pools", "position", "action_space", "observation", "phases", "piles"}, {"game", "board", "actions", "ranking"}),
    "start": ({"effects"}, {"effects"}),
    "returns": ({"counter", "min", "max"}, {"counter", "min", "max"}),
    "game": ({"name", "title", "players", "max_plies", "horizon", "remembers", "author", "source", "description"}, {"name", "players"}),
    "piece": ({"hand", "description", "notation", "base", "promotes", "steps", "slides", "leaps", "to_empty", "to_capture", "also", "moves_as"}, set()),
    "promotes": ({"to", "where", "becomes"}, {"to", "where"}),  # a piece that changes on arriving (spec/rules_data.py)
    "action": ({"params", "where", "effects", "notation", "description", "legal_after", "continue", "then", "columns", "rows", "moves", "drops", "steps", "hops", "compulsory", "removes"}, set()),
    # a compound move's step (spec/compound.py)
    "continue": ({"from", "while", "notation", "limit", "ways", "most"}, {"from"}),
    "then": ({"params", "where", "effects", "notation", "description"}, {"params"}),
    # the position history (history:)
    "history": ({"position"}, {"position"}),
    # learning-ready observation views (spec/observation.py)
    "observation": ({"forward", "history", "scale"}, set()),
    "trigger": ({"after", "when", "effects", "description"}, {"effects"}),
    "phase": ({"actions", "mover", "first", "until", "after", "next", "effects", "description"}, set()),  # phases: (spec/phases.py)
    "phase_exit": ({"to", "when"}, {"to"}),
    "end": ({"when", "no_moves", "effects", "reasons", "draw"}, set()),
    "render": ({"glyphs", "empty", "marks", "colors", "colours", "internal", "labels", "regions", "places", "tracks", "highlight", "hand", "neutral", "numbers", "board", "figures", "move_plies", "card_text", "revealed_at_end"}, set()),
    "render_board": ({"style", "ground", "dark", "line", "points", "hole"}, {"style"}),
    # presentation (midgardc/spec/present.py): regions, places off the board, tracks, marked cells
    "region": ({"label", "cells", "areas", "starred"}, set()),
    "render_place": ({"label", "at", "holds"}, {"holds"}),
    "track": ({"label", "spaces", "each", "markers"}, {"spaces"}),
    "highlight": ({"label", "when", "of", "style"}, {"when"}),
    "empty_state": ({"when", "glyph"}, {"when", "glyph"}),
    "place": ({"piece", "at", "owner", "height", "push", "from"}, {"piece", "at"}),
    "assess_regions": ({"cells", "open_if_touching", "near", "award", "tie", "first", "priority"}, {"cells", "award"}),
    "set": ({"counter", "of", "to"}, {"counter", "to"}),
    "add": ({"counter", "of", "to"}, {"counter", "to"}),
    # pieces on the board at the start; moving and turning pieces
    "setup_entry": ({"piece", "owner", "cells", "height"}, {"piece", "owner", "cells"}),
    "move": ({"from", "to", "capture", "piece", "owner"}, {"from", "to"}),
    "flip_flanked": ({"at"}, {"at"}),
    # dice rolled at the start of every turn
    "chance": ({"name", "dice", "faces", "ordered", "keep", "into", "when"}, {"dice", "faces"}),
    # taking pieces off the board; moving again
    "remove": ({"at", "each", "where", "to"}, {"at"}),
    # a piece that changes where it stands: its kind (a promotion) and/or its owner
    "convert": ({"at", "piece", "owner"}, {"at"}),
    "extra_turn": (set(), set()),
    "next_turn": ({"to"}, {"to"}),
    "counter": ({"start", "of", "visible", "type", "index", "counts", "reset", "reset_before"}, set()),
    "attribute": ({"of", "type", "values", "default", "description"}, {"of"}),
    "block": ({"params", "effects", "description"}, {"effects"}),
    "table": ({"key", "type", "values", "default", "description"}, {"key", "values"}),
    "repeat": ({"times", "while", "limit", "effects"}, {"limit", "effects"}),
    "face": ({"text", "value"}, set()),
    # items: every player's deck, face-up items and discard pile
    "deck": ({"items", "up", "copies"}, {"items"}),
    "item": ({"values", "text", "count"}, {"values"}),
    "discard": ({"item", "of"}, {"item"}),
    "draw": ({"of", "count"}, set()),
    # areas scored by majority
    "area": ({"name", "cells", "weights", "points"}, {"name", "cells"}),
    # blocks: effects that run other effects
    "if": ({"when", "then", "else"}, {"when"}),
    "for_each": ({"each", "where", "effects"}, {"each", "effects"}),
    # kinds of item and zones (items:, zones:) and the effects moving items: see zones.py
    **ZONE_SECTIONS,
    **POSITION_SECTIONS,  # the spec's position notation (position:): see position.py
    **PILE_SECTIONS,  # cells holding counts of identical pieces (piles:): see piles.py
    **POOL_SECTIONS,  # places off the board holding pieces (pools:): see pools.py
}

_REQUIRED_HINTS = {
    ("", "game"): "start with 'game: {name: my-game, players: [a, b]}'",
    ("", "board"): "add e.g. 'board: {topology: square, rows: 3, cols: 3}'",
    ("", "actions"): "add the moves players can make, e.g. 'actions: {play: {params: {c: cell}, where: empty(c), effects: [...]}}'",
    ("", "ranking"): "add how players are ranked at the end, e.g. 'ranking: {cells: \"count(c in cells: owner(c) == p)\"}'",
}

PARAM_TYPES = {"cell": CELL, "player": PLAYER, "kind": KIND, "dir": DIR, "item": ITEM}
MAX_ITEMS = 256  # items in one player's deck
DEFINE_TYPES = {**PARAM_TYPES, "number": INT}  # a definition may also take a number
NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")  # \Z: "$" would accept a final newline
SLUG_RE = re.compile(r"[a-z][a-z0-9_-]*\Z")
