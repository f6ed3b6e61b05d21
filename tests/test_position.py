"""Positions in a spec's own notation (``position:``) and ``--position TEXT``.

Chess declares FEN (specs/classics/chess.yaml); the published perft of positions started
from FEN (chessprogramming.org "Perft Results"):
* "Kiwipete" r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -:
  48, 2,039, 97,862;
* "Position 3" 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -: 14, 191, 2,812, 43,238;
* "Position 4" r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1:
  6, 264, 9,467;
* "Position 5" rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8: 44, 1,486, 62,379.
Checked 2026-11-23: the stored copy of the page (https://www.chessprogramming.org/Perft_Results)
showed only its start (the initial position's 20 / 400 / 8,902 / 197,281 / 4,865,609, as
tested); positions 4 and 5, FENs and figures, were checked against repositories that copy
the page's tables (e.g. 6, 264, 9467, 422333, 15833292 and 44, 1486, 62379, 2103487,
89941194 under "Position 4" / "Position 5"), which agree with the figures above.
tests/data/position.yaml gives tic-tac-toe a notation of its own (the construct is generic).
"""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import ENGINES, SPECS, get_game
from midgardc.cli import cli
from midgardc.errors import SpecError
from midgardc.ir.position import PositionTextError, read_position
from midgardc.runtime.game import perft
from midgardc.spec.lower import load_game_ir

CHESS = str(SPECS / "classics" / "chess.yaml")


def _beside_its_base() -> str:
    """tests/data/position.yaml extends tic-tac-toe.yaml beside it: a spec extends only
    files in its own folder tree, so both are copied into one folder for these tests."""
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="midgardc-position-"))
    (folder / "tic-tac-toe.yaml").write_bytes((SPECS / "classics" / "tic-tac-toe.yaml").read_bytes())
    (folder / "position.yaml").write_bytes((Path(__file__).parent / "data" / "position.yaml").read_bytes())
    return str(folder / "position.yaml")


TTT = _beside_its_base()

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"
PUBLISHED = {
    KIWIPETE: [48, 2_039, 97_862],
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -": [14, 191, 2_812, 43_238],
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1": [6, 264, 9_467],
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8": [44, 1_486, 62_379],
}


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


# -- published perft from FEN ------------------------------------------------------------


@pytest.mark.parametrize("fen", list(PUBLISHED), ids=["kiwipete", "position3", "position4", "position5"])
def test_published_perft_from_fen_on_the_compiled_engine(fen):
    game = get_game(CHESS, None, "compiled")
    state = game.state_at(fen)
    assert [game.engine.perft(d, state.core) for d in range(1, len(PUBLISHED[fen]) + 1)] == PUBLISHED[fen]


