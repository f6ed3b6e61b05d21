"""One self-contained HTML page about a match record: tables, charts, and a replay viewer.

Everything is inline (CSS, JavaScript, SVG): the page opens from disk with no network. The
replay viewer shows the very pictures of ``render.svg`` (what a spectator sees): per group,
every distinct piece of text of its pictures once, and per game the first picture as a
list of pieces, then per ply only the pieces that changed and the seat to move (see
render.replays); the page rebuilds each picture inside the same ``<svg>`` element.
"""

from __future__ import annotations

import html
import json
import xml.etree.ElementTree as ET
from typing import Sequence

from .replays import Group
from .svg import PLAYER_FILLS, to_text

CHART_W, CHART_H = 520, 220
HIST_BINS = 20


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _pct(n: int, d: int) -> str:
    return f"{100.0 * n / d:.1f}%" if d else "-"


def _table(head: Sequence[str], rows: Sequence[Sequence[object]], cls: str) -> str:
    out = [f'<table class="{cls}"><thead><tr>' + "".join(f"<th>{_e(h)}</th>" for h in head) + "</tr></thead><tbody>"]
    for r in rows:
        out.append("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in r) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def group_title(g: Group) -> str:
    title = g.ir.title + (f" [{g.variant}]" if g.variant else "")
    return title + (f" — pairing {g.pairing}" if g.pairing else "")


def _tables(g: Group) -> str:
    s = g.tally.summary()
    seats = list(g.ir.players)
    games = s["games"]
    many = len(seats) > 2  # a first place can be shared without being a draw
    head = ["player", "games", "wins"] + (["shared 1st"] if many else []) + ["draws", "losses", "stopped", "win %"] + [f"wins as {x}" for x in seats] + ["mean diff"]
    rows = []
    for p in s["players"]:
        played = p["games"]
        if not played:
            continue
        rows.append(
            [p["name"], played, p["wins"]] + ([p["shared"]] if many else []) + [p["draws"], p["losses"], p["stopped"], _pct(p["wins"], played)]
            + [f"{p['wins_by_seat'][x]}/{p['games_by_seat'][x]}" for x in seats]
            + [f"{p['mean_diff']:+.2f}"]
        )
    per_player = _table(head, rows, "players")
    seat_rows = []
    for i, x in enumerate(seats):
        wins = sum(1 for r in g.results if r.winner == i)
        seat_rows.append([x, games, wins, _pct(wins, games)])
    per_seat = _table(["seat", "games", "wins", "win %"], seat_rows, "seats")
    mean, sd = g.length_stats()
    summary = _table(
        ["games", "draws", "draw %"] + (["shared first"] if many else []) + ["mean length (plies)", "sd", "shortest", "longest", "stopped at the ply limit"],
        [[games, s["draws"], _pct(s["draws"], games)] + ([s["shared"]] if many else []) + [f"{mean:.1f}", f"{sd:.1f}", min(g.plies), max(g.plies), s["ply_limited"]]],
        "summary",
    )
    note = "<p class=note>wins = first alone" + ("; shared 1st = first together with some (not all) others" if many else "") + "; a game stopped at the ply limit has no result (not a win, draw or loss)</p>"
    return f"<h3>Players</h3>{per_player}{note}<h3>Seats</h3>{per_seat}<h3>Games</h3>{summary}"


def _svg(width: int, height: int, cls: str, title: str) -> ET.Element:
    svg = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "class": f"chart {cls}", "viewBox": f"0 0 {width} {height}", "width": str(width), "height": str(height), "font-family": "sans-serif", "font-size": "11"})
    ET.SubElement(svg, "title").text = title
    return svg


def _bar(svg: ET.Element, x: float, y: float, w: float, h: float, fill: str, tip: str, cls: str = "chart-bar") -> None:
    r = ET.SubElement(svg, "rect", {"class": cls, "x": f"{x:.1f}", "y": f"{y:.1f}", "width": f"{w:.1f}", "height": f"{max(h, 0):.1f}", "fill": fill})
    ET.SubElement(r, "title").text = tip


def _text(svg: ET.Element, x: float, y: float, text: str, anchor: str = "middle") -> None:
    ET.SubElement(svg, "text", {"x": f"{x:.1f}", "y": f"{y:.1f}", "text-anchor": anchor}).text = text


