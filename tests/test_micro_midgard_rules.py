"""Micro Midgard (specs/micro-midgard.yaml) against its rulebook, in both back ends.

Each test names the rulebook paragraph it checks (micro-midgard.txt: "Taking a Turn",
"1. Move", "2. Activate", "3. Check for Ragnarok", "End of the Game", and the reference
tables "Blessings" and "Relics") or the FACTS.md assumption (Micro Midgard section) it
relies on. The tables below are copied from the rulebook's reference tables, written
independently of the spec: the tests compute what each row must do and compare.
"""

from __future__ import annotations

import pytest

from conftest import ENGINES, SPECS, get_game

MICRO = str(SPECS / "micro-midgard.yaml")
RED, BLUE = 0, 1
GAME = 2  # the game counters' row

# FACTS ASSUMPTION (realms, clockwise, intact -> destroyed), copied:
#   name: (intact Gold, Mead, Sun-wolf, Moon-wolf, Craft), (destroyed Gold, Mead)
REALMS = {
    "asgard": ((1, 0, 1, 0, 0), (1, 0)),
    "svartalfheim": ((1, 0, 0, 0, 1), (1, 0)),
    "vanaheim": ((0, 1, 0, 1, 0), (0, 1)),
    "muspelheim": ((3, 0, 0, 0, 0), (2, 0)),
    "alfheim": ((0, 1, 1, 0, 0), (0, 1)),
    "jotunheim": ((0, 1, 0, 0, 1), (0, 1)),
    "helheim": ((1, 0, 0, 1, 0), (1, 0)),
    "niflheim": ((0, 3, 0, 0, 0), (0, 2)),
}
RING = list(REALMS)  # clockwise; Midgard is the centre

# The spec's counters for the words of these tests: the Sun/Moon/Craft actions, the
# Sun-/Moon-Wolf Actions ("sw"/"mw"), the wolves' spaces ("ws"/"wm") and their tracks'
# ends ("sl"/"ml"), the blessing tracks' levels, the relics on the craft tracks' squares.
TRACK_NAMES = ["surtr", "odin", "freya", "angrboda", "hel", "buri", "wayland", "svartalfheim"]
ALIAS = {
    "sun": "actions[sun_action]", "moon": "actions[moon_action]", "craft": "actions[craft_action]",
    "sw": "wolf_actions[sun]", "mw": "wolf_actions[moon]", "ws": "wolf_at[sun]", "wm": "wolf_at[moon]",
    "sl": "track_end[sun]", "ml": "track_end[moon]",
    **{t: f"level[{t}]" for t in TRACK_NAMES},
    **{f"w{lvl}": f"on_track[sun,{lvl}]" for lvl in range(1, 5)}, **{f"s{lvl}": f"on_track[moon,{lvl}]" for lvl in range(1, 5)},
}


def relic_name(number: int) -> str:
    """Relic r of the "Relics" tables: level L, column k (a, b, c), r = 3 * (L - 1) + k."""
    return f"r{(number - 1) // 3 + 1}{'abc'[(number - 1) % 3]}"


def micro(engine: str, variant: str | None = None):
    return get_game(MICRO, variant, engine)


def dealt(engine: str, wanted=lambda zones: True, variant: str | None = None):
    """A new game after the setup's four forced `deploy` moves (the Ragnarok tokens drawn,
    the relics dealt), from the first seed whose zones satisfy ``wanted``."""
    game = micro(engine, variant)
    for seed in range(2000):
        state = game.new_state(seed)
        for _ in range(4):
            (move,) = state.legal_moves()  # "start:<realm of the token drawn>"
            state.apply(move)
        if wanted(state.zones()):
            return state
    raise AssertionError("no seed deals that")


def row(state, zone: str) -> list[str]:
    """A game zone's items, top first."""
    return state.zones()[zone]["game"]


def _column(ir, name: str) -> int:
    return list(ir.counters).index(ALIAS.get(name, name))


def _raw(ir, name: str, value) -> int:
    """A counter's value as the engines store it: a cell, enumeration value, item or
    player by name (0 for an item: none), a condition as 0/1."""
    typ = ir.counter_types[_column(ir, name)]
    if typ == "int" or isinstance(value, bool):
        return int(value)
    if value in (None, 0, "none"):
        return ir.board.n_cells if typ == "cell" else -1
    if typ == "cell":
        return ir.board.cell_names.index(value)
    if typ == "item":
        return ir.item_names.index(relic_name(value) if isinstance(value, int) else value)
    if typ == "player":
        return list(ir.players).index(value)
    return dict(ir.enums)[typ.split(":", 1)[1]].index(value)


def _named(ir, name: str, raw: int):
    typ = ir.counter_types[_column(ir, name)]
    if typ == "int":
        return raw
    if typ == "bool":
        return bool(raw)
    if typ == "cell":
        return None if raw == ir.board.n_cells else ir.board.cell_names[raw]
    if raw < 0:
        return None
    if typ == "item":
        return ir.item_names[raw]
    if typ == "player":
        return ir.players[raw]
    return dict(ir.enums)[typ.split(":", 1)[1]][raw]


