"""Spec cases for the fuzzer: the seeds (every spec under ``specs/`` and the test specs
beside it), the ``Chooser`` that makes every random choice, and the mutations (of the YAML
tree, aimed at the newer sections, and of the text). See ``fuzz.py``."""

from __future__ import annotations

import copy
import glob
import os
import random
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

import yaml

# Text that conditions are spliced with: tokens of the language and things it is not.
TOKENS = [
    " and ", " or ", "not ", "(", ")", ",", ":", "==", "!=", "<=", "+", "-", "*", "//", "%",
    "any x in cells: ", "all p in players: ", "count(", "empty(", "owner(", "neighbours(", "step(",
    "1", "0", "-1", "99999999999999999999999", "p", "c", "d", "true", "false", "'", '"', "\\",
    "\n", "#", "{", "}", "__import__('os')", "lambda: 0", "\u00e9", "\u0430", "\x00", " ",
]
WEIRD_VALUES: list[Any] = [
    None, True, False, 0, 1, -1, 2, 3, 7, 64, 65, 1000, 2**31, -(2**31), 2**62, 2**63, 10**30,
    "", " ", "x", "cell", "player", "int", "1..3", "0..0", "5..1", "-3..-1", "{c}", "{", "a" * 300,
    "\n", "#", "'", "\"", "\\", "\u00e9", "none", "empty(c)", "true", [], {}, [1, 2], ["a", "b"], {"a": 1}, {"a": None},
    [[]], 3.5, "1e9",
]


class Chooser:
    """Random choices; subclasses draw them from hypothesis."""

    def __init__(self, rng: Optional[random.Random] = None):
        self.rng = rng or random.Random()

    def integer(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)

    def choice(self, seq: Sequence[Any]) -> Any:
        return seq[self.integer(0, len(seq) - 1)]


class HypothesisChooser(Chooser):
    def __init__(self, data: Any):
        from hypothesis import strategies as st

        self.data = data
        self._st = st

    def integer(self, lo: int, hi: int) -> int:
        return self.data.draw(self._st.integers(lo, hi))


# --------------------------------------------------------------------------- specs


def spec_paths(specs_dir: str = "specs") -> list[str]:
    from ..compiler.build import spec_files

    return spec_files(specs_dir)


@dataclass
class Seed:
    path: str
    text: str
    tree: Any


def extra_seed_dirs(specs_dir: str) -> list[str]:
    """The test specs beside ``specs/`` (``tests/data``): they use every feature of the
    language, some of which no real game uses yet."""
    data = os.path.join(os.path.dirname(os.path.abspath(specs_dir)), "tests", "data")
    return [data] if os.path.isdir(data) else []


def load_seeds(specs_dir: str = "specs", extra_dirs: Optional[Sequence[str]] = None) -> list[Seed]:
    seeds = []
    extra = extra_seed_dirs(specs_dir) if extra_dirs is None else extra_dirs
    paths = spec_paths(specs_dir) + [p for d in extra for p in sorted(glob.glob(os.path.join(d, "*.yaml")))]
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        try:
            tree = yaml.safe_load(text)
        except yaml.YAMLError:
            tree = None
        seeds.append(Seed(path, text, tree))
    return seeds


