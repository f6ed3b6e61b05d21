"""The language reference cannot fall behind the language.

Every built-in (function, collection, quantifier), effect, topology and top-level section
must have its own entry in docs/spec-language.md: a table row whose first cell starts with
the backticked name, or a heading with it. Every key a section accepts and every limit
must be mentioned. The examples in the built-in tables must type-check, every ```yaml
snippet in docs/ must be YAML, and every snippet that is a whole spec (has a top-level
``game:``) must validate, with all its variants. The README stays an index of at most 200 lines, and
every relative link in it, in benchmarks/README.md and in docs/*.md resolves.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from midgardc.board import topology
from midgardc.conditions import check as check_module
from midgardc.conditions import parse as parse_module
from midgardc.conditions.check import check_condition
from midgardc.errors import Pos
from midgardc.ir.builtins import BUILTINS, DOMAINS, QUANTIFIERS, ZONE_FUNCTIONS
from midgardc.spec import loops, lower, schema, values, yamlpos, zones
from midgardc.spec.effects import EFFECTS
from midgardc.spec.lower import SECTIONS, Lowerer, list_variants, load_game_ir
from midgardc.spec.yamlpos import load_yaml

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
REFERENCE = DOCS / "spec-language.md"
SPECS = ROOT / "specs"


def _reference() -> str:
    return REFERENCE.read_text(encoding="utf-8")


def _entries(text: str) -> set[str]:
    """Names with an entry: first backticked word of a table row's first cell, or of a heading."""
    names = set()
    for line in text.splitlines():
        m = re.match(r"\|\s*`([A-Za-z_]\w*)", line) or re.match(r"#+\s+`([A-Za-z_]\w*)", line)
        if m:
            names.add(m.group(1))
    return names


def _missing(required) -> list[str]:
    return sorted(set(required) - _entries(_reference()))


def test_every_builtin_function_is_documented() -> None:
    assert not _missing(BUILTINS), f"add these built-in functions to {REFERENCE.name}"


def test_every_zone_function_is_documented() -> None:
    assert not _missing(ZONE_FUNCTIONS), f"add these zone functions to {REFERENCE.name}"


def test_every_collection_is_documented() -> None:
    assert not _missing(DOMAINS), f"add these collections to {REFERENCE.name}"


def test_every_quantifier_is_documented() -> None:
    assert not _missing(QUANTIFIERS), f"add these quantifiers to {REFERENCE.name}"


def test_every_effect_is_documented() -> None:
    assert not _missing(EFFECTS), f"add these effects to {REFERENCE.name}"


def test_every_topology_is_documented() -> None:
    assert not _missing(topology.TOPOLOGIES), f"add these board topologies to {REFERENCE.name}"


def test_every_top_level_section_is_documented() -> None:
    assert not _missing(SECTIONS[""][0]), f"add these top-level keys to {REFERENCE.name}"


def test_every_nested_key_is_mentioned() -> None:
    text = _reference()
    keys = {k for allowed, _ in SECTIONS.values() for k in allowed}
    keys |= {k for ks in topology.TOPOLOGY_KEYS.values() for k in ks}
    keys |= {"props", "topology", "score", "lower_is_better", "patch", "title", "description"}
    missing = sorted(k for k in keys if f"`{k}`" not in text)
    assert not missing, f"mention these keys (backticked) in {REFERENCE.name}"


def _limits() -> dict[str, int]:
    out = {}
    for module in (lower, schema, zones, values, loops, topology, yamlpos, parse_module, check_module):
        for name, value in vars(module).items():
            if name.startswith("MAX_") and isinstance(value, int):
                out[name] = value
    return out


def test_every_limit_is_documented_with_its_value() -> None:
    limits = _limits()
    assert {"MAX_PLAYERS", "MAX_CELLS", "MAX_NODES", "MAX_CONDITION_LENGTH"} <= set(limits)
    rows = {m.group(1): line for line in _reference().splitlines() if (m := re.match(r"\|\s*`(MAX_\w+)`", line))}
    for name, value in limits.items():
        assert name in rows, f"limit {name} is not in the limits table"
        assert re.search(rf"\|\s*{value}\s*\|", rows[name]), f"{name} is {value}, the table says otherwise"


# --------------------------------------------------------------------------- examples

_EXAMPLE_CONTEXT = """
game: {name: ctx, players: [red, blue]}
pieces: {stone: {hand: 5}}
board:
  topology: square
  rows: 3
  cols: 3
  props: {seeded: [b2]}
player_props: {ahead: {red: n, blue: s}}
chance: {dice: 3, faces: {ace: 1, two: 2, blank: 0}}
deck: {items: {one: [1], low: [1, 2, 3]}, up: 1}
areas: [{name: middle, cells: [b2, b1], weights: {b2: 2}}]
history: {position: [board, turn]}
define:
  ice(cell c): empty(c) and not seeded(c)
actions:
  play: {params: {c: cell}, where: empty(c)}
ranking: {cells: "count(c in cells: owner(c) == p)"}
enums: {kingdom: [north, south]}
attributes: {kingdom: {of: item, type: kingdom, values: {one: north}}}
counters: {score: 0, seeds: {of: game, index: cell}}
"""

