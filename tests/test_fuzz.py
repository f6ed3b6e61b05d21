"""A short fuzz run (the long one is `make fuzz`): mutated specs and command lines end in
success or one clear error, never a traceback or a hang. See midgardc/safety/fuzz.py."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

from midgardc.safety import fuzz

ROOT = Path(__file__).resolve().parents[1]
SHORT_CASES = 800


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
