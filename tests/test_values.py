"""Values of every type (tests/data/values.yaml), in both back ends: counters holding a
cell, a player and a kind, with `none`; definitions returning cells and players;
`if ... then ... else` and `either` of any type; cell names as literals in conditions.
And the type checker's positioned errors for each construct."""

from __future__ import annotations

import re

from pathlib import Path

import pytest

from conftest import ENGINES, get_game
from midgardc.errors import SpecError
from midgardc.runtime.game import replay
from midgardc.runtime.view import render_text
from midgardc.spec.lower import load_game_ir
from test_differential import check_games, engines, snapshot

VALUES = str(Path(__file__).parent / "data" / "values.yaml")


def texts(state) -> list[str]:
    return [m.text for m in state.legal_moves()]


def game_counters(state) -> dict:
    return state.to_json()["counters"]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_cell_counter_starts_as_none_and_forbids_the_opposite_corner(engine) -> None:
    game = get_game(VALUES, None, engine)
    state = game.new_state()
    assert game_counters(state) == {"ko": "none", "leader": "none", "last_kind": "stone"}
    assert "d4" in texts(state)
    state.apply("a1")  # a corner: ko is the opposite corner, d4 (opposite() returns a cell)
    assert game_counters(state)["ko"] == "d4"
    assert "d4" not in texts(state) and "wd4" not in texts(state)
    state.apply("b3")  # not a corner: opposite() is none, and so is ko
    assert game_counters(state)["ko"] == "none"
    assert "d4" in texts(state)


@pytest.mark.parametrize("engine", ENGINES)
def test_player_and_kind_counters(engine) -> None:
    game = get_game(VALUES, None, engine)
    state = replay(game, ["wa2"])  # red builds a wall: blue may not build one next
    assert game_counters(state)["last_kind"] == "wall"
    assert not any(m.startswith("w") for m in texts(state))
    state.apply("b2")  # blue takes the centre first: blue leads for good
    assert game_counters(state) == {"ko": "none", "leader": "blue", "last_kind": "stone"}
    state.apply("c3")
    assert game_counters(state)["leader"] == "blue"
    players = state.to_json()["players"]
    assert [p["counters"] for p in players] == [{"last": "c3", "moves": 2}, {"last": "b2", "moves": 1}]
    # ranking: cells + 2 for the leader + 1 for holding the home corner + 1 for being ahead
    # on moves (a player chosen by if/then/else) + 1 once a last cell is set
    assert [p["score"]["cells"] for p in players] == [2 + 0 + 0 + 1 + 1, 1 + 2 + 0 + 0 + 1]


def test_typed_values_lower_to_ints_with_none_sentinels() -> None:
    ir = load_game_ir(VALUES)
    assert ir.counter_types == ("cell", "player", "kind", "cell", "int")
    n = ir.board.n_cells
    assert ir.counter_init[-1][:3] == (n, -1, 0)  # ko none, leader none, last_kind stone
    assert [row[3] for row in ir.counter_init[:2]] == [n, n]  # every player's last: none
    assert [d.type for d in ir.defines] == ["cell", "cell", "player"]


def test_both_engines_play_the_same_games() -> None:
    check_games(VALUES, None, 150, 77)


def test_both_engines_agree_after_every_move() -> None:
    import random

    interp, comp = engines(VALUES)
    rng = random.Random(5)
    for _ in range(8):
        a, b = interp.new_core(), comp.new_core()
        while not a.terminal:
            move = rng.choice(a.legal())
            a.apply(move)
            b.apply(move)
            assert snapshot(a) == snapshot(b)


# --------------------------------------------------------------------------- errors

BASE = """midgardc: 1
game: {name: t, players: [a, b]}
pieces: {stone: {hand: 3}}
counters:
  spot: {type: cell, of: game}
  who: {type: player}
  score: 0
board: {topology: square, rows: 2, cols: 2}
define:
  DEFINE
actions:
  put:
    params: {c: cell}
    where: WHERE
    effects: EFFECTS
ranking: {score: "score(p)"}
"""


def lower(tmp_path, where="empty(c)", effects="[{place: {piece: stone, at: c}}]", define="x: 1", counters=""):
    text = BASE.replace("WHERE", where).replace("EFFECTS", effects).replace("DEFINE", define)
    if counters:
        text = text.replace("  spot: {type: cell, of: game}\n", counters)
    path = tmp_path / "t.yaml"
    path.write_text(text)
    return load_game_ir(str(path))