_TABLES = ("## Built-in functions", "## Collections", "## Quantifiers and aggregates")


def _table_examples() -> list[str]:
    text = _reference()
    out = []
    for heading in _TABLES:
        assert heading in text, f"{heading!r} is missing from {REFERENCE.name}"
        section = text.split(heading, 1)[1].split("\n## ", 1)[0]
        for line in section.splitlines():
            m = re.match(r"\|\s*`[^`]+`.*\|\s*`([^`]+)`\s*\|\s*$", line)
            if m:
                out.append(m.group(1))
    return out


def test_builtin_tables_have_an_example_per_row() -> None:
    assert len(_table_examples()) >= len(BUILTINS) + len(ZONE_FUNCTIONS) + len(DOMAINS) + len(QUANTIFIERS)


# A spec declares kinds of item once (deck: or items:), so the zone functions' examples
# are checked in a context with items and zones instead of the deck.
_ZONES_CONTEXT = _EXAMPLE_CONTEXT.replace(
    "deck: {items: {one: [1], low: [1, 2, 3]}, up: 1}",
    "items: {one: [1], low: [1, 2, 3]}\nzones: {pile: {of: game, ordered: true, items: {one: 2}}, stash: {visible: owner}}",
)


@pytest.mark.parametrize("example", _table_examples())
def test_builtin_examples_type_check(tmp_path: Path, example: str) -> None:
    path = tmp_path / "ctx.yaml"
    uses_zones = any(re.search(rf"\b{name}\(", example) for name in ZONE_FUNCTIONS)
    path.write_text(_ZONES_CONTEXT if uses_zones else _EXAMPLE_CONTEXT, encoding="utf-8")
    lowerer = Lowerer(load_yaml(str(path)), str(path), None)
    lowerer.lower()
    scope = {"c": "cell", "d": "dir", "p": "player", "k": "item", "card": "item"}
    lowerer.names.in_end = "can_move(" in example  # allowed only in the end section (end.when, end.effects)
    check_condition(example, lambda off: Pos("<example>", 1, off + 1), lowerer.names, scope, None)


# --------------------------------------------------------------------------- snippets


def _snippets() -> list[tuple[str, int, str]]:
    out = []
    for doc in sorted(DOCS.glob("*.md")):
        text = doc.read_text(encoding="utf-8")
        for m in re.finditer(r"^```yaml\n(.*?)^```", text, re.S | re.M):
            line = text.count("\n", 0, m.start()) + 1
            out.append((doc.name, line, m.group(1)))
    return out


def _is_whole_spec(snippet: str) -> bool:
    return re.search(r"^game:", snippet, re.M) is not None


def test_docs_have_whole_spec_snippets() -> None:
    whole = [s for s in _snippets() if _is_whole_spec(s[2])]
    assert {doc for doc, _, _ in whole} >= {"spec-language.md", "first-game.md"}


@pytest.mark.parametrize("doc, line, snippet", _snippets(), ids=lambda v: str(v) if not isinstance(v, str) or len(v) < 30 else "")
def test_yaml_snippet_is_yaml(doc: str, line: int, snippet: str) -> None:
    try:
        yaml.safe_load(snippet)
    except yaml.YAMLError as exc:  # pragma: no cover - the failure message
        pytest.fail(f"{doc}:{line}: the yaml snippet is not valid YAML (mark wrong examples ```text): {exc}")


@pytest.mark.parametrize(
    "doc, line, snippet",
    [s for s in _snippets() if _is_whole_spec(s[2])],
    ids=lambda v: str(v) if not isinstance(v, str) or len(v) < 30 else "",
)
def test_whole_spec_snippet_validates(tmp_path: Path, doc: str, line: int, snippet: str) -> None:
    # a relative 'extends:' in a doc example names a file under specs/: copied beside the
    # example (a spec extends only files in its own folder tree)
    for base in re.findall(r"^extends:\s*(\S+)", snippet, flags=re.M):
        (tmp_path / base).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / base).write_bytes((SPECS / base).read_bytes())
    path = tmp_path / f"{doc}-{line}.yaml"
    path.write_text(snippet, encoding="utf-8")
    load_game_ir(str(path))
    for variant in list_variants(str(path)):
        load_game_ir(str(path), variant)


# --------------------------------------------------------------------------- the walk-through

FIRST_GAME = DOCS / "first-game.md"
TIC_TAC_TOE = SPECS / "classics" / "tic-tac-toe.yaml"


def test_first_game_ends_with_the_spec_in_specs() -> None:
    """The walk-through's finished spec is, verbatim, specs/classics/tic-tac-toe.yaml."""
    finished = [s for doc, _, s in _snippets() if doc == FIRST_GAME.name and _is_whole_spec(s)]
    assert finished[-1] == TIC_TAC_TOE.read_text(encoding="utf-8")


