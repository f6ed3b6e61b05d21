"""The IR cache (midgardc/spec/ircache.py): a spec loaded before comes back without the
front end, equal to what the front end makes; any edit to the spec or to a file it
extends is a miss; errors are never cached; a damaged entry is only a miss."""

from __future__ import annotations

import os
import shutil

import pytest

from conftest import SPECS
from midgardc.errors import SpecError
from midgardc.spec import ircache
from midgardc.spec.lower import load_game_ir

TIC_TAC_TOE = SPECS / "classics" / "tic-tac-toe.yaml"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("MIDGARDC_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "ir"


def refuse_the_front_end(monkeypatch):
    def refuse(*_args, **_kwargs):
        raise AssertionError("the front end ran for a cached IR")

    monkeypatch.setattr("midgardc.spec.lower.load_game_ir", refuse)


def test_a_spec_loaded_before_comes_back_without_the_front_end(cache, monkeypatch):
    first = ircache.load_ir(str(TIC_TAC_TOE), "misere")
    assert first == load_game_ir(str(TIC_TAC_TOE), "misere") and first.source == str(TIC_TAC_TOE)
    assert len(list(cache.glob("*.pickle"))) == 1
    refuse_the_front_end(monkeypatch)
    assert ircache.load_ir(str(TIC_TAC_TOE), "misere") == first
    with pytest.raises(AssertionError, match="front end"):
        ircache.load_ir(str(TIC_TAC_TOE))  # another variant: another entry


def test_an_edit_to_the_spec_or_what_it_extends_is_a_miss(cache, tmp_path):
    base = tmp_path / "base.yaml"
    shutil.copy(TIC_TAC_TOE, base)
    child = tmp_path / "child.yaml"
    child.write_text("extends: base.yaml\n", encoding="utf-8")
    before = ircache.load_ir(str(child))
    assert ircache.load_ir(str(child)) == before
    base.write_text(base.read_text(encoding="utf-8").replace("title: Tic-tac-toe", "title: Edited"), encoding="utf-8")
    after = ircache.load_ir(str(child))
    assert after == load_game_ir(str(child)) and after.title == "Edited" != before.title
    child.write_text("extends: base.yaml\ngame: {name: other-name, title: Other}\n", encoding="utf-8")
    assert ircache.load_ir(str(child)).name == "other-name"


def test_errors_are_not_cached(cache, tmp_path):
    spec = tmp_path / "broken.yaml"
    spec.write_text(TIC_TAC_TOE.read_text(encoding="utf-8").replace("actions:", "actoins:", 1), encoding="utf-8")
    for _ in range(2):
        with pytest.raises(SpecError):
            ircache.load_ir(str(spec))
    assert not cache.exists() or not list(cache.glob("*.pickle"))


def test_a_damaged_entry_is_a_miss(cache, monkeypatch):
    good = ircache.load_ir(str(TIC_TAC_TOE))
    (entry,) = cache.glob("*.pickle")
    entry.write_bytes(entry.read_bytes()[:40])
    assert ircache.cached_ir(str(TIC_TAC_TOE)) is None
    assert ircache.load_ir(str(TIC_TAC_TOE)) == good  # and written again
    refuse_the_front_end(monkeypatch)
    assert ircache.load_ir(str(TIC_TAC_TOE)) == good


def test_a_relative_path_is_keyed_with_the_directory(cache, tmp_path, monkeypatch):
    for where in ("a", "b"):
        (tmp_path / where).mkdir()
        shutil.copy(TIC_TAC_TOE, tmp_path / where / "game.yaml")
    (tmp_path / "b" / "game.yaml").write_text(TIC_TAC_TOE.read_text(encoding="utf-8").replace("title: Tic-tac-toe", "title: Noughts"), encoding="utf-8")
    monkeypatch.chdir(tmp_path / "a")
    a = ircache.load_ir("game.yaml")
    monkeypatch.chdir(tmp_path / "b")
    b = ircache.load_ir("game.yaml")
    assert a != b and b == load_game_ir("game.yaml")


def test_old_entries_are_pruned(cache, tmp_path, monkeypatch):
    monkeypatch.setattr(ircache, "MAX_ENTRIES", 2)
    for i in range(4):
        copy = tmp_path / f"game{i}.yaml"
        shutil.copy(TIC_TAC_TOE, copy)
        ircache.load_ir(str(copy))
    assert len(list(cache.glob("*.pickle"))) == 2


def test_the_front_end_digest_covers_the_grammar_not_the_cache():
    from midgardc.codedigest import PACKAGE, code_files

    names = {os.path.relpath(p, PACKAGE).replace(os.sep, "/") for p in code_files(("spec",), lambda n: n == "spec/ircache.py")}
    assert {"spec/lower.py", "conditions/grammar.lark", "conditions/parse.py", "ir/nodes.py"} <= names
    assert "spec/ircache.py" not in names and not any(n.startswith("compiler/") for n in names)
