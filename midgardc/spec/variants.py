"""Variants are overlays: a patch deep-merged onto the base spec tree.

Mappings merge key by key; any other value replaces; ``null`` deletes the key. The patch
keeps its own positions, so an error inside a variant points into the variant's lines.
A spec may also start with ``extends: other.yaml`` and then is itself a patch of that file.
"""

from __future__ import annotations

import os
import re
from typing import Optional

from ..errors import SpecError, did_you_mean
from .yamlpos import YList, YMap, YNode, YScalar, load_yaml, read_spec_text


def merge(base: YNode, patch: YNode) -> YNode:
    if isinstance(base, YMap) and isinstance(patch, YMap):
        items = dict(base.items)
        key_pos = dict(base.key_pos)
        key_nodes = dict(base.key_nodes)
        for key, value in patch.items.items():
            if isinstance(value, YScalar) and value.value is None:
                items.pop(key, None)
                key_pos.pop(key, None)
                key_nodes.pop(key, None)
            else:
                items[key] = merge(items[key], value) if key in items else value
                key_pos[key] = patch.key_pos[key]
                if key in patch.key_nodes:
                    key_nodes[key] = patch.key_nodes[key]
        return YMap(items, base.pos, key_pos, key_nodes)
    return patch


def load_tree(path: str, _seen: Optional[set] = None, _root: Optional[str] = None, _text: Optional[str] = None) -> YMap:
    """Load a spec file, following ``extends:`` chains (within the first file's folder tree)."""
    seen = set() if _seen is None else _seen  # (a caller may pass its own set to learn the files read)
    real = os.path.realpath(path)
    root = _root or os.path.dirname(real)
    if real in seen:
        raise SpecError(f"'extends' goes round in a circle through {path}")
    seen.add(real)
    tree = load_yaml(path, _text)
    if not isinstance(tree, YMap):
        raise SpecError("a spec is a YAML mapping (keys like game:, board:, actions:)", tree.pos)
    ext = tree.get("extends")
    if ext is None:
        return tree
    parent_path = extends_target(path, root, ext)
    try:
        text = read_spec_text(parent_path)
    except SpecError as exc:  # unreadable, not a regular file, too large: said at the 'extends'
        raise SpecError(exc.message, ext.pos) from None
    base = load_tree(parent_path, seen, root, text)
    own = YMap(
        {k: v for k, v in tree.items.items() if k != "extends"},
        tree.pos,
        {k: p for k, p in tree.key_pos.items() if k != "extends"},
        {k: n for k, n in tree.key_nodes.items() if k != "extends"},
    )
    merged = merge(base, own)
    assert isinstance(merged, YMap)
    return merged


def extends_target(path: str, root: str, ext: YNode) -> str:
    """The file an ``extends:`` in the spec at ``path`` names, which must lie in ``root``
    (the real folder of the spec the chain starts from) or below it: a spec from a stranger
    must not make its reader load (and quote) /etc/passwd or /proc/self/environ."""
    if not isinstance(ext, YScalar) or not isinstance(ext.value, str) or not ext.value:
        raise SpecError("'extends' takes the path of another spec file", ext.pos)
    target = os.path.join(os.path.dirname(path), ext.value)
    real = os.path.realpath(target)
    if os.path.commonpath([root, real]) != root:
        raise SpecError(
            f"'extends' names {ext.value}, which is outside this spec's folder {root}",
            ext.pos,
            "a spec extends only spec files in its own folder or the folders below it; copy the base spec there",
        )
    if not os.path.exists(target):
        raise SpecError(f"'extends' names a file that does not exist: {ext.value}", ext.pos)
    return target


def variant_names(tree: YMap) -> list[str]:
    variants = tree.get("variants")
    return list(variants.items) if isinstance(variants, YMap) else []


