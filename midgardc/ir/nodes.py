"""The game-agnostic intermediate representation.

Everything a back end needs is here, already resolved: names are indices, the board is
tables, conditions are typed trees. Both back ends (the reference interpreter and the
generated Cython engine) read only this; neither sees YAML or the condition syntax, so
the two can only disagree about what an IR node *means* — and ``docs/ir.md`` plus the
interpreter are the definition of that meaning.

Value encoding shared by both back ends (all plain ints):

* ``bool``   0 / 1
* ``int``    a signed integer (C ``long long``)
* ``cell``   0 .. n_cells-1, or ``n_cells`` for "off the board" (the sentinel cell)
* ``player`` 0 .. n_players-1, or ``-1`` for "nobody"
* ``kind``   index into ``GameIR.kinds`` (a kind of piece)
* ``dir``    index into ``BoardIR.directions``
* ``face``   index into ``ChanceIR.faces`` (a face of the game's dice), or ``-1`` for none
* ``item``   index into ``GameIR.item_names`` (a kind of item: ``DeckIR.names`` or
  ``ZonesIR.names``), or ``-1`` for ``no_item``
* ``zone``   index into ``ZonesIR.zones`` (only ever a constant: zone names)
* ``enum:E`` index into the values of enumeration ``E`` (``GameIR.enums``), or ``-1`` for none

Every type but ``bool``, ``int``, ``dir`` and ``zone`` has a *none* value (the literal
``none``): the off-board cell, nobody, -1 (``midgardc.ir.values.none_value``).

A board square holds a *piece id*: 0 is empty, ``1 + owner * n_kinds + kind`` is a piece of
that kind owned by that player. The sentinel cell is never empty and has no owner.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional, Union

from .chance import ChanceIR
from .history import HistoryIR
from .items import DeckIR, ZonesIR

BOOL, INT, CELL, PLAYER, KIND, DIR, FACE = "bool", "int", "cell", "player", "kind", "dir", "face"
ITEM = "item"  # a kind of item (deck: or items:)
ZONE = "zone"  # a zone of items (zones:); only constants have this type
VALUE_TYPES = (BOOL, INT, CELL, PLAYER, KIND, DIR, FACE, ITEM, ZONE)
NO_ITEM = -1  # the item of nothing: top() of an empty zone
# -- values of every type (see midgardc/ir/values.py): an enumeration declared under
# enums: is the type "enum:NAME" (its values 0 .. n-1); NONE is the type of the literal
# ``none`` before the checker gives it the type it is compared with or stored as
ENUM_PREFIX = "enum:"
NONE = "none"

NOBODY = -1
CHANCE = -2  # current_player() at a chance node (OpenSpiel's kChancePlayerId is -1; -1 is "nobody" here)
CHANCE_STREAM = 1 << 20  # the state's chance stream is Rng(derive_seed(seed, CHANCE_STREAM))


# --------------------------------------------------------------------------- expressions


@dataclass(frozen=True)
class Const:
    value: int
    type: str


@dataclass(frozen=True)
class Local:
    """A parameter of the enclosing action/define/rule, or a quantifier's bound variable."""

    name: str
    type: str


@dataclass(frozen=True)
class Call:
    """A built-in query. ``fn`` is a key of ``midgardc.ir.builtins.BUILTINS``."""

    fn: str
    args: tuple["Expr", ...]
    type: str


@dataclass(frozen=True)
class DefineCall:
    """A call of a spec-defined function (``define:``); ``index`` into ``GameIR.defines``."""

    index: int
    args: tuple["Expr", ...]
    type: str


@dataclass(frozen=True)
class Unary:
    op: str  # "not" | "neg"
    arg: "Expr"
    type: str


@dataclass(frozen=True)
class Binary:
    """``and``/``or`` short-circuit; ``//`` and ``%`` floor like Python (both back ends)."""

    op: str  # and or + - * // % == != < <= > >=
    left: "Expr"
    right: "Expr"
    type: str


