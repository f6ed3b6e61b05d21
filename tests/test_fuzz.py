"""A short fuzz run (the long one is `make fuzz`): mutated specs and command lines end in
success or one clear error, never a traceback or a hang. See midgardc/safety/fuzz.py."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

from midgardc.safety import cli_cases, fuzz, spec_cases

ROOT = Path(__file__).resolve().parents[1]
# 400 mutated cases in the default run (about half a minute); the long run (MIDGARDC_LONG=1)
# doubles them, and `make fuzz` runs a campaign of its own
SHORT_CASES = 800 if os.environ.get("MIDGARDC_LONG") else 400


def _report(stats: fuzz.Stats) -> str:
    lines = [stats.summary()]
    for f in stats.failures[:3]:
        lines.append(f"--- {f.kind}: {f.detail[-1200:]}\n--- case:\n{f.case[:2000]}")
    return "\n".join(lines)


def test_short_fuzz_campaign(monkeypatch):
    monkeypatch.chdir(ROOT)
    stats = fuzz.run_campaign(SHORT_CASES, str(ROOT / "specs"), cli_share=0.1)
    assert stats.cases >= SHORT_CASES
    assert not stats.failures, _report(stats)
    assert stats.errors > 0 and stats.ok > 0  # the mutations reach both outcomes


def test_every_spec_is_a_seed():
    seeds = fuzz.load_seeds(str(ROOT / "specs"))
    found = {Path(s.path).resolve() for s in seeds}
    on_disk = {p.resolve() for p in (ROOT / "specs").rglob("*.yaml")}
    assert on_disk <= found


def test_fuzzed_specs_through_the_real_cli(tmp_path):
    """A sample through `midgardc validate` in a subprocess: exit 0 or 1, no traceback."""
    seeds = fuzz.load_seeds(str(ROOT / "specs"))
    ch = fuzz.Chooser(random.Random(7))
    paths = []
    for i in range(12):
        p = tmp_path / f"case{i}.yaml"
        p.write_text(fuzz.make_spec_case(ch, seeds), encoding="utf-8", errors="surrogatepass")
        paths.append(str(p))
    for p in paths:
        proc = subprocess.run([sys.executable, "-m", "midgardc.cli", "validate", p], capture_output=True, text=True, timeout=60, cwd=ROOT, errors="replace")
        assert proc.returncode in (0, 1), proc.stderr
        assert "Traceback" not in proc.stderr + proc.stdout
        assert "internal error" not in proc.stderr
        if proc.returncode == 1:
            assert "error:" in proc.stderr


def test_a_hang_is_reported_not_waited_for(tmp_path):
    stats = fuzz.Stats()
    with fuzz.time_limit(0.2):
        pass  # the limit is lifted on exit
    import time as _time

    try:
        with fuzz.time_limit(0.1):
            _time.sleep(2)
    except fuzz._Timeout:
        stats.failures.append(fuzz.Failure("hang", "", ""))
    assert stats.failures and stats.failures[0].kind == "hang"


def test_seeds_include_the_test_specs_of_the_newer_features():
    names = {Path(s.path).name for s in fuzz.load_seeds(str(ROOT / "specs"))}
    assert {"dice.yaml", "captures.yaml", "graph_dice.yaml", "magic-mids.yaml"} <= names


def test_mutations_reach_the_newer_sections():
    """Dice, player counts, remove / extra_turn and graph places are mutated with the values
    that matter, in cases that are then validated."""
    import yaml

    seeds = fuzz.load_seeds(str(ROOT / "specs"))
    ch = fuzz.Chooser(random.Random(3))
    seen = {k: 0 for k in ("dice", "faces", "ordered", "count key", "count default", "count patch", "remove", "extra_turn", "at")}
    for _ in range(600):
        tree = spec_cases.mutate_feature(ch, ch.choice([s.tree for s in seeds if isinstance(s.tree, dict)]))
        chance = tree.get("chance") if isinstance(tree.get("chance"), dict) else {}
        counts = tree.get("player_counts") if isinstance(tree.get("player_counts"), dict) else {}
        text = yaml.safe_dump(tree, allow_unicode=True)
        seen["dice"] += chance.get("dice") in spec_cases.DICE and chance.get("dice") not in (2, 3)
        seen["faces"] += any(isinstance(f, dict) and f.get("text") in spec_cases.FACE_TEXTS for f in (chance.get("faces") or {}).values()) if isinstance(chance.get("faces"), dict) else 0
        seen["ordered"] += "ordered" in chance
        seen["count key"] += any(str(k) not in ("2", "3", "4", "default") for k in counts)
        seen["count default"] += counts.get("default") in spec_cases.COUNT_DEFAULTS
        seen["count patch"] += any(v in spec_cases.COUNT_PATCHES and v != {} for v in counts.values())
        seen["remove"] += "remove:" in text
        seen["extra_turn"] += "extra_turn" in text
        seen["at"] += "at:" in text and "graph" in text
    assert all(seen.values()), seen


def test_command_lines_cover_the_new_commands_and_options(tmp_path):
    seeds = fuzz.load_seeds(str(ROOT / "specs"))
    paths = [str(Path(s.path).resolve()) for s in seeds]
    records = fuzz.make_records(seeds, str(tmp_path))
    assert len(records.good) == 3
    assert any("pairing" in line for lines in records.lines.values() for line in lines)  # a tournament's record
    assert any(str(m).startswith(("roll:", "throw:")) for lines in records.lines.values() for line in lines for m in line["moves"])  # rolls
    ch = fuzz.Chooser(random.Random(5))
    cases = [fuzz.make_cli_case(ch, paths, str(tmp_path), records) for _ in range(1500)]
    assert {c[0] for c in cases} == set(cli_cases.COMMANDS)
    flat = [a for c in cases for a in c]
    for option in ("--player-count", "--cluster", "--record", "--game", "--html", "--max-replays", "--csv", "--variant", "--position"):
        assert option in flat, option
    assert any(a.startswith(("random,mcts:", "mcts:")) and "=" in a for a in flat)
    assert any(c[0] == "replay" and "--record" in c and c[1] in records.good.values() for c in cases)
    # never a real cluster: no 'local' / 'local:K' that would start one, no address that could answer
    from midgardc.errors import MidgardcError
    from midgardc.matches.cluster import parse_cluster

    for value in cli_cases.OPTION_VALUES["--cluster"]:
        try:
            target = parse_cluster(value)
        except MidgardcError:
            continue
        assert target.address is not None and ("127.0.0.1:1" in target.address or "[::1]:1" in target.address or ".invalid:" in target.address), value
    # reports, and matches and tournaments of anything but a shipped spec, never build
    # engines (only the interpreter plays them); a shipped spec's games play on its engine,
    # which the suite builds anyway (an interpreted chess or Go game takes tens of seconds)
    shipped_games = 0
    for c in cases:
        if c[0] in ("match", "tournament") and "/specs/" in c[1] and "--record" not in c:
            shipped_games += 1
            assert "interpreted" not in c
        elif c[0] in ("match", "tournament", "report"):
            assert "compiled" not in c and "--engine" in c
    assert shipped_games > 0


def test_a_mutated_record_is_written_and_names_its_spec(tmp_path):
    seeds = fuzz.load_seeds(str(ROOT / "specs"))
    records = fuzz.make_records(seeds, str(tmp_path))
    ch = fuzz.Chooser(random.Random(9))
    made = {cli_cases.make_record_case(ch, records, str(tmp_path)) for _ in range(20)}
    assert made <= set(records.good.values()) and len(made) >= 2
    assert (tmp_path / "case.jsonl").exists()


def test_a_valid_case_is_played_briefly(tmp_path):
    """A valid case also plays one random game with the interpreter: an extra turn after
    every move must still end by max_plies."""
    from midgardc.spec.lower import load_game_ir

    text = (ROOT / "tests" / "data" / "captures.yaml").read_text()
    text = text.replace("max_plies: 120", "max_plies: 9").replace("  again:                                  # before", "  always:\n    effects: [extra_turn: {}]\n  again:  # before")
    path = tmp_path / "loop.yaml"
    path.write_text(text)
    ir = load_game_ir(str(path))
    assert ir.max_plies == 9 and any(t.name == "always" for t in ir.triggers)
    assert fuzz.play_briefly(ir, 1) == ""
    stats = fuzz.Stats()
    fuzz.check_spec_text(text, str(tmp_path), stats)
    assert stats.ok == 1 and not stats.failures
