"""Condition text -> a small AST with character offsets.

The grammar lives in ``grammar.lark``; the parser is built once (LALR). Syntax errors are
turned into ``SpecError`` pointing at the offending character of the YAML string, with the
tokens that would have been accepted there in words a designer knows.
"""

from __future__ import annotations

import os
import re as _re
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


@dataclass(frozen=True)
class Choice:
    """``if WHEN then A else B``: a value of any type chosen by a condition."""

    when: "Ast"
    then: "Ast"
    other: "Ast"
    at: int


@dataclass(frozen=True)
class Index:
    """``name[i, j]``: an element of a counter array."""

    name: str
    args: tuple["Ast", ...]
    at: int


Ast = Union[Num, Name, CallA, Agg, Op, Choice, Index]


def _at(meta_or_token) -> int:
    return getattr(meta_or_token, "start_pos", 0) or 0


class _ToAst(Transformer):
    @v_args(meta=True)
    def number(self, meta, children):
        # Only the first 21 significant digits are converted: already more than the checker's
        # limit (2^62), which then refuses the number by them, and never more than Python
        # converts (a literal of 4,301 digits raises ValueError).
        digits = str(children[0]).lstrip("0") or "0"
        return Num(int(digits[:21]), _at(meta))

    @v_args(meta=True)
    def name(self, meta, children):
        return Name(str(children[0]), _at(meta))

    @v_args(meta=True)
    def call(self, meta, children):
        name, args = children[0], children[1] if len(children) > 1 else None
        return CallA(str(name), tuple(args or ()), _at(meta))

    @v_args(meta=True)
    def choice(self, meta, children):
        when, then, other = children
        return Choice(when, then, other, _at(meta))

    @v_args(meta=True)
    def index(self, meta, children):
        name, args = children
        return Index(str(name), tuple(args), _at(meta))

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
    "AND": "'and'",
    "OR": "'or'",
    "CMP": "a comparison (==, !=, <, <=, >, >=)",
    "ADDOP": "'+' or '-'",
    "MULOP": "'*', '//' or '%'",
    "COLON": "':'",
    "COMMA": "','",
    "RPAR": "')'",
    "IN": "'in'",
    "NAME": "a name",
    "INT": "a number",
    "LPAR": "'('",
    "NOT": "'not'",
    "MINUS": "'-'",
    "IF": "'if'",
    "THEN": "'then'",
    "ELSE": "'else'",
    "LSQB": "'['",
    "RSQB": "']'",
    "$END": "the end of the condition",
}
_VALUE_START = {"NAME", "INT", "LPAR"}
_OPERATORS = {"AND", "OR", "CMP", "ADDOP", "MULOP"}


def _expected(names) -> str:
    """What the parser would have accepted, in a designer's words."""
    names = {n for n in names if not n.startswith("__")}
    if _VALUE_START <= names:
        return "; expected a value: a name, a number, a call like empty(c), '(', 'not' or a quantifier like 'any x in cells: ...'"
    order = list(_TOKEN_WORDS)
    ops = names & _OPERATORS
    rest = sorted(names - _OPERATORS, key=lambda n: order.index(n) if n in order else len(order))
    words = [_TOKEN_WORDS.get(n, repr(n.lower())) for n in rest]
    if len(ops) > 1:
        words.insert(0, "an operator (and, or, ==, <, +, ...)")
    elif ops:
        words.insert(0, _TOKEN_WORDS[ops.pop()])
    if not words:
        return ""
    return "; expected " + (words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1])


# Characters people bring from other languages, and what to write instead.
_CHAR_HINTS = {
    "=": "compare with '=='",
    "&": "write 'and'",
    "|": "write 'or'",
    "!": "write 'not' (or '!=' to compare)",
    "/": "integer division is '//'",
    "[": "only a counter declared with 'index' is read with [...], e.g. seeds[c]",
    ".": "a cell is named by its name (e5) or through board.props; there is no '.'",
    '"': "a condition is one YAML string; do not quote inside it",
    "'": "a condition is one YAML string; do not quote inside it",
    "?": "there is no '?:'; choose a value with 'if COND then A else B'",
}


