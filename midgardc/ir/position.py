"""Position notation (``position:``): how a spec's own position text is read.

A spec may declare a notation for whole positions (e.g. one its players publish) as a list of
*fields* separated by one character (a space by default), each of one of these kinds:

* ``board``: the cells row by row as the board is drawn (top row first, or bottom row
  first), rows separated by a character, one letter per (owner, kind) of piece, and
  empty cells as digits (a run of that many empty cells) and/or as one character each;
* ``turn``: a letter naming the player to move;
* ``flags``: letters each setting one element of a true/false counter (or counter array)
  to true, all the others false; a ``none`` text for "no letter at all";
* ``value``: one game counter's value in its type's own words (a number, a cell name, a
  player, an enumeration value) or the ``none`` text for the type's none value;
* ``move_number``: the number of the move, as game records number them (FEN's fullmove
  number, SGF's MN): 1 at the start, one more after each move of the last player in
  seat order (a round: every seat has moved once). It is no counter of the game: a text
  read keeps its number as the state's first (``StartPosition.move_number``) and
  ``State.move_number()`` counts on from it;
* ``hands``: the pieces in hand as a field of its own, a letter per (owner, kind), each
  after an optional count (``S2Pb3p``: one silver and two pawns for the owner of S and
  P, ...), or a ``none`` text for empty hands.

Trailing fields may be optional (the counter keeps its start value). Reading a text gives
what both back ends' ``Core.load`` takes, so the interpreter and the compiled engine start
from the very same state; a position read this way starts the position history (it has
no earlier positions) and runs no ``start`` effects (the text *is* the position).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union

from ..errors import MidgardcError
from .nodes import NOBODY, GameIR


@dataclass(frozen=True)
class BoardField:
    """The board, row by row. ``rows``: the cells of each row in reading order; ``pieces``:
    letter -> piece id (owner * n_kinds + kind + 1)."""

    separator: str
    rows: tuple[tuple[int, ...], ...]
    pieces: tuple[tuple[str, int], ...]
    digits: bool = True  # a number: that many empty cells
    empty: str = ""  # one character per empty cell ("" : none)
    optional: bool = False
    name: str = "board"
    # the marks that open and close the pieces in hand after the rows ("[]": ...R[Pp]),
    # one piece letter per piece; "": no hands in the text
    hand: str = ""


@dataclass(frozen=True)
class TurnField:
    """The player to move: text -> seat."""

    letters: tuple[tuple[str, int], ...]
    optional: bool = False
    name: str = "turn"


@dataclass(frozen=True)
class FlagsField:
    """Letters setting true/false counter elements: letter -> (row, column); every
    element a letter names is false unless its letter is present. ``none``: the text
    for no letter at all."""

    counter: str
    letters: tuple[tuple[str, tuple[int, int]], ...]
    none: str = "-"
    optional: bool = False
    name: str = "flags"


@dataclass(frozen=True)
class ValueField:
    """One counter element (``row``, ``column``) in its type's words: ``names`` (the
    values' names, value i named names[i]; () for a number), ``none_text`` standing for
    the value ``none_value``."""

    counter: str
    row: int
    column: int
    names: tuple[str, ...] = ()
    none_text: Optional[str] = None
    none_value: int = -1
    optional: bool = False
    name: str = "value"


@dataclass(frozen=True)
class HandsField:
    """Every player's pieces in hand: letter -> piece id (as the board's), each letter
    after an optional count; ``none``: the text for no piece in any hand."""

    pieces: tuple[tuple[str, int], ...]
    none: str = "-"
    optional: bool = False
    name: str = "hands"


@dataclass(frozen=True)
class MoveNumberField:
    """The move number (a whole number >= 1; optional: 1 when left off)."""

    optional: bool = False
    name: str = "move_number"


Field = Union[BoardField, TurnField, FlagsField, ValueField, HandsField, MoveNumberField]


@dataclass(frozen=True)
class PositionIR:
    """A spec's position notation (``position:``): its name (for messages), the field
    separator and the fields in order."""

    name: str
    separator: str
    fields: tuple[Field, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class StartPosition:
    """What ``Core.load`` takes, read from a position text (the same for both back ends)."""

    text: str
    board: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    current: int
    counters: tuple[tuple[int, ...], ...]
    move_number: int = 1  # the text's move number (a move_number field; 1 without one)

    def load_into(self, core) -> None:
        core.load(list(self.board), [list(h) for h in self.hands], self.current, NOBODY, 0, None, [list(c) for c in self.counters])


class PositionTextError(MidgardcError):
    """A --position text the spec's notation does not read."""


def position_of(ir: GameIR) -> Optional[PositionIR]:
    """The spec's position notation, if it declares one (kept in ``GameIR.meta``)."""
    return ir.meta.get("position")


