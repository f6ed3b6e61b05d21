"""The zone effects against their documented meaning (docs/spec-language.md, sections
"zones", "deal", "take", "pass_zone", "gather", "shuffle"), in both engines.

tests/data/zone_rules.yaml has one always-legal action per rule. A small model written
here from the documentation alone — the chance stream Rng(derive_seed(seed,
CHANCE_STREAM)), Fisher-Yates from the end at the start (zones in declaration order, seats
in order) and for shuffle, random draws from an unordered zone that walk the kinds in
declared order — predicts every zone after every move of long random sequences.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from midgardc.ir.nodes import CHANCE_STREAM
from midgardc.engines import load
from midgardc.runtime.rng import Rng, derive_seed

RULES = str(Path(__file__).parent / "data" / "zone_rules.yaml")
KINDS = ["x", "y", "z"]
TEXT = {"x": "X", "y": "Y", "z": "Z"}
N = 3

_games: dict = {}


@pytest.fixture(params=["interpreted", "compiled"])
def game(request):
    if request.param not in _games:
        _games[request.param] = load(RULES, engine=request.param)
    return _games[request.param]


class Model:
    """The zones of zone_rules.yaml, as the documentation says they behave."""

    def __init__(self, seed: int):
        self.rng = Rng(derive_seed(seed, CHANCE_STREAM))
        self.pile = self.shuffled(["x", "x", "y", "y", "z", "z"])  # "pile" is declared first
        self.sack = {"x": 3, "y": 1, "z": 2}  # unordered: not shuffled
        self.mine: list[list[str]] = [self.shuffled([]) for _ in range(N)]  # empty piles draw nothing
        self.box = [dict.fromkeys(KINDS, 0) for _ in range(N)]
        self.mover = 0
        self.ply = 0

    def shuffled(self, pile: list[str]) -> list[str]:
        for i in range(len(pile) - 1, 0, -1):  # Fisher-Yates from the end
            j = self.rng.below(i + 1)
            pile[i], pile[j] = pile[j], pile[i]
        return pile

    def draw(self) -> str:
        """One random item of the sack: r = below(size), kinds walked in declared order."""
        r = self.rng.below(sum(self.sack.values()))
        for k in KINDS:
            if r < self.sack[k]:
                self.sack[k] -= 1
                return k
            r -= self.sack[k]
        raise AssertionError

    def play(self, move: str) -> None:
        m = self.mover
        name, _, arg = move.partition(":")
        kind = next((k for k, t in TEXT.items() if t == arg), None)
        if name in ("deal2", "deal_all"):  # from the top, to the bottom; fewer when it runs out
            for _ in range(2 if name == "deal2" else 99):
                if self.pile:
                    self.mine[m].append(self.pile.pop(0))
        elif name == "draw3":
            for _ in range(3):
                if sum(self.sack.values()):
                    self.box[m][self.draw()] += 1
        elif name == "back":  # the copy nearest the top, to the bottom of the pile
            if kind in self.mine[m]:
                self.mine[m].remove(kind)
                self.pile.append(kind)
        elif name == "stash":  # up to two copies
            for _ in range(2):
                if self.box[m][kind] > 0:
                    self.box[m][kind] -= 1
                    self.sack[kind] += 1
        elif name == "rotate":  # seat p's zone becomes seat (p + step) mod n's, all at once
            self.box = [self.box[(q + 1) % N] for q in range(N)]  # step -1
            self.mine = [self.mine[(q - 2) % N] for q in range(N)]  # step 2
        elif name == "collect":  # the mover's pile, top first, under the game pile
            self.pile.extend(self.mine[m])
            self.mine[m] = []
        elif name == "sweep":  # every player's box, in seat order, kind by kind
            for p in range(N):
                for k in KINDS:
                    self.sack[k] += self.box[p][k]
                    self.box[p][k] = 0
        elif name == "turn":  # counts above the game's 12 items count as 12
            count = min(self.ply * 10**12 + 1, 12)
            for _ in range(count):
                if self.mine[m]:
                    self.mine[m].append(self.mine[m].pop(0))
            for _ in range(count):
                if "x" in self.mine[m]:
                    self.mine[m].remove("x")
                    self.mine[m].append("x")
        elif name == "mix":
            self.shuffled(self.mine[m])
        elif name == "cut":
            self.shuffled(self.pile)
        self.mover = (m + 1) % N
        self.ply += 1

    def zones(self, players: tuple[str, ...]) -> dict:
        return {
            "pile": {"game": self.pile},
            "sack": {"game": self.sack},
            "mine": dict(zip(players, self.mine)),
            "box": dict(zip(players, self.box)),
        }

    def top_is_x_legal(self) -> bool:
        return bool(self.pile) and self.pile[0] == "x" and bool(self.mine[self.mover])


@pytest.mark.parametrize("seed", [0, 1, 2, 99, 2**63 + 1])
def test_every_effect_does_what_the_documentation_says(game, seed):
    model = Model(seed)
    state = game.new_state(seed)
    pick = random.Random(seed)
    for _ in range(400):
        assert state.zones() == model.zones(game.players)
        legal = [m.text for m in state.legal_moves()]
        assert ("top_is_x" in legal) == model.top_is_x_legal()
        assert "sizes" in legal  # items are conserved: 12 in all, always
        move = pick.choice(legal)
        state.apply(move)
        model.play(move)
    assert state.zones() == model.zones(game.players)


def test_the_start_is_the_documented_shuffle(game):
    for seed in range(20):
        assert game.new_state(seed).zones() == Model(seed).zones(game.players)
