"""Lowering of kinds of item (``items:``), the zones holding them (``zones:``) and the
effects that move items between zones (deal, take, pass_zone, gather, shuffle).

Kept apart from ``lower.py`` so the zone language is one module: the Lowerer calls
``lower_items``/``lower_zones`` after its other sections and looks the effects up in
``ZONE_EFFECTS``. Zone names become constants of type *zone*; the checker reads
``Names.zones`` to type ``holding``/``zone_size``/``top``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

from ..errors import SpecError, did_you_mean
from ..ir.items import ZoneIR, ZonesIR
from ..ir.nodes import INT, ITEM, PLAYER, ZONE, Call, Const, Deal, Effect, Expr, Gather, PassZone, Shuffle, Take
from .yamlpos import YList, YMap, YNode, YScalar

if TYPE_CHECKING:  # pragma: no cover
    from .context import Lowering

MAX_ZONES = 64  # zones declared under zones:
MAX_ITEM_KINDS = 255  # kinds of item under items: (a pile stores a kind in one byte)
MAX_ZONE_ITEMS = 4096  # items in all zones together at the start (every player's counted)
MAX_ZONE_STATE = 1 << 18  # bytes the zones add to every compiled state (piles + counts per slot)

# section -> (allowed keys, required keys), merged into lower.SECTIONS
ZONE_SECTIONS: dict[str, tuple[set[str], set[str]]] = {
    "zone_item": ({"values", "text", "description"}, set()),
    "zone": ({"of", "visible", "ordered", "items", "description"}, set()),
    "deal": ({"from", "from_of", "to", "of", "count"}, {"from", "to"}),
    "take": ({"item", "from", "from_of", "to", "of", "count"}, {"item", "from", "to"}),
    "pass_zone": ({"zone", "step"}, {"zone"}),
    "gather": ({"from", "to", "of"}, {"from", "to"}),
    "shuffle": ({"zone", "of"}, {"zone"}),
}

OWNERS = ("game", "player")
VISIBILITY = ("all", "owner", "none")


FAMILY = "each"  # `name: {each: ENUM, ...}`: one kind of item per value of an enumeration


def expand_item_families(lw: "Lowering", enums: tuple) -> None:
    """`tile: {each: suit, text: T, suit: each}` is one kind of item per value of the
    enumeration (`tile_sun`, written `TSun`, ...): the family's keys are each
    member's, the text gets the value appended (capitalised; default: the member's name),
    `each` as an attribute's value is the member's value, and a list (for any key but
    `values`, whose list is the numbers every member shows) gives each member its own entry,
    in the enumeration's order (`text: [G1, G2, G3]`). In a zone's `items`, the family's
    name stands for every member (a member named after it wins). Rewritten in the tree
    before the items are read, so zones, attributes and both back ends see plain kinds."""
    node = lw.tree.get("items")
    if not isinstance(node, YMap) or not any(isinstance(b, YMap) and FAMILY in b.items for b in node.items.values()):
        return
    values = dict(enums)
    items: dict[str, YNode] = {}
    key_pos = {}
    families: dict[str, list[str]] = {}
    for iname, body in node.items.items():
        ipos = node.key_pos[iname]
        if not (isinstance(body, YMap) and FAMILY in body.items):
            items[iname], key_pos[iname] = body, ipos
            continue
        enode = body.items[FAMILY]
        ename = lw.scalar(enode, str, "an enumeration's name")
        if ename not in values:
            raise SpecError(f"item family '{iname}': '{ename}' is not an enumeration (each: names the enumeration with a kind of item per value)", enode.pos, did_you_mean(ename, list(values)))
        members = families[iname] = [f"{iname}_{v}" for v in values[ename]]
        for k, x in body.items.items():
            if isinstance(x, YList) and k != "values" and len(x.items) != len(members):
                raise SpecError(f"item family '{iname}': '{k}' is a list of {len(x.items)} for the {len(members)} values of '{ename}' (one entry per value, in order)", x.pos)
        for i, v in enumerate(values[ename]):
            member = members[i]
            if member in node.items or member in items:
                raise SpecError(f"item family '{iname}' makes an item '{member}', which is declared twice", ipos)
            fields: dict[str, YNode] = {}
            for k, x in body.items.items():
                if k == FAMILY:
                    continue
                if isinstance(x, YList) and k != "values":
                    x = x.items[i]
                elif k == "text":
                    x = YScalar(lw.scalar(x, str, "an item's text") + v[:1].upper() + v[1:], x.pos)
                elif isinstance(x, YScalar) and x.value == FAMILY:
                    x = YScalar(v, x.pos)
                fields[k] = x
            items[member], key_pos[member] = YMap(fields, body.pos, {k: body.key_pos[k] for k in fields}, {}), ipos
    new = YMap(items, node.pos, key_pos, {})
    top = lw.tree
    lw.tree = YMap({**top.items, "items": new, **_zones_by_family(top.items.get("zones"), families)}, top.pos, top.key_pos, top.key_nodes)


def _zones_by_family(zones: Optional[YNode], families: dict[str, list[str]]) -> dict[str, YNode]:
    """`items: {doom: 1}` in a zone: one of every member of the family `doom`; a member
    named after the family's name wins (`{war: 7, war_alfheim: 6}`). Returns the rewritten
    `zones` section ({} when no zone names a family)."""
    if not isinstance(zones, YMap):
        return {}
    changed = {}
    for zname, body in zones.items.items():
        held = body.items.get("items") if isinstance(body, YMap) else None
        if not isinstance(held, YMap) or not any(k in families for k in held.items):
            continue
        counts: dict[str, YNode] = {}
        pos: dict[str, Any] = {}
        for k, x in held.items.items():
            for member in families.get(k, [k]):
                counts[member] = x  # a later entry wins; a kind keeps its first place
                pos.setdefault(member, held.key_pos[k])
        changed[zname] = YMap({**body.items, "items": YMap(counts, held.pos, pos, {})}, body.pos, body.key_pos, body.key_nodes)
    return {"zones": YMap({**zones.items, **changed}, zones.pos, zones.key_pos, zones.key_nodes)} if changed else {}


def lower_items(lw: "Lowering", node: Optional[YNode], zones: Optional[YNode] = None) -> Optional[tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[int, ...], ...]]]:
    """The kinds of item: names (constants of type item), texts (as moves write them) and
    the numbers each shows (item_has). None when the spec has no items section and its
    zones start empty; without an items section the kinds are those the zones start with
    (plain kinds, written by name), in the order first named."""
    if node is None:
        node = _items_of_zones(zones)
        if node is None:
            return None
    if lw.deck_ir is not None:
        raise SpecError(
            "a spec declares its kinds of item once: 'deck' (every player's deck) or 'items' with 'zones', not both",
            node.pos,
            "move the deck's items under 'items' and make the deck an ordered per-player zone",
        )
    if not isinstance(node, YMap) or not node.items:
        raise SpecError("'items' maps each kind of item to its numbers and text, e.g. {gold: {values: [7], text: G7}, raid: {}}", node.pos)
    if len(node.items) > MAX_ITEM_KINDS:
        raise SpecError(f"{len(node.items)} kinds of item (limit {MAX_ITEM_KINDS})", node.pos)
    names: list[str] = []
    texts: list[str] = []
    values: list[tuple[int, ...]] = []
    for iname, body in node.items.items():
        ipos = node.key_pos[iname]
        lw.ident(iname, ipos, "item name")
        if iname in lw.names.constants:
            raise SpecError(f"item '{iname}' has the same name as a player, piece kind, direction or die face", ipos)
        text, nums = iname, ()
        vnode: Optional[YNode] = None
        if isinstance(body, YMap):
            body = lw.keys(body, "zone_item", f"item '{iname}'")
            vnode = body.get("values")
            text = lw.scalar(body["text"], str, "an item's text") if "text" in body else iname
        elif isinstance(body, YList):
            vnode = body
        elif body is not None and not (isinstance(body, YScalar) and body.value is None):
            raise SpecError(f"item '{iname}' is a mapping {{values: [...], text: ...}}, a list of numbers, or empty", body.pos)
        if vnode is not None:
            if not isinstance(vnode, YList):
                raise SpecError(f"item '{iname}' shows a list of numbers, e.g. [1, 2, 3]", vnode.pos)
            nums = tuple(lw.scalar(v, int, "an item's number", -(2**31), 2**31 - 1) for v in vnode)
        if not text or any(ch.isspace() or ch in ",:" for ch in text):
            raise SpecError(f"item text {text!r} may not be empty or contain spaces, commas or ':' (it is part of a move's text)", ipos)
        if text in texts:
            raise SpecError(f"two items are written {text!r}; a move would not say which", ipos)
        lw.names.constants[iname] = (len(names), ITEM)
        names.append(iname)
        texts.append(text)
        values.append(nums)
    lw.names.has_items = True
    return tuple(names), tuple(texts), tuple(values)


def _items_of_zones(zones: Optional[YNode]) -> Optional[YMap]:
    """The kinds the zones' ``items:`` name, as an ``items:`` section of plain kinds would
    declare them (each at its first mention); None if no zone starts with items."""
    if not isinstance(zones, YMap):
        return None
    kinds: dict[str, YNode] = {}
    where: dict[str, Any] = {}
    for body in zones.items.values():
        inode = body.get("items") if isinstance(body, YMap) else None
        if isinstance(inode, YMap):
            for iname in inode.items:
                if iname not in kinds:
                    kinds[iname] = YScalar(None, inode.key_pos[iname])
                    where[iname] = inode.key_pos[iname]
    return YMap(kinds, zones.pos, where) if kinds else None


def lower_zones(lw: "Lowering", node: Optional[YNode], items: Optional[tuple]) -> Optional[ZonesIR]:
    """The zones: each name becomes a constant of type zone (for holding/zone_size/top
    and the zone effects)."""
    if node is None:
        if items is None:
            return None
        raise SpecError("items live in zones: declare at least one zone that holds them", lw.tree.key_pos.get("items", lw.tree.pos), "e.g. zones: {pile: {of: game, ordered: true, items: {...}}}")
    if items is None:
        raise SpecError("zones hold items: declare their kinds in an 'items' section", lw.tree.key_pos.get("zones", node.pos), "e.g. items: {gold: {values: [7]}, raid: {}}")
    if not isinstance(node, YMap) or not node.items:
        raise SpecError("'zones' maps zone names to {of, visible, ordered, items}, e.g. {stash: {of: player, visible: owner}}", node.pos)
    from ..ir.builtins import ZONE_FUNCTIONS

    for taken in (lw.names.counters, lw.names.game_counters, lw.names.props, lw.names.player_props):
        clash = sorted(set(taken) & set(ZONE_FUNCTIONS))
        if clash:
            counters = lw.tree.get("counters")
            at = counters.key_pos[clash[0]] if isinstance(counters, YMap) and clash[0] in counters.key_pos else node.pos
            raise SpecError(f"'{clash[0]}' reads zones in a spec with zones; rename the counter or property '{clash[0]}'", at)
    if len(node.items) > MAX_ZONES:
        raise SpecError(f"{len(node.items)} zones (limit {MAX_ZONES})", node.pos)
    names = items[0]
    n_players = len(lw.players)
    zones: list[ZoneIR] = []
    base = 0
    total = 0
    for zname, body in node.items.items():
        zpos = node.key_pos[zname]
        lw.ident(zname, zpos, "zone name")
        if zname in lw.names.constants:
            raise SpecError(f"zone '{zname}' has the same name as a player, piece kind, direction, die face or item", zpos)
        if zname in lw.names.counters or zname in lw.names.game_counters:
            raise SpecError(f"zone '{zname}' has the same name as a counter", zpos)
        if body is None or isinstance(body, YScalar) and body.value is None:
            body = YMap({}, zpos, {})
        body = lw.keys(body, "zone", f"zone '{zname}'")
        of = _choice(lw, body, "of", OWNERS, "player", f"zone '{zname}': of", "'player' (every player has one) or 'game' (one for the game)")
        visible = _choice(lw, body, "visible", VISIBILITY, "all", f"zone '{zname}': visible", "'all', 'owner' (only its player sees it) or 'none' (nobody)")
        if of == "game" and visible == "owner":
            raise SpecError(f"zone '{zname}' is a game zone, which has no owner: its visibility is 'all' or 'none'", body["visible"].pos)
        if of == "game" and "game" in lw.players:
            raise SpecError(f"zone '{zname}' is a game zone, and a player is named 'game' (the owner name of game zones in a state's zones); rename the player", zpos)
        ordered = lw.scalar(body["ordered"], bool, f"zone '{zname}': ordered") if "ordered" in body else False
        start = [0] * len(names)
        if "items" in body:
            inode = body["items"]
            if not isinstance(inode, YMap):
                raise SpecError(f"zone '{zname}': items maps kinds of item to how many copies start there, e.g. {{{names[0]}: 3}}", inode.pos)
            for iname, cnode in inode.items.items():
                if iname not in names:
                    raise SpecError(f"unknown item '{iname}'", inode.key_pos[iname], did_you_mean(iname, names))
                start[names.index(iname)] = lw.scalar(cnode, int, f"copies of '{iname}'", 0, MAX_ZONE_ITEMS)
        total += sum(start) * (n_players if of == "player" else 1)
        if total > MAX_ZONE_ITEMS:
            raise SpecError(f"the zones start with {total} items in all (limit {MAX_ZONE_ITEMS})", body["items"].pos if "items" in body else zpos)
        lw.names.constants[zname] = (len(zones), ZONE)
        lw.names.zones[zname] = (len(zones), of == "player", ordered)
        zones.append(ZoneIR(zname, of, visible, ordered, tuple(start), base))
        base += n_players if of == "player" else 1
    out = ZonesIR(items[0], items[1], items[2], tuple(zones), n_players)
    piles = sum(n_players if z.per_player else 1 for z in zones if z.ordered)
    size = piles * out.capacity + out.n_slots * (out.n_kinds + 1) * 4
    if size > MAX_ZONE_STATE:
        raise SpecError(
            f"these zones would add {size} bytes to every game state (limit {MAX_ZONE_STATE}): {piles} ordered piles of up to {out.capacity} items, {out.n_slots} zones x {out.n_kinds} kinds",
            lw.tree.key_pos.get("zones", node.pos),
            "fewer ordered zones, fewer kinds of item, or fewer items",
        )
    return out


def _choice(lw: "Lowering", body: YMap, key: str, choices: tuple[str, ...], default: str, what: str, hint: str) -> str:
    if key not in body:
        return default
    value = lw.scalar(body[key], str, what)
    if value not in choices:
        raise SpecError(f"{what} is {hint}, not {value!r}", body[key].pos, did_you_mean(value, choices))
    return value


# --------------------------------------------------------------------------- effects


def _zone(lw: "Lowering", node: YNode, what: str) -> int:
    name = lw.scalar(node, str, what)
    zones = lw.names.zones
    if name not in zones:
        if not zones:
            raise SpecError(f"{what} names a zone, but this spec has no 'zones' section", node.pos)
        raise SpecError(f"unknown zone '{name}'", node.pos, did_you_mean(name, zones) or f"zones: {', '.join(zones)}")
    return zones[name][0]


def _owner(lw: "Lowering", body: YMap, key: str, zone: int, scope: dict[str, str], effect: str) -> Expr:
    """Whose zone: a player expression for a per-player zone (default: the mover); none
    for a game zone (Const 0)."""
    zname = lw.zones_names[zone]
    per_player = lw.names.zones[zname][1]
    if not per_player:
        if key in body:
            raise SpecError(f"{effect}: '{zname}' is a game zone, which has no owner; drop '{key}'", body.key_pos[key])
        return Const(0, PLAYER)
    return lw.condition(body[key], scope, PLAYER) if key in body else Call("mover", (), PLAYER)


def _count(lw: "Lowering", body: YMap, scope: dict[str, str], effect: str) -> Expr:
    if "count" not in body:
        return Const(1, INT)
    count = lw.condition(body["count"], scope, INT)
    if isinstance(count, Const) and not 1 <= count.value <= MAX_ZONE_ITEMS:
        raise SpecError(f"{effect}.count must be between 1 and {MAX_ZONE_ITEMS}, got {count.value}", body["count"].pos)
    return count


def eff_deal(lw: "Lowering", body: YMap, scope: dict[str, str]) -> Effect:
    frm, to = _zone(lw, body["from"], "deal.from"), _zone(lw, body["to"], "deal.to")
    return Deal(frm, _owner(lw, body, "from_of", frm, scope, "deal"), to, _owner(lw, body, "of", to, scope, "deal"), _count(lw, body, scope, "deal"))


def eff_take(lw: "Lowering", body: YMap, scope: dict[str, str]) -> Effect:
    frm, to = _zone(lw, body["from"], "take.from"), _zone(lw, body["to"], "take.to")
    item = lw.condition(body["item"], scope, ITEM)
    return Take(item, frm, _owner(lw, body, "from_of", frm, scope, "take"), to, _owner(lw, body, "of", to, scope, "take"), _count(lw, body, scope, "take"))


def eff_pass_zone(lw: "Lowering", body: YMap, scope: dict[str, str]) -> Effect:
    zone = _zone(lw, body["zone"], "pass_zone.zone")
    zname = lw.zones_names[zone]
    if not lw.names.zones[zname][1]:
        raise SpecError(f"pass_zone: '{zname}' is a game zone; only per-player zones pass from player to player", body["zone"].pos)
    step = lw.condition(body["step"], scope, INT) if "step" in body else Const(1, INT)
    return PassZone(zone, step)


def eff_gather(lw: "Lowering", body: YMap, scope: dict[str, str]) -> Effect:
    frm, to = _zone(lw, body["from"], "gather.from"), _zone(lw, body["to"], "gather.to")
    if frm == to:
        raise SpecError("gather: 'from' and 'to' are the same zone", body["to"].pos)
    from_pp = lw.names.zones[lw.zones_names[frm]][1]
    to_pp = lw.names.zones[lw.zones_names[to]][1]
    owner = lw.condition(body["of"], scope, PLAYER) if "of" in body else None
    if owner is None and to_pp and not from_pp:
        raise SpecError(f"gather: '{lw.zones_names[frm]}' is a game zone and '{lw.zones_names[to]}' a per-player zone; say whose with 'of'", body["to"].pos)
    if owner is not None and not from_pp and not to_pp:
        raise SpecError("gather: both zones are game zones, which have no owner; drop 'of'", body.key_pos["of"])
    return Gather(frm, to, owner)


def eff_shuffle(lw: "Lowering", body: YMap, scope: dict[str, str]) -> Effect:
    zone = _zone(lw, body["zone"], "shuffle.zone")
    zname = lw.zones_names[zone]
    if not lw.names.zones[zname][2]:
        raise SpecError(f"shuffle: '{zname}' is unordered (a set of items has no order to shuffle)", body["zone"].pos, "declare it with 'ordered: true'")
    return Shuffle(zone, _owner(lw, body, "of", zone, scope, "shuffle"))


ZONE_EFFECTS: dict[str, Callable] = {
    "deal": eff_deal,
    "take": eff_take,
    "pass_zone": eff_pass_zone,
    "gather": eff_gather,
    "shuffle": eff_shuffle,
}

__all__ = ["lower_items", "lower_zones", "ZONE_EFFECTS", "ZONE_SECTIONS", "MAX_ZONES", "MAX_ITEM_KINDS", "MAX_ZONE_ITEMS", "MAX_ZONE_STATE", "ZONE"]
