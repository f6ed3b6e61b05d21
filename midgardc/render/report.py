"""The ``report`` command's work: replay a record, then print its tables and write the page."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Optional

from ..fileio import write_atomic
from ..matches.report import match_table
from .html_report import group_title, render_html
from .replays import Group, load_groups

if TYPE_CHECKING:  # pragma: no cover
    from ..ir.nodes import GameIR
    from ..runtime.game import Game


def write_report(record: str, open_game: Callable[["GameIR"], "Game"], html_out: Optional[str] = None, spec: Optional[str] = None, max_replays: int = 200) -> list[Group]:
    """Replay and check every game of ``record``; with ``html_out``, write the page (whole
    or not at all)."""
    groups = load_groups(record, open_game, spec, max_replays if html_out else 0)
    if html_out:
        total = sum(len(g.results) for g in groups)
        write_atomic(html_out, render_html(record, groups, max_replays, total), "the report")
    return groups


def report_text(groups: list[Group]) -> str:
    """The same table as ``midgardc match`` prints, once per group."""
    parts = []
    for g in groups:
        mean, sd = g.length_stats()
        meta = {
            "title": group_title(g),
            "variant": None,  # already in the title
            "seed": ", ".join(str(s) for s in sorted(g.seeds)) or "-",
            "engine": g.engine,
            "seats": list(g.ir.players),
            "first_key": g.ir.ranking[0].name if g.ir.ranking else None,
        }
        summary = g.tally.summary()
        summary["players"] = [p for p in summary["players"] if p["name"] in g.active]  # a pairing's players only
        parts.append(match_table(summary, meta) + f"\nlength: mean {mean:.1f} plies, sd {sd:.1f}, shortest {min(g.plies)}, longest {max(g.plies)}")
    return "\n\n".join(parts)
