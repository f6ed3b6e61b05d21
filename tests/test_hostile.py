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
    from midgardc.engines import game_from_ir

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


# --------------------------------------------------------------------------------------------
# Hostile uses of the newer language: dice (chance), player counts, remove / extra_turn and
# graph node places; and hostile records, players and cluster addresses on the command line.
# A refused spec must be refused at a position; a loaded one must play to its end in both
# engines, move for move, every roll's text reading back as that roll.

DICE = """\
midgardc: 1
game: {{name: hostile-dice, title: Hostile dice, players: [red, blue, green], max_plies: {plies}}}
player_counts: {counts}
pieces: {{stone: {{hand: 6}}}}
board: {{topology: square, rows: 3, cols: 3}}
chance:
  dice: {dice}
  faces: {faces}
actions:
  put:
    params: {{c: cell}}
    where: "{where}"
    effects: {effects}
    notation: "{notation}"
triggers: {triggers}
end: {{no_moves: pass}}
ranking:
  stones: "count(c in cells: owner(c) == p)"
"""


def dice_spec(**kw) -> str:
    values = {
        "plies": 30, "counts": "{2: {}, 3: {}}", "dice": 2, "faces": "{one: 1, two: {text: T, value: 2}}",
        "where": "empty(c)", "effects": "[place: {piece: stone, at: c}]", "notation": "{c}", "triggers": "{}",
    }
    values.update(kw)
    return DICE.format(**values)


LOOP = "{again: {effects: [extra_turn: {}]}}"  # every move earns another: only max_plies ends it

