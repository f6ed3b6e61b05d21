"""Piece movement as data: a kind of piece says on ``pieces:`` how it moves (``steps``,
``slides``, ``leaps`` along direction sets, parts that only move to an empty cell
(``to_empty``) or only capture (``to_capture``), moves no set says (``also``: a condition
over f and t, as a pawn's double step or castling), or ``moves_as`` another kind), as Ludii's
``(piece "Rook" Each (move Slide Orthogonal))``. From it come two definitions a spec may
call: ``reaches(f, t)`` (a move of the piece on f lands on t) and ``attacked_by(x, q)`` (a piece of
player q could capture on x). They are written here in the condition language, as the
standard definitions are (spec/standard.py), so both back ends read one meaning and the
compiled engine plans and compiles them as if the spec had written them out; the board's
geometry is read once here (a set's directions turned round, a leaper's paths), so the
text is what a careful hand would write: for reaches, by kind, one target per direction
or leap (what the move planner lists); for attacked_by, one walk out from x along every
direction for the pieces that slide or step, and fixed paths for the leapers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Optional

from ..conditions.words import a_type
from ..errors import SpecError, did_you_mean
from ..ir.nodes import BOOL, CELL, BoardIR, opposite_directions
from .schema import NAME_RE
from .yamlpos import YList, YMap, YNode, YScalar

if TYPE_CHECKING:  # pragma: no cover
    from .context import Lowering

#: the keys a piece's movement is said with (beside hand, notation, base, ...)
PART_KEYS = ("steps", "slides", "leaps")
MOVEMENT_KEYS = (*PART_KEYS, "to_empty", "to_capture", "also", "moves_as")
#: the definitions made from the pieces' movement
MOVEMENT_DEFINES = {
    "reaches": "reaches(cell f, cell t)",
    "attacked_by": "attacked_by(cell x, player q)",
}


class Sets:
    """The board's direction sets as data: a plain set's directions, or each player's."""

    def __init__(self, low: "Lowering") -> None:
        self.board: BoardIR = low.board
        self.dirs = list(self.board.directions)
        self.opp = opposite_directions(self.board)
        self.players = list(low.players)
        self.plain: dict[str, tuple[int, ...]] = {"directions": tuple(range(len(self.dirs)))}
        self.per_player: dict[str, list[tuple[int, ...]]] = {}
        for _attr, name, members, seat in low.lower_direction_sets():
            if seat < 0:
                self.plain[name] = members
            else:
                self.per_player.setdefault(name, [()] * len(self.players))[seat] = members

    def check(self, node: YNode, what: str) -> str:
        name = node.value if isinstance(node, YScalar) else None
        known = [*self.plain, *self.per_player]
        if not isinstance(name, str) or name not in known:
            raise SpecError(f"{what} names a direction set of this board ({', '.join(known)}), got {name!r}", node.pos, did_you_mean(str(name), known))
        return name

    def of(self, name: str, seat: int) -> tuple[int, ...]:
        return self.plain[name] if name in self.plain else self.per_player[name][seat]

    def back(self, name: str, d: str, q: str) -> Optional[str]:
        """A test that the direction opposite ``d`` is in the set (of player ``q``): None
        when every direction is; the set itself when it is its own opposite."""
        seats = range(len(self.players)) if name in self.per_player else [0]
        turned = [tuple(sorted(self.opp[m] for m in self.of(name, s))) for s in seats]
        if name in self.plain:
            if len(turned[0]) == len(self.dirs):
                return None
            if turned[0] == self.plain[name]:
                return f"{name}({d})"
        elif len(self.players) == 2 and all(turned[s] == self.of(name, 1 - s) for s in seats):
            return f"{name}(next_player({q}), {d})"  # mirrored: turned round, the other's
        parts = []
        for s in seats:
            test = " or ".join(f"{d} == {self.dirs[m]}" for m in turned[s]) or "false"
            parts.append(f"({test})" if name in self.plain else f"{q} == {self.players[s]} and ({test})")
        return "(" + " or ".join(parts) + ")"


def _chains(start: str, paths: list[tuple[int, ...]], dirs: list[str]) -> list[str]:
    out = []
    for path in paths:
        text = start
        for m in path:
            text = f"step({text}, {dirs[m]})"
        out.append(text)
    return out