def position(engine: str, meeples: list[str], counters: dict | None = None, current: int = RED, base=None, relics: dict | None = None, **per_player):
    """A state with meeples on the named realms, red to move by default, in the move
    step; ``counters`` sets game-wide values (``destroyed``: a set of realms), ``red={...}``
    / ``blue={...}`` a player's counters, ``relics={player: {relic number: 1 (Sun side
    up) or 2 (Moon side up)}}`` the relics in front of the players. The zones are those
    of ``base`` (default: a new game, seed 0)."""
    game = micro(engine)
    ir = game.ir
    names = list(ir.counters)
    rows = [list(r) for r in ir.counter_init]  # the players' rows, then the game's
    counters = {"phase": "move", **(counters or {})}  # setup done, the starting choice made
    for name, value in counters.items():
        if name == "destroyed":
            for realm in value:
                rows[GAME][names.index(f"destroyed[{realm}]")] = 1
            continue
        assert _column(ir, name) in ir.game_counters
        rows[GAME][_column(ir, name)] = _raw(ir, name, value)
    relics = dict(relics or {})
    for p, key in ((RED, "red"), (BLUE, "blue")):
        for name, value in per_player.get(key, {}).items():
            if name == "relics":
                relics[p] = value
                continue
            rows[p][_column(ir, name)] = _raw(ir, name, value)
    board = [0] * ir.board.n_cells
    for m in meeples:
        board[ir.board.cell_names.index(m)] = ir.piece_id(RED, 0)
    state = base or game.new_state()
    lying = [v for k, v in counters.items() if k[:1] in "ws" and k[1:].isdigit() and v]  # on the craft tracks
    if relics or lying:  # the same zones, with these relics in front of the players, on the tracks
        zs = ir.zones
        slots = [list(z) for z in state.core.zones]
        ordered = [z.ordered for z in zs.zones for _ in range(zs.n_players if z.per_player else 1)]

        def put(number: int, zone_name: str, owner: int = 0) -> None:  # taken from where it is
            kind = zs.names.index(relic_name(number))
            for i, slot in enumerate(slots):
                if ordered[i] and kind in slot:
                    slot.remove(kind)
                elif not ordered[i] and slot[kind]:
                    slot[kind] -= 1
            zone = next(z for z in zs.zones if z.name == zone_name)
            if zone.ordered:
                slots[zone.base + owner].append(kind)
            else:
                slots[zone.base + owner][kind] += 1

        for number in lying:
            put(number, "on_tracks")
        for p, held in (relics or {}).items():
            for number, side in held.items():
                put(number, ("sun_relics", "moon_relics")[side - 1], p)
        state = game.new_state(0, start_zones=slots)
    state.core.load(board, [[0], [0]], current, counters=rows)
    return state


def get(state, name: str, player: int = RED):
    """A player's counter, or a game counter (the counters' last row), by name (a cell,
    an enumeration value, a relic, a player by name; none as None)."""
    ir = state.game.ir
    k = _column(ir, name)
    return _named(ir, name, state.core.counters[GAME if k in ir.game_counters else player][k])


def destroyed_realms(state) -> set[str]:
    return {c for c in state.game.ir.board.cell_names if state.core.counters[GAME][list(state.game.ir.counters).index(f"destroyed[{c}]")]}


def texts(state) -> list[str]:
    return [m.text for m in state.legal_moves()]


def meeples_at(state) -> set[str]:
    ir = state.game.ir
    return {ir.board.cell_names[c] for c, v in enumerate(state.core.board[: ir.board.n_cells]) if v > 0}


# --------------------------------------------------------------------------- setup


@pytest.mark.parametrize("engine", ENGINES)
def test_setup_draws_four_tokens_places_the_meeples_and_deals_the_relics(engine) -> None:
    # FACTS: "setup draws 4 Ragnarok tokens that fix which realms are destroyed and in which
    # order, and the meeples' start realms"; "4 meeples"; "relics sit on the two craft
    # blessing tracks at levels 1-4"; prophecies "Dealt in random order at setup"
    firsts = set()
    for seed in range(12):
        state = micro(engine).new_state(seed)
        tokens = row(state, "tokens")
        assert sorted(tokens) == sorted(f"token_{r}" for r in RING)
        assert len(row(state, "sun_row")) == len(row(state, "moon_row")) == 5
        for token in tokens[:4]:
            assert texts(state) == [f"start:{token[len('token_'):]}"]  # red's forced setup moves
            state.apply(texts(state)[0])
        assert row(state, "drawn") == tokens[:4]
        assert meeples_at(state) == {t[len("token_"):] for t in tokens[:4]}
        assert state.current_player() == BLUE and texts(state) == ["start_gold", "start_mead"]
        for level in range(1, 5):
            on_tracks = {get(state, f"w{level}"), get(state, f"s{level}")}
            left = row(state, f"level_{level}")
            assert len(on_tracks) == 2 and len(left) == 1
            assert on_tracks | {left[0]} == {relic_name(3 * (level - 1) + k) for k in (1, 2, 3)}
        firsts.add(tokens[0])
    assert len(firsts) > 1  # the order comes from the seed


# --------------------------------------------------------------------------- 1. Move


@pytest.mark.parametrize("engine", ENGINES)
def test_a_marked_meeple_cannot_be_moved(engine) -> None:
    # "1. Move": "The chosen meeple must not already have a player marker on it." Red's
    # own marker (on vanaheim) and blue's (on helheim) both block.
    state = position(engine, ["vanaheim", "helheim", "asgard", "muspelheim"], red={"marker": "vanaheim"}, blue={"marker": "helheim"})
    movers = {t.split("-")[0] for t in texts(state)}
    assert movers == {"asgard", "muspelheim"}


@pytest.mark.parametrize("engine", ENGINES)
def test_meeples_cannot_share_a_realm_or_stay_put(engine) -> None:
    # "The chosen meeple may not remain on the same space." "Meeples may not share the
    # same Realm space." "move a meeple to an adjacent connected Realm space"
    state = position(engine, ["asgard", "svartalfheim", "vanaheim", "muspelheim"], red={"marker": "vanaheim"}, blue={"marker": "muspelheim"})
    assert sorted(texts(state)) == sorted(["asgard-niflheim", "asgard-midgard", "svartalfheim-midgard"])


@pytest.mark.parametrize("engine", ENGINES)
def test_the_moved_meeple_takes_the_movers_marker(engine) -> None:
    # "MOVE an unmarked meeple ... Then place your Player marker on that meeple."; FACTS:
    # "stays blocked until that player's next move" (red's old marker comes off)
    state = position(engine, ["asgard", "svartalfheim", "vanaheim", "helheim"], red={"marker": "vanaheim"}, blue={"marker": "helheim"})
    state.apply("asgard-midgard")
    assert get(state, "marker", RED) == "midgard"
    assert meeples_at(state) == {"midgard", "svartalfheim", "vanaheim", "helheim"}
    for _ in ("collect", "end_turn"):
        state.apply(_)
    assert state.current_player() == BLUE
    # blue may now move the vanaheim meeple (red's marker left it), not the one in Midgard
    movers = {t.split("-")[0] for t in texts(state)}
    assert movers == {"svartalfheim", "vanaheim"}