def _last_token(text: str) -> str:
    m = _re.search(r"(\S+)\s*$", text)
    return m.group(1)[-20:] if m else ""


def parse_condition(text: str, locate: Callable[[int], Pos]) -> Ast:
    """Parse condition ``text``; ``locate(offset)`` maps a character offset to a file position."""
    if len(text) > MAX_CONDITION_LENGTH:
        raise SpecError(f"condition is too long ({len(text)} characters; the limit is {MAX_CONDITION_LENGTH})", locate(0))
    if not text.strip():
        raise SpecError("empty condition", locate(0))
    try:
        tree = _parser().parse(text)
    except UnexpectedCharacters as exc:
        ch = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else ""
        raise SpecError(f"unexpected character {ch!r} in condition", locate(exc.pos_in_stream), _CHAR_HINTS.get(ch, "")) from None
    except (UnexpectedEOF, UnexpectedToken) as exc:
        tok = getattr(exc, "token", None)
        if tok is None or tok.type == "$END":
            end = len(text.rstrip())
            last = _last_token(text)
            if set(exc.expected) <= {"RPAR", "COMMA"} and text.count("(") > text.count(")"):
                raise SpecError("condition ends before a '(' is closed; expected ')'", locate(end)) from None
            raise SpecError(f"condition ends too early after {last!r}{_expected(exc.expected)}", locate(end)) from None
        if tok.type == "RPAR" and set(exc.expected) <= {"$END", "AND", "OR", "CMP", "ADDOP", "MULOP", "COLON", "COMMA"} and "RPAR" not in exc.expected:
            raise SpecError("unexpected ')' in condition: there is no '(' for it to close", locate(tok.start_pos or 0)) from None
        hint = ""
        if "COLON" in exc.expected and tok.type == "NAME" and _re.search(r"\b(any|all|count|sum|min|max)\b", text[: tok.start_pos or 0]):
            hint = "a quantifier reads 'any x in collection: condition' (is the ':' missing?)"
        raise SpecError(f"unexpected {str(tok)!r} in condition{_expected(exc.expected)}", locate(tok.start_pos or 0), hint) from None
    except UnexpectedInput as exc:  # pragma: no cover - other lark errors
        raise SpecError(f"cannot parse condition: {exc.__class__.__name__}", locate(getattr(exc, "pos_in_stream", 0) or 0)) from None
    except RecursionError:
        raise SpecError("condition nests too deeply", locate(0)) from None
    try:
        return _ToAst().transform(tree)
    except RecursionError:
        raise SpecError("condition nests too deeply", locate(0)) from None


def parse_signature(text: str, locate: Callable[[int], Pos]) -> tuple[str, list[tuple[str, str, int, int]]]:
    """Parse a define's head ``name(type a, type b)`` -> (name, [(type, param, param offset, type offset)])."""
    import re

    m = re.fullmatch(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*", text)
    if not m:
        raise SpecError(f"bad definition head {text!r}; write it like 'name(cell c)'", locate(0))
    name = m.group(1)
    params: list[tuple[str, str, int, int]] = []
    if m.group(2) is not None and m.group(2).strip():
        offset = m.start(2)
        for part in m.group(2).split(","):
            pm = re.fullmatch(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s+([A-Za-z_][A-Za-z0-9_]*)\s*", part)
            if not pm:
                lead = len(part) - len(part.lstrip())
                raise SpecError(f"bad parameter {part.strip()!r}; write it as 'type name', e.g. 'cell c'", locate(offset + lead))
            params.append((pm.group(1), pm.group(2), offset + pm.start(2), offset + pm.start(1)))
            offset += len(part) + 1
    return name, params