def seat_chart(g: Group) -> str:
    """Per seat: the share of games won from that seat, by each player and by anyone."""
    seats = list(g.ir.players)
    svg = _svg(CHART_W, CHART_H, "seat-chart", "win rate by seat")
    top, bottom, left = 20, CHART_H - 40, 40
    span = bottom - top
    for pct in (0, 50, 100):
        y = bottom - span * pct / 100
        ET.SubElement(svg, "line", {"x1": str(left), "x2": str(CHART_W - 10), "y1": f"{y:.1f}", "y2": f"{y:.1f}", "stroke": "#ddd"})
        _text(svg, left - 4, y + 4, f"{pct}%", "end")
    slot = (CHART_W - left - 10) / max(1, len(seats))
    series = ["all"] + g.active
    bw = min(36.0, (slot - 16) / len(series))
    for i, seat in enumerate(seats):
        x0 = left + i * slot + 8
        for j, who in enumerate(series):
            if who == "all":
                games = sum(1 for r in g.results)
                wins = sum(1 for r in g.results if r.winner == i)
                fill = "#555"
            else:
                p = g.labels.index(who)
                games = sum(1 for r in g.results if r.seats[i] == p)
                wins = sum(1 for r in g.results if r.seats[i] == p and r.winner == i)
                fill = PLAYER_FILLS[(j - 1) % len(PLAYER_FILLS)]
            h = span * wins / games if games else 0
            _bar(svg, x0 + j * bw, bottom - h, bw - 2, h, fill, f"{who} as {seat}: {wins}/{games} won ({_pct(wins, games)})")
        _text(svg, x0 + len(series) * bw / 2, bottom + 16, seat)
    for j, who in enumerate(series):  # legend
        fill = "#555" if who == "all" else PLAYER_FILLS[(j - 1) % len(PLAYER_FILLS)]
        ET.SubElement(svg, "rect", {"x": str(left + j * 110), "y": str(CHART_H - 14), "width": "10", "height": "10", "fill": fill})
        _text(svg, left + j * 110 + 14, CHART_H - 5, "anyone" if who == "all" else who, "start")
    return to_text(svg)


