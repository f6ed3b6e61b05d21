"""Records round-trip: every game recorded from every spec and variant under specs/
replays, move for move, to the recorded result; a record is refused against a spec that
has changed since it was made.

Games are recorded with the default (compiled) engine and replayed with the default
(interpreter) one, so this also checks that the two back ends agree.
"""

from __future__ import annotations

import itertools
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from conftest import ROOT
from midgardc.cli import cli
from midgardc.spec.lower import list_player_counts, list_variants, load_game_ir

SPECS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "specs").rglob("*.yaml"))


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def _lines(path: Path) -> list[dict]:
    return [json.loads(t) for t in path.read_text(encoding="utf-8").splitlines()]


def _replays(spec: str, record: Path, line: dict) -> None:
    result = run("replay", spec, "--record", str(record), "--game", str(line["game"]), "--json")
    assert result.exit_code == 0, f"{spec} [{line['variant']}] game {line['game']}: {result.output}"
    assert "result matches the record" in result.stderr
    state = json.loads(result.stdout)
    assert state["terminal"] and state["moves"] == line["moves"]
    outcome = line["result"]["outcome"]  # replay --json names a sole winner, else "shared", "draw" or "stopped"
    assert state["winner"] == (line["result"]["winner_seat"] if outcome == "win" else outcome)


def test_the_specs_are_found() -> None:
    assert "specs/midgard.yaml" in SPECS and len(SPECS) >= 6


@pytest.mark.parametrize("spec", SPECS)
def test_every_recorded_game_of_every_variant_replays_to_its_result(spec: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    variants = list_variants(spec)
    record = tmp_path / "tournament.jsonl"
    names = [arg for v in ["base", *variants] for arg in ("-V", v)]
    seats = load_game_ir(spec, None).n_players  # the spec's default player count
    players = ",".join(["random", "greedy", "mcts:4", "mcts:6"][:seats])
    made = run("tournament", spec, "-p", players, "-n", "2", "--seed", "5", "--record", str(record), *names, "--json")
    assert made.exit_code == 0, made.output
    lines = _lines(record)
    # each variant in turn; 2 games per seating (a variant with fewer seats than players,
    # e.g. a two-player variant, seats several pairings)
    blocks = [(v, len(list(games))) for v, games in itertools.groupby(line["variant"] for line in lines)]
    assert [v for v, _ in blocks] == [None, *variants] and all(n % 2 == 0 for _, n in blocks)
    for v, n in blocks:
        if load_game_ir(spec, v).n_players == seats:
            assert n == 2
    for line in lines:
        _replays(spec, record, line)
    # A match record of the last variant replays the same way.
    match_record = tmp_path / "match.jsonl"
    last = ["--variant", variants[-1]] if variants else []
    made = run("match", spec, "-p", "greedy,random", "-n", "2", "--seed", "9", "--record", str(match_record), *last, "--json")
    assert made.exit_code == 0, made.output
    for line in _lines(match_record):
        _replays(spec, match_record, line)


COUNTED = [(spec, n) for spec in SPECS for n in list_player_counts(spec, None)]


@pytest.mark.parametrize("spec, count", COUNTED, ids=[f"{s}-{n}p" for s, n in COUNTED])
def test_every_player_count_records_and_replays(spec: str, count: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    record = tmp_path / "counted.jsonl"
    players = ",".join(["random", "greedy", "mcts:4", "mcts:6", "mcts:5"][:count])
    made = run("tournament", spec, "-p", players, "--player-count", str(count), "-n", str(count), "--seed", "3", "--record", str(record), "--json")
    assert made.exit_code == 0, made.output
    lines = _lines(record)
    assert len(lines) == count and all(line["players_count"] == count and len(line["seats"]) == count for line in lines)
    for line in lines:
        _replays(spec, record, line)


def test_a_changed_spec_is_refused_and_an_unchanged_copy_is_not(tmp_path: Path) -> None:
    spec = tmp_path / "ttt.yaml"
    shutil.copy(ROOT / "specs" / "classics" / "tic-tac-toe.yaml", spec)
    record = tmp_path / "games.jsonl"
    made = run("tournament", str(spec), "-p", "random,greedy", "-n", "2", "--record", str(record))
    assert made.exit_code == 0, made.output
    copy = tmp_path / "elsewhere" / "ttt.yaml"
    copy.parent.mkdir()
    shutil.copy(spec, copy)
    assert run("replay", str(copy), "--record", str(record), "--game", "1").exit_code == 0
    spec.write_text(spec.read_text() + "# a harmless-looking edit\n")
    refused = run("replay", str(spec), "--record", str(record), "--game", "1")
    assert refused.exit_code == 1
    assert f"{spec} is not the spec {record} was made from" in refused.stderr
    assert "has changed since" in refused.stderr and "refusing to replay" in refused.stderr
    assert refused.stdout == "" and "Traceback" not in refused.output