def read_position(ir: GameIR, text: str) -> StartPosition:
    """Read ``text`` in the spec's position notation; a text it does not read raises
    PositionTextError naming the field and the character (1-based in the whole text)."""
    notation = position_of(ir)
    if notation is None:
        raise PositionTextError(f"{ir.title} declares no position notation (add a 'position:' section to the spec to use --position)")
    if not isinstance(text, str):  # (e.g. a record's "position" that is not text)
        raise PositionTextError(f"a position in {notation.name} is text, not {type(text).__name__} {text!r:.40}")
    board = [0] * ir.board.n_cells
    counters = [list(row) for row in ir.counter_init]
    current = 0
    parts = _split(text, notation.separator)
    needed = sum(1 for f in notation.fields if not f.optional)
    described = " ".join(_field_label(f) for f in notation.fields)
    if len(parts) < needed:
        missing = notation.fields[len(parts)]
        raise PositionTextError(f"--position: the {notation.name} text {text!r} ends before its {_ordinal(len(parts) + 1)} field ({_field_label(missing)}); {notation.name} is: {described}")
    if len(parts) > len(notation.fields):
        start, word = parts[len(notation.fields)]
        raise PositionTextError(f"--position: {notation.name} has {len(notation.fields)} fields ({described}); character {start + 1} {word[:20]!r} begins an extra one")
    hands = [list(h) for h in ir.hand_init]
    number = 1
    for i, (f, (start, word)) in enumerate(zip(notation.fields, parts)):
        where = f"--position: {notation.name} field {i + 1} ({_field_label(f)})"
        if isinstance(f, BoardField):
            if f.hand and word.endswith(f.hand[1]) and f.hand[0] in word:
                cut = word.index(f.hand[0])
                _read_hand(f, word[cut + 1:-1], start + cut + 1, hands, ir.n_kinds, where)
                word = word[:cut]
            _read_board(f, word, start, board, where)
        elif isinstance(f, TurnField):
            current = _lookup(dict(f.letters), word, start, where, "player")
        elif isinstance(f, HandsField):
            _read_hands(f, word, start, hands, ir.n_kinds, where)
        elif isinstance(f, MoveNumberField):
            number = _read_number(word, start, where, f.name)
            if number < 1:
                raise PositionTextError(f"{where}, character {start + 1} {word[:1]!r}: the move number is 1 or more, got {word[:20]}")
        elif isinstance(f, FlagsField):
            letters = dict(f.letters)
            for row, column in letters.values():
                counters[row][column] = 0
            if word != f.none:
                seen: set[str] = set()
                for k, ch in enumerate(word):
                    if ch not in letters:
                        raise PositionTextError(f"{where}, character {start + k + 1} {ch!r}: not one of its letters ({' '.join(letters)}, or {f.none!r} for none)")
                    if ch in seen:
                        raise PositionTextError(f"{where}, character {start + k + 1} {ch!r}: the letter is given twice")
                    seen.add(ch)
                    row, column = letters[ch]
                    counters[row][column] = 1
        else:
            counters[f.row][f.column] = _read_value(f, word, start, where)
    return StartPosition(text, tuple(board), tuple(tuple(h) for h in hands), current, tuple(tuple(c) for c in counters), number)


def _read_hand(f: BoardField, word: str, start: int, hands: list, n_kinds: int, where: str) -> None:
    """The pieces in hand, one letter per piece: the text says every hand (the others
    are empty)."""
    pieces = dict(f.pieces)
    for row in hands:
        row[:] = [0] * len(row)
    for k, ch in enumerate(word):
        if ch not in pieces:
            raise PositionTextError(f"{where}, character {start + k + 1} {ch!r}: not a piece letter ({' '.join(pieces)}) in hand")
        owner, kind = (pieces[ch] - 1) // n_kinds, (pieces[ch] - 1) % n_kinds
        hands[owner][kind] += 1


def _read_hands(f: HandsField, word: str, start: int, hands: list, n_kinds: int, where: str) -> None:
    """A hands field: every hand, each piece's letter after an optional count (2P: two)."""
    pieces = dict(f.pieces)
    for row in hands:
        row[:] = [0] * len(row)
    if word == f.none:
        return
    k = 0
    while k < len(word):
        j = k
        while j < len(word) and word[j].isdigit() and word[j].isascii():
            j += 1
        if j - k > 5:
            raise PositionTextError(f"{where}, character {start + k + 1} {word[k:j][:20]!r}: a count of {j - k} digits (at most 10000 pieces of a kind in hand)")
        count = int(word[k:j]) if j > k else 1
        token = next((t for t in sorted(pieces, key=len, reverse=True) if word.startswith(t, j)), None)
        if token is None or count == 0:
            ch = word[j:j + 1] if j < len(word) else word[-1:]
            what = "a count of 0" if token is not None else f"not a piece letter ({' '.join(pieces)})" + (" after a count" if j > k else f", a count, nor {f.none!r} for empty hands")
            raise PositionTextError(f"{where}, character {start + min(j, len(word) - 1) + 1} {ch!r}: {what}")
        owner, kind = (pieces[token] - 1) // n_kinds, (pieces[token] - 1) % n_kinds
        hands[owner][kind] += count
        if hands[owner][kind] > 10000:
            raise PositionTextError(f"{where}, character {start + k + 1}: more than 10000 pieces of a kind in hand")
        k = j + len(token)


