"""A spec that validates must build: every board construct on every topology.

One small generated spec per topology (triangle, square, square with wrap, hex, graph)
combines the constructs the validator accepts there: plain pieces and stacks (`place` with
`height`), `move` with capture to hand, `remove` with `each`, `group`, `neighbours`,
`degree`, board props, triggers with `extra_turn`, `for_each` and `if`, counters of other
players; and on boards with directions also `step`, `onboard`, `directions`, `ray`,
`room`, pushes, `line`, `flanked` and `flip_flanked`. Each spec validates, builds (one
Cython build per topology, cached by content hash) and plays random games move for move
the same on both back ends.

The bug this guards against: a graph board with stacks validated and played on the
interpreter, but the generated stack code read the direction table graph boards lack, so
`build` failed inside Cython (tests/data/graph_stacks.yaml is that spec).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from midgardc.runtime.game import replay
from midgardc.engines import load
from midgardc.runtime.rng import Rng
from midgardc.spec.lower import load_game_ir
from test_differential import check_games

GRAPH_STACKS = str(Path(__file__).parent / "data" / "graph_stacks.yaml")

BOARDS = {
    "triangle": ("triangle", "  size: 4\n  affixed: {left: \"L{k}\"}\n", "2.2", False),
    "square": ("square", "  rows: 4\n  cols: 4\n", "b2", True),
    "torus": ("square", "  rows: 4\n  cols: 4\n  wrap: true\n", "b2", True),
    "hex": ("hex", "  rows: 4\n  cols: 4\n", "b2", True),
    "graph": (
        "graph",
        "  nodes: [a, b, c, d, e, f]\n  edges: [[a, b], [b, c], [c, d], [d, e], [e, a], [a, f], [c, f]]\n",
        "b",
        False,
    ),
}

COMMON = """\
midgardc: 1

game:
  name: matrix-{name}
  title: Construct matrix on a {name} board (a test, not a game)
  players: [red, blue, green]
  max_plies: 48

pieces:
  stone: {{hand: 30}}
  tower: {{hand: 12}}

counters:
  score: 0
  turns: 0

board:
  topology: {topology}
{board}  props:
    bonus: ["{bonus}"]

define:
  near(cell c, player p): "count(x in neighbours(c): owner(x) == p)"
  chain(cell c): "count(x in group(c): true)"
{defines}
actions:
  drop:
    params: {{c: cell}}
    where: "empty(c) and degree(c) >= 1"
    effects:
      - place: {{piece: stone, at: c}}
      - remove: {{each: "x in neighbours(c)", where: "owner(x) != mover and near(x, mover) >= 2", at: x, to: out}}
    notation: "{{c}}"
  stack:
    params: {{c: cell, h: "1..3"}}
    where: "empty(c) and (all x in neighbours(c): height(x) != h)"
    effects:
      - place: {{piece: tower, at: c, height: h}}
    notation: "{{c}}x{{h}}"
  glide:
    params: {{f: cell, t: cell}}
    where: "owner(f) == mover and owner(t) != mover and (any x in neighbours(f): x == t) and ply % 2 == 0"
    effects:
      - move: {{from: f, to: t, capture: hand}}
    notation: "{{f}}-{{t}}"
  lift:
    params: {{c: cell}}
    where: "owner(c) == mover and (chain(c) >= 3 or height(c) >= 3)"
    effects:
      - remove: {{at: c}}
    notation: "lift:{{c}}"
{actions}
triggers:
  bonus:
    after: [drop, stack]
    when: "bonus(c) and turns(mover) < 20"
    effects:
      - add: {{counter: score, to: 2}}
      - extra_turn: {{}}
  tally:
    effects:
      - add: {{counter: turns, to: 1}}
      - for_each:
          each: q in players
          where: "q != mover"
          effects:
            - if:
                when: "hand(q, stone) + hand(q, tower) > hand(mover, stone) + hand(mover, tower)"
                then:
                  - add: {{counter: score, of: q, to: 1}}
                else:
                  - add: {{counter: score, of: q, to: "either(abs(hand(q, tower) - 6) <= 2, 1, 0)"}}
{triggers}
end:
  when:
    - "score(last_player) >= 30"
  no_moves: pass

ranking:
  score: "score(p)"
  towers: "sum(c in cells: height(c) * count(x in range(1, 1): owner(c) == p))"
  chains: "max(c in cells: either(owner(c) == p, chain(c), 0))"
"""

DIRECTIONAL_DEFINES = """\
  reach(cell c): "count(x in ray(c, {east}): owner(x) == mover)"
  edge(cell c): "any d in directions: not onboard(step(c, d))"
