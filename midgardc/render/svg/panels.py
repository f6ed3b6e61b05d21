"""The players' panel (pieces in hand, counters, scores), the game's counters, the legend
and the status line (whose turn, or the result)."""

from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING, Optional, Sequence

from ...ir.nodes import GameIR
from ...ir.present import hand_kinds, has_kind_glyphs, piece_glyph
from ...ir.values import counter_text
from ...runtime.observe import GAME, SEES, key_visibility
from .board import kind_letters
from .common import EMPTY_FILL, LINE, NEUTRAL_FILL, PANEL_WIDTH, STATE_FILLS, fmt, player_fills, sub, text, text_fill
from .seen import Seen, drawn_counters, present_of

if TYPE_CHECKING:  # pragma: no cover
    from ...runtime.game import State

BAR_UNIT = 1.5  # pixels per unit of a counter's bar
BAR_MAX = 40  # bars stop growing here (the number still shows the value)


def _shown_kinds(ir: GameIR) -> list[int]:
    if present_of(ir).hide_hand:
        return []
    return hand_kinds(ir)


def _panel_counters(ir: GameIR) -> list[int]:
    hidden = drawn_counters(ir)
    return [i for i in ir.player_counters if i not in hidden]


def _shown(ir: GameIR, value: object) -> object:
    """A counter's value as people read it: a named value (a phase, a player, an item) by
    its ``render.labels`` name."""
    return present_of(ir).label(value) if isinstance(value, str) else value


def _is_flag(keys: Sequence[Sequence[int]], j: int) -> bool:
    """Whether ranking key ``j`` is a flag on every seat (0 or 1: won, connected): once the
    game is over the result line says what it says."""
    return all(row[j] in (0, 1) for row in keys)


def _shown_keys(ir: GameIR, over: bool, keys: Optional[Sequence[Sequence[int]]] = None) -> list[int]:
    """The ranking keys the panel lists: a key that means something only once the game is
    over (``final: true``) is left out while it goes on, and after it too when ``keys``
    (every seat's values) show it is only a flag (a won flag: the result line tells it)."""
    return [j for j, k in enumerate(ir.ranking) if not k.final or (over and not (keys is not None and _is_flag(keys, j)))]


def track_labels(ir: GameIR, over: bool = True, keys: Optional[Sequence[Sequence[int]]] = None) -> list[tuple[int, str]]:
    """(seat, label) of every number in the players' panel, in panel order (``data-track``
    indices): pieces in hand, the counters not drawn elsewhere nor internal, the scores
    (while the game goes on, ``over`` False, without its final keys; at the end without
    the final keys that ``keys``, the seats' values, show to be flags)."""
    pr = present_of(ir)
    out: list[tuple[int, str]] = []
    for p in range(ir.n_players):
        out += [(p, f"{pr.label(ir.kinds[k])} in hand") for k in _shown_kinds(ir)]
        out += [(p, pr.label(ir.counters[i])) for i in _panel_counters(ir)]
        out += [(p, f"score: {pr.label(ir.ranking[j].name)}") for j in _shown_keys(ir, over, keys)]
    return out


def track_values(view: Seen) -> list[object]:
    """The numbers of the panel in the order of ``track_labels`` ("?" where hidden)."""
    ir = view.ir
    core = view.state.core
    keys = core.keys()
    out: list[object] = []
    over = view.state.is_terminal()
    for p in range(ir.n_players):
        out += [int(core.hands[p][i]) for i in _shown_kinds(ir)]
        # a counter holding a cell, player, kind or enum value is written as its name (no bar)
        out += [_shown(ir, counter_text(ir, i, int(core.counters[p][i]))) if view.counter(i, p) else "?" for i in _panel_counters(ir)]
        out += [int(keys[p][j]) if over or view.all or SEES[key_visibility(ir, j)](view.viewer, p) else "?" for j in _shown_keys(ir, over, keys)]
    return out


def status_text(state: "State") -> str:
    """Whose turn it is, or how the game ended: "game over: white wins by checkmate in 24
    moves" (the reason and the length as the rulebook counts moves: ``runtime.ending``)."""
    from ...runtime.ending import ending

    if state.is_terminal():
        end = ending(state)
        assert end is not None
        return f"game over: {end['text']}"
    if state.is_chance_node():
        return f"a roll is due for {state.current_player_name()} (move {state.ply() + 1})"
    roll = state.roll()
    shown = f", roll {'-'.join(roll)}" if roll else ""
    return f"{state.current_player_name()} to move (move {state.ply() + 1}{shown})"