@dataclass(frozen=True)
class Domain:
    """A finite, ordered collection a quantifier ranges over.

    kinds: ``cells`` (all board cells in index order), ``players`` (seat order),
    ``neighbours`` (args: cell; adjacency-table order), ``directions`` (board order),
    ``range`` (args: lo, hi; lo..hi inclusive), ``ray`` (args: cell, dir; the cells from
    step(c, d) on in direction d until the edge, or until the walk comes back to c on a
    wrapping board; none from the off-board cell), ``group`` (args: cell; the cells reachable
    from it through neighbours owned by the cell's owner, breadth-first in neighbour order,
    the cell itself first; empty when the cell is empty or off the board).
    The order is part of the meaning: regions are discovered and ties broken in it.
    """

    kind: str
    args: tuple["Expr", ...] = ()
    elem_type: str = CELL


@dataclass(frozen=True)
class Quant:
    """``any``/``all`` -> bool; ``count`` -> int (number of true bodies);
    ``sum``/``min``/``max`` -> int over the body (min/max of nothing is 0)."""

    kind: str
    var: str
    domain: Domain
    body: "Expr"
    type: str


Expr = Union[Const, Local, Call, DefineCall, Unary, Binary, Quant]


# --------------------------------------------------------------------------- effects


@dataclass(frozen=True)
class Place:
    """Take one piece of ``kind`` from ``owner``'s hand and put it on cell ``at``.

    Legality: an action containing a Place is only legal when the hand holds one (the
    front end adds ``hand(owner, kind) > 0`` to the action's condition)."""

    kind: int
    at: Expr
    owner: Expr
    # -- stacks and pushes (see Core._place): a stack of ``height`` pieces (None: one),
    # and ``push`` a direction: an occupied ``at`` first shifts its run one step that way
    height: Optional[Expr] = None
    push: Optional[Expr] = None
    # a kind worked out when the effect runs (``piece: "promoted(k)"``): then ``kind`` is
    # -1; a kind of none, or past the last kind, places nothing
    kind_expr: Optional[Expr] = None


@dataclass(frozen=True)
class AssessRegions:
    """Find connected regions and award the closed ones by border influence.

    1. Scan ``seeds`` (or every cell when None) in order; each unvisited seed cell with
       ``member(c)`` true starts a region: the cells reachable through neighbours that
       also satisfy ``member`` (breadth-first, neighbour order; visiting order is kept).
    2. A region is open (skipped) when some region cell has a neighbour with
       ``open_if(n)`` true. ``open_if`` None: every region is closed.
    3. Influence of player p = number of (region cell, neighbour) pairs where the
       neighbour is outside the region and owned by p (border edges).
    4. A unique maximum influence wins: the winner places ``kind`` from hand on every
       region cell. Otherwise (tie for the maximum) with ``tie == "split"`` the tied
       players take cells alternately, starting with ``first`` and going round in seat
       order among the tied players; each player's share is cells // n_tied (a remainder
       stays empty); with ``tie == "none"`` nothing happens.
    5. Cells are taken in *priority order*: region cells with ``priority(c)`` true first,
       then the rest, each group in region visiting order. A player with an empty hand
       takes nothing more (their remaining cells stay empty), except that a sole winner
       whose hand is empty before a priority cell first takes back the piece of a
       non-priority cell they won outright earlier in the same assessment (the last in
       board order), while they have one: a winner short of pieces covers the priority
       cells of all the regions of one assessment first. Tie shares take nothing back.
    Regions are assessed one at a time in discovery order; a region's filling happens
    before the next region is examined (membership is re-checked when it is reached).
    Locals visible in the sub-expressions: ``c`` (the candidate cell) plus the enclosing
    action's parameters.
    """

    member: Expr
    open_if: Optional[Expr]
    seeds: Optional[Domain]
    kind: int
    tie: str  # "split" | "none"
    priority: Optional[Expr]
    first: Expr  # player
    var: str = "c"


