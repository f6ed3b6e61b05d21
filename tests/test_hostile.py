"""Hostile specs: a spec is data from a stranger; compiling it must never run its text.

Each case is a small spec carrying one hostile thing (quotes, newlines, backslashes and
'#' in titles, notations and cell-name templates; keywords of Python, Cython and C as
names; look-alike Unicode; megabyte strings; huge integers; deep nesting; alias bombs;
Python object tags). Each must either be refused with a positioned message, or load, and
then generate, build, import and play with the compiled engine, without a canary file
that an injection would create ever appearing.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from midgardc.errors import MidgardcError, SpecError
from midgardc.spec.lower import load_game_ir

ROOT = Path(__file__).resolve().parents[1]
# An absolute path, so a 'touch' run from any working directory (a build's scratch
# directory included) leaves it where this test looks.
CANARY = os.path.join(tempfile.gettempdir(), f"midgardc_hostile_canary_{os.getpid()}")

# An injection that any string context (Python, Cython, C, a comment) might execute.
INJECT = f'x"""; import os; os.system("touch {CANARY}"); """\'\'\' \\n # */ os.system(\'touch {CANARY}\') /* \\\\'

BASE = """\
midgardc: 1
game:
  name: {name}
  title: {title}
  players: {players}
pieces:
  {piece}:
    hand: 5
board:
  topology: square
  rows: 3
  cols: 3
actions:
  {action}:
    params: {{c: cell}}
    where: empty(c)
    effects:
      - place: {{piece: {piece}, at: c}}
    notation: {notation}
ranking:
  {rank}: "count(c in cells: owner(c) == p)"
"""


def yq(text: str) -> str:
    """A YAML double-quoted scalar holding ``text`` exactly."""
    out = ['"']
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif not ch.isprintable():
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def spec(**kw) -> str:
    values = {"name": "hostile", "title": "Hostile", "players": "[x, o]", "piece": "mark", "action": "play", "notation": '"{c}"', "rank": "marks"}
    values.update(kw)
    return BASE.format(**values)


GRAPH = """\
midgardc: 1
game: {{name: hostile-graph, title: {title}, players: [x, o]}}
pieces: {{mark: {{hand: 3}}}}
board:
  topology: graph
  nodes: {nodes}
  edges: {edges}
actions:
  play:
    params: {{c: cell}}
    where: empty(c)
    effects: [place: {{piece: mark, at: c}}]
ranking:
  marks: "count(c in cells: owner(c) == p)"
"""

AFFIXED = """\
midgardc: 1
game: {{name: hostile-affixed, title: T, players: [x, o]}}
pieces: {{mark: {{hand: 20}}}}
board: {{topology: triangle, size: 3, affixed: {{left: {left}, right: "R{{k}}", bottom: "B{{k}}"}}}}
actions:
  play:
    params: {{c: cell}}
    where: empty(c)
    effects: [place: {{piece: mark, at: c}}]
ranking:
  marks: "count(c in cells: owner(c) == p)"