@pytest.mark.parametrize("engine", ENGINES)
def test_midgard_is_cut_off_from_a_destroyed_realm(engine) -> None:
    # "Midgard is accessible from any of the 8 outer Realms, unless that Realm has been
    # destroyed by Ragnarok." (FACTS: outer realms still link to their two neighbours)
    state = position(engine, ["asgard", "vanaheim", "muspelheim", "helheim"], {"destroyed": {"asgard"}}, red={"marker": "muspelheim"}, blue={"marker": "helheim"})
    assert sorted(texts(state)) == sorted(["asgard-svartalfheim", "asgard-niflheim", "vanaheim-svartalfheim", "vanaheim-midgard"])


@pytest.mark.parametrize("engine", ENGINES)
def test_forced_move_to_midgard(engine) -> None:
    # "In the rare event that no legal moves are possible, you may move an unmarked meeple
    # to Midgard." Asgard and Svartalfheim are destroyed (no way to Midgard) and hem each
    # other in with the two marked meeples.
    state = position(engine, ["asgard", "svartalfheim", "niflheim", "vanaheim"], {"destroyed": {"asgard", "svartalfheim"}}, red={"marker": "niflheim"}, blue={"marker": "vanaheim"})
    assert sorted(texts(state)) == ["asgard-midgard", "svartalfheim-midgard"]
    state.apply("asgard-midgard")
    assert meeples_at(state) == {"midgard", "svartalfheim", "niflheim", "vanaheim"}


# --------------------------------------------------------------------------- 2. Activate


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("realm", RING)
@pytest.mark.parametrize("destroyed", [False, True])
def test_activating_a_realm(engine, realm, destroyed) -> None:
    # "2. Activate": "Gain resources", "Move a Wolf ... Then gain a Sun or Moon Action",
    # Craft; FACTS (realms): the intact side and the destroyed side
    ruins = {realm} if destroyed else set()
    # reach the realm from Midgard (intact) or along the ring (destroyed)
    src = "midgard" if not destroyed else RING[(RING.index(realm) + 1) % 8]
    state = position(engine, [src], {"destroyed": ruins})
    state.apply(f"{src}-{realm}")
    (g, m, sw, mw, craft), (dg, dm) = REALMS[realm]
    if destroyed:
        g, m, sw, mw, craft = dg, dm, 0, 0, 0
    assert (get(state, "sw"), get(state, "mw"), get(state, "craft")) == (sw, mw, craft)
    assert get(state, "resources_due") and (get(state, "gold"), get(state, "mead")) == (0, 0)  # gained by `collect`
    state.apply("collect")
    assert (get(state, "gold"), get(state, "mead")) == (g, m)


@pytest.mark.parametrize("engine", ENGINES)
def test_midgard_gives_a_gold_and_a_mead(engine) -> None:
    # FACTS: "Midgard (centre, never destroyed) 1 Gold+1 Mead"
    state = position(engine, ["asgard"])
    state.apply("asgard-midgard")
    state.apply("collect")
    assert (get(state, "gold"), get(state, "mead")) == (1, 1)


@pytest.mark.parametrize("engine", ENGINES)
def test_resources_are_capped_at_seven(engine) -> None:
    # "Note: Players may have a maximum of 7 of each resource"
    state = position(engine, ["midgard"], red={"gold": 6, "mead": 5})
    state.apply("midgard-muspelheim")
    state.apply("collect")
    assert get(state, "gold") == 7 and get(state, "mead") == 5
    state = position(engine, ["midgard"], red={"gold": 2, "mead": 6})
    state.apply("midgard-niflheim")
    state.apply("collect")
    assert get(state, "gold") == 2 and get(state, "mead") == 7


@pytest.mark.parametrize("engine", ENGINES)
def test_abilities_in_any_order_and_all_before_the_end_of_the_turn(engine) -> None:
    # "you must resolve the abilities of the Realm space. You may resolve these abilities
    # in any order." Spending the Sun action before collecting the Gold: at 7 Gold, Surtr
    # level 1 (5 Gold -> 1 VP) then the realm's Gold.
    state = position(engine, ["midgard", "niflheim", "muspelheim"], red={"gold": 7})
    state.apply("midgard-asgard")
    assert sorted(texts(state)) == ["collect", "sun_wolf"]  # no end_turn yet
    state.apply("sun_wolf")
    assert get(state, "sun") == 1 and get(state, "ws") == 2
    state.apply("surtr_1")
    state.apply("collect")
    assert (get(state, "gold"), get(state, "vp")) == (3, 1)
    assert "end_turn" in texts(state)
    state.apply("end_turn")
    assert state.current_player() == BLUE


@pytest.mark.parametrize("engine", ENGINES)
def test_the_second_player_starts_with_a_gold_or_a_mead(engine) -> None:
    # FACTS: "the second player starts with 1 Gold or 1 Mead" (a choice, made when the
    # setup is done; then the first player takes the first turn)
    for choice, resources in (("start_gold", (1, 0)), ("start_mead", (0, 1))):
        state = dealt(engine)
        assert state.current_player() == BLUE
        assert sorted(texts(state)) == ["start_gold", "start_mead"]
        state.apply(choice)
        assert (get(state, "gold", BLUE), get(state, "mead", BLUE)) == resources
        assert (get(state, "gold", RED), get(state, "mead", RED)) == (0, 0)
        assert state.current_player() == RED and all("-" in t for t in texts(state))  # red's first move
        state.apply(texts(state)[0])
        while "end_turn" not in texts(state):  # the realm's abilities
            state.apply(next(t for t in texts(state) if t in ("collect", "sun_wolf", "moon_wolf")))
        state.apply("end_turn")
        assert state.current_player() == BLUE and all("-" in t for t in texts(state))  # no second choice