@dataclass(frozen=True)
class SetCounter:
    """``counters[owner][counter] = value`` (or ``+=`` when ``add``); a game counter's owner
    is the constant ``n_players``, the game's row."""

    counter: int
    owner: Expr
    value: Expr
    add: bool


# --- pieces that move and pieces that turn (generic movement and custodial capture) ----


@dataclass(frozen=True)
class MovePiece:
    """Take the piece on cell ``frm`` to cell ``to``. Whatever stood on ``to`` is captured:
    removed from the game (``capture == "remove"``), put back into its owner's hand
    (``"hand"``) or, changing side, into the hand of the player making the move
    (``"captor"``); a piece going into a hand goes as its kind's base (``GameIR.kind_base``).
    Nothing happens when ``frm`` is empty or off the board, when ``to`` is off the board,
    or when ``frm == to``."""

    frm: Expr
    to: Expr
    capture: str = "remove"  # "remove" | "hand" | "captor"


@dataclass(frozen=True)
class FlipFlanked:
    """Custodial capture by turning: for every direction d (board order), the
    ``flanked(at, d)`` pieces next to ``at`` in direction d (a run of other players'
    pieces closed by a piece of the mover) change owner to the mover, keeping their kind.
    All runs are measured before any piece turns. Hands do not change."""

    at: Expr


@dataclass(frozen=True)
class Remove:
    """Take pieces off the board: back to their owners' hands (``to == "hand"``) or out
    of the game (``"out"``). Without ``each``: the piece on cell ``at``, when ``where``
    (None: true) holds. With ``each`` (a domain whose elements bind ``var``): for every
    element, in order, for which ``where`` holds, the cell ``at``; every cell is found
    before any piece is taken off, and a cell found twice loses its piece once. Empty
    and off-board cells are skipped."""

    at: Expr
    where: Optional[Expr]
    each: Optional[Domain]
    var: str
    to: str = "hand"  # "hand" | "out" | "captor" (the mover's hand: the piece changes side)


@dataclass(frozen=True)
class Convert:
    """Change the piece on cell ``at`` in place: its kind to ``kind`` (or, with
    ``kind_expr``, the kind that expression gives when the effect runs; ``kind == -2``:
    keep the kind) and/or its owner to ``owner`` (None: keep it). A promotion is a change
    of kind, a piece won over a change of owner. Hands do not change. Nothing happens on
    an empty or off-board cell, for a kind of none (or past the last kind) or for an
    owner of nobody."""

    at: Expr
    kind: int = -2
    owner: Optional[Expr] = None
    kind_expr: Optional[Expr] = None


@dataclass(frozen=True)
class NextTurn:
    """The player ``to`` moves next, whatever the seat order or an extra_turn say (the last
    one run in a move wins; nobody changes nothing). Phases that hand the turn to a chosen
    player (the highest bid, the winner of a majority) are written with it."""

    to: Expr


@dataclass(frozen=True)
class ExtraTurn:
    """The mover moves again: when the move is over the turn does not pass (the move
    still counts as a ply; in a game with dice the next roll is due)."""


# --- items: per-player decks, face-up items and discard piles (see DeckIR) -------------


@dataclass(frozen=True)
class Discard:
    """One face-up item of kind ``item`` of player ``owner`` goes to their discard pile
    (nothing when they have none face up, or for nobody)."""

    item: Expr
    owner: Expr


@dataclass(frozen=True)
class Draw:
    """The top ``count`` items of ``owner``'s deck turn face up, one by one (fewer when the
    deck runs out; nothing for nobody or a count below 1)."""

    owner: Expr
    count: Expr


# --- blocks: effects that run other effects (a choice, a loop) -------------------------


@dataclass(frozen=True)
class IfEffect:
    """``then`` when ``when`` holds, else ``other``: one move whose consequences depend on
    the state (where a piece comes from, whether a bonus is due) without one action per case."""

    when: Expr
    then: tuple["Effect", ...]
    other: tuple["Effect", ...]


