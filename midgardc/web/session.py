"""One served game: the referee that alone holds the state.

A ``Session`` seats people (each ``human`` seat gets a secret token: its URL) and bots. Bots
choose from their own seat's view and rolls are made with the state's own chance stream,
both on the server, right after the move that hands them the turn (``advance``), so a page
only ever waits for people. A person's move names the step it was chosen at (moves made so
far, rolls included): a move for another step, out of turn, or not legal is refused with a
message (``MoveRefused``, an HTTP status and a sentence) and the state is left as it was.

The game is written as the record line ``match --record`` and ``play --record`` write (so
``replay --record`` checks it and ``report`` reads it) when it ends, and as an unfinished
line (``result: {"unfinished": true}``) when the server stops before the end.
"""

from __future__ import annotations

import json
import secrets
import threading
from typing import TYPE_CHECKING, Callable, Optional, Sequence

from ..errors import MidgardcError, MoveError
from ..fileio import check_output, write_atomic
from ..matches.record import record_line, spec_sha256
from ..matches.results import result_of
from ..players import PlayerSpec, player_labels
from ..players.view import PlayerView
from ..engine_switch import BUILDING, EngineSwitch, SwitchError, replay_drawn
from ..runtime.rng import Rng, derive_seed

if TYPE_CHECKING:  # pragma: no cover
    from ..engine_switch import PendingEngine
    from ..runtime.game import Game, State

HUMAN = "human"