def _split(text: str, sep: str) -> list[tuple[int, str]]:
    """The fields of ``text`` with their start offsets; a space separator allows runs of
    spaces and spaces around the text."""
    out: list[tuple[int, str]] = []
    i = 0
    n = len(text)
    if sep == " ":
        while i < n:
            while i < n and text[i] == " ":
                i += 1
            if i >= n:
                break
            j = i
            while j < n and text[j] != " ":
                j += 1
            out.append((i, text[i:j]))
            i = j
        return out
    if not text:
        return out
    for word in text.split(sep):
        out.append((i, word))
        i += len(word) + len(sep)
    return out


def _read_board(f: BoardField, word: str, start: int, board: list[int], where: str) -> None:
    pieces = dict(f.pieces)
    marked = sorted((t for t in pieces if len(t) > 1), key=len, reverse=True)  # letters with marks
    rows = word.split(f.separator)
    if len(rows) != len(f.rows):
        raise PositionTextError(f"{where}: {len(rows)} rows separated by {f.separator!r}; the board has {len(f.rows)}")
    at = start
    for r, (row_text, cells) in enumerate(zip(rows, f.rows)):
        filled = 0
        k = 0
        while k < len(row_text):
            ch = row_text[k]
            if f.digits and ch.isdigit():
                j = k
                while j < len(row_text) and row_text[j].isdigit():
                    j += 1
                if j - k > 20:  # (never converted: Python refuses past 4,300 digits)
                    raise PositionTextError(f"{where}, character {at + k + 1} {row_text[k:k + 20]!r}...: a run of {j - k} digits; row {r + 1} has {len(cells)} cells")
                run = int(row_text[k:j])
                if run == 0 or filled + run > len(cells):
                    raise PositionTextError(f"{where}, character {at + k + 1} {row_text[k:j]!r}: row {r + 1} would hold {filled + run} cells; it has {len(cells)}")
                filled += run
                k = j
                continue
            if filled >= len(cells):
                raise PositionTextError(f"{where}, character {at + k + 1} {ch!r}: row {r + 1} has only {len(cells)} cells")
            token = next((t for t in marked if row_text.startswith(t, k)), ch)  # (Q~ before Q)
            if f.empty and ch == f.empty:
                filled += 1
            elif token in pieces:
                board[cells[filled]] = pieces[token]
                filled += 1
                k += len(token) - 1
            else:
                empties = (["a digit"] if f.digits else []) + ([repr(f.empty)] if f.empty else [])
                raise PositionTextError(f"{where}, character {at + k + 1} {ch!r}: not a piece letter ({' '.join(pieces)}) nor an empty cell ({' or '.join(empties)})")
            k += 1
        if filled != len(cells):
            raise PositionTextError(f"{where}, character {at + len(row_text)}: row {r + 1} gives {filled} cells; it has {len(cells)}")
        at += len(row_text) + len(f.separator)


def _read_value(f: ValueField, word: str, start: int, where: str) -> int:
    if f.none_text is not None and word == f.none_text:
        return f.none_value
    if not f.names:
        return _read_number(word, start, where, f.counter, f" (or {f.none_text!r})" if f.none_text is not None else "")
    return _lookup({n: i for i, n in enumerate(f.names)}, word, start, where, f"value of '{f.counter}'", f.none_text)


def _read_number(word: str, start: int, where: str, what: str, alternative: str = "") -> int:
    """A whole number (a sign allowed), within the engines' counters' range."""
    body = word[1:] if word[:1] in "+-" else word
    if not body.isdigit() or not body.isascii():
        bad = next((k for k, ch in enumerate(word) if not (ch.isdigit() and ch.isascii()) and not (k == 0 and ch in "+-")), len(word) - 1)
        raise PositionTextError(f"{where}, character {start + bad + 1} {word[bad:bad + 1]!r}: expected a whole number for '{what}'{alternative}")
    digits = body.lstrip("0")
    value = (-1 if word[:1] == "-" else 1) * int(digits or "0") if len(digits) <= 20 else 1 << 62  # (never convert thousands of digits: Python refuses past 4,300)
    if not -(1 << 62) <= value < (1 << 62):
        raise PositionTextError(f"{where}, character {start + 1}: the number {word[:20]} is too large for '{what}'")
    return value


def _lookup(table: dict, word: str, start: int, where: str, what: str, none_text: Optional[str] = None) -> int:
    if word in table:
        return table[word]
    bad = 0
    while bad < len(word) and any(name.startswith(word[: bad + 1]) for name in table):
        bad += 1
    shown = ", ".join(list(table)[:12]) + (", ..." if len(table) > 12 else "") + (f", or {none_text!r}" if none_text is not None else "")
    ch = word[bad:bad + 1] if bad < len(word) else word[-1:]
    return _raise(f"{where}, character {start + min(bad, len(word) - 1) + 1} {ch!r}: {word[:20]!r} is not a {what} ({shown})")


def _raise(message: str) -> int:
    raise PositionTextError(message)


def _field_label(f: Field) -> str:
    if isinstance(f, (FlagsField, ValueField)):
        return f"{f.counter}" + ("?" if f.optional else "")
    return f.name + ("?" if f.optional else "")


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")
