"""``midgardc play``: people and bots play one game at the terminal.

The session is the referee: it alone holds the state. Each seat's player is handed that
seat's view (a ``human`` prints it and reads a move; a bot chooses and its move is
printed, with a pause so people can follow), rolls are made by the state's own chance
stream. ``undo`` takes a human back to their previous decision by replaying the game's
moves up to it from the seed (the game is deterministic given the seed and the moves,
rolls included, which are moves too). With several humans at one terminal (hot seat) the
screen is cleared and the next human presses Enter before their view is drawn, so one
seat's hidden items are never left on screen for another. At the end the result is
printed as ``match`` prints it and the game is written as the record line ``match
--record`` writes, which ``replay --record`` checks; ``quit`` writes the moves so far.
"""

from __future__ import annotations

import json
import sys
import time
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence

import click

from ..errors import MidgardcError
from ..fileio import check_output, write_atomic
from ..players import PlayerSpec, kinds_help, parse_player, player_labels
from ..players.human import HumanPlayer, Quit, Undo
from ..players.view import PlayerView
from ..engine_switch import BUILDING, EngineSwitch, PendingEngine, replay_drawn
from ..runtime.observe import moves_seen
from ..runtime.rng import Rng, derive_seed

if TYPE_CHECKING:  # pragma: no cover
    from ..runtime.game import Game, State

HUMAN = "human"
CLEAR = "\033[H\033[2J\033[3J"  # home, clear the screen and the scrollback


def parse_seats(text: str) -> list[PlayerSpec]:
    """``human,mcts:500``: ``human`` for a person, any other player spec for a bot."""
    out = []
    for part in text.split(","):
        if part.strip() == HUMAN:
            out.append(PlayerSpec(HUMAN))
        elif part.partition(":")[0].strip() == HUMAN:
            raise MidgardcError(f"player '{HUMAN}' takes no parameter (got '{part.strip()}')")
        elif "=" in part and ":" not in part and out and out[-1].kind != HUMAN:  # mcts:iterations=5,c=1
            out[-1] = parse_player(f"{out[-1].text}{',' if out[-1].param else ':'}{part.strip()}")
        else:
            out.append(parse_player(part))
    return out


def seats_help() -> str:
    return f"{HUMAN} (you, at this terminal; several take turns), {kinds_help()}"


class SeatsType(click.ParamType):
    """``--players`` of ``play``: humans and bots (``parse_seats``), with its messages."""

    name = "seats"

    def convert(self, value: Any, param: Optional[click.Parameter], ctx: Optional[click.Context]) -> list[PlayerSpec]:
        if isinstance(value, list):
            return value
        try:
            return parse_seats(value)
        except MidgardcError as exc:
            self.fail(exc.message + (f" ({exc.hint})" if exc.hint else ""), param, ctx)


class Terminal:
    """Where the session talks: ``say`` prints a line, ``ask`` reads one after a prompt."""

    def __init__(self, say: Callable[[str], None] = print, ask: Callable[[str], str] = input, tty: Optional[bool] = None):
        self.say = say
        self.ask = ask
        self.tty = sys.stdout.isatty() if tty is None else tty

    def clear(self) -> None:
        if self.tty:
            self.say(CLEAR)
        else:
            self.say("\n" * 40)


def open_session_game(ir: Any, engine: str, position: Optional[str] = None) -> tuple["Game", Optional[PendingEngine]]:
    """The game a person plays at once (the interpreter, or the compiled engine when it
    opens within a second) and the compiled engine still being built, if it is (None
    otherwise); a bad ``position`` is refused before anything is built."""
    from ..engine_switch import open_switching

    if position is not None:
        from ..ir.position import read_position

        read_position(ir, position)
    game, pending = open_switching(ir, engine)
    game.start_from(position)
    return game, pending


