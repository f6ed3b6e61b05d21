"""YAML with positions: every mapping, list and scalar remembers file:line:col.

PyYAML's composer already keeps marks on its nodes; we compose with the safe loader (no
construction, so no ``!!python/...`` object is ever built), reject duplicate keys, unknown
tags and runaway alias expansion, and turn the node graph into small typed ``Y*`` nodes
the validator walks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator, Optional, Union

import yaml

from ..errors import Pos, SpecError

MAX_NODES = 200_000  # bounds alias bombs and absurd specs
MAX_DEPTH = 64

_STD_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
}


@dataclass
class YScalar:
    value: Any  # str | int | float | bool | None
    pos: Pos
    style: Optional[str] = None  # None (plain), "'", '"', "|", ">"
    end: Optional[Pos] = None

    def text_pos(self, offset: int) -> Pos:
        """Position of character ``offset`` of a string value in the source file.

        Exact for plain and quoted single-line scalars and literal blocks; a best effort
        for folded or escaped text (it never points outside the scalar)."""
        text = self.value if isinstance(self.value, str) else str(self.value)
        offset = max(0, min(offset, len(text)))
        if self.style in (None, "'", '"'):
            before = text[:offset]
            if "\n" not in before and (self.end is None or self.end.line == self.pos.line):
                shift = 0 if self.style is None else 1
                return Pos(self.pos.file, self.pos.line, self.pos.col + shift + offset)
            return self.pos
        if self.style in ("|", ">"):
            line_no = text[:offset].count("\n")
            col_in_line = offset - (text.rfind("\n", 0, offset) + 1)
            indent = self.meta_indent if hasattr(self, "meta_indent") else None
            return Pos(self.pos.file, self.pos.line + 1 + line_no, (indent or 0) + 1 + col_in_line)
        return self.pos


@dataclass
class YList:
    items: list["YNode"]
    pos: Pos

    def __iter__(self) -> Iterator["YNode"]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)


@dataclass
class YMap:
    items: dict[str, "YNode"]  # keys in source order
    pos: Pos
    key_pos: dict[str, Pos] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        return self.items.get(key, default)

    def __contains__(self, key: str) -> bool:
        return key in self.items

    def __getitem__(self, key: str) -> "YNode":
        return self.items[key]


YNode = Union[YScalar, YList, YMap]


def _pos(file: str, mark: Any) -> Pos:
    return Pos(file, mark.line + 1, mark.column + 1)


class _Converter:
    def __init__(self, file: str, text: str):
        self.file = file
        self.text = text
        self.count = 0
        self.lines = text.splitlines()

    def convert(self, node: yaml.Node, depth: int = 0) -> YNode:
        self.count += 1
        if self.count > MAX_NODES:
            raise SpecError(f"the spec is too large (more than {MAX_NODES} YAML nodes; an alias bomb?)", _pos(self.file, node.start_mark))
        if depth > MAX_DEPTH:
            raise SpecError(f"the spec nests deeper than {MAX_DEPTH} levels", _pos(self.file, node.start_mark))
        if node.tag not in _STD_TAGS:
            raise SpecError(f"YAML tag '{node.tag}' is not allowed in a spec (only plain data)", _pos(self.file, node.start_mark))
        pos = _pos(self.file, node.start_mark)
        if isinstance(node, yaml.ScalarNode):
            value = self._scalar_value(node)
            scalar = YScalar(value, pos, node.style, _pos(self.file, node.end_mark))
            if node.style in ("|", ">"):
                scalar.meta_indent = self._block_indent(node)  # type: ignore[attr-defined]
            return scalar
        if isinstance(node, yaml.SequenceNode):
            return YList([self.convert(item, depth + 1) for item in node.value], pos)
        if isinstance(node, yaml.MappingNode):
            items: dict[str, YNode] = {}
            key_pos: dict[str, Pos] = {}
            for knode, vnode in node.value:
                kpos = _pos(self.file, knode.start_mark)
                if not isinstance(knode, yaml.ScalarNode):
                    raise SpecError("a mapping key must be a plain name, not a list or mapping", kpos)
                if knode.tag == "tag:yaml.org,2002:merge":
                    raise SpecError("YAML merge keys ('<<') are not supported; use a variant or repeat the keys", kpos)
                key = str(self._scalar_value(knode))
                if key in items:
                    raise SpecError(f"duplicate key '{key}' (first given at line {key_pos[key].line})", kpos)
                items[key] = self.convert(vnode, depth + 1)
                key_pos[key] = kpos
            return YMap(items, pos, key_pos)
        raise SpecError("unsupported YAML node", pos)  # pragma: no cover

    def _scalar_value(self, node: yaml.ScalarNode) -> Any:
        tag = node.tag
        raw = node.value
        if node.style is not None:  # quoted or block: always a string
            return raw
        if tag == "tag:yaml.org,2002:null":
            return None
        if tag == "tag:yaml.org,2002:bool":
            return raw.lower() in ("true", "yes", "on")
        if tag == "tag:yaml.org,2002:int":
            try:
                value = int(raw.replace("_", ""), 0)
            except ValueError:
                try:
                    value = int(raw.replace("_", ""), 10)
                except ValueError:
                    value = raw  # YAML 1.1 sexagesimal and the like: keep the text
            if isinstance(value, int) and abs(value) > 2**62:
                raise SpecError(f"integer {raw[:30]} is too large (limit ±2^62)", _pos(self.file, node.start_mark))
            return value
        if tag == "tag:yaml.org,2002:float":
            return raw  # numbers like 6.6 are cell names far more often than floats
        return raw

    def _block_indent(self, node: yaml.ScalarNode) -> int:
        first = node.start_mark.line + 1
        if first < len(self.lines):
            line = self.lines[first]
            return len(line) - len(line.lstrip(" "))
        return 0


def load_yaml(path: str, text: Optional[str] = None) -> YNode:
    """Load one YAML document from ``path`` (or ``text``) into positioned nodes."""
    if text is None:
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        except FileNotFoundError:
            raise SpecError(f"no such spec file: {path}") from None
        except UnicodeDecodeError as exc:
            raise SpecError(f"{path} is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
        except OSError as exc:
            raise SpecError(f"cannot read {path}: {exc.strerror}") from None
    try:
        loader = yaml.SafeLoader(text)
        try:
            node = loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        pos = _pos(path, mark) if mark else None
        problem = exc.problem or exc.context or "invalid YAML"
        raise SpecError(f"invalid YAML: {problem}", pos, source=text) from None
    except yaml.YAMLError as exc:
        raise SpecError(f"invalid YAML: {exc}") from None
    if node is None:
        raise SpecError("the spec is empty", Pos(path, 1, 1), source=text)
    return _Converter(path, text).convert(node)


def plain(node: YNode) -> Any:
    """Strip positions (for tests and for hashing)."""
    if isinstance(node, YScalar):
        return node.value
    if isinstance(node, YList):
        return [plain(i) for i in node.items]
    return {k: plain(v) for k, v in node.items.items()}