# --------------------------------------------------------------------------- Blessings

# "Reference - Blessings", row by row: (track, level, action spent, costs, gains).
# Tracks are paid with the action the spec's ASSUMPTION gives them (Sun: Surtr, Odin,
# Freya; Moon: Angrboda, Hel, Buri; Craft: Wayland, Svartalfheim). "ws"/"wm" -1: the
# wolf moves 1 space back; "sw"/"mw": a Sun-/Moon-Wolf Action.
BLESSINGS = [
    ("surtr", 4, "sun", {"gold": 3}, {"vp": 1, "sw": 1}),      # Spend 3 Gold to gain 1 VP and a Sun-Wolf Action
    ("surtr", 3, "sun", {"gold": 2}, {"sw": 1}),               # Spend 2 Gold to gain a Sun-Wolf Action
    ("surtr", 2, "sun", {"gold": 3}, {"sun": 2}),              # Spend 3 Gold to gain 2 Sun Actions
    ("surtr", 1, "sun", {"gold": 5}, {"vp": 1}),               # Spend 5 Gold to gain 1 VP
    ("wayland", 3, "craft", {"gold": 3}, {"vp": 1, "sun": 1}),  # Spend 3 Gold to gain 1 VP and a Sun Action
    ("odin", 4, "sun", {}, {"vp": 1, "gold": 4, "craft": 1}),  # Gain 1 VP, 4 Gold, and a Craft Action
    ("odin", 3, "sun", {}, {"craft": 1, "gold": 4}),           # Gain a Craft Action and 4 Gold
    ("odin", 2, "sun", {}, {"gold": 3}),                       # Gain 3 Gold
    ("odin", 1, "sun", {}, {"gold": 1}),                       # Gain 1 Gold
    ("freya", 4, "sun", {}, {"vp": 1, "wm": -1}),              # Gain 1 VP and move the Moon-Wolf 1 space back
    ("freya", 3, "sun", {}, {"craft": 2}),                     # Gain 2 Craft Actions
    ("freya", 2, "sun", {}, {"gold": 2, "mead": 1}),           # Gain 2 Gold and 1 Mead
    ("freya", 1, "sun", {"mead": 1}, {"gold": 2}),             # Spend 1 Mead to gain 2 Gold
    ("angrboda", 4, "moon", {}, {"vp": 1, "ws": -1}),          # Gain 1 VP and move the Sun-Wolf 1 space back
    ("angrboda", 3, "moon", {}, {"craft": 2}),                 # Gain 2 Craft Actions
    ("angrboda", 2, "moon", {}, {"gold": 2, "mead": 1}),       # Gain 2 Gold and 1 Mead
    ("angrboda", 1, "moon", {"gold": 1}, {"mead": 2}),         # Spend 1 Gold to gain 2 Mead
    ("hel", 4, "moon", {}, {"vp": 1, "mead": 4, "craft": 1}),  # Gain 1 VP, 4 Mead, and a Craft Action
    ("hel", 3, "moon", {}, {"craft": 1, "mead": 4}),           # Gain a Craft Action and 4 Mead
    ("hel", 2, "moon", {}, {"mead": 3}),                       # Gain 3 Mead
    ("hel", 1, "moon", {}, {"mead": 1}),                       # Gain 1 Mead
    ("svartalfheim", 3, "craft", {"mead": 3}, {"vp": 1, "moon": 1}),  # Spend 3 Mead to gain 1 VP and a Moon Action
    ("buri", 4, "moon", {"mead": 3}, {"vp": 1, "mw": 1}),      # Spend 3 Mead to gain 1 VP and a Moon-Wolf Action
    ("buri", 3, "moon", {"mead": 2}, {"mw": 1}),               # Spend 2 Mead to gain a Moon-Wolf Action
    ("buri", 2, "moon", {"mead": 3}, {"moon": 2}),             # Spend 3 Mead to gain 2 Moon Actions
    ("buri", 1, "moon", {"mead": 5}, {"vp": 1}),               # Spend 5 Mead to gain 1 VP
]
TRACKS = {"surtr": "sun", "odin": "sun", "freya": "sun", "angrboda": "moon", "hel": "moon", "buri": "moon", "wayland": "craft", "svartalfheim": "craft"}
UNCOVERED = {f"{t}{lvl}": 0 for t in "ws" for lvl in range(1, 5)}  # every relic claimed
WOLVES = {"ws": 3, "wm": 3}


def expected(before: dict, spend: dict, gain: dict) -> dict:
    out = dict(before)
    for k, v in spend.items():
        out[k] -= v
    for k, v in gain.items():
        out[k] += v
    for k in ("gold", "mead"):  # "a maximum of 7 of each resource"
        out[k] = min(out[k], 7)
    return out


def activation(engine, red: dict, game: dict | None = None):
    """Red in the middle of its activation step (stage 1), a meeple in Midgard."""
    return position(engine, ["midgard", "niflheim", "muspelheim"], {"phase": "activate", **WOLVES, **(game or {})}, red={"marker": "midgard", **red})


PLAYER_KEYS = ["vp", "gold", "mead", "sun", "moon", "craft", "sw", "mw"]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("track, level, token, spend, gain", BLESSINGS, ids=lambda x: str(x))
def test_every_blessing_square(engine, track, level, token, spend, gain) -> None:
    # "ACTIVATE the abilities of a chosen square at your level or below, then move your
    # Blessing marker to the level 1 of that track."
    before = {"vp": 0, "gold": 5, "mead": 5, "sun": 0, "moon": 0, "craft": 0, "sw": 0, "mw": 0, token: 1}
    state = activation(engine, {**before, track: level}, UNCOVERED)
    state.apply(f"{track}_{level}")
    after = expected(before, {**spend, token: spend.get(token, 0) + 1}, {k: v for k, v in gain.items() if k in PLAYER_KEYS})
    assert {k: get(state, k) for k in PLAYER_KEYS} == after
    assert get(state, track) == 1
    for wolf in ("ws", "wm"):
        assert get(state, wolf) == WOLVES[wolf] + gain.get(wolf, 0)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("track", list(TRACKS))