def play_session(
    game: "Game",
    spec_path: str,
    seats: Sequence[PlayerSpec],
    seed: int = 0,
    record: Optional[str] = None,
    delay: float = 0.5,
    color: bool = False,
    term: Optional[Terminal] = None,
    pending: Optional[PendingEngine] = None,
) -> bool:
    """Play one game; True when it was played to the end, False when a human quit.
    ``pending``: the compiled engine on its way (the game starts on ``game``, the
    interpreter, and goes on on the compiled engine from the first move after it is ready)."""
    term = term or Terminal()
    switch = None if pending is None else EngineSwitch(pending, term.say)
    ir = game.ir
    n = ir.n_players
    if len(seats) != n:
        raise MidgardcError(f"{ir.title} has {n} seats ({', '.join(ir.players)}) but {len(seats)} player{' was' if len(seats) == 1 else 's were'} given")
    if record is not None:
        check_output(record, "the record")  # before the game, not when it is written at the end
    labels = player_labels(list(seats))
    players: list = []
    for spec, label in zip(seats, labels):
        players.append(HumanPlayer(label, ask=term.ask, say=term.say, color=color) if spec.kind == HUMAN else spec.make(label))
    humans = [s for s, spec in enumerate(seats) if spec.kind == HUMAN]
    game_seed = derive_seed(seed, 0)  # game 0 of a match with this seed
    rngs = [Rng(derive_seed(game_seed, s)) for s in range(n)]
    state = game.new_state(game_seed)
    # For each human: (moves made, rolls included, every seat's random stream) when they chose,
    # so that undo puts the bots' streams back too and they answer the retaken move as before.
    decided: dict[int, list[tuple[int, list[int]]]] = {s: [] for s in humans}
    on_screen: Optional[int] = None  # the human seat whose view was drawn last
    term.say(f"{ir.title}{f' [{game.variant}]' if game.variant else ''}: " + ", ".join(f"{ir.players[s]} {labels[s]}" for s in range(n)) + f"; seed {seed}")
    if pending is not None and not pending.done():
        term.say(BUILDING)
    finished = True
    while not state.is_terminal():
        if switch is not None:
            state = switch.carry(state, game_seed)
        seat = state.current_player()
        if state.is_chance_node() or seat not in decided:
            try:  # Ctrl-C while a bot thinks stops the game like quit: the record keeps the moves
                viewer = humans[0] if len(humans) == 1 else -1  # the humans at the terminal (several: what is public)
                if state.is_chance_node():
                    turn = state.turn_player()  # whose turn the roll is for
                    state.sample_chance()
                    faces = moves_seen(state, viewer)[-1].partition(":")[2]  # (another's private roll: ?)
                    term.say(f"{ir.players[turn]}'s {ir.chance.name}: {faces}")
                else:
                    move_id = players[seat].choose(PlayerView(state, seat), rngs[seat])
                    state.apply_unchecked(move_id)
                    term.say(f"{ir.players[seat]} ({labels[seat]}) plays {moves_seen(state, viewer)[-1]}")  # as the humans may see it
                if delay > 0:
                    time.sleep(delay)
            except KeyboardInterrupt:
                term.say(f"\ninterrupted after {state.ply()} moves")
                finished = False
                break
            continue
        player = players[seat]
        if len(humans) > 1 and on_screen != seat:
            term.clear()
            term.ask(f"pass the terminal to {ir.players[seat]} ({labels[seat]}), then press Enter ")
            term.clear()
        on_screen = seat
        term.say("")
        try:
            move_id = player.choose(PlayerView(state, seat), rngs[seat])
        except Undo:
            done = len(state.history)  # moves so far, rolls included (a ply does not count rolls)
            before = [d for d in decided[seat] if d[0] < done]
            if not before:
                term.say("nothing to undo: this is your first decision")
                continue
            back, streams = before[-1]
            for s in humans:
                decided[s] = [d for d in decided[s] if d[0] < back]
            for rng, value in zip(rngs, streams):
                rng.state = value
            state = replay_drawn(state.game, state.history[:back], game_seed)  # rolls redrawn: the dice stream stands where it stood
            taken = done - back
            term.say(f"undo: back to move {state.ply() + 1} (taking back {taken} move{'s' if taken != 1 else ''}{', rolls included' if ir.chance is not None else ''})")
            continue
        except Quit:
            term.say(f"quit after {state.ply()} moves")
            finished = False
            break
        decided[seat].append((len(state.history), [r.state for r in rngs]))
        term.say(f"{ir.players[seat]} ({labels[seat]}) plays {state.move_text(move_id)}")
        state.apply_unchecked(move_id)
    if len(humans) > 1:
        term.clear()
    if finished:
        viewer = humans[0] if len(humans) == 1 else -1  # hot seat: only what is public
        term.say(state_text(state, viewer, color))
    game = state.game  # the engine the game ended on
    header = {"spec": spec_path, "spec_sha256": _sha(spec_path), "variant": game.variant, "players_count": n, "engine": game.engine_name, "seed": seed}
    if game.start is not None:  # a game from a --position start: replay needs it
        header["position"] = game.start.text
    moves = tuple(state.texts)
    if finished:
        result = _result(state, game_seed, moves)
        term.say(result_text(game, labels, result, seed))
        if result.ending is not None:  # how it ended: the reason, the tie-break, each seat's rank
            term.say(f"{result.ending['text']}\nranks: {ranks_line(result.ending)}")
        line = _record_line(ir, labels, header, result)
    else:
        line = dict(header, game=0, game_seed=game_seed, seat_names=list(ir.players), seats=list(labels), moves=list(moves), result={"unfinished": True, "plies": state.ply()})
    if record is not None:
        write_atomic(record, json.dumps(line, separators=(",", ":")) + "\n", "the record")
        rolls = ", rolls included" if ir.chance is not None else ""
        what = "the game" if finished else f"the unfinished game ({len(moves)} moves{rolls}; 'midgardc replay SPEC --moves' with its seed shows where it stopped)"
        term.say(f"recorded {what} in {record}")
    return finished


def state_text(state: "State", viewer: int, color: bool) -> str:
    from ..runtime.view import render_text

    return render_text(state, color=color, viewer=viewer)


def _sha(path: str) -> str:
    from ..matches.record import spec_sha256

    return spec_sha256(path)


def _result(state: "State", game_seed: int, moves: tuple[str, ...]):
    from ..matches.runner import result_of

    return result_of(state, 0, game_seed, tuple(range(state.game.ir.n_players)), moves)


def _record_line(ir, labels: Sequence[str], header: dict, result) -> dict:
    from ..matches.record import record_line

    return record_line(ir, labels, header, result)


def ranks_line(end: dict) -> str:
    from ..runtime.ending import ranks_line as line

    return line(end)


def result_text(game: "Game", labels: Sequence[str], result, seed: int) -> str:
    """The game's result as ``match`` prints a one-game match."""
    from ..matches.report import match_table
    from ..matches.tally import Tally

    tally = Tally(game.ir, list(labels))
    tally.add(result)
    meta = {"title": game.ir.title, "variant": game.variant, "engine": game.engine_name, "seed": seed, "seats": list(game.ir.players), "first_key": game.ir.ranking[0].name if game.ir.ranking else None}
    return match_table(tally.summary(), meta)