"""

DIRECTIONAL_ACTIONS = """\
  shove:
    params: {{c: cell, d: dir}}
    where: "occupied(c) and room(c, d) and ply % 3 == 1"
    effects:
      - place: {{piece: tower, at: c, height: 1, push: d}}
    notation: "push:{{c}}:{{d}}"
  flip:
    params: {{c: cell}}
    where: "empty(c) and (any d in directions: flanked(c, d) > 0)"
    effects:
      - place: {{piece: stone, at: c}}
      - flip_flanked: {{at: c}}
    notation: "flip:{{c}}"
"""

DIRECTIONAL_TRIGGERS = """\
  lined:
    after: [drop, flip]
    when: "line(c, 3) or (edge(c) and reach(c) >= 2)"
    effects:
      - add: {counter: score, to: 3}
"""


def matrix_spec(name: str) -> str:
    topology, board, bonus, directional = BOARDS[name]
    return COMMON.format(
        name=name,
        topology=topology,
        board=board,
        bonus=bonus,
        defines=DIRECTIONAL_DEFINES.format(east="e") if directional else "",
        actions=DIRECTIONAL_ACTIONS.format() if directional else "",
        triggers=DIRECTIONAL_TRIGGERS if directional else "",
    )


@pytest.fixture(scope="module")
def matrix_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("matrix")
    for name in BOARDS:
        (out / f"{name}.yaml").write_text(matrix_spec(name))
    return out


@pytest.mark.parametrize("name", list(BOARDS))
def test_every_construct_builds_and_plays_alike_on_every_topology(matrix_dir: Path, name: str) -> None:
    spec = str(matrix_dir / f"{name}.yaml")
    ir = load_game_ir(spec)  # validates (a SpecError would fail here, with its message)
    assert ir.stacks  # the height layer is in every one of them
    interpreted, compiled = load(spec, engine="interpreted"), load(spec, engine="compiled")
    # random games move for move: both engines' own playouts, and the state after each move
    check_games(spec, None, n=12, seed=7)
    rng = Rng(11)
    line: list[str] = []
    state = interpreted.new_state(5)
    while not state.is_terminal() and len(line) < 40:
        legal = state.legal_moves()
        move = legal[rng.below(len(legal))]
        state.apply(move)
        line.append(move.text)
        other = replay(compiled, line, 5)
        assert other.to_json() == state.to_json(), f"{name}: states differ after {line}"
        assert [m.text for m in other.legal_moves()] == [m.text for m in state.legal_moves()]
    # the games use what the matrix is for: stacks of more than one piece are built
    assert any(t.endswith(("x2", "x3")) for t in line), line


def test_a_graph_board_with_stacks_builds(tmp_path: Path) -> None:
    # the spec of the bug report: heights on a board without directions
    check_games(GRAPH_STACKS, None, n=20, seed=3)
    game = load(GRAPH_STACKS, engine="compiled")
    state = replay(game, ["northx3", "southx1"])
    assert state.to_json()["board"]["north"] == {"owner": "red", "height": 3}


RING = """\
midgardc: 1
game: {name: ring-lines, players: [red, blue], max_plies: 6}
pieces:
  stone: {hand: 3}
board: {topology: square, rows: 2, cols: 3, wrap: true}
actions:
  play:
    params: {c: cell}
    where: empty(c)
    effects:
      - place: {piece: stone, at: c}
ranking:
  three: "count(c in cells: owner(c) == p and line(c, 3))"
  four: "count(c in cells: owner(c) == p and line(c, 4))"
  flanks: "count(c in cells: owner(c) == p and (any d in directions: flanked(c, d) > 0))"
"""


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_a_line_round_a_wrapping_board_is_counted_once_and_ends(tmp_path: Path, engine: str) -> None:
    # A whole row of a torus is one player's: line() and flanked() walk round to where
    # they started and stop there (the interpreter used to loop forever). The ring of 3
    # is a line of 3, not of 5 (each cell counted once).
    spec = tmp_path / "ring.yaml"
    spec.write_text(RING)
    state = replay(load(str(spec), engine=engine), ["a2", "a1", "b2", "b1", "c2"])
    scores = state.to_json()["players"]
    # flanked() is read for blue (to move): round red's row no blue piece closes a run
    # (the walk comes back to the start); each blue stone closes the red one above it,
    # whose column wraps back to the blue stone
    assert scores[0]["score"] == {"three": 3, "four": 0, "flanks": 0}
    assert scores[1]["score"] == {"three": 0, "four": 0, "flanks": 2}