# name -> (spec text, a phrase the refusal must contain)
REFUSED: dict[str, tuple[str, str]] = {
    "dice_a_million": (dice_spec(dice=1_000_000), "chance.dice must be between 1 and 16"),
    "dice_zero": (dice_spec(dice=0), "chance.dice must be between 1 and 16"),
    "dice_huge_int": (dice_spec(dice=2**62), "chance.dice must be between 1 and 16"),
    "dice_as_text": (dice_spec(dice='"2"'), "chance.dice must be a whole number"),
    "faces_zero": (dice_spec(faces="{}"), "chance.faces maps 1 to 64 face names"),
    "faces_a_list": (dice_spec(faces="[one, two]"), "chance.faces maps 1 to 64 face names"),
    "faces_too_many": (dice_spec(faces="{" + ", ".join(f"f{i}: {i}" for i in range(65)) + "}"), "chance.faces maps 1 to 64 face names"),
    "draws_too_many": (dice_spec(dice=16, faces="{" + ", ".join(f"f{i}: {i}" for i in range(16)) + "}"), "draws (limit 65536)"),
    "face_names_twice": (dice_spec(faces="{one: 1, one: 2}"), "duplicate key 'one'"),
    "face_texts_twice": (dice_spec(faces="{one: {text: X}, two: {text: X}}"), "two faces are written 'X'"),
    "face_text_is_other_name": (dice_spec(faces="{one: 1, two: {text: one}}"), "two faces are written 'one'"),
    "face_text_space": (dice_spec(faces='{one: {text: "a b"}}'), "may not be empty or contain spaces"),
    "face_text_dash": (dice_spec(faces='{one: {text: "a-b"}, two: 2}'), "may not be empty or contain spaces"),
    "face_text_colon": (dice_spec(faces='{one: {text: "roll:x"}}'), "may not be empty or contain spaces"),
    "face_text_comma": (dice_spec(faces='{one: {text: "a,b"}}'), "may not be empty or contain spaces"),
    "face_text_empty": (dice_spec(faces='{one: {text: ""}}'), "may not be empty or contain spaces"),
    "face_text_newline": (dice_spec(faces='{one: {text: "a\\nb"}}'), "may not be empty or contain spaces"),
    "face_text_nbsp": (dice_spec(faces='{one: {text: "a\\u00a0b"}}'), "may not be empty or contain spaces"),
    "face_text_unknown_key": (dice_spec(faces="{one: {text: A, colour: red}}"), "unknown key 'colour'"),
    "face_value_huge": (dice_spec(faces="{one: 99999999999}"), "a face's value must be between"),
    "face_named_like_player": (dice_spec(faces="{red: 1}"), "same name as a player"),
    "face_named_like_builtin": (dice_spec(faces="{mover: 1}"), "built-in word"),
    "roll_named_like_action": (dice_spec().replace("  dice: 2", "  name: put\n  dice: 2"), "like an action"),
    # a move's text must say whether it is a roll: no action may write the roll's prefix
    "notation_writes_roll_prefix": (dice_spec(notation="roll:{c}"), "can write a move starting 'roll:'"),
    "notation_partly_roll_prefix": (dice_spec(notation="r{c}").replace("board: {topology: square, rows: 3, cols: 3}", 'board: {topology: graph, nodes: [a, "oll:x"], edges: []}'), "can write a move starting 'roll:'"),
    "cell_named_like_roll": (dice_spec().replace("board: {topology: square, rows: 3, cols: 3}", 'board: {topology: graph, nodes: [a, "roll:one-one"], edges: [[a, "roll:one-one"]]}'), "can write a move starting 'roll:'"),
    "dice_without_faces_used": (dice_spec(where="rolled(three) > 0"), "unknown name 'three'"),
    "count_huge": (dice_spec(counts="{99999999999999999999: {}}"), "is too large"),
    "count_nine": (dice_spec(counts="{9: {}}"), "player_counts keys are numbers of players (1 to 8)"),
    "count_zero": (dice_spec(counts="{0: {}}"), "player_counts keys are numbers of players (1 to 8)"),
    "count_word": (dice_spec(counts="{two: {}}"), "player_counts keys are numbers of players"),
    "count_fraction": (dice_spec(counts="{1.5: {}}"), "player_counts keys are numbers of players"),
    "count_superscript": (dice_spec(counts='{"\\u00b2": {}}'), "player_counts keys are numbers of players"),
    "count_arabic_digit": (dice_spec(counts='{"\\u0663": {}}'), "player_counts keys are numbers of players"),
    "count_5000_digits": (dice_spec(counts='\n  ? "' + "9" * 5000 + '"\n  : {}'), "player_counts keys are numbers of players"),
    "count_more_than_players": (dice_spec(counts="{2: {}, 4: {}}"), "a 4-player game needs 4"),
    "count_list": (dice_spec(counts="[2, 3]"), "player_counts maps each supported number"),
    "count_empty": (dice_spec(counts="{}"), "player_counts maps each supported number"),
    "count_default_unlisted": (dice_spec(counts="{default: 4, 2: {}, 3: {}}"), "player_counts.default must be one of the listed counts"),
    "count_default_text": (dice_spec(counts="{default: two, 2: {}}"), "player_counts.default must be one of the listed counts"),
    "count_default_bool": (dice_spec(counts="{default: true, 1: {}}"), "player_counts.default must be one of the listed counts"),
    "count_patch_a_list": (dice_spec(counts="{2: [], 3: {}}"), "the 2-player patch is a mapping"),
    "count_patch_drops_players": (dice_spec(counts="{2: {game: {players: null}}, 3: {}}"), "'game' needs a 'players' key"),
    "count_patch_too_few_players": (dice_spec(counts="{2: {game: {players: [solo]}}, 3: {}}"), "a 2-player game needs 2"),
    "count_patch_drops_board": (dice_spec(counts="{2: {board: null}, 3: {}}"), "needs a 'board' key"),
    "count_patch_drops_game": (dice_spec(counts="{2: {game: null}, 3: {}}"), "needs a 'game' key"),
    "count_patch_counts": (dice_spec(counts="{2: {player_counts: {}}, 3: {}}"), "cannot patch 'player_counts'"),
    "count_patch_variants": (dice_spec(counts="{2: {variants: {}}, 3: {}}"), "cannot patch 'variants'"),
    "count_patch_extends": (dice_spec(counts="{2: {extends: x.yaml}, 3: {}}"), "cannot patch 'extends'"),
    "count_patch_bad_hand": (dice_spec(counts="{2: {pieces: {stone: {hand: 99999999}}}, 3: {}}"), "a hand size must be between 0 and 10000"),
    "extra_turn_with_keys": (dice_spec(effects="[place: {piece: stone, at: c}, extra_turn: {times: 2}]"), "unknown key 'times'"),
    "extra_turn_as_text": (dice_spec(effects="[place: {piece: stone, at: c}, extra_turn: again]"), "effect 'extra_turn' must be a mapping"),
    "remove_without_at": (dice_spec(effects="[remove: {to: out}]"), "needs a 'at' key"),
    "remove_to_nowhere": (dice_spec(effects="[remove: {at: c, to: board}]"), "remove.to is 'hand'"),
    "remove_each_no_collection": (dice_spec(effects='[remove: {each: "x in", at: x}]'), "remove.each is 'VARIABLE in COLLECTION'"),
    "remove_each_shadows_param": (dice_spec(effects='[remove: {each: "c in cells", at: c}]'), "'c' is already a name here"),
    "remove_each_player_var": (dice_spec(effects='[remove: {each: "red in cells", at: red}]'), "'red' is already a name here"),
    "remove_at_a_player": (dice_spec(effects="[remove: {at: mover}]"), "expected a cell"),
    "graph_at_three_numbers": (GRAPH.format(title="G", nodes="[{name: a, at: [1, 2, 3]}]", edges="[]"), "'at' is a list of two numbers"),
    "graph_at_text": (GRAPH.format(title="G", nodes="[{name: a, at: [x, 1]}]", edges="[]"), "a node's place is given by two numbers"),
    "graph_at_nan": (GRAPH.format(title="G", nodes="[{name: a, at: [.nan, 1]}]", edges="[]"), "a node's place is given by two numbers"),
    "graph_at_huge": (GRAPH.format(title="G", nodes="[{name: a, at: [1e300, 1]}]", edges="[]"), "a node's place is given by two numbers"),
    "graph_at_on_some": (GRAPH.format(title="G", nodes="[{name: a, at: [0, 1]}, b]", edges="[]"), "give every node 'at: [x, y]' or none"),
    "graph_node_extra_key": (GRAPH.format(title="G", nodes="[{name: a, at: [0, 1], colour: red}]", edges="[]"), "unknown key 'colour' for a graph node"),
    "graph_node_without_name": (GRAPH.format(title="G", nodes="[{at: [0, 1]}]", edges="[]"), "a node needs a 'name'"),
    "graph_edges_a_number": (GRAPH.format(title="G", nodes="[a, b]", edges="5"), "'edges' is a list of pairs"),
    "graph_edges_a_mapping": (GRAPH.format(title="G", nodes="[a, b]", edges="{a: b}"), "'edges' is a list of pairs"),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_hostile_new_feature_is_refused_at_a_position(name, tmp_path):
    text, phrase = REFUSED[name]
    path = _write(tmp_path, name, text)
    with pytest.raises(SpecError) as info:
        for n in (None, 2, 3):  # every count a spec declares is checked, as `validate` does
            load_game_ir(str(path), None, n) if "player_counts" in text else load_game_ir(str(path))
    _check_refusal(info.value, path)
    assert info.value.pos is not None, str(info.value)
    assert phrase in str(info.value), str(info.value)


def test_validate_refuses_them_with_one_message_and_exit_1(tmp_path):
    from click.testing import CliRunner

    from midgardc.cli import cli

    for name in ("face_text_dash", "count_superscript", "count_5000_digits", "graph_edges_a_number", "notation_writes_roll_prefix"):
        path = _write(tmp_path, name, REFUSED[name][0])
        result = CliRunner().invoke(cli, ["validate", str(path)])
        assert result.exit_code == 1, result.output
        assert result.output.count("error:") == 1 and "Traceback" not in result.output
        assert f"{path}:" in result.output


# name -> spec text of a hostile spec that is valid and must play safely
PLAYS: dict[str, str] = {
    # extra turns forever: the mover never changes, and max_plies still ends every game
    "extra_turn_forever": dice_spec(plies=7, triggers=LOOP),
    # ... and with players that cannot move (passes) in between
    "extra_turn_forever_with_passes": dice_spec(plies=9, triggers=LOOP, where="empty(c) and rolled(two) > 0"),
    # removal of the off-board cell (past the board's edge), of empty cells, of every cell
    "remove_off_board": dice_spec(effects='[place: {piece: stone, at: c}, remove: {at: "step(c, n)", to: out}, remove: {at: "step(step(c, w), w)"}]'),
    "remove_everything_each_move": dice_spec(effects='[place: {piece: stone, at: c}, remove: {each: "x in cells", where: "x != c", at: x, to: hand}]'),
    "remove_own_piece_then_extra": dice_spec(plies=12, effects='[place: {piece: stone, at: c}, remove: {at: c}, extra_turn: {}]'),
    # face texts that look like notation, yet cannot be confused with it
    "face_texts_like_notation": dice_spec(faces='{one: {text: "roll"}, two: {text: "{c}"}, six: {text: "#1"}, ee: {text: "\\u00e9"}}'),
    "eight_players": dice_spec(counts="{8: {game: {players: [pa, pb, pc, pd, pe, pf, pg, ph]}}}", plies=20),
    "one_face_sixteen_dice": dice_spec(dice=16, faces="{only: 7}"),
    "graph_all_nodes_at_one_point": GRAPH.format(title="G", nodes="[{name: a, at: [0, 0]}, {name: b, at: [0.0, 0]}, {name: c, at: [-0.5, 1.5e2]}]", edges="[[a, b], [b, c]]"),
}


def _play_both(ir, seeds=range(3)):
    """Random games in both engines, move for move; every game ends within max_plies."""
    from midgardc.engines import game_from_ir

    compiled, interpreted = game_from_ir(ir, "compiled"), game_from_ir(ir, "interpreted")
    plies = []
    for seed in seeds:
        rng = random.Random(seed)
        a, b = compiled.new_state(seed), interpreted.new_state(seed)
        for _ in range(4 * ir.max_plies + 10):
            if a.is_terminal():
                break
            assert a.legal_move_ids() == b.legal_move_ids()
            assert a.current_player() == b.current_player()
            move = a.sample_chance().id if a.is_chance_node() else rng.choice(a.legal_move_ids())
            if b.is_chance_node():
                b.apply_unchecked(move)
            else:
                a.apply_unchecked(move)
                b.apply_unchecked(move)
            assert a.ply() <= ir.max_plies
        assert a.is_terminal() and b.is_terminal(), "the game did not end by max_plies"
        assert a.to_json() == b.to_json()
        plies.append(a.ply())
    return interpreted, plies


# one compiled build per case is a few seconds: these are the ones worth it
PLAYS_COMPILED = ["extra_turn_forever_with_passes", "remove_off_board", "face_texts_like_notation"]


@pytest.mark.parametrize("name", sorted(PLAYS))
def test_hostile_new_feature_loads_and_plays_safely(name, tmp_path, monkeypatch):
    from midgardc.engines import game_from_ir

    monkeypatch.chdir(tmp_path)
    path = _write(tmp_path, name, PLAYS[name])
    ir = load_game_ir(str(path))
    if name in PLAYS_COMPILED:
        game, _ = _play_both(ir)
    else:
        game = game_from_ir(ir, "interpreted")
        for seed in range(3):
            rng = random.Random(seed)
            state = game.new_state(seed)
            for _ in range(4 * ir.max_plies + 10):
                if state.is_terminal():
                    break
                state.sample_chance() if state.is_chance_node() else state.apply_unchecked(rng.choice(state.legal_move_ids()))
            assert state.is_terminal() and state.ply() <= ir.max_plies
    if ir.chance is not None:  # every roll is written so that it reads back as itself, and only it
        texts = [ir.chance.text(o) for o in range(len(ir.chance.outcomes))]
        assert len(set(texts)) == len(texts)
        for o, text in enumerate(texts):
            assert game.move_id(text) == ir.chance.base + o
        moves = {game.move_text(m) for m in range(ir.chance.base)}
        assert not moves & set(texts)


def test_extra_turn_forever_ends_by_max_plies_as_a_draw(tmp_path):
    from midgardc.engines import game_from_ir

    ir = load_game_ir(str(_write(tmp_path, "loop", PLAYS["extra_turn_forever"])))
    state = game_from_ir(ir, "interpreted").new_state(5)
    movers = set()
    rng = random.Random(5)
    while not state.is_terminal():
        if state.is_chance_node():
            state.sample_chance()
        else:
            movers.add(state.current_player())
            state.apply_unchecked(rng.choice(state.legal_move_ids()))
    assert movers == {0}  # the first player never gives the turn away
    assert state.ply() == ir.max_plies == 7
    assert state.core.ply_limited and state.winner() is None


# -- the command line: records, players and cluster addresses -----------------------------------

DICE_SPEC = str(ROOT / "tests" / "data" / "dice.yaml")


def _cli(*args: str):
    from click.testing import CliRunner

    from midgardc.cli import cli

    return CliRunner().invoke(cli, list(args))


def _one_clear_error(result, *phrases: str) -> None:
    out = result.output + (result.stderr if hasattr(result, "stderr") else "")
    assert result.exit_code == 1, out
    assert "Traceback" not in out and "internal error" not in out, out
    assert "error" in out.lower(), out
    for phrase in phrases:
        assert phrase in out, out


@pytest.fixture(scope="module")
def dice_record(tmp_path_factory) -> list[dict]:
    import json

    path = tmp_path_factory.mktemp("rec") / "dice.jsonl"
    result = _cli("match", DICE_SPEC, "--players", "random,greedy", "--games", "2", "--engine", "interpreted", "--record", str(path))
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in path.read_text().splitlines()]