class Part:
    """One way a piece moves: a kind of move along a set (or a leap's paths), and whether it
    goes only to an empty cell (``empty``), only onto another player's piece (``capture``);
    or (``how == "also"``) the spec's condition ``node`` over f and t, its text once checked."""

    def __init__(self, how: str, sets: tuple, paths_by_seat: Optional[list], only: str, node: Optional[YNode] = None) -> None:
        self.how, self.sets, self.paths_by_seat, self.only = how, sets, paths_by_seat, only
        self.node, self.text = node, ""


def _parts(low: "Lowering", sets: Sets, body: YMap, kind: str, only: str = "") -> list[Part]:
    out: list[Part] = []
    for key in ("to_empty", "to_capture"):
        if key in body.items:
            if only:
                raise SpecError(f"piece '{kind}': {key} cannot be inside another to_empty or to_capture", body.key_pos[key])
            sub = body.items[key]
            if not isinstance(sub, YMap) or not sub.items or any(k not in PART_KEYS for k in sub.items):
                raise SpecError(f"piece '{kind}': {key} holds the moves it allows ({', '.join(PART_KEYS)}), e.g. {key}: {{steps: orthogonal}}", sub.pos)
            out += _parts(low, sets, sub, kind, key)
    for how in ("steps", "slides"):
        if how in body.items:
            out.append(Part(how, (sets.check(body.items[how], f"piece '{kind}': {how}"),), None, only))
    if "leaps" in body.items:
        out.append(_leap(sets, body.items["leaps"], kind, only))
    if "also" in body.items:
        out.append(Part("also", (), None, "", body.items["also"]))
    return out


def _leap(sets: Sets, node: YNode, kind: str, only: str) -> Part:
    """``leaps: [a, b]``: a cells along an orthogonal direction and b along one at right
    angles (every such way); ``leaps: [S1, S2, ...]``: one direction of each set in turn,
    landing on the last cell (the cells between are jumped over)."""
    example = "leaps: [1, 2] (a steps one way, b at right angles) or leaps: [forward, diagonal] (a path of direction sets)"
    if not isinstance(node, YList) or len(node.items) < 2:
        raise SpecError(f"piece '{kind}': {example}", node.pos)
    values = [i.value if isinstance(i, YScalar) else None for i in node.items]
    seats = len(sets.players)
    if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        if len(values) != 2 or not all(0 <= v <= 8 for v in values) or values == [0, 0]:
            raise SpecError(f"piece '{kind}': a leap by numbers is two numbers from 0 to 8, not both 0 ({example})", node.pos)
        orth = sets.plain.get("orthogonal")
        if orth is None:
            raise SpecError(f"piece '{kind}': a leap by numbers needs a board with orthogonal directions; give a path of direction sets instead", node.pos)
        a, b = values
        paths = set()
        for d in orth:
            for e in orth:
                if e != d and e != sets.opp[d]:
                    paths.add((d,) * b + (e,) * a)
        return Part("leaps", (), [sorted(paths)] * seats, only)
    names = [sets.check(i, f"piece '{kind}': leaps") for i in node.items]
    by_seat = []
    for s in range(seats):
        paths = [()]
        for name in names:
            paths = [p + (m,) for p in paths for m in sets.of(name, s)]
        by_seat.append(paths)
    return Part("leaps", tuple(names), by_seat, only)


def movement(low: "Lowering") -> dict[str, list[Part]]:
    """Each kind's ways of moving, read from ``pieces:`` (``moves_as`` resolved)."""
    node = low.tree.get("pieces")
    if not isinstance(node, YMap):
        return {}
    sets = Sets(low) if any(isinstance(b, YMap) and any(k in b.items for k in MOVEMENT_KEYS) for b in node.items.values()) else None
    own: dict[str, list[Part]] = {}
    alias: dict[str, YNode] = {}
    for kind, body in node.items.items():
        if not isinstance(body, YMap) or sets is None:
            continue
        if "moves_as" in body.items:
            if any(k in body.items for k in MOVEMENT_KEYS if k != "moves_as"):
                raise SpecError(f"piece '{kind}': moves_as says it moves as another kind; it gives no moves of its own", body.key_pos["moves_as"])
            alias[kind] = body.items["moves_as"]
        else:
            own[kind] = _parts(low, sets, body, kind)
    for kind, anode in alias.items():
        other = anode.value if isinstance(anode, YScalar) else None
        if other not in own:
            raise SpecError(f"piece '{kind}': moves_as names a kind that says its own moves, got {other!r}", anode.pos, did_you_mean(str(other), list(own)))
        own[kind] = own[other]
    low.movement_sets = sets
    return {k: v for k, v in own.items() if v}