@dataclass(frozen=True)
class ForEach:
    """``effects`` once per element of ``each`` (bound to ``var``) where ``where`` holds:
    the same consequence for every player (or cell) without naming them. The collection
    is listed before the first element runs; ``where`` is checked just before each one."""

    each: Domain
    var: str
    where: Optional[Expr]
    effects: tuple["Effect", ...]


# --- zones of items (see ZonesIR): moving items between zones ---------------------------
# A zone is named by its index (a constant); ``owner`` expressions pick whose zone for a
# per-player zone (nobody: the effect does nothing) and are Const(0) for a game zone.


@dataclass(frozen=True)
class Deal:
    """``count`` items from the top of an ordered zone (or, from an unordered zone, drawn
    at random with the state's chance stream, see ZonesIR) to another zone, one by one,
    each to the bottom of an ordered target; fewer when the source runs out. A count
    above ``ZonesIR.capacity`` counts as the capacity (a pile dealt to itself turns round
    at most that often)."""

    frm: int
    frm_owner: Expr
    to: int
    to_owner: Expr
    count: Expr


@dataclass(frozen=True)
class Take:
    """Up to ``count`` copies of item kind ``item`` move from a zone to another (from an
    ordered zone the copies nearest the top, to the bottom of an ordered target); a count
    above ``ZonesIR.capacity`` counts as the capacity."""

    item: Expr
    frm: int
    frm_owner: Expr
    to: int
    to_owner: Expr
    count: Expr


@dataclass(frozen=True)
class PassZone:
    """Every player's per-player ``zone`` goes, all at once, to the player ``step`` seats
    on (seat p's contents become seat (p + step) mod n's; the order of a pile is kept)."""

    zone: int
    step: Expr


@dataclass(frozen=True)
class Gather:
    """Everything in zone ``frm`` moves to zone ``to``: with ``owner`` that player's (or
    the game's) ``frm`` to that player's (or the game's) ``to``; without, for every player
    in seat order, their ``frm`` to their own ``to`` (or to the game zone ``to``). Items
    leave an ordered zone top first, an unordered zone kind by kind in declared order,
    and land at the bottom of an ordered target."""

    frm: int
    to: int
    owner: Optional[Expr]


@dataclass(frozen=True)
class Shuffle:
    """Reshuffle an ordered zone with the state's chance stream (Fisher-Yates, as at the
    start of the game)."""

    zone: int
    owner: Expr


# --- values of every type: a write to one element of a counter array ------------------


@dataclass(frozen=True)
class SetElement:
    """``counters[row][column + k] = value`` (or ``+=`` when ``add``) where ``k`` is the
    mixed radix of the indexes ``index - lo`` over their ``size``s (first index most
    significant); nothing happens when ``row`` is nobody or an index is out of its range.
    ``index`` holds (lo, size, expression) per index. Read with Call("counter_at")."""

    column: int
    row: Expr
    index: tuple[tuple[int, int, Expr], ...]
    value: Expr
    add: bool


Effect = Union[SetElement, Place, AssessRegions, SetCounter, MovePiece, FlipFlanked, Remove, Convert, ExtraTurn, NextTurn, Discard, Draw, Deal, Take, PassZone, Gather, Shuffle, IfEffect, ForEach]


# --------------------------------------------------------------------------- structure


@dataclass(frozen=True)
class Param:
    name: str
    type: str  # cell | player | kind | dir | int (range)
    lo: int = 0
    hi: int = 0  # only for int: lo..hi inclusive


@dataclass(frozen=True)
class Action:
    """A move family. Move ids: ``base + mixed radix of the parameter values`` where each
    parameter's radix is its domain size (cells: n_cells, player: n_players, ...), first
    parameter most significant. Legal moves are listed in ascending id order."""

    name: str
    params: tuple[Param, ...]
    where: Expr
    effects: tuple[Effect, ...]
    notation: tuple[Union[str, int], ...]  # literal text pieces and parameter indices
    base: int = 0
    size: int = 1
    # lookahead legality (legal_after:): a binding that passes ``where`` is legal only if
    # this condition holds on a copy of the state after the action's effects and its
    # triggers (before the turn passes: ``mover`` is still the player moving); the copy is
    # then discarded. None: no lookahead.
    legal_after: Optional["Expr"] = None
    chain: Optional[object] = None  # a compound move's step (continue:): ir/compound.py Chain
    then: Optional[object] = None  # a move of two different steps (then:): ir/compound.py Then


