"""`midgardc report`: the HTML page's numbers equal the record's own tallies, the page is
self-contained, and records that cannot be trusted (changed spec, a game that replays to
another result, garbled lines) are refused with one clear message."""

from __future__ import annotations

import html
import json
import re
import shutil
import statistics
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from conftest import MIDGARD, ROOT
from midgardc.cli import cli

TTT = str(ROOT / "specs" / "classics" / "tic-tac-toe.yaml")


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def _match(spec: str, record: Path, games: int, seed: int, *extra: str) -> list[dict]:
    result = run("match", spec, "--players", "random,greedy", "--games", str(games), "--seed", str(seed), "--engine", "interpreted", "--record", str(record), *extra)
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in record.read_text().splitlines()]


@pytest.fixture(scope="module")
def ttt(tmp_path_factory) -> tuple[Path, list[dict]]:
    record = tmp_path_factory.mktemp("report") / "ttt.jsonl"
    return record, _match(TTT, record, 30, 11)


def _report(record: Path, *extra: str) -> tuple[Result, str]:
    out = record.with_suffix(".html")
    result = run("report", str(record), "--html", str(out), "--engine", "interpreted", *extra)
    return result, out.read_text() if out.exists() else ""


def _table(page: str, cls: str) -> list[list[str]]:
    body = re.search(rf'<table class="{cls}">(.*?)</table>', page, re.S)
    assert body, f"no table {cls}"
    rows = re.findall(r"<tr>(.*?)</tr>", body.group(1), re.S)
    return [[html.unescape(c) for c in re.findall(r"<t[dh]>(.*?)</t[dh]>", r, re.S)] for r in rows]


def test_tables_equal_the_records_tallies(ttt) -> None:
    record, lines = ttt
    result, page = _report(record)
    assert result.exit_code == 0, result.output
    seats = lines[0]["seat_names"]
    players = _table(page, "players")
    assert players[0][:7] == ["player", "games", "wins", "draws", "losses", "stopped", "win %"]  # (two seats: no "shared 1st")
    for row in players[1:]:
        name = row[0]
        mine = [ln for ln in lines if name in ln["seats"]]
        wins = sum(1 for ln in mine if ln["result"]["winner"] == name)
        draws = sum(1 for ln in mine if ln["result"]["winner"] == "draw")
        stopped = sum(1 for ln in mine if ln["result"]["winner"] == "stopped")
        assert row[1:7] == [str(len(mine)), str(wins), str(draws), str(len(mine) - wins - draws - stopped), str(stopped), f"{100 * wins / len(mine):.1f}%"]
        for i, seat in enumerate(seats):
            in_seat = [ln for ln in mine if ln["seats"][i] == name]
            won = sum(1 for ln in in_seat if ln["result"]["winner_seat"] == seat)
            assert row[7 + i] == f"{won}/{len(in_seat)}"
    seat_rows = _table(page, "seats")[1:]
    for row, seat in zip(seat_rows, seats):
        won = sum(1 for ln in lines if ln["result"]["winner_seat"] == seat)
        assert row == [seat, str(len(lines)), str(won), f"{100 * won / len(lines):.1f}%"]
    plies = [ln["result"]["plies"] for ln in lines]
    draws = sum(1 for ln in lines if ln["result"]["winner"] == "draw")
    summary = _table(page, "summary")[1]
    assert summary[:7] == [str(len(lines)), str(draws), f"{100 * draws / len(lines):.1f}%", f"{statistics.mean(plies):.1f}", f"{statistics.pstdev(plies):.1f}", str(min(plies)), str(max(plies))]
    # the text summary (no --html) shows the same wins
    text = run("report", str(record), "--engine", "interpreted")
    assert text.exit_code == 0, text.output
    for row in players[1:]:
        assert re.search(rf"^{row[0]}\s+{row[2]}\s", text.stdout, re.M)


def _frames(game: dict) -> list[list[int]]:
    """A replay's pictures as lists of ids of their pieces of text."""
    from midgardc.render.replays import apply_step

    frames = [list(game["first"])]
    for step in game["steps"]:
        frames.append(apply_step(frames[-1], step))
    return frames


def _picture(parts: list[str], frame: list[int]):
    import xml.etree.ElementTree as ET

    return ET.fromstring("".join(parts[i] for i in frame))


