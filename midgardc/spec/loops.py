"""Lowering of ``repeat``, the bounded loop in effects: ``repeat: {times, while, limit,
effects}`` runs its effects round after round, at most ``limit`` rounds (a number the spec
declares), ``times`` rounds when given (counted once, before the first round), and only
while the ``while`` condition holds (checked before each round).

It needs no construct of its own in the back ends: it is a ``for_each`` over the round
numbers 1 .. min(times, limit) whose ``where`` is the condition. A round whose condition
fails runs nothing and so changes nothing, so every later round fails too: skipping
those rounds is stopping the loop."""

from __future__ import annotations

from ..errors import SpecError
from ..ir.nodes import BOOL, INT, Binary, Call, Const, Domain, Effect, ForEach
from .yamlpos import YMap

MAX_REPEAT = 4096  # the largest repeat.limit
ROUND_VAR = "$round"  # the round number (not a name a spec can write)


def eff_repeat(self, body: YMap, scope: dict[str, str]) -> Effect:
    limit = self.scalar(body["limit"], int, "repeat.limit", 1, MAX_REPEAT)
    if "times" not in body and "while" not in body:
        raise SpecError("repeat needs 'times' (how many rounds), 'while' (a condition checked before each round), or both", body.pos, "e.g. repeat: {while: \"hand > 0\", limit: 48, effects: [...]}")
    rounds: object = Const(limit, INT)
    if "times" in body:
        times = self.condition(body["times"], scope, INT)
        if isinstance(times, Const):
            rounds = Const(min(times.value, limit), INT)
        else:
            rounds = Call("either", (Binary("<", times, Const(limit, INT), BOOL), times, Const(limit, INT)), INT)
    cond = self.condition(body["while"], scope, BOOL) if "while" in body else None
    effects = self.lower_effects(body["effects"], scope, "repeat")
    return ForEach(Domain("range", (Const(1, INT), rounds), INT), ROUND_VAR, cond, effects)
