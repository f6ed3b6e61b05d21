"""YAML with positions: every mapping, list and scalar remembers file:line:col.

PyYAML's composer already keeps marks on its nodes; we compose with the safe loader (no
construction, so no ``!!python/...`` object is ever built), reject duplicate keys, unknown
tags and runaway alias expansion, and turn the node graph into small typed ``Y*`` nodes
the validator walks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterator, Optional, Union

import yaml

from ..errors import Pos, SpecError, remember_source
from ..fileio import read_input

MAX_NODES = 200_000  # bounds alias bombs and absurd specs
MAX_DEPTH = 64
MAX_SPEC_BYTES = 4_000_000  # a spec file (bytes from a file; characters of a given text), checked before any parsing

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
    # The source text and the scalar's [start, end) character span in it, so that
    # ``text_pos`` can find any character of the value in the file.
    src: Optional[str] = field(default=None, repr=False, compare=False)
    span: tuple[int, int] = field(default=(0, 0), repr=False, compare=False)

    def text_pos(self, offset: int) -> Pos:
        """Position in the source file of character ``offset`` of the scalar's value.

        The value's characters are matched, in order, against the scalar's source text,
        which skips what YAML removed (quotes, folded line breaks, indentation, escape
        backslashes), so positions are exact for plain, quoted, multi-line and block
        scalars alike. An offset at the end of the value points just past its last
        character. Never points outside the scalar."""
        text = self.value if isinstance(self.value, str) else str(self.value)
        offset = max(0, min(offset, len(text)))
        if self.src is None:
            return self._text_pos_simple(text, offset)
        src = self.src
        i, stop = self.span
        if self.style in ("'", '"'):
            i += 1
            stop = max(i, stop - 1)
        elif self.style in ("|", ">"):
            nl = src.find("\n", i, stop)
            i = nl + 1 if nl >= 0 else stop
        for ch in text[:offset]:
            if ch.isspace():
                continue
            j = src.find(ch, i, stop)
            if j < 0:  # an escape YAML decoded (\x41, \u00e9): best effort from here
                break
            i = j + 1
        if offset < len(text) and not text[offset].isspace():
            j = src.find(text[offset], i, stop)
            if j >= 0:
                i = j
        return self._index_pos(min(i, max(stop, self.span[0])))

    def _index_pos(self, index: int) -> Pos:
        assert self.src is not None
        line = self.src.count("\n", 0, index) + 1
        col = index - (self.src.rfind("\n", 0, index) + 1) + 1
        return Pos(self.pos.file, line, col)

    def _text_pos_simple(self, text: str, offset: int) -> Pos:
        """Without the source: exact for single-line plain and quoted scalars only."""
        if self.style in (None, "'", '"') and "\n" not in text[:offset] and (self.end is None or self.end.line == self.pos.line):
            shift = 0 if self.style is None else 1
            return Pos(self.pos.file, self.pos.line, self.pos.col + shift + offset)
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
    key_nodes: dict[str, YScalar] = field(default_factory=dict, repr=False, compare=False)  # for text_pos in keys

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

    def convert(self, node: yaml.Node, depth: int = 0) -> YNode:
        self.count += 1
        if self.count > MAX_NODES:
            raise SpecError(f"the spec is too large (more than {MAX_NODES} YAML nodes; an alias bomb?)", _pos(self.file, node.start_mark))
        if depth > MAX_DEPTH:
            raise SpecError(f"the spec nests deeper than {MAX_DEPTH} levels", _pos(self.file, node.start_mark))
        if node.tag not in _STD_TAGS:
            tag = "!!" + node.tag[len("tag:yaml.org,2002:") :] if node.tag.startswith("tag:yaml.org,2002:") else node.tag
            raise SpecError(f"YAML tag '{tag}' is not allowed in a spec (only plain data: text, numbers, lists, mappings)", _pos(self.file, node.start_mark))
        pos = _pos(self.file, node.start_mark)
        if isinstance(node, yaml.ScalarNode):
            return self._scalar(node, self._scalar_value(node))
        if isinstance(node, yaml.SequenceNode):
            return YList([self.convert(item, depth + 1) for item in node.value], pos)
        if isinstance(node, yaml.MappingNode):
            items: dict[str, YNode] = {}
            key_pos: dict[str, Pos] = {}
            key_nodes: dict[str, YScalar] = {}
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
                key_nodes[key] = self._scalar(knode, key)
            return YMap(items, pos, key_pos, key_nodes)
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

    def _scalar(self, node: yaml.ScalarNode, value: Any) -> YScalar:
        return YScalar(value, _pos(self.file, node.start_mark), node.style, _pos(self.file, node.end_mark), self.text, (node.start_mark.index, node.end_mark.index))


class _BoundedLoader(yaml.SafeLoader):
    """The safe loader, with nesting depth and node count checked while composing (PyYAML's
    composer recurses once per level, so deep nesting must stop before Python's stack does)."""

    def __init__(self, stream: str, file: str):
        super().__init__(stream)
        self._file = file
        self._depth = 0
        self._nodes = 0

    def compose_node(self, parent, index):  # type: ignore[override]
        self._depth += 1
        self._nodes += 1
        try:
            if self._depth > MAX_DEPTH:
                raise SpecError(f"the spec nests deeper than {MAX_DEPTH} levels", _pos(self._file, self.peek_event().start_mark))
            if self._nodes > MAX_NODES:
                raise SpecError(f"the spec is too large (more than {MAX_NODES} YAML nodes)", _pos(self._file, self.peek_event().start_mark))
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def read_spec_text(path: str) -> str:
    """A spec file's text (newlines as Python's text mode reads them), read through the one
    bounded reader: a regular file of at most MAX_SPEC_BYTES bytes."""
    data = read_input(path, "the spec", MAX_SPEC_BYTES, SpecError, missing=f"no such spec file: {path}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SpecError(f"{path} is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def load_yaml(path: str, text: Optional[str] = None) -> YNode:
    """Load one YAML document from ``path`` (or ``text``) into positioned nodes."""
    if text is None:
        text = read_spec_text(path)
    if len(text) > MAX_SPEC_BYTES:
        raise SpecError(f"the spec is too large ({len(text)} characters; the limit is {MAX_SPEC_BYTES})", Pos(path, 1, 1), source="")
    remember_source(path, text)
    try:
        loader = _BoundedLoader(text, path)
        try:
            node = loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        message, mark, hint = _explain_yaml_error(exc, text)
        raise SpecError(message, _pos(path, mark) if mark else None, hint, source=text) from None
    except yaml.YAMLError as exc:
        raise SpecError(f"invalid YAML: {exc}", None, source=text) from None
    except RecursionError:  # pragma: no cover - the depth bound above comes first
        raise SpecError(f"the spec nests too deeply (the limit is {MAX_DEPTH} levels)", Pos(path, 1, 1), source=text) from None
    if node is None:
        raise SpecError("the spec is empty", Pos(path, 1, 1), source=text)
    return _Converter(path, text).convert(node)


def _explain_yaml_error(exc: yaml.MarkedYAMLError, text: str) -> tuple[str, Any, str]:
    """PyYAML's complaint in a designer's words: (message, mark to point at, hint)."""
    problem = exc.problem or exc.context or "invalid YAML"
    mark, context = exc.problem_mark or exc.context_mark, exc.context_mark
    lines = text.split("\n")
    line = lines[mark.line] if mark and mark.line < len(lines) else ""
    if "'\\t'" in problem or "\t" in problem:
        return ("invalid YAML: a tab character here; YAML is indented with spaces, never tabs", mark, "replace the tab with spaces")
    if problem == "mapping values are not allowed here" and mark is not None:
        before = line[: mark.column]
        first = re.match(r"\s*(?:- )?([^\s:#][^:#]*):\s", before)
        if first:
            key = first.group(1).strip()
            if len(key) > 40:
                key = "key"
            return (
                "invalid YAML: a second ': ' on this line; YAML reads 'key: value' only once per line",
                mark,
                f"a value containing ': ' (as quantifiers do: 'any x in xs: ...') must be quoted: {key}: \"...\"",
            )
        return ("invalid YAML: unexpected ':' (is this line indented too far?)", mark, "keys of one mapping line up exactly under each other")
    if problem.startswith("expected <block end>, but found"):
        return (
            "invalid YAML: this line's indentation does not fit the block above it",
            mark,
            "keys of one mapping, and the '- ' items of one list, line up exactly under each other",
        )
    if exc.context and exc.context.startswith("while parsing a flow") and context is not None:
        opener = "[" if "sequence" in exc.context else "{"
        closer = "]" if opener == "[" else "}"
        if mark is not None and mark.line != context.line:
            return (f"invalid YAML: the '{opener}' opened here is not closed with '{closer}'", context, f"close it with '{closer}' on the same line, or write the items as a block")
        return (f"invalid YAML: {problem} inside '{opener} ... {closer}'", mark, "separate the items with ', '")
    if problem == "found unexpected end of stream" and exc.context and "quoted scalar" in exc.context and context is not None:
        return ("invalid YAML: this quoted string is never closed", context, "end it with the same quote it starts with")
    if exc.context and "simple key" in exc.context and context is not None:
        return ("invalid YAML: this line is not 'key: value' (no ':' found)", context, "a mapping entry is 'key: value'; a list item starts with '- '")
    if mark is not None and mark.line >= len(lines) and context is not None:
        mark = context  # 'end of stream' problems: point at what was left open
    detail = f" ({exc.context})" if exc.context and exc.problem else ""
    return (f"invalid YAML: {problem}{detail}", mark, "")


def plain(node: YNode) -> Any:
    """Strip positions (for tests and for hashing)."""
    if isinstance(node, YScalar):
        return node.value
    if isinstance(node, YList):
        return [plain(i) for i in node.items]
    return {k: plain(v) for k, v in node.items.items()}