def _forge(lines: list[dict], change) -> list[dict]:
    import copy

    lines = copy.deepcopy(lines)
    change(lines[0])
    return lines


# name -> (how line 0 is changed, phrases the message must contain)
FORGED = {
    "moves_a_string": (lambda d: d.update(moves="roll:1-1 a1"), ("'moves' (the moves) is a str", ":1:")),
    "moves_missing": (lambda d: d.pop("moves"), ("'moves' (the moves) is missing",)),
    "moves_garbled": (lambda d: d.update(moves=[None, {"a": 1}, 5]), ("does not replay", "move 1") ),
    "move_not_a_roll_where_a_roll_is_due": (lambda d: d.update(moves=[m for m in d["moves"] if not m.startswith("roll:")]), ("a roll is due",)),
    "roll_where_a_move_is_due": (lambda d: d.update(moves=[d["moves"][0], d["moves"][0], *d["moves"][1:]]), ("move 2",)),
    "a_roll_that_cannot_be": (lambda d: d["moves"].__setitem__(0, "roll:9-9"), ("move 1", "roll:9-9")),
    "seed_as_text": (lambda d: d.update(game_seed="7"), ("'game_seed' (the game's seed) is a str",)),
    "seats_names_a_number": (lambda d: d.update(seat_names=2), ("'seat_names' (the seats' names) is a int",)),
    "seat_names_forged_to_nine": (lambda d: d.update(seat_names=["red"] * 9), ("not 9",)),
    "seat_names_forged_to_three": (lambda d: d.update(seat_names=["red", "blue", "green"]),  ("game 0",)),
    "result_a_list": (lambda d: d.update(result=["winner_seat"]), ("'result' (the result) is a list",)),
    "result_forged": (lambda d: d["result"].update(plies=d["result"]["plies"] + 1), ("replays to a different result",)),
    "variant_a_number": (lambda d: d.update(variant=3), ("'variant' (a variant name or null) is a int",)),
    "variant_unknown": (lambda d: d.update(variant="nope"), ("unknown variant 'nope'",)),
    "sha256_a_list": (lambda d: d.update(spec_sha256=["x"]), ("'spec_sha256' (the spec's sha256) is a list",)),
    "sha256_of_another_spec": (lambda d: d.update(spec_sha256="0" * 64), ("changed",)),
}