@pytest.mark.parametrize(
    "kwargs, message, line, col",
    [
        ({"where": '"spot == a9"'}, "unknown name 'a9'", 14, 21),
        ({"where": '"spot == a"'}, "cannot compare a cell with a player", 14, 18),
        ({"where": '"none == none"'}, "cannot tell which type 'none' is here", 14, 18),
        ({"where": '"score(a) == none"'}, "a number has no 'none' value", 14, 25),
        ({"where": '"either(empty(c), a1, a) == a1"'}, "the two values of 'either' must have one type, but one is a cell and the other a player", 14, 34),
        ({"where": '"(if empty(c) then 1 else none) == 1"'}, "a number has no 'none' value", 14, 38),
        ({"where": '"if c then a1 else a2"'}, "the condition of 'if' must be a condition, got a cell", 14, 16),
        ({"define": 'nothing: "none"'}, "cannot tell which type 'none' is here", 10, 13),
        ({"effects": "[{add: {counter: spot, to: 1}}]"}, "'add' adds numbers; counter 'spot' holds a cell: use 'set'", 15, 31),
        ({"effects": "[{set: {counter: who, to: c}}]"}, "expected a player here, but this is a cell", 15, 40),
        ({"counters": "  spot: {type: cell, of: game, start: a}\n"}, "expected a cell here, but this is a player", 5, 39),
        ({"counters": "  spot: {type: cel, of: game}\n"}, "unknown type 'cel'", 5, 16),
    ],
)
def test_positioned_errors(tmp_path, kwargs, message, line, col) -> None:
    with pytest.raises(SpecError) as info:
        lower(tmp_path, **kwargs)
    text = str(info.value)
    assert message in text
    assert f":{line}:{col}:" in text.splitlines()[0], text
    if "range over" in message:
        assert "did you mean 'kingdom'?" in text


# --------------------------------------------------------------------------- enums, attributes

REALMS = str(Path(__file__).parent / "data" / "realms.yaml")


@pytest.mark.parametrize("engine", ENGINES)
def test_cards_and_cells_say_their_kingdom_and_kind_by_name(engine) -> None:
    game = get_game(REALMS, None, engine)
    state = game.new_state()
    moves = texts(state)
    # a card goes only to a cell of its realm: north cards to row 1, south cards to row 2
    assert "n_gift@a1" in moves and "n_gift@a2" not in moves and "s_gift@b2" in moves and "s_gift@b1" not in moves
    state.apply("n_gift@a1")  # a gift (worth 1) on the holy cell (one more)
    players = state.to_json()["players"]
    assert players[0]["counters"] == {"favour": "north", "points": 2}
    assert state.to_json()["counters"] == {"last_kind": "gift", "last_card": "n_gift"}
    state.apply("s_gift@c2")
    # red is in north's favour: north cards, or a raid of any kingdom
    assert {m.split("@")[0] for m in texts(state)} == {"n_raid", "s_raid"}
    state.apply("s_raid@a2")  # a south raid clears the others' stones from the rival north
    board = state.to_json()["board"]
    assert state.to_json()["counters"] == {"last_kind": "raid", "last_card": "s_raid"}
    assert state.to_json()["players"][0]["counters"] == {"favour": "south", "points": 4}
    state.apply("n_raid@b1")  # blue's north raid clears red's stones in the south, a2
    assert state.to_json()["players"][1]["counters"] == {"favour": "north", "points": 3}
    assert board != state.to_json()["board"]


def test_attributes_are_tables_by_value_with_none_reading_the_default() -> None:
    ir = load_game_ir(REALMS)
    assert ir.enums == (("kingdom", ("north", "south")), ("card_kind", ("raid", "gift")))
    by_name = {a.name: a for a in ir.attributes}
    assert by_name["kingdom"].table == (-1, 0, 1, 0, 1)  # none, then n_raid s_raid n_gift s_gift
    assert by_name["rival"].table == (-1, 1, 0)
    assert by_name["worth"].table == (0, 2, 1)
    realm = by_name["realm"]
    assert realm.offset == 0 and realm.table[-1] == -1  # the off-board cell: none
    assert [realm.table[ir.board.cell_names.index(c)] for c in ("a1", "c1", "a2", "c2")] == [0, 0, 1, 1]
    assert sum(by_name["holy"].table) == 1


def test_realms_play_the_same_games_in_both_engines() -> None:
    check_games(REALMS, None, 150, 91)


