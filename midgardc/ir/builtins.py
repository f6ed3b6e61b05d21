"""The built-in queries of the condition language, as one table.

The type checker reads argument and result types from here, the move plans and the
lookahead's slice read what part of the state each one reads (``Builtin.reads``), the docs
test checks every entry is documented in ``docs/spec-language.md``, and both back ends
implement every ``fn`` key (a test asserts that too). Adding a query means: a row here, a
line in each back end, a doc entry (the recipe: docs/design.md, "Adding a built-in").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from .nodes import BOOL, ITEM, CELL, DIR, FACE, INT, KIND, NO_ITEM, NONE, PLAYER, ZONE


# What part of the state a built-in reads (``Builtin.reads``): the move plans treat a
# built-in that reads nothing as a board fact, worked out once per game
# (``ir/plan.py``), and a lookahead keeps the effects that write what its condition reads
# (``ir/lookslice.py``). COUNTER: the counter whose column is the first argument; STATE:
# some other part (dice, decks, zones, areas, the history, the legal moves).
BOARD, HANDS, TURN, COUNTER, STATE = "board", "hands", "turn", "counter", "*"


@dataclass(frozen=True)
class Builtin:
    args: tuple[str, ...]
    result: str
    doc: str
    example: str
    reads: Optional[str] = None  # None: pure (its arguments and the board's tables only)


BUILTINS: dict[str, Builtin] = {
    "empty": Builtin((CELL,), BOOL, "true when no piece stands on the cell (false off the board)", "empty(c)", reads=BOARD),
    "occupied": Builtin((CELL,), BOOL, "true when a piece stands on the cell", "occupied(n)", reads=BOARD),
    "owner": Builtin((CELL,), PLAYER, "the player owning the piece on the cell, or nobody", "owner(c) == mover", reads=BOARD),
    "kind_at": Builtin((CELL,), KIND, "the kind of piece on the cell (compare with a kind name)", "kind_at(c) == stone", reads=BOARD),
    "degree": Builtin((CELL,), INT, "how many cells share an edge with the cell", "degree(c) == 1"),
    "onboard": Builtin((CELL,), BOOL, "false for the off-board cell that step() returns past an edge", "onboard(step(c, n))"),
    "step": Builtin((CELL, DIR), CELL, "the next cell in a direction, or the off-board cell", "owner(step(c, e)) == mover"),
    "hand": Builtin((PLAYER, KIND), INT, "how many pieces of a kind the player has in hand", "hand(p, stone) == 0", reads=HANDS),
    "next_player": Builtin((PLAYER,), PLAYER, "the player in the next seat (wrapping round)", "next_player(mover)"),
    "abs": Builtin((INT,), INT, "absolute value", "abs(x - y) <= 1"),
    "mover": Builtin((), PLAYER, "the player to move (in end effects: the player who would have moved next)", "owner(c) == mover", reads=TURN),
    "last_player": Builtin((), PLAYER, "the player who made the previous move", "owner(c) != last_player", reads=TURN),
    "ply": Builtin((), INT, "how many moves have been played", "ply >= 2", reads=TURN),
    # -- lines and custodial runs (along the board's directions)
    "line": Builtin((CELL, INT), BOOL, "the piece on the cell is part of at least n pieces of its owner in a row along some direction and its opposite", "line(c, 4)", reads=BOARD),
    "flanked": Builtin((CELL, DIR), INT, "how many pieces of other players lie in a row from the cell in a direction, closed by a piece of the mover (else 0)", "flanked(c, d) > 0", reads=BOARD),
    # -- dice (specs with a chance section): the roll of the current turn
    "rolled": Builtin((FACE,), INT, "how many dice of the current roll show the face (0 before the first roll)", "rolled(ace) == 2", reads=STATE),
    "die": Builtin((INT,), FACE, "the face of die i of the current roll (multisets: sorted in face order), or no face", "die(2) == blank", reads=STATE),
    "face_value": Builtin((FACE,), INT, "the number a face stands for (chance.faces; 0 for no face)", "face_value(die(0)) == column(c)"),
    # -- stacks and pushes: a cell's height; room to push a run along a direction
    "height": Builtin((CELL,), INT, "how many pieces are stacked on the cell (0 when empty or off the board)", "height(c) >= 2", reads=BOARD),
    "room": Builtin((CELL, DIR), BOOL, "the run of occupied cells from the cell on in a direction ends before the edge (true on an empty cell)", "room(c, n)", reads=BOARD),
    # -- items (specs with a items section): each player's deck, face-up items and discards
    "face_up": Builtin((PLAYER, ITEM), INT, "how many items of a kind the player has face up", "face_up(mover, k) > 0", reads=STATE),
    "in_deck": Builtin((PLAYER, ITEM), INT, "how many items of a kind are still in the player's deck", "in_deck(p, k) == 0", reads=STATE),
    "discarded": Builtin((PLAYER, ITEM), INT, "how many items of a kind are in the player's discard pile", "discarded(p, k) >= 1", reads=STATE),
    "deck_left": Builtin((PLAYER,), INT, "how many items are left in the player's deck", "deck_left(mover) == 0", reads=STATE),
    "item_has": Builtin((ITEM, INT), BOOL, "the kind of item shows the number", "item_has(k, 3)"),
    # -- choice: a number that depends on a condition
    "either": Builtin((BOOL, INT, INT), INT, "the second argument when the condition holds, else the third; both of any one type (the result's), like if C then A else B", "either(kind_at(c) == stone, 3, 2)"),
    # -- areas (specs with an areas section): majority scoring
    "area_points": Builtin((PLAYER,), INT, "the points of the areas where the player has the strictly greatest weight", "area_points(p)", reads=STATE),
    "areas_won": Builtin((PLAYER,), INT, "how many areas the player has the strictly greatest weight in", "areas_won(p) >= 2", reads=STATE),
    # -- position history (specs with a history section): the position as history: defines it
    "times_seen": Builtin((), INT, "how many times the current position has been reached in this game, this time included (in legal_after: the position the move would make)", "times_seen() >= 3", reads=STATE),
    "moves_since_first_seen": Builtin((), INT, "how many moves ago the current position was first reached in this game (0 the first time; in legal_after: the position the move would make)", "moves_since_first_seen() <= 8", reads=STATE),
    "repeated": Builtin((), BOOL, "the current position was reached before in this game (times_seen() >= 2; in legal_after: the move would recreate an earlier position)", "not repeated()", reads=STATE),
    # -- the end of the game: whether the player to move could still move (only in end:)
    "can_move": Builtin((), BOOL, "the player to move has at least one legal move (at a chance node: a roll is due); only in the end section (end.when, end.effects), where no move is being listed, and in legal_after, where it asks whether the next mover has a move after the move (one move ahead)", "not can_move()", reads=STATE),
}

# Queries of zones of items (specs with a zones section), kept apart from BUILTINS: their
# names are reserved only in a spec that declares zones (a board game may define its own
# top(c)). The argument types are the IR's (zone, owner, ...): a condition writes a
# per-player zone's owner first, holding(p, stash, k), and a game zone without one,
# holding(pile, k); the checker lowers both (see Checker._zone_call), the owner of a game
# zone being 0.
ZONE_FUNCTIONS: dict[str, Builtin] = {
    "holding": Builtin((ZONE, PLAYER, ITEM), INT, "how many copies of a kind of item are in a zone: holding(p, Z, k) for a per-player zone, holding(Z, k) for a game zone", "holding(p, stash, k) > 0", reads=STATE),
    "zone_size": Builtin((ZONE, PLAYER), INT, "how many items are in a zone: zone_size(p, Z) or, for a game zone, zone_size(Z)", "zone_size(pile) == 0", reads=STATE),
    "top": Builtin((ZONE, PLAYER), ITEM, "the top item of an ordered zone, or no_item when it is empty: top(Z) or top(p, Z)", "top(pile) != no_item", reads=STATE),
}

# Spec-named queries lower to these two, with the property/counter index as a constant
# first argument: ``seeded(c)`` -> Call("prop", (Const(k), c)).
INDEXED = {
    "prop": Builtin((INT, CELL), INT, "a board property declared under board.props", "seeded(c)"),
    "counter": Builtin((INT, PLAYER), INT, "a per-player counter declared under counters", "score(p) >= 10", reads=COUNTER),
    "game_counter": Builtin((INT,), INT, "a game counter (counters: {x: {of: game}}), read by its bare name", "round == 3", reads=COUNTER),
    "player_prop": Builtin((INT, PLAYER), INT, "a per-player value declared under player_props (0 for nobody)", "ahead(mover)"),
    # values of every type: a per-player counter holding a cell, player, kind, item or
    # enumeration value (args: counter, player, its none — read for nobody), and an element
    # of a counter array (args: first column, row, none, then per index: lo, size, value);
    # an index outside lo .. lo + size - 1 reads none (and a write there does nothing)
    "typed_counter": Builtin((INT, PLAYER, INT), INT, "a per-player counter of another type than number (none for nobody)", "leader(p) == e5", reads=COUNTER),
    "counter_at": Builtin((INT, PLAYER, INT), INT, "an element of a counter array declared with 'index'", "seeds[c] > 0", reads=COUNTER),
    "attr": Builtin((INT, INT), INT, "a named attribute declared under attributes (its default for none)", "suit(card) == hearts"),
}

# Collections a quantifier ranges over.
DOMAINS: dict[str, Builtin] = {
    "cells": Builtin((), CELL, "every cell of the board, in index order", "count(c in cells: owner(c) == p)"),
    "players": Builtin((), PLAYER, "every player, in seat order", "any p in players: hand(p, stone) == 0"),
    "neighbours": Builtin((CELL,), CELL, "the cells sharing an edge with a cell, in table order", "any n in neighbours(c): occupied(n)"),
    "directions": Builtin((), DIR, "the board's directions (grids that have them)", "any d in directions: owner(step(c, d)) == p"),
    "range": Builtin((INT, INT), INT, "the integers lo..hi, both included", "all k in range(1, 3): empty(c)"),
    # connection: the chain of pieces a cell belongs to
    "group": Builtin((CELL,), CELL, "the cells joined to a cell through neighbours with the same owner, the cell first, breadth-first; none when it is empty", "any x in group(c): seeded(x)", reads=BOARD),
    # the same for any colour: an empty cell's region is the empty cells joined to it
    "region": Builtin((CELL,), CELL, "the cells joined to a cell through neighbours of its colour (the same owner's pieces, or empty cells for an empty cell), the cell first, breadth-first; none off the board", "any x in region(c): any y in neighbours(x): empty(y)", reads=BOARD),
    # stacks and pushes: the cells beyond a cell along a direction
    "item_kinds": Builtin((), ITEM, "every kind of item (of the decks or of items:), in declared order", "any k in item_kinds: face_up(mover, k) > 0"),
    "faces": Builtin((), FACE, "every face of the game's dice (chance.faces), in declared order", "any x in faces: rolled(x) >= 2"),
    "ray": Builtin((CELL, DIR), CELL, "the cells from step(c, d) on in direction d, up to the edge", "all x in ray(c, n): height(x) > 2"),
    # sliding pieces: the cells a piece on c reaches along d, up to the first occupied one
    "slide": Builtin((CELL, DIR), CELL, "the cells from step(c, d) on in direction d, up to and including the first occupied one (or the edge)", "any x in slide(f, d): x == t", reads=BOARD),
}

QUANTIFIERS = {
    "any": (BOOL, BOOL, "true when the condition holds for at least one element", "any n in neighbours(c): occupied(n)"),
    "all": (BOOL, BOOL, "true when the condition holds for every element", "all n in neighbours(c): empty(n)"),
    "count": (BOOL, INT, "how many elements satisfy the condition", "count(c in cells: owner(c) == p)"),
    "sum": (INT, INT, "sum of an integer expression over the elements", "sum(p in players: hand(p, stone))"),
    "min": (INT, INT, "least value over the elements (0 when there are none)", "min(p in players: hand(p, stone))"),
    "max": (INT, INT, "greatest value over the elements (0 when there are none)", "max(n in neighbours(c): degree(n))"),
}

CONSTANTS = {
    "true": (1, BOOL),
    "false": (0, BOOL),
    "nobody": (-1, PLAYER),
    "no_item": (NO_ITEM, ITEM),
    "none": (0, NONE),  # takes the type it meets: the off-board cell, nobody, no kind, ...
}

KEYWORDS = ("and", "or", "not", "in", "any", "all", "true", "false", "if", "then", "else")


def state_reads() -> frozenset[str]:
    """Every built-in function that reads the state (a call of one is never a board fact)."""
    return frozenset(n for table in (BUILTINS, ZONE_FUNCTIONS, INDEXED) for n, b in table.items() if b.reads is not None)
