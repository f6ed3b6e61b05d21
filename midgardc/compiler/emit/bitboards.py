"""Whole-board bit arithmetic chosen by analysing the board (issue 15, item 1).

A direction is *a shift* when every step along it that stays on the board moves the cell
index by the same amount (square and hex grids without wrap, the triangular grid's rows,
graph boards whose steps are an index shift): then "the cells whose d-step is in the set
S" is S shifted by that amount and masked to the cells whose d-step is on the board (the
direction's *edge mask*), one word operation per 64 cells. Boards of more than 64 cells
use several words; a shift carries bits across them.

What uses it so far:

* ``line(c, n)`` (``line_bits`` in ``templates/bitboards.pyx.j2``): instead of walking
  each direction from c cell by cell, the owner's pieces as a bitboard B, the cells
  starting a run of n along d as ``R = B & pull(R)`` iterated n - 1 times (a pull is the
  shift above), and the cells those runs cover as R pushed forward n - 1 times; c is in a
  line when one of them holds c. The same answer as the walk of ``line_at``: a run
  through c of at least n cells is a window of n cells that holds c, and back.

* ``flanked(c, d) > 0`` in a condition on one cell (``flanked_set``): for a known d that
  is a shift, the cells that flank along d for the whole board as a directional fill (the
  other players' pieces grown back from the mover's pieces, then one step back), so a
  legal-move cell set needs no walk per cell and direction.

Every choice is made from the board's step tables (never by recognising a game); where a
direction is not a shift (a wrapping board, a graph whose steps are not one index shift)
or has an opposite that is not its exact inverse, the cell-by-cell walk stays, and
``LinePlan.fallback`` says why (``midgardc explain`` prints the choices and the reasons:
``explain_lines``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ...ir.analysis import contains
from ...ir.nodes import AssessRegions, BoardIR, Binary, Call, Const, Expr, FlipFlanked, GameIR, Local, opposite_directions
from .common import SX

#: Boards up to this many cells get bitboard code (above it, shifting every word of the
#: board costs more than walking the few cells a line test reads).
MAX_BITBOARD_CELLS = 256


@dataclass(frozen=True)
class Shift:
    """Direction ``d`` as one index shift: step(c, d) == c + delta for every c in ``on``."""

    d: int
    name: str
    delta: int
    on: tuple[int, ...]  # mask words: the cells whose d-step is on the board


@dataclass
class LinePlan:
    """How ``line(c, n)`` is computed: one entry per line direction (its opposite, when
    the exact inverse, is counted with it), or the reason it stays a walk."""

    groups: list[tuple[Shift, Optional[str]]] = field(default_factory=list)  # (d, its opposite's name or None)
    fallback: Optional[str] = None

    @property
    def bits(self) -> bool:
        return self.fallback is None and bool(self.groups)


def words_for(n_cells: int) -> int:
    return max(1, (n_cells + 63) // 64)


def direction_shift(board: BoardIR, d: int) -> Optional[Shift]:
    """Direction d as a shift, or None when its on-board steps are not all one shift."""
    n = board.n_cells
    steps = board.steps[d][:n] if 0 <= d < len(board.steps) else ()
    deltas = {t - c for c, t in enumerate(steps) if t < n}
    if len(deltas) != 1:
        return None
    delta = deltas.pop()
    if delta == 0:
        return None
    words = [0] * words_for(n)
    for c, t in enumerate(steps):
        if t < n:
            words[c >> 6] |= 1 << (c & 63)
    return Shift(d, board.directions[d], delta, tuple(words))


def _inverse(board: BoardIR, d: int, e: int) -> bool:
    """step(., e) undoes step(., d) and step(., d) undoes step(., e), on every cell."""
    n = board.n_cells
    fwd, back = board.steps[d], board.steps[e]
    return all(back[t] == c for c, t in enumerate(fwd[:n]) if t < n) and all(fwd[t] == c for c, t in enumerate(back[:n]) if t < n)


def line_plan(board: BoardIR) -> LinePlan:
    """The bitboard plan of ``line(c, n)`` on this board (mirrors ``line_at``'s walk: each
    direction with its opposite, a direction whose opposite comes first skipped)."""
    if not board.directions:
        return LinePlan(fallback="the board has no directions")
    if board.n_cells > MAX_BITBOARD_CELLS:
        return LinePlan(fallback=f"more than {MAX_BITBOARD_CELLS} cells")
    opposite = opposite_directions(board)
    plan = LinePlan()
    for d in range(len(board.directions)):
        e = opposite[d]
        if 0 <= e < d and opposite[e] == d:
            continue  # counted with e
        shift = direction_shift(board, d)
        if shift is None:
            return LinePlan(fallback=f"direction {board.directions[d]} is not one index shift on the whole board (it wraps or jumps)")
        if e >= 0 and not (opposite[e] == d and _inverse(board, d, e)):
            return LinePlan(fallback=f"direction {board.directions[d]}'s opposite {board.directions[e]} does not undo it on every cell")
        plan.groups.append((shift, board.directions[e] if e >= 0 else None))
    return plan


def flip_shifts(board: BoardIR) -> list[Shift]:
    """Every direction as a shift, for flip_flanked as fills; [] (the walk) when the
    board has no directions, is too large, or one direction is not a shift."""
    if not board.directions or board.n_cells > MAX_BITBOARD_CELLS:
        return []
    shifts = [direction_shift(board, d) for d in range(len(board.directions))]
    return [] if any(s is None for s in shifts) else shifts  # type: ignore[misc]


def flood_shifts(board: BoardIR) -> tuple[list[Shift], Optional[str]]:
    """The directions whose shifts, or-ed, give every cell's neighbours: (shifts, None) when
    on every cell neighbours(c) is exactly {step(c, d) on the board : d in shifts}, so "the
    cells next to a set" is the or of those shifts masked by their edge masks; else ([],
    the reason the flood over neighbours stays a walk). A direction whose step is not
    always a neighbour (a square board's diagonals with 4 neighbours) is left out."""
    n = board.n_cells
    if not board.directions:
        return [], "the board has no directions"
    if n > MAX_BITBOARD_CELLS:
        return [], f"more than {MAX_BITBOARD_CELLS} cells"
    chosen = [d for d in range(len(board.directions)) if all(t in board.neighbours[c] for c, t in enumerate(board.steps[d][:n]) if t < n)]
    for c in range(n):
        if set(board.neighbours[c]) != {board.steps[d][c] for d in chosen if board.steps[d][c] < n}:
            return [], f"the neighbours of {board.cell_names[c]} are not its steps along the board's directions"
    shifts = []
    for d in chosen:
        s = direction_shift(board, d)
        if s is None:
            return [], f"direction {board.directions[d]} is not one index shift on the whole board (it wraps or jumps)"
        shifts.append(s)
    return shifts, None


# -- C text: shifts of multi-word sets, unrolled per word ----------------------------------


def hex_word(v: int) -> str:
    return f"0x{v:016x}ULL"


def pull_words(src: str, delta: int, words: int) -> list[str]:
    """Per word w, C text of word w of {c : c + delta in src} (src0, src1, ... are the
    words of the set as locals); bits shifted in from past the board are 0."""
    out = []
    for w in range(words):
        pos = 64 * w + delta
        q, r = pos // 64, pos % 64
        parts = []
        if 0 <= q < words:
            parts.append(f"({src}{q} >> {r})" if r else f"{src}{q}")
        if r and 0 <= q + 1 < words:
            parts.append(f"({src}{q + 1} << {64 - r})")
        out.append(" | ".join(parts) if parts else "0")
    return out


def line_code(plan: LinePlan, words: int) -> list[str]:
    """The body of ``line_bits`` after its locals (b0.. the owner's pieces, length >= 2):
    a return True for each direction whose runs of ``length`` cover c."""
    lines: list[str] = []
    ws = range(words)
    for shift, opp in plan.groups:
        d = shift.d
        what = f"{shift.name} and {opp}" if opp else f"{shift.name} (from c only: it has no opposite)"
        lines.append(f"# along {what}: cells starting a run of `length` ({shift.name} step = index {shift.delta:+d})")
        lines.append(" ; ".join(f"r{w} = b{w}" for w in ws))
        lines.append("k = 1")
        lines.append("while k < length:")
        for w, text in enumerate(pull_words("r", shift.delta, words)):
            lines.append(f"    t{w} = b{w} & ({text}) & LINE_ON_{d}[{w}]")
        lines.append("    " + " ; ".join(f"r{w} = t{w}" for w in ws))
        lines.append("    if not (" + " | ".join(f"r{w}" for w in ws) + "):")
        lines.append("        break")
        lines.append("    k += 1")
        lines.append("if k >= length:")
        lines += _has_c("r", words, "    ")
        if opp is None:
            continue
        # push the run starts forward length - 1 times: the cells the runs cover
        lines.append("    k = 1")
        lines.append("    while k < length:")
        for w, text in enumerate(pull_words("r", -shift.delta, words)):
            for q in ws:  # the pushed set: (r & on) shifted by delta
                text = text.replace(f"r{q}", f"(r{q} & LINE_ON_{d}[{q}])")
            lines.append(f"        t{w} = {text}")
        lines.append("        " + " ; ".join(f"r{w} = t{w}" for w in ws))
        lines += _has_c("r", words, "        ")
        lines.append("        k += 1")
    return lines


#: line(c, n) with a constant n up to this gets per-cell window tables (``line_win_<n>``).
MAX_WINDOW_LENGTH = 16


def line_lengths(ir: GameIR) -> list[int]:
    """The constant lengths n (2 <= n <= MAX_WINDOW_LENGTH) of the rules' ``line(c, n)``
    calls, ascending: each gets a window test; other lengths keep ``line_bits``."""
    found: set[int] = set()

    def seen(x) -> bool:
        if isinstance(x, Call) and x.fn == "line" and len(x.args) == 2 and isinstance(x.args[1], Const):
            n = x.args[1].value
            if isinstance(n, int) and 2 <= n <= MAX_WINDOW_LENGTH:
                found.add(n)
        return False

    contains(ir, seen)
    return sorted(found)


def _other_lengths(ir: GameIR) -> bool:
    """Whether some line(c, n) has a length without a window (not a constant in range)."""

    def other(x) -> bool:
        if not (isinstance(x, Call) and x.fn == "line" and len(x.args) == 2):
            return False
        n = x.args[1]
        return not (isinstance(n, Const) and isinstance(n.value, int) and (n.value < 2 or n.value <= MAX_WINDOW_LENGTH))

    return contains(ir, other)


def line_windows(board: BoardIR, plan: LinePlan, n: int) -> list[list[int]]:
    """Per cell c, per line group, per word: the cells of c's *window* along the group,
    c and up to n - 1 steps from it each way (forward only when the direction has no
    opposite), cut at the edge. A run of n of the owner's cells through c lies in the
    window, and every run of n inside it holds c (it spans at most 2n - 1 cells)."""
    words = words_for(board.n_cells)
    opposite = opposite_directions(board)
    rows = []
    for c in range(board.n_cells):
        row: list[int] = []
        for shift, opp in plan.groups:
            cells = {c}
            for d in (shift.d, opposite[shift.d] if opp is not None else -1):
                x = c
                for _ in range(n - 1 if d >= 0 else 0):
                    x = board.steps[d][x]
                    if x >= board.n_cells:
                        break
                    cells.add(x)
            ws = [0] * words
            for x in cells:
                ws[x >> 6] |= 1 << (x & 63)
            row += ws
        rows.append(row)
    return rows


def window_code(plan: LinePlan, n: int, words: int) -> list[str]:
    """The body of ``line_win_<n>`` after its locals: for each line group, the owner's
    pieces in c's window (m), then runs of n inside it by shift-and-AND doubling (a run of
    h and one of h shifted by up to h make one of up to 2h), or-ed into ``hit``. Cells of
    a window differing by a multiple of the shift are neighbours along the line, so no
    edge mask is needed; no branch either."""
    lines: list[str] = []
    ws = range(words)
    for g, (shift, opp) in enumerate(plan.groups):
        a = abs(shift.delta)
        what = f"{shift.name} and {opp}" if opp else f"{shift.name} (from c only: it has no opposite)"
        lines.append(f"# along {what} (index step {a}): c's window of the owner's pieces, runs of {n} in it")
        lines += [f"m{w} = b{w} & win[{g * words + w}]" for w in ws]
        cur, have, stage = "m", 1, 0
        while have < n:
            step = have if 2 * have <= n else n - have
            for w, text in enumerate(pull_words(cur, step * a, words)):
                lines.append(f"r{stage}_{w} = {cur}{w} & ({text})")
            cur, have, stage = f"r{stage}_", have + step, stage + 1
        lines.append("hit |= " + " | ".join(f"{cur}{w}" for w in ws))
    return lines


def window_stages(n: int) -> int:
    """How many shift-and-AND stages ``window_code`` uses for runs of n."""
    have, stage = 1, 0
    while have < n:
        have += have if 2 * have <= n else n - have
        stage += 1
    return stage


def flood_code(shifts: list[Shift], words: int) -> list[str]:
    """The body of ``flood_bits`` after its declarations: g (the group so far, from the
    source cell) grown by ``g |= dilate(g) & own`` until nothing changes, dilate being the
    or of the neighbour directions' shifts, each masked by its edge mask (constants here);
    stopping early once g meets ``stop`` (when not NULL). The state keeps the last flood's
    crossable cells and what it found (a connected set of them): a flood over the same
    cells from a cell of that set starts from it (the group of any of its cells is the
    same), so a second test of one group (``(any x in group(c): A) and (any x in group(c): B)``)
    grows on from where the first stopped instead of starting over."""
    ws = range(words)
    lines = [f"o{w} = owner_word(st, owner, {w})" for w in ws]
    same = " and ".join(f"o{w} == st.flood_own[{w}]" for w in ws)
    lines.append(f"if {same} and (st.flood_found[src >> 6] >> (src & 63)) & 1:")
    lines.append("    # the last flood crossed the same cells and reached src: grow on from what it found")
    lines += [f"    g{w} = st.flood_found[{w}]" for w in ws]
    lines.append("else:")
    lines += [f"    g{w} = ((<uint64_t>1) << (src & 63)) if (src >> 6) == {w} else 0" for w in ws]
    lines += [f"    st.flood_own[{w}] = o{w}" for w in ws]
    lines.append("while True:")
    lines.append("    if stop != NULL and (" + " | ".join(f"(g{w} & stop[{w}])" for w in ws) + "):")
    lines += [f"        out[{w}] = g{w}" for w in ws]
    lines += [f"        st.flood_found[{w}] = g{w}" for w in ws]
    lines.append("        return True")
    for w in ws:
        parts = []
        for s in shifts:
            text = pull_words("g", s.delta, words)[w]
            if text != "0" and s.on[w]:
                parts.append(f"(({text}) & {hex_word(s.on[w])})  # {s.name}")
        if not parts:
            lines.append(f"    n{w} = g{w}")
            continue
        lines.append(f"    n{w} = g{w} | (o{w} & (")
        for i, part in enumerate(parts):
            code, note = part.rsplit("  # ", 1)
            lines.append(f"        {code}{' |' if i < len(parts) - 1 else ''}  # {note}")
        lines.append("    ))")
    lines.append("    if " + " and ".join(f"n{w} == g{w}" for w in ws) + ":")
    lines.append("        break")
    lines.append("    " + " ; ".join(f"g{w} = n{w}" for w in ws))
    lines += [f"out[{w}] = g{w}" for w in ws]
    lines += [f"st.flood_found[{w}] = g{w}" for w in ws]
    lines.append("return False")
    return lines


def _has_c(src: str, words: int, indent: str) -> list[str]:
    """``if c is in src: return True`` at ``indent``."""
    if words == 1:
        test = f"({src}0 >> c) & 1"
    else:
        test = " or ".join(f"(c >> 6 == {w} and ({src}{w} >> (c & 63)) & 1)" for w in range(words))
    return [f"{indent}if {test}:", f"{indent}    return True"]


def calls_builtin(ir: GameIR, fn: str) -> bool:
    """Whether any expression of the game calls built-in ``fn``."""
    return contains(ir, lambda x: isinstance(x, Call) and x.fn == fn)


# -- flanks as directional fills ------------------------------------------------------------


def flanked_set(x, e: Expr, me: Local, scope) -> Optional[SX]:
    """``flanked(c, d) > 0`` (also ``!= 0``, ``>= 1``, ``0 < ...``) for a known direction d
    that is one index shift, as a cell set: the other players' pieces whose run along d
    ends on a piece of the mover, grown back from the mover's pieces one shift at a time
    (``flanked_cells`` in ``templates/bitboards.pyx.j2``), then pulled back one step.
    ``x`` is the expression compiler (``CellSets``); None when e is not such a test."""
    if not isinstance(e, Binary):
        return None
    call, bound, op = e.left, e.right, e.op
    if isinstance(bound, Call) and isinstance(call, Const):  # 0 < flanked(...) and the like
        call, bound, op = bound, call, {"<": ">", "<=": ">=", "!=": "!=", ">": "<", ">=": "<="}.get(op, "")
    if not (isinstance(call, Call) and call.fn == "flanked" and call.args[0] == me and isinstance(bound, Const)):
        return None
    if (op, bound.value) not in ((">", 0), ("!=", 0), (">=", 1)):
        return None
    d = x._direction_const(call.args[1], scope)
    if d is None:
        return None
    shift = x._shift(d)
    if shift is None:
        return None
    delta, on_mask, _ = shift
    return SX("flanked", (d,), text=str(delta), index=on_mask)


# -- what `midgardc explain` says about them -----------------------------------------------


def set_operations(gen, set_call: str) -> str:
    """The whole-board operations a cell-set call (``cellset_N(...)``) runs, in words."""
    name = set_call.split("(", 1)[0]
    fn = next((f for f in gen.x.cellsets if f"cellset_{f.index}" == name), None)
    if fn is None:
        return ""
    ops = []
    fills = [line.split("# ", 1)[1] for line in fn.prelude if line.startswith("flanked_cells(")]
    if fills:
        ops.append(f"{len(fills)} directional fill(s) {', '.join(fills)}")
    pulls = sum("pull_cells(" in line for line in fn.prelude)
    if pulls:
        ops.append(f"{pulls} shift(s) of a set by a step")
    near = sum("dilate_cached(" in line or "kept_dilation(" in line for line in fn.prelude)
    if near:
        ops.append(f"{near} dilation(s) (the cells next to a set)")
    return "; ".join(ops) if ops else "and/or/not of the piece sets"


def explain_lines(gen) -> list[str]:
    """The bitboard section of ``midgardc explain``: each direction as a shift (or why
    not), and how line() and flanked() are computed — by whole-board bit arithmetic or by
    a walk, with the reason."""
    ir: GameIR = gen.ir
    board = ir.board
    out = ["", "whole-board bit arithmetic (bitboards, compiled engine; the interpreter walks):"]
    words = words_for(board.n_cells)
    out.append(f"  {board.n_cells} cells in {words} 64-bit word(s)" + ("" if gen.x.sets_enabled else ": too many for cell sets, every condition is tested cell by cell"))
    if not board.directions:
        out.append(f"  no directions on a {board.topology} board: no shifts")
    for d, name in enumerate(board.directions):
        s = direction_shift(board, d)
        out.append(f"  direction {name}: " + (f"a shift by {s.delta:+d} cells, masked by its edge mask ({sum(bin(w).count('1') for w in s.on)} cells step on the board)" if s else "not one index shift on the whole board (it wraps or jumps): walked step by step"))
    if calls_builtin(ir, "line"):
        plan = line_plan(board)
        if plan.bits:
            pairs = ", ".join(f"{s.name}+{o}" if o else s.name for s, o in plan.groups)
            lengths = line_lengths(ir)
            if lengths:
                out.append(f"  line(c, {'/'.join(map(str, lengths))}): the owner's pieces in c's window along {pairs} (a table row per cell: c and n - 1 steps each way), runs of n in it by shift-and-AND doubling, without branches")
            if not lengths or _other_lengths(ir):
                out.append(f"  line(c, n): shift-and-AND runs of the owner's pieces along {pairs} (n - 1 shifts to find runs, n - 1 to cover them)")
        else:
            out.append(f"  line(c, n): walked cell by cell from c ({plan.fallback})")
    if calls_builtin(ir, "flanked"):
        fills = sum(line.startswith("flanked_cells(") for f in gen.x.cellsets for line in f.prelude)
        if fills:
            out.append(f"  flanked(c, d) > 0: {fills} directional fill(s) in cell sets (the other players' runs grown back from the mover's pieces)")
        else:
            out.append("  flanked(c, d): walked from each cell (no `flanked(c, d) > 0` over a direction that is one index shift in a condition on one cell)")
    if contains(ir, lambda x: isinstance(x, FlipFlanked)):
        if flip_shifts(board) and gen.x.sets_enabled:
            out.append("  flip_flanked: the run along each direction grown one shift at a time from the placed piece; the runs closed by the mover's piece flip")
        else:
            out.append("  flip_flanked: walked from the placed piece, direction by direction (not every direction is one index shift)")
    chains = gen.x.chain_quants  # per quantifier over group/region(c): flooded as bits?
    if chains:
        flooded = sum(chains)
        shifts, why = flood_shifts(board)
        if flooded:
            names = ", ".join(s.name for s in shifts)
            out.append(f"  group(c)/region(c): {flooded} of {len(chains)} quantifier(s) flood the group as bits from c, g |= dilate(g) & own until nothing changes (dilate: the shifts along {names} under their edge masks), met with the condition's cell set (any/all stop at the first meeting)")
        if flooded < len(chains):
            reason = why if why else ("too many cells for cell sets" if not gen.x.sets_enabled else "min/max/sum, or a condition that is no cell set")
            out.append(f"  group(c)/region(c): {len(chains) - flooded} quantifier(s) walk the group breadth-first over the neighbour tables ({reason})")
    if contains(ir, lambda x: isinstance(x, AssessRegions)):
        out.append("  assess_regions: a breadth-first search over the neighbour tables from the changed cells (member and opening sets are cell sets; the search is not a fill)")
    from .rays import explain_lines as ray_lines  # slides as bit scans (emit/rays.py)

    return out + ray_lines(gen)
