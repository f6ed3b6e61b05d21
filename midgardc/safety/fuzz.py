"""A fuzzer for specs and command lines: every input ends in success or one clear error.

Spec cases start from every spec under ``specs/`` (found afresh on each run, subfolders
included) and the test specs in ``tests/data`` beside it (dice, player counts, remove,
extra_turn and placed graph nodes, which few real games use yet), and apply a few random
mutations: on the YAML tree (delete, duplicate, retype or rename a key; perturb a number;
splice, truncate or garble a condition string), aimed at the newer sections (a million
dice, face texts with separators, count patches that delete the board, extra turns
forever, removal off the board, node places that are not two numbers, zones and items with
odd owners, counts and names, zone effects dealing a pile to itself a trillion times),
and on the text
(truncate, duplicate or drop a line, flip a character). Each case is validated in-process
with ``load_game_ir`` for every variant and player count, and a valid one plays one short
random game; it must end in success or a ``MidgardcError`` with a message; any other
exception is a crash, and a case that runs longer than its timeout is a hang.

Command-line cases mutate argument lists of the real commands (tournament, report,
replay --record with records forged from good ones, --player-count, mcts parameters,
cluster addresses that can never start or reach a cluster) and run them through click
in-process; they must exit 0 or 1, never with a traceback.

Choices come from a ``Chooser``: ``hypothesis`` drives it in the tests and in ``make fuzz``
(``python -m midgardc.safety.fuzz --cases N``); a plain ``random.Random`` works too.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import glob
import io
import json
import os
import random
import signal
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence

import yaml

from ..errors import MidgardcError

CASE_TIMEOUT = 10.0  # seconds per case; longer is a hang
# A match or tournament plays whole games on the interpreter (up to two, see _keep_small):
# a slow game with a searching player is honest work of many seconds on a loaded machine
# (one interpreted game of a stack-and-push spec with a one-ply player took 10.1 s and was
# reported as a hang by CI), so these cases get a longer budget; an endless loop still trips it.
PLAY_TIMEOUT = 60.0

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


# --------------------------------------------------------------------------- outcomes


@dataclass
class Failure:
    kind: str  # "crash" | "hang" | "bad-message" | "bad-exit" | "bad-play"
    detail: str
    case: str


@dataclass
class Stats:
    cases: int = 0
    ok: int = 0
    errors: int = 0  # MidgardcError, as expected for broken input
    failures: list[Failure] = field(default_factory=list)
    seconds: float = 0.0

    def summary(self) -> str:
        crashes = sum(f.kind in ("crash", "bad-message", "bad-exit", "bad-play") for f in self.failures)
        hangs = sum(f.kind == "hang" for f in self.failures)
        return f"{self.cases} cases in {self.seconds:.1f} s: {self.ok} valid, {self.errors} refused with a message, {crashes} tracebacks, {hangs} hangs"


class _Timeout(BaseException):
    pass


@contextlib.contextmanager
def time_limit(seconds: float):
    """Raise _Timeout in the main thread after ``seconds`` (POSIX; elsewhere no limit)."""
    if not hasattr(signal, "setitimer") or os.name == "nt":  # pragma: no cover
        yield
        return

    def fire(signum, frame):
        raise _Timeout()

    old = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def check_spec_text(text: str, workdir: str, stats: Stats, timeout: float = CASE_TIMEOUT) -> None:
    """Validate one spec text in-process and record the outcome in ``stats``."""
    from ..spec.lower import list_player_counts, list_variants, load_game_ir

    path = os.path.join(workdir, "case.yaml")
    with open(path, "w", encoding="utf-8", errors="surrogatepass") as fh:
        fh.write(text)
    stats.cases += 1
    try:
        with time_limit(timeout):
            ir = load_game_ir(path)
            for v in [None, *list_variants(path)]:  # as `validate` does: every variant, every count
                for n in list_player_counts(path, v):
                    load_game_ir(path, v, n)
                if v is not None:
                    load_game_ir(path, v)
            problem = play_briefly(ir, len(text))
        if problem:
            stats.failures.append(Failure("bad-play", problem, text))
            return
        stats.ok += 1
    except MidgardcError as exc:
        msg = str(exc)
        if not msg.strip() or "Traceback" in msg:
            stats.failures.append(Failure("bad-message", msg[:500], text))
        else:
            stats.errors += 1
    except _Timeout:
        stats.failures.append(Failure("hang", f"over {timeout} s", text))
    except Exception as exc:  # noqa: BLE001 - that is what the fuzzer looks for
        stats.failures.append(Failure("crash", "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))[-3000:], text))


PLAY_MOVES = 80  # moves (rolls included) of the one random game a valid case plays


def play_briefly(ir: Any, seed: int) -> str:
    """Play one random game of a valid spec with the interpreter for up to PLAY_MOVES moves
    (rolls sampled as a match would): no exception, ply within ``max_plies``, and a game
    with a small ``max_plies`` (extra turns forever, passes forever) really ends by it.
    Returns what went wrong, or ""."""
    from ..runtime.game import game_from_ir

    rng = random.Random(seed)
    state = game_from_ir(ir, "interpreted").new_state(seed)
    for _ in range(PLAY_MOVES):
        if state.is_terminal():
            return ""
        if state.is_chance_node():
            state.sample_chance()
        else:
            state.apply_unchecked(rng.choice(state.legal_move_ids()))
        if state.ply() > ir.max_plies:
            return f"ply {state.ply()} is past max_plies {ir.max_plies}"
    if not state.is_terminal() and 2 * ir.max_plies + 2 < PLAY_MOVES:
        return f"not over after {PLAY_MOVES} moves with max_plies {ir.max_plies}"
    return ""


# --------------------------------------------------------------------------- command lines

COMMANDS = {
    "validate": ["--variant", "--player-count"],
    "moves": ["--moves", "--variant", "--engine", "--player-count"],
    "replay": ["--moves", "--variant", "--seed", "--engine", "--json", "--record", "--game", "--player-count"],
    "perft": ["--depth", "--variant", "--engine", "--player-count"],
    "show": ["--moves", "--variant", "--engine", "--color", "--player-count", "--svg"],
    "match": ["--players", "--games", "--seed", "--variant", "--engine", "--json", "--workers", "--record", "--progress"],
    "tournament": ["--players", "--variant", "--games", "--seed", "--engine", "--workers", "--cluster", "--record", "--json", "--csv", "--progress", "--no-progress", "--player-count"],
    "report": ["--html", "--spec", "--max-replays", "--engine"],
}
MCTS_PLAYERS = [
    "random,mcts:iterations=2,c=0.5,rollouts=1", "mcts:1,random", "random,mcts:2,c=100", "random,mcts:iterations=1,c=0",
    "random,mcts:iterations=0", "random,mcts:iterations=99999999999", "random,mcts:c=nan", "random,mcts:c=inf", "random,mcts:c=-1",
    "random,mcts:c=1e308", "random,mcts:rollouts=0", "random,mcts:rollouts=99999999", "random,mcts:x=1", "random,mcts:iterations=1,iterations=2",
    "random,mcts:", "random,mcts:1e3", "random,mcts:1,c=", "random,mcts:1,=2", "random,mcts:1,c=0.5,", "mcts:1,mcts:2", ",mcts:1", "random,mcts:\u0661",
]
OPTION_VALUES = {
    "--variant": ["nope", "", "-", "x" * 100, "\u00e9", "base", "ordered", "multiset"],
    "--moves": ["", "a1", "zz", "a1 a1", "pass", ",,,", "a1,b2 c3", "\x00", "9.9.9", "{c}", "'", "a1 " * 50, "roll:1-2", "roll:2-1 b2", "roll:", "roll:S-S a1", "roll:x-y", "roll:1-1-1", "throw:L-H hub", "throw:H-H", "roll:A-4-blank S:a1", "b3 roll:1-1"],
    "--seed": ["0", "1", "-1", "x", "99999999999999999999999999", "1e3", ""],
    "--engine": ["interpreted", "compiled", "both", "", "c"],
    "--game": ["0", "1", "-1", "x", "999999", "99999999999999999999"],
    "--depth": ["0", "1", "2", "-1", "x", "99999999999999999999"],
    "--players": ["random,greedy", "random", "", ",", "greedy,greedy,greedy", "script:missing.py", "script:", "nobody,random", "random," * 20, "random,greedy,random,greedy", "random," * 9, *MCTS_PLAYERS],
    "--games": ["0", "1", "2", "-1", "x", "99999999999999999999"],
    "--workers": ["0", "1", "-1", "x"],
    "--color": ["always", "never", "x"],
    "--player-count": ["0", "1", "2", "3", "4", "8", "9", "-1", "x", "99999999999999999999", ""],
    # Never a reachable scheduler nor 'local' (that would start a real cluster): every one of
    # these must fail fast with a message.
    "--cluster": ["tcp://127.0.0.1:1", "127.0.0.1:1", "nohost.invalid:8786", "tcp://", "local:0", "local:x", "local:-1", "", "udp://x:1", "tcp://127.0.0.1:99999", "x", "tcp://[::1]:1", "tcp://127.0.0.1:0", "local:99999999999999999999"],
    "--html": ["out.html", "", "/", "nodir/out.html", "."],
    "--svg": ["-", "out.svg", "", "/", "nodir/x.svg"],
    "--max-replays": ["0", "1", "-1", "x", "99999999999999999999"],
    "--json": [None], "--csv": [None], "--progress": [None], "--no-progress": [None],
}
FLAGS = {"--json", "--csv", "--progress", "--no-progress"}
OUTPUT_RECORDS = ["out.jsonl", "", "/", "nodir/x.jsonl", "."]  # where match / tournament write


@dataclass
class Records:
    """Good records made at the start of a campaign (path -> the spec they were made from),
    and their lines, which ``make_record_case`` mutates into ``case.jsonl``."""

    good: dict[str, str] = field(default_factory=dict)
    lines: dict[str, list[dict]] = field(default_factory=dict)


def make_records(seeds: Sequence[Seed], workdir: str, how_many: int = 3) -> Records:
    """Records of the smallest seeds that use dice, player counts, remove or extra_turn:
    short matches, and one tournament over the spec's variants (records with ``pairing``
    and ``players``), for ``report`` and ``replay --record`` to read, whole or forged."""
    from click.testing import CliRunner

    from ..cli import cli
    from ..spec.lower import list_variants, load_game_ir

    def newer(seed: Seed) -> bool:
        tree = seed.tree if isinstance(seed.tree, dict) else {}
        return "chance" in tree or "player_counts" in tree or "extra_turn" in seed.text or "remove:" in seed.text

    def rolls_and_variants(seed: Seed) -> bool:
        tree = seed.tree if isinstance(seed.tree, dict) else {}
        return "chance" in tree and isinstance(tree.get("variants"), dict) and bool(tree["variants"])

    out = Records()
    toured = False  # one tournament record is enough
    # the smallest seed with dice and variants first (a tournament record with rolls, so a
    # new small test spec cannot crowd them out), then the smallest others
    for seed in sorted((s for s in seeds if newer(s)), key=lambda s: (not rolls_and_variants(s), len(s.text))):
        if len(out.good) == how_many:
            break
        path = os.path.abspath(seed.path)
        try:
            n, variants = load_game_ir(path).n_players, list_variants(path)
        except MidgardcError:
            continue
        rec = os.path.join(workdir, f"good-{len(out.good)}.jsonl")
        players = ",".join((["random", "greedy", "mcts:1"] * 3)[: n + 1])
        if variants and not toured:
            toured = True
            args = ["tournament", path, "--players", players, "--games", "1", "--player-count", str(n), "--variant", "base", "--variant", variants[0]]
        else:
            args = ["match", path, "--players", ",".join((["random", "greedy"] * 4)[:n]), "--games", "2"]
        result = CliRunner().invoke(cli, [*args, "--engine", "interpreted", "--seed", "3", "--record", rec])
        if result.exit_code == 0 and os.path.exists(rec):
            out.good[rec] = path
            with open(rec, encoding="utf-8") as fh:
                out.lines[rec] = [json.loads(line) for line in fh if line.strip()]
    return out


RECORD_VALUES: list[Any] = [None, 0, -1, 2**64, 2**80, "x", "", [], {}, [1], {"a": 1}, True, 1.5, "case.yaml", "missing.yaml"]
MOVE_VALUES: list[Any] = ["", "roll:", "roll:x-y", "roll:1-1-1", "pass", 5, None, [], "b3", "throw:L-L", "roll:S-1", "\x00", "a" * 500]


def _mutate_record_line(ch: Chooser, line: dict, all_moves: list) -> None:
    op = ch.integer(0, 6)
    key = ch.choice(list(line) or ["game"])
    moves = line.get("moves") if isinstance(line.get("moves"), list) else []
    if op == 0:
        line[key] = copy.deepcopy(ch.choice(RECORD_VALUES))
    elif op == 1:
        line.pop(key, None)
    elif op == 2 and moves:  # garble the moves: drop, repeat, swap, replace, cut, or drop the rolls
        i = ch.integer(0, len(moves) - 1)
        how = ch.integer(0, 5)
        if how == 0:
            del moves[i]
        elif how == 1:
            moves.insert(i, moves[i])
        elif how == 2:
            j = ch.integer(0, len(moves) - 1)
            moves[i], moves[j] = moves[j], moves[i]
        elif how == 3:
            moves[i] = copy.deepcopy(ch.choice(MOVE_VALUES + all_moves))
        elif how == 4:
            del moves[i:]
        else:
            line["moves"] = [m for m in moves if not (isinstance(m, str) and ":" in m and m.split(":")[0] in ("roll", "throw"))]
    elif op == 3:  # forge the player count or the seats
        names = list(line.get("seat_names") or []) if isinstance(line.get("seat_names"), list) else []
        how = ch.integer(0, 3)
        if how == 0:
            line["players_count"] = ch.choice([0, 1, 3, 4, 9, -1, "2", 10**20])
        elif how == 1:
            line["seat_names"] = names + ch.choice([["green"], ["green", "yellow"], ["east"], ["x"] * 7])
        elif how == 2:
            line["seat_names"] = names[:-1]
        else:
            line["seat_names"] = names[::-1]
    elif op == 4:
        line["variant"] = ch.choice(["nope", "ordered", "multiset", 3, None, "base", ""])
    elif op == 5:
        result = line.get("result") if isinstance(line.get("result"), dict) else {}
        result[ch.choice(["winner_seat", "plies", "keys", "winner", "ply_limited"])] = copy.deepcopy(ch.choice(RECORD_VALUES))
        line["result"] = result
    else:
        line[ch.choice(["game_seed", "game"])] = ch.choice([0, 1, -1, 7, 2**64 - 1, 2**64, 2**200])


def make_record_case(ch: Chooser, records: Records, workdir: str) -> Optional[str]:
    """Write a mutated good record to ``case.jsonl``; returns the spec it was made from."""
    path = os.path.join(workdir, "case.jsonl")
    if not records.good:
        return None
    source = ch.choice(sorted(records.good))
    lines = copy.deepcopy(records.lines[source])
    all_moves = [m for line in lines for m in line.get("moves", [])][:50]
    for _ in range(ch.integer(1, 3)):
        if lines:
            _mutate_record_line(ch, ch.choice(lines), all_moves)
    texts = [json.dumps(line) for line in lines]
    op = ch.integer(0, 7)
    if op == 0 and texts:  # cut a line short
        i = ch.integer(0, len(texts) - 1)
        texts[i] = texts[i][: ch.integer(0, len(texts[i]))]
    elif op == 1:
        texts = ch.choice([[], [""], ["[]"], ["null"], ["{}"], ["\ufeff{}"], ['"game"']])
    elif op == 2 and texts:
        texts.append(ch.choice(texts))  # the same game twice
    data = "\n".join(texts) + ("\n" if texts else "")
    with open(path, "w", encoding="utf-8", errors="surrogatepass") as fh:
        fh.write(data)
    if ch.integer(0, 19) == 0:
        with open(path, "ab") as fb:
            fb.write(b"\xff\xfe\x00garbage\n")
    return records.good[source]


def _value(ch: Chooser, command: str, opt: str, specs: Sequence[str], records: list[str], workdir: str) -> str:
    if opt == "--record":
        return ch.choice(records) if command == "replay" else ch.choice(OUTPUT_RECORDS)
    if opt == "--spec":
        return ch.choice([*specs, os.path.join(workdir, "case.yaml"), "missing.yaml", ""])
    return ch.choice(OPTION_VALUES[opt])


def make_cli_case(ch: Chooser, specs: Sequence[str], workdir: str, records: Optional[Records] = None) -> list[str]:
    records = records or Records()
    case_record = os.path.join(workdir, "case.jsonl")
    record_pool = [case_record, case_record, *records.good, *records.good, "missing.jsonl", "", "/", os.path.join(workdir, "case.yaml")]
    command = ch.choice(list(COMMANDS))
    args = [command]
    made_from = None
    if command == "report" or (command == "replay" and ch.integer(0, 2) == 0):
        made_from = make_record_case(ch, records, workdir)
    if command == "report":
        args.append(ch.choice(record_pool))
    elif ch.integer(0, 3):  # mostly one spec, so that cases get past the argument checks
        args.append(ch.choice([*specs, os.path.join(workdir, "case.yaml")]))
    else:
        for _ in range(ch.integer(0, 2)):
            args.append(ch.choice([*specs, os.path.join(workdir, "case.yaml"), "missing.yaml", "", "-", "/", workdir]))
    if command == "replay" and made_from is not None:  # replay a (mutated) record on its own spec
        args = ["replay", made_from if ch.integer(0, 3) else ch.choice(specs), "--record", ch.choice([case_record, *records.good])]
    for _ in range(ch.integer(0, 4)):
        opt = ch.choice(COMMANDS[command] if ch.integer(0, 7) else ["--nope", "-x", "--"])
        args.append(opt)
        if opt in OPTION_VALUES or opt in ("--record", "--spec"):
            if opt not in FLAGS and ch.integer(0, 5):
                args.append(_value(ch, command, opt, specs, record_pool, workdir))
    if command in ("perft",) and "--depth" not in args:
        args += ["--depth", "1"]
    if command in ("match", "tournament") and "--games" not in args:
        args += ["--games", "1"]
    if command in ("match", "tournament") and "--players" not in args:
        args += ["--players", ch.choice(["random,greedy", "random,mcts:1", "random,greedy,random"])]
    return _keep_small(args)


def _keep_small(args: list[str]) -> list[str]:
    """Keep honest work small: no deep perft, no long matches, and no compiled engines except
    for an unpatched shipped spec (whose engine the suite builds anyway): each new build
    is a new module in the engine cache and seconds of work."""
    for i, a in enumerate(args[:-1]):
        if a in ("--depth", "--games") and args[i + 1].isdigit() and int(args[i + 1]) > 2:
            args[i + 1] = "2"
    shipped = len(args) > 1 and os.sep + "specs" + os.sep in args[1] and not any(a in args for a in ("--variant", "--player-count", "--record")) and args[0] in ("moves", "replay", "perft", "show")
    if not shipped:
        args = ["interpreted" if a == "compiled" else a for a in args]
        if args[0] in ("match", "tournament", "report") and "--engine" not in args:
            args += ["--engine", "interpreted"]
    return args


def check_cli_args(args: list[str], workdir: str, stats: Stats, timeout: Optional[float] = None) -> None:
    """Run ``midgardc ARGS`` in-process through click; exit 0 or 1, no traceback."""
    from click.testing import CliRunner

    if timeout is None:
        timeout = PLAY_TIMEOUT if args and args[0] in ("match", "tournament") else CASE_TIMEOUT

    from ..cli import cli

    stats.cases += 1
    runner = CliRunner()
    old = os.getcwd()
    try:
        os.chdir(workdir)
        with time_limit(timeout):
            result = runner.invoke(cli, args, catch_exceptions=True)
    except _Timeout:
        stats.failures.append(Failure("hang", f"over {timeout} s", json.dumps(args)))
        return
    finally:
        os.chdir(old)
    output = result.output
    with contextlib.suppress(ValueError, AttributeError):  # click < 8.2 mixes stderr in
        output += result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        exc = result.exception
        stats.failures.append(Failure("crash", "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))[-3000:], json.dumps(args)))
    elif result.exit_code not in (0, 1) or "Traceback" in output or "internal error" in output:
        stats.failures.append(Failure("bad-exit", f"exit {result.exit_code}: {output[-1500:]}", json.dumps(args)))
    elif result.exit_code == 0:
        stats.ok += 1
    else:
        stats.errors += 1


# --------------------------------------------------------------------------- campaigns


def run_campaign(cases: int, specs_dir: str = "specs", cli_share: float = 0.1, seed: Optional[int] = None, use_hypothesis: bool = True, progress: Optional[Callable[[Stats], None]] = None) -> Stats:
    """``cases`` cases (about ``cli_share`` of them command lines); returns the tally."""
    seeds = load_seeds(specs_dir)
    paths = [s.path for s in seeds]
    stats = Stats()
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="midgardc-fuzz-") as workdir:
        paths = [os.path.abspath(p) for p in paths]
        records = make_records(seeds, workdir) if cli_share > 0 else Records()

        def one(ch: Chooser) -> None:
            if ch.integer(0, 999) < cli_share * 1000:
                check_spec_text(make_spec_case(ch, seeds), workdir, Stats())  # leaves case.yaml for the command line
                check_cli_args(make_cli_case(ch, paths, workdir, records), workdir, stats)
            else:
                check_spec_text(make_spec_case(ch, seeds), workdir, stats)
            if progress is not None and stats.cases % 1000 == 0:
                progress(stats)

        if use_hypothesis:
            from hypothesis import HealthCheck, given, settings
            from hypothesis import strategies as st

            @settings(max_examples=cases, deadline=None, database=None, derandomize=seed is not None, suppress_health_check=list(HealthCheck), phases=["generate"])
            @given(st.data())
            def drive(data) -> None:
                one(HypothesisChooser(data))

            drive()
            # hypothesis may stop a little early when it thinks the space is exhausted
            rng = random.Random(seed)
            while stats.cases < cases:
                one(Chooser(rng))
        else:
            rng = random.Random(seed)
            while stats.cases < cases:
                one(Chooser(rng))
    stats.seconds = time.monotonic() - start
    return stats


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m midgardc.safety.fuzz", description="fuzz specs and command lines")
    ap.add_argument("--cases", type=int, default=10_000)
    ap.add_argument("--specs", default="specs")
    ap.add_argument("--cli-share", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--failures", default="fuzz-failures.jsonl", help="where failing cases are written")
    args = ap.parse_args(argv)
    stats = run_campaign(args.cases, args.specs, args.cli_share, args.seed, progress=lambda s: print(f"  ... {s.cases} cases", file=sys.stderr, flush=True))
    print(stats.summary())
    if stats.failures:
        with open(args.failures, "w", encoding="utf-8") as fh:
            for f in stats.failures:
                fh.write(json.dumps({"kind": f.kind, "detail": f.detail, "case": f.case}) + "\n")
        for f in stats.failures[:5]:
            print(f"--- {f.kind}:\n{f.detail[-1500:]}", file=sys.stderr)
        print(f"{len(stats.failures)} failing cases written to {args.failures}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