ENUM_BASE = """midgardc: 1
game: {name: t, players: [a, b]}
enums:
  kingdom: [north, south]
  card_kind: [raid, gift]
pieces: {stone: {hand: 3}}
counters:
  favour: {type: kingdom}
board: {topology: square, rows: 2, cols: 2}
attributes:
  ATTRS
actions:
  put:
    params: {c: cell}
    where: WHERE
    effects: [{place: {piece: stone, at: c}}]
ranking: {score: "count(x in cells: owner(x) == p)"}
"""


@pytest.mark.parametrize(
    "attrs, where, message, line, col",
    [
        ("realm: {of: cell, type: kingdom, values: {a1: north}}", '"realm(c) == raid"', "cannot compare a kingdom value with a card_kind value", 15, 22),
        ("realm: {of: cell, type: kingdom, values: {a9: north}}", "empty(c)", "'a9' is not a cell", 11, 45),
        ("realm: {of: cell, type: kingdom, values: {\"z*\": north}}", "empty(c)", "no cell matches 'z*'", 11, 45),
        ("realm: {of: cell, type: kingdom, values: {a1: gift}}", "empty(c)", "expected a kingdom value here, but this is a card_kind value", 11, 49),
        ("rival: {of: kingdom, type: kingdom}", '"rival(c) == north"', "argument 1 of 'rival' must be a kingdom value, got a cell", 15, 19),
        ("rival: {of: number, type: kingdom}", "empty(c)", "an attribute belongs to the values of a finite type (cell, player, kind, item, face, dir or an enumeration), not to numbers", 11, 15),
        ("realm: {of: cell, type: kingdom}", '"any k in kingdoms: realm(c) == k"', "expected a collection to range over", 15, 22),
        ("realm: {of: cell, type: kingdom}", '"favour(a) == nort"', "unknown name 'nort'", 15, 26),
        ("realm: {of: cell, type: kingdom}\ndefine:\n  mine(kingdm k): true", "empty(c)", "unknown parameter type 'kingdm' (types: cell, player, kind, dir, item, number, kingdom, card_kind)", 13, 8),
    ],
)
def test_enum_and_attribute_errors(tmp_path, attrs, where, message, line, col) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(ENUM_BASE.replace("ATTRS", attrs).replace("WHERE", where))
    with pytest.raises(SpecError) as info:
        load_game_ir(str(path))
    text = str(info.value)
    assert message in text
    assert f":{line}:{col}:" in text.splitlines()[0], text
    if "range over" in message:
        assert "did you mean 'kingdom'?" in text


def test_a_cell_attribute_names_cells_by_pattern(tmp_path) -> None:
    # "north.*" as in render regions: every cell it matches; an entry written after it wins
    path = tmp_path / "t.yaml"
    attrs = 'realm: {of: cell, type: kingdom, values: {"*1": north, "*2": south, a2: north}}'
    path.write_text(ENUM_BASE.replace("ATTRS", attrs).replace("WHERE", "empty(c)"))
    ir = load_game_ir(str(path))
    realm = next(a for a in ir.attributes if a.name == "realm")  # (a square board's direction sets are attributes too)
    assert [realm.table[ir.board.cell_names.index(c)] for c in ("a1", "b1", "a2", "b2")] == [0, 0, 0, 1]
    assert realm.table[-1] == -1  # the off-board cell: none


def test_a_definition_takes_an_enumeration_value(tmp_path) -> None:
    # a definition's parameter may be of an enumeration's type (Nine Men's Morris: a point
    # on one of the rows of three), passed a value or a quantifier variable. (The compiled
    # engine's side: specs/classics/nine-mens-morris.yaml's `on(cell c, row l)`, in the
    # differential of every spec.)
    path = tmp_path / "t.yaml"
    spec = ENUM_BASE.replace("attributes:\n  ATTRS", "attributes:\n  realm: {of: cell, type: kingdom, values: {a1: north, b1: north, a2: south, b2: south}}\ndefine:\n  of_realm(cell c, kingdom k): realm(c) == k")
    path.write_text(spec.replace("WHERE", '"empty(c) and of_realm(c, north) and any k in kingdom: of_realm(c, k) and favour(mover) == none"'))
    state = get_game(str(path), None, "interpreted").new_state()
    assert texts(state) == ["a1", "b1"]


# --------------------------------------------------------------------------- counter arrays

ARRAYS = str(Path(__file__).parent / "data" / "arrays.yaml")


