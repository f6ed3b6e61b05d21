"""Golden playthroughs: one recorded random game per spec, variant and player count.

tests/playthroughs/ holds, for every game under specs/, the text of one random game
(seed 0) step by step: boards, legal moves, roll probabilities, observations, moves and
the result (midgardc.runtime.playthrough). Both back ends must write exactly that text, so
a change in what any spec means, on either engine, shows up here as a diff. A new spec
fails until its file is written; a file whose spec is gone fails until it is removed.
After an intended rule change: `midgardc playthrough --all --update` (or
`make playthroughs`), then review the diff.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import ROOT, SPECS
from midgardc.cli import cli
from midgardc.compiler import build
from midgardc.engines import load
from midgardc.runtime.playthrough import GOLDEN_SEED, Detail, Target, first_difference, golden_files, golden_targets, playthrough, spec_label

GOLDEN = ROOT / "tests" / "playthroughs"
TARGETS = golden_targets(build.spec_files(str(SPECS)))
REGENERATE = "midgardc playthrough --all --update (or make playthroughs) in the project root, then review the diff"
MAX_BYTES = 200_000

_games: dict = {}


def game_of(target: Target, engine: str):
    key = (target, engine)
    if key not in _games:
        _games[key] = load(target.spec, target.variant, engine=engine, n_players=target.count)
    return _games[key]


def golden_path(target: Target) -> Path:
    return GOLDEN / target.golden_name(str(SPECS))


def golden_text(target: Target) -> str:
    path = golden_path(target)
    if not path.exists():
        label = spec_label(target.spec, str(ROOT))
        pytest.fail(
            f"{label} [{target.variant or 'base game'}]"
            + (f" ({target.count} players)" if target.count else "")
            + f" has no golden playthrough {path.relative_to(ROOT)}.\n"
            f"Create it with: {REGENERATE}\n"
            f"(or just this one: midgardc playthrough {label}"
            + (f" --variant {target.variant}" if target.variant else "")
            + (f" --player-count {target.count}" if target.count else "")
            + f" --out {path.relative_to(ROOT)})"
        )
    return path.read_text(encoding="utf-8")


def target_id(target: Target) -> str:
    return target.golden_name(str(SPECS))[: -len(".txt")]


def test_every_spec_is_covered() -> None:
    specs = {t.spec for t in TARGETS}
    assert specs == set(build.spec_files(str(SPECS)))
    # every variant and every declared player count gets its own file
    assert len({t.golden_name(str(SPECS)) for t in TARGETS}) == len(TARGETS)
    counted = [t for t in TARGETS if t.count]
    assert counted, "no spec declares player counts any more: this test's premise changed"
    for t in counted:
        assert t.golden_name(str(SPECS)).endswith(f"__{t.count}p.txt")


@pytest.mark.parametrize("target", TARGETS, ids=target_id)
def test_every_game_has_a_golden_playthrough(target: Target) -> None:
    text = golden_text(target)
    assert f"spec: {spec_label(target.spec, str(ROOT))}\n" in text
    assert f"seed: {GOLDEN_SEED}\n" in text
    assert len(text.encode()) < MAX_BYTES, "a golden file grew too long: write fewer steps in full (Detail)"


# Golden games the interpreter takes over half a minute to write, because it lists every
# legal move at every step with a lookahead per candidate (Shogi's 518 plies: 93 s, the
# suite's slowest test; Crazyhouse's: 34 s). The compiled engine checks them against the golden file in every run, and
# the interpreter's agreement with it is the per-spec differential (test_differential,
# test_shogi); the interpreter writes them too in the long run (MIDGARDC_LONG=1).
LONG_ON_THE_INTERPRETER = {"classics/shogi", "classics/crazyhouse"}


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
@pytest.mark.parametrize("target", TARGETS, ids=target_id)
def test_both_engines_write_the_golden_playthrough(target: Target, engine: str) -> None:
    if engine == "interpreted" and target_id(target) in LONG_ON_THE_INTERPRETER and not os.environ.get("MIDGARDC_LONG"):
        pytest.skip("over half a minute on the interpreter; the compiled engine checks this file (MIDGARDC_LONG=1 runs it)")
    expected = golden_text(target)
    got = playthrough(game_of(target, engine), GOLDEN_SEED, spec=spec_label(target.spec, str(ROOT)))
    assert got == expected, f"{engine} engine, {golden_path(target).relative_to(ROOT)} {first_difference(expected, got)}\nIf the rule change is intended: {REGENERATE}"


def test_no_stray_golden_files() -> None:
    wanted = {t.golden_name(str(SPECS)) for t in TARGETS}
    stray = [name for name in golden_files(str(GOLDEN)) if name not in wanted]
    assert not stray, f"golden playthroughs of no spec, variant or player count under specs/: {stray}; remove them ({REGENERATE})"


@pytest.mark.parametrize("target", TARGETS, ids=target_id)
def test_the_recorded_game_is_the_engines_own_random_playout(target: Target) -> None:
    # The moves line of a golden file is the game the compiled playout loop plays from the
    # same seed: the files pin the engines' random games, not a loop of the test's own.
    last = golden_text(target).rstrip("\n").split("\n")[-1]
    assert last.startswith("moves (")
    recorded = last.split(": ", 1)[1].split() if ": " in last else []
    game = game_of(target, "compiled")
    state = game.new_state(GOLDEN_SEED)
    for m in game.engine.playout_trace(GOLDEN_SEED):
        state.apply_unchecked(m)  # (a compound move is written in the position it is played in)
    assert state.texts == recorded


def test_detail_policy_and_brief_steps() -> None:
    target = next(t for t in TARGETS if "hex" in t.spec and t.variant is None)
    game = game_of(target, "interpreted")
    full = playthrough(game, 3, detail=Detail(None))
    brief = playthrough(game, 3, detail=Detail(2, 50))
    moves = full.rstrip("\n").split("\n")[-1]
    assert brief.rstrip("\n").split("\n")[-1] == moves  # the same game, whatever the detail
    n = int(moves.split("(")[1].split(")")[0])
    assert full.count("\n## step ") == n
    assert brief.count("\n## step ") == 2 + len(range(50, n, 50))
    assert "\nstep 2 (ply 2): " in brief and "\n## step 50 (ply 50)\n" in brief
    assert len(brief) < len(full)


def test_a_byte_budget_writes_fewer_steps_in_full() -> None:
    # the golden files keep under a budget: a game that fits is written as without one; a
    # longer one writes every (10 + 5k)-th step in full, the smallest k that fits
    target = next(t for t in TARGETS if "hex" in t.spec and t.variant is None)
    game = game_of(target, "interpreted")
    plain = playthrough(game, 3, detail=Detail(2, 10))
    assert playthrough(game, 3, detail=Detail(2, 10, budget=len(plain.encode()))) == plain
    squeezed = playthrough(game, 3, detail=Detail(2, 10, budget=len(plain.encode()) - 1))
    assert len(squeezed.encode()) < len(plain.encode())
    assert "every 15th step in full" in squeezed or "every 20th step in full" in squeezed
    assert squeezed.rstrip("\n").split("\n")[-1] == plain.rstrip("\n").split("\n")[-1]  # the same game


def test_a_budget_below_the_opening_shortens_the_opening_and_ends() -> None:
    # a game whose first steps alone are over the budget (large observations) used to grow
    # ``every`` forever; now the opening written in full gets shorter, down to step 0
    target = next(t for t in TARGETS if "hex" in t.spec and t.variant is None)
    game = game_of(target, "interpreted")
    plain = playthrough(game, 3, detail=Detail(20, 10))
    tiny = playthrough(game, 3, detail=Detail(20, 10, budget=100))
    assert "detail: steps 0-0 and every" in tiny
    assert tiny.count("\n## step ") < plain.count("\n## step ") and len(tiny) < len(plain)
    assert tiny.rstrip("\n").split("\n")[-1] == plain.rstrip("\n").split("\n")[-1]  # the same game


def test_a_roll_lists_every_outcome_with_its_exact_probability() -> None:
    target = next(t for t in TARGETS if load(t.spec, t.variant, engine="interpreted", n_players=t.count).ir.chance is not None)
    game = game_of(target, "interpreted")
    text = playthrough(game, 1, detail=Detail(None))
    chance = game.ir.chance
    listing = next(line for line in text.split("\n") if line.startswith("outcomes ("))
    pairs = [item.rsplit("=", 1) for item in listing.split(": ", 1)[1].split()]
    assert sum(int(p.split("/")[0]) for _, p in pairs) == chance.n_draws
    assert all(p.endswith(f"/{chance.n_draws}") for _, p in pairs)
    assert "outcomes (" + str(len(pairs)) + "): the same as at step " in text  # later rolls refer back


def test_cli_checks_and_updates_a_golden_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The --all paths (missing, differs, stray; --update writes and removes) on a small
    project of two specs (one with variants) and their golden files: every spec's own file is checked by
    test_golden_playthrough above, so the whole set need not be played twice here."""
    chosen = ["classics/tic-tac-toe.yaml", "kuhn-poker.yaml"]
    for name in chosen:
        (tmp_path / "specs" / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(SPECS / name, tmp_path / "specs" / name)
    monkeypatch.chdir(tmp_path)
    targets = golden_targets(build.spec_files("specs"))
    assert len(targets) >= 3  # tic-tac-toe's variants make more than one
    source = tmp_path / "source"
    for target in targets:
        (source / target.golden_name()).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(GOLDEN / target.golden_name(), source / target.golden_name())
    gold = tmp_path / "gold"
    shutil.copytree(source, gold)
    first, second = targets[0].golden_name(), targets[-1].golden_name()
    (gold / first).unlink()
    changed = (gold / second).read_text().replace(f"seed: {GOLDEN_SEED}\n", "seed: 99\n")
    (gold / second).write_text(changed)
    (gold / "gone__7p.txt").write_text("old\n")
    runner = CliRunner()
    result = runner.invoke(cli, ["playthrough", "--all", "--dir", str(gold)])
    assert result.exit_code == 1
    assert f"missing: {gold / first}" in result.output and "--out" in result.output
    assert f"differs: {gold / second}, line " in result.output and "seed: 99" in result.output
    assert f"stray: {gold / 'gone__7p.txt'}" in result.output
    assert "--all --update" in result.output
    result = runner.invoke(cli, ["playthrough", "--all", "--update", "--dir", str(gold)])
    assert result.exit_code == 0, result.output
    assert f"{len(targets)} playthroughs (interpreted): 2 written, {len(targets) - 2} unchanged, 1 removed" in result.output
    assert golden_files(str(gold)) == golden_files(str(source))
    for name in golden_files(str(source)):
        assert (gold / name).read_text() == (source / name).read_text(), name


def test_cli_writes_one_playthrough(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    target = next(t for t in TARGETS if t.variant)
    out = tmp_path / "one.txt"
    args = ["playthrough", os.path.relpath(target.spec, ROOT), "--variant", target.variant, "--out", str(out)]
    result = CliRunner().invoke(cli, args + (["--player-count", str(target.count)] if target.count else []))
    assert result.exit_code == 0, result.output
    assert out.read_text() == golden_text(target)


@pytest.mark.parametrize(
    "args, message",
    [
        ([], "name a SPEC, or use --all"),
        (["specs/midgard.yaml", "--update"], "--update goes with --all"),
        (["--all", "--seed", "4"], "drop --seed"),
        (["--all", "specs/midgard.yaml"], "drop SPEC"),
    ],
)
def test_cli_refuses_option_mixes(args: list[str], message: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(cli, ["playthrough", *args])
    assert result.exit_code == 1
    assert message in result.output
    assert "Traceback" not in result.output