@dataclass(frozen=True)
class Trigger:
    """Runs after any action in ``after`` (all actions when empty), if ``when`` holds.
    The triggering action's parameters are visible as locals."""

    name: str
    after: tuple[int, ...]
    when: Optional[Expr]
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class Define:
    name: str
    params: tuple[Param, ...]
    body: Expr
    type: str


@dataclass(frozen=True)
class End:
    """After each move (action + triggers): the game ends when any condition holds.
    Before a player moves: when they have no legal move, ``no_moves`` says what happens
    ("end" the game or "pass" the turn; two passes in a row end it).
    When the game ends, ``effects`` run once with ``last_player`` = the last mover.
    ``reasons`` name how a game ended, for people ("checkmate", "two passes"): (name,
    condition) in the spec's order, read on the final position after the effects; the
    first that holds is the reason (``runtime.ending``). Rules never read them."""

    conditions: tuple[Expr, ...]
    no_moves: str
    effects: tuple[Effect, ...]
    reasons: tuple[tuple[str, Expr], ...] = ()


@dataclass(frozen=True)
class RankKey:
    """A per-player integer (local ``p``); players are ranked by the keys in order,
    higher first (``lower_is_better`` flips one key). A ``final`` key means something
    only once the game is over (who won): people are not shown it during the game."""

    name: str
    expr: Expr
    lower_is_better: bool = False
    final: bool = False


@dataclass(frozen=True)
class AreaIR:
    """A named group of cells scored by majority (``areas:``): a player's weight in the
    area is the sum of ``weights`` over its cells holding that player's pieces; the
    player with the strictly greatest weight (above 0) takes ``points``; a tie for the
    greatest gives nobody anything."""

    name: str
    cells: tuple[int, ...]
    weights: tuple[int, ...]  # per cell of ``cells``
    points: int


@dataclass(frozen=True)
class BoardIR:
    topology: str
    cell_names: tuple[str, ...]
    neighbours: tuple[tuple[int, ...], ...]  # per cell, in a fixed order
    directions: tuple[str, ...] = ()
    steps: tuple[tuple[int, ...], ...] = ()  # steps[d][c] -> cell or n_cells (off board)
    coords: tuple[tuple[int, int], ...] = ()  # (row, column) on a character grid, for display
    polygons: tuple[tuple[tuple[float, float], ...], ...] = ()  # per cell outline, for pictures
    props: tuple[tuple[str, tuple[int, ...]], ...] = ()  # name -> value per cell

    @property
    def n_cells(self) -> int:
        return len(self.cell_names)

    @property
    def max_degree(self) -> int:
        return max((len(n) for n in self.neighbours), default=0)


@dataclass(frozen=True)
class RenderIR:
    """How a human sees the state. ``piece_glyphs[owner]`` is a one-character glyph;
    ``empty_states`` are (name, glyph, condition on local c) checked in order for empty
    cells; ``marks`` names the empty states that physically carry a marker token;
    ``colours[seat]`` is a colour of ``midgardc.ir.colours`` (a name or ``#rrggbb``)."""

    piece_glyphs: tuple[str, ...]
    empty_states: tuple[tuple[str, str, Expr], ...] = ()
    marks: tuple[str, ...] = ()
    empty_glyph: str = "."
    colours: tuple[str, ...] = ()
    present: Any = None  # a midgardc.ir.present.PresentIR: regions, places, tracks, labels
    numbers: str = ""  # a game counter array indexed by cell whose values the text board shows in the cells
    piles: tuple[str, ...] = ()  # the kinds of pile (piles:): pictures draw their pieces on the cells


