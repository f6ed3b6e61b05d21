"""Mistakes in items, zones and the zone effects get one clear message at the right place
(file:line:col, the offending text), as every spec error does."""

from __future__ import annotations

from pathlib import Path

import pytest

from midgardc.errors import SpecError
from midgardc.spec.lower import load_game_ir

BASE = """\
game: {name: z, players: [a, b]}
board: {topology: square, rows: 1, cols: 1}
ITEMS
zones:
  pile: {of: game, ordered: true, items: {red: 2, blue: 2}}
  held: {visible: owner}
  bag: {of: game}
actions:
  go:
    where: "WHERE"
    effects:
      - EFFECT
ranking: {n: "zone_size(p, held)"}
"""

OK = {"ITEMS": "items: {red: [1], blue: [2]}", "WHERE": "true", "EFFECT": "deal: {from: pile, to: held}"}


def spec(tmp_path: Path, **changes: str) -> tuple[str, str]:
    text = BASE
    for key, value in {**OK, **changes}.items():
        text = text.replace(key, value)
    path = tmp_path / "z.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path), text


# (what to change, the text the caret points at (first occurrence after the line's start), message fragment)
CASES = [
    ({"EFFECT": "deal: {from: pyle, to: held}"}, "pyle", "unknown zone 'pyle'"),
    ({"EFFECT": "deal: {from: pile, from_of: mover, to: held}"}, "from_of", "'pile' is a game zone, which has no owner; drop 'from_of'"),
    ({"EFFECT": "deal: {from: held, to: bag, of: b}"}, "of: b", "'bag' is a game zone, which has no owner; drop 'of'"),
    ({"EFFECT": "take: {item: 3, from: held, to: bag}"}, "3,", "expected an item here, but this is a number"),
    ({"EFFECT": "take: {item: a, from: held, to: bag}"}, "a,", "expected an item here, but this is a player"),
    ({"EFFECT": "deal: {from: pile, to: held, count: 0}"}, "0}", "deal.count must be between 1 and 4096, got 0"),
    ({"EFFECT": "take: {item: red, from: held, to: bag, count: 5000}"}, "5000", "take.count must be between 1 and 4096"),
    ({"EFFECT": "shuffle: {zone: bag}"}, "bag", "shuffle: 'bag' is unordered"),
    ({"EFFECT": "pass_zone: {zone: pile}"}, "pile", "pass_zone: 'pile' is a game zone"),
    ({"EFFECT": "gather: {from: bag, to: held}"}, "held}", "say whose with 'of'"),
    ({"EFFECT": "gather: {from: held, to: held}"}, "held}", "'from' and 'to' are the same zone"),
    ({"WHERE": "top(bag) == red"}, "bag", "top() needs an ordered zone"),
    ({"WHERE": "holding(mover, pile, red) > 0"}, "holding", "'holding' of zone 'pile' takes 2 arguments"),
    ({"WHERE": "zone_size(held) > 0"}, "zone_size", "'zone_size' of zone 'held' takes 2 arguments"),
    ({"WHERE": "holding(mover, pail, red) > 0"}, "pail", "'holding' needs a zone's name here"),
    ({"WHERE": "holding(mover, held, 2) > 0"}, "2)", "the last argument of 'holding' must be an item, got a number"),
    ({"WHERE": "top(pile) == 1"}, "==", "cannot compare an item with a number"),
]


@pytest.mark.parametrize("changes, at, message", CASES, ids=[c[2][:40] for c in CASES])
def test_zone_mistakes_are_placed(tmp_path: Path, changes: dict, at: str, message: str) -> None:
    path, text = spec(tmp_path, **changes)
    with pytest.raises(SpecError) as info:
        load_game_ir(path)
    changed = next(v for v in changes.values())
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if changed in ln)
    col = text.splitlines()[line - 1].index(at) + 1
    assert message in str(info.value)
    assert str(info.value).startswith(f"{path}:{line}:{col}: error:"), str(info.value)


