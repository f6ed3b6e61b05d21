"""The Python snippets of docs/research.md run as written (from the repository's root,
where their spec paths point)."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

from conftest import ROOT  # noqa: E402


def _snippets():
    for doc in ("docs/research.md",):
        text = (ROOT / doc).read_text(encoding="utf-8")
        for m in re.finditer(r"```python\n(.*?)```", text, re.S):
            line = text.count("\n", 0, m.start()) + 1
            yield pytest.param(m.group(1), id=f"{doc}:{line}")


@pytest.mark.parametrize("code", list(_snippets()))
def test_snippet_runs(code, monkeypatch, capsys):
    if "algorithms.alpha_zero" in code:  # OpenSpiel's own AlphaZero: the opt-in extra .[alphazero]
        for module in ("jax", "flax", "optax", "chex"):
            pytest.importorskip(module, reason="OpenSpiel's AlphaZero needs the extra: pip install -e '.[alphazero]'")
    monkeypatch.chdir(ROOT)
    exec(compile(code, "<snippet>", "exec"), {"__name__": "__snippet__"})
    out = capsys.readouterr().out.strip()
    assert out  # every snippet prints what it shows
    if "CFRPlusSolver" in code:  # research.md's CFR on Kuhn poker: Kuhn's value, a low exploitability
        m = re.match(r"value (\S+) \(-1/18 = -0.0556\), exploitability (\S+)$", out)
        assert m, out
        assert abs(float(m.group(1)) + 1 / 18) < 0.002 and float(m.group(2)) < 0.01