def length_histogram(g: Group) -> str:
    """Game lengths in plies, in at most HIST_BINS equal bins."""
    svg = _svg(CHART_W, CHART_H, "length-histogram", "game length histogram")
    lo, hi = min(g.plies), max(g.plies)
    width = max(1, -(-(hi - lo + 1) // HIST_BINS))
    bins = [0] * (-(-(hi - lo + 1) // width))
    for p in g.plies:
        bins[(p - lo) // width] += 1
    top, bottom, left = 20, CHART_H - 40, 40
    span, peak = bottom - top, max(bins)
    bw = (CHART_W - left - 10) / len(bins)
    _text(svg, left - 4, top + 4, str(peak), "end")
    _text(svg, left - 4, bottom, "0", "end")
    for i, n in enumerate(bins):
        a = lo + i * width
        label = str(a) if width == 1 else f"{a}-{a + width - 1}"
        h = span * n / peak if peak else 0
        _bar(svg, left + i * bw, bottom - h, bw - 1, h, "#2f6db5", f"{label} plies: {n} game{'s' if n != 1 else ''}")
        if len(bins) <= 10 or i % 2 == 0:
            _text(svg, left + i * bw + bw / 2, bottom + 14, label)
    _text(svg, left + (CHART_W - left) / 2, CHART_H - 5, "plies per game")
    return to_text(svg)


def _replay_data(groups: list[Group]) -> tuple[dict, list[str]]:
    """The JSON the viewer reads, and one board picture per group (hidden until chosen)."""
    boards = []
    pictures = []
    games = []
    for gi, g in enumerate(groups):
        ir = g.ir
        boards.append({"id": g.board_id, "title": group_title(g), "players": list(ir.players), "parts": g.parts})
        first = g.replays[0] if g.replays else None
        if first is not None:
            svg = "".join(g.parts[i] for i in first.first)
            pictures.append(f'<div class="board-holder" data-board="{gi}" hidden>{svg}</div>')
        for r in g.replays:
            games.append({"board": gi, "game": r.game, "seats": r.seats, "moves": r.moves, "first": r.first, "steps": r.steps, "turns": r.turns, "result": r.result})
    return {"boards": boards, "games": games}, pictures


def _script_json(data: dict) -> str:
    """JSON that is safe inside a <script> element."""
    text = json.dumps(data, separators=(",", ":"))
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


def render_html(record: str, groups: list[Group], max_replays: int, total_games: int) -> str:
    """The whole page."""
    data, pictures = _replay_data(groups)
    shown = len(data["games"])
    sections = []
    for gi, g in enumerate(groups):
        seeds = ", ".join(str(s) for s in sorted(g.seeds)) or "-"
        sections.append(
            f'<section class="group" id="group-{gi}"><h2>{_e(group_title(g))}</h2>'
            f'<p class="meta">spec {_e(g.spec)}; {len(g.results)} game{"s" if len(g.results) != 1 else ""}; '
            f"match seed {_e(seeds)}; replayed on the {_e(g.engine)} engine, every result checked against the record</p>"
            f"{_tables(g)}"
            f'<div class="charts"><figure><figcaption>Win rate by seat</figcaption>{seat_chart(g)}</figure>'
            f"<figure><figcaption>Game length</figcaption>{length_histogram(g)}</figure></div></section>"
        )
    options = []
    for i, gm in enumerate(data["games"]):
        g = groups[gm["board"]]
        where = f"{g.variant} " if g.variant and len(groups) > 1 else ""
        pair = f"[{g.pairing}] " if g.pairing else ""
        options.append(f'<option value="{i}">{_e(where + pair)}game {gm["game"]}: {_e(" vs ".join(gm["seats"]))} — {_e(gm["result"])}, {len(gm["moves"])} plies</option>')
    cap = ""
    if shown < total_games:
        cap = f'<p class="note" id="replay-cap">Replays of the first {shown} of {total_games} games are included (--max-replays {max_replays}); the tables and charts count every game.</p>'
    replay = (
        '<section id="replay"><h2>Replay</h2>'
        + cap
        + f'<p><label for="game-select">Game </label><select id="game-select">{"".join(options)}</select></p>'
        + '<p class="controls"><button id="first" title="first (Home)">|&#x25C0;</button> <button id="prev" title="previous (&#x2190;)">&#x25C0;</button> '
        + '<button id="next" title="next (&#x2192;)">&#x25B6;</button> <button id="last" title="last (End)">&#x25B6;|</button> '
        + '<input type="range" id="slider" min="0" max="0" value="0"> ply <span id="ply">0</span> of <span id="plies">0</span></p>'
        + '<div class="viewer"><div id="boards">'
        + "".join(pictures)
        + '</div><div class="side"><p id="status"></p><ol id="move-list"></ol></div></div></section>'
    )
    if not data["games"]:
        replay = '<section id="replay"><h2>Replay</h2><p class="note">No replays are included (--max-replays 0).</p></section>'
    return PAGE.format(
        title=_e(f"Match report: {record}"),
        heading=_e(f"Match report — {record}"),
        intro=_e(f"{total_games} game{'s' if total_games != 1 else ''} in {len(groups)} group{'s' if len(groups) != 1 else ''}"),
        css=CSS,
        sections="".join(sections),
        replay=replay,
        data=_script_json(data),
        js=JS,
    )


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>{css}</style></head>
<body><h1>{heading}</h1><p class="meta">{intro}</p>
{sections}
{replay}
<script id="replay-data" type="application/json">{data}</script>
<script>{js}</script>
</body></html>
"""

CSS = """
body{font-family:sans-serif;margin:1.5em;color:#222;max-width:1400px}
table{border-collapse:collapse;margin:.4em 0 1em}
th,td{border:1px solid #ccc;padding:.25em .6em;text-align:right}
th:first-child,td:first-child{text-align:left}
thead th{background:#f2f2f2}
.meta,.note{color:#555}
.charts{display:flex;flex-wrap:wrap;gap:2em}
figure{margin:0}figcaption{font-weight:bold;margin-bottom:.3em}
.viewer{display:flex;gap:1.5em;align-items:flex-start}
.side{min-width:14em}
#move-list{max-height:32em;overflow-y:auto;padding-left:2.5em;margin:0}
#move-list li{cursor:pointer;padding:0 .3em}
#move-list li.current{background:#ffe58a;font-weight:bold}
#slider{width:18em;vertical-align:middle}
button{font-size:1em;min-width:2.2em}
"""

JS = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var select = document.getElementById("game-select");
  if (!select || !data.games.length) { return; }
  var slider = document.getElementById("slider");
  var plyOut = document.getElementById("ply");
  var pliesOut = document.getElementById("plies");
  var list = document.getElementById("move-list");
  var statusOut = document.getElementById("status");
  var game = null, board = null, frames = [], ply = 0, svg = null;

  function choose(index) {
    game = data.games[index];
    board = data.boards[game.board];
    var holders = document.querySelectorAll(".board-holder");
    for (var i = 0; i < holders.length; i++) {
      holders[i].hidden = holders[i].getAttribute("data-board") !== String(game.board);
    }
    svg = document.getElementById(board.id);
    frames = [game.first.slice()];
    for (var p = 0; p < game.steps.length; p++) {  // (render.replays.apply_step)
      var d = game.steps[p], old = frames[p], next = [];
      for (var k = 0; k < d.length; k++) {
        if (d[k] >= 0) { next.push(d[k]); }
        else { var at = -d[k] - 1; next = next.concat(old.slice(at, at + d[k + 1])); k++; }
      }
      frames.push(next);
    }
    list.innerHTML = "";
    game.moves.forEach(function (m, i) {
      var li = document.createElement("li");
      li.textContent = m;
      li.setAttribute("data-ply", String(i + 1));
      li.title = board.players[i < game.turns.length ? game.turns[i] : 0] || "";
      li.addEventListener("click", function () { show(i + 1); });
      list.appendChild(li);
    });
    slider.max = String(game.moves.length);
    pliesOut.textContent = String(game.moves.length);
    show(0);
  }

  // a picture: its first piece is the <svg> opening tag (its size), the last the closing
  // tag; the pieces between become the children of the one <svg> element on the page
  function draw(frame) {
    var open = board.parts[frame[0]];
    ["width", "height", "viewBox"].forEach(function (name) {
      var m = open.match(new RegExp(" " + name + '="([^"]*)"'));
      if (m) { svg.setAttribute(name, m[1]); }
    });
    var inner = [];
    for (var i = 1; i < frame.length - 1; i++) { inner.push(board.parts[frame[i]]); }
    svg.innerHTML = inner.join("");
  }

  function statusAt(p) {
    var seat = game.turns[p];
    if (seat < 0) { return "game over after " + game.moves.length + " moves: " + game.result; }
    return board.players[seat] + " (" + game.seats[seat] + ") to move (move " + (p + 1) + ")";
  }

  function show(p) {
    p = Math.max(0, Math.min(game.moves.length, p));
    ply = p;
    draw(frames[p]);
    var text = statusAt(p);
    statusOut.textContent = text;
    var boardStatus = document.getElementById(board.id + "-status");
    if (boardStatus) { boardStatus.textContent = text; }
    slider.value = String(p);
    plyOut.textContent = String(p);
    var items = list.children;
    for (var i = 0; i < items.length; i++) {
      items[i].classList.toggle("current", i === p - 1);
    }
    if (p > 0 && items[p - 1] && items[p - 1].scrollIntoView) { items[p - 1].scrollIntoView({block: "nearest"}); }
  }

  select.addEventListener("change", function () { choose(+select.value); });
  document.getElementById("first").addEventListener("click", function () { show(0); });
  document.getElementById("prev").addEventListener("click", function () { show(ply - 1); });
  document.getElementById("next").addEventListener("click", function () { show(ply + 1); });
  document.getElementById("last").addEventListener("click", function () { show(game.moves.length); });
  slider.addEventListener("input", function () { show(+slider.value); });
  document.addEventListener("keydown", function (ev) {
    if (ev.target && (ev.target.tagName === "SELECT" || ev.target.tagName === "INPUT")) { return; }
    var moves = {ArrowRight: 1, ArrowLeft: -1};
    if (ev.key in moves) { show(ply + moves[ev.key]); ev.preventDefault(); }
    else if (ev.key === "Home") { show(0); ev.preventDefault(); }
    else if (ev.key === "End") { show(game.moves.length); ev.preventDefault(); }
  });
  choose(0);
})();
"""