"""

KEYWORDS = ["cdef", "int", "def", "class", "None", "__import__", "print", "import", "lambda", "struct", "void", "return", "self", "st", "nogil", "cimport", "True", "while", "exec", "eval", "os", "sys", "GAME", "State", "main", "__init__", "_", "a0", "N_PLAYERS"]

CASES: dict[str, str] = {
    "title_injection": spec(title=yq(INJECT)),
    "title_triple_quotes": spec(title=yq('"""\n\'\'\'\n\\x00 #{c}')),
    "title_newlines": spec(title=yq("line one\nimport os\nos.system('touch " + CANARY + "')\n")),
    "title_crlf_nul": spec(title=yq("a\r\nb\u2028c\u0085d\x00e")),
    "title_megabyte": spec(title=yq("A" * 1_000_000)),
    "title_lookalike": spec(title=yq("\u0456mport \u043es; \uff4fs.system('touch " + CANARY + "')")),
    "title_rtl_override": spec(title=yq("\u202eevil\u202c \ufeff")),
    "notation_injection": spec(notation=yq("{c}" + INJECT)),
    "notation_hash_newline": spec(notation=yq("{c}#\n\\")),
    "notation_braces": spec(notation=yq("{c}{{}}{")),
    "notation_format_attack": spec(notation=yq("{c.__class__}")),
    "notation_megabyte": spec(notation=yq("{c}" + "\\" * 1_000_000)),
    "name_injection": spec(name=yq('x"; import os #')),
    "name_trailing_newline": spec(name=yq("hostile\n")),
    "name_lookalike": spec(name=yq("h\u043estile")),
    "piece_trailing_newline": spec(piece=yq("mark\n")),
    "action_with_quote": spec(action=yq('play"')),
    "action_lookalike": spec(action=yq("pl\u0430y")),
    "players_injection": spec(players="[" + yq('x"); os.system("touch ' + CANARY + '") #') + ", o]"),
    "players_newline": spec(players="[" + yq("x\n") + ", o]"),
    "huge_int_hand": spec().replace("hand: 5", "hand: " + "9" * 5000),
    "huge_int_rows": spec().replace("rows: 3", "rows: 99999999999999999999999999999"),
    "huge_int_condition": spec().replace("where: empty(c)", 'where: "empty(c) and ' + "9" * 400 + ' > 0"'),
    "negative_hand": spec().replace("hand: 5", "hand: -5"),
    "float_rows": spec().replace("rows: 3", "rows: 3.5"),
    "condition_megabyte": spec().replace("where: empty(c)", "where: " + yq("empty(c)" + " and empty(c)" * 100_000)),
    "condition_deep_parens": spec().replace("where: empty(c)", "where: " + yq("(" * 5000 + "empty(c)" + ")" * 5000)),
    "condition_deep_not": spec().replace("where: empty(c)", "where: " + yq("not " * 5000 + "empty(c)")),
    "condition_python": spec().replace("where: empty(c)", "where: " + yq("__import__('os').system('touch " + CANARY + "')")),
    "condition_lambda": spec().replace("where: empty(c)", "where: " + yq("(lambda: 1)()")),
    "python_tag": spec().replace("title: Hostile", "title: !!python/object/apply:os.system ['touch " + CANARY + "']"),
    "python_name_tag": spec().replace("title: Hostile", "title: !!python/name:os.system"),
    "python_module_tag": spec().replace("title: Hostile", "title: !!python/module:os"),
    "local_tag": spec().replace("title: Hostile", "title: !evil x"),
    "binary_tag": spec().replace("title: Hostile", "title: !!binary aGVsbG8="),
    "set_tag": spec().replace("title: Hostile", "title: !!set {a, b}"),
    "alias_bomb": "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
    + "".join(f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n" for p, c in zip("abcdefgh", "bcdefghi"))
    + spec(),
    "alias_in_title": "t: &t " + yq("T") + "\n" + spec(title="*t"),
    "merge_key": "base: &b {hand: 5}\n" + spec().replace("    hand: 5", "    <<: *b"),
    "deep_flow_nesting": spec() + "render: " + "[" * 100_000 + "]" * 100_000 + "\n",
    "deep_block_nesting": spec() + "render:\n" + "".join("  " * (i + 1) + f"k{i}:\n" for i in range(500)) + "  " * 501 + "v: 1\n",
    "oversized_file": spec() + "render:\n" + "".join(f"  k{i}: {i}\n" for i in range(400_000)),
    "binary_garbage": "\x00\x01\x02\x7f\ufffe" * 100,
    "only_document_markers": "---\n...\n---\n",
    "two_documents": spec() + "---\n" + spec(),
    "not_a_mapping": "[1, 2, 3]\n",
    "scalar_document": "hello\n",
    "graph_node_injection": GRAPH.format(title="G", nodes="[" + yq('a"; import os #') + ", " + yq("b\n#") + ", " + yq("c\\") + "]", edges="[[" + yq('a"; import os #') + ", " + yq("b\n#") + "]]"),
    "graph_node_comment_close": GRAPH.format(title=yq("*/ int main() { /*"), nodes="[" + yq("*/ system(\"touch " + CANARY + "\"); /*") + ", " + yq("\\\"\"\"") + "]", edges="[[" + yq("*/ system(\"touch " + CANARY + "\"); /*") + ", " + yq("\\\"\"\"") + "]]"),
    "graph_node_keyword": GRAPH.format(title="G", nodes="[cdef, None, __import__]", edges="[[cdef, None], [None, __import__]]"),
    "affixed_injection": AFFIXED.format(left=yq('L{k}"""; import os; os.system("touch ' + CANARY + '") #')),
    "affixed_newline": AFFIXED.format(left=yq("L{k}\n#\\")),
    "affixed_format_attack": AFFIXED.format(left=yq("{k.__class__.__mro__}")),
    "affixed_no_k": AFFIXED.format(left=yq("L")),
    # Cell names may hold anything but spaces and commas: they reach the source only in comments.
    "graph_node_punctuation": GRAPH.format(
        title="G",
        nodes="[" + yq('*/"""\\#') + ", " + yq("'''{c}\\x41") + ", " + yq("os.system('touch~" + CANARY + "')") + "]",
        edges="[[" + yq('*/"""\\#') + ", " + yq("'''{c}\\x41") + "]]",
    ),
}
for _i, _kw in enumerate(KEYWORDS):
    CASES[f"keyword_piece_{_kw}"] = spec(piece=_kw)
    CASES[f"keyword_action_{_kw}"] = spec(action=_kw)
    CASES[f"keyword_rank_{_kw}"] = spec(rank=_kw)