def test_first_game_outputs_match_the_engine() -> None:
    """The replay JSON and perft counts printed in the walk-through are what the game gives."""
    import json

    from midgardc.runtime.game import perft, replay
    from midgardc.engines import load

    text = FIRST_GAME.read_text(encoding="utf-8")
    game = load(str(TIC_TAC_TOE), engine="interpreted")
    shown = next(line for line in text.splitlines() if line.startswith('{"game": "tic-tac-toe", "variant": null'))
    state = replay(game, "b2 a1 a2 a3 c2".split())
    assert json.loads(shown) == state.to_json()
    counts = [int(n) for _, n in re.findall(r"^(\d) (\d+)$", text.split("perft tic-tac-toe.yaml --depth 9", 2)[2], re.M)]
    # the published perft of tic-tac-toe (sequences of exactly d moves; 255168 games in
    # all, summed over the depths they end at); the interpreter checks the shallow ones
    assert counts == [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]
    assert [perft(game.new_state(), d) for d in range(1, 6)] == counts[:5]
    draw = replay(game, "b2 a1 c3 a3 a2 c2 b1 b3 c1".split())
    assert draw.is_terminal() and draw.winner() is None
    misere = replay(load(str(TIC_TAC_TOE), "misere", engine="interpreted"), "b2 a1 a2 a3 c2".split())
    assert misere.to_json()["winner"] == "o"


def test_first_game_cli_commands_print_what_the_doc_shows() -> None:
    """The console sessions of the walk-through's finished game, run for real."""
    import importlib.util
    import os
    import subprocess
    import sys

    if importlib.util.find_spec("midgardc.cli") is None:  # pragma: no cover
        pytest.skip("midgardc.cli is not written yet")
    exe = Path(sys.executable).parent / "midgardc"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "midgardc.cli"]
    text = FIRST_GAME.read_text(encoding="utf-8")
    finished = text.split("## 6. The finished spec", 1)[1]  # earlier sessions show unfinished specs
    sessions = re.findall(r"^```console\n(.*?)^```", finished, re.S | re.M)
    env = dict(os.environ, NO_COLOR="1")
    checked = 0
    for session in sessions:
        for command, expected in re.findall(r"^\$ (midgardc .*)\n((?:(?!\$ ).*\n)*)", session, re.M):
            args = command.split()[1:]
            if args[0] not in ("validate", "replay", "moves") or "..." in expected:
                continue  # perft 9 (checked above), build, match and bench are slow or vary; "..." elides
            spec = args.index("tic-tac-toe.yaml")
            args[spec] = str(TIC_TAC_TOE)
            if "--moves" in args:  # re-join the quoted move list
                i = args.index("--moves")
                j = next(k for k in range(i + 1, len(args)) if args[k].endswith('"'))
                args[i + 1 : j + 1] = [" ".join(args[i + 1 : j + 1]).strip('"')]
            proc = subprocess.run([*cmd, *args], capture_output=True, text=True, timeout=300, env=env)
            shown = (proc.stdout + proc.stderr).replace(str(TIC_TAC_TOE), "tic-tac-toe.yaml")
            assert shown.strip() == expected.strip(), command
            checked += 1
    assert checked >= 4


# --------------------------------------------------------------------------- the front door

README = ROOT / "README.md"
README_MAX_LINES = 200  # issue 29: the README is an index; the detail lives in the files it links

_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(doc: Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", doc.read_text(encoding="utf-8"), flags=re.S | re.M)
    return {_slug(m.group(1)) for m in re.finditer(r"^#+\s+(.*)$", text, re.M)}


def _relative_links(doc: Path) -> list[tuple[str, Path, str]]:
    text = re.sub(r"^```.*?^```", "", doc.read_text(encoding="utf-8"), flags=re.S | re.M)
    out = []
    for m in _LINK.finditer(text):
        target = m.group(1)
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        out.append((target, (doc.parent / path).resolve() if path else doc, anchor))
    return out


def test_readme_is_an_index() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines: move detail to docs/ or benchmarks/"
    for must in ("make run", "make test", "docs/first-game.md", "docs/spec-language.md", "docs/research.md",
                 "docs/design.md", "benchmarks/README.md"):
        assert must in README.read_text(encoding="utf-8"), must


@pytest.mark.parametrize("doc", [README, ROOT / "benchmarks" / "README.md", *sorted(DOCS.glob("*.md"))], ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(doc: Path) -> None:
    broken = []
    for target, path, anchor in _relative_links(doc):
        if not path.exists():
            broken.append(f"{target}: no such file")
        elif anchor and path.suffix == ".md" and anchor not in _anchors(path):
            broken.append(f"{target}: no heading with that anchor")
    assert not broken, f"{doc.name}: " + "; ".join(broken)


def test_link_check_sees_a_broken_link(tmp_path: Path) -> None:
    """The link test is not vacuous: a missing file and a missing anchor are both found."""
    (tmp_path / "there.md").write_text("# A heading, `with` code\n", encoding="utf-8")
    doc = tmp_path / "doc.md"
    doc.write_text("[a](there.md#a-heading-with-code) [b](gone.md) [c](there.md#nope) [d](https://x.org/y)\n", encoding="utf-8")
    links = _relative_links(doc)
    assert [t for t, p, _ in links if not p.exists()] == ["gone.md"]
    assert [t for t, p, a in links if p.exists() and a and a not in _anchors(p)] == ["there.md#nope"]
