"""Match and tournament results for people (aligned text tables) and for programs (one
JSON object; for tournaments also CSV).

Each is made from one summary dict, so the text, JSON and CSV always show the same numbers.
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
    many = len(seats) > 2  # a first place can be shared without being a draw
    payoff = bool(summary["players"]) and "returns" in summary["players"][0]  # a returns: spec
    header = ["player", "wins"] + (["shared 1st"] if many else []) + ["win %"] + [f"as {s}" for s in seats] + ["mean diff"] + (["returns", "per game"] if payoff else [])
    rows = [header]
    for p in summary["players"]:
        row = [p["name"], str(p["wins"])] + ([str(p["shared"])] if many else []) + [f"{p['win_pct']:.1f}%"]
        row += [f"{p['wins_by_seat'][s]}/{p['games_by_seat'][s]}" for s in seats]
        row.append(f"{p['mean_diff']:+.2f}")
        if payoff:
            row += [f"{p['returns']:+d}", f"{p['mean_returns']:+.3f}"]
        rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    lines = [head, ""]
    for r in rows:
        cells = [r[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:], widths[1:])]
        lines.append("  ".join(cells).rstrip())
    lines.append("")
    tail = f"draws {summary['draws']}"
    if many:
        tail += f", shared first places {summary['shared']}"
    tail += f", mean plies {summary['mean_plies']:.1f}, mean margin {summary['mean_margin']:.2f}"
    if meta.get("first_key"):
        tail += f" ({meta['first_key']}, winner minus runner-up)"
    lines.append(tail)
    if summary["ply_limited"]:
        lines.append(f"stopped at the ply limit: {summary['ply_limited']} game{'s' if summary['ply_limited'] != 1 else ''} (no result: not wins, draws or losses)")
    legend = "wins = first alone; as SEAT = wins/games in that seat; mean diff = own first key minus the best opponent's"
    if payoff:
        legend += "; returns = the spec's payoff (returns:), summed and per game"
    if many:
        legend = "shared 1st = first together with some (not all) others; " + legend
    lines.append(legend)
    return "\n".join(lines)


# -- tournaments ---------------------------------------------------------------------------


def tournament_json(data: dict) -> str:
    return json.dumps(data, indent=2)


def _pct(rate: float) -> str:
    return f"{100 * rate:.1f}%"


def _ci(ci: Sequence[float]) -> str:
    return f"[{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def _aligned(rows: list[list[str]], left: int = 1) -> list[str]:
    """Columns padded to their widest cell; the first ``left`` columns flush left."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) if i < left else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip() for r in rows]


def tournament_table(data: dict) -> str:
    """Per variant: the players' table, the seats, lengths and margins, head to head; then,
    with several variants, a comparison of first-seat advantage and length."""
    head = f"{data['spec']}: tournament of {', '.join(data['players'])}, {data['games_per_pairing']} games per pairing, seed {data['seed']}, {data['engine']} engine"
    if data["interrupted"]:
        head += f" (interrupted after {data['games']} of {data['requested']} games)"
    lines = [head]
    for v in data["variants"]:
        lines += [""] + _variant_lines(v)
    if len(data["variants"]) > 1:
        lines += ["", "variants compared (first seat's win rate [95%]; plies mean ± sd):"]
        rows = [["variant", "games", "first seat", "win rate", "[95%]", "draws", "plies"]]
        for v, c in zip(data["variants"], data["comparison"]):
            rows.append([c["variant"], str(v["games"]), c["first_seat"], _pct(c["first_seat_win_rate"]), _ci(c["first_seat_win_ci"]), _pct(c["draw_rate"]), f"{c['plies']['mean']:.1f} ± {c['plies']['sd']:.1f}"])
        lines += _aligned(rows, left=1)
        lines.append("same pairing and game number in two variants = same seeds (common random numbers)")
    lines += ["", "win rate [95% Wilson interval] of wins (first alone); Elo: Bradley-Terry fit on pairwise results by rank, ties as half wins, mean 0, ± 95%"]
    return "\n".join(lines)