def draw_players(svg: ET.Element, view: Seen, x0: float, y: float) -> float:
    ir = view.ir
    pr = present_of(ir)
    labels = track_labels(ir, view.state.is_terminal(), view.state.core.keys())
    values = track_values(view)
    fills = player_fills(ir)
    g = sub(svg, "g", {"class": "tracks"})
    to_move = -1 if view.state.is_terminal() else view.state.current_player()
    for p, name in enumerate(ir.players):
        y += 4
        row = sub(g, "g", {"class": "player-row", "data-player": name, "transform": f"translate({fmt(x0)},{fmt(y)})"})
        sub(row, "rect", {"class": f"player-{name}", "fill": fills[p], "stroke": "#222", "x": "0", "y": "-11", "width": "14", "height": "14", "rx": "7"})
        text(row, 7, -0.5, ir.render.piece_glyphs[p], "count", "middle", fill=text_fill(fills[p]))
        who = pr.label(name) + (" (you)" if view.viewer == p else "") + ("  ◀ to move" if p == to_move else "")
        text(row, 20, 0, who, "player")
        dy = LINE + 2
        for i, (seat, label) in enumerate(labels):
            if seat != p:
                continue
            v = values[i]
            width = min(abs(v), BAR_MAX) * BAR_UNIT if isinstance(v, int) and not isinstance(v, bool) else 0
            v = str(v).lower() if isinstance(v, bool) else v
            sub(row, "rect", {"class": "bar", "data-bar": i, "x": "210", "y": fmt(dy - 9), "width": fmt(width), "height": "10"})
            text(row, 20, dy, f"{label}: {v}", "track", data_track=i, data_label=label)
            dy += LINE
        y += dy + 2
    return y


def draw_game_counters(svg: ET.Element, view: Seen, x0: float, y: float) -> float:
    ir = view.ir
    pr = present_of(ir)
    hidden = drawn_counters(ir)
    shown = [i for i in ir.game_counters if i not in hidden]
    if not shown:
        return y
    g = sub(svg, "g", {"class": "game-counters"})
    for i in shown:
        v = _shown(ir, counter_text(ir, i, int(view.state.core.counters[ir.n_players][i]))) if view.counter(i, GAME) else "?"
        v = str(v).lower() if isinstance(v, bool) else v
        text(g, x0, y + 11, f"{pr.label(ir.counters[i])}: {v}", "track", data_counter=ir.counters[i])
        y += LINE
    return y + 4


def draw_legend(svg: ET.Element, ir: GameIR, x0: float, y: float) -> float:
    g = sub(svg, "g", {"class": "legend"})
    legend = [(f"s{i}", STATE_FILLS[i % len(STATE_FILLS)], name) for i, (name, _, _) in enumerate(ir.render.empty_states)]
    if legend:
        legend.append(("empty", EMPTY_FILL, "empty"))
    for cls, fill, name in legend:
        sub(g, "rect", {"class": f"swatch {cls}", "fill": fill, "stroke": "#555", "x": fmt(x0), "y": fmt(y), "width": "12", "height": "12"})
        text(g, x0 + 18, y + 10, name, "track")
        y += LINE
    pr = present_of(ir)
    for k in pr.neutral:
        sub(g, "rect", {"class": "swatch neutral", "fill": NEUTRAL_FILL, "stroke": "#555", "x": fmt(x0), "y": fmt(y), "width": "12", "height": "12"})
        text(g, x0 + 18, y + 10, f"{pr.label(ir.kinds[k])}: nobody's", "track")
        y += LINE
    letters = kind_letters(ir)
    rows = []
    if has_kind_glyphs(ir):  # each player's glyph per kind
        rows = [f"{pr.label(name)}: " + ", ".join(f"{piece_glyph(ir, 1 + p * ir.n_kinds + k)} {pr.label(kind)}" for k, kind in enumerate(ir.kinds))
                for p, name in enumerate(ir.players)]
    elif len(letters) > 1 and letters[0]:
        rows = ["pieces: " + ", ".join(f"{m} {pr.label(k)}" for m, k in zip(letters, ir.kinds))]
    for row in rows:  # wrapped to the panel's width: a long list of kinds stays on the picture
        for part in textwrap.wrap(row, int((PANEL_WIDTH - 16) / LEGEND_CHAR), subsequent_indent="  "):
            text(g, x0, y + 10, part, "track")
            y += LINE
    return y


LEGEND_CHAR = 5.4  # px: a character of the legend's 11 px text, about (60 to a line): where a legend line wraps
