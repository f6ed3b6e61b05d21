"""Named player parameters (``iterations=500,c=1.4``): parsed, checked and written back.

A player kind that takes parameters describes them as a table of ``Param`` rows; this
module turns text into values (one clear ``MidgardcError`` per mistake) and values back
into one canonical text, so the same player is always labelled the same way in tables
and records, and the label parses back to the same player.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Callable, Sequence, Union

from ..errors import MidgardcError, did_you_mean

Value = Union[int, float]

_INT = re.compile(r"[0-9]+")


def _int(text: str) -> int:
    if not _INT.fullmatch(text):
        raise ValueError("a whole number")
    return int(text)


def _float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError("a number") from None
    if not math.isfinite(value) or "_" in text:
        raise ValueError("a number")
    return value


def _int_text(value: Value) -> str:
    return str(int(value))


def _float_text(value: Value) -> str:
    text = repr(float(value))  # the shortest text that reads back as the same float
    return text[:-2] if text.endswith(".0") else text


@dataclass(frozen=True)
class ParamType:
    parse: Callable[[str], Value]  # ValueError(what was expected) when the text is not one
    text: Callable[[Value], str]
    metavar: str


INT = ParamType(_int, _int_text, "N")
FLOAT = ParamType(_float, _float_text, "X")


@dataclass(frozen=True)
class Param:
    name: str
    type: ParamType
    default: Value
    lo: Value
    hi: Value
    help: str


def parse_params(kind: str, text: str, table: Sequence[Param]) -> dict[str, Value]:
    """``500`` (the first parameter), ``name=value,...`` or "" -> every parameter's value."""
    values = {p.name: p.default for p in table}
    given: set[str] = set()
    by_name = {p.name: p for p in table}
    if not text.strip():
        return values  # no parameters: all defaults
    for i, part in enumerate(text.split(",")):
        part = part.strip()
        name, eq, raw = part.partition("=")
        name, raw = name.strip(), raw.strip()
        if not eq:
            if i > 0 or not part:
                raise MidgardcError(f"player '{kind}': expected name=value, got '{part}'", hint=params_help(kind, table))
            name, raw = table[0].name, part  # a bare value is the first parameter
        if not name:
            raise MidgardcError(f"player '{kind}': a parameter without a name in '{part}'", hint=params_help(kind, table))
        if name not in by_name:
            guess = did_you_mean(name, by_name)
            raise MidgardcError(f"player '{kind}' has no parameter '{name}'" + (f"; {guess}" if guess else ""), hint=params_help(kind, table))
        if name in given:
            raise MidgardcError(f"player '{kind}': parameter '{name}' is given twice")
        given.add(name)
        values[name] = check_value(kind, by_name[name], raw)
    return values


def check_value(kind: str, param: Param, raw: str) -> Value:
    try:
        value = param.type.parse(raw)
    except ValueError as exc:
        raise MidgardcError(f"player '{kind}': {param.name} must be {exc} between {param.type.text(param.lo)} and {param.type.text(param.hi)}, not '{raw}'") from None
    if not param.lo <= value <= param.hi:
        raise MidgardcError(f"player '{kind}': {param.name}={raw} is out of range ({param.type.text(param.lo)} .. {param.type.text(param.hi)})")
    return value


def params_text(values: dict[str, Value], table: Sequence[Param]) -> str:
    """The canonical text: the parameters that differ from their defaults, in table order,
    values normalised (``c=1.40`` -> ``c=1.4``); "" when all are defaults. Equal players
    therefore have equal texts."""
    parts = []
    for p in table:
        value = values.get(p.name, p.default)
        if value != p.default:
            parts.append(f"{p.name}={p.type.text(value)}")
    return ",".join(parts)


def params_usage(kind: str, table: Sequence[Param]) -> str:
    """``kind:iterations=N,c=X``: how the parameters are written."""
    return f"{kind}:" + ",".join(f"{p.name}={p.type.metavar}" for p in table)


def params_help(kind: str, table: Sequence[Param]) -> str:
    names = ", ".join(f"{p.name} ({p.help}; default {p.type.text(p.default)})" for p in table)
    return f"{kind} parameters: {names}"
