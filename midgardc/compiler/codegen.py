"""IR -> Cython source text, through the Jinja2 templates in ``templates/``.

The generated module mirrors ``midgardc.runtime.interpreter`` line for line, with the
game's constants, tables and rules specialised into C:

* every value is a C integer; the state is one struct of fixed-size arrays;
* board tables (neighbours, steps, degrees, properties) are ``static const`` C arrays;
* each ``define`` becomes a ``cdef inline ... noexcept nogil`` function, and each
  quantifier is lifted into its own inline function whose parameters are the locals it
  uses (lambda lifting);
* legal-move generation hoists each conjunct of an action's ``where`` to the outermost
  parameter loop that binds everything it reads (sound because expressions are pure and
  total: they read the state, never change it, and never fail);
* conditions on one cell (built from empty/occupied/owner/kind_at, fixed facts about
  cells, and/or/not, definitions and any/all over neighbours) are also translated to
  cell sets: word-wise bitset code over the whole board at once (bitboards), used for
  legal cells, quantifiers over all cells and region search; fixed facts become constant
  masks computed by the reference interpreter itself;
* ``empty(step(c, d))`` / ``occupied(step(c, d))`` for a direction that is one index
  shift on the whole board becomes a shifted set (``pull_cells``), so "rests on something
  below" is a word operation too;
* each action's loops follow its move plan (``midgardc.ir.plan``, shared with the
  interpreter and printed by ``midgardc explain``): a conjunct that pins a cell parameter
  to a few values (``t == step(f, d) or ...``, ``any d in directions: ...``, inside
  definitions, either side of ``==``) makes that parameter loop over those values only,
  sorted and without repeats, and an integer parameter loops between its bounds;
* the playout loop, region assessment and perft run in C without the GIL.

Every identifier in the output is built from IR indices (``define_3``, ``quant_0``,
``a0``); names from the spec appear only in comments and escaped string literals.

One ``generate_*`` function per section of the module; ``generate_module`` joins them. The
translation of each kind of construct is in ``emit/`` (one module per concern, named like
its Python meaning in ``midgardc/runtime/rules/``); this module composes them.
"""

from __future__ import annotations

import os
from typing import Optional

from ..ir.analysis import contains
from ..ir.compound import step_blocks
from ..ir.dice import KEEP_VAR, into_of, keep_of, when_of
from ..ir.nodes import CELL, CHANCE_STREAM, INT, ITEM, DIR, KIND, PLAYER, Call, FlipFlanked, GameIR, SetElement, opposite_directions
from .emit.bitboards import LinePlan, calls_builtin, direction_shift, flip_shifts, flood_code, line_code, line_lengths, line_plan, line_windows, window_code, window_stages
from .emit.captures import Captures
from .emit.cellsets import CellSets
from .emit.common import (
    CTYPE,
    NIBBLE_TABLE_LIMIT,
    render,
    comment_text,
    c_array,
    smallest_signed,
    unparse,
    Var,
)
from .emit.effects import Effects
from .emit.expressions import Expressions
from .emit.moves import Moves
from .emit.regions import Regions
from .emit.zones import zone_facts
from .emit.history import history_facts
from ..engine import vtable_text
from .tensor import generate_batch, generate_tensor, tensor_facts

#: The order of the sections in a generated module.
SECTIONS = (
    "header",
    "constants",
    "tables",
    "state",
    "runtime",
    "lines",
    "bitboards",  # whole-board bit arithmetic (emit/bitboards.py)
    "deck",
    "zones",
    "areas",
    "attributes",
    "defines",
    "quantifiers",
    "cellsets",
    "stepmoves",  # from/to actions of steps as whole-board sets (emit/stepmoves.py)
    "legality",
    "regions",
    "effects",
    "history",
    "compound",
    "end",
    "ranking",
    "moves",
    "playouts",
    "tensor",  # observation tensors written in C (compiler/tensor.py)
    "batch",  # what batches of games (midgardc/batch.py) need of the state
    "mcts",  # what the MCTS player's search needs of the game (its odds of rolls)
    "export",  # the table of entry points the generic engine calls (midgardc/engine/)
)