@pytest.mark.parametrize("name", sorted(FORGED))
def test_forged_record_is_refused_by_replay_and_report(name, dice_record, tmp_path):
    import json

    change, phrases = FORGED[name]
    path = tmp_path / f"{name}.jsonl"
    path.write_text("".join(json.dumps(d) + "\n" for d in _forge(dice_record, change)))
    for args in (["replay", DICE_SPEC, "--record", str(path)], ["report", str(path), "--engine", "interpreted"]):
        result = _cli(*args)
        _one_clear_error(result)
        out = result.output + result.stderr
        assert any(p in out for p in phrases), (args[0], out)


def test_a_forged_players_count_is_ignored_the_seats_decide(dice_record, tmp_path):
    import json

    path = tmp_path / "count.jsonl"
    path.write_text("".join(json.dumps(d) + "\n" for d in _forge(dice_record, lambda d: d.update(players_count=99))))
    assert _cli("replay", DICE_SPEC, "--record", str(path)).exit_code == 0
    assert _cli("report", str(path), "--engine", "interpreted").exit_code == 0


@pytest.mark.parametrize("text", ["", "\n\n  \n"])
def test_report_and_replay_of_a_record_of_no_games(text, tmp_path):
    path = tmp_path / "none.jsonl"
    path.write_text(text)
    _one_clear_error(_cli("report", str(path)), "holds no games")
    _one_clear_error(_cli("replay", DICE_SPEC, "--record", str(path)), "holds no games")
    assert not (tmp_path / "out.html").exists()
    _one_clear_error(_cli("report", str(path), "--html", str(tmp_path / "out.html")), "holds no games")
    assert not (tmp_path / "out.html").exists()  # nothing half-written