@pytest.mark.parametrize("engine", ENGINES)
def test_arrays_indexed_by_cell_enum_cell_and_player_and_a_range(engine) -> None:
    game = get_game(ARRAYS, None, engine)
    state = game.new_state()
    counters = state.to_json()["counters"]
    assert [counters[f"seeds[{c}]"] for c in ("a1", "b1", "c1", "a2", "b2", "c2")] == [0, 2, 2, 2, 2, 2]
    moves = texts(state)
    assert not any(m.startswith("sow:a1:") for m in moves)  # seeds[a1] == 0
    # seeds[step(c, n)] + seeds[step(c, s)] < 4; off the board an element reads 0
    assert "sow:b1:sea" in moves and "sow:b2:sea" in moves
    state.apply("sow:b2:sea")  # red: seeds[b2] 2 -> 1, level[red, sea] += 1 + 1
    j = state.to_json()
    assert j["counters"]["seeds[b2]"] == 1 and j["counters"]["taken[b2,red]"] == 1 and j["counters"]["turns[1]"] == "red"
    assert j["players"][0]["counters"] == {"sown": 1, "level[air]": 0, "level[sea]": 2}
    state.apply("sow:b2:air")  # blue sows b2 empty: a stone there, level[blue, air] += 0 + 1
    j = state.to_json()
    assert j["counters"]["seeds[b2]"] == 0 and j["counters"]["turns[2]"] == "blue"
    assert j["players"][1]["counters"] == {"sown": 1, "level[air]": 1, "level[sea]": 0}
    assert not any(m.startswith("sow:b2:") for m in texts(state))


@pytest.mark.parametrize("engine", ENGINES)
def test_a_hidden_array_is_hidden_element_by_element(engine) -> None:
    game = get_game(ARRAYS, None, engine)
    state = replay(game, ["sow:b2:sea"])
    red = state.observation(1)["players"][0]["counters"]
    assert red == {"sown": 1, "level[air]": None, "level[sea]": None}
    assert state.observation(0)["players"][0]["counters"]["level[sea]"] == 2
    text = render_text(state, color=False, viewer=1)
    assert "level: air ?, sea ?" in text and "level: air 0, sea 0" in text  # red's hidden, blue's own
    assert "game: seeds: a2 2, b2 1, c2 2, a1 0, b1 2, c1 2" in text


@pytest.mark.parametrize("engine", ENGINES)
def test_repeat_runs_times_rounds_up_to_its_limit(engine) -> None:
    game = get_game(ARRAYS, None, engine)
    state = replay(game, ["sow:b1:sea", "sow:c1:air", "sow:c2:sea"])  # red's sea: 2, then 2 more
    assert state.observation(0)["players"][0]["counters"] == {"sown": 2, "level[air]": 0, "level[sea]": 4}
    state.apply("sow:a2:air")  # blue
    assert "spread:sea" in texts(state) and "spread:air" not in texts(state)
    state.apply("spread:sea")  # level 4, limit 3: three rounds
    assert state.observation(0)["players"][0]["counters"] == {"sown": 5, "level[air]": 0, "level[sea]": 1}


def test_array_columns_follow_the_plain_counters() -> None:
    ir = load_game_ir(ARRAYS)
    assert ir.counters[0] == "sown"
    assert ir.counters[1:7] == tuple(f"seeds[{c}]" for c in ir.board.cell_names)
    assert ir.counters[-3:] == ("turns[1]", "turns[2]", "turns[3]")
    assert ir.counter_init[-1][-3:] == (-1, -1, -1)  # players: none
    assert ir.counter_visible[7:9] == ("owner", "owner")


def test_arrays_play_the_same_games_in_both_engines() -> None:
    check_games(ARRAYS, None, 150, 13)


ARRAY_BASE = """midgardc: 1
game: {name: t, players: [a, b]}
enums: {track: [air, sea]}
pieces: {stone: {hand: 3}}
counters:
  seeds: {of: game, index: cell, start: 1}
  level: {index: track}
  score: 0
board: {topology: square, rows: 2, cols: 2}
actions:
  put:
    params: {c: cell}
    where: WHERE
    effects: EFFECTS
ranking: {score: "score(p)"}
"""