def _fails(tmp_path: Path, text: str, line: int, fragment: str) -> None:
    path = tmp_path / "z.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_game_ir(str(path))
    assert fragment in str(info.value)
    assert str(info.value).startswith(f"{path}:{line}:"), str(info.value)


def test_sections_are_checked(tmp_path: Path) -> None:
    base = BASE
    for key, value in OK.items():
        base = base.replace(key, value)
    _fails(tmp_path, base.replace("held: {visible: owner}", "held: {visible: mine}"), 6, "visible is 'all', 'owner' (only its player sees it) or 'none'")
    _fails(tmp_path, base.replace("bag: {of: game}", "bag: {of: game, visible: owner}"), 7, "'bag' is a game zone, which has no owner: its visibility is 'all' or 'none'")
    _fails(tmp_path, base.replace("bag: {of: game}", "bag: {of: table}"), 7, "of is 'player' (every player has one) or 'game'")
    _fails(tmp_path, base.replace("items: {red: 2, blue: 2}", "items: {red: 2, green: 2}"), 5, "unknown item 'green'")
    _fails(tmp_path, base.replace("items: {red: 2, blue: 2}", "items: {red: 4000, blue: 97}"), 5, "the zones start with 4097 items in all (limit 4096)")
    _fails(tmp_path, base.replace("held: {visible: owner}", "held: {visible: owner, items: {red: 2048}}"), 6, "limit 4096")  # 2 players x 2048 + 4
    _fails(tmp_path, base.replace("bag: {of: game}", "red: {of: game}"), 7, "zone 'red' has the same name as a player, piece kind, direction, die face or item")
    _fails(tmp_path, base.replace("zones:", "counters: {bag: {start: 0, of: game}}\nzones:"), 8, "zone 'bag' has the same name as a counter")
    _fails(tmp_path, base.replace("bag: {of: game}", "bag: {of: game, sorted: true}"), 7, "unknown key 'sorted' in zone 'bag'")
    _fails(tmp_path, base.replace("items: {red: [1], blue: [2]}", "items: {red: {text: R}, blue: {text: R}}"), 3, "two items are written 'R'")
    # without an items section the zones' starting items declare the kinds; zones that
    # start empty declare none, and then the section is missing
    _fails(tmp_path, base.replace("items: {red: [1], blue: [2]}\n", "").replace(", items: {red: 2, blue: 2}", ""), 3, "zones hold items: declare their kinds in an 'items' section")
    no_zones = base.split("zones:")[0] + "actions:" + base.split("actions:")[1].replace("deal: {from: pile, to: held}", "extra_turn: {}").replace("zone_size(p, held)", "0")
    _fails(tmp_path, no_zones, 3, "items live in zones: declare at least one zone that holds them")
    _fails(tmp_path, base.replace("game: {name: z, players: [a, b]}", "game: {name: z, players: [a, game]}"), 5, "a player is named 'game'")


def test_a_spec_declares_its_kinds_of_item_once(tmp_path: Path) -> None:
    base = BASE
    for key, value in OK.items():
        base = base.replace(key, value)
    text = base.replace("zones:", "deck: {items: {one: [1]}}\nzones:", 1)
    _fails(tmp_path, text, 3, "a spec declares its kinds of item once: 'deck' (every player's deck) or 'items' with 'zones', not both")