def test_player_count_options_out_of_range(tmp_path):
    _one_clear_error(_cli("moves", DICE_SPEC, "--player-count", "99999999999999999999"))
    _one_clear_error(_cli("moves", DICE_SPEC, "--player-count", "9"), "not 9")
    _one_clear_error(_cli("tournament", DICE_SPEC, "-p", "random,greedy", "-n", "1", "--player-count", "0", "--engine", "interpreted"))
    _one_clear_error(_cli("match", DICE_SPEC, "-p", "random," * 8 + "random", "-n", "1", "--engine", "interpreted"), "9 players were given")


MCTS_ABSURD = [
    ("mcts:iterations=0", "out of range"), ("mcts:iterations=99999999999", "out of range"), ("mcts:c=nan", "c must be"),
    ("mcts:c=inf", "c must be"), ("mcts:c=-1", "out of range"), ("mcts:c=1e308", "out of range"), ("mcts:rollouts=0", "out of range"),
    ("mcts:x=1", "no parameter 'x'"), ("mcts:iterations=1,iterations=2", "given twice"), ("mcts:1e3", "iterations must be"),
    ("mcts:1,=2", "without a name"), ("mcts:\u0661", "iterations must be"),
]


@pytest.mark.parametrize("player,phrase", MCTS_ABSURD)
def test_mcts_with_absurd_parameters_is_refused(player, phrase):
    for command in ("match", "tournament"):
        result = _cli(command, DICE_SPEC, "-p", f"random,{player}", "-n", "1", "--engine", "interpreted", "--player-count" if command == "tournament" else "--seed", "2" if command == "tournament" else "0")
        _one_clear_error(result, phrase)