def _variant_lines(v: dict) -> list[str]:
    games = v["games"]
    title = f"{v['title']} [{v['variant']}]: {games} game{'s' if games != 1 else ''} in {len(v['pairings'])} pairing{'s' if len(v['pairings']) != 1 else ''}"
    if games != v["requested"]:
        title += f" (of {v['requested']})"
    seats = v["seats"]
    many = len(seats) > 2  # a first place can be shared without being a draw
    stops = v["ply_limited"] > 0
    rows = [["player", "games", "wins"] + (["shared 1st"] if many else []) + ["draws", "losses"] + (["stopped"] if stops else []) + ["win rate", "[95%]", "Elo", "±"] + [f"as {s}" for s in seats]]
    for p in sorted(v["players"], key=lambda p: -p["elo"]):
        row = [p["name"], str(p["games"]), str(p["wins"])] + ([str(p["shared"])] if many else []) + [str(p["draws"]), str(p["losses"])]
        row += ([str(p["stopped"])] if stops else []) + [_pct(p["win_rate"]), _ci(p["win_ci"]), f"{p['elo']:+.0f}", f"{p['elo_ci']:.0f}"]
        row += [f"{_pct(p['seats'][s]['win_rate'])} {_ci(p['seats'][s]['win_ci'])}" for s in seats]
        rows.append(row)
    out = [title, ""] + _aligned(rows)
    seat_text = ", ".join(f"{s} {_pct(v['seat_wins'][s]['win_rate'])} {_ci(v['seat_wins'][s]['win_ci'])}" for s in seats)
    out.append("")
    shared = f"; shared first places {v['shared']}" if many else ""
    out.append(f"wins by seat: {seat_text}; draws {v['draws']} ({_pct(v['draw_rate'])}){shared}")
    tail = f"plies {v['plies']['mean']:.1f} ± {v['plies']['sd']:.1f} (mean ± sd), margin {v['margin']['mean']:.2f} ± {v['margin']['sd']:.2f}"
    if v["first_key"]:
        tail += f" ({v['first_key']}, winner minus runner-up)"
    out.append(tail)
    if stops:
        out.append(f"stopped at the ply limit: {v['ply_limited']} game{'s' if v['ply_limited'] != 1 else ''} (no result: not wins, draws or losses, and not in Elo)")
    names = [p["name"] for p in v["players"]]
    out += ["", "head to head (row against column: wins-draws-losses):"]
    rows = [[""] + names]
    for a in names:
        rows.append([a] + ["-" if a == b else "{wins}-{draws}-{losses}".format(**v["head_to_head"][a][b]) for b in names])
    out += _aligned(rows)
    return out


def tournament_csv(data: dict) -> str:
    """One row per (variant, player); seat columns by seat number (seat1 is the spec's
    first seat), since variants may name or count seats differently."""
    import csv
    import io

    n_seats = max(len(v["seats"]) for v in data["variants"])
    header = ["variant", "player", "games", "wins", "shared", "draws", "losses", "stopped", "win_rate", "win_lo", "win_hi", "score", "elo", "elo_ci"]
    for k in range(1, n_seats + 1):
        header += [f"seat{k}", f"seat{k}_games", f"seat{k}_wins", f"seat{k}_win_rate", f"seat{k}_win_lo", f"seat{k}_win_hi"]
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    out.writerow(header)
    for v in data["variants"]:
        for p in v["players"]:
            row = [v["variant"], p["name"], p["games"], p["wins"], p["shared"], p["draws"], p["losses"], p["stopped"], p["win_rate"], p["win_ci"][0], p["win_ci"][1], p["score"], p["elo"], p["elo_ci"]]
            for k in range(n_seats):
                if k < len(v["seats"]):
                    s = v["seats"][k]
                    seat = p["seats"][s]
                    row += [s, seat["games"], seat["wins"], seat["win_rate"], seat["win_ci"][0], seat["win_ci"][1]]
                else:
                    row += [""] * 6
            out.writerow(row)
    return buf.getvalue().rstrip("\n")