def _paths(tree: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path (tuple of keys and indexes) into a plain YAML tree, the root excluded."""
    out = []
    if isinstance(tree, dict):
        for k, v in tree.items():
            out.append(prefix + (k,))
            out += _paths(v, prefix + (k,))
    elif isinstance(tree, list):
        for i, v in enumerate(tree):
            out.append(prefix + (i,))
            out += _paths(v, prefix + (i,))
    return out


def _get(tree: Any, path: tuple) -> Any:
    for p in path:
        tree = tree[p]
    return tree


def _strings(tree: Any) -> list[str]:
    return [v for p in _paths(tree) if isinstance(v := _get(tree, p), str)]


def _garble(ch: Chooser, text: str, pool: Sequence[str]) -> str:
    op = ch.integer(0, 4)
    at = ch.integer(0, len(text)) if text else 0
    if op == 0:  # truncate
        return text[:at]
    if op == 1:  # splice a token in
        return text[:at] + ch.choice(TOKENS) + text[at:]
    if op == 2 and pool:  # splice part of another string in
        other = ch.choice(pool)
        a = ch.integer(0, len(other))
        return text[:at] + other[a : a + ch.integer(0, 40)] + text[at:]
    if op == 3 and text:  # delete a stretch
        return text[:at] + text[at + ch.integer(1, 10) :]
    return text + ch.choice(TOKENS)  # op 4 (or nothing to splice): append


def mutate_tree(ch: Chooser, tree: Any) -> Any:
    """One structural mutation of a copy of ``tree``."""
    tree = copy.deepcopy(tree)
    paths = _paths(tree)
    if not paths:
        return ch.choice(WEIRD_VALUES)
    path = ch.choice(paths)
    parent = _get(tree, path[:-1])
    key = path[-1]
    value = parent[key]
    op = ch.integer(0, 6)
    if op == 0:  # delete
        del parent[key]
    elif op == 1:  # duplicate (under a new key, or appended to the list)
        if isinstance(parent, dict):
            parent[f"{key}{ch.choice(['', '_', '2', 's'])}x"] = copy.deepcopy(value)
        else:
            parent.append(copy.deepcopy(value))
    elif op == 2:  # retype
        parent[key] = copy.deepcopy(ch.choice(WEIRD_VALUES))
    elif op == 3 and isinstance(parent, dict):  # rename
        new = _garble(ch, str(key), [])
        items = list(parent.items())
        parent.clear()
        for k, v in items:
            parent[new if k == key else k] = v
    elif op == 4 and isinstance(value, int) and not isinstance(value, bool):  # perturb a number
        parent[key] = ch.choice([value + 1, value - 1, 0, -value, value * 1000, 2**31, 2**62 + 1, -1])
    elif isinstance(value, str):  # splice or truncate a string (most are conditions)
        parent[key] = _garble(ch, value, _strings(tree))
    else:  # replace a container's content by a weird scalar, or a scalar by a container
        parent[key] = copy.deepcopy(ch.choice(WEIRD_VALUES))
    return tree


def mutate_text(ch: Chooser, text: str) -> str:
    """One textual mutation (for YAML syntax errors)."""
    lines = text.split("\n")
    op = ch.integer(0, 4)
    if op == 0:
        return text[: ch.integer(0, len(text))]
    i = ch.integer(0, max(len(lines) - 1, 0))
    if op == 1:
        lines.insert(i, lines[i])
    elif op == 2:
        del lines[i]
    elif op == 3:
        lines[i] = _garble(ch, lines[i], [])
    else:
        at = ch.integer(0, len(text))
        return text[:at] + ch.choice(["\t", ": ", "- ", "[", "{", "&a ", "*a", "!!python/name:os.system ", "'", '"', "\x00", "\ufeff"]) + text[at:]
    return "\n".join(lines)


# --------------------------------------------------------------------------- the newer sections
# Mutations aimed at dice (chance), player counts, the remove / extra_turn effects and graph
# node places: generic mutations reach them too, but rarely with the values that matter
# (a million dice, a face written "a-b", a count patch that deletes the board, ...).

DICE = [0, 1, 2, 3, 16, 17, 1000, 10**6, -1, 2**62, 2**63, "2", "", None, True, [], {}, "1e3"]
FACE_TEXTS = ["", " ", "a b", "a-b", "a:b", "a,b", "roll", "roll:", "A", "1", "-", ":", ",", "\u00e9", "\t", "x" * 300, "#", "'", '"', "{c}", "\u2212", "a\u00a0b", "a\nb", "L", "None", "0", "put", "\x00"]
FACE_NAMES = ["ace", "blank", "x", "", "1", "and", "mover", "roll", "a-b", "\u00e9", "x" * 70, "red", "stone", "n", "c", "p", "true", "put"]
FACE_VALUES = [0, 1, -1, 2**31 - 1, 2**31, -(2**31) - 1, 2**62, None, "x", "", True, [], {}, 1.5, {"text": "Z"}, {"value": 3}, {"text": "Q", "value": 9, "extra": 1}]
COUNT_KEYS = ["0", 0, 1, 2, 3, 4, 8, 9, 100, 10**30, "x", "1.5", "\u00b2", "\u0663", "-2", "02", "default", " 2", "9" * 5000]
COUNT_DEFAULTS = [1, 2, 3, 4, 8, 9, 0, -1, "2", "x", None, True, 2.0, [2], {}, 10**30]
COUNT_PATCHES: list[Any] = [
    {}, None, [], "x", 3, {"game": None}, {"board": None}, {"actions": None}, {"ranking": None}, {"chance": None},
    {"game": {"players": ["solo"]}}, {"game": {"players": [f"p{i}" for i in range(9)]}}, {"game": {"players": None}},
    {"game": {"players": [f"p{i}" for i in range(8)]}}, {"game": {"max_plies": 1}}, {"player_counts": {}}, {"variants": {}},
    {"extends": "x.yaml"}, {"pieces": {"zz": {"hand": 10**6}}}, {"pieces": None}, {"setup": None}, {"board": {"rows": 1000}},
    {"chance": {"dice": 16}}, {"chance": {"faces": {"only": 1}}}, {"nope": 1}, {"game": {"name": "Bad Name"}},
]
CELL_EXPRS = ["c", "x", "step(c, n)", "step(step(c, e), e)", "owner(c)", "1", "", "c c", "mover", "die(0)"]
EACH_TEXTS = [
    "x in neighbours(c)", "x in cells", "d in directions", "x in players", "x in range(1, 3)", "c in cells", "in cells",
    "x in", "x  in  cells", "mover in cells", "x in group(c)", "x in neighbours(x)", "1 in cells", "x in cells: true", "x in cells\n", "",
]
WHERE_TEXTS = [None, "true", "owner(x) != mover", "empty(x)", "x", "1", "rolled(x) > 0", "owner(step(c, d)) != mover"]
REMOVE_TO = [None, "hand", "out", "board", "", 1]
AT_VALUES: list[Any] = [[0, 0], [1.5, -2], [0], [1, 2, 3], ["a", 1], [1e300, 0], [10**30, 0], None, {"x": 1}, [True, False], ["1e3", "2"], [".nan", 0], [float("inf"), 0], [-1e6, 1e6], [], "0, 0"]


def _section(tree: dict, key: str, default: Any) -> Any:
    """``tree[key]``, created as ``default`` when missing or not a mapping."""
    if not isinstance(tree.get(key), dict):
        tree[key] = copy.deepcopy(default)
    return tree[key]


def _dice(tree: dict) -> dict:
    chance = _section(tree, "chance", {"dice": 2, "faces": {"lo": 1, "hi": {"text": "H", "value": 2}}})
    if not isinstance(chance.get("faces"), dict) or not chance["faces"]:
        chance["faces"] = {"lo": 1, "hi": 2}
    return chance


def _mut_dice(ch: Chooser, tree: dict) -> None:
    chance = _dice(tree)
    op = ch.integer(0, 7)
    faces = chance["faces"]
    face = ch.choice(list(faces))
    if op == 0:
        chance["dice"] = ch.choice(DICE)
    elif op == 1:
        n = ch.choice([0, 1, 2, 6, 16, 63, 64, 65, 256])
        chance["faces"] = {f"f{i}": i for i in range(n)} if ch.integer(0, 3) else ch.choice([[], "x", None, [1, 2], {"a": None}])
    elif op == 2:  # a face's text: odd characters, or another face's text
        texts = [f.get("text", k) if isinstance(f, dict) else k for k, f in faces.items()]
        faces[face] = {"text": ch.choice(FACE_TEXTS + texts), "value": ch.integer(-3, 9)}
    elif op == 3:
        faces[face] = copy.deepcopy(ch.choice(FACE_VALUES))
    elif op == 4:  # rename a face (perhaps onto another, or onto a player, kind or builtin)
        new = ch.choice(FACE_NAMES + list(faces))
        chance["faces"] = {(new if k == face else k): v for k, v in faces.items()}
    elif op == 5:
        chance["ordered"] = ch.choice([True, False, "yes", 1, None, "true", []])
    elif op == 6:
        actions = list(tree["actions"]) if isinstance(tree.get("actions"), dict) else []
        chance["name"] = ch.choice(["roll", "throw", "", "a b", "x:y", "R", "and", "r", "S", *actions])
    else:
        del tree["chance"]


def _counts(tree: dict) -> dict:
    game = tree.get("game") if isinstance(tree.get("game"), dict) else {}
    n = len(game.get("players") or []) if isinstance(game.get("players"), list) else 2
    return _section(tree, "player_counts", {max(1, n): {}})


def _mut_counts(ch: Chooser, tree: dict) -> None:
    counts = _counts(tree)
    op = ch.integer(0, 3)
    if op == 0:
        counts[ch.choice(COUNT_KEYS)] = {}
    elif op == 1:
        counts["default"] = copy.deepcopy(ch.choice(COUNT_DEFAULTS))
    elif op == 2:
        keys = [k for k in counts if k != "default"] or [2]
        counts[ch.choice(keys)] = copy.deepcopy(ch.choice(COUNT_PATCHES))
    else:  # a patch that is another section of the spec, garbled
        sections = [k for k in tree if k not in ("player_counts", "variants")]
        if sections:
            key = ch.choice(sections)
            counts[ch.choice([k for k in counts if k != "default"] or [2])] = mutate_tree(ch, {key: tree[key]})


def _effect_lists(tree: dict) -> list[list]:
    out = []
    for section in ("actions", "triggers"):
        body = tree.get(section)
        if isinstance(body, dict):
            out += [v["effects"] for v in body.values() if isinstance(v, dict) and isinstance(v.get("effects"), list)]
    end = tree.get("end")
    if isinstance(end, dict) and isinstance(end.get("effects"), list):
        out.append(end["effects"])
    return out


def _remove_effect(ch: Chooser) -> dict:
    body: dict = {"at": ch.choice(CELL_EXPRS)}
    if ch.integer(0, 1):
        body["each"] = ch.choice(EACH_TEXTS)
        body["at"] = ch.choice(["x", "d", "step(c, d)", *CELL_EXPRS])
    where, to = ch.choice(WHERE_TEXTS), ch.choice(REMOVE_TO)
    if where is not None:
        body["where"] = where
    if to is not None:
        body["to"] = to
    if ch.integer(0, 5) == 0:
        body[ch.choice(["nope", "from", "piece"])] = "c"
    return {"remove": body}


def _mut_effects(ch: Chooser, tree: dict) -> None:
    lists = _effect_lists(tree)
    op = ch.integer(0, 3)
    if op == 0 or not lists:  # extra_turn every move: a game that only ends by max_plies
        triggers = _section(tree, "triggers", {})
        triggers[f"loop{ch.integer(0, 9)}"] = {"effects": [{"extra_turn": ch.choice([{}, None])}]}
        game = _section(tree, "game", {})
        game["max_plies"] = ch.choice([1, 2, 5, 30, game.get("max_plies", 30)])
        return
    target = ch.choice(lists)
    at = ch.integer(0, len(target))
    if op == 1:
        target.insert(at, {"extra_turn": copy.deepcopy(ch.choice([{}, None, {"x": 1}, [], "again", {"when": "true"}]))})
    else:
        target.insert(at, _remove_effect(ch))


def _mut_graph(ch: Chooser, tree: dict) -> None:
    board = tree.get("board")
    if not isinstance(board, dict) or board.get("topology") != "graph" or not isinstance(board.get("nodes"), list) or not board["nodes"]:
        n = ch.integer(1, 5)
        tree["board"] = {
            "topology": "graph",
            "nodes": [{"name": f"n{i}", "at": [i, i % 2]} for i in range(n)],
            "edges": [[f"n{i}", f"n{i + 1}"] for i in range(n - 1)],
        }
        return
    nodes = board["nodes"]
    i = ch.integer(0, len(nodes) - 1)
    node = nodes[i]
    name = node.get("name", f"n{i}") if isinstance(node, dict) else node
    op = ch.integer(0, 5)
    if op == 0:
        nodes[i] = {"name": name, "at": copy.deepcopy(ch.choice(AT_VALUES))}
    elif op == 1:  # drop one place: some nodes with, some without
        nodes[i] = name
    elif op == 2:
        nodes[i] = {"at": [0, 0]} if ch.integer(0, 1) else {"name": name, "at": [0, 0], ch.choice(["pos", "x", "name2"]): 1}
    elif op == 3:  # every node at one point: a picture with no distances
        board["nodes"] = [{"name": n.get("name", f"n{k}") if isinstance(n, dict) else n, "at": [0, 0]} for k, n in enumerate(nodes)]
    elif op == 4:
        nodes.append(copy.deepcopy(node))
    else:
        board["edges"] = copy.deepcopy(ch.choice([None, 5, "x", {"a": "b"}, [[name, name]], [[name]], [[name, "nowhere"]], [name]]))


# zones of items (items:, zones:) and the effects that move items
ZONE_NAMES = ["pile", "hand", "draft", "stock", "top", "holding", "red", "game", "", "a b", "x" * 70, "mover", "pile"]
ZONE_BODIES: list[Any] = [
    {}, None, {"of": "game"}, {"of": "game", "visible": "owner"}, {"of": "table"}, {"visible": "mine"}, {"ordered": "yes"},
    {"ordered": True, "items": {"it0": 3}}, {"of": "game", "ordered": True, "items": {"it0": 4096}}, {"items": {"nope": 1}},
    {"items": {"it0": -1}}, {"items": [1, 2]}, {"items": {"it0": 10**30}}, {"of": "player", "visible": "none", "ordered": True, "items": {"it0": 2, "it1": 2}},
]
ZONE_COUNTS: list[Any] = [None, 0, 1, 3, -1, 4096, 4097, 10**30, "ply * 1000000000000", "-ply", "x", "", "mover", True, [1]]
ZONE_OWNERS: list[Any] = [None, "mover", "nobody", "next_player(mover)", "1", "x", "", "owner(c)", "last_player"]


def _zone_effect(ch: Chooser, zones: list[str]) -> dict:
    names = zones + ["nowhere", "", 3]
    kind = ch.choice(["deal", "take", "pass_zone", "gather", "shuffle"])
    if kind in ("deal", "take"):
        body: dict = {"from": ch.choice(names), "to": ch.choice(names)}
        if kind == "take":
            body["item"] = ch.choice(["it0", "it1", "no_item", "k", "1", "mover", "top(pile)"])
        for key in ("from_of", "of"):
            owner = ch.choice(ZONE_OWNERS)
            if owner is not None:
                body[key] = owner
    elif kind == "pass_zone":
        body = {"zone": ch.choice(names), "step": ch.choice(ZONE_COUNTS)}
    elif kind == "gather":
        body = {"from": ch.choice(names), "to": ch.choice(names), "of": ch.choice(ZONE_OWNERS)}
    else:
        body = {"zone": ch.choice(names), "of": ch.choice(ZONE_OWNERS)}
    count = ch.choice(ZONE_COUNTS)
    if kind in ("deal", "take") and count is not None:
        body["count"] = count
    return {kind: {k: v for k, v in body.items() if v is not None}}


def _mut_zones(ch: Chooser, tree: dict) -> None:
    if "deck" in tree and ch.integer(0, 3):
        del tree["deck"]
    items = _section(tree, "items", {"it0": {"values": [1], "text": "I0"}, "it1": [2]})
    zones = _section(tree, "zones", {"pile": {"of": "game", "ordered": True, "items": {"it0": 3, "it1": 2}}, "held": {"visible": "owner"}})
    op = ch.integer(0, 4)
    if op == 0:
        zones[ch.choice(ZONE_NAMES)] = copy.deepcopy(ch.choice(ZONE_BODIES))
    elif op == 1:
        n = ch.choice([0, 1, 2, 255, 256])
        tree["items"] = {f"it{i}": [i] for i in range(n)} if ch.integer(0, 3) else ch.choice([[], "x", None, {"it0": {"text": "a b"}}, {"it0": {"text": "I"}, "it1": {"text": "I"}}])
    elif op == 2:
        items[ch.choice(["it0", "it1", "red", "no_item", "top"])] = copy.deepcopy(ch.choice([None, [], [1], {"values": "x"}, {"text": ""}, {"count": 2}]))
    else:  # a zone effect in an action (a new always-legal one) or a trigger
        actions = _section(tree, "actions", {})
        effect = _zone_effect(ch, [z for z in zones if isinstance(z, str)])
        actions[f"z{ch.integer(0, 9)}"] = {"effects": [effect], "where": ch.choice(["true", "zone_size(pile) > 0", "top(pile) == it0", "holding(mover, held, it1) >= 0"])}


FEATURE_MUTATIONS: list[Callable[[Chooser, dict], None]] = [_mut_dice, _mut_counts, _mut_effects, _mut_graph, _mut_zones]


def mutate_feature(ch: Chooser, tree: Any) -> Any:
    """One mutation of a copy of ``tree`` aimed at the newer sections (see above)."""
    tree = copy.deepcopy(tree)
    if not isinstance(tree, dict):
        return tree
    ch.choice(FEATURE_MUTATIONS)(ch, tree)
    return tree


def make_spec_case(ch: Chooser, seeds: Sequence[Seed]) -> str:
    seed = ch.choice(list(seeds))
    if seed.tree is None or ch.integer(0, 4) == 0:
        text = seed.text
        for _ in range(ch.integer(1, 3)):
            text = mutate_text(ch, text)
        return text
    tree = seed.tree
    if ch.integer(0, 2) == 0:  # a third of the tree cases aim at the newer sections
        for _ in range(ch.integer(1, 2)):
            tree = mutate_feature(ch, tree)
        generic = ch.integer(0, 2)
    else:
        generic = ch.integer(1, 4)
    for _ in range(generic):
        tree = mutate_tree(ch, tree)
    try:
        return yaml.safe_dump(tree, sort_keys=False, allow_unicode=True, width=1_000_000)
    except yaml.YAMLError:  # pragma: no cover
        return seed.text