def test_mcts_with_extreme_but_allowed_parameters_plays(tmp_path):
    result = _cli("match", DICE_SPEC, "-p", "random,mcts:iterations=1,c=100,rollouts=1", "-n", "2", "--engine", "interpreted", "--json")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:1", "127.0.0.1:1", "nohost.invalid:8786", "tcp://127.0.0.1:99999", "tcp://", "local:0", "local:99999999999999999999", "udp://x:1", "x"])
def test_a_bad_cluster_address_fails_at_once_with_a_message(address):
    result = _cli("tournament", DICE_SPEC, "-p", "random,greedy", "-n", "2", "--player-count", "2", "--engine", "interpreted", "--cluster", address)
    _one_clear_error(result, "--cluster" if "reach" not in result.output + result.stderr else "cannot reach")


def test_a_cluster_address_that_does_not_speak_dask_is_a_clear_error():
    """Something else listening there (a web server, say) sends bytes Dask reads as a frame
    length; that was a MemoryError with a traceback."""
    import socket
    import threading

    pytest.importorskip("distributed")
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    port = server.getsockname()[1]

    def answer() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n" + b"\xff" * 64)

    threading.Thread(target=answer, daemon=True).start()
    try:
        result = _cli("tournament", DICE_SPEC, "-p", "random,greedy", "-n", "2", "--player-count", "2", "--engine", "interpreted", "--cluster", f"tcp://127.0.0.1:{port}")
    finally:
        server.close()
    _one_clear_error(result, f"tcp://127.0.0.1:{port}")


def test_graph_places_with_decimals_and_on_one_point_draw(tmp_path):
    """YAML decimals are places (they were refused as 'not numbers'), and nodes that all sit
    on one point still give a picture."""
    path = _write(tmp_path, "points", PLAYS["graph_all_nodes_at_one_point"])
    ir = load_game_ir(str(path))
    assert [p[0] for p in ir.board.polygons] == [(0.0, 0.0), (0.0, 0.0), (-0.5, 150.0)]
    svg = tmp_path / "board.svg"
    result = _cli("show", str(path), "--svg", str(svg))
    assert result.exit_code == 0, result.output
    assert svg.read_text().startswith("<svg") or "<svg" in svg.read_text()[:200]


def test_roll_prefix_check_stays_quick_on_names_made_to_branch(tmp_path):
    """Cells named 'r' and 'rr', 19 cell parameters written back to back and a roll named
    'rrr...r': 2^19 ways to spell the start of a move. The check that no move starts like a
    roll is memoised, so this loads (none can: at most 38 characters before a ':')."""
    params = ", ".join(f"p{i}: cell" for i in range(19))
    notation = "".join(f"{{p{i}}}" for i in range(19))
    text = (
        dice_spec(notation=notation, where="true", effects="[]")
        .replace("params: {c: cell}", f"params: {{{params}}}")
        .replace("board: {topology: square, rows: 3, cols: 3}", "board: {topology: graph, nodes: [r, rr], edges: [[r, rr]]}")
        .replace("  dice: 2", "  name: " + "r" * 60 + "\n  dice: 2")
    )
    ir = load_game_ir(str(_write(tmp_path, "branching", text)))
    assert ir.chance.name == "r" * 60 and ir.actions[0].size == 2**19


def test_replay_of_a_forged_record_names_the_game_and_the_file(dice_record, tmp_path):
    import json

    path = tmp_path / "noroll.jsonl"
    path.write_text("".join(json.dumps(d) + "\n" for d in _forge(dice_record, FORGED["move_not_a_roll_where_a_roll_is_due"][0])))
    result = _cli("replay", DICE_SPEC, "--record", str(path))
    _one_clear_error(result, f"game 0 of {path} does not replay: move 1", "a roll is due")


