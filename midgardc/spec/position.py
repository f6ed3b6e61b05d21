"""Lowering of ``position:``: the spec's own notation for whole positions (a published
notation its players use), read by ``--position TEXT`` (see ``midgardc/ir/position.py``
for the fields' meaning)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ..errors import SpecError, did_you_mean
from ..ir.nodes import BOOL, CELL, INT, KIND, PLAYER
from ..ir.position import BoardField, FlagsField, HandsField, MoveNumberField, PositionIR, TurnField, ValueField
from ..ir.values import is_enum, none_value
from .yamlpos import YList, YMap, YNode, YScalar

if TYPE_CHECKING:  # pragma: no cover
    from .context import Lowering

FIELD_KINDS = ("board", "turn", "flags", "value", "hands", "move_number")

POSITION_SECTIONS = {
    "position": ({"name", "separator", "fields"}, {"fields"}),
    "position_board": ({"rows", "from", "empty", "pieces", "hand", "optional"}, set()),
    "position_turn": ({"letters", "optional"}, set()),
    "position_flags": ({"counter", "letters", "none", "optional"}, {"counter"}),
    "position_value": ({"counter", "none", "optional"}, {"counter"}),
    "position_hands": ({"pieces", "none", "optional"}, set()),
    "position_move_number": ({"optional"}, set()),
}


def lower_position(low: "Lowering", node: Optional[YNode], counters: list, scopes: tuple, types: tuple) -> Optional[PositionIR]:
    """``position: {name: NAME, separator: " ", fields: [{board: ...}, {turn: ...}, ...]}``."""
    if node is None:
        return None
    body = low.keys(node, "position", "'position'")
    name = low.scalar(body["name"], str, "position.name") if "name" in body else "position"
    sep = _char(low, body["separator"], "position.separator") if "separator" in body else " "
    fnode = body["fields"]
    if not isinstance(fnode, YList) or len(fnode) == 0:
        raise SpecError("position.fields lists the notation's fields in order, e.g. [{board: {...}}, {turn: {letters: {w: white, b: black}}}]", fnode.pos)
    fields = []
    optional_seen = False
    for item in fnode:
        kind, fb = _field(low, item)
        # (a move number may always be left off, as FEN's: 1 then)
        optional = low.scalar(fb["optional"], bool, "a position field's 'optional'") if "optional" in fb else kind == "move_number"
        if optional_seen and not optional:
            raise SpecError("only the last fields of a position may be optional: this one follows an optional field", item.pos)
        optional_seen = optional_seen or optional
        if kind == "board":
            fields.append(_board(low, fb, optional, sep))
        elif kind == "turn":
            fields.append(TurnField(_turn_letters(low, fb), optional))
        elif kind == "hands":
            fields.append(_hands(low, fb, optional, sep))
        elif kind == "move_number":
            if any(isinstance(f, MoveNumberField) for f in fields):
                raise SpecError("a position has one move_number field", item.pos)
            fields.append(MoveNumberField(optional))
        elif kind == "flags":
            fields.append(_flags(low, fb, optional, counters, scopes, types))
        else:
            fields.append(_value(low, fb, optional, counters, scopes, types))
    return PositionIR(name, sep, tuple(fields))


def _field(low: "Lowering", item: YNode) -> tuple[str, YMap]:
    """A field's kind and settings: ``{turn: {letters: ...}}``; a bare kind (``turn``)
    takes every default, and a counter's field may name just its counter
    (``flags: castling`` is ``flags: {counter: castling}``)."""
    if isinstance(item, YScalar) and isinstance(item.value, str) and item.value in FIELD_KINDS:
        return item.value, YMap({}, item.pos)
    if not isinstance(item, YMap) or len(item.items) != 1:
        raise SpecError(f"a position field is one of {', '.join(FIELD_KINDS)} with its settings, e.g. {{turn: {{letters: {{w: white, b: black}}}}}} (or just turn)", item.pos)
    (kind, fbody), = item.items.items()
    if kind not in FIELD_KINDS:
        raise SpecError(f"unknown position field '{kind}' (fields: {', '.join(FIELD_KINDS)})", item.key_pos[kind], did_you_mean(kind, FIELD_KINDS))
    if kind in ("flags", "value") and isinstance(fbody, YScalar) and isinstance(fbody.value, str):
        fbody = YMap({"counter": fbody}, fbody.pos, {"counter": fbody.pos})
    return kind, low.keys(fbody, f"position_{kind}", f"the position's {kind} field")


def _char(low: "Lowering", node: YNode, what: str) -> str:
    text = low.scalar(node, str, what)
    if len(text) != 1:
        raise SpecError(f"{what} is one character, got {text!r}", node.pos)
    return text


def _board(low: "Lowering", fb: YMap, optional: bool, sep: str) -> BoardField:
    board = low.board
    rsep = _char(low, fb["rows"], "the board field's 'rows' (the character between rows)") if "rows" in fb else "/"
    if rsep == sep:
        raise SpecError(f"the rows' separator {rsep!r} is also the fields' separator", fb["rows"].pos)
    first = low.scalar(fb["from"], str, "the board field's 'from'") if "from" in fb else "top"
    if first not in ("top", "bottom"):
        raise SpecError(f"the board field's 'from' is top (the top row as drawn first) or bottom, got {first!r}", fb["from"].pos)
    rows = board_rows(board, first, fb.pos)
    digits, empty = True, ""
    if "empty" in fb:
        words = fb["empty"].items if isinstance(fb["empty"], YList) else [fb["empty"]]
        digits = False
        for w in words:
            text = low.scalar(w, str, "the board field's 'empty'")
            if text == "digits":
                digits = True
            elif len(text) == 1 and not text.isdigit():
                empty = text
            else:
                raise SpecError(f"the board field's 'empty' is 'digits' (a number: that many empty cells) and/or one character per empty cell, got {text!r}", w.pos)
    pieces = _pieces(low, fb.get("pieces"), [rsep, sep, empty], digits, fb.pos)
    hand = ""
    if "hand" in fb:  # the pieces in hand after the rows, between two marks: [Pp]
        hand = low.scalar(fb["hand"], str, "the board field's 'hand'")
        if len(hand) != 2 or any(ch in (rsep, sep, empty) or ch in dict(pieces) or ch.isdigit() or ch.isspace() for ch in hand):
            raise SpecError(f"the board field's 'hand' is the two characters that open and close the pieces in hand, e.g. \"[]\" for [Pp] (not a piece letter, digit or separator), got {hand!r}", fb["hand"].pos)
    return BoardField(rsep, rows, pieces, digits, empty, optional, hand=hand)


def _hands(low: "Lowering", fb: YMap, optional: bool, sep: str) -> HandsField:
    """A hands field: piece letters (as a board's), each after an optional count."""
    none = low.scalar(fb["none"], str, "the hands field's 'none'") if "none" in fb else "-"
    pieces = _pieces(low, fb.get("pieces"), [sep], True, fb.pos)
    if none in dict(pieces) or not none or any(ch.isdigit() for ch in none):
        raise SpecError(f"the hands field's 'none' (the text for empty hands) is neither a piece letter nor a number, got {none!r}", fb["none"].pos if "none" in fb else fb.pos)
    return HandsField(pieces, none, optional)


def _pieces(low: "Lowering", pnode: Optional[YNode], reserved: list, digits: bool, pos) -> tuple[tuple[str, int], ...]:
    """The letters of the pieces: letter -> piece id (owner * kinds + kind + 1): those
    ``pieces`` gives, then the default letter (``default_letters``) of every piece it
    does not name."""
    if pnode is not None and (not isinstance(pnode, YMap) or not pnode.items):
        raise SpecError("a position field's 'pieces' maps a letter to an owner and a kind, e.g. {K: [white, king], k: [black, king]}", pnode.pos)
    pieces = []
    taken: dict[tuple[int, int], str] = {}
    for letter, v in (pnode.items.items() if pnode is not None else ()):
        _letter_ok(letter, pnode.key_pos[letter], reserved)
        if digits and letter.isdigit():
            raise SpecError(f"the letter {letter!r} is a digit, which stands for empty cells here", pnode.key_pos[letter])
        if not isinstance(v, YList) or len(v) != 2:
            raise SpecError(f"a piece letter names [owner, kind], e.g. {letter}: [{low.players[0]}, {low.kinds[0] if low.kinds else 'piece'}]", v.pos)
        owner = _player(low, v.items[0])
        kname = low.scalar(v.items[1], str, "a kind of piece")
        if kname not in low.kinds:
            raise SpecError(f"unknown kind of piece '{kname}'", v.items[1].pos, did_you_mean(kname, low.kinds) or f"kinds: {', '.join(low.kinds)}")
        kind = low.kinds.index(kname)
        if (owner, kind) in taken:
            raise SpecError(f"{low.players[owner]}'s {kname} already has the letter {taken[owner, kind]!r}", v.pos)
        taken[owner, kind] = letter
        pieces.append((letter, owner * len(low.kinds) + kind + 1))
    if len(low.players) != 2:
        if pnode is None:
            raise SpecError(f"with {len(low.players)} players a position field's pieces have no default letters: give 'pieces' (a letter per owner and kind, e.g. {{X: [{low.players[0]}, {low.kinds[0] if low.kinds else 'piece'}]}})", pos)
        return tuple(pieces)
    for letter, piece in default_letters(low, pos, {piece for _, piece in pieces}):
        clash = next((text for text, _ in pieces if text == letter), None)
        if clash is not None:
            owner, kind = divmod(piece - 1, len(low.kinds))
            raise SpecError(f"{low.players[owner]}'s {low.kinds[kind]} would be written {letter!r} by default, like a piece 'pieces' names: give it a letter there (or its kind a one-letter 'notation')", pos)
        _letter_ok(letter, pos, reserved)
        pieces.append((letter, piece))
    return tuple(pieces)


def default_letters(low: "Lowering", pos, skip: set = frozenset()) -> list[tuple[str, int]]:
    """The one default letter map of a two-player game's positions (a ``setup:`` text and
    a notation's board or hands field): each kind by its ``notation`` when that is one
    character, else by its name's first letter; a capital for the first player's piece
    and a small letter for the second's (as FEN writes White's and Black's). Pieces
    (ids) in ``skip`` have letters of their own. Two kinds with one letter are an error."""
    out: list[tuple[str, int]] = []
    seen: dict[str, str] = {}
    for kind, kname in enumerate(low.kinds):
        ids = [seat * len(low.kinds) + kind + 1 for seat in range(2)]
        if all(i in skip for i in ids):
            continue
        text = low.kind_texts.get(kname, kname)
        letter = (text if len(text) == 1 else kname[0]).lower()
        if letter in seen or not letter.isalpha():
            raise SpecError(f"kind '{kname}' would be written {letter!r} by default, like '{seen.get(letter, kname)}': give one of them a one-letter 'notation' under pieces (or a position field its 'pieces' letters)", pos)
        seen[letter] = kname
        for i, written in zip(ids, (letter.upper(), letter)):
            if i not in skip:
                out.append((written, i))
    return out


def board_rows(board, first: str, pos) -> tuple[tuple[int, ...], ...]:
    """The board's cells row by row as drawn (the top row first, or the bottom one), each
    row left to right."""
    if not board.coords or board.topology == "graph":
        raise SpecError("this board has no rows to read (its topology draws no grid)", pos)
    by_row: dict[int, list[tuple[int, int]]] = {}
    for cell, (r, c) in enumerate(board.coords):
        by_row.setdefault(r, []).append((c, cell))
    return tuple(tuple(cell for _, cell in sorted(by_row[r])) for r in sorted(by_row, reverse=first == "bottom"))


def setup_field(low: "Lowering", position: Optional[YNode], pos) -> BoardField:
    """How a ``setup:`` text is read: the board field of the spec's ``position`` notation
    when it has one; else rows top first separated by ``/``, a number for that many empty
    cells, and a letter per piece: its kind's ``notation`` when that is one character, else
    the first letter of the kind's name, capital for the first player and small for the
    second (as FEN writes White's and Black's pieces)."""
    if isinstance(position, YMap) and isinstance(position.get("fields"), YList):
        sep_node = position.get("separator")
        sep = _char(low, sep_node, "position.separator") if sep_node is not None else " "
        for item in position.get("fields"):
            if isinstance(item, YMap) and "board" in item.items:
                return _board(low, low.keys(item.items["board"], "position_board", "the position's board field"), False, sep)
    if len(low.players) != 2:
        raise SpecError(f"a setup text writes the first player's pieces in capitals and the second's in small letters; with {len(low.players)} players, declare a position notation with a board field (its 'pieces' letters) or list the setup's cells", pos)
    pieces = default_letters(low, pos)
    return BoardField("/", board_rows(low.board, "top", pos), tuple(pieces))


def _letter_ok(letter: str, pos, reserved: list) -> None:
    # (a piece's letter may carry marks before or after it: a variant FEN writes a promoted
    # piece Q~, SFEN +P)
    if not 1 <= len(letter) <= 3 or any(ch.isspace() for ch in letter):
        raise SpecError(f"a letter of a position is one character (a piece's may have up to two marks before or after it, Q~, +P), got {letter!r}", pos)
    if any(ch in reserved for ch in letter if ch):
        raise SpecError(f"the letter {letter!r} holds a separator or the empty cell", pos)


def _player(low: "Lowering", node: YNode) -> int:
    name = low.scalar(node, str, "a player")
    if name not in low.players:
        raise SpecError(f"unknown player '{name}'", node.pos, did_you_mean(name, low.players) or f"players: {', '.join(low.players)}")
    return low.players.index(name)


def _turn_letters(low: "Lowering", fb: YMap) -> tuple:
    """The turn field's letters: ``letters``, else each player's name's first letter in
    small letters (w and b for white and black)."""
    if "letters" in fb:
        return _letters(low, fb["letters"], lambda v: _player(low, v))
    firsts = [p[0].lower() for p in low.players]
    if len(set(firsts)) != len(firsts):
        raise SpecError("the turn field's default letters (each player's first letter) are not all different: give 'letters', e.g. {w: white, b: black}", fb.pos)
    return tuple((letter, seat) for seat, letter in enumerate(firsts))


def _letters(low: "Lowering", node: YNode, value) -> tuple:
    if not isinstance(node, YMap) or not node.items:
        raise SpecError("'letters' maps each letter (or word) to what it stands for, e.g. {w: white, b: black}", node.pos)
    out = []
    for word, v in node.items.items():
        if not word or " " in word:
            raise SpecError(f"a letter of a position is text without spaces, got {word!r}", node.key_pos[word])
        out.append((word, value(v)))
    return tuple(out)


def _counter_type(types: tuple, column: int) -> str:
    return types[column] if types else INT


def _flags(low: "Lowering", fb: YMap, optional: bool, counters: list, scopes: tuple, types: tuple) -> FlagsField:
    cnode = fb["counter"]
    cname = low.scalar(cnode, str, "the flags field's counter")
    arrays = low.names.arrays
    n = len(low.players)
    if cname in arrays:
        _first, per_player, dims, typ = arrays[cname]
    elif cname in counters:
        column = counters.index(cname)
        per_player, dims, typ = scopes[column] == "player" if scopes else True, (), _counter_type(types, column)
    else:
        raise SpecError(f"unknown counter '{cname}'", cnode.pos, did_you_mean(cname, [*counters, *arrays]))
    if typ != BOOL:
        raise SpecError(f"the flags field sets true/false counters; '{cname}' holds {typ} values", cnode.pos)
    want = (["a player"] if per_player else []) + [f"a {t.split(':')[-1]}" if t != INT else f"a number {lo}..{lo + s - 1}" for t, lo, s in dims]
    none = low.scalar(fb["none"], str, "the flags field's 'none'") if "none" in fb else "-"

    def element(v: YNode) -> tuple[int, int]:
        items = v.items if isinstance(v, YList) else [v]
        if len(items) != len(want):
            raise SpecError(f"a letter of '{cname}' names {' and '.join(want) or 'nothing'} (one element of the counter)", v.pos)
        row = _player(low, items[0]) if per_player else n
        rest = items[1:] if per_player else items
        labels = []
        for (t, lo, s), item in zip(dims, rest):
            word = str(item.value) if isinstance(item, YScalar) else ""
            names = [str(lo + i) for i in range(s)] if t == INT else low.value_names(t)
            if word not in names:
                raise SpecError(f"'{word}' is not an index of '{cname}'", item.pos, did_you_mean(word, names) or f"indexes: {', '.join(names[:12])}")
            labels.append(word)
        col = counters.index(f"{cname}[{','.join(labels)}]") if dims else counters.index(cname)
        return row, col

    if "letters" in fb:
        letters = _letters(low, fb["letters"], element)
    else:
        letters = _flag_letters(low, fb, cname, per_player, dims, counters)
    for letter, _ in letters:
        if len(letter) != 1 or letter == none:
            raise SpecError(f"a flag is one character (not the 'none' text {none!r}), got {letter!r}", fb["letters"].key_pos[letter])
    return FlagsField(cname, letters, none, optional)


def _flag_letters(low: "Lowering", fb: YMap, cname: str, per_player: bool, dims: tuple, counters: list) -> tuple:
    """A per-player counter array's default flags: each index's first letter, a capital
    for the first player and a small letter for the second (FEN's KQkq for castling
    rights by wing)."""
    if not per_player or len(dims) != 1 or len(low.players) != 2:
        raise SpecError(f"the flags field has default letters only for a two-player game's counter kept per player with one index; give '{cname}' its 'letters'", fb.pos)
    t, lo, size = dims[0]
    names = [str(lo + i) for i in range(size)] if t == INT else low.value_names(t)
    firsts = [name[0].lower() for name in names]
    if len(set(firsts)) != len(firsts) or not all(f.isalpha() for f in firsts):
        raise SpecError(f"the flags field's default letters (each index's first letter: {', '.join(firsts)}) are not different letters; give '{cname}' its 'letters'", fb.pos)
    return tuple((first.upper() if seat == 0 else first, (seat, counters.index(f"{cname}[{name}]")))
                 for seat in range(2) for first, name in zip(firsts, names))


def _value(low: "Lowering", fb: YMap, optional: bool, counters: list, scopes: tuple, types: tuple) -> ValueField:
    cnode = fb["counter"]
    cname = low.scalar(cnode, str, "the value field's counter")
    if cname not in counters:
        raise SpecError(f"unknown counter '{cname}' (a value field reads one game counter)", cnode.pos, did_you_mean(cname, counters))
    column = counters.index(cname)
    if not scopes or scopes[column] != "game":
        raise SpecError(f"a value field reads a game counter ('of: game'); '{cname}' is kept per player", cnode.pos)
    typ = _counter_type(types, column)
    if typ == BOOL:
        raise SpecError(f"'{cname}' is true/false: read it with a flags field", cnode.pos)
    names: tuple = ()
    if typ != INT:
        if typ not in (CELL, PLAYER, KIND) and not is_enum(typ):
            raise SpecError(f"a value field reads a number, a cell, a player, a kind or an enumeration value, not {typ} values", cnode.pos)
        names = tuple(low.value_names(typ))
    nv = none_value(typ, low.board.n_cells)
    none_text = "-" if nv is not None and "-" not in names else None  # the default, as FEN's
    if "none" in fb:
        if nv is None:
            raise SpecError(f"'{cname}' holds numbers, which have no none value", fb["none"].pos)
        none_text = low.scalar(fb["none"], str, "the value field's 'none'")
        if none_text in names:
            raise SpecError(f"{none_text!r} is also a value's name", fb["none"].pos)
    return ValueField(cname, len(low.players), column, names, none_text, nv if nv is not None else 0, optional)