def test_moving_a_blessing_marker_up(engine, track) -> None:
    # "MOVE your Blessing marker one space up." (levels 1-4: not past 4)
    token = TRACKS[track]
    for level in (1, 2, 3):
        state = activation(engine, {token: 1, track: level})
        state.apply(f"up_{track}")
        assert get(state, track) == level + 1 and get(state, token) == 0
    state = activation(engine, {token: 1, track: 4})
    assert f"up_{track}" not in texts(state)
    state = activation(engine, {track: 1, "sun": 1, "moon": 1, "craft": 1, token: 0})
    assert f"up_{track}" not in texts(state)  # only the track's own action pays


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_squares_at_your_level_or_below(engine, level) -> None:
    # "a chosen square at your level or below"
    state = activation(engine, {"sun": 1, "odin": level})
    assert sorted(t for t in texts(state) if t.startswith("odin_")) == [f"odin_{k}" for k in range(1, level + 1)]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_cost_that_cannot_be_paid(engine) -> None:
    # "Spend 5 Gold to gain 1 VP": not with 4 Gold
    state = activation(engine, {"sun": 1, "surtr": 1, "gold": 4})
    assert "surtr_1" not in texts(state)


# relic squares: (track, level, a relic of that level, the side it lies on)
# FACTS: "relics sit on the two craft blessing tracks at levels 1-4"; "For squares covered by
# a Relic (on Blue and Red tracks), instead claim that Relic, placing it in front of you."
# The spec's placement ASSUMPTION: Wayland's relics lie Sun side up, Svartalfheim's Moon
# side up (relic number = 3 * (level - 1) + column).
RELIC_SQUARES = [(track, lvl, 3 * (lvl - 1) + col, side) for track, side in (("wayland", 1), ("svartalfheim", 2)) for lvl in range(1, 5) for col in (1, 2, 3)]


def sides(state, player: int = RED) -> dict[int, int]:
    """The relics a player holds: relic number -> 1 (Sun side up) or 2 (Moon side up)."""
    zones = state.zones()
    name = state.game.players[player]
    return {r: side for side, zone in ((1, "sun_relics"), (2, "moon_relics")) for r in range(1, 13) if zones[zone][name][relic_name(r)]}


def relics_value(held: dict[int, int]) -> dict[int, int]:
    return dict(held)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("track, level, relic, side", RELIC_SQUARES)
def test_claiming_the_relic_on_a_square(engine, track, level, relic, side) -> None:
    square = f"{track[0]}{level}"
    state = activation(engine, {"craft": 1, track: 4}, {square: relic})
    assert f"{track}_{level}" not in texts(state)  # covered: its own ability is hidden
    state.apply(f"claim_{square}")
    assert sides(state) == {relic: side}
    assert get(state, square) is None and get(state, track) == 1 and get(state, "craft") == 0
    # the square is uncovered now
    state = activation(engine, {"craft": 1, track: 4, "gold": 5, "mead": 5, "relics": relics_value({1: 1, 2: 2})}, {square: 0})
    assert f"claim_{square}" not in texts(state)


# the relic squares' own abilities once uncovered: "Destroy a Moon Relic ...", "Flip ..."
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    "move, held_before, held_after, spend, gain",
    [
        ("wayland_4:r2b", {5: 2, 4: 1}, {4: 1}, {}, {"vp": 1, "wm": -1}),            # Destroy a Moon Relic to gain 1 VP and move the Moon-Wolf 1 space back
        ("wayland_2:r2b", {5: 2, 4: 1}, {5: 1, 4: 1}, {}, {}),                       # Flip a Moon Relic to the Sun side
        ("wayland_1:r2a", {5: 2, 4: 1}, {5: 2}, {"gold": 2}, {"vp": 1}),             # Destroy a Sun Relic and spend 2 Gold to gain 1 VP
        ("svartalfheim_4:r2a", {5: 2, 4: 1}, {5: 2}, {}, {"vp": 1, "ws": -1}),       # Destroy a Sun Relic to gain 1 VP and move the Sun-Wolf 1 space back
        ("svartalfheim_2:r2a", {5: 2, 4: 1}, {5: 2, 4: 2}, {}, {}),                  # Flip a Sun Relic to the Moon side
        ("svartalfheim_1:r2b", {5: 2, 4: 1}, {4: 1}, {"mead": 2}, {"vp": 1}),        # Destroy a Moon Relic and spend 2 Mead to gain 1 VP
    ],
)
def test_the_relic_squares_own_abilities(engine, move, held_before, held_after, spend, gain) -> None:
    track, level = move.split(":")[0].rsplit("_", 1)
    before = {"vp": 0, "gold": 5, "mead": 5, "sun": 0, "moon": 0, "craft": 1, "sw": 0, "mw": 0}
    state = activation(engine, {**before, track: int(level), "relics": relics_value(held_before)}, UNCOVERED)
    # only relics of the right side are offered
    offered = sorted(t for t in texts(state) if t.startswith(move.split(":")[0] + ":"))
    assert offered == [move]
    state.apply(move)
    assert sides(state) == held_after
    assert {k: get(state, k) for k in PLAYER_KEYS} == expected(before, {**spend, "craft": 1}, {k: v for k, v in gain.items() if k in PLAYER_KEYS})
    for wolf in ("ws", "wm"):
        assert get(state, wolf) == WOLVES[wolf] + gain.get(wolf, 0)


# --------------------------------------------------------------------------- Relics