def _kinds(kinds: list[str], at: str) -> str:
    return " or ".join(f"kind_at({at}) == {k}" for k in kinds) if len(kinds) == 1 else "(" + " or ".join(f"kind_at({at}) == {k}" for k in kinds) + ")"


def _groups(moves: dict[str, list[Part]]) -> list[tuple[list[str], list[Part]]]:
    """Kinds that move alike together (a promoted piece that moves as gold, with gold)."""
    out: list[tuple[list[str], list[Part]]] = []
    for kind, parts in moves.items():
        for kinds, p in out:
            if p is parts:
                kinds.append(kind)
                break
        else:
            out.append(([kind], parts))
    return out


def reaches_text(moves: dict[str, list[Part]], sets: Sets) -> str:
    """``reaches(f, t)``: a move of the piece on f lands on t (a slide up to and including
    the first piece, whoever's it is; a to_empty part only on an empty cell, a to_capture
    part only on a piece): the spec says which pieces a move may not land on (its own:
    ``not mine(t)``), as a conjunct of its own, so that the compiled engine lists a
    slide's cells by bitboard operations and tests that once per cell. Written out by
    kind, then one target per direction or leap (``t == step(f, n)``, a player's test
    beside it where the set differs by player), so that the move planner lists at most
    that many cells from f, and none twice for a kind (a step along a line the kind
    also slides along is the slide's first cell); a kind's ``also`` last, as the spec says it."""
    who = "owner(f)"
    seats = range(len(sets.players))

    def having_test(having: list[int]) -> str:
        if len(having) == len(sets.players):
            return ""
        return "(" + " or ".join(f"{who} == {sets.players[s]}" for s in having) + ") and "

    terms = []
    for kinds, parts in _groups(moves):
        alts: list[str] = []
        slid: set = set()  # (direction, only, seats) a slide of this kind covers
        for p in sorted(parts, key=lambda p: p.how != "slides"):
            only = {"to_empty": "empty(t) and ", "to_capture": "occupied(t) and "}.get(p.only, "")
            if p.how == "also":
                alts.append(f"({p.text})")
            elif p.how in ("steps", "slides"):
                for m, d in enumerate(sets.dirs):
                    having = [s for s in seats if m in sets.of(p.sets[0], s)]
                    if not having or (p.how == "steps" and all((m, p.only, s) in slid for s in having)):
                        continue
                    if p.how == "slides":
                        slid.update((m, p.only, s) for s in having)
                        alts.append(f"{having_test(having)}{only}(any x in slide(f, {d}): x == t)")
                    else:
                        alts.append(f"{having_test(having)}{only}t == step(f, {d})")
            else:
                for chain in sorted({path for paths in p.paths_by_seat for path in paths}):
                    having = [s for s in seats if chain in p.paths_by_seat[s]]
                    alts.append(f"{having_test(having)}{only}t == {_chains('f', [chain], sets.dirs)[0]}")
        terms.append(f"{_kinds(kinds, 'f')} and ({' or '.join(alts)})")
    return " or ".join(terms) or "false"


