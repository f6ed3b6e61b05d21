"""Spec tree -> GameIR: validate every section against its table of keys, resolve names,
type-check conditions, and precompute the board.

Sections are lowered in dependency order (game, pieces, counters, board, define, actions,
triggers, end, ranking, render); each has one function here. Every error names the
offending node's file:line:col.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Optional

from ..board.topology import MAX_CELLS, TOPOLOGIES, TOPOLOGY_KEYS
from ..conditions.check import Names, a_type, check_condition, check_domain
from ..conditions.parse import parse_signature
from ..errors import Pos, SpecError, did_you_mean
from ..ir.nodes import (
    BOOL,
    CELL,
    DIR,
    FACE,
    INT,
    KIND,
    PLAYER,
    ITEM,
    DeckIR,
    AreaIR,
    Discard,
    Draw,
    Action,
    AssessRegions,
    BoardIR,
    Call,
    ChanceIR,
    chance_tables,
    Const,
    Define,
    DefineCall,
    Effect,
    End,
    Expr,
    GameIR,
    Local,
    Param,
    Place,
    MovePiece,
    FlipFlanked,
    ExtraTurn,
    ForEach,
    IfEffect,
    NextTurn,
    Remove,
    RankKey,
    RenderIR,
    SetCounter,
    Trigger,
)
from .variants import apply_player_count, apply_variant, load_tree, player_counts, variant_names
from .yamlpos import YList, YMap, YNode, YScalar
from .zones import ZONE_EFFECTS, ZONE_SECTIONS, lower_items, lower_zones

SPEC_VERSION = 1
MAX_PLAYERS = 8
MAX_HAND = 10_000
MAX_MOVES = 1 << 20
MAX_PLIES = 1_000_000
MAX_FACES = 64
MAX_DRAWS = 1 << 16  # faces ** dice: the sampling table's size
COUNTER_SCOPES = ("player", "game")  # a counter per player, or one for the game
VISIBILITIES = ("all", "owner", "none")  # who sees a value: everyone, its owner, nobody
REGION_VAR = "$cell"  # the candidate cell inside assess_regions (not a user-writable name)

# section -> (allowed keys, required keys)
SECTIONS: dict[str, tuple[set[str], set[str]]] = {
    "": ({"midgardc", "game", "pieces", "counters", "board", "define", "actions", "triggers", "end", "ranking", "render", "variants", "extends", "setup", "player_props", "chance", "player_counts", "deck", "areas", "items", "zones"}, {"game", "board", "actions", "ranking"}),
    "game": ({"name", "title", "players", "max_plies", "author", "source", "description"}, {"name", "players"}),
    "piece": ({"hand", "description"}, set()),
    "action": ({"params", "where", "effects", "notation", "description"}, set()),
    "trigger": ({"after", "when", "effects", "description"}, {"effects"}),
    "end": ({"when", "no_moves", "effects"}, set()),
    "render": ({"glyphs", "empty", "marks", "colours"}, set()),
    "empty_state": ({"when", "glyph"}, {"when", "glyph"}),
    "place": ({"piece", "at", "owner", "height", "push"}, {"piece", "at"}),
    "assess_regions": ({"cells", "open_if_touching", "near", "award", "tie", "first", "priority"}, {"cells", "award"}),
    "set": ({"counter", "of", "to"}, {"counter", "to"}),
    "add": ({"counter", "of", "to"}, {"counter", "to"}),
    # pieces on the board at the start; moving and turning pieces
    "setup_entry": ({"piece", "owner", "cells"}, {"piece", "owner", "cells"}),
    "move": ({"from", "to", "capture"}, {"from", "to"}),
    "flip_flanked": ({"at"}, {"at"}),
    # dice rolled at the start of every turn
    "chance": ({"name", "dice", "faces", "ordered"}, {"dice", "faces"}),
    # taking pieces off the board; moving again
    "remove": ({"at", "each", "where", "to"}, {"at"}),
    "extra_turn": (set(), set()),
    "next_turn": ({"to"}, {"to"}),
    "counter": ({"start", "of", "visible"}, set()),
    "face": ({"text", "value"}, set()),
    # items: every player's deck, face-up items and discard pile
    "deck": ({"items", "up"}, {"items"}),
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


class Lowerer:
    def __init__(self, tree: YMap, path: str, variant: Optional[str], seated: Optional[int] = None, counts: tuple[tuple[int, ...], int] = ((), 0)):
        self.tree = tree
        self.path = path
        self.variant = variant
        self.seated = seated  # an N-player game seats the first N of game.players (None: all)
        self.counts = counts  # (supported player counts, the default) from player_counts
        self.names = Names()
        self.kinds: list[str] = []
        self.players: list[str] = []
        self.unseated: set[str] = set()  # players declared but not seated at this count
        self.defines: list[Define] = []
        self.board: Optional[BoardIR] = None
        self.deck_ir: Optional[DeckIR] = None  # the players' decks (deck:)
        self.zones_ir = None  # kinds of item and zones (items:, zones:), a ZonesIR
        self.zones_names: list[str] = []  # zone names by index
        self.cell_index: dict[str, int] = {}

    # -- small checked readers -----------------------------------------------------

    def keys(self, node: YNode, section: str, what: str) -> YMap:
        if not isinstance(node, YMap):
            raise SpecError(f"{what} must be a mapping", node.pos)
        allowed, required = SECTIONS[section]
        for key in node.items:
            if key not in allowed:
                where = "at the top level of the spec" if section == "" else f"in {what}"
                raise SpecError(f"unknown key '{key}' {where}", node.key_pos[key], did_you_mean(key, allowed) or f"allowed keys: {', '.join(sorted(allowed))}")
        for key in sorted(required):
            if key not in node.items:
                raise SpecError(f"{what} needs a '{key}' key", node.pos, _REQUIRED_HINTS.get((section, key), ""))
        return node

    def scalar(self, node: YNode, typ: type, what: str, lo: Optional[int] = None, hi: Optional[int] = None) -> Any:
        if not isinstance(node, YScalar):
            raise SpecError(f"{what} must be a single value, not a {'list' if isinstance(node, YList) else 'mapping'}", node.pos)
        value = node.value
        if typ is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise SpecError(f"{what} must be a whole number, got {value!r}", node.pos)
            if lo is not None and value < lo or hi is not None and value > hi:
                raise SpecError(f"{what} must be between {lo} and {hi}, got {value}", node.pos)
            return value
        if typ is bool:
            if not isinstance(value, bool):
                raise SpecError(f"{what} must be true or false, got {value!r}", node.pos)
            return value
        if typ is str:
            if value is None or isinstance(value, bool):
                raise SpecError(f"{what} must be text, got {value!r}", node.pos)
            return str(value)
        raise AssertionError(typ)

    def ident(self, text: str, pos: Pos, what: str) -> str:
        if not NAME_RE.match(text) or len(text) > 64:
            raise SpecError(f"{what} '{text[:40]}' is not a valid name (letters, digits and _, not starting with a digit, at most 64)", pos)
        from ..ir.builtins import BUILTINS, CONSTANTS, DOMAINS, KEYWORDS, QUANTIFIERS

        from ..ir.builtins import ZONE_FUNCTIONS

        if text in KEYWORDS or text in BUILTINS or text in DOMAINS or text in QUANTIFIERS or text in CONSTANTS or (text in ZONE_FUNCTIONS and self.names.zones):
            raise SpecError(f"{what} '{text}' is a built-in word of the condition language; choose another name", pos)
        return text

    def condition(self, node: YNode, scope: dict[str, str], want: Optional[str] = BOOL) -> Expr:
        if isinstance(node, YScalar) and isinstance(node.value, bool):
            if want not in (BOOL, None):
                raise SpecError(f"expected {a_type(want)} here, not true/false", node.pos)
            return Const(int(node.value), BOOL)
        if isinstance(node, YScalar) and isinstance(node.value, int):
            return check_condition(str(node.value), node.text_pos, self.names, scope, want)
        if isinstance(node, YMap) and len(node.items) == 1:
            (key, value), = node.items.items()
            if isinstance(value, YScalar) and value.value is not None and re.search(r"\b(any|all|in)\b", key):
                raise SpecError(
                    "this condition was read as a YAML mapping: it contains ': ' and is not quoted",
                    node.pos,
                    f"quote the whole condition: \"{key}: {value.value}\"",
                )
        text = self.scalar(node, str, "a condition")
        return check_condition(text, node.text_pos, self.names, scope, want)

    def predicate(self, node: YNode, what: str) -> Expr:
        """A one-cell condition named by a definition, property or built-in (e.g. 'free')."""
        name = self.scalar(node, str, what)
        if not NAME_RE.match(name):
            raise SpecError(f"{what} names a cell condition (a definition such as 'free'), got {name!r}", node.pos)
        # Reuse the checker: 'name(x)' with x the region's candidate cell.
        text = f"{name}({REGION_VAR[1:]})"
        expr = check_condition(text, lambda off: node.pos, self.names, {REGION_VAR[1:]: CELL}, BOOL)
        return _rename_local(expr, REGION_VAR[1:], REGION_VAR)

    # -- sections ------------------------------------------------------------------

    def lower(self) -> GameIR:
        top = self.keys(self.tree, "", "the spec")
        if "midgardc" in top:
            version = self.scalar(top.items["midgardc"], int, "'midgardc' (the spec language version)")
            if version != SPEC_VERSION:
                raise SpecError(f"this spec is for language version {version}; this midgardc reads version {SPEC_VERSION}", top.items["midgardc"].pos)
        game = self.keys(top.items["game"], "game", "'game'")
        name = self.scalar(game.items["name"], str, "game.name")
        if not SLUG_RE.match(name) or len(name) > 40:
            raise SpecError(f"game.name '{name[:40]}' must be a short lowercase id (letters, digits, '-', '_')", game.items["name"].pos)
        title = self.scalar(game.items["title"], str, "game.title") if "title" in game else name
        max_plies = self.scalar(game.items["max_plies"], int, "game.max_plies", 1, MAX_PLIES) if "max_plies" in game else 1000
        self.lower_players(game.items["players"])
        hand_init = self.lower_pieces(top.get("pieces"))
        counters, counter_init, counter_scope, counter_visible = self.lower_counters(top.get("counters"))
        self.board = self.lower_board(top.items["board"])
        initial_board = self.lower_setup(top.get("setup"))
        player_props = self.lower_player_props(top.get("player_props"))
        chance = self.lower_chance(top.get("chance"))
        self.deck_ir = self.lower_deck(top.get("deck"))
        items = lower_items(self, top.get("items"))
        self.zones_ir = lower_zones(self, top.get("zones"), items)
        self.zones_names = [z.name for z in self.zones_ir.zones] if self.zones_ir else []
        areas = self.lower_areas(top.get("areas"))
        self.lower_defines(top.get("define"))
        actions = self.lower_actions(top.items["actions"])
        if chance is not None:
            chance = self.place_chance(chance, actions, top.items["chance"])
        triggers = self.lower_triggers(top.get("triggers"), actions)
        end = self.lower_end(top.get("end"))
        ranking = self.lower_ranking(top.items["ranking"])
        render = self.lower_render(top.get("render"))
        if "variants" in top:
            self.check_variants(top.items["variants"])
        return GameIR(
            name=name,
            title=title,
            variant=self.variant,
            players=tuple(self.players),
            kinds=tuple(self.kinds),
            hand_init=hand_init,
            counters=tuple(counters),
            counter_init=counter_init,
            counter_scope=counter_scope,
            counter_visible=counter_visible,
            board=self.board,
            defines=tuple(self.defines),
            actions=actions,
            triggers=triggers,
            end=end,
            ranking=ranking,
            render=render,
            initial_board=initial_board,
            player_props=player_props,
            max_plies=max_plies,
            chance=chance,
            player_counts=self.counts[0],
            default_players=self.counts[1] or len(self.players),
            source=self.path,
            deck=self.deck_ir,
            zones=self.zones_ir,
            areas=areas,
            stacks=_uses_stacks((actions, triggers, end, ranking, tuple(self.defines), render)),
        )

    def lower_chance(self, node: Optional[YNode]) -> Optional[ChanceIR]:
        """The dice: their faces become names usable in conditions (type face)."""
        if node is None:
            return None
        body = self.keys(node, "chance", "'chance'")
        name = self.ident(self.scalar(body["name"], str, "chance.name"), body["name"].pos, "chance.name") if "name" in body else "roll"
        dice = self.scalar(body["dice"], int, "chance.dice", 1, 16)
        ordered = self.scalar(body["ordered"], bool, "chance.ordered") if "ordered" in body else False
        fnode = body["faces"]
        if not isinstance(fnode, YMap) or not 1 <= len(fnode.items) <= MAX_FACES:
            raise SpecError(f"chance.faces maps 1 to {MAX_FACES} face names to their values, e.g. {{ace: 1, blank: 0}}", fnode.pos)
        if len(fnode.items) ** dice > MAX_DRAWS:
            raise SpecError(f"{len(fnode.items)} faces on {dice} dice make {len(fnode.items) ** dice} draws (limit {MAX_DRAWS})", body["dice"].pos)
        faces, texts, values = [], [], []
        for face, fbody in fnode.items.items():
            fpos = fnode.key_pos[face]
            self.ident(face, fpos, "face name")
            if face in self.names.constants:
                raise SpecError(f"face '{face}' has the same name as a player, piece kind or direction", fpos)
            text, value = face, len(faces)
            if isinstance(fbody, YMap):
                fbody = self.keys(fbody, "face", f"face '{face}'")
                text = self.scalar(fbody["text"], str, "a face's text") if "text" in fbody else face
                value = self.scalar(fbody["value"], int, "a face's value", -(2**31), 2**31 - 1) if "value" in fbody else value
            elif fbody is not None and not (isinstance(fbody, YScalar) and fbody.value is None):
                value = self.scalar(fbody, int, "a face's value", -(2**31), 2**31 - 1)
            if not text or any(ch.isspace() or ch in ",-:" for ch in text):
                raise SpecError(f"face text {text!r} may not be empty or contain spaces, commas, '-' or ':' (it is part of a move's text)", fpos)
            if text in texts:
                raise SpecError(f"two faces are written {text!r}; a roll's text would not say which", fpos)
            self.names.constants[face] = (len(faces), FACE)
            faces.append(face)
            texts.append(text)
            values.append(value)
        self.names.has_chance = True
        outcomes, weights, draw_outcome = chance_tables(len(faces), dice, ordered)
        return ChanceIR(name, tuple(faces), tuple(texts), tuple(values), dice, ordered, outcomes, weights, draw_outcome)

    def lower_deck(self, node: Optional[YNode]) -> Optional[DeckIR]:
        """The decks: each kind of item becomes a name usable in conditions (type item)."""
        if node is None:
            return None
        body = self.keys(node, "deck", "'deck'")
        dnode = body["items"]
        if not isinstance(dnode, YMap) or not dnode.items:
            raise SpecError("deck.items maps each kind of item to the numbers it shows, e.g. {one: [1], low: {values: [1, 2, 3], text: 1-2-3}}", dnode.pos)
        names, texts, values, counts = [], [], [], []
        for cname, cbody in dnode.items.items():
            cpos = dnode.key_pos[cname]
            self.ident(cname, cpos, "item name")
            if cname in self.names.constants:
                raise SpecError(f"item '{cname}' has the same name as a player, piece kind, direction or die face", cpos)
            text, count = cname, 1
            vnode = cbody
            if isinstance(cbody, YMap):
                cbody = self.keys(cbody, "item", f"item '{cname}'")
                vnode = cbody["values"]
                text = self.scalar(cbody["text"], str, "an item's text") if "text" in cbody else cname
                count = self.scalar(cbody["count"], int, "an item's count", 1, MAX_ITEMS) if "count" in cbody else 1
            if not isinstance(vnode, YList) or len(vnode) == 0:
                raise SpecError(f"item '{cname}' shows a list of numbers, e.g. [1, 2, 3]", vnode.pos if vnode is not None else cpos)
            nums = tuple(self.scalar(v, int, "an item's number", -(2**31), 2**31 - 1) for v in vnode)
            if not text or any(ch.isspace() or ch in ",:" for ch in text):
                raise SpecError(f"item text {text!r} may not be empty or contain spaces, commas or ':' (it is part of a move's text)", cpos)
            if text in texts:
                raise SpecError(f"two items are written {text!r}; a move would not say which", cpos)
            self.names.constants[cname] = (len(names), ITEM)
            names.append(cname)
            texts.append(text)
            values.append(nums)
            counts.append(count)
        if sum(counts) > MAX_ITEMS:
            raise SpecError(f"a deck of {sum(counts)} items (limit {MAX_ITEMS})", dnode.pos)
        up = self.scalar(body["up"], int, "deck.up", 0, sum(counts)) if "up" in body else 0
        self.names.has_deck = True
        self.names.has_items = True
        return DeckIR(tuple(names), tuple(texts), tuple(values), tuple(counts), up)

    def lower_areas(self, node: Optional[YNode]) -> tuple[AreaIR, ...]:
        """Groups of cells scored by majority: cells, a weight per cell, points."""
        if node is None:
            return ()
        if not isinstance(node, YList) or len(node) == 0:
            raise SpecError("'areas' is a list of areas, e.g. - {name: north, cells: [a1, a2], weights: {a1: 2}, points: 2}", node.pos)
        out = []
        names: set[str] = set()
        for item in node:
            body = self.keys(item, "area", "an area")
            aname = self.ident(self.scalar(body["name"], str, "an area's name"), body["name"].pos, "area name")
            if aname in names:
                raise SpecError(f"two areas are called '{aname}'", body["name"].pos)
            names.add(aname)
            cnode = body["cells"]
            if not isinstance(cnode, YList) or len(cnode) == 0:
                raise SpecError(f"area '{aname}': cells is a list of cell names", cnode.pos)
            cells = [self.cell(x) for x in cnode]
            if len(set(cells)) != len(cells):
                raise SpecError(f"area '{aname}' lists a cell twice", cnode.pos)
            weights = [1] * len(cells)
            if "weights" in body:
                wnode = body["weights"]
                if not isinstance(wnode, YMap):
                    raise SpecError(f"area '{aname}': weights maps some of its cells to a number, e.g. {{c3: 2}}", wnode.pos)
                for cname, w in wnode.items.items():
                    c = self.board.cell_names.index(cname) if cname in self.board.cell_names else -1
                    if c not in cells:
                        raise SpecError(f"'{cname}' is not a cell of area '{aname}'", wnode.key_pos[cname], did_you_mean(cname, [self.board.cell_names[x] for x in cells]))
                    weights[cells.index(c)] = self.scalar(w, int, "a cell's weight", 0, 2**20)
            points = self.scalar(body["points"], int, "an area's points", -(2**20), 2**20) if "points" in body else len(cells)
            out.append(AreaIR(aname, tuple(cells), tuple(weights), points))
        self.names.has_areas = True
        return tuple(out)

    def place_chance(self, chance: ChanceIR, actions: tuple[Action, ...], node: YNode) -> ChanceIR:
        """The outcomes' move ids follow the actions'."""
        from dataclasses import replace

        if any(a.name == chance.name for a in actions):
            raise SpecError(f"the roll is called '{chance.name}', like an action; give it another chance.name", node.pos)
        prefix = chance.name + ":"
        for a in actions:
            values = [self.value_texts(a.params[part]) if isinstance(part, int) else () for part in a.notation]
            if _can_write_prefix(a.notation, values, prefix):
                raise SpecError(
                    f"action '{a.name}' can write a move starting '{prefix}', as the roll's outcomes are written, so a move's text would not say which is meant",
                    node.pos,
                    "give the roll another chance.name, or the action a notation (and cell names) that cannot start with it",
                )
        base = sum(a.size for a in actions)
        if base + len(chance.outcomes) > MAX_MOVES:
            raise SpecError(f"too many possible moves (limit {MAX_MOVES})", node.pos)
        return replace(chance, base=base)

    def lower_players(self, node: YNode) -> None:
        if not isinstance(node, YList) or not 1 <= len(node) <= MAX_PLAYERS:
            raise SpecError(f"game.players is a list of 1 to {MAX_PLAYERS} player names in seat order", node.pos)
        for item in node:
            p = self.ident(self.scalar(item, str, "a player name"), item.pos, "player name")
            if p in self.players or p in self.unseated:
                raise SpecError(f"player '{p}' is listed twice", item.pos)
            if self.seated is not None and len(self.players) >= self.seated:
                self.unseated.add(p)  # their per-player data elsewhere is skipped
                continue
            self.players.append(p)
            self.names.constants[p] = (len(self.players) - 1, PLAYER)
        if self.seated is not None and len(self.players) < self.seated:
            raise SpecError(f"game.players names {len(self.players)} players; a {self.seated}-player game needs {self.seated}", node.pos, "list a name for every seat (a player_counts patch may replace game.players)")

    def lower_pieces(self, node: Optional[YNode]) -> tuple[tuple[int, ...], ...]:
        if node is None:
            return tuple(() for _ in self.players)
        if not isinstance(node, YMap):
            raise SpecError("'pieces' maps each kind of piece to its details, e.g. stone: {hand: 20}", node.pos)
        per_kind: list[list[int]] = []
        for kind, body in node.items.items():
            kpos = node.key_pos[kind]
            self.ident(kind, kpos, "piece kind")
            if kind in self.names.constants:
                raise SpecError(f"piece kind '{kind}' has the same name as a player", kpos)
            self.names.constants[kind] = (len(self.kinds), KIND)
            self.kinds.append(kind)
            body = self.keys(body, "piece", f"piece '{kind}'")
            hands = [0] * len(self.players)
            hand = body.get("hand")
            if isinstance(hand, YMap):
                for p, count in hand.items.items():
                    if p in self.unseated:
                        continue
                    if p not in self.players:
                        raise SpecError(f"unknown player '{p}'", hand.key_pos[p], did_you_mean(p, self.players))
                    hands[self.players.index(p)] = self.scalar(count, int, "a hand size", 0, MAX_HAND)
            elif hand is not None:
                hands = [self.scalar(hand, int, "a hand size", 0, MAX_HAND)] * len(self.players)
            per_kind.append(hands)
        return tuple(tuple(per_kind[k][p] for k in range(len(self.kinds))) for p in range(len(self.players)))

    def lower_counters(self, node: Optional[YNode]) -> tuple[list[str], tuple[tuple[int, ...], ...], tuple[str, ...], tuple[str, ...]]:
        """Counters: ``name: 0`` (per player, public) or ``name: {start, of, visible}``. The
        state keeps one row per player and then the game's row, so a game counter is an
        ordinary counter of a row nobody sits at."""
        names: list[str] = []
        init: list[int] = []
        scopes: list[str] = []
        visible: list[str] = []
        if node is not None:
            if not isinstance(node, YMap):
                raise SpecError("'counters' maps a counter name to its starting value (or to {start, of, visible})", node.pos)
            for cname, value in node.items.items():
                self.ident(cname, node.key_pos[cname], "counter name")
                scope, vis = "player", "all"
                if isinstance(value, YMap):
                    body = self.keys(value, "counter", f"counter '{cname}'")
                    start = self.scalar(body["start"], int, "a counter's starting value", -(2**31), 2**31 - 1) if "start" in body else 0
                    if "of" in body:
                        scope = self.scalar(body["of"], str, "a counter's 'of'")
                        if scope not in COUNTER_SCOPES:
                            raise SpecError(f"a counter is 'of' {' or '.join(COUNTER_SCOPES)}, not '{scope}'", body["of"].pos, did_you_mean(scope, COUNTER_SCOPES))
                    if "visible" in body:
                        vis = self.scalar(body["visible"], str, "a counter's 'visible'")
                        if vis not in VISIBILITIES:
                            raise SpecError(f"a counter is visible to {', '.join(VISIBILITIES)}, not '{vis}'", body["visible"].pos, did_you_mean(vis, VISIBILITIES))
                        if scope == "game" and vis == "owner":
                            raise SpecError("a game counter has no owner: it is visible to 'all' or 'none'", body["visible"].pos)
                else:
                    start = self.scalar(value, int, "a counter's starting value", -(2**31), 2**31 - 1)
                (self.names.game_counters if scope == "game" else self.names.counters)[cname] = len(names)
                names.append(cname)
                init.append(start)
                scopes.append(scope)
                visible.append(vis)
        per_player = tuple(v if s == "player" else 0 for v, s in zip(init, scopes))
        game_row = tuple(v if s == "game" else 0 for v, s in zip(init, scopes))
        self.names.game_row = len(self.players)
        return names, (*(per_player for _ in self.players), game_row), tuple(scopes), tuple(visible)

    def lower_board(self, node: YNode) -> BoardIR:
        if not isinstance(node, YMap):
            raise SpecError("'board' must be a mapping with a 'topology'", node.pos)
        topo_node = node.get("topology")
        if topo_node is None:
            raise SpecError(f"the board needs a 'topology' ({', '.join(TOPOLOGIES)})", node.pos)
        topo = self.scalar(topo_node, str, "board.topology")
        if topo not in TOPOLOGIES:
            raise SpecError(f"unknown board topology '{topo}' (known: {', '.join(TOPOLOGIES)})", topo_node.pos, did_you_mean(topo, TOPOLOGIES))
        allowed = TOPOLOGY_KEYS[topo] | {"topology", "props"}
        for key in node.items:
            if key not in allowed:
                raise SpecError(f"unknown key '{key}' for a {topo} board", node.key_pos[key], did_you_mean(key, allowed) or f"allowed keys: {', '.join(sorted(allowed))}")

        def get(key: str, typ: type, default: Any = None, lo: Optional[int] = None, hi: Optional[int] = None, choices: tuple = ()) -> Any:
            if key not in node.items:
                if default is None:
                    raise SpecError(f"a {topo} board needs '{key}'", node.pos)
                return default
            value = self.scalar(node.items[key], typ, f"board.{key}", lo, hi)
            if choices and value not in choices:
                raise SpecError(f"board.{key} must be one of {', '.join(map(str, choices))}", node.items[key].pos)
            return value

        raw = TOPOLOGIES[topo](node, get)
        if len(raw.names) > MAX_CELLS:
            raise SpecError(f"the board has {len(raw.names)} cells; the limit is {MAX_CELLS}", node.pos)
        for i, name in enumerate(raw.names):
            if name in self.cell_index:
                raise SpecError(f"two cells are both named '{name}'; make the cell_name template unique", node.pos)
            if not name or any(ch.isspace() or ch == "," for ch in name):
                raise SpecError(f"cell name {name!r} must be non-empty, without spaces or commas (it is how moves are written)", node.pos)
            self.cell_index[name] = i
        for d, dname in enumerate(raw.directions):
            if dname in self.names.constants:
                raise SpecError(f"direction '{dname}' clashes with a player or piece name", node.pos)
            self.names.constants[dname] = (d, DIR)
        self.names.has_directions = bool(raw.directions)
        props = self.lower_props(node.get("props"), len(raw.names))
        board = BoardIR(
            topology=topo,
            cell_names=tuple(raw.names),
            neighbours=tuple(tuple(n) for n in raw.neighbours),
            directions=tuple(raw.directions),
            steps=tuple(tuple(s) for s in raw.steps),
            coords=tuple(raw.coords),
            polygons=tuple(tuple(p) for p in raw.polygons),
            props=props,
        )
        return board

    def cell(self, node: YNode) -> int:
        name = self.scalar(node, str, "a cell name") if not isinstance(getattr(node, "value", None), int) else str(node.value)
        if name not in self.cell_index:
            cells = list(self.cell_index)
            sample = ", ".join(cells[:3]) + (f", ..., {cells[-1]}" if len(cells) > 3 else "")
            raise SpecError(f"unknown cell '{name}'", node.pos, did_you_mean(name, cells) or f"this board's cells are {sample}")
        return self.cell_index[name]

    def lower_props(self, node: Optional[YNode], n: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
        out = []
        if node is None:
            return ()
        if not isinstance(node, YMap):
            raise SpecError("board.props maps a property name to a list of cells (or cell: number)", node.pos)
        for pname, body in node.items.items():
            self.ident(pname, node.key_pos[pname], "property name")
            values = [0] * n
            if isinstance(body, YList):
                typ = BOOL
                for item in body:
                    values[self.cell(item)] = 1
            elif isinstance(body, YMap):
                typ = INT
                for cname, v in body.items.items():
                    values[self.cell(YScalar(cname, body.key_pos[cname]))] = self.scalar(v, int, "a property value", -(2**31), 2**31 - 1)
            elif isinstance(body, YScalar) and body.value is None:
                typ = BOOL
            else:
                raise SpecError(f"property '{pname}' must be a list of cells or a mapping cell: number", body.pos)
            self.names.props[pname] = (len(out), typ)
            out.append((pname, tuple(values)))
        return tuple(out)

    # -- setup and per-player properties ---------------------------------------------

    def lower_setup(self, node: Optional[YNode]) -> tuple[int, ...]:
        """setup: a list of {piece, owner, cells}: those pieces stand there at the start
        (they do not come from any hand)."""
        if node is None:
            return ()
        if not isinstance(node, YList):
            raise SpecError("'setup' is a list of entries like {piece: stone, owner: white, cells: [d4, e5]}", node.pos)
        n = len(self.cell_index)
        board = [0] * n
        for entry in node:
            body = self.keys(entry, "setup_entry", "a setup entry")
            kind = self.kind(body["piece"])
            onode = body["owner"]
            oname = self.scalar(onode, str, "a player name")
            if oname in self.unseated:
                continue
            if oname not in self.players:
                raise SpecError(f"unknown player '{oname}'", onode.pos, did_you_mean(oname, self.players))
            piece = 1 + self.players.index(oname) * len(self.kinds) + kind
            cells = body["cells"]
            if not isinstance(cells, YList):
                raise SpecError("setup cells are a list of cell names, e.g. [d4, e5]", cells.pos)
            for item in cells:
                c = self.cell(item)
                if board[c]:
                    raise SpecError(f"cell '{self.board.cell_names[c]}' is set up twice", item.pos)
                board[c] = piece
        return tuple(board)

    def lower_player_props(self, node: Optional[YNode]) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """player_props: name -> {player: value}; a value is a number, a direction, a cell,
        a player or a piece kind (one type per property); every player needs a value."""
        if node is None:
            return ()
        if not isinstance(node, YMap):
            raise SpecError("'player_props' maps a property name to {player: value}, e.g. ahead: {white: n, black: s}", node.pos)
        out = []
        for pname, body in node.items.items():
            ppos = node.key_pos[pname]
            self.ident(pname, ppos, "player property name")
            if pname in self.names.props or pname in self.names.counters or pname in self.names.game_counters or pname in self.names.constants or pname in self.names.player_props:
                raise SpecError(f"'{pname}' is already a name in this spec", ppos)
            if not isinstance(body, YMap):
                raise SpecError(f"player property '{pname}' maps each player to a value", body.pos)
            values = [0] * len(self.players)
            typ = None
            for player, vnode in body.items.items():
                if player in self.unseated:
                    continue
                if player not in self.players:
                    raise SpecError(f"unknown player '{player}'", body.key_pos[player], did_you_mean(player, self.players))
                if isinstance(vnode, YScalar) and isinstance(vnode.value, int) and not isinstance(vnode.value, bool):
                    value, vtyp = self.scalar(vnode, int, "a player property value", -(2**31), 2**31 - 1), INT
                else:
                    text = self.scalar(vnode, str, "a player property value")
                    if text in self.names.constants:
                        value, vtyp = self.names.constants[text]
                    elif text in self.cell_index:
                        value, vtyp = self.cell_index[text], CELL
                    else:
                        raise SpecError(f"'{text}' is not a number, direction, cell, player or piece kind", vnode.pos, did_you_mean(text, [*self.names.constants, *self.cell_index]))
                if typ is not None and vtyp != typ:
                    raise SpecError(f"player property '{pname}' mixes {a_type(typ)} and {a_type(vtyp)}", vnode.pos)
                typ = vtyp
                values[self.players.index(player)] = value
            missing = [p for p in self.players if p not in body.items]
            if missing:
                raise SpecError(f"player property '{pname}' has no value for {', '.join(missing)}", body.pos)
            self.names.player_props[pname] = (len(out), typ or INT)
            out.append((pname, tuple(values)))
        return tuple(out)

    def lower_defines(self, node: Optional[YNode]) -> None:
        if node is None:
            return
        if not isinstance(node, YMap):
            raise SpecError("'define' maps heads like 'free(cell c)' to conditions", node.pos)
        self.names.later = {m.group(1) for head in node.items if (m := re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*)", head))}
        for head, body in node.items.items():
            kpos = node.key_pos[head]
            knode = node.key_nodes.get(head)
            locate = knode.text_pos if knode is not None else (lambda off, kpos=kpos: Pos(kpos.file, kpos.line, kpos.col + off))
            name, params = parse_signature(head, locate)
            kpos = locate(len(head) - len(head.lstrip()))
            self.ident(name, kpos, "definition name")
            if name in self.names.defines or name in self.names.props or name in self.names.counters or name in self.names.game_counters or name in self.names.constants or name in self.names.player_props:
                raise SpecError(f"'{name}' is already defined", kpos)
            scope: dict[str, str] = {}
            ptuple = []
            for typ, pname, off, typ_off in params:
                ppos = locate(off)
                if typ not in DEFINE_TYPES:
                    raise SpecError(f"unknown parameter type '{typ}' (types: {', '.join(DEFINE_TYPES)})", locate(typ_off), did_you_mean(typ, DEFINE_TYPES))
                self.ident(pname, ppos, "parameter name")
                if pname in scope:
                    raise SpecError(f"parameter '{pname}' appears twice", ppos)
                scope[pname] = DEFINE_TYPES[typ]
                ptuple.append(Param(pname, DEFINE_TYPES[typ]))
            self.names.defining = name
            expr = self.condition(body, scope, want=None)
            self.names.defining = ""
            self.names.later.discard(name)
            self.names.defines[name] = (len(self.defines), tuple(p.type for p in ptuple), expr.type)
            self.defines.append(Define(name, tuple(ptuple), expr, expr.type))
        self.names.later = set()

    def lower_params(self, node: Optional[YNode]) -> tuple[Param, ...]:
        if node is None:
            return ()
        if not isinstance(node, YMap):
            raise SpecError("'params' maps parameter names to types, e.g. {c: cell}", node.pos)
        params = []
        for pname, tnode in node.items.items():
            self.ident(pname, node.key_pos[pname], "parameter name")
            tname = self.scalar(tnode, str, "a parameter type")
            m = re.fullmatch(r"(-?\d+)\s*\.\.\s*(-?\d+)", tname)
            if m:
                lo, hi = int(m.group(1)), int(m.group(2))
                if hi < lo or hi - lo > 4096:
                    raise SpecError("an integer parameter range is 'lo..hi' with at most 4096 values", tnode.pos)
                params.append(Param(pname, INT, lo, hi))
            elif tname in PARAM_TYPES:
                params.append(Param(pname, PARAM_TYPES[tname]))
            else:
                raise SpecError(f"unknown parameter type '{tname}' (cell, player, kind, dir, item, or a range like 1..6)", tnode.pos, did_you_mean(tname, PARAM_TYPES))
        return tuple(params)

    def value_texts(self, p: Param) -> set[str]:
        """How the values of parameter ``p`` are written in moves."""
        assert self.board is not None
        if p.type == INT:
            return {str(v) for v in range(p.lo, p.hi + 1)}
        items = self.deck_ir.texts if self.deck_ir else (self.zones_ir.texts if self.zones_ir else ())
        return set({CELL: self.board.cell_names, PLAYER: self.players, KIND: self.kinds, DIR: self.board.directions, ITEM: items}[p.type])

    def param_size(self, p: Param) -> int:
        assert self.board is not None
        return {CELL: self.board.n_cells, PLAYER: len(self.players), KIND: len(self.kinds), DIR: len(self.board.directions), INT: p.hi - p.lo + 1, ITEM: self.deck_ir.n_kinds if self.deck_ir else (self.zones_ir.n_kinds if self.zones_ir else 0)}[p.type]

    def lower_actions(self, node: YNode) -> tuple[Action, ...]:
        if not isinstance(node, YMap) or not node.items:
            raise SpecError("'actions' maps action names to their parameters, condition and effects", node.pos)
        actions = []
        base = 0
        for aname, body in node.items.items():
            self.ident(aname, node.key_pos[aname], "action name")
            body = self.keys(body, "action", f"action '{aname}'")
            params = self.lower_params(body.get("params"))
            scope = {p.name: p.type for p in params}
            where = self.condition(body["where"], scope) if "where" in body else Const(1, BOOL)
            effects = self.lower_effects(body.get("effects"), scope, f"action '{aname}'")
            where = _with_hand_checks(where, effects)
            notation = self.lower_notation(body.get("notation"), params, aname, node.key_pos[aname])
            size = 1
            for p in params:
                size *= self.param_size(p)
            if base + size > MAX_MOVES:
                raise SpecError(f"too many possible moves (limit {MAX_MOVES})", node.key_pos[aname])
            shape = tuple(part if isinstance(part, str) else params[part].type for part in notation)
            for other in actions:
                if tuple(part if isinstance(part, str) else other.params[part].type for part in other.notation) == shape:
                    npos = body["notation"].pos if "notation" in body else node.key_pos[aname]
                    raise SpecError(
                        f"actions '{other.name}' and '{aname}' write their moves the same way, so a move's text would not say which is meant",
                        npos,
                        f"give '{aname}' a notation of its own, e.g. notation: \"" + ":".join([aname] + ["{%s}" % p.name for p in params]) + '"',
                    )
            actions.append(Action(aname, params, where, effects, notation, base, size))
            base += size
        return tuple(actions)

    def lower_notation(self, node: Optional[YNode], params: tuple[Param, ...], aname: str, pos: Pos) -> tuple:
        if node is None:
            # one parameter: its value ('b2'); none: the action's name ('pass');
            # several: the name and the values joined by ':' ('move:a1:b2')
            template = "{%s}" % params[0].name if len(params) == 1 else ":".join([aname] + ["{%s}" % p.name for p in params])
            npos = pos
        else:
            template = self.scalar(node, str, "notation")
            npos = node.pos
        parts: list = []
        names = [p.name for p in params]
        try:
            fields = list(__import__("string").Formatter().parse(template))
        except ValueError as exc:  # a lone '{' or '}'
            raise SpecError(f"notation {template[:60]!r} is not a valid template: {exc}", npos, "write '{{' and '}}' for literal braces") from None
        for lit, field_name, spec, conv in fields:
            if lit:
                parts.append(lit)
            if field_name is not None:
                if field_name not in names:
                    at = template.find("{" + field_name)
                    fpos = node.text_pos(at + 1) if isinstance(node, YScalar) and at >= 0 else npos
                    params_list = ", ".join(names) or "none"
                    raise SpecError(
                        f"notation uses '{{{field_name}}}', which is not a parameter of '{aname}' (parameters: {params_list})",
                        fpos,
                        did_you_mean(field_name, names),
                    )
                parts.append(names.index(field_name))
        for i, ch in enumerate(template):
            if ch.isspace() or ch == ",":
                where = node.text_pos(i) if isinstance(node, YScalar) else npos
                raise SpecError(f"notation may not contain {'spaces' if ch.isspace() else 'commas'} (moves are separated by spaces or commas)", where)
        missing = [p.name for i, p in enumerate(params) if i not in parts]
        if missing:
            raise SpecError(
                f"notation {template!r} does not show parameter{'s' if len(missing) > 1 else ''} {', '.join(missing)}; two different moves would be written the same way",
                npos,
                "put every parameter in the notation, e.g. '" + ":".join([aname] + ["{%s}" % p.name for p in params]) + "'",
            )
        if not parts:
            raise SpecError("notation is empty", npos)
        return tuple(parts)

    def lower_effects(self, node: Optional[YNode], scope: dict[str, str], what: str) -> tuple[Effect, ...]:
        if node is None:
            return ()
        if not isinstance(node, YList):
            raise SpecError(f"the effects of {what} are a list, e.g. '- place: {{piece: stone, at: c}}'", node.pos)
        out = []
        for item in node:
            if not isinstance(item, YMap) or len(item.items) != 1:
                raise SpecError(f"each effect is a one-key mapping ({', '.join(EFFECTS)})", item.pos)
            (ename, body), = item.items.items()
            if ename not in EFFECTS:
                raise SpecError(f"unknown effect '{ename}'", item.key_pos[ename], did_you_mean(ename, EFFECTS) or f"effects: {', '.join(EFFECTS)}")
            out.append(EFFECTS[ename](self, self.keys(body, ename, f"effect '{ename}'"), scope))
        return tuple(out)

    def kind(self, node: YNode) -> int:
        k = self.scalar(node, str, "a piece kind")
        if k not in self.kinds:
            raise SpecError(f"unknown piece kind '{k}'", node.pos, did_you_mean(k, self.kinds))
        return self.kinds.index(k)

    def eff_place(self, body: YMap, scope: dict[str, str]) -> Effect:
        owner = self.condition(body["owner"], scope, PLAYER) if "owner" in body else Call("mover", (), PLAYER)
        # stacks and pushes: a stack of 'height' pieces; 'push' shifts an occupied cell's run
        height = self.condition(body["height"], scope, INT) if "height" in body else None
        push = None
        if "push" in body:
            if not self.names.has_directions:
                raise SpecError("place.push needs a board with directions (a square or hex grid)", body["push"].pos)
            push = self.condition(body["push"], scope, DIR)
        return Place(self.kind(body["piece"]), self.condition(body["at"], scope, CELL), owner, height, push)

    def eff_assess(self, body: YMap, scope: dict[str, str]) -> Effect:
        member = self.predicate(body["cells"], "assess_regions.cells")
        open_if = self.predicate(body["open_if_touching"], "assess_regions.open_if_touching") if "open_if_touching" in body else None
        priority = self.predicate(body["priority"], "assess_regions.priority") if "priority" in body else None
        seeds = None
        if "near" in body:
            n = body["near"]
            seeds = check_domain(self.scalar(n, str, "assess_regions.near"), n.text_pos, self.names, scope)
            if seeds.elem_type != CELL:
                raise SpecError("assess_regions.near must be a collection of cells", n.pos)
        tie = "split"
        if "tie" in body:
            tie = self.scalar(body["tie"], str, "assess_regions.tie")
            if tie not in ("split", "none"):
                raise SpecError("assess_regions.tie is 'split' (tied players share the cells) or 'none'", body["tie"].pos)
        first = self.condition(body["first"], scope, PLAYER) if "first" in body else Call("mover", (), PLAYER)
        return AssessRegions(member, open_if, seeds, self.kind(body["award"]), tie, priority, first, REGION_VAR)

    def eff_counter(self, body: YMap, scope: dict[str, str], add: bool) -> Effect:
        cnode = body["counter"]
        cname = self.scalar(cnode, str, "a counter name")
        value = self.condition(body["to"], scope, INT)
        if cname in self.names.game_counters:
            if "of" in body:
                raise SpecError(f"'{cname}' is a game counter: it belongs to no player, so it takes no 'of'", body.key_pos["of"])
            return SetCounter(self.names.game_counters[cname], Const(self.names.game_row, PLAYER), value, add)
        if cname not in self.names.counters:
            raise SpecError(f"unknown counter '{cname}'", cnode.pos, did_you_mean(cname, [*self.names.counters, *self.names.game_counters]))
        owner = self.condition(body["of"], scope, PLAYER) if "of" in body else Call("mover", (), PLAYER)
        return SetCounter(self.names.counters[cname], owner, value, add)

    def eff_next_turn(self, body: YMap, scope: dict[str, str]) -> Effect:
        return NextTurn(self.condition(body["to"], scope, PLAYER))

    def eff_move(self, body: YMap, scope: dict[str, str]) -> Effect:
        capture = "remove"
        if "capture" in body:
            capture = self.scalar(body["capture"], str, "move.capture")
            if capture not in ("remove", "hand"):
                raise SpecError("move.capture is 'remove' (a captured piece leaves the game) or 'hand' (it goes back to its owner's hand)", body["capture"].pos)
        return MovePiece(self.condition(body["from"], scope, CELL), self.condition(body["to"], scope, CELL), capture)

    def eff_flip(self, body: YMap, scope: dict[str, str]) -> Effect:
        if not self.names.has_directions:
            raise SpecError("flip_flanked needs a board with directions (a square grid)", body.pos)
        return FlipFlanked(self.condition(body["at"], scope, CELL))

    def eff_remove(self, body: YMap, scope: dict[str, str]) -> Effect:
        inner = dict(scope)
        each, var = None, ""
        if "each" in body:
            enode = body["each"]
            text = self.scalar(enode, str, "remove.each")
            m = re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s+in\s+(.+)\Z", text, re.S)
            if not m:
                raise SpecError("remove.each is 'VARIABLE in COLLECTION', e.g. \"d in directions\"", enode.pos)
            var = self.ident(m.group(1), enode.pos, "remove.each's variable")
            if var in scope or var in self.names.constants:
                raise SpecError(f"'{var}' is already a name here; pick another variable for remove.each", enode.pos)
            offset = m.start(2)
            each = check_domain(m.group(2), lambda off: enode.text_pos(offset + off), self.names, scope)
            inner[var] = each.elem_type
        where = self.condition(body["where"], inner) if "where" in body else None
        to = "hand"
        if "to" in body:
            to = self.scalar(body["to"], str, "remove.to")
            if to not in ("hand", "out"):
                raise SpecError("remove.to is 'hand' (back to the owner's hand, the default) or 'out' (out of the game)", body["to"].pos)
        return Remove(self.condition(body["at"], inner, CELL), where, each, var, to)

    def eff_discard(self, body: YMap, scope: dict[str, str]) -> Effect:
        if self.deck_ir is None:
            raise SpecError("discard needs the players' decks: add a 'deck' section", body.pos)
        owner = self.condition(body["of"], scope, PLAYER) if "of" in body else Call("mover", (), PLAYER)
        return Discard(self.condition(body["item"], scope, ITEM), owner)

    def eff_draw(self, body: YMap, scope: dict[str, str]) -> Effect:
        if self.deck_ir is None:
            raise SpecError("draw needs the players' decks: add a 'deck' section", body.pos)
        owner = self.condition(body["of"], scope, PLAYER) if "of" in body else Call("mover", (), PLAYER)
        count = self.condition(body["count"], scope, INT) if "count" in body else Const(1, INT)
        return Draw(owner, count)

    def eff_extra_turn(self, body: YMap, scope: dict[str, str]) -> Effect:
        return ExtraTurn()  # (conditional: in a trigger with 'when')

    def lower_triggers(self, node: Optional[YNode], actions: tuple[Action, ...]) -> tuple[Trigger, ...]:
        if node is None:
            return ()
        if not isinstance(node, YMap):
            raise SpecError("'triggers' maps trigger names to {after, when, effects}", node.pos)
        names = [a.name for a in actions]
        out = []
        for tname, body in node.items.items():
            body = self.keys(body, "trigger", f"trigger '{tname}'")
            after: list[int] = []
            scope: dict[str, str] = {}
            if "after" in body:
                anode = body["after"]
                items = anode.items if isinstance(anode, YList) else [anode]
                for item in items:
                    a = self.scalar(item, str, "an action name")
                    if a not in names:
                        raise SpecError(f"unknown action '{a}'", item.pos, did_you_mean(a, names))
                    after.append(names.index(a))
                # parameters common to all triggering actions are visible
                common = None
                for i in after:
                    ps = {p.name: p.type for p in actions[i].params}
                    common = ps if common is None else {k: v for k, v in common.items() if ps.get(k) == v}
                scope = common or {}
            when = self.condition(body["when"], scope) if "when" in body else None
            effects = self.lower_effects(body["effects"], scope, f"trigger '{tname}'")
            out.append(Trigger(tname, tuple(after), when, effects))
        return tuple(out)

    def lower_end(self, node: Optional[YNode]) -> End:
        if node is None:
            return End((), "end", ())
        body = self.keys(node, "end", "'end'")
        conds: list[Expr] = []
        if "when" in body:
            w = body["when"]
            for item in (w.items if isinstance(w, YList) else [w]):
                conds.append(self.condition(item, {}))
        no_moves = "end"
        if "no_moves" in body:
            no_moves = self.scalar(body["no_moves"], str, "end.no_moves")
            if no_moves not in ("end", "pass"):
                raise SpecError("end.no_moves is 'end' (the game ends) or 'pass' (the turn passes)", body["no_moves"].pos)
        effects = self.lower_effects(body.get("effects"), {}, "'end'")
        return End(tuple(conds), no_moves, effects)

    def lower_ranking(self, node: YNode) -> tuple[RankKey, ...]:
        if not isinstance(node, YMap) or not node.items:
            raise SpecError("'ranking' maps score names to per-player expressions (p is the player), best first", node.pos)
        keys = []
        for kname, body in node.items.items():
            lower = False
            if isinstance(body, YMap):
                for k in body.items:
                    if k not in ("score", "lower_is_better"):
                        raise SpecError(f"unknown key '{k}' in ranking '{kname}'", body.key_pos[k], did_you_mean(k, ["score", "lower_is_better"]))
                if "score" not in body:
                    raise SpecError(f"ranking '{kname}' needs a 'score'", body.pos)
                lower = self.scalar(body["lower_is_better"], bool, "lower_is_better") if "lower_is_better" in body else False
                body = body["score"]
            keys.append(RankKey(kname, self.condition(body, {"p": PLAYER}, INT), lower))
        return tuple(keys)

    def lower_render(self, node: Optional[YNode]) -> RenderIR:
        glyphs = [p[0].upper() for p in self.players]
        states: list = []
        marks: list[str] = []
        if node is None:
            return RenderIR(tuple(glyphs))
        body = self.keys(node, "render", "'render'")
        if "glyphs" in body:
            g = body["glyphs"]
            if not isinstance(g, YMap):
                raise SpecError("render.glyphs maps player names to one-character glyphs", g.pos)
            for p, v in g.items.items():
                if p in self.unseated:
                    continue
                if p not in self.players:
                    raise SpecError(f"unknown player '{p}'", g.key_pos[p], did_you_mean(p, self.players))
                glyph = self.scalar(v, str, "a glyph")
                if len(glyph) != 1 or not glyph.isprintable():
                    raise SpecError("a glyph is one printable character", v.pos)
                glyphs[self.players.index(p)] = glyph
        if "empty" in body:
            e = body["empty"]
            if not isinstance(e, YMap):
                raise SpecError("render.empty maps state names to {when, glyph}", e.pos)
            for sname, sbody in e.items.items():
                sbody = self.keys(sbody, "empty_state", f"render state '{sname}'")
                cond = self.predicate(sbody["when"], "render state 'when'")
                glyph = self.scalar(sbody["glyph"], str, "a glyph")
                if len(glyph) != 1 or not glyph.isprintable():
                    raise SpecError("a glyph is one printable character", sbody["glyph"].pos)
                states.append((sname, glyph, cond))
        if "marks" in body:
            m = body["marks"]
            if not isinstance(m, YList):
                raise SpecError("render.marks lists the empty states that carry a marker token", m.pos)
            known = [s[0] for s in states]
            for item in m:
                s = self.scalar(item, str, "a state name")
                if s not in known:
                    raise SpecError(f"unknown render state '{s}'", item.pos, did_you_mean(s, known))
                marks.append(s)
        return RenderIR(tuple(glyphs), tuple(states), tuple(marks))

    def check_variants(self, node: YNode) -> None:
        if not isinstance(node, YMap):
            raise SpecError("'variants' maps variant names to {title, description, patch}", node.pos)
        for vname in node.items:
            if not SLUG_RE.match(vname):
                raise SpecError(f"variant name '{vname[:40]}' must be a lowercase id (letters, digits, '-', '_')", node.key_pos[vname])


EFFECTS: dict[str, Callable] = {
    "place": Lowerer.eff_place,
    "assess_regions": Lowerer.eff_assess,
    "set": lambda self, body, scope: Lowerer.eff_counter(self, body, scope, False),
    "add": lambda self, body, scope: Lowerer.eff_counter(self, body, scope, True),
    "move": Lowerer.eff_move,
    "flip_flanked": Lowerer.eff_flip,
    "remove": Lowerer.eff_remove,
    "extra_turn": Lowerer.eff_extra_turn,
    "next_turn": Lowerer.eff_next_turn,
    "discard": Lowerer.eff_discard,
    "draw": Lowerer.eff_draw,
    "if": lambda self, body, scope: _eff_if(self, body, scope),
    "for_each": lambda self, body, scope: _eff_for_each(self, body, scope),
    **ZONE_EFFECTS,
}


# --- blocks: effects that run other effects ------------------------------------------


def _eff_if(self: Lowerer, body: YMap, scope: dict[str, str]) -> Effect:
    when = self.condition(body["when"], scope, BOOL)
    then = self.lower_effects(body["then"], scope, "if.then") if "then" in body else ()
    other = self.lower_effects(body["else"], scope, "if.else") if "else" in body else ()
    return IfEffect(when, then, other)


def _eff_for_each(self: Lowerer, body: YMap, scope: dict[str, str]) -> Effect:
    enode = body["each"]
    text = self.scalar(enode, str, "for_each.each")
    m = re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s+in\s+(.+)\Z", text, re.S)
    if not m:
        raise SpecError("for_each.each is 'VARIABLE in COLLECTION', e.g. \"q in players\"", enode.pos)
    var = self.ident(m.group(1), enode.pos, "for_each.each's variable")
    if var in scope or var in self.names.constants:
        raise SpecError(f"'{var}' is already a name here; pick another variable for for_each.each", enode.pos)
    offset = m.start(2)
    each = check_domain(m.group(2), lambda off: enode.text_pos(offset + off), self.names, scope)
    inner = dict(scope)
    inner[var] = each.elem_type
    where = self.condition(body["where"], inner, BOOL) if "where" in body else None
    return ForEach(each, var, where, self.lower_effects(body["effects"], inner, "for_each"))


def _rename_local(expr: Expr, old: str, new: str) -> Expr:
    from dataclasses import fields, is_dataclass, replace

    if isinstance(expr, Local):
        return Local(new, expr.type) if expr.name == old else expr
    if not is_dataclass(expr):
        return expr
    changes = {}
    for f in fields(expr):
        v = getattr(expr, f.name)
        if is_dataclass(v):
            changes[f.name] = _rename_local(v, old, new)
        elif isinstance(v, tuple):
            changes[f.name] = tuple(_rename_local(x, old, new) if is_dataclass(x) else x for x in v)
    return replace(expr, **changes)


def _can_write_prefix(parts: tuple, values: list, prefix: str) -> bool:
    """Can a notation (literal strings and parameter places, each place with the set of
    its value texts) write some move whose text starts with ``prefix``? (Memoised on the
    place and how much of the prefix is written, so hostile names cannot make it slow.)"""
    from functools import lru_cache

    @lru_cache(maxsize=None)
    def can(i: int, at: int) -> bool:
        if at == len(prefix):
            return True
        if i == len(parts):
            return False
        rest = prefix[at:]
        for text in ((parts[i],) if isinstance(parts[i], str) else values[i]):
            n = min(len(text), len(rest))
            if text[:n] == rest[:n] and can(i + 1, at + n):
                return True
        return False

    return can(0, 0)


STACK_CALLS = frozenset({"height", "room"})


def _uses_stacks(node: object) -> bool:
    """Whether any part of the IR reads or sets heights (height(), room(), a place with
    height or push): then the compiled state carries the height layer. ray() walks the
    board's directions only and reads no height, so on its own it keeps cells plain."""
    from dataclasses import fields, is_dataclass

    if isinstance(node, Call) and node.fn in STACK_CALLS:
        return True
    if isinstance(node, Place) and (node.height is not None or node.push is not None):
        return True
    if isinstance(node, (tuple, list)):
        return any(_uses_stacks(x) for x in node)
    if is_dataclass(node) and not isinstance(node, type):
        return any(_uses_stacks(getattr(node, f.name)) for f in fields(node))
    return False