# "Reference - Relics": (move, relic number, side, costs, gains). First table = Sun side
# (1), second = Moon side (2); relic r = 3 * (level - 1) + column. "any 4 resources" and
# "exchange any amount" name the choice in the move (Gold spent / Gold kept).
RELICS = [
    ("r4a_sun", 10, 1, {"craft": 1, "gold": 4}, {"vp": 1, "ws": 1}),      # Craft + 4 Gold: 1 VP, Sun-Wolf 1 space forwards
    ("r4b_sun", 11, 1, {"craft": 1, "gold": 4}, {"vp": 1, "wm": -1}),     # Craft + 4 Gold: 1 VP, Moon-Wolf 1 space back
    ("r4c_sun", 12, 1, {"sun": 1, "gold": 2}, {"craft": 2}),              # Sun + 2 Gold: 2 Craft Actions
    ("r3a_sun:1", 7, 1, {"craft": 1, "gold": 1, "mead": 3}, {"vp": 1}),   # Craft + any 4 resources: 1 VP
    ("r3b_sun", 8, 1, {"craft": 1, "gold": 3}, {"vp": 1}),                # Craft + 3 Gold: 1 VP
    ("r3c_sun", 9, 1, {"craft": 1, "gold": 5}, {"vp": 1, "sw": 1}),       # Craft + 5 Gold: 1 VP and a Sun-Wolf Action
    ("r2a_sun", 4, 1, {"gold": 2, "mw": 1}, {"sw": 1}),                   # 2 Gold: convert a Moon-Wolf Action to a Sun-Wolf Action
    ("r2b_sun", 5, 1, {"sun": 1}, {"gold": 2}),                           # Sun: 2 Gold
    ("r2c_sun", 6, 1, {"craft": 1}, {"gold": 1, "mead": 1}),              # Craft: 1 Gold and 1 Mead
    ("r1a_sun", 1, 1, {"craft": 1, "gold": 1}, {"sun": 1}),               # Craft + 1 Gold: a Sun Action
    ("r1b_sun", 2, 1, {"sun": 1, "gold": 1}, {"craft": 1}),               # Sun + 1 Gold: a Craft Action
    ("r1c_sun:3", 3, 1, {"craft": 1, "gold": 2}, {"mead": 2}),            # Craft: exchange Gold for Mead (keep 3 Gold)
    ("r4a_moon", 10, 2, {"craft": 1, "mead": 4}, {"vp": 1, "wm": 1}),     # Craft + 4 Mead: 1 VP, Moon-Wolf 1 space forwards
    ("r4b_moon", 11, 2, {"craft": 1, "mead": 4}, {"vp": 1, "ws": -1}),    # Craft + 4 Mead: 1 VP, Sun-Wolf 1 space back
    ("r4c_moon", 12, 2, {"moon": 1, "mead": 2}, {"craft": 2}),            # Moon + 2 Mead: 2 Craft Actions
    ("r3a_moon:4", 7, 2, {"craft": 1, "gold": 4}, {"vp": 1}),             # Craft + any 4 resources: 1 VP
    ("r3b_moon", 8, 2, {"craft": 1, "mead": 3}, {"vp": 1}),               # Craft + 3 Mead: 1 VP
    ("r3c_moon", 9, 2, {"craft": 1, "mead": 5}, {"vp": 1, "mw": 1}),      # Craft + 5 Mead: 1 VP and a Moon-Wolf Action
    ("r2a_moon", 4, 2, {"mead": 2, "sw": 1}, {"mw": 1}),                  # 2 Mead: convert a Sun-Wolf Action to a Moon-Wolf Action
    ("r2b_moon", 5, 2, {"moon": 1}, {"mead": 2}),                         # Moon: 2 Mead
    ("r2c_moon", 6, 2, {"craft": 1}, {"gold": 1, "mead": 1}),             # Craft: 1 Gold and 1 Mead
    ("r1a_moon", 1, 2, {"craft": 1, "mead": 1}, {"moon": 1}),             # Craft + 1 Mead: a Moon Action
    ("r1b_moon", 2, 2, {"moon": 1, "mead": 1}, {"craft": 1}),             # Moon + 1 Mead: a Craft Action
    ("r1c_moon:7", 3, 2, {"craft": 1, "mead": 2}, {"gold": 2}),           # Craft: exchange Mead for Gold (keep 7 Gold)
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("move, relic, side, spend, gain", RELICS, ids=lambda x: str(x))
def test_every_relic(engine, move, relic, side, spend, gain) -> None:
    # "Your Relics may be activated by spending the Action or resources shown to gain the
    # benefit. You may only activate each Relic once per turn."
    before = {"vp": 0, "gold": 5, "mead": 5, "sun": 2, "moon": 2, "craft": 2, "sw": 1, "mw": 1}
    state = activation(engine, {**before, "relics": relics_value({relic: side})})
    assert move in texts(state)
    state.apply(move)
    assert {k: get(state, k) for k in PLAYER_KEYS} == expected(before, spend, {k: v for k, v in gain.items() if k in PLAYER_KEYS})
    for wolf in ("ws", "wm"):
        assert get(state, wolf) == WOLVES[wolf] + gain.get(wolf, 0)
    name = move.split(":")[0]
    assert not any(t.split(":")[0] == name for t in texts(state)), "once per turn"
    # the other side of the same relic is not offered, and nobody else's relic is
    assert sides(state) == {relic: side}


@pytest.mark.parametrize("engine", ENGINES)
def test_a_relic_is_ready_again_next_turn(engine) -> None:
    # "only activate each Relic once per turn": the next turn it may be used again
    state = activation(engine, {"sun": 2, "relics": relics_value({5: 1})})
    state.apply("r2b_sun")
    assert "r2b_sun" not in texts(state)
    state.apply("end_turn")
    assert not any(get(state, f"activated[{relic_name(r)}]") for r in range(1, 13))
    state = activation(engine, {"sun": 1, "relics": sides(state)})
    assert "r2b_sun" in texts(state)


@pytest.mark.parametrize("engine", ENGINES)
def test_the_any_resources_and_exchange_relics_offer_every_split(engine) -> None:
    # "any 4 resources": every split of 4 between Gold and Mead the player can pay;
    # "exchange any amount of Gold for Mead and vice-versa" (one for one, within 0..7)
    state = activation(engine, {"craft": 1, "gold": 3, "mead": 2, "relics": relics_value({7: 1, 3: 2})})
    assert sorted(t for t in texts(state) if t.startswith("r3a_sun")) == ["r3a_sun:2", "r3a_sun:3"]
    assert sorted(t for t in texts(state) if t.startswith("r1c_moon")) == [f"r1c_moon:{g}" for g in (0, 1, 2, 4, 5)]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_wolf_does_not_move_back_past_its_first_space(engine) -> None:
    # "move the Moon-Wolf 1 space back (if able)"
    state = activation(engine, {"craft": 1, "gold": 4, "relics": relics_value({11: 1})}, {"wm": 1})
    state.apply("r4b_sun")
    assert get(state, "wm") == 1 and get(state, "vp") == 1


# --------------------------------------------------------------------------- wolves, Ragnarok


@pytest.mark.parametrize("engine", ENGINES)
def test_a_wolf_passing_the_end_of_its_track_brings_ragnarok(engine) -> None:
    # "Move the corresponding Wolf marker clockwise to the next available space."; FACTS:
    # "each wolf track has 8 spaces; passing its end triggers Ragnarok and resets it"
    state = position(engine, ["midgard", "niflheim", "muspelheim"], {"ws": 8}, red={"gold": 3})
    state.apply("midgard-asgard")
    state.apply("sun_wolf")
    assert get(state, "ws") == 9
    state.apply("collect")
    state.apply("end_turn")
    # "3. Check for Ragnarok": "If, at the end of a players turn, a Wolf marker has passed
    # the end of its track"
    assert state.current_player() == RED and texts(state) == ["ragnarok_sun"]
    state.apply("ragnarok_sun")
    # "RESET both Wolf markers"; FACTS: "each Ragnarok shortens the triggering wolf's track"
    assert (get(state, "ws"), get(state, "wm"), get(state, "sl"), get(state, "ml")) == (1, 1, 7, 8)
    assert state.current_player() == BLUE


@pytest.mark.parametrize("engine", ENGINES)
def test_a_wolf_on_its_last_space_is_not_past_the_end(engine) -> None:
    state = position(engine, ["midgard", "niflheim", "muspelheim"], {"ws": 7})
    for move in ("midgard-asgard", "sun_wolf", "collect", "end_turn"):
        state.apply(move)
    assert get(state, "ws") == 8 and state.current_player() == BLUE


@pytest.mark.parametrize("engine", ENGINES)
def test_both_wolves_past_the_end_the_player_chooses(engine) -> None:
    # "In the rare event that both Wolf tokens have passed the end of their tracks, the
    # current player chooses which Prophecy scores."
    state = activation(engine, {}, {"ws": 9, "wm": 9})
    state.apply("end_turn")
    assert sorted(texts(state)) == ["ragnarok_moon", "ragnarok_sun"]
    state.apply("ragnarok_moon")
    assert (get(state, "ws"), get(state, "wm"), get(state, "sl"), get(state, "ml")) == (1, 1, 8, 7)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("realm", RING)
def test_ragnarok_destroys_the_realm_on_its_token(engine, realm) -> None:
    # "DESTROY the Realm shown on the Ragnarok token. Flip it to the destroyed side";
    # FACTS: the 4 tokens drawn at setup fix which realms are destroyed, in which order
    base = dealt(engine, lambda z: z["drawn"]["game"][0] == f"token_{realm}")
    state = position(engine, ["midgard", "niflheim", "muspelheim"], {"phase": "activate", **WOLVES, "ws": 9}, base=base, red={"marker": "midgard"})
    second = row(state, "drawn")[1]
    state.apply("end_turn")
    state.apply("ragnarok_sun")
    assert destroyed_realms(state) == {realm}
    assert row(state, "drawn")[0] == second  # the next Ragnarok destroys the next one
    # the destroyed side's yield, reached along the ring
    src = RING[(RING.index(realm) + 1) % 8]
    state = position(engine, [src], {"destroyed": {realm}})
    state.apply(f"{src}-{realm}")
    assert get(state, "sw") + get(state, "mw") + get(state, "craft") == 0
    state.apply("collect")
    assert (get(state, "gold"), get(state, "mead")) == REALMS[realm][1]


# --------------------------------------------------------------------------- prophecies

# FACTS ASSUMPTION (prophecies): Sun - most Gold, most Sun relics, most relics, highest
# blessing level, fewest VP; Moon - most Mead, most Moon relics, most resources, highest
# blessing level, fewest relics; "2 VP to the leader"; "Dealt in random order at
# setup". (FACTS's "1 each on a tie" was wrong: the rulebook says "or neither in the
# event of a tie"; the variant prophecy-tie-shares keeps 1 each.) Each row: the prophecy (an item of the spec), red's and blue's
# counters making red the leader.
PROPHECIES = [
    ("sun", "sun_most_gold", {"gold": 3}, {"gold": 2}),
    ("sun", "sun_most_sun_relics", {"relics": relics_value({1: 1, 2: 1})}, {"relics": relics_value({3: 1, 4: 2, 5: 2})}),
    ("sun", "sun_most_relics", {"relics": relics_value({1: 2, 2: 2})}, {"relics": relics_value({3: 1})}),
    ("sun", "sun_highest_level", {"odin": 3}, {"hel": 2}),
    ("sun", "sun_fewest_vp", {"vp": 1}, {"vp": 2}),
    ("moon", "moon_most_mead", {"mead": 3}, {"mead": 2}),
    ("moon", "moon_most_moon_relics", {"relics": relics_value({1: 2})}, {"relics": relics_value({2: 1, 3: 1})}),
    ("moon", "moon_most_resources", {"gold": 2, "mead": 2}, {"gold": 3}),
    ("moon", "moon_highest_level", {"buri": 4}, {"surtr": 3, "odin": 3}),
    ("moon", "moon_fewest_relics", {"relics": relics_value({1: 1})}, {"relics": relics_value({2: 1, 3: 2})}),
]


def alike(counters: dict) -> dict:
    """The same counters for the other player; its relics (each a tile: one player holds
    it) the same number on each side, other tiles."""
    out = dict(counters)
    if "relics" in out:
        out["relics"] = {r + 6: side for r, side in out["relics"].items()}
    return out


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("wolf, kind, red, blue", PROPHECIES, ids=[p[1] for p in PROPHECIES])
def test_each_prophecy_scores_2_for_the_leader_and_nothing_on_a_tie(engine, wolf, kind, red, blue) -> None:
    # "SCORE the leftmost Prophecy corresponding to the Wolf ... Award the points shown to
    # the winning player ... then discard both Prophecies."
    game = {"phase": "activate", "ws" if wolf == "sun" else "wm": 9}
    base = dealt(engine, lambda z: z[f"{wolf}_row"]["game"][0] == kind)  # the leftmost
    for leader in (RED, BLUE):  # the row's leading counters to either player
        other = 1 - leader
        sides_ = {leader: red, other: blue}
        state = position(engine, ["midgard", "niflheim", "muspelheim"], game, base=base.clone(), red=sides_[RED], blue=sides_[BLUE])
        state.apply("end_turn")
        state.apply(f"ragnarok_{wolf}")
        assert get(state, "vp", leader) - sides_[leader].get("vp", 0) == 2
        assert get(state, "vp", other) - sides_[other].get("vp", 0) == 0
        # "then discard both Prophecies"
        assert len(row(state, "sun_row")) == len(row(state, "moon_row")) == 4
    # "Award the points shown to the winning player (or neither in the event of a tie)":
    # the same counters for both players
    state = position(engine, ["midgard", "niflheim", "muspelheim"], game, base=base.clone(), red=red, blue=alike(red))
    state.apply("end_turn")
    state.apply(f"ragnarok_{wolf}")
    assert get(state, "vp", RED) - red.get("vp", 0) == 0 and get(state, "vp", BLUE) - red.get("vp", 0) == 0
    assert len(row(state, "sun_row")) == len(row(state, "moon_row")) == 4  # discarded all the same


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("wolf, kind, red, blue", PROPHECIES[:1] + PROPHECIES[5:6], ids=[PROPHECIES[0][1], PROPHECIES[5][1]])
def test_the_prophecy_tie_shares_variant_gives_1_each_on_a_tie(engine, wolf, kind, red, blue) -> None:
    # not the rulebook's rule ("or neither in the event of a tie"): the variant keeps the
    # old FACTS line "1 each on a tie"; the leader still scores 2
    game = {"phase": "activate", "ws" if wolf == "sun" else "wm": 9}
    base = dealt(engine, lambda z: z[f"{wolf}_row"]["game"][0] == kind, variant="prophecy-tie-shares")
    state = position(engine, ["midgard", "niflheim", "muspelheim"], game, base=base.clone(), red=red, blue=alike(red))
    state.apply("end_turn")
    state.apply(f"ragnarok_{wolf}")
    assert get(state, "vp", RED) - red.get("vp", 0) == 1 and get(state, "vp", BLUE) - red.get("vp", 0) == 1
    state = position(engine, ["midgard", "niflheim", "muspelheim"], game, base=base.clone(), red=red, blue=blue)
    state.apply("end_turn")
    state.apply(f"ragnarok_{wolf}")
    assert get(state, "vp", RED) - red.get("vp", 0) == 2 and get(state, "vp", BLUE) - blue.get("vp", 0) == 0


# --------------------------------------------------------------------------- End of the Game


@pytest.mark.parametrize("engine", ENGINES)
def test_nine_points_end_the_game_at_once(engine) -> None:
    # "The game ends immediately when either: a player reaches 9 points"
    state = activation(engine, {"vp": 8, "sun": 1, "odin": 4})
    state.apply("odin_4")
    assert state.is_terminal() and state.winner() == RED


def last_prophecy(engine: str, kind: str):
    """A game after four Ragnaroks, the last Sun prophecy being ``kind``."""
    state = dealt(engine, lambda z: z["sun_row"]["game"][-1] == kind)
    for _ in range(4):
        state = position(engine, ["midgard", "niflheim", "muspelheim"], {"phase": "activate", "ws": 9, "destroyed": destroyed_realms(state)}, base=state)
        state.apply("end_turn")
        state.apply("ragnarok_sun")
        assert not state.is_terminal()
    assert row(state, "sun_row") == [kind] and row(state, "drawn") == []
    assert len(destroyed_realms(state)) == 4  # the four drawn realms are destroyed
    return state


@pytest.mark.parametrize("engine", ENGINES)
def test_the_final_prophecy_ends_the_game(engine) -> None:
    # "... or the final Prophecy has been scored" (5 Sun and 5 Moon prophecies, one pair a
    # Ragnarok: the fifth Ragnarok scores the last; FACTS: 4 Ragnarok tokens, so it
    # destroys nothing)
    state = last_prophecy(engine, "sun_most_gold")
    ruins = destroyed_realms(state)
    state = position(engine, ["midgard", "niflheim", "muspelheim"], {"phase": "activate", "ws": 9, "destroyed": ruins}, base=state, red={"gold": 1}, blue={"vp": 3})
    state.apply("end_turn")
    assert not state.is_terminal()
    state.apply("ragnarok_sun")
    assert state.is_terminal() and destroyed_realms(state) == ruins  # no token left
    assert get(state, "vp", RED) == 2 and state.winner() == BLUE


@pytest.mark.parametrize("engine", ENGINES)
def test_a_tie_on_points_goes_to_the_most_resources(engine) -> None:
    # "In the event of a tie, the player with the most remaining resources is the winner."
    for red_res, winner in (((3, 2), RED), ((1, 1), BLUE)):
        state = position(engine, ["midgard", "niflheim", "muspelheim"], {"phase": "activate", "ws": 9}, base=last_prophecy(engine, "sun_highest_level"), red={"vp": 5, "gold": red_res[0], "mead": red_res[1]}, blue={"vp": 5, "gold": 2, "mead": 2})
        state.apply("end_turn")
        state.apply("ragnarok_sun")  # highest blessing level: a tie, "or neither"
        assert state.is_terminal() and get(state, "vp", RED) == get(state, "vp", BLUE) == 5
        assert state.winner() == winner