@pytest.mark.parametrize(
    "where, effects, message, line, col",
    [
        ('"seeds[a] > 0"', "[]", "index 1 of 'seeds' must be a cell, got a player", 13, 19),
        ('"seeds[c, c] > 0"', "[]", "'seeds' takes 1 index: seeds[CELL]", 13, 13),
        ('"level[a] > 0"', "[]", "'level' takes 2 indexes: level[PLAYER, TRACK]", 13, 13),
        ('"score[a] > 0"', "[]", "'score' is not an array (it has no 'index'); read it as score(p)", 13, 13),
        ('"seeds > 0"', "[]", "'seeds' is a counter array; read one element, e.g. seeds[...]", 13, 13),
        ("empty(c)", '[{set: {counter: seeds, to: 1}}]', "'seeds' is a counter array: write one element", 14, 31),
        ("empty(c)", '[{set: {counter: "seeds[c]", of: a, to: 1}}]', "an array element names its player inside the brackets", 14, 43),
        ("empty(c)", '[{add: {counter: "level[a, c]", to: 1}}]', "index 2 of 'level' must be a track value, got a cell", 14, 41),
    ],
)
def test_array_errors(tmp_path, where, effects, message, line, col) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(ARRAY_BASE.replace("WHERE", where).replace("EFFECTS", effects))
    with pytest.raises(SpecError) as info:
        load_game_ir(str(path))
    text = str(info.value)
    assert message in text
    assert f":{line}:{col}:" in text.splitlines()[0], text


@pytest.mark.parametrize(
    "effects, message, line, col",
    [
        ("[{repeat: {limit: 3, effects: []}}]", "repeat needs 'times' (how many rounds), 'while' (a condition checked before each round), or both", 14, 24),
        ("[{repeat: {times: 2, limit: 0, effects: []}}]", "repeat.limit must be between 1 and 4096, got 0", 14, 42),
        ("[{repeat: {times: c, limit: 3, effects: []}}]", "expected a number here, but this is a cell", 14, 32),
        ('[{repeat: {while: "seeds[c]", limit: 3, effects: []}}]', "expected a condition here, but this is a number", 14, 33),
        ("[{repeat: {times: 2, effects: []}}]", "effect 'repeat' needs a 'limit' key", 14, 24),
    ],
)
def test_repeat_errors(tmp_path, effects, message, line, col) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(ARRAY_BASE.replace("WHERE", "empty(c)").replace("EFFECTS", effects))
    with pytest.raises(SpecError) as info:
        load_game_ir(str(path))
    text = str(info.value)
    assert message in text
    assert f":{line}:{col}:" in text.splitlines()[0], text


def test_pictures_draw_number_counters_and_array_elements_as_tracks() -> None:
    from midgardc.render.svg import render_svg

    svg = render_svg(replay(get_game(ARRAYS), ["sow:b2:sea"]), viewer=0)  # level is seen by its owner
    assert 'data-label="level[sea]"' in svg and "level[sea]: 2" in svg
    svg = render_svg(get_game(VALUES).new_state())
    assert 'data-label="moves"' in svg
    assert re.search(r'width="0(\.0)?" height="10" /><text [^>]*data-label="last">last: none<', svg)  # a cell is a name, no bar


def test_a_piece_or_an_item_gives_its_attributes_beside_its_other_keys(tmp_path) -> None:
    text = ENUM_BASE.replace("pieces: {stone: {hand: 3}}", "pieces: {stone: {hand: 3, weight: north}, rock: {hand: 1}}")
    path = tmp_path / "t.yaml"
    path.write_text(text.replace("ATTRS", "weight: {of: kind, type: kingdom}").replace("WHERE", '"weight(stone) == north and weight(rock) == none"'))
    ir = load_game_ir(str(path))
    assert next(a for a in ir.attributes if a.name == "weight").table == (-1, 0, -1)  # none, stone: north, rock: none
    path.write_text(text.replace("ATTRS", "weight: {of: kind, type: kingdom, values: {rock: south}}").replace("WHERE", "empty(c)"))
    with pytest.raises(SpecError) as info:
        load_game_ir(str(path))
    assert "attribute 'weight' is given both in its 'values' and beside the pieces; give it in one place" in str(info.value)
    assert ":11:45:" in str(info.value).splitlines()[0]
    path.write_text(text.replace("ATTRS", "other: {of: kind, type: kingdom}").replace("WHERE", "empty(c)"))
    with pytest.raises(SpecError) as info:  # not a declared attribute of kinds: an unknown key
        load_game_ir(str(path))
    assert "unknown key 'weight' in piece 'stone'" in str(info.value)


# --------------------------------------------------------------------------- a name both a cell and a value