@pytest.mark.parametrize("fen", [KIWIPETE, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -"], ids=["kiwipete", "position3"])
def test_published_perft_from_fen_on_the_interpreter(fen):
    state = get_game(CHESS, None, "interpreted").state_at(fen)
    assert [perft(state, d) for d in (1, 2)] == PUBLISHED[fen][:2]


# -- the same state as the setup, in both engines ----------------------------------------


def _snapshot(state):
    core = state.core
    return (list(core.board), [list(c) for c in core.counters], [list(h) for h in core.hands], core.current, [m.text for m in state.legal_moves()], core.position_key(core.current))


@pytest.mark.parametrize("engine", ENGINES)
def test_the_start_fen_is_the_setup(engine):
    game = get_game(CHESS, None, engine)
    fen = game.state_at(START)
    assert _snapshot(fen) == _snapshot(game.new_state())
    assert fen.core.times_seen() == 1  # a FEN start has no earlier positions


@pytest.mark.parametrize("engine", ENGINES)
def test_a_fen_is_the_position_the_moves_reach(engine):
    # the spec keeps an en passant square only while a pawn could take there (chess.yaml,
    # 3.7.3.1), so after 1. e4 its FEN says '-'; after 1. e4 a6 2. e5 d5 it says d6
    game = get_game(CHESS, None, engine)
    played = game.new_state()
    played.apply("e2e4")
    assert _snapshot(game.state_at("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")) == _snapshot(played)
    for m in ("a7a6", "e4e5", "d7d5"):
        played.apply(m)
    fen = game.state_at("rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3")
    assert _snapshot(fen) == _snapshot(played)
    assert "e5d6" in _snapshot(fen)[4]


@pytest.mark.parametrize("engine", ENGINES)
def test_the_move_number_is_fens_fullmove_number(engine):
    # python-chess's fullmove_number, from the start and from FENs (Black to move too)
    chess = pytest.importorskip("chess")
    game = get_game(CHESS, None, engine)
    for seed, fen in enumerate((START, KIWIPETE + " 0 12", "4k3/8/8/8/8/8/8/4K2R b K - 7 42")):
        state, board, rng = game.state_at(fen), chess.Board(fen), random.Random(seed)
        for _ in range(30):
            assert state.move_number() == board.fullmove_number, board.fen()
            if state.is_terminal():
                break
            move = rng.choice(sorted(m.uci() for m in board.legal_moves))
            state.apply(move)
            board.push_uci(move)


def test_both_engines_start_from_the_same_state_and_walk_the_same_random_moves():
    interp, comp = (get_game(CHESS, None, e) for e in ("interpreted", "compiled"))
    for seed in range(2):
        a, b = interp.state_at(KIWIPETE), comp.state_at(KIWIPETE)
        rng = random.Random(seed)
        for _ in range(24):
            assert _snapshot(a) == _snapshot(b)
            if a.is_terminal():
                break
            move = rng.choice(a.legal_moves()).text
            a.apply(move)
            b.apply(move)


def test_fen_fields_set_the_counters():
    ir = load_game_ir(CHESS)
    start = read_position(ir, "4k3/8/8/3pP3/8/8/8/4K2R w Kq d6 7 42")
    game_row = start.counters[ir.n_players]
    assert game_row[ir.counters.index("en_passant")] == ir.board.cell_names.index("d6")
    assert game_row[ir.counters.index("quiet_moves")] == 7
    assert start.move_number == 42 and "move_number" not in ir.counters  # (no counter: the notation's own)
    castling = [[row[ir.counters.index(f"castling[{w}]")] for w in ("kingside", "queenside")] for row in start.counters[: ir.n_players]]
    assert castling == [[1, 0], [0, 1]]
    assert start.current == 0
    # the clocks may be left off: their start values
    short = read_position(ir, "4k3/8/8/8/8/8/8/4K3 b - -")
    assert short.move_number == 1 and short.current == 1


def test_a_notation_of_its_own_tic_tac_toe():
    # rows from the bottom, '|' between them, '.' empty; then o to move, no starter, flag b
    # (the interpreter: the compiled engine loads the same Core.load arguments, as chess shows)
    for engine in ["interpreted"]:
        state = get_game(TTT, None, engine).state_at("X..|.O.|..X:o:?:b")
        board = {state.game.ir.board.cell_names[c]: v for c, v in enumerate(state.core.board[:9]) if v}
        assert board == {"a1": 1, "b2": 2, "c3": 1}
        assert state.current_player_name() == "o"
        assert [list(r) for r in state.core.counters][2] == [-1, 0, 1]
        assert [m.text for m in state.legal_moves()] == ["a3", "b3", "a2", "c2", "b1", "c1"]
    # a finished position is over at once
    assert get_game(TTT, None, "interpreted").state_at("XXX|OO.|...:o").is_terminal()


@pytest.mark.parametrize("engine", ENGINES)
def test_the_move_number_counts_rounds_from_the_texts(engine):
    # tic-tac-toe's own notation: o is the last seat, so the number grows after o's move;
    # left off it is 1
    game = get_game(TTT, None, engine)
    state = game.state_at("X..|.O.|..X:o:?:b:5")
    assert state.move_number() == 5
    state.apply("a3")
    assert state.move_number() == 6 and state.clone().move_number() == 6
    assert game.state_at("X..|.O.|..X:o").move_number() == 1
    assert game.new_state().move_number() == 1


# -- a bad text: one message naming the field and the character -------------------------


@pytest.mark.parametrize(
    "text, words",
    [
        ("rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", ["field 1 (board)", "character 14 'X'", "not a piece letter"]),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq -", ["field 1 (board)", "7 rows", "the board has 8"]),
        ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", ["field 1 (board)", "character 19 '9'", "row 3 would hold 9 cells"]),
        ("rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", ["field 1 (board)", "row 3 gives 7 cells"]),
        (START.replace(" w ", " x "), ["field 2 (turn)", "character 45 'x'", "not a player"]),
        (START.replace("KQkq", "KQkK"), ["field 3 (castling)", "character 50 'K'", "given twice"]),
        (START.replace("KQkq", "KQkz"), ["field 3 (castling)", "character 50 'z'", "not one of its letters"]),
        (START.replace(" - ", " e9 "), ["field 4 (en_passant)", "'e9' is not a value"]),
        (START.replace(" 0 1", " 0 x"), ["field 6 (move_number?)", "character 56 'x'", "whole number"]),
        (START.replace(" 0 1", " 0 0"), ["field 6 (move_number?)", "character 56 '0'", "the move number is 1 or more"]),
        (START + " 9", ["has 6 fields", "character 58", "extra one"]),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w", ["ends before its 3rd field (castling)"]),
        ("", ["ends before its 1st field (board)"]),
    ],
)
def test_a_bad_fen_is_refused_naming_the_field_and_the_character(text, words):
    with pytest.raises(PositionTextError) as info:
        read_position(load_game_ir(CHESS), text)
    for w in words:
        assert w in info.value.message


def test_a_spec_without_a_notation_refuses_position():
    result = run("moves", str(SPECS / "classics" / "tic-tac-toe.yaml"), "--position", "x")
    assert result.exit_code == 1
    assert "declares no position notation" in result.output and "Traceback" not in result.output


# -- every command takes --position -----------------------------------------------------


def test_cli_perft_moves_show_from_fen():
    assert run("perft", CHESS, "-d", "1", "--position", KIWIPETE).output.split() == ["1", "48"]
    assert run("perft", CHESS, "-d", "2", "-e", "compiled", "--position", KIWIPETE).output.split() == ["1", "48", "2", "2039"]
    # --moves continue from the position
    after = get_game(CHESS, None, "interpreted").state_at(KIWIPETE)
    after.apply("e1g1")
    assert run("perft", CHESS, "-d", "1", "--position", KIWIPETE, "--moves", "e1g1").output.split() == ["1", str(len(after.legal_moves()))]
    moves = run("moves", CHESS, "--position", "4k3/8/8/8/8/8/8/4K2R w K -").output.split()
    assert "e1g1" in moves and "e1c1" not in moves
    shown = run("show", CHESS, "--position", "4k3/8/8/8/8/8/8/4K2R b K -", "--no-color")
    assert shown.exit_code == 0 and "black" in shown.output


def test_cli_bad_position_exit_1_one_message():
    result = run("perft", CHESS, "-d", "1", "--position", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNQ w KQkq - 0 y")
    assert result.exit_code == 1
    assert result.output.strip().splitlines()[0] == "error: --position: FEN field 6 (move_number?), character 56 'y': expected a whole number for 'move_number'"
    assert "Traceback" not in result.output


def test_cli_match_record_and_replay_from_fen(tmp_path):
    record = tmp_path / "games.jsonl"
    fen = "7k/8/8/8/8/8/8/K6R w - - 98 60"  # two plies from the fifty-move rule: short games
    result = run("match", CHESS, "-p", "random,random", "-n", "2", "-e", "interpreted", "--position", fen, "--record", str(record))
    assert result.exit_code == 0, result.output
    lines = [json.loads(x) for x in record.read_text().splitlines() if x.strip()]
    assert lines[0]["position"] == fen
    again = run("replay", CHESS, "--record", str(record), "--game", "1", "--json")
    assert again.exit_code == 0, again.output
    # played from the FEN: White's first move is the king's (a1) or the rook's (h1), and
    # the fifty-move rule ends the game after two plies unless the rook takes nothing
    assert lines[0]["moves"][0][:2] in ("a1", "h1") and all(len(x["moves"]) == 2 for x in lines)
    assert "result matches the record (draw)" in again.output


def test_cli_replay_from_fen_continues_the_position():
    result = run("replay", CHESS, "--position", "4k3/8/8/8/8/8/8/4K2R w K -", "--moves", "e1g1", "--json")
    assert result.exit_code == 0, result.output
    board = json.loads(result.output)["board"]
    assert "g1" in json.dumps(board) and "f1" in json.dumps(board)


def test_cli_play_from_fen_with_bots():
    result = CliRunner().invoke(cli, ["play", CHESS, "-p", "random,random", "--delay", "0", "--no-color", "-e", "interpreted", "--position", "7k/5Q2/6K1/8/8/8/8/8 w - - 99 80"])
    assert result.exit_code == 0, result.output
    assert "draw" in result.output.lower() or "win" in result.output.lower()
    assert result.exit_code == 0, result.output


# FEN as chess.yaml wrote it before the language's defaults said it: every letter listed
OLD_FEN = """position:
  name: FEN
  fields:
    - board:
        pieces: {K: [white, king], Q: [white, queen], R: [white, rook], B: [white, bishop], N: [white, knight], P: [white, pawn],
                 k: [black, king], q: [black, queen], r: [black, rook], b: [black, bishop], n: [black, knight], p: [black, pawn]}
    - turn: {letters: {w: white, b: black}}
    - flags:
        counter: castling
        none: "-"
        letters: {K: [white, kingside], Q: [white, queenside], k: [black, kingside], q: [black, queenside]}
    - value: {counter: en_passant, none: "-"}
    - value: {counter: quiet_moves, optional: true}
    - move_number
"""


def _letters(position) -> list:
    """Each field with its letters as a set (the defaults list them in another order)."""
    out = []
    for f in position.fields:
        d = {k.name: getattr(f, k.name) for k in dataclasses.fields(f)}
        for key in ("pieces", "letters"):
            if key in d:
                d[key] = frozenset(d[key])
        out.append((type(f).__name__, d))
    return out


def test_the_default_letters_are_fens(tmp_path):
    """chess.yaml's bare fields (the pieces' notation letters, each player's first letter,
    each wing's first letter, '-' for none) read exactly what the listed letters did."""
    text = Path(CHESS).read_text()
    start = text.index("\nposition:\n") + 1
    path = tmp_path / "chess.yaml"
    path.write_text(text[:start] + OLD_FEN + text[text.index("\ndefine:\n"):])
    assert _letters(load_game_ir(str(path)).meta["position"]) == _letters(load_game_ir(CHESS).meta["position"])


def test_pieces_gives_only_the_letters_that_differ():
    """Crazyhouse lists only its promoted pieces (Q~) and Shogi only its promoted ones
    (+R): every other piece has its default letter, in the board and hands fields alike."""
    for spec, marked, plain in (("crazyhouse", {"Q~", "n~"}, "KQRBNPkqrbnp"), ("shogi", {"+R", "+p"}, "KRBGSNLPkrbgsnlp")):
        ir = load_game_ir(str(SPECS / "classics" / f"{spec}.yaml"))
        for field in ir.meta["position"].fields:
            if hasattr(field, "pieces"):
                letters = {text for text, _ in field.pieces}
                assert marked <= letters and set(plain) <= letters, (spec, type(field).__name__)
                assert len(letters) == len(field.pieces)


# -- a bad position: section: file:line:col ---------------------------------------------


@pytest.mark.parametrize(
    "section, words",
    [
        ("  fields: [{square: {}}]", "unknown position field 'square'"),
        ("  fields: [{turn: {letters: {w: white, b: blue}}}]", "unknown player 'blue'"),
        ("  fields: [{value: {counter: quiet_moves, none: '-'}}]", "'quiet_moves' holds numbers, which have no none value"),
        ("  fields: [{flags: {counter: quiet_moves, letters: {a: x}}}]", "the flags field sets true/false counters"),
        ("  fields: [{value: {counter: castling}}]", "unknown counter 'castling'"),
        ("  fields: [{value: {counter: quiet_moves, optional: true}}, {turn: {letters: {w: white}}}]", "only the last fields of a position may be optional"),
        ("  fields: [board, move_number, turn]", "only the last fields of a position may be optional"),
        ("  fields: [board, turn, move_number, {move_number: {optional: true}}]", "a position has one move_number field"),
        ("  fields: [board, {move_number: {counter: quiet_moves}}]", "counter"),
        ("  fields: [{board: {pieces: {K: [white, king], Q: [white, king]}}}]", "already has the letter 'K'"),
        ("  fields: [{board: {pieces: {K: [white, emperor]}}}]", "unknown kind of piece 'emperor'"),
        ("  fields: [{flags: {counter: castling, letters: {K: [white, middle]}}}]", "'middle' is not an index of 'castling'"),
        # the defaults: a letter 'pieces' gives is black's king's default; flags of a game counter
        ("  fields: [{board: {pieces: {k: [white, queen]}}}]", "black's king would be written 'k' by default"),
        ("  fields: [board, turn, {flags: flagged}]", "default letters only for a two-player game's counter kept per player"),
        ("  fields: [{turn: white}]", "the position's turn field"),
    ],
)
def test_a_bad_position_section_is_an_error_at_its_place(tmp_path, section, words):
    # (with a true/false game counter, which chess does not keep, for the flags case)
    text = Path(CHESS).read_text().replace("\ncounters:\n", "\ncounters:\n  flagged: {type: condition, of: game}\n", 1)
    start = text.index("\nposition:\n") + 1
    end = text.index("\ndefine:\n")
    broken = text[:start] + "position:\n" + section + "\n" + text[end:]
    path = tmp_path / "chess.yaml"
    path.write_text(broken)
    line = broken[:start].count("\n") + 2
    with pytest.raises(SpecError) as info:
        load_game_ir(str(path))
    assert words in info.value.message
    assert info.value.pos is not None and info.value.pos.line == line


@pytest.mark.parametrize("text, phrase", [
    ("8/8/8/4k3/8/8/8/4K3 w - - 0 " + "9" * 5000, "is too large"),
    ("8/8/8/4k3/8/8/8/4K3 w - - 0 " + "0" * 5000 + "7", ""),  # leading zeros: the number 7
    ("8" * 5000 + "/8/8/4k3/8/8/8/4K3 w - - 0 1", "a run of 5000 digits"),
])
def test_a_position_with_thousands_of_digits_is_read_or_refused_never_a_crash(text, phrase):
    # issue 28, item 8: Python refuses to convert more than 4,300 digits (ValueError)
    ir = load_game_ir(CHESS)
    if not phrase:
        read_position(ir, text)
        return
    with pytest.raises(PositionTextError, match=phrase):
        read_position(ir, text)