class ExprCompiler(Effects, Captures, Regions, CellSets, Expressions):
    """Translates IR expressions and effects to Cython, lifting quantifiers as it goes (one
    concern per base class, in ``emit/``)."""


# --------------------------------------------------------------------------- the generator


class Generator(Moves):
    """Walks a GameIR once, translating every expression, then renders the sections."""

    def __init__(self, ir: GameIR):
        self.ir = ir
        self.x = ExprCompiler(ir)
        b = ir.board
        self.n = b.n_cells
        self.n_kinds_div = max(ir.n_kinds, 1)
        nbrs = [set(b.neighbours[c]) for c in range(self.n)]
        self.symmetric_nbrs = all(c in nbrs[x] for c in range(self.n) for x in nbrs[c] if x < self.n)
        self.param_sizes = {CELL: self.n, PLAYER: ir.n_players, KIND: ir.n_kinds, DIR: len(b.directions), ITEM: ir.n_item_kinds}
        self.param_sizes.update({"enum:" + name: len(values) for name, values in ir.enums})  # enumeration parameters
        # Translate in a fixed order so quantifier numbers are stable.
        self.defines = [self._define(i) for i in range(len(ir.defines))]
        self.step_why: dict[int, str] = {}  # why an action's moves are not step sets (emit/stepmoves.py)
        self.cand_fns: list[str] = []  # candidate listings cands_<n>() (emit/candidates.py), made with the actions
        self.actions = [self._action(i) for i in range(len(ir.actions))]
        self.end_conditions = [(self.x.expr(c, {}).text, comment_text(unparse(c, ir))) for c in ir.end.conditions]
        self.end_effects = self.x.effects(ir.end.effects, {})
        self.rank_keys = [self._rank(i) for i in range(len(ir.ranking))]
        self.start_effects = self.x.effects(ir.start_effects, {})  # (last: earlier numbers stay)
        keep = keep_of(ir.chance)  # a partial roll's kept dice (after the rest: numbers stay)
        self.keep = None if keep is None else {"body": self.x.expr(keep, {KEEP_VAR: Var("a0", INT)}).text, "comment": comment_text(unparse(keep, ir))}
        when = when_of(ir.chance)  # chance.when: whether a turn opens with a roll
        self.roll_when = None if when is None else {"body": self.x.expr(when, {}).text, "comment": comment_text(unparse(when, ir))}

    # -- translation ---------------------------------------------------------------------

    def _define(self, i: int) -> dict:
        d = self.ir.defines[i]
        scope = {p.name: Var(f"a{j}", p.type) for j, p in enumerate(d.params)}
        head = d.name + (f"({', '.join(f'{p.type} {p.name}' for p in d.params)})" if d.params else "")
        return {
            "index": i,
            "ret": CTYPE[d.type],
            "params": [scope[p.name] for p in d.params],
            "body": self.x.expr(d.body, scope).text,
            "comment": comment_text(f"{head} = {unparse(d.body, self.ir)}"),
        }

    def _rank(self, j: int) -> dict:
        k = self.ir.ranking[j]
        scope = {"p": Var("a0", PLAYER)}
        return {
            "index": j,
            "body": self.x.expr(k.expr, scope).text,
            "lower": k.lower_is_better,
            "comment": comment_text(f"{k.name}: {unparse(k.expr, self.ir)}" + (" (lower is better)" if k.lower_is_better else "")),
        }

    # -- facts for the templates ---------------------------------------------------------

    def context(self) -> dict:
        ir = self.ir
        b = ir.board
        n = self.n
        max_piece = ir.n_players * ir.n_kinds
        return {
            "ir": ir,
            "title": comment_text(ir.title),
            "game": ir.name,
            "variant": ir.variant,
            "spec": os.path.basename(ir.source) if ir.source else "",
            "n_cells": n,
            "n_players": ir.n_players,
            "n_kinds": ir.n_kinds,
            "kind_div": self.n_kinds_div,
            "hand_slots": max(ir.n_kinds, 1),
            "n_counters": len(ir.counters),
            "counter_slots": max(len(ir.counters), 1),
            "n_dirs": len(b.directions),
            "max_degree": max(b.max_degree, 1),
            "n_moves": ir.n_moves,
            "max_plies": ir.max_plies,
            "n_rank": len(ir.ranking),
            "board_t": smallest_signed(-1, max_piece),
            "no_moves_end": ir.end.no_moves == "end",
            "max_params": self.max_params,
            "param_types": self.param_var_types(),
            "max_cands": max([len(L["cands"]) for a in self.actions for L in self._all_loops(a) if L.get("cands")] or [1]),
            "cand_fns": self.cand_fns,  # candidate listings (emit/candidates.py)
            "cand_levels": sorted({L["level"] for a in self.actions for L in self._all_loops(a) if L.get("cands") is not None}),
            "bit_levels": sorted({L["level"] for a in self.actions for L in self._all_loops(a) if L["set_call"] or (a["steps"] and L["level"] == 0)}),
            "step_actions": [a["steps"] for a in self.actions if a["steps"]],
            "max_clauses": max([len(a["steps"]["clauses"]) for a in self.actions if a["steps"]] or [1]),
            "bound_levels": sorted({L["level"] for a in self.actions for L in self._all_loops(a) if L["lower"] or L["upper"]}),
            "words": self.x.words,
            "sets": self.x.sets_enabled,
            "n_nibbles": (n + 3) // 4,
            "nibbles": (n + 3) // 4 * 16 * self.x.words * 8 <= NIBBLE_TABLE_LIMIT,
            "n_pieces": max_piece + 1,
            "uses_group": self.x.uses_group,
            "uses_slide": self.x.uses_slide,
            "uses_region": self.x.uses_region,
            "uses_flood": self.x.uses_flood,
            "n_dilations": len(self.x.dilations),
            "kept_dilations": sorted(self.x.kept_dilations.items()),
            "kept_members": self.x.kept_members,
            # the dilation row of cell X (the cells with X as a neighbour): its neighbour
            # set when neighbourhood is symmetric, as on every board but a one-way graph
            "symmetric_nbrs": self.symmetric_nbrs,
            "near_row": "NBR_SETS[X]" if self.symmetric_nbrs else ("NEAR[X >> 2][1 << (X & 3)]" if (n + 3) // 4 * 16 * self.x.words * 8 <= NIBBLE_TABLE_LIMIT else "NEAR1[X]"),
            "pick": self.pick_cells(),
            "chance": self.chance_facts(),
            "again": self.x.uses_again,
            "can_move": self.x.uses_can_move,
            "since_first_seen": self.x.uses_since_first_seen,
            "stacks": ir.stacks,
            "decks": self.deck_facts(),
            "zones": zone_facts(ir),
            "areas": self.area_facts(),
            # counters of every type and counter arrays (their helpers in runtime.pyx.j2)
            "typed_values": bool(ir.counter_types) or any("[" in c for c in ir.counters) or contains(ir, _reads_or_writes_an_element),
            "history": history_facts(ir),
            "initial_heights": list(ir.initial_heights) + [0] if ir.initial_heights else None,
            "lookahead": any(a.legal_after is not None for a in ir.actions),
            # a legal_after asks can_move(): the copies count their depth (templates/end.pyx.j2)
            "look_can_move": any(a.legal_after is not None and contains(a.legal_after, _asks_can_move) for a in ir.actions),
            # compound moves (templates/compound.pyx.j2)
            "compound": any(a.chain is not None for a in ir.actions),
            "max_chain_limit": max([a.chain.limit for a in ir.actions if a.chain is not None] or [1]),
            # moves of two steps (then:; templates/compound.pyx.j2)
            "two_steps": any(a.then is not None for a in ir.actions),
            "step_blocks": step_blocks(ir),  # (base, end, radix): sampling steps (templates/playouts.pyx.j2)
        }

    @staticmethod
    def _all_loops(a: dict) -> list[dict]:
        """An action's parameter loops, and its second step's (then:), if any."""
        return a["loops"] + (a["then"]["step"]["loops"][a["then"]["first"] :] if a["then"] else [])

    def area_facts(self) -> Optional[dict]:
        """The areas' tables (see AreaIR), or None for a game without areas."""
        areas = self.ir.areas
        if not areas:
            return None
        start = [0]
        for a in areas:
            start.append(start[-1] + len(a.cells))
        return {
            "count": len(areas),
            "start": start,
            "cells": [c for a in areas for c in a.cells],
            "weights": [w for a in areas for w in a.weights],
            "points": [a.points for a in areas],
        }

    def deck_facts(self) -> Optional[dict]:
        """The decks' tables (see DeckIR), or None for a game without items."""
        items = self.ir.deck
        if items is None:
            return None
        width = max(len(v) for v in items.values)
        return {
            "n_kinds": items.n_kinds,
            "size": items.size,
            "up": items.up,
            "order": list(items.order),
            "nvalues": [len(v) for v in items.values],
            "max_values": width,
            "value_rows": [list(v) + [0] * (width - len(v)) for v in items.values],
            "stream": CHANCE_STREAM,
        }

    def chance_facts(self) -> Optional[dict]:
        """The dice tables (see ChanceIR), or None for a game without chance."""
        ch = self.ir.chance
        if ch is None:
            return None
        return {
            "dice": ch.dice,
            "n_faces": ch.n_faces,
            "n_outcomes": len(ch.outcomes),
            "n_draws": ch.n_draws,
            "base": ch.base,
            "stream": CHANCE_STREAM,
            "outcome_faces": [list(o) for o in ch.outcomes],
            "draw_outcome": list(ch.draw_outcome),
            "face_values": list(ch.values),
            "keep": self.keep,  # chance.keep: die_kept(st, i), or None (every die is thrown)
            "into": into_of(ch),  # chance.into: the counter column of face 0, or None (the public roll)
            "when": self.roll_when,  # chance.when: roll_due(st), or None (every turn opens with a roll)
        }

# --------------------------------------------------------------------------- sections


def generate_header(g: Generator) -> str:
    return render("header.pyx.j2", **g.context())


def generate_constants(g: Generator) -> str:
    return render("constants.pyx.j2", **g.context())


def generate_tables(g: Generator) -> str:
    ir = g.ir
    b = ir.board
    n = g.n
    maxdeg = max(b.max_degree, 1)
    nbrs = []
    for c in range(n):
        row = list(b.neighbours[c]) + [n] * (maxdeg - len(b.neighbours[c]))
        nbrs.append(row)
    degree = [len(b.neighbours[c]) for c in range(n)] + [0]
    steps = []
    for d in range(len(b.directions)):
        row = list(b.steps[d][:n]) + [n]
        steps.append(row)
    props = []
    for i, (name, values) in enumerate(b.props):
        vals = list(values[:n]) + [0]
        props.append({"index": i, "comment": comment_text(name), "values": vals, "ctype": smallest_signed(min(vals), max(vals))})
    words = g.x.words

    def as_words(cells) -> list[str]:
        out = [0] * words
        for c in cells:
            out[c >> 6] |= 1 << (c & 63)
        return [f"0x{v:016x}ULL" for v in out]

    # dilation tables: near[i][v] = the cells with a neighbour among cells 4i..4i+3 picked
    # by the bits of v (nibble tables); or near1[x] = the cells that have x as a neighbour
    near_of: list[set] = [set() for _ in range(n)]
    for c in range(n):
        for x in b.neighbours[c]:
            near_of[x].add(c)
    n_nibbles = (n + 3) // 4
    nibbles = n_nibbles * 16 * words * 8 <= NIBBLE_TABLE_LIMIT
    near = []
    if nibbles:
        for i in range(n_nibbles):
            row = []
            for v in range(16):
                cells: set = set()
                for bit in range(4):
                    if v >> bit & 1 and 4 * i + bit < n:
                        cells |= near_of[4 * i + bit]
                row.append(c_array(as_words(sorted(cells))))
            near.append(row)
    else:
        near = [c_array(as_words(sorted(near_of[x]))) for x in range(n)]
    nbr_sets = [c_array(as_words(sorted(set(b.neighbours[c])))) for c in range(n)]
    masks = [{"index": i, "words": c_array([f"0x{v:016x}ULL" for v in m]), "comment": text} for i, (m, text) in enumerate(g.x.masks)]
    initial = list(ir.initial_board or [0] * n) + [-1]
    hands = [list(h) + [0] * (max(ir.n_kinds, 1) - len(h)) for h in ir.hand_init]
    counters = [list(c) + [0] * (max(len(ir.counters), 1) - len(c)) for c in ir.counter_init]
    return render(
        "tables.pyx.j2",
        **{k: v for k, v in g.context().items() if k not in ("nibbles", "n_nibbles")},
        nbrs=nbrs,
        degree=degree,
        steps=steps,
        directions=[comment_text(d) for d in b.directions],
        props=props,
        initial=initial,
        hands=hands,
        counters=counters,
        valid=c_array(as_words(range(n))),
        nbr_sets=nbr_sets,
        masks=masks,
        nibbles=nibbles,
        n_nibbles=n_nibbles,
        near=near,
    )


def generate_state(g: Generator) -> str:
    return render("state.pyx.j2", **g.context())


def generate_runtime(g: Generator) -> str:
    return render("runtime.pyx.j2", **g.context())


def generate_lines(g: Generator) -> str:
    ir = g.ir
    pprops = [{"index": i, "comment": name, "values": [0] + list(values)} for i, (name, values) in enumerate(ir.player_props)]
    return render("lines.pyx.j2", **g.context(), pprops=pprops, opposite=list(opposite_directions(ir.board)), kind_base=list(ir.kind_base), line_bits=_line_plan(g).bits, line_lengths=_line_lengths(g), flip_bits=bool(_flip_shifts(g)))


def _flip_shifts(g: Generator) -> list:
    """The directions of flip_flanked as shifts, when the rules flip and every one is."""
    if not g.x.sets_enabled or not contains(g.ir, lambda x: isinstance(x, FlipFlanked)):
        return []
    return flip_shifts(g.ir.board)


def _line_plan(g: Generator) -> LinePlan:
    """line(c, n) as bitboards when the spec uses line() and the board allows it."""
    if not calls_builtin(g.ir, "line"):
        return LinePlan(fallback="the rules never call line()")
    return line_plan(g.ir.board)


def _line_lengths(g: Generator) -> list[int]:
    """The constant lengths of line(c, n) that get window tables (with line_bits only)."""
    return line_lengths(g.ir) if _line_plan(g).bits else []


def _line_windows(g: Generator, plan: LinePlan) -> list[dict]:
    words = g.x.words
    out = []
    for n in _line_lengths(g):
        rows = line_windows(g.ir.board, plan, n)
        out.append({
            "n": n,
            "groups": ", ".join(f"{s.name}+{o}" if o else s.name for s, o in plan.groups),
            "width": len(plan.groups) * words,
            "rows": [c_array([f"0x{v:016x}ULL" for v in row], per_line=4, indent="      ") for row in rows],
            "stages": window_stages(n),
            "code": window_code(plan, n, words),
        })
    return out


def generate_bitboards(g: Generator) -> str:
    plan = _line_plan(g)
    flanks = any("flanked_cells(" in line for f in g.x.cellsets for line in f.prelude)
    flood = g.x.flood_shifts() if g.x.uses_flood else []
    rays = g.x.ray_plan() if g.x.uses_ray_bits else None  # slides as bits (emit/rays.py)
    directions = [comment_text(d) for d in g.ir.board.directions]
    return render(
        "bitboards.pyx.j2",
        **g.context(),
        line_plan=plan,
        line_code=line_code(plan, g.x.words) if plan.bits else [],
        line_windows=_line_windows(g, plan) if plan.bits else [],
        flanks=flanks,
        flip_shifts=_flip_shifts(g),
        flood_code=flood_code(flood, g.x.words) if flood else [],
        flood_dirs=", ".join(s.name for s in flood),
    ) + render("rays.pyx.j2", **g.context(), rays=rays, directions=directions)


def generate_defines(g: Generator) -> str:
    return render("defines.pyx.j2", **g.context(), defines=g.defines)


def generate_quantifiers(g: Generator) -> str:
    return render("quantifiers.pyx.j2", **g.context(), lifted=g.x.lifted)


def generate_cellsets(g: Generator) -> str:
    return render("cellsets.pyx.j2", **g.context(), cellsets=g.x.cellsets)


def generate_legality(g: Generator) -> str:
    return render("legality.pyx.j2", **g.context(), actions=g.actions)


def generate_regions(g: Generator) -> str:
    b = g.ir.board
    # whether no cell lists a neighbour twice (then a cell's neighbour pairs are its set of neighbours)
    distinct_nbrs = all(len(set(b.neighbours[c])) == len(b.neighbours[c]) for c in range(g.n))
    return render("regions.pyx.j2", **g.context(), regions=g.x.regions, distinct_nbrs=distinct_nbrs)


def generate_effects(g: Generator) -> str:
    return render("effects.pyx.j2", **g.context(), actions=g.actions, removals=g.x.removals, eaches=g.x.eaches)


def generate_end(g: Generator) -> str:
    return render("end.pyx.j2", **g.context(), conditions=g.end_conditions, effects=g.end_effects, start_effects=g.start_effects)


def generate_ranking(g: Generator) -> str:
    return render("ranking.pyx.j2", **g.context(), keys=g.rank_keys)


def generate_moves(g: Generator) -> str:
    return render("moves.pyx.j2", **g.context(), actions=g.actions)


def generate_playouts(g: Generator) -> str:
    return render("playouts.pyx.j2", **g.context())


def generate_export(g: Generator) -> str:
    """The rules' table (midgardc/engine/vtable.pxi, copied in verbatim) and its entry
    points: what the generic engine calls."""
    return render("export.pyx.j2", **g.context(), vtable=vtable_text().rstrip("\n"), tensor=tensor_facts(g.ir))


_GENERATORS = {
    "header": generate_header,
    "constants": generate_constants,
    "tables": generate_tables,
    "state": generate_state,
    "runtime": generate_runtime,
    "bitboards": generate_bitboards,
    "lines": generate_lines,
    "deck": lambda g: render("deck.pyx.j2", **g.context()),
    "zones": lambda g: render("zones.pyx.j2", **g.context()),
    "areas": lambda g: render("areas.pyx.j2", **g.context()),
    "attributes": lambda g: render("attributes.pyx.j2", **g.context(), attributes=[{"index": i, "comment": f"{a.name} of every {a.of}", "table": list(a.table), "keys": a.keys} for i, a in enumerate(g.ir.attributes)]),
    "defines": generate_defines,
    "quantifiers": generate_quantifiers,
    "cellsets": generate_cellsets,
    "stepmoves": lambda g: render("stepmoves.pyx.j2", **g.context(), step_shifts=_step_shifts(g)),
    "legality": generate_legality,
    "regions": generate_regions,
    "effects": generate_effects,
    "history": lambda g: render("history.pyx.j2", **g.context(), actions=g.actions),
    "compound": lambda g: render("compound.pyx.j2", **g.context(), actions=g.actions),
    "end": generate_end,
    "ranking": generate_ranking,
    "moves": generate_moves,
    "playouts": generate_playouts,
    "export": generate_export,
    "tensor": generate_tensor,
    "batch": generate_batch,
    "mcts": lambda g: render("mcts.pyx.j2", **g.context()),  # the odds MCTS draws rolls by
}


def _step_shifts(g: Generator) -> list:
    """(delta, edge-mask words) of every direction for step moves' tables (0 and no cells
    for a direction that is not one index shift: step moves never use it then)."""
    if not any(a["steps"] for a in g.actions):
        return []
    out = []
    for d in range(len(g.ir.board.directions)):
        s = direction_shift(g.ir.board, d)
        out.append((s.delta, s.on) if s else (0, (0,) * g.x.words))
    return out


def generate_module(ir: GameIR) -> str:
    """The whole Cython module for ``ir`` (deterministic: same IR, same text)."""
    g = Generator(ir)
    parts = [_GENERATORS[name](g).strip("\n") for name in SECTIONS]
    return "\n\n\n".join(p for p in parts if p) + "\n"


def _reads_or_writes_an_element(x: object) -> bool:
    """A counter array in use, told by its nodes (not by its columns' names, which a spec
    chooses)."""
    return isinstance(x, SetElement) or (isinstance(x, Call) and x.fn == "counter_at")


def _asks_can_move(x: object) -> bool:
    """A can_move() call (in a legal_after: the lookahead's second move)."""
    return isinstance(x, Call) and x.fn == "can_move"
