"""A game on the interpreter now, on the compiled engine as soon as it is built.

Building a compiled engine takes from seconds to minutes; a person at ``play`` or ``serve``
should see the board at once. ``open_switching`` gives a game that plays *now* and a
``PendingEngine``: the compiled game, built in a background thread. An engine the cache
holds is given ``GRACE_SECONDS`` to open and is then the game to play at once; one that
must be built (seconds at least) is not waited for: the interpreter plays at once.
Between moves, the session asks ``EngineSwitch.carry`` whether it is ready; when it is, the
game so far is replayed on it move by move (rolls drawn from the new engine's own chance
stream, each checked against the roll the game had, so the stream stands where it stood)
and the two positions are compared before the session goes on with the compiled state. The
two back ends play the same game move for move (differential tests), so nothing changes for
the players; a build that fails, or a replay that does not agree, leaves the game on the
interpreter, said once.

Sessions see the switch through two calls, ``open_switching`` and ``EngineSwitch.carry``;
how an engine is built stays below ``game_from_ir`` (the ``builder``), so a change to the
build does not reach the sessions.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Optional, Sequence

from .errors import MidgardcError
from .engines import compiled_is_cached, game_from_ir
from .runtime.game import Game, State

#: builds the compiled game for an IR (raises MidgardcError, e.g. BuildError, when it cannot)
Builder = Callable[[Any], Game]

BUILDING = "building the compiled engine... bots play on the interpreter meanwhile"

#: how long a session waits for a cached compiled engine before it starts on the
#: interpreter: it opens within it and the game starts on it, with nothing to say (an
#: engine the cache does not hold is not waited for: the board shows a second sooner)
GRACE_SECONDS = 1.0


def compiled_game(ir: Any) -> Game:
    return game_from_ir(ir, "compiled")


class SwitchError(MidgardcError):
    """The compiled engine did not reach the position the interpreter holds."""


class PendingEngine:
    """The compiled game of ``ir``, built by ``builder`` in a daemon thread (a process that
    ends meanwhile does not wait for it; the cache's writes are atomic)."""

    def __init__(self, ir: Any, builder: Builder = compiled_game):
        self._done = threading.Event()
        self.game: Optional[Game] = None
        self.error: Optional[str] = None  # why the build failed, in words
        self._thread = threading.Thread(target=self._build, args=(ir, builder), name="midgardc-build", daemon=True)
        self._thread.start()

    def _build(self, ir: Any, builder: Builder) -> None:
        try:
            self.game = builder(ir)
        except MidgardcError as exc:
            self.error = exc.message
        except ModuleNotFoundError:
            self.error = "the compiled engine is not part of this installation"
        except Exception as exc:  # a bug below: the game goes on, the reason is shown
            self.error = f"{type(exc).__name__}: {exc}"
        finally:
            self._done.set()

    def done(self) -> bool:
        return self._done.is_set()

    def wait(self, timeout: Optional[float] = None) -> bool:
        """Block until the build ends (True) or ``timeout`` seconds pass (False)."""
        return self._done.wait(timeout)


def open_switching(ir: Any, engine: str, builder: Optional[Builder] = None, grace: float = GRACE_SECONDS, cached: Callable[[Any], bool] = compiled_is_cached) -> tuple[Game, Optional[PendingEngine]]:
    """The game to play now and, for ``engine == "compiled"``, the compiled one on its way
    (None otherwise: the interpreter was asked for, or the compiled engine was in the
    cache (``cached(ir)``), ready within ``grace`` seconds and is the game to play now)."""
    if engine != "compiled":
        return game_from_ir(ir, "interpreted"), None
    pending = PendingEngine(ir, builder or compiled_game)
    if cached(ir) and pending.wait(grace) and pending.game is not None:
        return pending.game, None
    return game_from_ir(ir, "interpreted"), pending


def replay_drawn(game: Game, moves: Sequence[int], seed: int) -> State:
    """``moves`` (ids, rolls included) played from the start of ``game`` for ``seed``; each
    roll is drawn from the state's own chance stream and must be the roll in ``moves``, so
    the stream ends where the game's did. SwitchError on any disagreement."""
    state = game.new_state(seed)
    for i, move in enumerate(moves, start=1):
        if state.is_terminal():
            raise SwitchError(f"move {i} ({game.move_text(move)}): the game is already over on the {game.engine_name} engine")
        if state.is_chance_node():
            drawn = state.core.sample_chance()
            if drawn != move:
                raise SwitchError(f"move {i}: the {game.engine_name} engine rolled {game.move_text(drawn)} where the game rolled {game.move_text(move)}")
        elif move not in state.legal_move_ids():
            raise SwitchError(f"move {i} ({state.move_text(move)}) is not legal on the {game.engine_name} engine")
        state.apply_unchecked(move)
    return state


def same_position(a: State, b: State) -> bool:
    """Whether two states (of any back ends) show the same position: the whole state as
    JSON, every zone, the move list and the legal moves."""
    return a.to_json() == b.to_json() and a.zones() == b.zones() and a.texts == b.texts and a.legal_move_ids() == b.legal_move_ids()


class EngineSwitch:
    """What a session asks between moves: ``carry(state, seed)`` gives the state to go on
    with (the same one until the compiled engine is ready, then its twin on that engine,
    once). ``say`` is told when the game moves over, or why it stays."""

    def __init__(self, pending: Optional[PendingEngine], say: Callable[[str], None]):
        self.pending = pending
        self.say = say
        self.settled = pending is None  # nothing more will change

    @property
    def building(self) -> bool:
        return not self.settled

    def carry(self, state: State, seed: int) -> State:
        if self.settled or not self.pending.done():
            return state
        self.settled = True
        compiled = self.pending.game
        if compiled is None:
            self.say(f"note: the compiled engine could not be built ({self.pending.error}); the game stays on the interpreter")
            return state
        compiled.start = state.game.start  # a --position start: the same position object loads into either core
        try:
            moved = replay_drawn(compiled, state.history, seed)
            if not same_position(state, moved):
                raise SwitchError("the positions differ after the same moves")
        except SwitchError as exc:
            self.say(f"note: the compiled engine does not agree with the interpreter ({exc.message}); the game stays on the interpreter")
            return state
        self.say("the compiled engine is ready: the game goes on on it")
        return moved