def apply_variant(tree: YMap, variant: Optional[str]) -> YMap:
    """The tree with the named variant's patch merged in (and ``variants`` kept for listing)."""
    if variant is None:
        return tree
    variants = tree.get("variants")
    names = variant_names(tree)
    if variant not in names:
        where = tree.key_pos.get("variants", tree.pos)
        listing = ", ".join(names) if names else "this spec has none"
        raise SpecError(f"unknown variant '{variant}' (variants: {listing})", where, did_you_mean(variant, names))
    body = variants.items[variant]
    if not isinstance(body, YMap):
        raise SpecError(f"variant '{variant}' must be a mapping with a 'patch:'", body.pos)
    allowed = {"title", "description", "patch"}
    for key in body.items:
        if key not in allowed:
            raise SpecError(f"unknown key '{key}' in variant '{variant}' (allowed: {', '.join(sorted(allowed))})", body.key_pos[key], did_you_mean(key, allowed))
    patch = body.get("patch")
    if patch is None:
        return tree
    if not isinstance(patch, YMap):
        raise SpecError("a variant's 'patch' is a mapping of spec keys to change", patch.pos)
    if "variants" in patch or "extends" in patch:
        key = "variants" if "variants" in patch else "extends"
        raise SpecError(f"a variant cannot patch '{key}'", patch.key_pos[key])
    merged = merge(tree, patch)
    assert isinstance(merged, YMap)
    return merged


# --------------------------------------------------------------------------- player counts

MAX_COUNT = 8  # (the same bound as game.players)


def player_counts(tree: YMap) -> tuple[tuple[int, ...], int]:
    """(supported counts ascending, default count) declared under ``player_counts``, or
    ((), 0) when the spec has none. Each count is a key (its value: a patch, as a
    variant's, applied for that count); ``default`` names the count played when none is
    chosen (else the largest)."""
    node = tree.get("player_counts")
    if node is None:
        return (), 0
    if not isinstance(node, YMap) or not node.items:
        raise SpecError("player_counts maps each supported number of players to a patch ({} for none), e.g. {2: {}, 3: {pieces: ...}}", node.pos)
    counts = []
    default = 0
    for key, body in node.items.items():
        if key == "default":
            continue
        # ASCII ("²".isdigit()), short (int() of 5000 digits fails), no leading zero ('02'
        # would be the count 2 under a key that str(2) does not find)
        if not re.fullmatch(r"[1-9][0-9]{0,8}", key) or not 1 <= int(key) <= MAX_COUNT:
            raise SpecError(f"player_counts keys are numbers of players (1 to {MAX_COUNT}) or 'default', got '{key[:20]}'", node.key_pos[key])
        if not isinstance(body, YMap) and not (isinstance(body, YScalar) and body.value is None):
            raise SpecError(f"the {key}-player patch is a mapping of spec keys to change ({{}} for none)", body.pos)
        if isinstance(body, YMap):
            for banned in ("variants", "extends", "player_counts"):
                if banned in body:
                    raise SpecError(f"a player-count patch cannot patch '{banned}'", body.key_pos[banned])
        counts.append(int(key))
    if not counts:
        raise SpecError("player_counts lists no number of players", node.pos)
    if "default" in node:
        d = node.items["default"]
        if not isinstance(d, YScalar) or isinstance(d.value, bool) or d.value not in counts:
            raise SpecError(f"player_counts.default must be one of the listed counts ({_listing(sorted(counts))})", d.pos)
        default = d.value
    return tuple(sorted(counts)), default or max(counts)


def _listing(counts) -> str:
    items = [str(c) for c in counts]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def apply_player_count(tree: YMap, n: Optional[int]) -> tuple[YMap, Optional[int], tuple[tuple[int, ...], int]]:
    """The tree with the ``n``-player patch merged in, the number of seats to fill (None:
    every listed player) and (counts, default). ``n`` None: the default count."""
    counts, default = player_counts(tree)
    if not counts:
        if n is not None:
            game = tree.get("game")
            players = game.get("players") if isinstance(game, YMap) else None
            if isinstance(players, YList) and n != len(players.items):
                raise SpecError(f"this game is played by exactly {len(players.items)} players, not {n}", players.pos, "a spec lists the other counts it supports under player_counts")
        return tree, None, ((), 0)
    chosen = default if n is None else n
    if chosen not in counts:
        raise SpecError(f"this game is played by {_listing(counts)} players, not {chosen}", tree.key_pos.get("player_counts", tree.pos))
    body = tree.get("player_counts").items[str(chosen)]
    if isinstance(body, YMap) and body.items:
        merged = merge(tree, body)
        assert isinstance(merged, YMap)
        tree = merged
    return tree, chosen, (counts, default)
