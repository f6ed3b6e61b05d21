"""UCT Monte-Carlo tree search whose rollouts are the engine's own random games.

The tree is over move ids and lives on engine cores (``clone``/``apply``/``legal``), not
``State`` objects, so an iteration costs one clone, one move and one call into the back
end for its rollouts; with the compiled engine those run in C without the GIL. The
interpreter runs the same rollouts with the same draws, so both back ends grow the same
tree and choose the same move.

Statistics are kept per node from the point of view of the player who moved into it
(its parent's player to move), as a reward in [0, 1] per rollout: the player's share of
the win by the game's ranks (``midgardc.runtime.results``): 1 for a win, 1/k for each of k
players tied for first, 0 for a loss (so 1/2 for a two-player draw, and a game stopped by
the ply limit counts 1/n for each of n players), i.e. ``(returns + 1) / n``. Any number of
players and extra turns work the same way.

Every random choice (which untried move to expand, each rollout's seed, ties for the final
move) comes from the ``Rng`` the match runner hands in, so a match replays exactly and
does not depend on ``--workers``. No tree is kept between moves.

Chance nodes (a roll due) are not searched over like moves: each time the descent reaches
one, an outcome is drawn from the roll's probabilities with the player's ``Rng`` and the
matching child is followed (made the first time), so outcomes are visited in proportion
to their chances. Rollouts give every game its own dice (the engine reseeds each
rollout's chance stream), so the search never sees the real game's future rolls.

Hidden information: the player is given a ``PlayerView``, never the state. When nothing is
hidden from it (``view.hides_something`` is False), the search above runs on a copy of the
state (``determinize``; no draw is made for it), exactly as before hidden items existed.
Otherwise it is single-observer information-set MCTS (SO-ISMCTS; Cowling, Powley and
Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012): the tree is
over move ids from the player's information set, each iteration samples a new full state
from the view (``view.determinize(rng)``), descends only through children whose move is
legal in that sample (expanding one legal untried move when there is one), and selects
with UCB1 where a child's parent count is its *availability* (the number of iterations in
which its move was legal where it was considered) instead of the parent's visits. Only the
player's real legal moves are candidates at the root.

Where the search runs: with the compiled engine, the whole search (both kinds above, the
samples of what the player cannot see included) runs in the compiled engine without the
GIL, on a pool of C structs (``mcts_search``/``mcts_search_set`` in
``midgardc/engine/generic.pyx``). ``search`` and ``search_information_set`` below are
its plain Python twin: the same algorithm with the same draws from the same ``Rng`` in the
same order, the same float arithmetic and the same tie-breaking (children in creation
order, the first best score wins), so a seed plays the same game on either engine. The
interpreter runs the twin; ``mcts-py`` (``PyTreeMctsPlayer``) runs the twin on any engine
(the tree in Python, rollouts in the engine), kept to measure the C search against.
"""

from __future__ import annotations

from math import log, sqrt
from typing import TYPE_CHECKING, Any, Optional

from ..runtime.results import summed_shares
from .params import FLOAT, INT, Param
from .view import as_view

if TYPE_CHECKING:  # pragma: no cover
    from ..runtime.game import State
    from ..runtime.rng import Rng
    from .view import PlayerView

PARAMS = (
    Param("iterations", INT, 1000, 1, 10_000_000, "tree iterations per move"),
    # c = 0.3 on rewards in [0, 1]: measured best of 0..2 at 500 iterations on the repo's
    # specs (benchmarks/README.md); the textbook sqrt(2) explores too much for them
    Param("c", FLOAT, 0.3, 0.0, 100.0, "UCB1 exploration constant"),
    Param("rollouts", INT, 1, 1, 100_000, "random games per iteration"),
)


def determinize(view: "PlayerView", rng: "Rng") -> Any:
    """A core to search from, as the view's player may know the state: a sample of what it
    cannot see (``PlayerView.determinize``); a copy of the state, drawing nothing from
    ``rng``, when nothing is hidden."""
    return view.determinize(rng).core


