"""Broken specs get one clear message at the right place.

Every file in tests/broken/ is a spec with one mistake. For each, ``load_game_ir`` must
raise SpecError whose text starts with ``file:line:col: error:`` (exact line and column),
shows the offending source line with a caret under the column, says what is wrong (and,
where it helps, a hint); and ``midgardc validate`` must exit 1 without a traceback.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple, Optional

import pytest

from midgardc.errors import SpecError
from midgardc.spec.lower import load_game_ir
from midgardc.spec.yamlpos import load_yaml

BROKEN = Path(__file__).parent / "broken"


class Case(NamedTuple):
    file: str
    line: int
    col: int
    message: str  # a fragment of the message
    hint: str = ""  # a fragment of the hint ("" = not checked)
    variant: Optional[str] = None


CASES = [
    Case("yaml_syntax.yaml", 4, 12, "the '[' opened here is not closed", "close it with ']'"),
    Case("tab_indent.yaml", 3, 1, "a tab character here", "spaces"),
    Case("duplicate_key.yaml", 6, 1, "duplicate key 'board' (first given at line 3)"),
    Case("unknown_top_key.yaml", 4, 1, "unknown key 'acions' at the top level", "did you mean 'actions'?"),
    Case("unknown_action_key.yaml", 7, 5, "unknown key 'wehre' in action 'play'", "did you mean 'where'?"),
    Case("missing_section.yaml", 2, 1, "the spec needs a 'ranking' key", "ranking:"),
    Case("unknown_function.yaml", 9, 26, "unknown function 'adjacnt'", "did you mean 'adjacent'?"),
    Case("unknown_name.yaml", 7, 37, "unknown name 'mvoer'", "did you mean 'mover'?"),
    Case("type_and_int.yaml", 7, 26, "'and' needs conditions on both sides; this side is a number"),
    Case("wrong_arity.yaml", 7, 26, "function 'empty' takes 1 argument (cell), got 2"),
    Case("compare_cell_player.yaml", 7, 27, "cannot compare a cell with a player"),
    Case("unquoted_colon.yaml", 7, 51, "a second ': ' on this line", 'must be quoted: where: "..."'),
    Case("unquoted_colon_list.yaml", 13, 7, "read as a YAML mapping", 'quote the whole condition: "any q in players: hand(q, stone) == 0"'),
    Case("board_size_zero.yaml", 5, 9, "board.rows must be between 1 and 64, got 0"),
    Case("board_too_large.yaml", 5, 9, "board.size must be between 1 and 60, got 500"),
    Case("unknown_topology.yaml", 4, 13, "unknown board topology 'sqaure'", "did you mean 'square'?"),
    Case("unknown_variant.yaml", 8, 1, "unknown variant 'big' (variants: large)", variant="big"),
    Case("props_unknown_cell.yaml", 8, 18, "unknown cell 'd4'", "a3, b3, c3, ..., c1"),
    Case("effect_unknown_kind.yaml", 11, 24, "unknown piece kind 'stnoe'", "did you mean 'stone'?"),
    Case("notation_unknown_field.yaml", 8, 17, "notation uses '{cell}', which is not a parameter of 'play' (parameters: c)"),
    Case("python_tag.yaml", 3, 8, "YAML tag '!!python/object/apply:os.system' is not allowed"),
    Case("define_bad_param_type.yaml", 5, 10, "unknown parameter type 'cel'", "did you mean 'cell'?"),
    Case("quoted_define_head.yaml", 5, 21, "unknown parameter type 'int'"),
    Case("unknown_effect.yaml", 11, 9, "unknown effect 'plaec'", "did you mean 'place'?"),
    Case("empty.yaml", 1, 1, "the spec is empty"),
    Case("condition_syntax.yaml", 7, 25, "condition ends too early after 'and'; expected a value"),
    Case("duplicate_player.yaml", 4, 19, "player 'x' is listed twice"),
    Case("variant_patch_error.yaml", 16, 56, "unknown function 'emtpy'", "did you mean 'empty'?", variant="strict"),
    Case("quantifier_var_clash.yaml", 7, 34, "'n' is already a direction of the board", "pick another variable name, e.g. 'y'"),
    Case("multiline_condition.yaml", 9, 33, "unknown function 'ocupied'", "did you mean 'occupied'?"),
    Case("effect_wrong_type.yaml", 11, 35, "expected a cell here, but this is a player"),
    Case("unknown_counter.yaml", 10, 24, "unknown counter 'pionts'", "did you mean 'points'?"),
    Case("define_order.yaml", 5, 35, "'crowded' is defined further down", "move 'crowded' above this one"),
    Case("ranking_condition.yaml", 8, 12, "expected a number here, but this is a player"),
    Case("dice_without_chance.yaml", 6, 50, "rolled() reads the dice, but this spec has no 'chance' section", "chance: {dice: 2"),
    Case("face_text_dash.yaml", 9, 5, "face text '-1' may not be empty or contain spaces, commas, '-' or ':'"),
    Case("zone_unknown.yaml", 10, 22, "unknown zone 'piel'", "did you mean 'pile'?"),
    Case("render_bad_colour.yaml", 15, 34, "'bleu' is not a colour (a colour name or #rrggbb)", "did you mean 'blue'?"),
    Case("none_untyped.yaml", 10, 55, "a number has no 'none' value", "none is a cell (off the board), a player (nobody)"),
    Case("legal_after_number.yaml", 10, 19, "expected a condition here, but this is a number"),
    Case("history_too_long.yaml", 3, 45, "a spec with a history (it asks times_seen()) keeps every position of a game, so game.max_plies may be at most 25000"),
    Case("history_unknown_part.yaml", 6, 21, "unknown part of a position 'trun'", "did you mean 'turn'?"),
    # can_move(): only in the end section (end.when, end.effects)
    Case("can_move_in_where.yaml", 8, 26, "can_move() is allowed only in the 'end' section (end.when, end.effects) and in an action's legal_after, not here", "set a counter from it in end.effects"),
    Case("can_move_in_ranking.yaml", 8, 46, "can_move() is allowed only in the 'end' section (end.when, end.effects) and in an action's legal_after, not here", "set a counter from it in end.effects"),
    Case("can_move_in_define.yaml", 6, 15, "can_move() is allowed only in the 'end' section (end.when, end.effects) and in an action's legal_after, not in definition 'stuck'", "write it in end.when or end.effects itself"),
    Case("region_not_a_cell.yaml", 6, 68, "argument 1 of 'region' must be a cell, got a player"),
    Case("setup_height_zero.yaml", 6, 51, "a setup height must be between 1 and 32767, got 0"),
    Case("counter_start_per_player_game.yaml", 5, 28, "a game counter has one starting value, not one per player"),
    Case("slide_without_directions.yaml", 5, 53, "slide() needs a board with directions (a square or hex grid)"),
    Case("dice_keep_unordered.yaml", 9, 3, "chance.keep needs ordered dice", "add 'ordered: true' to chance"),
    Case("dice_into_not_by_face.yaml", 9, 9, "chance.into names a per-player counter array of numbers indexed by face", "cup: {index: face, visible: owner}"),
    Case("dice_into_unknown.yaml", 9, 9, "chance.into names a counter array; 'cpu' is not one", "did you mean 'cup'?"),
    Case("dice_when_number.yaml", 7, 10, "expected a condition here, but this is a number"),
    Case("faces_without_chance.yaml", 6, 61, "faces needs dice: add a 'chance' section"),
    Case("zone_game_owner.yaml", 9, 13, "'zone_size' of zone 'pile' takes 1 argument, zone_size(pile) (a game zone: no player)"),
    Case("pool_without_player.yaml", 11, 49, "'reserve' is a per-player pool: say whose, e.g. reserve(mover)"),
    # compound moves (continue:)
    Case("continue_wrong_type.yaml", 10, 22, "expected a cell here, but this is a player"),
    Case("continue_notation_separator.yaml", 10, 35, "a further step's notation must start with a separator"),
    Case("continue_legal_after.yaml", 11, 15, "'continue' and 'legal_after' cannot be used together yet"),
]


def _ids(case: Case) -> str:
    return case.file.removesuffix(".yaml")


def _error(case: Case) -> SpecError:
    with pytest.raises(SpecError) as info:
        load_game_ir(str(BROKEN / case.file), case.variant)
    return info.value


def test_every_broken_spec_has_a_case() -> None:
    files = sorted(p.name for p in BROKEN.glob("*.yaml"))
    assert files == sorted(c.file for c in CASES)
    assert len(files) >= 20


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_message_position_and_caret(case: Case) -> None:
    path = str(BROKEN / case.file)
    err = _error(case)
    text = str(err)
    lines = text.split("\n")
    assert lines[0].startswith(f"{path}:{case.line}:{case.col}: error: "), text
    assert case.message in lines[0], text
    assert (err.pos.line, err.pos.col) == (case.line, case.col)
    source = Path(path).read_text(encoding="utf-8").splitlines()
    if source:  # the empty file has no line to show
        shown = source[case.line - 1].replace("\t", " ")
        assert lines[1] == "    " + shown, text
        assert lines[2] == "    " + " " * (case.col - 1) + "^", text
    else:
        assert len(lines) == 1 or lines[1].startswith("  hint:"), text
    if case.hint:
        assert f"  hint: " in text and case.hint in err.hint, text
    assert "Traceback" not in text


def _midgardc() -> Optional[str]:
    local = Path(sys.executable).parent / "midgardc"
    return str(local) if local.exists() else shutil.which("midgardc")


_HAS_CLI = importlib.util.find_spec("midgardc.cli") is not None


@pytest.mark.skipif(not _HAS_CLI, reason="midgardc.cli is not written yet (the CLI is being built in parallel)")
@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_cli_validate_exits_1_without_traceback(case: Case) -> None:
    exe = _midgardc()
    cmd = [exe] if exe else [sys.executable, "-m", "midgardc.cli"]
    path = str(BROKEN / case.file)
    args = [*cmd, "validate", path] + (["--variant", case.variant] if case.variant else [])
    env = dict(os.environ, NO_COLOR="1")
    proc = subprocess.run(args, capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    assert f"{path}:{case.line}:{case.col}: error: " in proc.stderr, proc.stderr
    assert case.message in proc.stderr


# --------------------------------------------------------------------------- positions


def test_text_pos_finds_characters_of_every_scalar_style(tmp_path: Path) -> None:
    """Each character of a value maps to the same character in the file."""
    src = (
        'a: "x \\" y"\n'
        "b: 'it''s'\n"
        "c: plain\n"
        "  continued here\n"
        "d: >\n"
        "  folded\n"
        "  text more\n"
        "e: |\n"
        "  lit\n"
        "  eral\n"
        'f: "multi\n'
        '  line"\n'
    )
    path = tmp_path / "styles.yaml"
    path.write_text(src, encoding="utf-8")
    lines = src.splitlines()
    tree = load_yaml(str(path))
    for key, node in tree.items.items():
        for offset, ch in enumerate(node.value):
            if ch.isspace():
                continue
            pos = node.text_pos(offset)
            assert lines[pos.line - 1][pos.col - 1] == ch, (key, offset, pos)


def test_condition_error_inside_a_literal_block(tmp_path: Path) -> None:
    spec = (
        "game: {name: t, players: [x, o]}\n"
        "board: {topology: square, rows: 3, cols: 3}\n"
        "actions:\n"
        "  play:\n"
        "    params: {c: cell}\n"
        "    where: |\n"
        "      empty(c)\n"
        "        and degre(c) >= 2\n"
        "ranking: {cells: 'count(c in cells: owner(c) == p)'}\n"
    )
    path = tmp_path / "block.yaml"
    path.write_text(spec, encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_game_ir(str(path))
    assert (info.value.pos.line, info.value.pos.col) == (8, 13)
    assert "did you mean 'degree'?" in info.value.hint


def test_error_in_an_extended_file_points_into_that_file(tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text(
        "game: {name: t, players: [x, o]}\n"
        "board: {topology: square, rows: 3, cols: 3}\n"
        "actions:\n"
        "  play: {params: {c: cell}, where: empty(c)}\n"
        "ranking: {cells: 'count(c in cells: owner(c) == p)'}\n",
        encoding="utf-8",
    )
    child = tmp_path / "child.yaml"
    child.write_text("extends: base.yaml\nactions:\n  play:\n    where: 'empty(c) and ocupied(c)'\n", encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_game_ir(str(child))
    assert str(info.value).startswith(f"{child}:4:26: error: unknown function 'ocupied'")


@pytest.mark.parametrize(
    "condition, col, fragment, hint",
    [
        ("x = 1", 3, "unexpected character '='", "'=='"),
        ("empty(c) && empty(c)", 10, "unexpected character '&'", "'and'"),
        ("owner(c) == mover)", 18, "no '(' for it to close", ""),
        ("count(x in cells occupied(x)) > 0", 18, "unexpected 'occupied'", "':' missing"),
        ("(empty(c)", 10, "before a '(' is closed", ""),
    ],
)
def test_condition_syntax_messages(tmp_path: Path, condition: str, col: int, fragment: str, hint: str) -> None:
    spec = (
        "game: {name: t, players: [x, o]}\n"
        "board: {topology: square, rows: 3, cols: 3}\n"
        "actions:\n"
        "  play:\n"
        "    params: {c: cell}\n"
        f"    where: '{condition}'\n"
        "ranking: {cells: 'count(c in cells: owner(c) == p)'}\n"
    )
    path = tmp_path / "cond.yaml"
    path.write_text(spec, encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_game_ir(str(path))
    err = info.value
    assert fragment in err.message
    assert hint in err.hint
    # the condition starts at column 13 (after "    where: '")
    assert (err.pos.line, err.pos.col) == (6, 12 + col)


# --------------------------------------------------------------------------- notation

_NOTATION_BASE = (
    "game: {name: t, players: [x, o]}\n"
    "board: {topology: square, rows: 2, cols: 2}\n"
    "ranking: {cells: 'count(c in cells: owner(c) == p)'}\n"
    "actions:\n"
)


def _spec(tmp_path: Path, actions: str) -> str:
    path = tmp_path / "notation.yaml"
    path.write_text(_NOTATION_BASE + actions, encoding="utf-8")
    return str(path)


def test_default_notation_of_a_two_parameter_action(tmp_path: Path) -> None:
    from midgardc.engines import load

    path = _spec(tmp_path, "  move: {params: {a: cell, b: cell}, where: a != b}\n  pass: {}\n")
    game = load(path, engine="interpreted")
    texts = [m.text for m in game.new_state().legal_moves()]
    assert texts[0] == "move:a2:b2" and texts[-1] == "pass"
    assert game.new_state().resolve("move:b1:a1") >= 0


def test_two_actions_written_alike(tmp_path: Path) -> None:
    path = _spec(tmp_path, "  put: {params: {c: cell}, where: empty(c)}\n  take:\n    params: {c: cell}\n    where: occupied(c)\n")
    with pytest.raises(SpecError) as info:
        load_game_ir(path)
    assert (info.value.pos.line, info.value.pos.col) == (6, 3)
    assert "actions 'put' and 'take' write their moves the same way" in info.value.message
    assert 'notation: "take:{c}"' in info.value.hint


def test_notation_must_show_every_parameter(tmp_path: Path) -> None:
    path = _spec(tmp_path, "  move:\n    params: {a: cell, b: cell}\n    notation: 'to{b}'\n")
    with pytest.raises(SpecError) as info:
        load_game_ir(path)
    assert (info.value.pos.line, info.value.pos.col) == (7, 15)
    assert "does not show parameter a" in info.value.message


def test_notation_may_not_contain_a_comma(tmp_path: Path) -> None:
    path = _spec(tmp_path, "  move:\n    params: {a: cell, b: cell}\n    notation: '{a},{b}'\n")
    with pytest.raises(SpecError) as info:
        load_game_ir(path)
    assert (info.value.pos.line, info.value.pos.col) == (7, 19)
    assert "may not contain commas" in info.value.message


def test_recursive_definition(tmp_path: Path) -> None:
    path = tmp_path / "rec.yaml"
    path.write_text(
        "game: {name: t, players: [x, o]}\n"
        "board: {topology: square, rows: 2, cols: 2}\n"
        "define:\n"
        "  chain(cell c): empty(c) or chain(c)\n"
        "actions: {play: {params: {c: cell}, where: chain(c)}}\n"
        "ranking: {cells: 'count(c in cells: owner(c) == p)'}\n",
        encoding="utf-8",
    )
    with pytest.raises(SpecError) as info:
        load_game_ir(str(path))
    assert (info.value.pos.line, info.value.pos.col) == (4, 30)
    assert "'chain' uses itself" in info.value.message