def test_dice_in_a_game_with_item_parameters_loads(tmp_path):
    """A deck's item parameters are part of the check that no move is written like a roll
    (found by the fuzzer: dice added to the cards test spec crashed with KeyError 'item')."""
    from conftest import ROOT

    text = (ROOT / "tests" / "data" / "cards.yaml").read_text(encoding="utf-8")
    text += "\nchance:\n  dice: 2\n  faces:\n    lo: 1\n    hi: {text: H, value: 2}\n  ordered: true\n"
    ir = load_game_ir(str(_write(tmp_path, "cards_dice", text)))
    assert ir.chance is not None and ir.deck is not None
    # an item written 'roll' in the notation '{k}:{c}' writes 'roll:a1': refused, with its place
    clash = text.replace('low: {values: [1, 2], text: "1-2"}', 'low: {values: [1, 2], text: "roll"}')
    with pytest.raises(SpecError, match="action 'play' can write a move starting 'roll:'") as caught:
        load_game_ir(str(_write(tmp_path, "cards_dice_roll_item", clash)))
    assert caught.value.pos is not None and caught.value.pos.line > 1


# -- reading files: one bounded reader of regular files (issue 28, item 7) ----------------------

SECRET = "password: hunter2-not-a-spec"


def _cli_subprocess(*args: str, timeout: int = 120) -> subprocess.CompletedProcess:
    """In a child process, with a timeout: a reader that hangs (a FIFO) fails the test
    instead of stalling the suite."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "midgardc.cli", *args], capture_output=True, text=True, timeout=timeout, env=env, stdin=subprocess.DEVNULL)


def _refused(proc: subprocess.CompletedProcess, *phrases: str) -> None:
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "Traceback" not in out and "internal error" not in out and "hunter2" not in out, out
    for phrase in phrases:
        assert phrase in out, out


@pytest.mark.parametrize("target", ["../secret.yaml", "{tmp}/secret.yaml", "/etc/passwd", "/proc/self/environ", "/dev/zero"])
def test_extends_stays_in_the_specs_folder_and_quotes_nothing_outside(tmp_path, target):
    (tmp_path / "secret.yaml").write_text(SECRET + "\n")
    folder = tmp_path / "game"
    folder.mkdir()
    child = folder / "child.yaml"
    child.write_text(f"extends: {target.format(tmp=tmp_path)}\n")
    with pytest.raises(SpecError) as err:
        load_game_ir(str(child))
    assert "outside this spec's folder" in err.value.message and err.value.pos.file == str(child)
    assert "hunter2" not in str(err.value) and "root:" not in str(err.value)


def test_extends_below_the_specs_folder_still_loads(tmp_path):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "base.yaml").write_text(spec())
    (tmp_path / "child.yaml").write_text("extends: lib/base.yaml\ngame: {title: Child}\n")
    assert load_game_ir(str(tmp_path / "child.yaml")).title == "Child"


def test_extends_of_a_fifo_a_device_link_or_a_link_out_is_refused_at_once(tmp_path):
    os.mkfifo(tmp_path / "pipe.yaml")
    os.symlink("/dev/zero", tmp_path / "zero.yaml")
    os.symlink("/dev/stdin", tmp_path / "stdin.yaml")
    (tmp_path / "lib").mkdir()
    os.symlink(tmp_path / "lib", tmp_path / "same")  # a link inside the folder is fine
    (tmp_path / "lib" / "base.yaml").write_text(spec())
    for name, phrase in (("pipe.yaml", "a FIFO"), ("zero.yaml", "outside this spec's folder"), ("stdin.yaml", "outside this spec's folder")):
        (tmp_path / "child.yaml").write_text(f"extends: {name}\n")
        _refused(_cli_subprocess("validate", str(tmp_path / "child.yaml")), phrase, "child.yaml:1:")
    (tmp_path / "child.yaml").write_text("extends: same/base.yaml\n")
    assert _cli_subprocess("validate", str(tmp_path / "child.yaml")).returncode == 0


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/stdin", "/proc/self/environ", "{tmp}/pipe.yaml"])
def test_a_spec_that_is_not_a_regular_file_is_refused(tmp_path, path):
    os.mkfifo(tmp_path / "pipe.yaml")
    _refused(_cli_subprocess("validate", path.format(tmp=tmp_path)), "cannot read the spec")


def test_a_huge_sparse_spec_or_record_is_refused_after_the_limit_not_read_whole(tmp_path):
    big = tmp_path / "big.yaml"
    with open(big, "wb") as fh:
        fh.truncate(6 * 10**9)  # 6 GB of holes: reading it whole would take the memory limit
    _refused(_cli_subprocess("validate", str(big)), "larger than the limit of 4,000,000 bytes")
    record = tmp_path / "big.jsonl"
    with open(record, "wb") as fh:
        fh.truncate(6 * 10**9)  # one line without end
    _refused(_cli_subprocess("replay", DICE_SPEC, "--record", str(record)), "longer than the limit")
    _refused(_cli_subprocess("report", str(record)), "longer than the limit")


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/stdin", "{tmp}/pipe.jsonl", "/proc/self/environ"])
def test_a_record_that_is_not_a_regular_file_is_refused(tmp_path, path):
    os.mkfifo(tmp_path / "pipe.jsonl")
    path = path.format(tmp=tmp_path)
    _refused(_cli_subprocess("replay", DICE_SPEC, "--record", path), "cannot read the record")
    _refused(_cli_subprocess("report", path), "cannot read the record")


def test_a_record_line_is_never_quoted(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text(SECRET + "\n")
    result = _cli("replay", DICE_SPEC, "--record", str(path))
    _one_clear_error(result, "bad.jsonl:1:")
    assert "hunter2" not in result.output + result.stderr


def test_report_quotes_nothing_of_a_file_a_record_names_as_its_spec(dice_record, tmp_path):
    import hashlib
    import json

    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET + "\n")
    sha = hashlib.sha256(secret.read_bytes()).hexdigest()
    path = tmp_path / "forged.jsonl"
    path.write_text("".join(json.dumps(dict(d, spec=str(secret), spec_sha256=sha)) + "\n" for d in dice_record))
    result = _cli("report", str(path), "--engine", "interpreted")
    _one_clear_error(result, "secret.txt")
    assert "hunter2" not in result.output + result.stderr


# -- numbers and nesting that Python refuses to read (issue 28, item 8) -------------------------


def test_a_condition_with_a_5000_digit_number_is_refused_at_its_position(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text(spec().replace("where: empty(c)", "where: empty(c) and 1 < " + "7" * 5000))
    with pytest.raises(SpecError) as err:
        load_game_ir(str(path))
    assert "number 77777777777777777777 is too large" in err.value.message and err.value.pos.line == 16
    path.write_text(spec().replace("where: empty(c)", "where: empty(c) and 1 < " + "0" * 5000 + "2"))
    assert load_game_ir(str(path)).name == "hostile"  # leading zeros are not digits of the value


@pytest.mark.parametrize("name, change", [
    ("seed_of_5000_digits", lambda raw: raw.replace('"game_seed":', '"game_seed":' + "9" * 5000 + ',"x":', 1)),
    ("nested_100000_deep", lambda raw: raw.replace('"moves":', '"deep":' + "[" * 100_000 + "]" * 100_000 + ',"moves":', 1)),
])
def test_a_record_line_python_cannot_read_is_a_clear_error(dice_record, tmp_path, name, change):
    import json

    path = tmp_path / f"{name}.jsonl"
    path.write_text("".join(change(json.dumps(d, separators=(",", ":"))) + "\n" for d in dice_record))
    for args in (["replay", DICE_SPEC, "--record", str(path)], ["report", str(path), "--engine", "interpreted"]):
        _one_clear_error(_cli(*args), f"{name}.jsonl:1:1", "not a match record line")


# -- outputs never replace inputs (issue 28, item 11) --------------------------------------------


def test_an_output_naming_an_input_is_refused_and_the_input_kept(dice_record, tmp_path):
    import json

    spec_path = tmp_path / "dice.yaml"
    spec_path.write_bytes(Path(DICE_SPEC).read_bytes())
    (tmp_path / "child.yaml").write_text("extends: dice.yaml\n")
    record = tmp_path / "r.jsonl"
    record.write_text("".join(json.dumps(dict(d, spec=str(spec_path))) + "\n" for d in dice_record))
    before = {p: p.read_bytes() for p in (spec_path, record)}
    cases = [
        (["match", str(spec_path), "-p", "random,random", "-n", "1", "--engine", "interpreted", "--record", str(spec_path)], "it is the spec"),
        (["match", str(tmp_path / "child.yaml"), "-p", "random,random", "-n", "1", "--engine", "interpreted", "--record", str(spec_path)], "it is the spec"),  # the base it extends
        (["tournament", str(spec_path), "-p", "random,random", "-n", "1", "--player-count", "2", "--engine", "interpreted", "--record", str(spec_path)], "it is the spec"),
        (["report", str(record), "--engine", "interpreted", "--html", str(record)], "it is the record"),
        (["report", str(record), "--engine", "interpreted", "--html", str(spec_path)], "it is the spec"),
        (["show", str(spec_path), "--svg", str(spec_path)], "it is the spec"),
    ]
    for args, phrase in cases:
        _one_clear_error(_cli(*args), "refusing to write", phrase)
        assert {p: p.read_bytes() for p in before} == before, args
    assert sorted(p.name for p in tmp_path.iterdir()) == ["child.yaml", "dice.yaml", "r.jsonl"]  # no temporary file left
    assert _cli("report", str(record), "--engine", "interpreted", "--html", str(tmp_path / "out.html")).exit_code == 0