def test_page_is_self_contained_with_charts_and_replays(ttt) -> None:
    record, lines = ttt
    _, page = _report(record)
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", page, re.I)
    assert set(re.findall(r"https?://[^\s\"'<>\\]+", page)) == {"http://www.w3.org/2000/svg"}  # (\\: quoted in JSON)
    assert "<link" not in page and "@import" not in page and "url(" not in page
    assert page.count('class="chart seat-chart"') == 1 and page.count('class="chart length-histogram"') == 1
    bars = re.findall(r'<rect class="chart-bar"[^>]*height="([0-9.]+)"[^>]*><title>([^<]*) plies: (\d+) game', page)
    assert sum(int(n) for _, _, n in bars) == len(lines)
    data = json.loads(re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', page, re.S).group(1))
    assert [g["game"] for g in data["games"]] == [ln["game"] for ln in lines]
    assert [g["moves"] for g in data["games"]] == [ln["moves"] for ln in lines]
    parts = data["boards"][0]["parts"]
    for g in data["games"]:
        assert len(g["steps"]) == len(g["moves"]) and len(g["turns"]) == len(g["moves"]) + 1
        frames = _frames(g)
        for before, after, move in zip(frames, frames[1:], g["moves"]):  # tic-tac-toe: one mark per move
            marked = lambda f: {el.get("data-cell") for el in _picture(parts, f).iter() if el.get("data-cell") and " p" in el.get("class")}
            assert marked(after) - marked(before) == {move}
    assert page.count("<option ") == len(lines)
    assert 'id="game-select"' in page and 'id="next"' in page and 'id="ply"' in page


def test_max_replays_caps_the_embedded_games_and_says_so(ttt) -> None:
    record, lines = ttt
    result, page = _report(record, "--max-replays", "4")
    assert result.exit_code == 0, result.output
    assert page.count("<option ") == 4
    assert f"Replays of the first 4 of {len(lines)} games" in page
    # the tables still count every game
    assert _table(page, "summary")[1][0] == str(len(lines))


def test_groups_by_variant_and_pairing(tmp_path: Path) -> None:
    a = _match(TTT, tmp_path / "a.jsonl", 4, 1)
    b = _match(TTT, tmp_path / "b.jsonl", 6, 2, "--variant", "misere")
    record = tmp_path / "t.jsonl"
    lines = [dict(ln, pairing="random-greedy", players=["random", "greedy"]) for ln in a + b]
    record.write_text("".join(json.dumps(ln) + "\n" for ln in lines))
    result, page = _report(record)
    assert result.exit_code == 0, result.output
    headings = re.findall(r'<section class="group" id="group-\d+"><h2>(.*?)</h2>', page)
    assert headings == [html.escape("Tic-tac-toe — pairing random-greedy"), html.escape("Tic-tac-toe [misere] — pairing random-greedy")]
    sums = [t for t in re.findall(r'<table class="summary">.*?</table>', page, re.S)]
    assert [re.findall(r"<td>(\d+)</td>", t)[0] for t in sums] == ["4", "6"]


def test_a_tournament_record_is_grouped_by_variant_and_pairing(tmp_path: Path) -> None:
    record = tmp_path / "t.jsonl"
    result = run("tournament", TTT, "-p", "random,greedy,random", "-V", "base", "-V", "misere", "--games", "2", "--seed", "1", "--engine", "interpreted", "--record", str(record))
    assert result.exit_code == 0, result.output
    lines = [json.loads(x) for x in record.read_text().splitlines()]
    result, page = _report(record)
    assert result.exit_code == 0, result.output
    expected = []
    for ln in lines:
        key = (ln["variant"], " vs ".join(ln["pairing"]))
        if key not in expected:
            expected.append(key)
    headings = [html.unescape(h) for h in re.findall(r'<section class="group" id="group-\d+"><h2>(.*?)</h2>', page)]
    assert headings == [f"Tic-tac-toe{' [' + v + ']' if v else ''} — pairing {p}" for v, p in expected]
    assert len(expected) == 6  # 3 pairings x 2 variants
    for section, (variant, pairing) in zip(re.findall(r'<section class="group".*?</section>', page, re.S), expected):
        mine = [ln for ln in lines if ln["variant"] == variant and " vs ".join(ln["pairing"]) == pairing]
        players = [row[0] for row in _table(section, "players")[1:]]
        assert players == pairing.split(" vs ")  # only the pairing's players
        assert _table(section, "summary")[1][0] == str(len(mine))


def test_a_changed_spec_is_refused(tmp_path: Path) -> None:
    spec = tmp_path / "ttt.yaml"
    shutil.copy(TTT, spec)
    record = tmp_path / "r.jsonl"
    _match(str(spec), record, 2, 1)
    spec.write_text(spec.read_text() + "\n# edited\n")
    result, page = _report(record)
    assert result.exit_code == 1 and page == ""
    assert "has changed since" in result.stderr and "Traceback" not in result.output
    assert not list(tmp_path.glob("*.html*"))  # nothing half-written


def test_a_game_that_replays_differently_is_refused_by_number(tmp_path: Path) -> None:
    record = tmp_path / "r.jsonl"
    lines = _match(TTT, record, 4, 3)
    lines[2]["result"]["plies"] += 1
    record.write_text("".join(json.dumps(ln) + "\n" for ln in lines))
    result, _ = _report(record)
    assert result.exit_code == 1
    assert "game 2 (line 3)" in result.stderr and "different result" in result.stderr
    lines[2]["result"]["plies"] -= 1
    lines[1]["moves"] = lines[1]["moves"][:-1]
    record.write_text("".join(json.dumps(ln) + "\n" for ln in lines))
    result, _ = _report(record)
    assert result.exit_code == 1 and "game 1 (line 2)" in result.stderr and "does not reach the end" in result.stderr


@pytest.mark.parametrize(
    "text,message",
    [
        ("", "holds no games"),
        ('{"game": 0}\n{not json\n', ":1:"),
        ('{"spec": "x.yaml", "spec_sha256": "0", "variant": null, "seed": 0, "game": 0, "game_seed": 1, "seat_names": [], "seats": [], "moves": [], "result": {}, "final_sha256": "0"}\n{oops\n', ":2:2: error: not a match record line"),
        ('{"spec": "x.yaml", "game": 0, "game_seed": 1, "seat_names": [], "seats": [], "moves": [], "result": {}}\n', ":1:1: error: not a match record line: 'spec_sha256' (the spec's sha256) is missing"),
        ('{"spec": "x.yaml", "game": "zero"}\n', "'game' (the game's number) is a str"),
        ("[1, 2]\n", "expected a JSON object"),
    ],
)
def test_bad_records_are_clear_errors(tmp_path: Path, text: str, message: str) -> None:
    record = tmp_path / "bad.jsonl"
    record.write_text(text)
    result, _ = _report(record)
    assert result.exit_code == 1, result.output
    assert message in result.stderr and "Traceback" not in result.output


def test_missing_record_and_unknown_spec(tmp_path: Path) -> None:
    result = run("report", str(tmp_path / "none.jsonl"))
    assert result.exit_code == 1 and "cannot read the record" in result.stderr
    record = tmp_path / "r.jsonl"
    record.write_text(json.dumps({"spec": str(tmp_path / "gone.yaml"), "spec_sha256": "0" * 64, "variant": None, "seed": 0, "game": 0, "game_seed": 1, "seat_names": ["x", "o"], "seats": ["a", "b"], "moves": [], "result": {}, "final_sha256": "0"}) + "\n")
    result = run("report", str(record), "--engine", "interpreted")
    assert result.exit_code == 1 and "gone.yaml" in result.stderr and "Traceback" not in result.output


def test_midgard_display_states_are_replayed(tmp_path: Path) -> None:
    record = tmp_path / "m.jsonl"
    lines = _match(MIDGARD, record, 2, 4, "--variant", "mere-mortal")
    result, page = _report(record)
    assert result.exit_code == 0, result.output
    data = json.loads(re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', page, re.S).group(1))
    game = data["games"][0]
    parts = data["boards"][0]["parts"]
    frames = _frames(game)
    cells = lambda f: [el.get("class") for el in _picture(parts, f).iter() if el.get("data-cell")]
    # the last frame: as many owned cells as the recorded tiles scores
    owned = sum(1 for c in cells(frames[-1]) if c.startswith("cell p"))
    assert owned == sum(k["tiles"] for k in lines[0]["result"]["keys"].values())
    assert all(c.startswith("cell s") for c in cells(frames[0]))  # at the start every cell shows a display state (ice)
    legend = [el.text for el in _picture(parts, frames[0]).iter() if el.get("class") == "track"]
    assert "blizzard" in legend and "ice" in legend
    # the replay's pictures are the pictures of render.svg, ply by ply (a spectator's view)
    from midgardc.render.svg import render_svg
    from midgardc.engines import game_from_ir
    from midgardc.spec.lower import load_game_ir

    state = game_from_ir(load_game_ir(MIDGARD, "mere-mortal")).new_state(lines[0]["game_seed"])
    for ply, move in enumerate(lines[0]["moves"][:12]):
        assert "".join(parts[i] for i in frames[ply]) == render_svg(state, None, "board-0")
        state.apply(move)