NAMED_CELLS = str(Path(__file__).parent / "data" / "named_cells.yaml")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_name_shared_by_a_cell_and_a_wind_is_the_cell_where_a_cell_is_wanted(engine) -> None:
    game = get_game(NAMED_CELLS, None, engine)
    ir = game.ir
    names = list(ir.counters)
    # the cell counter starts on the cell south, the wind counter on the wind north
    assert game.new_state().core.counters[-1][names.index("first")] == ir.board.cell_names.index("south")
    assert game.new_state().core.counters[-1][names.index("blown")] == dict(ir.enums)["wind"].index("north")
    state = game.new_state()
    # home(north) == north (a wind's attribute holding a cell), c != north, w == north
    assert texts(state) == ["north:north", "south:south", "west:east"]
    state.apply("north:north")  # gust(north): 3 (a definition taking a wind)
    assert texts(state) == ["south:south", "west:east", "hub"]  # occupied(north), first == south
    state.apply("hub")
    assert state.to_json()["counters"]["first"] == "north"
    assert [p["counters"]["points"] for p in state.to_json()["players"]] == [3, 0]


def test_named_cells_play_the_same_games_in_both_engines() -> None:
    check_games(NAMED_CELLS, None, 60, 11)


def test_a_definition_takes_an_enumeration_value_or_says_which_types_there_are(tmp_path) -> None:
    text = Path(NAMED_CELLS).read_text().replace("gust(wind w)", "gust(wnd w)")
    path = tmp_path / "t.yaml"
    path.write_text(text)
    with pytest.raises(SpecError) as info:
        load_game_ir(str(path))
    message = str(info.value)
    assert "unknown parameter type 'wnd'" in message and "wind" in message.splitlines()[0]
    assert f":{text.splitlines().index(next(ln for ln in text.splitlines() if 'gust(wnd' in ln)) + 1}:8:" in message.splitlines()[0]
    assert "did you mean 'wind'?" in message


# --------------------------------------------------------------------------- enumerations in order

ORDER_BASE = """midgardc: 1
game: {name: t, players: [a, b]}
enums: {kingdom: [north, south, east], suit: [cups, coins]}
pieces: {stone: {hand: 3}}
counters:
  best: {type: kingdom}
board: {topology: square, rows: 1, cols: 2}
define:
  above(kingdom x, kingdom y): WHERE
actions:
  pair:
    params: {x: kingdom, y: kingdom}
    where: "above(x, y) and best(mover) < x"
    effects:
      - set: {counter: best, to: y}
    notation: "{x}-{y}"
ranking: {score: "count(g in kingdom: best(p) >= g)"}
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_enumeration_values_compare_in_written_order_and_definitions_take_them(engine, tmp_path) -> None:
    path = tmp_path / "order.yaml"
    path.write_text(ORDER_BASE.replace("WHERE", '"x <= y"'))
    game = get_game(str(path), None, engine)
    state = game.new_state()
    # none comes before every value; a pair x <= y in the order the enumeration is written
    assert texts(state) == ["north-north", "north-south", "north-east", "south-south", "south-east", "east-east"]
    state.apply("north-south")  # a's best: south
    state.apply("east-east")  # b's best: east
    assert texts(state) == ["east-east"]  # a: best south < x
    assert [p["score"]["score"] for p in state.to_json()["players"]] == [2, 3]


@pytest.mark.parametrize(
    "where, message, col",  # (the operator)
    [
        ('"x < 1"', "'<' compares two values of one enumeration (in the order written) or two numbers, not a kingdom value with a number", 35),
        ('"x >= cups"', "'>=' compares two values of one enumeration (in the order written) or two numbers, not a kingdom value with a suit value", 35),
    ],
)
def test_enumeration_order_errors(tmp_path, where, message, col) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(ORDER_BASE.replace("WHERE", where))
    with pytest.raises(SpecError) as info:
        load_game_ir(str(path))
    text = str(info.value)
    assert message in text
    assert f":9:{col}:" in text.splitlines()[0], text


def test_a_definition_parameter_of_an_unknown_type_lists_the_enumerations(tmp_path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(ORDER_BASE.replace("above(kingdom x", "above(kingdoms x").replace("WHERE", '"x <= y"'))
    with pytest.raises(SpecError) as info:
        load_game_ir(str(path))
    text = str(info.value)
    assert "unknown parameter type 'kingdoms' (types: cell, player, kind, dir, item, number, kingdom, suit)" in text
    assert ":9:9:" in text.splitlines()[0], text
