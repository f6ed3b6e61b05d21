"""Compound moves in Python (``midgardc/ir/compound.py``): the whole moves a first step
starts, found by a depth-first search over the steps on copies of the state, their ids,
and a whole move played step by step; for a move of two steps (``then:``), the state a
first step leaves, where its second steps are listed (``rules/moves.py``). Generated code:
``midgardc.compiler.emit.compound``."""

from __future__ import annotations


class Compound:
    """Part of ``Core`` (``midgardc/runtime/interpreter.py``): compound moves."""

    __slots__ = ()

    def _binding(self, ai: int, env: dict) -> int:
        """The mixed-radix index of a step's parameter values (first parameter slowest)."""
        sizes = self.prog.sizes[ai]
        b = 0
        for j, p in enumerate(self.prog.ir.actions[ai].params):
            b = b * sizes[j] + env[p.name] - (p.lo if p.type == "int" else 0)
        return b

    def _unbind(self, ai: int, b: int) -> dict:
        sizes = self.prog.sizes[ai]
        params = self.prog.ir.actions[ai].params
        env = {}
        for j in range(len(params) - 1, -1, -1):
            v = b % sizes[j]
            b //= sizes[j]
            env[params[j].name] = v + params[j].lo if params[j].type == "int" else v
        return env

    def _chain_leaf(self, ai: int, env: dict, out: list, best: list) -> None:
        """A legal first step: one id per whole move it starts (at most ``ways``). With
        ``continue.most``, ``best`` holds the greatest value of the action's whole moves
        listed so far and where they start in ``out``: a greater value drops them."""
        action = self.prog.ir.actions[ai]
        ways = action.chain.ways
        first = action.base + self._binding(ai, env) * ways
        value, n = self._count_paths(ai, env, 1)
        if action.chain.most is not None:
            if best[0] is not None and value < best[0]:
                return
            if best[0] is None or value > best[0]:
                del out[best[1] :]
                best[0] = value
        n = min(n, ways)
        out.extend(range(first, first + n))

    def _steps_from(self, ai: int, value: int) -> list[dict]:
        """The legal steps of action ``ai`` here whose first parameter is ``value``, ascending."""
        action = self.prog.ir.actions[ai]
        out: list[int] = []
        self._list_action(ai, action, out, {}, steps=True)
        first = action.params[0]
        envs = [self._unbind(ai, m - action.base) for m in out]
        return [e for e in envs if e[first.name] == value]

    def _after_first(self, ai: int, env: dict):
        """A copy of this state after a move of two steps' first step (``then:``): its
        share of the action's effects (it shares the history)."""
        action = self.prog.ir.actions[ai]
        look = type(self)(self.prog, self, look=True)
        look.run_effects(action.effects[: action.then.effects], dict(env))
        return look

    def _after_step(self, ai: int, env: dict):
        """A copy of this state after the step's effects (it shares the history)."""
        look = type(self)(self.prog, self, look=True)
        look.run_effects(self.prog.ir.actions[ai].effects, dict(env))
        return look

    def _next_steps(self, ai: int, env: dict, depth: int) -> list[dict]:
        """The steps that must follow a step (``depth`` steps made), on its state (self)."""
        chain = self.prog.ir.actions[ai].chain
        if depth >= chain.limit:
            return []
        if self.prog.chain_going[ai] is not None and not self.prog.chain_going[ai](self, env):
            return []
        return self._steps_from(ai, self.prog.chain_value[ai](self, env))

    def _count_paths(self, ai: int, env: dict, depth: int) -> tuple[int, int]:
        """The greatest ``continue.most`` of the whole moves going on from the step
        ``env`` (the ``depth``-th of its move, made on self), and how many reach it (0 and
        all of them without ``most``)."""
        look = self._after_step(ai, env)
        nexts = look._next_steps(ai, env, depth)
        if not nexts:
            most = self.prog.chain_most[ai]
            return (most(look, env) if most is not None else 0), 1
        best, count = None, 0
        for e in nexts:
            value, n = look._count_paths(ai, e, depth + 1)
            if best is None or value > best:
                best, count = value, n
            elif value == best:
                count += n
        return best, count

    def _path(self, ai: int, env: dict, k: int) -> list[dict]:
        """The k-th whole move (from 0, depth first) starting with the step ``env``, among
        those that reach the greatest ``continue.most`` of its whole moves (all of them
        without ``most``)."""
        target, _ = self._count_paths(ai, env, 1)
        path = [env]
        state = self
        while True:
            look = state._after_step(ai, path[-1])
            nexts = look._next_steps(ai, path[-1], len(path))
            if not nexts:
                return path
            for e in nexts:
                value, n = look._count_paths(ai, e, len(path) + 1)
                if value != target:
                    continue
                if k < n:
                    break
                k -= n
            else:  # (an id past the moves this step starts: not legal, never asked)
                raise ValueError("no such compound move")
            path.append(e)
            state = look

    def compound_path(self, move: int) -> list[dict]:
        """The steps (parameter values by name) of a compound move legal here."""
        action, ai, first, k = self._compound_of(move)
        return self._path(ai, first, k)

    def _compound_of(self, move: int):
        for ai, action in enumerate(self.prog.ir.actions):
            if action.chain is not None and action.base <= move < action.base + action.size:
                offset = move - action.base
                return action, ai, self._unbind(ai, offset // action.chain.ways), offset % action.chain.ways
        raise ValueError(f"move id {move} is not a compound move")

    def _act_compound(self, action, index: int, move: int) -> None:
        """A whole compound move: every step's effects, then the triggers once with the
        last step's parameters."""
        _, _, first, k = self._compound_of(move)
        path = self._path(index, first, k)
        for env in path:
            self.run_effects(action.effects, dict(env))
        env = dict(path[-1])
        for trig, when in self.prog.triggers:
            if trig.after and index not in trig.after:
                continue
            if when is None or when(self, env):
                self.run_effects(trig.effects, env)
