"""A record proves its game or is refused with the field named (midgardc/matches/proof.py):
``replay --record`` and ``report`` replay every field — the spec's sha256, the seats, the
seed (and every roll from it), the moves, the whole result, the final state — and refuse
a line whose field does not hold with one message naming it (exit 1, no traceback).

Each forgery below was accepted before (issue 28, item 10): an empty result, a null or
missing spec sha256, seat names and seats that were never read, a game seed changed by one
that still "matched" most Kuhn poker games.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Callable

import pytest
from click.testing import CliRunner, Result

from conftest import ROOT
from midgardc.cli import cli
from midgardc.runtime.rng import derive_seed

KUHN = "specs/kuhn-poker.yaml"
DICE = str(ROOT / "tests" / "data" / "private_dice.yaml")


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


@pytest.fixture(scope="module")
def kuhn_record(tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    """Twelve games of Kuhn poker (a hidden deal from the seed), as 'match --record' writes."""
    path = tmp_path_factory.mktemp("kuhn") / "kuhn.jsonl"
    made = CliRunner().invoke(cli, ["match", str(ROOT / KUHN), "-p", "random,random", "-n", "12", "--seed", "3", "-e", "interpreted", "--record", str(path)])
    assert made.exit_code == 0, made.output
    return [json.loads(t) for t in path.read_text().splitlines()]


def _write(tmp_path: Path, lines: list[dict], name: str = "forged.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def _refused(result: Result, field: str) -> None:
    assert result.exit_code == 1, result.output
    assert f"'{field}'" in result.stderr, result.stderr
    assert "Traceback" not in result.output and result.stdout == ""
    assert result.stderr.count("error:") == 1


def _replay(path: Path, game: int = 0) -> Result:
    return run("replay", str(ROOT / KUHN), "--record", str(path), "--game", str(game), "-e", "interpreted")


def _report(path: Path) -> Result:
    return run("report", str(path), "--spec", str(ROOT / KUHN), "-e", "interpreted")


def _set(key: str, value: Any) -> Callable[[dict], None]:
    def change(line: dict) -> None:
        line[key] = value

    return change


def _drop(key: str) -> Callable[[dict], None]:
    return lambda line: line.pop(key)


def _result(key: str, value: Any) -> Callable[[dict], None]:
    def change(line: dict) -> None:
        line["result"][key] = value

    return change


FORGERIES: dict[str, tuple[Callable[[dict], None], str]] = {
    "an empty result": (_set("result", {}), "result.winner"),
    "another winner": (lambda d: d["result"].update(winner=d["seats"][1] if d["result"]["winner"] == d["seats"][0] else d["seats"][0]), "result.winner"),
    "a result field more": (_result("bonus", 1), "result.bonus"),
    "a result field less": (lambda d: d["result"].pop("keys"), "result.keys"),
    "other returns": (lambda d: d["result"].update(returns={k: -v for k, v in d["result"]["returns"].items()}), "result.returns"),
    "a null spec sha256": (_set("spec_sha256", None), "spec_sha256"),
    "no spec sha256": (_drop("spec_sha256"), "spec_sha256"),
    "another spec sha256": (_set("spec_sha256", "0" * 64), "spec_sha256"),
    "seat names reversed": (lambda d: d.update(seat_names=d["seat_names"][::-1]), "seat_names"),
    "no seat names": (_drop("seat_names"), "seat_names"),
    "one seat": (lambda d: d.update(seats=d["seats"][:1]), "seats"),
    "seats swapped": (lambda d: d.update(seats=d["seats"][::-1]), "result.winner"),
    "a seed changed by one": (lambda d: d.update(game_seed=d["game_seed"] + 1), "game_seed"),
    "no run seed": (_drop("seed"), "seed"),
    "a move less": (lambda d: d.update(moves=d["moves"][:-1]), "moves"),
    "another final state": (_set("final_sha256", "f" * 64), "final_sha256"),
    "no final state": (_drop("final_sha256"), "final_sha256"),
}


@pytest.mark.parametrize("case", list(FORGERIES))
def test_a_forged_field_is_refused_by_replay_and_report(case: str, kuhn_record: list[dict], tmp_path: Path) -> None:
    change, field = FORGERIES[case]
    line = copy.deepcopy(kuhn_record[0])
    change(line)
    path = _write(tmp_path, [line])
    _refused(_replay(path), field)
    _refused(_report(path), field)


def test_the_true_record_proves_every_game(kuhn_record: list[dict], tmp_path: Path) -> None:
    path = _write(tmp_path, kuhn_record)
    for line in kuhn_record:
        result = _replay(path, line["game"])
        assert result.exit_code == 0 and "result matches the record" in result.stderr, result.output
    assert _report(path).exit_code == 0


def test_a_seed_changed_by_one_is_refused_in_every_game(kuhn_record: list[dict], tmp_path: Path) -> None:
    """The issue's case: game_seed + 1 still "matched" in 10 of 12 Kuhn games."""
    forged = [dict(line, game_seed=line["game_seed"] + 1) for line in kuhn_record]
    path = _write(tmp_path, forged)
    for line in forged:
        _refused(_replay(path, line["game"]), "game_seed")


def test_another_deal_is_told_by_the_final_state(kuhn_record: list[dict], tmp_path: Path) -> None:
    """A seed that is some game's seed of the run (its seed_index says which) deals other
    cards: where the moves and the result would still fit, the final state does not."""
    named = []
    for line in kuhn_record:
        k = line["game"] + 1
        forged = dict(line, seed_index=k, game_seed=derive_seed(line["seed"], k))
        result = _replay(_write(tmp_path, [forged], f"g{line['game']}.jsonl"))
        assert result.exit_code == 1, result.output
        named.append("'final_sha256'" in result.stderr)
    assert any(named), "no forged deal kept the moves and the result: the final state was never the only witness"


def test_a_roll_the_seed_does_not_throw_is_refused(tmp_path: Path) -> None:
    """Rolls are moves in a record; each must be the one the game's seed throws there."""
    path = tmp_path / "dice.jsonl"
    made = run("match", DICE, "-p", "random,random,random", "-n", "1", "-e", "interpreted", "--record", str(path))
    assert made.exit_code == 0, made.output
    line = json.loads(path.read_text())
    assert run("replay", DICE, "--record", str(path)).exit_code == 0
    i = next(i for i, m in enumerate(line["moves"]) if m.startswith("roll:"))
    outcomes = ["roll:low-low", "roll:low-H", "roll:H-H"]
    line["moves"][i] = next(o for o in outcomes if o != line["moves"][i])
    forged = _write(tmp_path, [line])
    _refused(run("replay", DICE, "--record", str(forged)), "game_seed")
    assert f"move {i + 1}" in run("replay", DICE, "--record", str(forged)).stderr