class Node:
    """A position in the tree: ``reward`` is summed for ``mover``, who moved into it. At a
    chance node ``untried`` stays empty and ``outcomes`` maps an outcome to its child."""

    __slots__ = ("core", "mover", "untried", "children", "moves", "visits", "reward", "outcomes")

    def __init__(self, core: Any, mover: int):
        self.core = core
        self.mover = mover
        self.children: list[Node] = []
        self.moves: list[int] = []  # the move into each child
        self.visits = 0
        self.reward = 0.0
        self.outcomes: Optional[dict[int, Node]] = {} if core.chance else None
        self.untried: list[int] = [] if core.chance else core.legal()


def draw_outcome(core: Any, chance: Any, rng: "Rng") -> int:
    """A due roll's outcome drawn by its probability (weights count equally likely draws)."""
    outcomes = core.legal()
    weights = [chance.weights[m - chance.base] for m in outcomes]
    pick = rng.below(sum(weights))
    for move, weight in zip(outcomes, weights):
        if pick < weight:
            return move
        pick -= weight
    raise AssertionError("unreachable: the weights add up to the total drawn below")


class MctsPlayer:
    #: whether the search may run in the compiled module (False: always the Python twin)
    in_c = True

    def __init__(self, name: str = "mcts", iterations: int = 1000, c: float = 0.3, rollouts: int = 1):
        self.name = name
        self.iterations = iterations
        self.c = c
        self.rollouts = rollouts

    def choose(self, view: "PlayerView", rng: "Rng") -> int:
        view = as_view(view)
        legal = view.legal_move_ids()
        if len(legal) == 1:
            return legal[0]
        children = self.root_children(view, rng)
        if not children:  # (no sample allowed any real move: a rule reads hidden items)
            return legal[rng.below(len(legal))]
        best = max(visits for _, visits, _ in children)
        tied = [m for m, visits, _ in children if visits == best]
        return tied[rng.below(len(tied))]

    def root_children(self, view: "PlayerView", rng: "Rng") -> list[tuple[int, int, float]]:
        """Search, then the root's children as (move, visits, reward), in creation order:
        in C when the engine's module has the search, else with the Python twin."""
        view = as_view(view)
        module = getattr(view.game.engine, "module", None)
        if self.in_c and module is not None and hasattr(module, "mcts_search"):
            if view.hides_something:
                base, groups = view.sampling_plan()
                state, children = module.mcts_search_set(base, groups, view.legal_move_ids(), self.iterations, self.c, self.rollouts, rng.state)
            else:
                state, children = module.mcts_search(determinize(view, rng), self.iterations, self.c, self.rollouts, rng.state)
            rng.state = state
            return children
        root = self.search(view, rng)
        return [(m, child.visits, child.reward) for m, child in zip(root.moves, root.children)]

    def search(self, view: "PlayerView", rng: "Rng") -> Any:
        """Grow a tree for the view's player (to move); returns its root (``moves`` and
        ``children`` side by side)."""
        view = as_view(view)
        if view.hides_something:
            return self.search_information_set(view, rng)
        rollouts = view.game.engine.rollouts
        n = self.rollouts
        c = self.c
        chance = view.game.ir.chance
        root = Node(determinize(view, rng), -1)
        for _ in range(self.iterations):
            node = root
            path = [root]
            # selection: UCB1 down through fully expanded nodes, chance nodes by their odds
            while (not node.untried and node.children) or node.outcomes is not None:
                if node.outcomes is not None:
                    if node.core.terminal:
                        break
                    move = draw_outcome(node.core, chance, rng)
                    child = node.outcomes.get(move)
                    if child is None:
                        core = node.core.clone()
                        core.apply(move)
                        child = node.outcomes[move] = Node(core, -1)  # nobody chose it
                        node.children.append(child)
                        node.moves.append(move)
                    node = child
                    path.append(node)
                    continue
                k = c * sqrt(log(node.visits))
                best: Optional[Node] = None
                top = -1.0
                for child in node.children:
                    v = child.visits
                    score = child.reward / v + k / sqrt(v)
                    if score > top:
                        best, top = child, score
                node = best  # type: ignore[assignment]
                path.append(node)
            # expansion: one untried move, drawn at random
            if node.untried:
                untried = node.untried
                i = rng.below(len(untried))
                move = untried[i]
                untried[i] = untried[-1]
                untried.pop()
                core = node.core.clone()
                mover = core.current
                core.apply(move)
                child = Node(core, mover)
                node.children.append(child)
                node.moves.append(move)
                node = child
                path.append(node)
            # simulation in the engine, then back-propagation of each mover's reward
            stats = rollouts(node.core, n, rng.next64())
            shares = summed_shares(stats)
            for visited in path:
                visited.visits += n
                if visited.mover >= 0:
                    visited.reward += shares[visited.mover]
        return root

    def search_information_set(self, view: "PlayerView", rng: "Rng") -> "SetNode":
        """SO-ISMCTS from the view (see the module docstring); returns the root."""
        rollouts = view.game.engine.rollouts
        n = self.rollouts
        c = self.c
        chance = view.game.ir.chance
        allowed = set(view.legal_move_ids())
        root = SetNode(-1)
        for _ in range(self.iterations):
            core = determinize(view, rng)
            node = root
            path = [root]
            while not core.terminal:
                if core.chance:  # a roll: an outcome by its odds, as in the search above
                    move = draw_outcome(core, chance, rng)
                    node = node.child(move, -1)
                    core.apply(move)
                    path.append(node)
                    continue
                legal = core.legal()
                if node is root:
                    legal = [m for m in legal if m in allowed]
                    if not legal:  # (a sample where none of the real moves is legal)
                        break
                index = node.index
                untried = [m for m in legal if m not in index]
                if untried:  # expansion: one legal untried move, drawn at random
                    move = untried[rng.below(len(untried))]
                    mover = core.current
                    child = node.child(move, mover)
                    for m in legal:  # every child whose move is legal here was available
                        i = index.get(m)
                        if i is not None:
                            node.children[i].avail += n
                    core.apply(move)
                    path.append(child)
                    break
                # selection: UCB1 over the children legal in this sample, by availability
                best: Optional[SetNode] = None
                top = -1.0
                pick = -1
                for m in legal:
                    child = node.children[index[m]]
                    v = child.visits
                    score = child.reward / v + c * sqrt(log(child.avail) / v)
                    if score > top:
                        best, top, pick = child, score, m
                for m in legal:
                    node.children[index[m]].avail += n
                core.apply(pick)
                node = best  # type: ignore[assignment]
                path.append(node)
            stats = rollouts(core, n, rng.next64())
            shares = summed_shares(stats)
            for visited in path:
                visited.visits += n
                if visited.mover >= 0:
                    visited.reward += shares[visited.mover]
        return root


class SetNode:
    """A node of the information-set tree: no position of its own (each iteration brings a
    sample); ``avail`` counts the iterations in which its move was legal at its parent."""

    __slots__ = ("mover", "children", "moves", "index", "visits", "reward", "avail")

    def __init__(self, mover: int):
        self.mover = mover
        self.children: list[SetNode] = []
        self.moves: list[int] = []  # the move into each child
        self.index: dict[int, int] = {}  # move -> its child's position
        self.visits = 0
        self.reward = 0.0
        self.avail = 0

    def child(self, move: int, mover: int) -> "SetNode":
        """The child reached by ``move`` (made the first time)."""
        i = self.index.get(move)
        if i is None:
            i = self.index[move] = len(self.children)
            self.children.append(SetNode(mover))
            self.moves.append(move)
        return self.children[i]


class PyTreeMctsPlayer(MctsPlayer):
    """``mcts-py``: the same search with its tree in Python on any engine (the twin above;
    rollouts still in the engine), as every engine ran it before the search moved to C."""

    in_c = False
