"""The engine cache key is computed from the IR, the generator's code and the build
settings, without rendering the source (midgardc/compiler/cachekey.py): equal games get
one key in every process, a changed constant another, and a cached engine opens without
the generator."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import replace

import pytest

from conftest import ROOT, SPECS
from midgardc import codedigest
from midgardc.compiler import build, cachekey
from midgardc.ir.nodes import Const
from midgardc.spec.lower import load_game_ir

TIC_TAC_TOE = str(SPECS / "classics" / "tic-tac-toe.yaml")
CONNECT_FOUR = str(SPECS / "classics" / "connect-four.yaml")


def first_const(obj):
    """The first ``Const`` in an IR tree (depth first), with a function that puts another
    in its place: ``(const, rebuild)``."""
    from dataclasses import fields, is_dataclass

    if isinstance(obj, Const):
        return obj, lambda new: new
    if isinstance(obj, tuple):
        for i, item in enumerate(obj):
            found = first_const(item)
            if found:
                const, rebuild = found
                return const, lambda new, i=i, rebuild=rebuild: obj[:i] + (rebuild(new),) + obj[i + 1 :]
    elif is_dataclass(obj) and not isinstance(obj, type):
        for f in fields(obj):
            found = first_const(getattr(obj, f.name))
            if found:
                const, rebuild = found
                return const, lambda new, name=f.name, rebuild=rebuild: replace(obj, **{name: rebuild(getattr(obj, name))})
    return None


def test_the_same_spec_twice_has_the_same_key():
    assert build.build_key(load_game_ir(CONNECT_FOUR)) == build.build_key(load_game_ir(CONNECT_FOUR))
    assert build.module_name(load_game_ir(CONNECT_FOUR)) == build.module_name(load_game_ir(CONNECT_FOUR))


def test_the_key_is_the_same_in_another_process_with_another_hash_seed():
    # no set order, no addresses: a second process (other str hashes) finds the same module
    script = "import sys; from midgardc.compiler import build; from midgardc.spec.lower import load_game_ir; print(build.build_key(load_game_ir(sys.argv[1])))"
    env = dict(os.environ, PYTHONHASHSEED="12345", PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", script, CONNECT_FOUR], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == build.build_key(load_game_ir(CONNECT_FOUR))


def test_one_changed_constant_changes_the_key():
    ir = load_game_ir(CONNECT_FOUR)
    const, rebuild = first_const(ir.actions)
    other = replace(ir, actions=rebuild(replace(const, value=const.value + 1)))
    assert other != ir
    assert build.build_key(other) != build.build_key(ir)
    assert build.build_key(replace(ir, max_plies=ir.max_plies + 1)) != build.build_key(ir)
    assert build.build_key(load_game_ir(TIC_TAC_TOE)) != build.build_key(ir)


def test_variants_and_player_counts_have_their_own_keys():
    keys = {build.build_key(load_game_ir(str(SPECS / "midgard.yaml"), v)) for v in (None, "odin", "loki")}
    assert len(keys) == 3


def test_where_the_spec_lives_is_not_in_the_key(tmp_path):
    # the generated source names only the spec file, and never a position in it
    copy = tmp_path / "tic-tac-toe.yaml"
    shutil.copy(TIC_TAC_TOE, copy)
    here, there = load_game_ir(TIC_TAC_TOE), load_game_ir(str(copy))
    assert here.source != there.source
    assert build.generate_source(here) == build.generate_source(there)
    assert build.build_key(here) == build.build_key(there)
    renamed = tmp_path / "noughts.yaml"
    shutil.copy(TIC_TAC_TOE, renamed)
    assert build.build_key(load_game_ir(str(renamed))) != build.build_key(here)  # SPEC = "noughts.yaml"


def test_the_build_settings_are_in_the_key(monkeypatch):
    ir = load_game_ir(TIC_TAC_TOE)
    key = build.build_key(ir)
    monkeypatch.setattr(build, "BUILD_FORMAT", build.BUILD_FORMAT + 1)
    assert build.build_key(ir) != key
    monkeypatch.undo()
    monkeypatch.setattr(build, "CFLAGS", ("-O2", "-g0"))
    assert build.build_key(ir) != key
    monkeypatch.undo()
    assert build.build_key(ir, tag="MAX_SET_CELLS=0") != key == build.build_key(ir, tag="")


def test_the_generators_files_are_in_the_digest(monkeypatch):
    names = {os.path.relpath(p, codedigest.PACKAGE).replace(os.sep, "/") for p in cachekey.generator_files()}
    assert "compiler/build.py" not in names  # the cache, not the generator (BUILD_FORMAT is in the key)
    assert {"compiler/codegen.py", "compiler/_buildext.py", "compiler/emit/common.py", "compiler/templates/export.pyx.j2", "ir/nodes.py"} <= names
    assert "engine/vtable.pxi" in names  # the rules' table, copied into every generated source
    assert "engine/generic.pyx" not in names  # the generic engine is keyed by its own text
    assert "runtime/observe.py" in names  # imported by compiler/tensor.py
    assert "runtime/interpreter.py" in names  # asked for constant masks (emit/cellsets.py)
    assert not any("__pycache__" in n or n.startswith("spec/") for n in names)  # the front end's output is the IR


def test_an_edit_to_the_generator_changes_the_digest(monkeypatch, tmp_path):
    copy = tmp_path / "midgardc"
    shutil.copytree(codedigest.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(codedigest, "PACKAGE", str(copy))
    cachekey.generator_digest.cache_clear()
    try:
        before = cachekey.generator_digest()
        with open(copy / "spec" / "lower.py", "a", encoding="utf-8") as fh:
            fh.write("# the front end: not the generator\n")
        cachekey.generator_digest.cache_clear()
        assert cachekey.generator_digest() == before
        with open(copy / "compiler" / "templates" / "export.pyx.j2", "a", encoding="utf-8") as fh:
            fh.write("# a template edit\n")
        cachekey.generator_digest.cache_clear()
        assert cachekey.generator_digest() != before
    finally:
        cachekey.generator_digest.cache_clear()


def test_an_unknown_value_in_the_ir_is_refused():
    ir = load_game_ir(TIC_TAC_TOE)
    with pytest.raises(TypeError, match="object"):
        cachekey.ir_text(replace(ir, max_plies=object()))
    # sets and dicts have one text whatever their order
    assert cachekey.ir_text(replace(ir, meta={"b": 1, "a": frozenset({"y", "x"})})) == cachekey.ir_text(replace(ir, meta={"a": frozenset({"x", "y"}), "b": 1}))


def test_a_cached_engine_opens_without_the_generator(monkeypatch):
    ir = load_game_ir(TIC_TAC_TOE)
    module = build.build_engine(ir)  # built (or found) the usual way
    name = build.module_name(ir)

    def refuse(*_args, **_kwargs):
        raise AssertionError("a cached engine was rendered again")

    monkeypatch.setattr(build, "generate_source", refuse)
    monkeypatch.delitem(sys.modules, name)
    again = build.build_engine(ir)
    assert again.playouts(5, 1) == module.playouts(5, 1)


def test_a_new_process_opens_a_cached_engine_without_importing_the_generator():
    from midgardc.engines import load

    load(TIC_TAC_TOE, engine="compiled")  # the engine and the IR in their caches
    script = (
        "import sys; from midgardc.engines import load; g = load(sys.argv[1], engine='compiled'); "
        "g.engine.playouts(1, 1); print(sorted(m for m in ('jinja2', 'midgardc.compiler.codegen', 'lark', 'yaml', 'midgardc.spec.lower') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", script, TIC_TAC_TOE], env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
