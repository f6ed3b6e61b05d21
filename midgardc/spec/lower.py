"""Spec tree -> GameIR: validate every section against its table of keys, resolve names,
type-check conditions, and precompute the board.

Sections are lowered in dependency order (game, pieces, counters, board, define, actions,
triggers, end, ranking, render); each has one function here or, for the larger ones, in a
base class of ``Lowerer`` beside this module (``board.py``, ``actions.py``, ``effects.py``;
items and zones: ``zones.py``); the schema tables are ``schema.py``. Every error names the
offending node's file:line:col.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Optional

from ..conditions.check import Names, a_type, check_condition
from ..conditions.parse import parse_signature
from ..errors import Pos, SpecError, did_you_mean
from ..ir import colours
from ..ir.analysis import contains
from ..ir.items import DeckIR
from ..ir.nodes import (
    BOOL,
    CELL,
    FACE,
    INT,
    KIND,
    PLAYER,
    ReturnsIR,
    ITEM,
    AreaIR,
    BoardIR,
    Call,
    Const,
    Define,
    End,
    Expr,
    GameIR,
    Local,
    Param,
    Place,
    RankKey,
    RenderIR,
)
from .actions import LowerActions
from .board import LowerBoard
from .effects import EFFECTS, LowerEffects
from .values import INLINE_ATTRIBUTES, LowerAttributes, LowerValues
from .action_space import lower_action_space
from .observation import forward_prop, lower_observation
from .schema import (
    SPEC_VERSION,
    MAX_PLAYERS,
    MAX_HAND,
    MAX_PLIES,
    COUNTER_SCOPES,
    VISIBILITIES,
    REMEMBERS,
    REGION_VAR,
    SECTIONS,
    _REQUIRED_HINTS,
    MAX_ITEMS,
    DEFINE_TYPES,
    NAME_RE,
    SLUG_RE,
)
from .variants import apply_player_count, apply_variant, load_tree, player_counts, variant_names
from .dice import LowerChance
from .tables import lower_tables
from .blocks import lower_blocks
from .yamlpos import YList, YMap, YNode, YScalar
from .present import lower_present
from .glyphs import lower_glyphs
from ..ir.present import PresentIR
from .zones import expand_item_families, lower_items, lower_zones
from .history import lower_history, with_hands
from .position import lower_position
from .movement import lower_movement_defines
from .standard import lower_standard_defines
from .compulsory import compulsory_actions
from .promotion import promotion_choices, promotion_triggers
from .pools import lower_pools, pool_places, with_stacks
from .phases import declare_phases, lower_phases
from .endings import clock_before, clock_triggers, declare_draw, declare_no_moves, drawn_ranking, lower_draw, lower_no_moves, names_loser, stuck_ranking
from .piles import declare_piles, pile_totals


class Lowerer(LowerValues, LowerAttributes, LowerEffects, LowerActions, LowerBoard, LowerChance):
    def __init__(self, tree: YMap, path: str, variant: Optional[str], seated: Optional[int] = None, counts: tuple[tuple[int, ...], int] = ((), 0)):
        self.tree = tree
        self.path = path
        self.variant = variant
        self.seated = seated  # an N-player game seats the first N of game.players (None: all)
        self.counts = counts  # (supported player counts, the default) from player_counts
        self.names = Names()
        self.kinds: list[str] = []
        self.promotions: dict[str, str] = {}  # moving action -> the action of its promotion choices (spec/promotion.py)
        self.kind_texts: dict[str, str] = {}  # pieces' notation (how moves write a kind)
        self.kind_base: dict[int, int] = {}  # pieces' base (the kind each is in a hand)
        self.players: list[str] = []
        self.unseated: set[str] = set()  # players declared but not seated at this count
        self.defines: list[Define] = []
        self.board: Optional[BoardIR] = None
        self.deck_ir: Optional[DeckIR] = None  # the players' decks (deck:)
        self.zones_ir = None  # kinds of item and zones (items:, zones:), a ZonesIR
        self.zones_names: list[str] = []  # zone names by index
        self.cell_index: dict[str, int] = {}
        self.pending_counters: list = []  # typed counters and arrays (spec/values.py)
        self.array_columns = 0
        self.pools: dict = {}  # places off the board (pools:), spec/pools.py
        self.pool_labels: dict[str, str] = {}
        self.pile_kinds: list[str] = []  # kinds of pile (piles:), spec/piles.py
        self.pool_needs: dict[int, Expr] = {}  # a pool effect -> the legality it adds to an action
        self.draw_rules = 0  # end.draw's rules (spec/endings.py): its counter is declared
        self.stuck_rules: tuple = ()  # end.no_moves's rules (spec/endings.py): their counters are declared
        self.has_phases = False  # a phases: section (spec/phases.py): its enumeration and counter are declared
        self.pool_stacks: dict[int, Expr] = {}  # a cell -> pool effect's add -> the cell (its height, with stacks)

    # -- small checked readers -----------------------------------------------------

    def keys(self, node: YNode, section: str, what: str) -> YMap:
        if not isinstance(node, YMap):
            raise SpecError(f"{what} must be a mapping", node.pos)
        allowed, required = SECTIONS[section]
        if section in INLINE_ATTRIBUTES:  # a piece or an item may give its attributes' values
            allowed = allowed | self.inline_attributes(section)
        for key in node.items:
            if key not in allowed:
                where = "at the top level of the spec" if section == "" else f"in {what}"
                raise SpecError(f"unknown key '{key}' {where}", node.key_pos[key], did_you_mean(key, allowed) or f"allowed keys: {', '.join(sorted(allowed))}")
        for key in sorted(required):
            if key not in node.items and not (section == "" and key == "ranking" and names_loser(node)):
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
        horizon, remembers = self.lower_research(game, max_plies)
        self.lower_players(game.items["players"])
        enums = declare_phases(self, top.get("phases"), self.lower_enums(top.get("enums")))
        declare_draw(self)  # (end.draw's counter joins the counters: spec/endings.py)
        declare_no_moves(self)  # (and end.no_moves rules' two)
        expand_item_families(self, enums)  # (one kind of item per value: spec/zones.py)
        top = self.tree  # (with the phase counter among the counters)
        declare_piles(self, top.get("piles"))  # (the piles join the counters: spec/piles.py)
        top = self.tree
        hand_init = self.lower_pieces(top.get("pieces"))
        counters, counter_init, counter_scope, counter_visible = self.lower_counters(top.get("counters"))
        self.board = self.lower_board(top.items["board"])
        self.setup_heights: list[int] = []
        initial_board = self.lower_setup(top.get("setup"), top.get("position"))
        # stacks at setup: kept only when some cell holds more than one piece
        initial_heights = tuple(self.setup_heights) if any(h > 1 for h in self.setup_heights) else ()
        player_props = self.lower_player_props(top.get("player_props"))
        chance = self.lower_chance(top.get("chance"))
        self.deck_ir = self.lower_deck(top.get("deck"))
        items = lower_items(self, top.get("items"), top.get("zones"))
        self.zones_ir = lower_zones(self, top.get("zones"), items)
        self.zones_names = [z.name for z in self.zones_ir.zones] if self.zones_ir else []
        areas = self.lower_areas(top.get("areas"))
        counters, counter_init, counter_scope, counter_visible, counter_types = self.lower_counter_values(counters, counter_init, counter_scope, counter_visible, top.get("pools"))
        if self.pile_kinds:
            pile_totals(self, list(counters), [list(r) for r in counter_init])
        attributes = self.lower_attributes(top.get("attributes"))
        attributes += lower_tables(self, top.get("tables"), len(attributes))
        self.attributes_ir = attributes  # (a sowing adds its track's "next cell": spec/piles.py)
        history = lower_history(self, top.get("history"), counters, max_plies, game.items["max_plies"].pos if "max_plies" in game else game.pos, top)
        position = lower_position(self, top.get("position"), counters, counter_scope, counter_types)
        self.lower_defines(top.get("define"))
        lower_blocks(self, top.get("blocks"), EFFECTS)
        actions = compulsory_actions(self, top.items["actions"], self.lower_actions(top.items["actions"]), "phases" in top)
        actions, phase_triggers = lower_phases(self, top.get("phases"), actions, top.items["actions"])
        actions = clock_before(self, top.get("counters"), actions)  # (clocks reset as a move is made: spec/endings.py)
        actions = promotion_choices(self, top.get("pieces"), actions)  # (a kind chosen as part of a move: spec/promotion.py)
        self.action_params = {a.name: tuple(p.name for p in a.params) for a in actions}  # render.labels may name them
        self.action_names = [a.name for a in actions]  # (render.labels may name moves)
        action_space = lower_action_space(top.get("action_space"), self.players, actions, tuple(self.kinds),
                                          lambda n: forward_prop(self, n, player_props, "action_space.forward"), self.board)
        observation = lower_observation(self, top.get("observation"), counters, list(self.kinds), player_props, history is not None)
        if chance is not None:
            chance = self.place_chance(chance, actions, top.items["chance"])
        triggers = (promotion_triggers(self, top.get("pieces"), actions, hand_init) + clock_triggers(self, top.get("counters"), actions)
                    + self.lower_triggers(top.get("triggers"), actions) + phase_triggers)
        end = self.lower_end(top.get("end"))
        start_effects = self.lower_start(top.get("start"))
        history = with_hands(self, history, actions, triggers, end, start_effects)
        ranking = stuck_ranking(self, drawn_ranking(self, self.lower_ranking(top.get("ranking"))))
        self.ranking_names = [k.name for k in ranking]
        self.chance_names = [chance.name] if chance is not None else []
        returns = self.lower_returns(top.get("returns"), counters, counter_scope)
        render = pool_places(self, self.lower_render(top.get("render"), areas, position))
        if "variants" in top:
            self.check_variants(top.items["variants"])
        return with_stacks(self, GameIR(
            name=name,
            title=title,
            variant=self.variant,
            players=tuple(self.players),
            kinds=tuple(self.kinds),
            kind_texts=tuple(self.kind_texts.get(k, k) for k in self.kinds) if self.kind_texts else (),
            kind_base=tuple(self.kind_base.get(k, k) for k in range(len(self.kinds))) if self.kind_base else (),
            hand_init=hand_init,
            counters=tuple(counters),
            counter_init=counter_init,
            counter_scope=counter_scope,
            counter_visible=counter_visible,
            counter_types=counter_types,
            enums=enums,
            attributes=self.attributes_ir,
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
            horizon=horizon,
            remembers=remembers,
            action_space=action_space,
            observation=observation,
            chance=chance,
            player_counts=self.counts[0],
            default_players=self.counts[1] or len(self.players),
            source=self.path,
            deck=self.deck_ir,
            zones=self.zones_ir,
            areas=areas,
            history=history,
            initial_heights=initial_heights,
            stacks=bool(initial_heights) or _uses_stacks((actions, triggers, end, ranking, tuple(self.defines), render, start_effects)),
            start_effects=start_effects,
            returns=returns,
            meta={"position": position} if position is not None else {},
        ))

    def lower_research(self, game: YMap, max_plies: int) -> tuple[Optional[int], Optional[str]]:
        """game.horizon (the most moves a game can take: a proved bound, below the safety
        stop) and game.remembers (what a player's information state holds): facts the
        engines do not read, for learning tools (docs/research.md)."""
        horizon = None
        if "horizon" in game:
            node = game.items["horizon"]
            horizon = self.scalar(node, int, "game.horizon", 1, MAX_PLIES)
            if horizon > max_plies:
                raise SpecError(f"game.horizon {horizon} is more moves than game.max_plies {max_plies} lets a game take", node.pos)
        remembers = None
        if "remembers" in game:
            node = game.items["remembers"]
            remembers = self.scalar(node, str, "game.remembers")
            if remembers not in REMEMBERS:
                raise SpecError(f"game.remembers must be one of {', '.join(REMEMBERS)}, got {remembers!r}", node.pos)
            if horizon is None:  # (the information state holds one slot per move)
                raise SpecError("game.remembers: moves needs game.horizon, the most moves a game takes", node.pos)
        return horizon, remembers

    def lower_deck(self, node: Optional[YNode]) -> Optional[DeckIR]:
        """The decks: each kind of item becomes a name usable in conditions (type item)."""
        if node is None:
            return None
        body = self.keys(node, "deck", "'deck'")
        dnode = body["items"]
        if not isinstance(dnode, YMap) or not dnode.items:
            raise SpecError("deck.items maps each kind of item to the numbers it shows, e.g. {one: [1], low: {values: [1, 2, 3], text: 1-2-3}}", dnode.pos)
        names, texts, values, counts = [], [], [], []
        # how many copies of each kind a deck holds unless the kind says (a deck made of
        # two sets of the same cards)
        copies = self.scalar(body["copies"], int, "deck.copies", 1, MAX_ITEMS) if "copies" in body else 1
        for cname, cbody in dnode.items.items():
            cpos = dnode.key_pos[cname]
            self.ident(cname, cpos, "item name")
            if cname in self.names.constants:
                raise SpecError(f"item '{cname}' has the same name as a player, piece kind, direction or die face", cpos)
            text, count = cname, copies
            vnode = cbody
            if isinstance(cbody, YMap):
                cbody = self.keys(cbody, "item", f"item '{cname}'")
                vnode = cbody["values"]
                text = self.scalar(cbody["text"], str, "an item's text") if "text" in cbody else cname
                count = self.scalar(cbody["count"], int, "an item's count", 1, MAX_ITEMS) if "count" in cbody else copies
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
        bases: list = []  # (kind, its base's node)
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
            if "notation" in body:  # how a move writes this kind (a kind parameter's text)
                text = self.scalar(body["notation"], str, "a piece's notation")
                if not text or any(ch.isspace() or ch == "," for ch in text) or text in self.kind_texts.values():
                    raise SpecError(f"piece '{kind}': notation {text!r} must be non-empty, without spaces or commas, and not another kind's", body["notation"].pos)
                self.kind_texts[kind] = text
            if "base" in body:  # the kind it becomes in a hand (read once every kind is known)
                bases.append((kind, body["base"]))
        for kind, bnode in bases:
            # a promoted piece captured into a hand goes back as what it was: tokin -> pawn
            self.kind_base[self.kinds.index(kind)] = self.kind(bnode)
        for kind, bnode in bases:
            base = self.kind_base[self.kinds.index(kind)]
            if self.kind_base.get(base, base) != base:
                raise SpecError(f"piece '{kind}': its base '{self.kinds[base]}' has a base of its own; a base is the kind a piece is in a hand, so it has none", bnode.pos)
        return tuple(tuple(per_kind[k][p] for k in range(len(self.kinds))) for p in range(len(self.players)))

    def lower_counters(self, node: Optional[YNode]) -> tuple[list[str], tuple[tuple[int, ...], ...], tuple[str, ...], tuple[str, ...]]:
        """Counters: ``name: 0`` (per player, public) or ``name: {start, of, visible}``. The
        state keeps one row per player and then the game's row, so a game counter is an
        ordinary counter of a row nobody sits at."""
        names: list[str] = []
        init: list[int] = []
        scopes: list[str] = []
        visible: list[str] = []
        player_starts: dict[int, list[int]] = {}  # counter -> a start per player (start: {p: v})
        if node is not None:
            if not isinstance(node, YMap):
                raise SpecError("'counters' maps a counter name to its starting value (or to {start, of, visible})", node.pos)
            for cname, value in node.items.items():
                self.ident(cname, node.key_pos[cname], "counter name")
                scope, vis = "player", "all"
                if isinstance(value, YMap):
                    body = self.keys(value, "counter", f"counter '{cname}'")
                    snode = body["start"] if "start" in body and "type" not in body and "index" not in body else None  # (typed and array starts: spec/values.py)
                    start = 0 if snode is None or isinstance(snode, YMap) else self.scalar(snode, int, "a counter's starting value", -(2**31), 2**31 - 1)
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
                    if isinstance(snode, YMap):  # a start per player: {red: 3, blue: 0}
                        if scope == "game":
                            raise SpecError("a game counter has one starting value, not one per player", snode.pos)
                        own = [0] * len(self.players)
                        for pname, pv in snode.items.items():
                            if pname in self.unseated:
                                continue
                            if pname not in self.players:
                                raise SpecError(f"unknown player '{pname}'", snode.key_pos[pname], did_you_mean(pname, self.players))
                            own[self.players.index(pname)] = self.scalar(pv, int, "a counter's starting value", -(2**31), 2**31 - 1)
                        player_starts[len(names)] = own
                else:
                    start = self.scalar(value, int, "a counter's starting value", -(2**31), 2**31 - 1)
                if isinstance(value, YMap) and ("type" in value or "index" in value):
                    if "index" in value:  # an array: its columns come after the plain counters
                        self.typed_counter(cname, value, -1)
                        continue
                    self.typed_counter(cname, value, len(names))
                    start = 0
                (self.names.game_counters if scope == "game" else self.names.counters)[cname] = len(names)
                names.append(cname)
                init.append(start)
                scopes.append(scope)
                visible.append(vis)
        per_player = tuple(v if s == "player" else 0 for v, s in zip(init, scopes))
        game_row = tuple(v if s == "game" else 0 for v, s in zip(init, scopes))
        self.names.game_row = len(self.players)
        rows = tuple(tuple(player_starts[i][p] if i in player_starts else v for i, v in enumerate(per_player)) for p in range(len(self.players)))
        return names, (*rows, game_row), tuple(scopes), tuple(visible)

    def lower_counter_values(self, names, init, scopes, visible, pools=None):
        """Typed counters' starts and the arrays' columns (spec/values.py), once every name
        a start may use is known; then the pools' columns (spec/pools.py)."""
        names, init, scopes, visible = list(names), [list(r) for r in init], list(scopes), list(visible)
        types = list(self.finish_counters(names, init, scopes, visible))
        lower_pools(self, pools, names, init, scopes, visible, types)
        types = tuple(types)
        return tuple(names), tuple(tuple(r) for r in init), tuple(scopes), tuple(visible), types

    # -- setup and per-player properties ---------------------------------------------

    def lower_defines(self, node: Optional[YNode]) -> None:
        if node is not None and not isinstance(node, YMap):
            raise SpecError("'define' maps heads like 'free(cell c)' to conditions", node.pos)
        own = {m.group(1) for head in (node.items if node is not None else ()) if (m := re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*)", head))}
        lower_standard_defines(self, own)
        later = lower_movement_defines(self, own)  # (reaches, when it calls the spec's own)
        self.names.later = own
        for head, body in (node.items.items() if node is not None else ()):
            if later and later(body):
                later = None
            kpos = node.key_pos[head]
            knode = node.key_nodes.get(head)
            locate = knode.text_pos if knode is not None else (lambda off, kpos=kpos: Pos(kpos.file, kpos.line, kpos.col + off))
            self.lower_define(head, body, locate)
        self.names.later = set()
        if later:
            later(None)

    def lower_define(self, head: str, body: YNode, locate) -> None:
        """One definition: its head ``name(type param, ...)`` and its body."""
        name, params = parse_signature(head, locate)
        kpos = locate(len(head) - len(head.lstrip()))
        self.ident(name, kpos, "definition name")
        if name in self.names.defines or name in self.names.props or name in self.names.counters or name in self.names.game_counters or name in self.names.constants or name in self.names.player_props or name in self.names.pools:
            raise SpecError(f"'{name}' is already defined", kpos)
        if name in self.names.dir_sets:
            raise SpecError(f"'{name}' is already a direction set of this board", kpos)
        scope: dict[str, str] = {}
        ptuple = []
        for typ, pname, off, typ_off in params:
            ppos = locate(off)
            known = {**DEFINE_TYPES, **self.names.types, **({"face": FACE} if self.names.has_chance else {})}  # (enumerations and die faces too)
            if typ not in known:
                raise SpecError(f"unknown parameter type '{typ}' (types: {', '.join(known)})", locate(typ_off), did_you_mean(typ, list(known)))
            self.ident(pname, ppos, "parameter name")
            if pname in scope:
                raise SpecError(f"parameter '{pname}' appears twice", ppos)
            scope[pname] = known[typ]
            ptuple.append(Param(pname, known[typ]))
        self.names.defining = name
        expr = self.condition(body, scope, want=None)
        self.names.defining = ""
        self.names.later.discard(name)
        self.names.defines[name] = (len(self.defines), tuple(p.type for p in ptuple), expr.type)
        self.defines.append(Define(name, tuple(ptuple), expr, expr.type))

    def lower_end(self, node: Optional[YNode]) -> End:
        if node is None:
            return End((), "end", ())
        body = self.keys(node, "end", "'end'")
        self.names.in_end = True  # end.when and end.effects may ask can_move() (conditions/check.py)
        conds: list[Expr] = []
        named: dict[str, YNode] = {}  # when: {reason: condition}: an ending that names itself
        if "when" in body:
            w = body["when"]
            named = dict(w.items) if isinstance(w, YMap) else {}
            for item in (named.values() if named else w.items if isinstance(w, YList) else [w]):
                conds.append(self.condition(item, {}))
        no_moves = "end"
        if "no_moves" in body and not isinstance(body["no_moves"], YMap):  # (a mapping is rules: spec/endings.py)
            no_moves = self.scalar(body["no_moves"], str, "end.no_moves")
            if no_moves not in ("end", "pass"):
                raise SpecError("end.no_moves is 'end' (the game ends), 'pass' (the turn passes) or rules ({checkmate: loss})", body["no_moves"].pos)
        effects = self.lower_effects(body.get("effects"), {}, "'end'")
        end = lower_draw(self, body, End(tuple(conds), no_moves, effects))  # (its rules: spec/endings.py)
        if self.stuck_rules:
            end = lower_no_moves(self, body.key_pos["no_moves"], end)
        self.names.in_end = False  # the reasons read the final position, where no one is to move
        reasons = tuple((name, self.condition(cond, {})) for name, cond in named.items())
        reasons += self.lower_reasons(body["reasons"]) if "reasons" in body else ()
        return replace(end, reasons=end.reasons + reasons)

    def lower_reasons(self, node: YNode) -> tuple[tuple[str, Expr], ...]:
        """end.reasons: {name: condition}, in order; the first that holds on the final
        position names how the game ended (``true`` for the end no other names)."""
        if not isinstance(node, YMap) or not node.items:
            raise SpecError("end.reasons maps a reason's name (\"checkmate\") to a condition that holds when the game ended so", node.pos)
        return tuple((name, self.condition(cond, {})) for name, cond in node.items.items())

    def lower_start(self, node: Optional[YNode]) -> tuple:
        """start: effects run once as a game begins (the first seat is the mover)."""
        if node is None:
            return ()
        body = self.keys(node, "start", "'start'")
        return self.lower_effects(body.get("effects"), {}, "'start'")

    def lower_returns(self, node: Optional[YNode], counters: list, scopes: tuple) -> Optional[ReturnsIR]:
        """returns: {counter, min, max}: the returns are a per-player payoff counter."""
        if node is None:
            return None
        body = self.keys(node, "returns", "'returns'")
        cnode = body["counter"]
        name = self.scalar(cnode, str, "returns.counter")
        if name not in counters:
            raise SpecError(f"returns.counter names a counter; there is no counter '{name}'", cnode.pos, did_you_mean(name, counters))
        index = counters.index(name)
        if scopes and scopes[index] != "player":
            raise SpecError(f"returns.counter '{name}' is a game counter; returns need one value per player", cnode.pos)
        lo = self.scalar(body["min"], int, "returns.min", -(2**31), 2**31 - 1)
        hi = self.scalar(body["max"], int, "returns.max", -(2**31), 2**31 - 1)
        if lo > 0 or hi < 0 or lo > hi:
            raise SpecError(f"returns: min {lo} and max {hi} must enclose 0 (zero-sum returns), min <= 0 <= max", body["max"].pos)
        return ReturnsIR(index, name, lo, hi, node.pos)

    def lower_ranking(self, node: Optional[YNode]) -> tuple[RankKey, ...]:
        if node is None:  # (allowed when end.no_moves decides who loses: spec/schema.py)
            return (RankKey("won", Const(0, INT), False, True),)
        if not isinstance(node, YMap) or not node.items:
            raise SpecError("'ranking' maps score names to per-player expressions (p is the player), best first", node.pos)
        keys = []
        for kname, body in node.items.items():
            lower = final = False
            if isinstance(body, YMap):
                for k in body.items:
                    if k not in ("score", "lower_is_better", "final"):
                        raise SpecError(f"unknown key '{k}' in ranking '{kname}'", body.key_pos[k], did_you_mean(k, ["score", "lower_is_better", "final"]))
                if "score" not in body:
                    raise SpecError(f"ranking '{kname}' needs a 'score'", body.pos)
                lower = self.scalar(body["lower_is_better"], bool, "lower_is_better") if "lower_is_better" in body else False
                final = self.scalar(body["final"], bool, "final") if "final" in body else False
                body = body["score"]
            keys.append(RankKey(kname, self.condition(body, {"p": PLAYER}, INT), lower, final))
        return tuple(keys)

    def lower_render(self, node: Optional[YNode], areas: tuple = (), position=None) -> RenderIR:
        states: list = []
        marks: list[str] = []
        if node is None:
            glyphs, kind_glyphs = lower_glyphs(self, None, position)
            return RenderIR(tuple(glyphs), colours=colours.choose(self.players), present=PresentIR(kind_glyphs=kind_glyphs) if kind_glyphs else None,
                            numbers=self.pile_kinds[0] if self.pile_kinds else "", piles=tuple(self.pile_kinds))
        body = self.keys(node, "render", "'render'")
        explicit = self.render_colours(body)
        glyphs, kind_glyphs = lower_glyphs(self, body, position)
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
        present = replace(lower_present(self, body, areas), kind_glyphs=kind_glyphs)
        return RenderIR(tuple(glyphs), tuple(states), tuple(marks), colours=colours.choose(self.players, explicit), present=present, numbers=self.render_numbers(body), piles=tuple(self.pile_kinds))

    def render_colours(self, body: dict) -> dict[str, str]:
        """``render.colors`` (or ``colours``): player name to a colour name or ``#rrggbb``."""
        given = [k for k in ("colors", "colours") if k in body]
        if not given:
            return {}
        if len(given) == 2:
            raise SpecError("give 'render.colors' once (not both 'colors' and 'colours')", body.key_pos["colours"])
        node = body[given[0]]
        if not isinstance(node, YMap):
            raise SpecError(f"render.{given[0]} maps player names to colours", node.pos)
        out = {}
        for p, v in node.items.items():
            if p in self.unseated:
                continue
            if p not in self.players:
                raise SpecError(f"unknown player '{p}'", node.key_pos[p], did_you_mean(p, self.players))
            value = self.scalar(v, str, "a colour")
            if not colours.is_colour(value):
                raise SpecError(
                    f"'{value}' is not a colour (a colour name or #rrggbb)",
                    v.pos,
                    did_you_mean(value.lower(), list(colours.NAMED)) or f"colour names: {', '.join(colours.NAMED)}",
                )
            out[p] = value
        return out

    def check_variants(self, node: YNode) -> None:
        if not isinstance(node, YMap):
            raise SpecError("'variants' maps variant names to {title, description, patch}", node.pos)
        for vname in node.items:
            if not SLUG_RE.match(vname):
                raise SpecError(f"variant name '{vname[:40]}' must be a lowercase id (letters, digits, '-', '_')", node.key_pos[vname])


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


STACK_CALLS = frozenset({"height", "room"})


def _uses_stacks(node: object) -> bool:
    """Whether any part of the IR reads or sets heights (height(), room(), a place with
    height or push): then the compiled state carries the height layer. ray() walks the
    board's directions only and reads no height, so on its own it keeps cells plain."""
    return contains(node, lambda x: isinstance(x, Call) and x.fn in STACK_CALLS or isinstance(x, Place) and (x.height is not None or x.push is not None))


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
