"""Lookahead legality and the position history in Python: a move is legal only if its
``legal_after`` condition holds on a copy of the state after it (``_after_ok``), and the
positions reached are counted by their hash (``repeated()``, ``times_seen()``). The hash
is ``midgardc/ir/history.py``'s; its board part is kept incrementally by ``_set``, which
every change of a board cell goes through. Generated code: ``compiler/emit/history.py``
and ``templates/history.pyx.j2``."""

from __future__ import annotations

from ...ir.history import board_hash, counter_key, hand_key, height_key, turn_key


class History:
    """Part of ``Core`` (``midgardc/runtime/interpreter.py``): the lookahead and the history."""

    __slots__ = ()

    # -- the board, cell by cell (the hash's board part follows every change) -----------

    def _set(self, cell: int, piece: int) -> None:
        """Piece id ``piece`` (0: empty) on board cell ``cell``."""
        keys = self.prog.zkeys
        if keys is not None:
            old = self.board[cell]
            if old > 0:
                self.zboard ^= keys[cell][old]
            if piece > 0:
                self.zboard ^= keys[cell][piece]
        self.board[cell] = piece

    # -- the history --------------------------------------------------------------------

    def _start_history(self) -> None:
        """The history of a game that starts here: the board part from scratch, and this
        position recorded once."""
        ir = self.prog.ir
        self.zboard = board_hash(self.board, self.prog.n, ir.n_players * ir.n_kinds + 1) if self.prog.zkeys is not None else 0
        self.seen = {}
        self.order = []  # the hashes recorded, in the order reached (moves_since_first_seen)
        self.looking = 0
        if ir.history is not None:
            self._record()

    def _record(self) -> None:
        key = self.position_key(self.current)
        self.seen[key] = self.seen.get(key, 0) + 1
        self.order.append(key)

    def position_key(self, turn: int) -> int:
        """The hash of the position as it stands with ``turn`` to move (see ir/history.py)."""
        ir = self.prog.ir
        hist = ir.history
        h = 0
        if hist.board:
            h = self.zboard
            if ir.stacks:
                for c in range(self.prog.n):
                    if self.heights[c] >= 2:
                        h ^= height_key(c, self.heights[c])
        rows = ir.n_players + 1
        for i in hist.counters:
            for r in (range(ir.n_players) if (not ir.counter_scope or ir.counter_scope[i] == "player") else (ir.n_players,)):
                h ^= counter_key(i, r, rows, self.counters[r][i])
        if hist.hands:
            nk = ir.n_kinds
            for p in range(ir.n_players):
                for k in range(nk):
                    h ^= hand_key(p, k, nk, self.hands[p][k])
        if hist.turn:
            h ^= turn_key(turn)
        return h

    def times_seen(self) -> int:
        """How many times the position has been reached, this time included; in a
        lookahead, the position the move would make (with the player who would move next),
        counted as if it were recorded."""
        if self.looking:
            return self.seen.get(self.position_key(self._next_mover()), 0) + 1
        return self.seen.get(self.position_key(self.current), 0)

    def moves_since_first_seen(self) -> int:
        """How many moves ago the position was first reached (0 the first time: each move
        records one position); in a lookahead, the position the move would make."""
        if self.looking:
            key, now = self.position_key(self._next_mover()), len(self.order)
        else:
            key, now = self.position_key(self.current), len(self.order) - 1
        try:
            return now - self.order.index(key)
        except ValueError:
            return 0

    def _next_mover(self) -> int:
        """Who moves after the move being made (as ``apply`` passes the turn)."""
        if self.again >= 2:
            return self.again - 2
        if self.again == 0:
            return (self.current + 1) % self.prog.ir.n_players
        return self.current

    # -- lookahead ----------------------------------------------------------------------

    def _after_ok(self, index: int, env: dict) -> bool:
        """Whether action ``index``'s ``legal_after`` holds on the state its move, bound by
        ``env``, would leave: a copy of this state (sharing the history, which a lookahead
        never writes) runs the action's effects and triggers — those of them that can
        change what the condition reads, as the compiled engine's lookahead does — the
        condition is tested on it, and the copy is dropped."""
        look = type(self)(self.prog, self, look=True)
        piece = self.prog.look_slices[index]
        if piece is None:
            look._act(self.prog.ir.actions[index], index, dict(env))
        else:  # only what can change what legal_after reads (ir/lookslice.py)
            local = dict(env)
            look.run_effects(piece.effects, local)
            for t_index, kept in piece.triggers:
                when = self.prog.triggers[t_index][1]
                if when is None or when(look, local):
                    look.run_effects(kept, local)
        return bool(self.prog.afters[index](look, env))

    def _can_move_after(self) -> bool:
        """can_move() in a ``legal_after``, on the copy the move made: whether the player
        who would move next (as ``apply`` passes the turn) has a legal move there. Those
        moves are listed with their own ``where`` and ``legal_after``, but the lookahead
        is bounded at one move: a can_move() inside their ``legal_after`` (a copy made in
        this listing, ``looking == 2``) counts as true, so no third move is listed. The
        end conditions are not checked on the copy."""
        if self.looking >= 2:
            return True
        saved = (self.current, self.last, self.again, self._legal)
        self.last, self.current, self.again = self.current, self._next_mover(), 0
        found = bool(self._generate())
        self.current, self.last, self.again, self._legal = saved
        return found
