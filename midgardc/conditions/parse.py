"""Condition text -> a small AST with character offsets.

The grammar lives in ``grammar.lark``; the parser is built once (LALR). Syntax errors are
turned into ``SpecError`` pointing at the offending character of the YAML string, with the
tokens that would have been accepted there in words a designer knows.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Union

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..errors import Pos, SpecError

MAX_CONDITION_LENGTH = 10_000


@dataclass(frozen=True)
class Num:
    value: int
    at: int


@dataclass(frozen=True)
class Name:
    name: str
    at: int


@dataclass(frozen=True)
class CallA:
    name: str
    args: tuple["Ast", ...]
    at: int


@dataclass(frozen=True)
class Agg:
    kind: str  # any all count sum min max
    var: str
    domain: "Ast"
    body: "Ast"
    at: int
    var_at: int


@dataclass(frozen=True)
class Op:
    op: str  # and or not neg + - * // % == != < <= > >=
    args: tuple["Ast", ...]
    at: int


Ast = Union[Num, Name, CallA, Agg, Op]


def _at(meta_or_token) -> int:
    return getattr(meta_or_token, "start_pos", 0) or 0


class _ToAst(Transformer):
    @v_args(meta=True)
    def number(self, meta, children):
        return Num(int(children[0]), _at(meta))

    @v_args(meta=True)
    def name(self, meta, children):
        return Name(str(children[0]), _at(meta))

    @v_args(meta=True)
    def call(self, meta, children):
        name, args = children[0], children[1] if len(children) > 1 else None
        return CallA(str(name), tuple(args or ()), _at(meta))

    def args(self, children):
        return list(children)

    @v_args(meta=True)
    def aggregate(self, meta, children):
        kind, var, domain, body = children
        return Agg(str(kind), str(var), domain, body, _at(meta), var.start_pos)

    @v_args(meta=True)
    def quant(self, meta, children):
        kind, var, domain, body = children
        return Agg(str(kind), str(var), domain, body, _at(meta), var.start_pos)

    def quantkw(self, children):
        return children[0]

    def agg(self, children):
        return children[0]

    @v_args(meta=True)
    def or_op(self, meta, children):
        return Op("or", tuple(children), _at(meta))

    @v_args(meta=True)
    def and_op(self, meta, children):
        return Op("and", tuple(children), _at(meta))

    @v_args(meta=True)
    def not_op(self, meta, children):
        return Op("not", tuple(children), _at(meta))

    @v_args(meta=True)
    def neg(self, meta, children):
        return Op("neg", tuple(children), _at(meta))

    @v_args(meta=True)
    def compare(self, meta, children):
        left, op, right = children
        return Op(str(op), (left, right), op.start_pos)

    @v_args(meta=True)
    def binop(self, meta, children):
        left, op, right = children
        return Op(str(op), (left, right), op.start_pos)


@lru_cache(maxsize=None)
def _parser() -> Lark:
    path = os.path.join(os.path.dirname(__file__), "grammar.lark")
    with open(path, encoding="utf-8") as fh:
        return Lark(fh.read(), parser="lalr", propagate_positions=True, maybe_placeholders=False)


_TOKEN_WORDS = {
    "NAME": "a name",
    "INT": "a number",
    "LPAR": "'('",
    "RPAR": "')'",
    "COLON": "':'",
    "COMMA": "','",
    "CMP": "a comparison",
    "ADDOP": "'+' or '-'",
    "MULOP": "'*', '//' or '%'",
    "AND": "'and'",
    "OR": "'or'",
    "NOT": "'not'",
    "IN": "'in'",
    "MINUS": "'-'",
    "$END": "the end of the condition",
}


def _expected(names) -> str:
    words = sorted({_TOKEN_WORDS.get(n, n.lower().strip("_")) for n in names if not n.startswith("__")})
    if not words:
        return ""
    if len(words) > 6:
        words = words[:6] + ["..."]
    return "; expected " + ", ".join(words)


def parse_condition(text: str, locate: Callable[[int], Pos]) -> Ast:
    """Parse condition ``text``; ``locate(offset)`` maps a character offset to a file position."""
    if len(text) > MAX_CONDITION_LENGTH:
        raise SpecError(f"condition is too long ({len(text)} characters; the limit is {MAX_CONDITION_LENGTH})", locate(0))
    if not text.strip():
        raise SpecError("empty condition", locate(0))
    try:
        tree = _parser().parse(text)
    except UnexpectedEOF as exc:
        raise SpecError(f"condition ends too early{_expected(exc.expected)}", locate(len(text))) from None
    except UnexpectedCharacters as exc:
        ch = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else ""
        raise SpecError(f"unexpected character {ch!r} in condition", locate(exc.pos_in_stream)) from None
    except UnexpectedToken as exc:
        tok: Token = exc.token
        if tok.type == "$END":
            raise SpecError(f"condition ends too early{_expected(exc.expected)}", locate(len(text))) from None
        raise SpecError(f"unexpected {str(tok)!r} in condition{_expected(exc.expected)}", locate(tok.start_pos or 0)) from None
    except UnexpectedInput as exc:  # pragma: no cover - other lark errors
        raise SpecError(f"cannot parse condition: {exc.__class__.__name__}", locate(getattr(exc, "pos_in_stream", 0) or 0)) from None
    except RecursionError:
        raise SpecError("condition nests too deeply", locate(0)) from None
    try:
        return _ToAst().transform(tree)
    except RecursionError:
        raise SpecError("condition nests too deeply", locate(0)) from None


def parse_signature(text: str, locate: Callable[[int], Pos]) -> tuple[str, list[tuple[str, str, int]]]:
    """Parse a define's head ``name(type a, type b)`` -> (name, [(type, param, offset)])."""
    import re

    m = re.fullmatch(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*", text)
    if not m:
        raise SpecError(f"bad definition head {text!r}; write it like 'name(cell c)'", locate(0))
    name = m.group(1)
    params: list[tuple[str, str, int]] = []
    if m.group(2) is not None and m.group(2).strip():
        offset = m.start(2)
        for part in m.group(2).split(","):
            pm = re.fullmatch(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s+([A-Za-z_][A-Za-z0-9_]*)\s*", part)
            if not pm:
                raise SpecError(f"bad parameter {part.strip()!r}; write it as 'type name', e.g. 'cell c'", locate(offset))
            params.append((pm.group(1), pm.group(2), offset + pm.start(2)))
            offset += len(part) + 1
    return name, params


