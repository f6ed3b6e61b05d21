"""A person at the terminal: the ``human`` player of ``midgardc play``.

Like every player it is handed its seat's view (``PlayerView``), never the state: it prints
the board as the seat sees it (``PlayerView.text``), the legal moves numbered, and reads a
line until the line names a move. A move is typed as its text, a unique prefix of it or its
number in the list; ``hint`` asks MCTS what it would play from this view, ``help`` lists the
commands, ``undo`` and ``quit`` leave ``choose`` with ``Undo`` / ``Quit`` for the session
(``midgardc.cli.humanplay``) to act on, since only it holds the game. Anything else gets one
clear message (an ambiguous prefix lists its candidates, an unknown word gets the closest
moves) and the prompt again.
"""

from __future__ import annotations

import difflib
import shutil
from typing import TYPE_CHECKING, AbstractSet, Callable, Optional, Sequence

from .mcts import MctsPlayer
from .view import as_view

if TYPE_CHECKING:  # pragma: no cover
    from ..runtime.game import Move
    from ..runtime.rng import Rng
    from .view import PlayerView

COMMANDS = {
    "undo": "take back your last move (and every move made since)",
    "hint": "what MCTS would play from what you see",
    "moves": "every legal move with its number (when there are too many, they are grouped)",
    "help": "this list",
    "quit": "stop here (the record keeps the moves so far)",
}
HINT_ITERATIONS = 500
MAX_SHOWN = 60  # legal moves listed one by one on each turn; more are grouped by how they start
GROUPS = 24  # at most this many groups


class Undo(Exception):
    """The human asked to go back to their previous decision."""


class Quit(Exception):
    """The human asked to stop the game."""


class MoveInputError(ValueError):
    """A line that names no single legal move; the message says why, for the person.
    ``candidates`` are the moves an ambiguous prefix starts (to be listed with numbers)."""

    def __init__(self, message: str, candidates: Sequence["Move"] = ()):
        super().__init__(message)
        self.candidates = list(candidates)


def parse_move(line: str, moves: Sequence["Move"], shown: Optional[AbstractSet[int]] = None) -> "Move":
    """The legal move ``line`` names: its text exactly (case aside), its number in the list
    (1-based), or a prefix that only one move's text starts with. ``shown``: the numbers
    the person has been shown (None: all of them); a number never shown is read as the
    start of a move's text (``7`` of ``7.3``), never as a move off a list nobody saw."""
    typed = line.strip()
    if not typed:
        raise MoveInputError("type a move, its number, or help")
    for move in moves:
        if move.text == typed:
            return move
    folded = typed.casefold()
    exact = [m for m in moves if m.text.casefold() == folded]
    if len(exact) == 1:
        return exact[0]
    if typed.isdigit() and (shown is None or int(typed) in shown):
        number = int(typed)
        if 1 <= number <= len(moves):
            return moves[number - 1]
        raise MoveInputError(f"there is no move {number}: the moves are numbered 1 to {len(moves)}")
    starts = [m for m in moves if m.text.casefold().startswith(folded)]
    if len(starts) == 1:
        return starts[0]
    if starts:
        shown = ", ".join(m.text for m in starts[:12]) + (f" and {len(starts) - 12} more" if len(starts) > 12 else "")
        raise MoveInputError(f"'{typed}' is ambiguous: it starts {len(starts)} moves ({shown}); type more of it, or its number", starts)
    if typed.isdigit():  # a number not on screen, and no move starts with it
        raise MoveInputError(f"no move numbered {typed} is on screen and no move starts with '{typed}'; type 'moves' to list them with numbers")
    close = difflib.get_close_matches(typed, [m.text for m in moves], n=3, cutoff=0.5)
    suggestion = f"; did you mean {' or '.join(close)}?" if close else "; type a number from the list, or help"
    raise MoveInputError(f"'{typed}' is not a legal move here{suggestion}")


def numbered(moves: Sequence["Move"], width: int = 100, numbers: Sequence[int] = ()) -> list[str]:
    """The moves as ``n. text`` in columns that fit ``width`` characters (``numbers``: the
    moves' own numbers when they are a part of the list)."""
    cells = [f"{n}. {m.text}" for n, m in zip(numbers or range(1, len(moves) + 1), moves)]
    return columns(cells, width)


