"""`midgardc bench` over several specs: one table (or one JSON object) for all of them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from conftest import SPECS
from midgardc.cli import cli

TTT = str(SPECS / "classics" / "tic-tac-toe.yaml")
HEX = str(SPECS / "classics" / "hex.yaml")


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_bench_several_specs_in_one_table() -> None:
    result = run("bench", TTT, HEX, "--engine", "interpreted", "-n", "2", "--runs", "3", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["runs"] == 3 and [r["spec"] for r in data["results"]] == [TTT, HEX]
    for r in data["results"]:
        row = r["engines"]["interpreted"]
        assert row["playouts"] == 2 and row["playouts_per_s"] > 0 and r["ratio"] is None
    text = run("bench", TTT, HEX, "--engine", "interpreted", "-n", "2", "--all-variants").stdout.splitlines()
    assert text[1].split()[:4] == ["spec", "variant", "engine", "playouts"]
    assert [line.split()[1] for line in text[2:]] == ["-", "misere", "-", "size-9", "size-13", "swap"]


def test_bench_with_no_spec_runs_every_spec(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "specs" / "more").mkdir(parents=True)
    shutil.copy(TTT, tmp_path / "specs" / "more" / "tic-tac-toe.yaml")
    monkeypatch.chdir(tmp_path)
    for args in ([], ["--all"]):
        result = run("bench", *args, "--engine", "both", "-n", "200", "--json")
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        assert [(r["spec"], r["variant"]) for r in data["results"]] == [("specs/more/tic-tac-toe.yaml", None), ("specs/more/tic-tac-toe.yaml", "misere")]
        assert all(r["ratio"] > 1 for r in data["results"])
    table = run("bench", "--engine", "both", "-n", "200").stdout
    assert "compiled/interpreted" in table.splitlines()[1] and table.count("x\n") == 2
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.chdir(empty)
    assert run("bench").exit_code == 1
