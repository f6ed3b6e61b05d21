"""Match results for people (an aligned text table) and for programs (one JSON object).

Both are made from the same summary dict, so they always show the same numbers.
"""

from __future__ import annotations

import json
from typing import Sequence


def match_json(summary: dict, meta: dict) -> str:
    return json.dumps({**meta, **summary}, indent=2)


def match_table(summary: dict, meta: dict) -> str:
    seats: Sequence[str] = meta["seats"]
    games = summary["games"]
    title = meta["title"] + (f" [{meta['variant']}]" if meta.get("variant") else "")
    head = f"{title}: {games} game{'s' if games != 1 else ''}, seed {meta['seed']}, {meta['engine']} engine"
    if meta.get("interrupted"):
        head += f" (interrupted after {games} of {meta['requested']})"
    header = ["player", "wins", "win %"] + [f"as {s}" for s in seats] + ["mean diff"]
    rows = [header]
    for p in summary["players"]:
        row = [p["name"], str(p["wins"]), f"{p['win_pct']:.1f}%"]
        row += [f"{p['wins_by_seat'][s]}/{p['games_by_seat'][s]}" for s in seats]
        row.append(f"{p['mean_diff']:+.2f}")
        rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    lines = [head, ""]
    for r in rows:
        cells = [r[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:], widths[1:])]
        lines.append("  ".join(cells).rstrip())
    lines.append("")
    tail = f"draws {summary['draws']}, mean plies {summary['mean_plies']:.1f}, mean margin {summary['mean_margin']:.2f}"
    if meta.get("first_key"):
        tail += f" ({meta['first_key']}, winner minus runner-up)"
    if summary["ply_limited"]:
        tail += f", {summary['ply_limited']} stopped at the ply limit (drawn)"
    lines.append(tail)
    lines.append("as SEAT = wins/games in that seat; mean diff = own first key minus the best opponent's")
    return "\n".join(lines)