CASES["keyword_players"] = spec(players="[cdef, None]")
CASES["keyword_players2"] = spec(players="[__import__, print]")
CASES["keyword_game_name"] = spec(name="cdef")


def _write(tmp: Path, name: str, text: str) -> Path:
    path = tmp / f"{name}.yaml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return path


def _check_refusal(exc: MidgardcError, path: Path) -> None:
    text = str(exc)
    assert text.strip(), "an empty message"
    assert "Traceback" not in text
    if exc.pos is not None:  # a few whole-file problems (binary garbage) have no line
        assert text.startswith(f"{path}:{exc.pos.line}:{exc.pos.col}: error: ")
    assert len(text) < 5000, "a message should be short, whatever the input"


# Valid hostile specs whose compiled engine is built, imported and played (a build is a few
# seconds, so the many keyword cases are represented by one spec that uses them all).
BUILD = ["title_injection", "title_megabyte", "title_crlf_nul", "graph_node_keyword", "graph_node_punctuation", "keywords_everywhere"]
CASES["keywords_everywhere"] = spec(title=yq(INJECT), name="cdef", piece="__import__", action="exec", rank="None", players="[int, print]", notation=yq("{c}\\#\"\"\"'"))


@pytest.fixture(autouse=True)
def _no_canary():
    if os.path.exists(CANARY):
        os.unlink(CANARY)
    yield
    assert not os.path.exists(CANARY), "a spec's text was executed"


@pytest.mark.parametrize("name", sorted(CASES))
def test_hostile_spec_is_refused_or_loads(name, tmp_path, monkeypatch):
    """Refused with a positioned message, or loaded with its generated source clean."""
    monkeypatch.chdir(tmp_path)
    path = _write(tmp_path, name, CASES[name])
    try:
        ir = load_game_ir(str(path))
    except SpecError as exc:
        _check_refusal(exc, path)
        assert name not in BUILD, f"{name} was expected to validate"
        return
    from midgardc.compiler.build import generate_source

    text = generate_source(ir)
    for line in text.splitlines():
        if "touch" in line or "import os" in line:  # only in a comment or an escaped literal
            code = line.lstrip()
            assert code.startswith(("#", "/*")) or code.startswith(("GAME =", "SPEC =", "VARIANT =")) or "*/" in line or code.startswith("# "), line[:200]
            assert "\n" not in line.split("#", 1)[0] or code.startswith(("GAME =", "SPEC =")), line[:200]
    assert "\x00" not in text and "\r" not in text


@pytest.mark.parametrize("name", BUILD)
def test_hostile_spec_builds_and_plays_safely(name, tmp_path, monkeypatch):
    """Validated hostile specs compile with the real compiler, import, and play the same
    game in both engines; no canary appears."""
    from midgardc.runtime.game import game_from_ir

    monkeypatch.chdir(tmp_path)
    path = _write(tmp_path, name, CASES[name])
    ir = load_game_ir(str(path))
    compiled = game_from_ir(ir, "compiled")
    interpreted = game_from_ir(ir, "interpreted")
    for seed in range(3):
        rng = random.Random(seed)
        a, b = compiled.new_state(seed), interpreted.new_state(seed)
        while not a.is_terminal():
            assert a.legal_move_ids() == b.legal_move_ids()
            move = rng.choice(a.legal_move_ids())
            a.apply_unchecked(move)
            b.apply_unchecked(move)
        assert b.is_terminal() and a.to_json() == b.to_json()
    assert not list(tmp_path.glob("*canary*"))