def attacked_by_text(moves: dict[str, list[Part]], sets: Sets) -> str:
    """``attacked_by(x, q)``: a piece of q could capture on x: looking out from x along
    every direction, the first piece, if it slides back along that line or (next to x)
    steps back onto x; and a leaper of q on a cell a leap away (the leap turned round)."""
    far, near, leaps = [], [], []
    for kinds, parts in _groups(moves):
        for p in parts:
            if p.only == "to_empty" or p.how == "also":  # (a move no set says captures nothing on t)
                continue
            if p.how in ("steps", "slides"):
                back = sets.back(p.sets[0], "d", "q")
                test = _kinds(kinds, "y") + (f" and {back}" if back else "")
                (far if p.how == "slides" else near).append(test)
            else:
                seats = p.paths_by_seat
                turned = [[tuple(sets.opp[m] for m in reversed(path)) for path in paths] for paths in seats]
                one = lambda paths: " or ".join(f"owner({c}) == q and {_kinds(kinds, c)}" for c in _chains("x", paths, sets.dirs))
                if all(s == turned[0] for s in turned):
                    leaps.append(one(turned[0]))
                else:
                    leaps.append(" or ".join(f"q == {sets.players[s]} and ({one(paths)})" for s, paths in enumerate(turned)))
    out = []
    if near:
        far.append(f"y == step(x, d) and ({' or '.join(near)})")
    if far:
        out.append(f"(any d in directions: any y in slide(x, d): owner(y) == q and ({' or '.join(far)}))")
    out += [f"({t})" for t in leaps]
    return " or ".join(out) or "false"


def _check_also(low: "Lowering", kind: str, part: Part) -> None:
    """The text of a piece's ``also``: a definition's name, called with (f, t), or a
    condition over f and t; checked here, where a mistake is shown at the piece."""
    node = part.node
    name = node.value.strip() if isinstance(node, YScalar) and isinstance(node.value, str) else None
    if name is None or not NAME_RE.match(name):
        low.condition(node, {"f": CELL, "t": CELL})  # (its own errors, at its place)
        part.text = node.value if isinstance(node.value, str) else str(node.value).lower()  # (YAML's true)
        return
    head = f"piece '{kind}': also names a definition (cell f, cell t) of the moves it adds, or gives a condition over f and t"
    if name in low.names.later:
        raise SpecError(f"{head}; '{name}' is defined below the first definition that calls reaches", node.pos, f"move '{name}' above it")
    if name not in low.names.defines:
        raise SpecError(f"{head}; there is no definition '{name}'", node.pos, did_you_mean(name, list(low.names.defines)))
    _, params, result = low.names.defines[name]
    if params != (CELL, CELL):
        raise SpecError(f"{head}; '{name}' takes ({', '.join(params) or 'nothing'}), not (cell, cell)", node.pos)
    if result != BOOL:
        raise SpecError(f"{head}; '{name}' gives {a_type(result)}, not a condition", node.pos)
    part.text = f"{name}(f, t)"


def lower_movement_defines(low: "Lowering", own: set[str]) -> Optional[Callable[[Optional[YNode]], bool]]:
    """Add ``reaches`` and ``attacked_by`` from the pieces' movement, when some piece says
    how it moves and the spec does not define the word itself. When a piece's ``also``
    names the spec's own definitions, ``reaches`` is made later: the function returned is
    called with each of the spec's definitions (its body) in turn and with None after the
    last, and makes ``reaches`` (returning True) just before the first that calls it."""
    from .standard import _called_names

    moves = movement(low)  # (read, and its mistakes reported, whether or not it is called)
    called = _called_names(low.tree, MOVEMENT_DEFINES)
    alsos = [(kinds[0], p) for kinds, parts in _groups(moves) for p in parts if p.how == "also"]
    if alsos and ("reaches" in own or "reaches" not in called):
        kind, p = alsos[0]
        why = "defines reaches itself" if "reaches" in own else "never calls reaches"
        raise SpecError(f"piece '{kind}': also adds moves to reaches(f, t), but this spec {why}", p.node.pos)
    if not moves or not any(name in called and name not in own for name in MOVEMENT_DEFINES):
        return None
    makers = {"reaches": reaches_text, "attacked_by": attacked_by_text}
    node = low.tree.get("pieces")

    def make(name: str) -> None:
        text = makers[name](moves, low.movement_sets)
        low.lower_define(MOVEMENT_DEFINES[name], YScalar(text, node.pos), lambda off, at=node.pos: at)

    for name in MOVEMENT_DEFINES:
        if name not in own and name in called and not (name == "reaches" and alsos):
            make(name)
    if not alsos:
        return None

    def later(body: Optional[YNode]) -> bool:
        if body is not None and "reaches" not in _called_names(body, ("reaches",)):
            return False
        for kind, p in alsos:
            _check_also(low, kind, p)
        make("reaches")
        return True
    return later