class MoveRefused(MidgardcError):
    """A move the server will not play; ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


class Session:
    """One game between ``seats`` (``human`` seats are people at their own URLs)."""

    def __init__(
        self,
        game: "Game",
        spec_path: str,
        seats: Sequence[PlayerSpec],
        seed: int = 0,
        record: Optional[str] = None,
        tokens: Optional[Sequence[str]] = None,
        say: Callable[[str], None] = lambda text: None,
        pending: Optional["PendingEngine"] = None,
    ):
        """``pending``: the compiled engine being built; the game starts on ``game`` (the
        interpreter) and goes on on the compiled one from the first request after it is
        ready (``refresh``)."""
        ir = game.ir
        n = ir.n_players
        if len(seats) != n:
            raise MidgardcError(f"{ir.title} has {n} seats ({', '.join(ir.players)}) but {len(seats)} player{' was' if len(seats) == 1 else 's were'} given")
        self.game = game
        self.spec_path = spec_path
        self.seats = list(seats)
        self.labels = player_labels(self.seats)
        self.humans = [s for s, spec in enumerate(self.seats) if spec.kind == HUMAN]
        if not self.humans:
            raise MidgardcError("no human seat: give 'human' for at least one of --players (bots alone: 'midgardc match')")
        given = list(tokens) if tokens is not None else [secrets.token_urlsafe(12) for _ in self.humans]
        self.tokens = dict(zip(self.humans, given))  # seat -> its secret
        self.bots = {s: spec.make(label) for s, (spec, label) in enumerate(zip(self.seats, self.labels)) if spec.kind != HUMAN}
        self.seed = seed
        self.games_done: list[dict] = []  # record lines of the games before a rematch
        self.bot_error: Optional[str] = None  # why a bot thinking in the background stopped
        self._new_game(0)
        self.record = record
        self.say = say
        self.lock = threading.RLock()  # held while the state is read or changed, never while a bot thinks
        self._turns = threading.Lock()  # held by the one caller running the bots' turns (advance)
        self.stopped = False
        self.switch = EngineSwitch(pending, say)
        self.header = {"spec": spec_path, "spec_sha256": spec_sha256(spec_path), "variant": game.variant, "players_count": n, "engine": game.engine_name, "seed": seed}
        if record is not None:
            check_output(record, "the record")  # before the game, not when it is written at the end
        self.advance()

    def _new_game(self, index: int) -> None:
        """Game ``index`` of this session (0, then one more per rematch) at its start."""
        n = self.game.ir.n_players
        self.game_seed = derive_seed(self.seed, index)  # game ``index`` of a match with this seed, as 'play' does
        self.rngs = [Rng(derive_seed(self.game_seed, s)) for s in range(n)]
        self.state = self.game.new_state(self.game_seed)
        self.recorded = False  # the finished game's record is written
        self.finished = False  # the end was announced
        # per human seat: (moves made when it decided, every seat's random stream then), so a
        # takeback puts the bots' streams back too and they answer as before (as 'play' does)
        self.decided: dict[int, list[tuple[int, list[int]]]] = {s: [] for s in self.humans}
        self._positions: dict[int, "State"] = {}  # earlier positions, by moves made (kept as played)

    # -- seats -----------------------------------------------------------------------

    def seat_of(self, seat: int, token: str) -> Optional[int]:
        """``seat`` when ``token`` is its secret, else None (a wrong token and a bot's seat
        look the same from outside)."""
        known = self.tokens.get(seat)
        if known is None or not token.isascii():  # (compare_digest refuses non-ASCII text; no token has any)
            return None
        return seat if secrets.compare_digest(known, token) else None

    def seat_path(self, seat: int) -> str:
        return f"/seat/{seat}/{self.tokens[seat]}"

    def step(self) -> int:
        """Moves made so far, rolls included: what a move is checked against for staleness."""
        return len(self.state.history)

    # -- moves -----------------------------------------------------------------------

    def refresh(self) -> None:
        """Go on on the compiled engine if it has become ready (once; see EngineSwitch)."""
        with self.lock:
            if self.switch.building:
                self.state = self.switch.carry(self.state, self.game_seed)
                self.game = self.state.game
                self.header["engine"] = self.game.engine_name

    def engine_note(self) -> Optional[str]:
        """What a page says about the engine while the compiled one is being built."""
        return BUILDING if self.switch.building else None

    def advance(self) -> None:
        """Bots move and rolls are made until a person is to move or the game is over.

        A bot thinks on a copy of the state with ``lock`` released (an MCTS turn may take
        many seconds, and every other seat's page asks for its state meanwhile); its move is
        then played on the real state under the lock. Nothing else changes the state while
        a bot is to move (people's moves are refused as out of turn), and ``_turns`` lets
        one caller at a time do this."""
        with self._turns:
            while True:
                with self.lock:
                    self.refresh()  # on the compiled engine once it is ready
                    state = self.state
                    while not state.is_terminal() and state.is_chance_node():
                        self._remember()
                        state.sample_chance()
                    seat = None if state.is_terminal() else state.current_player()
                    if seat not in self.bots:
                        if state.is_terminal() and not self.finished:
                            self.finish()
                        return
                    step, copy = self.step(), state.clone()
                move = self.bots[seat].choose(PlayerView(copy, seat), self.rngs[seat])
                with self.lock:
                    if self.step() != step or self.stopped:  # (the server stopped meanwhile)
                        return
                    self._remember()
                    self.state.apply_unchecked(move)

    def thinking(self) -> Optional[int]:
        """The bot's seat that is to move (its move is being chosen), else None."""
        state = self.state
        if state.is_terminal() or state.is_chance_node():
            return None
        seat = state.current_player()
        return seat if seat in self.bots else None

    def position(self, moves: int) -> "State":
        """The position after the first ``moves`` moves of the game (rolls included): as it was
        kept when played, else replayed from the start (each roll redrawn from the state's
        own stream, as a takeback does)."""
        if moves == self.step():
            return self.state
        if not 0 <= moves < self.step():
            raise MoveRefused(404, f"no position after {moves} moves: the game has {self.step()}")
        found = self._positions.get(moves)
        if found is None or found.history != self.state.history[:moves]:
            try:
                found = replay_drawn(self.game, self.state.history[:moves], self.game_seed)
            except SwitchError:  # a state set from outside (a test's position): no earlier ones
                raise MoveRefused(404, f"the position after {moves} moves cannot be shown: this game did not start from its spec's start") from None
            self._positions[moves] = found
        return found

    def _remember(self) -> None:
        """Keep the position before the move about to be applied (the page shows what a
        move changed, and earlier positions, from these)."""
        self._positions[self.step()] = self.state.clone()

    def takeback(self, seat: int) -> None:
        """Seat ``seat`` takes back its last move and every move after it (the bots' replies,
        rolls included), as the terminal's ``undo`` does: the game is replayed up to that
        decision and every seat's random stream is put back to where it stood then."""
        if not self._turns.acquire(blocking=False):
            raise MoveRefused(409, "a bot is choosing its move: take back once it has moved")
        try:
            with self.lock:
                ir = self.game.ir
                if self.state.is_terminal():
                    raise MoveRefused(409, "the game is over: nothing to take back (a rematch starts a new game)")
                done = self.step()
                before = [d for d in self.decided.get(seat, []) if d[0] < done]
                if not before:
                    raise MoveRefused(409, "nothing to take back: you have not moved yet")
                back, streams = before[-1]
                others = [ir.players[s] for s in self.humans if s != seat and any(d[0] > back for d in self.decided[s])]
                if others:
                    raise MoveRefused(409, f"{' and '.join(others)} moved since: a takeback would undo their move too")
                for s in self.humans:
                    self.decided[s] = [d for d in self.decided[s] if d[0] < back]
                for rng, value in zip(self.rngs, streams):
                    rng.state = value
                self.state = replay_drawn(self.game, self.state.history[:back], self.game_seed)
                self._positions = {k: v for k, v in self._positions.items() if k < back}
        finally:
            self._turns.release()

    def rematch(self) -> None:
        """A new game with the same seats (the next game of the session's seed); only once
        this one is over. Its record line is kept and written with the next one's."""
        with self.lock:
            if not self.state.is_terminal():
                raise MoveRefused(409, "the game is not over: a rematch starts when it ends")
            self.games_done.append(self.record_line())
            self._new_game(len(self.games_done))
        self.advance()

    def play(self, seat: int, step: object, text: object, wait: bool = True) -> None:
        """Seat ``seat`` plays ``text``, chosen at ``step``; MoveRefused when it may not.
        ``wait``: the bots' replies are made before this returns; else in a thread (the
        page draws the move at once and says who is thinking meanwhile)."""
        with self.lock:
            self.refresh()
            state = self.state
            ir = self.game.ir
            if not isinstance(text, str) or not text.strip():
                raise MoveRefused(400, "no move given: send {\"step\": N, \"move\": \"TEXT\"}")
            if not isinstance(step, int) or isinstance(step, bool):
                raise MoveRefused(400, "no step given: send the step the move was chosen at with it")
            if state.is_terminal():
                raise MoveRefused(409, f"'{text}' cannot be played: the game is over")
            if step != self.step():
                raise MoveRefused(409, f"'{text}' was chosen at step {step}, but the game is at step {self.step()} now: the page shows the position again")
            if state.current_player() != seat:
                raise MoveRefused(409, f"it is not {ir.players[seat]}'s turn: {state.current_player_name()} is to move")
            try:
                move = state.resolve(text.strip())
            except MoveError as exc:
                raise MoveRefused(422, exc.message) from None
            self.decided.setdefault(seat, []).append((self.step(), [r.state for r in self.rngs]))
            self._remember()
            state.apply_unchecked(move)
        if wait:
            self.advance()
        else:
            threading.Thread(target=self._advance_logged, name="midgardc-bots", daemon=True).start()

    def _advance_logged(self) -> None:
        """``advance`` in a thread: a bot that fails is said on the pages, not lost."""
        try:
            self.advance()
        except Exception as exc:  # a bug in a bot: the game cannot go on, the pages say why
            self.bot_error = f"a bot stopped: {type(exc).__name__}: {exc}"
            self.say(self.bot_error)

    # -- the record ------------------------------------------------------------------

    def result(self):
        """The GameResult of the finished game (seats in order: labels are per seat)."""
        state = self.state
        moves = tuple(state.texts)
        return result_of(state, len(self.games_done), self.game_seed, tuple(range(self.game.ir.n_players)), moves)

    def record_line(self) -> dict:
        ir = self.game.ir
        if self.state.is_terminal():
            return record_line(ir, self.labels, self.header, self.result())
        moves = list(self.state.texts)
        return dict(self.header, game=len(self.games_done), game_seed=self.game_seed, seat_names=list(ir.players), seats=list(self.labels), moves=moves, result={"unfinished": True, "plies": self.state.ply()})

    def finish(self) -> None:
        """The game is over: say so and write the record."""
        from ..runtime.ending import ending, ranks_line

        self.finished = True
        end = ending(self.state, [f"{name} ({self.labels[s]})" for s, name in enumerate(self.game.ir.players)])
        assert end is not None
        self.say(f"game over: {end['text']}\nranks: {ranks_line(end)}")
        self.write_record()

    def write_record(self) -> None:
        if self.record is None:
            return
        with self.lock:
            lines = self.games_done + [self.record_line()]
            write_atomic(self.record, "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines), "the record")
            self.recorded = self.state.is_terminal()
            what = "the game" if self.recorded else f"the unfinished game ({self.step()} moves; 'replay --moves' shows them)"
            self.say(f"recorded {what} in {self.record}")

    def stop(self) -> None:
        """The server stops: an unfinished game is recorded as far as it went."""
        with self.lock:
            self.stopped = True
            if not self.state.is_terminal():
                self.write_record()