def columns(cells: Sequence[str], width: int = 100) -> list[str]:
    """``cells`` in columns that fit ``width`` characters, running down each column."""
    if not cells:
        return []
    cell = max(len(c) for c in cells) + 3
    per_row = max(1, (width - 2) // cell)
    rows = (len(cells) + per_row - 1) // per_row
    lines = []
    for r in range(rows):  # column-major: numbers run down each column
        row = [cells[c * rows + r] for c in range(per_row) if c * rows + r < len(cells)]
        lines.append("  " + "".join(x.ljust(cell) for x in row).rstrip())
    return lines


class HumanPlayer:
    """Asks a person: ``ask(prompt)`` returns a line (EOFError/KeyboardInterrupt: quit),
    ``say(text)`` prints. ``seat_label`` names the seat in the prompt."""

    def __init__(self, name: str = "human", ask: Callable[[str], str] = input, say: Callable[[str], None] = print, color: bool = False, hint_iterations: int = HINT_ITERATIONS):
        self.name = name
        self.ask = ask
        self.say = say
        self.color = color
        self.hint_iterations = hint_iterations

    def choose(self, view: "PlayerView", rng: "Rng") -> int:
        view = as_view(view)
        moves = view.legal_moves()
        seat = view.game.players[view.player]
        self.say(view.text(color=self.color))
        self.say("")
        width = shutil.get_terminal_size((100, 24)).columns
        self.say(f"{seat}, your legal moves (type one, its number, or help):")
        self.say("\n".join(move_list(moves, width)))
        # the numbers on screen: every one when the list is numbered, none when grouped
        shown: set[int] = set(range(1, len(moves) + 1)) if len(moves) <= MAX_SHOWN else set()
        while True:
            try:
                line = self.ask(f"{seat}> ")
            except (EOFError, KeyboardInterrupt):
                self.say("")
                raise Quit() from None
            word = line.strip().casefold()
            if word in ("undo", "quit"):
                raise Undo() if word == "undo" else Quit()
            if word == "help":
                self.say(help_text(len(moves)))
                continue
            if word == "moves":
                self.say("\n".join(move_list(moves, width, every=True)))
                shown = set(range(1, len(moves) + 1))
                continue
            if word == "hint":
                try:
                    self.say(self.hint(view, rng))
                except KeyboardInterrupt:  # Ctrl-C stops the search, not the game
                    self.say("\nhint stopped")
                continue
            try:
                return parse_move(line, moves, shown).id
            except MoveInputError as exc:
                self.say(str(exc))
                if exc.candidates and len(exc.candidates) <= MAX_SHOWN:
                    number = {m.id: i for i, m in enumerate(moves, start=1)}
                    self.say("\n".join(numbered(exc.candidates, width, [number[m.id] for m in exc.candidates])))
                    shown |= {number[m.id] for m in exc.candidates}

    def hint(self, view: "PlayerView", rng: "Rng") -> str:
        """What MCTS would play from this view (its own Rng: the game is not changed)."""
        from ..runtime.rng import Rng, derive_seed

        bot = MctsPlayer(f"mcts:{self.hint_iterations}", iterations=self.hint_iterations)
        move = bot.choose(view, Rng(derive_seed(rng.next64(), view.ply())))
        return f"hint: mcts with {self.hint_iterations} iterations would play {view.move_text(move)}"


def _next_word(move: str, at: int) -> str:
    """``move`` up to the end of the word that starts at ``at`` and the separators after it
    (``3:`` of ``3:3.2:25``; then ``3:3.``)."""
    j = at
    while j < len(move) and move[j].isalnum():
        j += 1
    while j < len(move) and not move[j].isalnum():
        j += 1
    return move[: max(j, at + 1)]


def group_moves(moves: Sequence[str], limit: int = GROUPS) -> list[tuple[str, int]]:
    """Many moves summed up in at most ``limit`` groups that start alike: (the shared start,
    how many), a lone move as (itself, 1), in the list's order. Groups are split a word at a
    time, all at once while they still number at most ``limit``, so a person reads the
    choices the way the notation builds them (a card, then a city, then a height). When
    the first word alone makes more than ``limit`` groups, they are its groups (one group
    "… (123)" would say nothing)."""
    groups: dict[str, list[str]] = {"": list(moves)}
    while any(len(v) > 1 for v in groups.values()):
        finer: dict[str, list[str]] = {}
        for prefix, members in groups.items():
            if len(members) == 1:
                finer[prefix] = members
                continue
            for m in members:
                finer.setdefault(_next_word(m, len(prefix)), []).append(m)
        if len(finer) > limit:
            if len(groups) == 1 and len(finer) > 1:  # one group would hold everything: split by the first word
                groups = finer
            break
        groups = finer
    order = {m: i for i, m in enumerate(moves)}
    out = sorted(((v[0] if len(v) == 1 else p, len(v), min(order[m] for m in v)) for p, v in groups.items()), key=lambda g: g[2])
    return [(p, n) for p, n, _ in out]


def move_list(moves: Sequence["Move"], width: int, every: bool = False) -> list[str]:
    """The legal moves numbered; more than ``MAX_SHOWN`` (unless ``every``) grouped by how
    they start, with the way to see them."""
    if len(moves) > MAX_SHOWN and not every:
        groups = [p if n == 1 else f"{p}… ({n})" for p, n in group_moves([m.text for m in moves])]
        return [f"{len(moves)} moves, grouped by how they start (type the start of one to see them with numbers; 'moves' lists them all):"] + columns(groups, width)
    return numbered(moves, width)


def help_text(count: int) -> str:
    lines = [f"type a move as it is written, a prefix only one move starts with, or its number (1-{count}); or"]
    lines += [f"  {word:<5} {what}" for word, what in COMMANDS.items()]
    return "\n".join(lines)
