"""A playthrough: one random game written out as text, step by step (OpenSpiel's golden
"playthrough" files).

The text records, for every move of the game, the board, who is to move (or the roll's
outcomes and their probabilities), the legal moves, what each player observes and the move
taken, then the result. Golden copies kept in the repository pin the meaning of every spec
on both back ends: the same spec, variant, player count and seed must give exactly the same
text on the interpreter and on the compiled engine, today and after any refactor. A rule
change that is intended shows up as a diff to review when the files are regenerated.

The game is the back end's own random playout (``playout_trace(seed)``): a uniformly random
legal move drawn from ``Rng(seed)`` for players (by rejection when the spec has a
``legal_after``: ``interpreter.random_move``), the state's own chance stream (seeded by
``new_state(seed)``) for rolls. Everything printed is deterministic: no floats that could
round differently (probabilities are exact fractions), no time, no addresses.

Long games would make long files, so the detail is capped by a ``Detail`` policy: the first
``full`` steps and every ``every``-th step after are written in full; the others in one or two
lines (who moved, the number of legal moves, the move). The move taken is always written, so
the whole game can be replayed from any file. With a ``budget`` (the golden files have one)
the text stays under that many bytes: ``every`` grows by 5 (beyond 50: doubles) until it
fits (a game of a few hundred sub-moves would otherwise repeat its long observation, move
history included, every 10 steps), and when even that is too long the opening written in
full gets shorter (halved, down to step 0 alone); a game that fits the first time is
written exactly as without a budget.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Optional


if TYPE_CHECKING:  # pragma: no cover
    from .game import Game, State

FORMAT_VERSION = 1


@dataclass(frozen=True)
class Detail:
    """Which steps are written in full: steps 0..full-1, then every ``every``-th step (and
    the final position always). ``full=None`` writes every step in full."""

    full: Optional[int] = 20
    every: int = 10
    budget: Optional[int] = None  # the most bytes a playthrough may take (see above)

    def is_full(self, step: int) -> bool:
        return self.full is None or step < self.full or step % self.every == 0

    def describe(self) -> str:
        if self.full is None:
            return "every step in full"
        return f"steps 0-{self.full - 1} and every {self.every}th step in full; the others in one line: mover, move, number of legal moves"


GOLDEN_BUDGET = 180_000  # bytes of a golden file (every one written before this fits)
DEFAULT_DETAIL = Detail(budget=GOLDEN_BUDGET)


def spec_label(path: str, root: Optional[str] = None) -> str:
    """The spec's path as written in a playthrough: relative to ``root`` (default: the
    current directory) when it lies inside it, with forward slashes on every system, so a
    golden file does not depend on where the repository was checked out."""
    full = os.path.abspath(path)
    base = os.path.abspath(root or os.getcwd())
    rel = os.path.relpath(full, base)
    if rel.startswith(os.pardir):
        rel = full
    return rel.replace(os.sep, "/")


def playthrough(game: "Game", seed: int = 0, spec: Optional[str] = None, detail: Detail = DEFAULT_DETAIL, on_step: Optional[Callable[[int], None]] = None) -> str:
    """One random game of ``game`` from ``seed`` as text (see the module docstring).

    ``spec`` is the spec path printed in the header (default: ``game.ir.source`` relative to
    the current directory). ``on_step(step)`` is called as each step is written (a long
    game's progress; a text over the budget is written again, so steps may come twice)."""
    text = _playthrough(game, seed, spec, Detail(detail.full, detail.every), on_step)
    steps = text.count("\nstep ") + text.count("\n## step ")
    while detail.budget is not None and detail.full is not None and len(text.encode()) > detail.budget:
        if detail.every <= steps:  # fewer steps in full after the opening ones
            detail = Detail(detail.full, detail.every + 5 if detail.every < 50 else detail.every * 2, detail.budget)
        elif detail.full > 1:  # then a shorter opening (large observations)
            detail = Detail(max(1, detail.full // 2), detail.every, detail.budget)
        else:  # step 0 and the end alone: as small as it gets
            break
        text = _playthrough(game, seed, spec, Detail(detail.full, detail.every), on_step)
    return text


def _playthrough(game: "Game", seed: int, spec: Optional[str], detail: Detail, on_step: Optional[Callable[[int], None]] = None) -> str:
    ir = game.ir
    out: list[str] = _header(game, seed, spec if spec is not None else spec_label(ir.source), detail)
    state = game.new_state(seed)
    # the moves of the back end's own random game (a roll's outcome among them, which the
    # state's chance stream draws alike): a spec with a legal_after draws by rejection
    # (interpreter.random_move), not from the legal list written at each step
    trace = iter(game.engine.playout_trace(seed, state.core))
    step = 0
    memo: dict = {}  # the last outcome listing written in full, and its step
    while not state.is_terminal():
        full = detail.is_full(step)
        if full:
            out += ["", f"## step {step} (ply {state.ply()})"]
        else:
            out.append(f"step {step} (ply {state.ply()}): ")  # the step's function ends the line
        drawn = next(trace)
        if state.is_chance_node():
            _chance_step(state, step, full, out, memo)
        else:
            _player_step(state, drawn, full, out)
        if on_step is not None:
            on_step(step)
        step += 1
    out.append("")
    out.append(f"## end after step {step} (ply {state.ply()})")
    out += _position(state)
    out += _result(state)
    return "\n".join(out) + "\n"


def _header(game: "Game", seed: int, spec: str, detail: Detail) -> list[str]:
    ir = game.ir
    chance = ir.chance
    dice = "none" if chance is None else f"{chance.name}: {chance.dice} dice of faces {' '.join(chance.texts)} ({'ordered' if chance.ordered else 'unordered'}; {len(chance.outcomes)} outcomes of {chance.n_draws} equally likely throws)"
    return [
        f"# midgardc playthrough (format {FORMAT_VERSION}): one uniformly random game, every step recorded.",
        "# Generated; do not edit. Regenerate with `midgardc playthrough --all --update` (or `make playthroughs`)",
        "# and review the diff: it is the change in the game's meaning.",
        "",
        f"spec: {spec}",
        f"variant: {ir.variant or '-'}",
        f"player_count: {ir.n_players}",
        f"seed: {seed}",
        f"title: {ir.title}",
        f"players: {', '.join(ir.players)}",
        f"distinct_moves: {ir.n_moves}",
        f"chance: {dice}",
        f"ranking: {', '.join(k.name for k in ir.ranking) or '-'}",
        f"detail: {detail.describe()}",
    ]


def _player_step(state: "State", drawn: int, full: bool, out: list[str]) -> None:
    """Write a player's step and play the move the playout drew (``drawn``, legal here)."""
    legal = state.legal_moves()
    move = next(m for m in legal if m.id == drawn)
    who = state.current_player_name()
    if full:
        out += _position(state)
        out.append(f"current: {who}")
        out.append(f"legal ({len(legal)}): {' '.join(m.text for m in legal)}")
        out += _observations(state)
        out.append(f"move: {move.text}")
    else:
        out[-1] += f"{who} plays {move.text} (of {len(legal)} legal)"
    state.apply_unchecked(move.id)


def _chance_step(state: "State", step: int, full: bool, out: list[str], memo: dict) -> None:
    """Write a roll (its outcomes with exact probabilities; a listing the same as the last
    one written refers to it, as most rolls offer every outcome), then roll it with the
    state's own chance stream."""
    chance = state.game.ir.chance
    weights = state.chance_weights()
    who = state.current_player_name()
    if full:
        out += _position(state)
        out.append(f"current: chance ({chance.name} for {who})")
        total = sum(w for _, w in weights)  # (a partial roll throws fewer dice)
        listing = " ".join(f"{m.text}={w}/{total}" for m, w in weights)
        if listing == memo.get("outcomes"):
            out.append(f"outcomes ({len(weights)}): the same as at step {memo['outcomes_step']}")
        else:
            out.append(f"outcomes ({len(weights)}): {listing}")
            memo.update(outcomes=listing, outcomes_step=step)
        out += _observations(state)
    outcome = state.sample_chance()
    if full:
        out.append(f"outcome: {outcome.text}")
    else:
        out[-1] += f"chance rolls {outcome.text} for {who} (of {len(weights)} outcomes)"


def _position(state: "State") -> list[str]:
    from .view import render_text

    return ["board:"] + ["  " + line if line else "" for line in render_text(state, color=False).split("\n")]


def _observations(state: "State") -> list[str]:
    """Each player's observation as compact JSON (``observation_string``'s form), without
    the ``observer`` and ``legal`` fields (the step lists the legal moves once); one that is
    the same as an earlier player's says so instead of repeating it, so a difference — a
    hidden zone, or a leak — stands out."""
    game = state.game
    seen: list[tuple[str, str]] = []
    lines = []
    for p, name in enumerate(game.players):
        obs = state.observation(p)
        obs.pop("observer", None)
        obs.pop("legal", None)
        text = json.dumps(obs, separators=(",", ":"), sort_keys=True)
        same = next((other for other, t in seen if t == text), None)
        lines.append(f"observation[{name}]: " + (f"same as {same}'s" if same else text))
        seen.append((name, text))
    return lines


def _result(state: "State") -> list[str]:
    from .view import result_text

    ir = state.game.ir
    winner = state.winner()
    keys = state.keys()
    names = [k.name for k in ir.ranking]
    returns = state.returns()
    lines = [
        f"winner: {ir.players[winner]}" if winner is not None else f"winner: {state.outcome()} ({result_text(state)})" if state.outcome() != "draw" else "winner: draw",
        "keys: " + "; ".join(f"{p} " + ", ".join(f"{n} {v}" for n, v in zip(names, ks)) for p, ks in zip(ir.players, keys)),
        "returns: " + ", ".join(f"{p} {r:+g}" for p, r in zip(ir.players, returns)),
        f"moves ({len(state.history)}): {' '.join(state.texts)}",
    ]
    return lines


# -- golden files -----------------------------------------------------------------------------

GOLDEN_SEED = 0
GOLDEN_SUFFIX = ".txt"


@dataclass(frozen=True)
class Target:
    """One game a golden playthrough is kept for: a spec file, a variant (None: the base
    game) and a player count (None: the spec declares no counts and is played by its listed
    players)."""

    spec: str  # the spec's path as given (relative to the project root for golden files)
    variant: Optional[str]
    count: Optional[int]

    def golden_name(self, specs_dir: str = "specs") -> str:
        """``<spec path under specs_dir, no extension>[__<variant>][__<N>p].txt``, e.g.
        ``classics/hex__size-9.txt`` or ``dice__3p.txt``."""
        stem = os.path.splitext(os.path.relpath(self.spec, specs_dir))[0].replace(os.sep, "/")
        return stem + (f"__{self.variant}" if self.variant else "") + (f"__{self.count}p" if self.count else "") + GOLDEN_SUFFIX

    def command(self) -> str:
        """The command that writes this target's playthrough (what a missing file needs)."""
        args = [self.spec] + (["--variant", self.variant] if self.variant else []) + (["--player-count", str(self.count)] if self.count else [])
        return "midgardc playthrough " + " ".join(args)


def golden_targets(spec_paths: list[str]) -> list[Target]:
    """Every spec, each of its variants (the base game first) and each player count it
    declares for that variant: the games that must each have a golden playthrough."""
    from ..spec.lower import list_player_counts, list_variants

    out = []
    for spec in spec_paths:
        for variant in [None, *list_variants(spec)]:
            for count in list(list_player_counts(spec, variant)) or [None]:
                out.append(Target(spec, variant, count))
    return out


def golden_files(directory: str) -> list[str]:
    """The golden files under ``directory``, as names relative to it (forward slashes), sorted."""
    out = []
    for dirpath, dirnames, filenames in os.walk(directory):
        dirnames.sort()
        for f in filenames:
            if f.endswith(GOLDEN_SUFFIX):
                out.append(os.path.relpath(os.path.join(dirpath, f), directory).replace(os.sep, "/"))
    return sorted(out)


def first_difference(expected: str, got: str) -> str:
    """Where two playthroughs part, for people: the first line that differs, both ways."""
    a, b = expected.split("\n"), got.split("\n")
    for i, (x, y) in enumerate(zip(a, b), start=1):
        if x != y:
            return f"line {i}:\n  golden:  {_clip(x)}\n  now:     {_clip(y)}"
    if len(a) == len(b):
        return "no difference"
    shorter, n = ("now", len(b)) if len(b) < len(a) else ("golden", len(a))
    return f"the {shorter} text ends after line {n}"


def _clip(line: str, width: int = 160) -> str:
    return line if len(line) <= width else line[: width - 3] + "..."