def test_zone_words_are_reserved_only_in_specs_with_zones(tmp_path: Path) -> None:
    base = BASE
    for key, value in OK.items():
        base = base.replace(key, value)
    # a spec with zones cannot define top(...) or name a counter holding
    _fails(tmp_path, base.replace("actions:", "define:\n  top(cell c): empty(c)\nactions:"), 9, "definition name 'top' is a built-in word")
    _fails(tmp_path, base.replace("zones:", "counters: {holding: 0}\nzones:"), 4, "'holding' reads zones in a spec with zones")
    # a board game without zones keeps its own top(c) (specs/classics/hex.yaml has one)
    path = tmp_path / "nozones.yaml"
    path.write_text(
        "game: {name: t, players: [a, b]}\nboard: {topology: square, rows: 2, cols: 2}\n"
        "define:\n  top(cell c): empty(c)\nactions:\n  go: {params: {c: cell}, where: top(c)}\n"
        "ranking: {n: \"count(c in cells: owner(c) == p)\"}\n",
        encoding="utf-8",
    )
    load_game_ir(str(path))
    text = path.read_text().replace("where: top(c)", "where: \"holding(c) > 0\"")
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError, match="holding\\(\\) reads a zone, but this spec has no 'zones' section"):
        load_game_ir(str(path))


def test_limits(tmp_path: Path) -> None:
    """MAX_ZONES, MAX_ITEM_KINDS and MAX_ZONE_ITEMS (docs/spec-language.md, "Limits")."""
    from midgardc.spec.zones import MAX_ITEM_KINDS, MAX_ZONE_ITEMS, MAX_ZONE_STATE, MAX_ZONES

    base = BASE
    for key, value in OK.items():
        base = base.replace(key, value)
    many = "\n".join(f"  z{i}: {{}}" for i in range(MAX_ZONES - 3 + 1))  # with pile, held, bag: one too many
    _fails(tmp_path, base.replace("  bag: {of: game}", "  bag: {of: game}\n" + many), 5, f"{MAX_ZONES + 1} zones (limit {MAX_ZONES})")
    kinds = ", ".join(f"k{i}: []" for i in range(MAX_ITEM_KINDS - 1))  # with red and blue: one too many
    _fails(tmp_path, base.replace("items: {red: [1], blue: [2]}", "items: {red: [1], blue: [2], " + kinds + "}"), 3, f"{MAX_ITEM_KINDS + 1} kinds of item (limit {MAX_ITEM_KINDS})")
    _fails(tmp_path, base.replace("items: {red: 2, blue: 2}", f"items: {{red: {MAX_ZONE_ITEMS + 1}}}"), 5, f"copies of 'red' must be between 0 and {MAX_ZONE_ITEMS}")
    # at the limits themselves the spec is fine
    path = tmp_path / "ok.yaml"
    path.write_text(base.replace("items: {red: 2, blue: 2}", f"items: {{red: {MAX_ZONE_ITEMS}}}"), encoding="utf-8")
    assert load_game_ir(str(path)).zones.capacity == MAX_ZONE_ITEMS
    # 121 ordered piles (60 per-player zones of 2 seats, and pile) of up to 4096 items: 484 KiB a state
    piles = "\n".join(f"  p{i}: {{ordered: true}}" for i in range(60))
    _fails(tmp_path, base.replace("items: {red: 2, blue: 2}", f"items: {{red: {MAX_ZONE_ITEMS}}}").replace("  bag: {of: game}", "  bag: {of: game}\n" + piles), 4, f"(limit {MAX_ZONE_STATE})")


@pytest.mark.parametrize(
    "items, at, message",
    [
        ("items: {red: [1], blue: [2], dot: {each: colour}}", "3:42", "item family 'dot': 'colour' is not an enumeration"),
        ("enums: {shade: [dark, light]}\nitems: {red: [1], blue: [2], dot_dark: {}, dot: {each: shade}}", "4:44", "item family 'dot' makes an item 'dot_dark', which is declared twice"),
        ("enums: {shade: [dark, light]}\nitems: {red: [1], blue: [2], dot: {each: shade, text: [D]}}", "4:55", "item family 'dot': 'text' is a list of 1 for the 2 values of 'shade'"),
    ],
)
def test_item_family_mistakes_are_placed(tmp_path: Path, items: str, at: str, message: str) -> None:
    path, _ = spec(tmp_path, ITEMS=items)
    with pytest.raises(SpecError) as err:
        load_game_ir(path)
    assert str(err.value).startswith(f"{path}:{at}: error: {message}"), str(err.value)