@dataclass(frozen=True)
class ObservationIR:
    """``observation:`` (midgardc/spec/observation.py): facts for the learning-ready views
    of the observation tensor (midgardc/research/view.py) that the rules do not say; the
    engines never read them. ``forward``: each seat's forward direction (an index into
    ``BoardIR.directions``; () when not declared); ``history``: positions in the history
    planes (1: this one only); ``scales``: (name, min, max) of counters, piece kinds'
    hands, repetition, height and items."""

    forward: tuple[int, ...] = ()
    history: int = 1
    scales: tuple[tuple[str, int, int], ...] = ()


@dataclass(frozen=True)
class ReturnsIR:
    """``returns:``: a finished game's returns are each player's value of a per-player
    counter (chips won or lost), not ``n * share - 1`` from the ranks. They must add up to
    0 and lie in ``lo .. hi`` (the game's min and max utility); ``pos`` is where the spec
    says so, for the message when a game breaks that promise. Ranks (match tables, Elo,
    MCTS shares) still come from ``ranking``."""

    counter: int  # index into GameIR.counters (a per-player counter)
    name: str
    lo: int
    hi: int
    pos: Any = field(default=None, compare=False, hash=False)


@dataclass(frozen=True)
class GameIR:
    name: str
    title: str
    variant: Optional[str]
    players: tuple[str, ...]
    kinds: tuple[str, ...]
    hand_init: tuple[tuple[int, ...], ...]  # [player][kind]
    counters: tuple[str, ...]  # integer counters, per player or (counter_scope "game") one for the game
    # [row][counter]: one row per player, then the game's row (index n_players), which holds
    # the game counters (a per-player counter's cell there is unused, 0)
    counter_init: tuple[tuple[int, ...], ...]
    board: BoardIR
    defines: tuple[Define, ...]
    actions: tuple[Action, ...]
    triggers: tuple[Trigger, ...]
    end: End
    ranking: tuple[RankKey, ...]
    render: RenderIR
    initial_board: tuple[int, ...] = ()  # piece id per cell at setup ("" = all empty)
    # stacks at setup (setup: height): pieces per cell; () = one on every occupied cell
    initial_heights: tuple[int, ...] = ()
    # per-player properties (player_props:): name -> value per player (ints, dirs, cells)
    player_props: tuple[tuple[str, tuple[int, ...]], ...] = ()
    max_plies: int = 10000
    # game.horizon: the most moves any game takes (a proved bound; None: not declared)
    horizon: Optional[int] = None
    # game.remembers: what a player's information state holds ("moves": what it sees now
    # and every move as it saw it; None: not declared, no information-state tensor)
    remembers: Optional[str] = None
    # action_space: the spec's own numbering of the players' moves for learning tools
    # (midgardc/spec/action_space.py; None: the move ids); the engines never read it
    action_space: Optional[Any] = field(default=None, compare=False, hash=False)
    chance: Optional[ChanceIR] = None  # dice rolled at the start of every turn
    # stacks: a cell holds a piece and a height (pieces stacked there); True when the spec
    # reads or sets heights, so the compiled state carries the height layer
    stacks: bool = False
    deck: Optional[DeckIR] = None  # every player's deck (deck:)
    areas: tuple[AreaIR, ...] = ()  # groups of cells scored by majority (areas:)
    zones: Optional[ZonesIR] = None  # kinds of item and the zones holding them (items:, zones:)
    player_counts: tuple[int, ...] = ()  # the counts the spec supports (player_counts:); () = just len(players)
    default_players: int = 0  # the count played when none is chosen
    counter_scope: tuple[str, ...] = ()  # per counter: "player" | "game" (() = all per player)
    counter_visible: tuple[str, ...] = ()  # per counter: "all" | "owner" | "none" (() = all public)
    # -- values of every type (midgardc/ir/values.py)
    counter_types: tuple[str, ...] = ()  # per counter: its value type (() = all numbers)
    enums: tuple[tuple[str, tuple[str, ...]], ...] = ()  # enums: name -> its values, in order
    attributes: tuple = ()  # named attributes of cells, items, kinds, ... (ir/values.py AttributeIR)
    source: str = ""  # spec path, for messages
    # position history (history:): what a position is; None: no history is kept (and
    # repeated()/times_seen() are refused by the front end). See ir/history.py.
    history: Optional[HistoryIR] = None
    # start: effects run once when a game begins (after the start shuffles, before settling)
    start_effects: tuple[Effect, ...] = ()
    returns: Optional["ReturnsIR"] = None  # returns: a payoff counter instead of ranks
    meta: dict = field(default_factory=dict, compare=False, hash=False)
    # how moves write a kind parameter (pieces: {queen: {notation: q}}); empty: by name
    kind_texts: tuple[str, ...] = ()
    # observation: the learning-ready views' facts (None: not declared)
    observation: Optional[ObservationIR] = field(default=None, compare=False, hash=False)
    # per kind, the kind a piece of it becomes when it goes into a hand (pieces: {tokin:
    # {base: pawn}}: a promoted piece captured goes back as what it was); () = itself
    kind_base: tuple[int, ...] = ()

    @property
    def n_players(self) -> int:
        return len(self.players)

    @property
    def player_counters(self) -> tuple[int, ...]:
        """Indices of the per-player counters (the others are the game's)."""
        return tuple(i for i in range(len(self.counters)) if not self.counter_scope or self.counter_scope[i] == "player")

    @property
    def game_counters(self) -> tuple[int, ...]:
        """Indices of the game counters, kept in the counters' last row."""
        return tuple(i for i in range(len(self.counters)) if self.counter_scope and self.counter_scope[i] == "game")

    @property
    def n_kinds(self) -> int:
        return len(self.kinds)

    # item kinds come from the decks (deck:) or from items: (a spec has at most one)
    @property
    def item_names(self) -> tuple[str, ...]:
        return self.deck.names if self.deck else (self.zones.names if self.zones else ())

    @property
    def item_texts(self) -> tuple[str, ...]:
        return self.deck.texts if self.deck else (self.zones.texts if self.zones else ())

    @property
    def item_values(self) -> tuple[tuple[int, ...], ...]:
        return self.deck.values if self.deck else (self.zones.values if self.zones else ())

    @property
    def n_item_kinds(self) -> int:
        return len(self.item_names)

    @property
    def n_action_moves(self) -> int:
        """Move ids below this are players' moves; the chance outcomes follow."""
        return sum(a.size for a in self.actions)

    @property
    def n_moves(self) -> int:
        return self.n_action_moves + (len(self.chance.outcomes) if self.chance else 0)

    def piece_id(self, owner: int, kind: int) -> int:
        return 1 + owner * self.n_kinds + kind

    def piece_owner(self, piece: int) -> int:
        return NOBODY if piece <= 0 else (piece - 1) // self.n_kinds

    def piece_kind(self, piece: int) -> int:
        return -1 if piece <= 0 else (piece - 1) % self.n_kinds

    def base_of(self, kind: int) -> int:
        """The kind a piece of ``kind`` is in a hand (its ``base``, or itself)."""
        return self.kind_base[kind] if self.kind_base else kind


# --- direction opposites (for line()) --------------------------------------------------


def opposite_directions(board: "BoardIR") -> tuple[int, ...]:
    """For each direction d, the direction e that undoes it (step(step(c, d), e) == c for
    every cell c whose d-step is on the board), the first such in board order; -1 when no
    direction does. ``line()`` counts along d and its opposite."""
    n = board.n_cells
    out = []
    for d, row in enumerate(board.steps):
        found = -1
        for e, back in enumerate(board.steps):
            if all(back[t] == c for c, t in enumerate(row[:n]) if t < n) and any(t < n for t in row[:n]):
                found = e
                break
        out.append(found)
    return tuple(out)