def _with_hand_checks(where: Expr, effects: tuple[Effect, ...]) -> Expr:
    """An action that places a piece from a hand is only legal while the hand has one."""
    from ..ir.nodes import Binary

    for eff in effects:
        if isinstance(eff, Place):
            hand = Call("hand", (eff.owner, Const(eff.kind, KIND)), INT)
            need = Binary(">", hand, Const(0, INT), BOOL)
            if eff.height is not None:  # a stack: the hand holds all its pieces
                need = Binary(">=", hand, eff.height, BOOL)
            where = need if isinstance(where, Const) and where.value == 1 else Binary("and", need, where, BOOL)
    return where


def load_game_ir(path: str, variant: Optional[str] = None, n_players: Optional[int] = None) -> GameIR:
    """The one entry point: spec file (+ variant, + player count) -> validated GameIR."""
    tree = load_tree(path)
    tree = apply_variant(tree, variant)
    tree, seated, counts = apply_player_count(tree, n_players)
    return Lowerer(tree, path, variant, seated, counts).lower()


def list_player_counts(path: str, variant: Optional[str] = None) -> tuple[int, ...]:
    """The player counts a spec (variant) supports, ascending; () when it declares none
    (it is then played by exactly its listed players)."""
    return player_counts(apply_variant(load_tree(path), variant))[0]


def list_variants(path: str) -> list[str]:
    return variant_names(load_tree(path))
