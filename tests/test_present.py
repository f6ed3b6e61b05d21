"""Presentation (``render:`` regions, places, tracks, highlights, labels, internal counters)
and pictures drawn from one seat's observation: structural checks on the SVG, read with
ElementTree (issue 13)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import ROOT
from midgardc.errors import SpecError
from midgardc.render.svg import frame_parts, render_svg
from midgardc.runtime.game import replay
from midgardc.engines import game_from_ir, load
from midgardc.runtime.observe import places
from midgardc.spec.lower import load_game_ir
import yaml

NS = "{http://www.w3.org/2000/svg}"
SPECS = ROOT / "specs"
DATA = ROOT / "tests" / "data"


def _svg(state, viewer=None) -> ET.Element:
    return ET.fromstring(render_svg(state, viewer))


def _texts(root: ET.Element) -> list[str]:
    return ["".join(el.itertext()) for el in root.iter(NS + "text")]


def _play(spec: str, plies: int, seed: int = 3, count=None, pick=lambda i, n: (i * 5) % n):
    game = game_from_ir(load_game_ir(spec, None, count), "interpreted")
    state = game.new_state(seed)
    for i in range(plies):
        if state.is_terminal():
            break
        moves = state.legal_moves()
        state.apply(moves[pick(i, len(moves))])
    return state


# -- regions ---------------------------------------------------------------------------------


@pytest.mark.parametrize("count,islands,capitals", [(4, 13, 7), (3, 11, 5)])
def test_islands_are_outlined_and_labelled_with_their_capitals(count: int, islands: int, capitals: int) -> None:
    """Meridian: "a number of islands with cities"; "Capital cities are indicated by a yellow
    dot" (the spec's scoring areas, weight 2 at a capital, on the side for the count)."""
    state = _play(str(SPECS / "meridian.yaml"), 0, count=count)
    root = _svg(state)
    regions = [g for g in root.iter(NS + "g") if g.get("data-region")]
    assert [g.get("data-region") for g in regions] == [f"island {n}" for n in range(1, islands + 1)]
    for g in regions:
        assert g.find(NS + "path").get("d").startswith("M")  # the outline
        assert [t.text for t in g.iter(NS + "text")] == [g.get("data-region")]  # the label
    stars = [el for el in root.iter(NS + "polygon") if el.get("data-mark") == "capital city"]
    ir = state.game.ir
    assert sorted(el.get("data-at") for el in stars) == sorted(ir.board.cell_names[c] for a in ir.areas for c, w in zip(a.cells, a.weights) if w > 1)
    assert len(stars) == capitals
    # the meridian numbers 1..10 along the bottom edge
    assert [el.text for el in root.iter(NS + "text") if el.get("data-column")] == [str(m) for m in range(1, 11)]


def test_kingdoms_hold_their_provinces_and_the_boat_and_heavens_hold_vikings() -> None:
    state = _play(str(SPECS / "midgard-vikings.yaml"), 0)
    root = _svg(state)
    regions = {g.get("data-region"): g for g in root.iter(NS + "g") if g.get("data-region")}
    assert {"Jotunheim", "Mannheim", "Alfheim", "Utgard", "Vigrid", "Vidblain"} <= set(regions)
    assert regions["Jotunheim"].find(NS + "rect").get("class") == "region outer"
    assert regions["Utgard"].find(NS + "rect").get("class") == "region"
    places_drawn = {g.get("data-place"): g for g in root.iter(NS + "g") if g.get("class") == "place"}
    assert set(places_drawn) == {"boat", "asgard", "vanaheim", "valhalla", "offboard"}
    # "Each player places their Viking leader and five of their Viking warriors on the boat"
    boat = places_drawn["boat"]
    tokens = [(el.get("data-player"), el.get("data-kind"), el.find(NS + "title").text) for el in boat if el.get("data-kind")]
    players = state.game.ir.players
    assert sorted(tokens) == sorted([(p, "warrior", f"{p}: 5 Viking warrior") for p in players] + [(p, "leader", f"{p}: 1 Viking leader") for p in players])
    assert [t for t in _texts(places_drawn["offboard"]) if t.startswith("×")] == ["×6"] * len(players)
    assert "empty" in _texts(places_drawn["valhalla"])


# -- what a seat sees --------------------------------------------------------------------------


def _zone(root: ET.Element, name: str) -> ET.Element:
    return [g for g in root.iter(NS + "g") if g.get("class") == "zone" and g.get("data-place") == name][0]


def test_a_seat_sees_its_hidden_items_and_not_the_others() -> None:
    state = replay(load(str(DATA / "draft.yaml")), ["open", "open"], seed=1)
    for viewer in (0, 1, None):
        root = _svg(state, viewer)
        for zone in ("draft:north", "draft:east"):
            g = _zone(root, zone)
            items = [el.get("data-item") for el in g.iter() if el.get("data-item")]
            owner = ["north", "east"].index(zone.split(":")[1])
            if viewer == owner:
                assert len(items) == 3 and not [el for el in g.iter(NS + "rect") if "back" in el.get("class", "")]
            else:
                assert items == [], (viewer, zone)
                backs = [el for el in g.iter(NS + "rect") if el.get("class") == "card back"]
                assert [b.get("data-count") for b in backs] == ["3"]
        # the stock (visible to nobody) is a back with its count, for everyone
        assert [el.get("data-item") for el in _zone(root, "stock").iter() if el.get("data-item")] == []
    # the seat's own hand shows exactly the items its observation lists
    seen = state.observation(1)["zones"]["draft"]["east"]["items"]
    root = _svg(state, 1)
    assert sorted(el.get("data-item") for el in _zone(root, "draft:east").iter() if el.get("data-item")) == sorted(seen)


def test_hidden_counters_are_question_marks_for_the_others() -> None:
    """Vikings: "Tokens are kept face-down ... your opponents may not" (visible: owner)."""
    state = _play(str(SPECS / "midgard-vikings.yaml"), 0)
    ir = state.game.ir
    for viewer in (0, 1):
        root = _svg(state, viewer)
        rows = {g.get("data-player"): g for g in root.iter(NS + "g") if g.get("class") == "player-row"}
        for p, name in enumerate(ir.players):
            line = [t for t in _texts(rows[name]) if t.startswith("Jotunheim tokens (blue)")]
            assert line == ["Jotunheim tokens (blue): " + ("0" if p == viewer else "?")]


def test_the_spectator_sees_everything_once_the_game_is_over() -> None:
    state = _play(str(DATA / "draft.yaml"), 400)
    assert state.is_terminal()
    over = _svg(state)
    assert not [el for el in over.iter(NS + "rect") if el.get("class") == "card back"]
    shown = sorted(el.get("data-item") for el in over.iter() if el.get("data-item"))
    assert len(shown) == sum(len(p.items) for p in places(state))


def test_internal_counters_are_never_shown() -> None:
    from midgardc.runtime.view import render_text

    for spec in ("midgard-vikings.yaml", "micro-midgard.yaml", "meridian.yaml"):
        state = _play(str(SPECS / spec), 30)
        ir = state.game.ir
        internal = [ir.counters[i] for i in ir.render.present.internal]
        assert internal
        for viewer in (None, 0):
            texts = _texts(_svg(state, viewer))
            labels = [el.get("data-label") or el.get("data-counter") for el in _svg(state, viewer).iter() if el.get("data-label") or el.get("data-counter")]
            for name in internal:
                assert not any(t.startswith(f"{name}:") for t in texts), (spec, name)
                assert name not in labels
        game_line = [ln for ln in render_text(state, color=False).splitlines() if ln.strip().startswith("game:")]
        shown = {part.split()[0] for ln in game_line for part in ln.split(":", 1)[1].split(",")}
        assert not shown & set(internal), spec
        # nor in the players' counters (an internal array: none of its elements; an
        # internal element, warriors[hut]: not in its array's line)
        text = render_text(state, color=False).splitlines()
        heads = {name.split("[", 1)[0] for name in internal}
        whole = {h for h in heads if all(c in internal for c in ir.counters if c.startswith(h + "["))}
        assert not any(ln.strip().split(":", 1)[0] in whole for ln in text), spec
        for name in internal:
            head, _, sub = name[:-1].partition("[")
            if sub and head not in whole:
                lines = [ln.strip().split(":", 1)[1] for ln in text if ln.strip().startswith(f"{head}:")]
                assert lines and not any(part.split()[0] == sub.replace(",", "/") for ln in lines for part in ln.split(",")), (spec, name)
        plain = [ln for ln in text if ln.startswith("      ") and ":" not in ln]
        assert not {part.split()[0] for ln in plain for part in ln.split(",")} & set(internal), spec


def test_tracks_carry_a_marker_per_player_at_its_value() -> None:
    state = _play(str(SPECS / "micro-midgard.yaml"), 40)
    ir = state.game.ir
    root = _svg(state)
    tracks = {g.get("data-track-name"): g for g in root.iter(NS + "g") if g.get("class") == "track-area"}
    assert {"vp", "gold", "mead", "surtr", "buri", "sun_wolf", "moon_wolf"} <= set(tracks)
    data = state.to_json()
    for name, counter in (("gold", "gold"), ("surtr", "level[surtr]"), ("vp", "vp")):
        markers = {el.get("data-marker"): int(el.get("data-value")) for el in tracks[name].iter(NS + "circle")}
        assert markers == {p["name"]: p["counters"][counter] for p in data["players"]}
    wolf = {el.get("data-marker"): int(el.get("data-value")) for el in tracks["sun_wolf"].iter(NS + "circle")}
    assert wolf == {"Skoll": data["counters"]["wolf_at[sun]"], "end": data["counters"]["track_end[sun]"] + 1}
    # the meeples are nobody's ("MOVE an unmarked meeple"): meeple figures drawn in wood,
    # not in red, standing on their realms
    from midgardc.render.svg.common import NEUTRAL_FILL

    meeples = {el.get("data-at"): el for el in root.iter(NS + "g") if el.get("data-figure") == "meeple"}
    assert sorted(meeples) == sorted(c for c, v in data["board"].items() if v is not None)
    assert all(el.get("fill") == NEUTRAL_FILL and el.get("data-player") == "nobody" for el in meeples.values())
    # the player markers: a ring in the player's colour on the meeple it marks
    rings = [el for el in root.iter(NS + "circle") if el.get("data-highlight") == "player marker"]
    assert rings
    for el in rings:
        owner = [p for p in data["players"] if p["counters"]["marker"] == el.get("data-at")]
        assert owner and data["board"][el.get("data-at")] is not None


def test_both_back_ends_draw_the_same_picture() -> None:
    spec = str(SPECS / "micro-midgard.yaml")
    a, b = load(spec, engine="interpreted").new_state(5), load(spec, engine="compiled").new_state(5)
    for i in range(30):
        moves = a.legal_moves()
        move = moves[(i * 3) % len(moves)].text
        a.apply(move)
        b.apply(move)
    for viewer in (None, 0, 1):
        assert render_svg(a, viewer) == render_svg(b, viewer)


def test_frame_parts_join_into_the_picture() -> None:
    state = _play(str(SPECS / "meridian.yaml"), 5)
    assert "".join(frame_parts(state, None, "b")) == render_svg(state, None, "b")


# -- a spec without a presentation -------------------------------------------------------------

# (a spec that extends another is left to the test that lays it beside its base:
# tests/data/position.yaml extends tic-tac-toe.yaml, and a spec extends only its own folder)
PLAIN = sorted(p for p in DATA.glob("*.yaml") if not {"render", "extends"} & set(yaml.safe_load(p.read_text(encoding="utf-8"))))


@pytest.mark.parametrize("spec", PLAIN, ids=[p.stem for p in PLAIN])
def test_a_spec_without_presentation_draws_everything(spec: Path) -> None:
    state = _play(str(spec), 6)
    ir = state.game.ir
    root = _svg(state)
    cells = [el.get("data-cell") for el in root.iter() if el.get("data-cell")]
    assert cells == list(ir.board.cell_names)
    labels = [el.get("data-label") for el in root.iter() if el.get("data-label")]
    for p in range(ir.n_players):
        for k, kind in enumerate(ir.kinds):
            if any(h[k] for h in ir.hand_init):
                assert f"{kind} in hand" in labels
    from midgardc.render.svg.seen import drawn_counters

    trays = drawn_counters(ir)  # (a pool's columns: drawn as its trays, tests/test_pools.py)
    for i in ir.player_counters:
        assert labels.count(ir.counters[i]) == (0 if i in trays else ir.n_players)
    assert sorted(el.get("data-counter") for el in root.iter() if el.get("data-counter")) == sorted(ir.counters[i] for i in ir.game_counters if i not in trays)
    drawn = [el.get("data-place") for el in root.iter(NS + "g") if el.get("class") == "zone"]
    expected = [p.zone + ("" if p.owner < 0 else f":{ir.players[p.owner]}") for p in places(state)]
    assert drawn == expected
    sizes = [int(el.get("data-size")) for el in root.iter(NS + "g") if el.get("class") == "zone"]
    assert sizes == [len(p.items) for p in places(state)]
    if ir.chance is not None and state.roll():
        dice = [el.get("data-face") for el in root.iter(NS + "rect") if el.get("data-die") is not None]
        assert dice == state.roll()


# -- errors -------------------------------------------------------------------------------------

BASE = """\
midgardc: 1
game: {name: plain, players: [a, b]}
pieces: {stone: {hand: 3}}
counters: {points: 0, hour: {start: 1, of: game}}
board: {topology: square, rows: 2, cols: 3}
areas:
  - {name: left, cells: [a1, a2], weights: {a1: 2}}
actions:
  play: {params: {c: cell}, where: empty(c), effects: [{place: {piece: stone, at: c}}], notation: "{c}"}
ranking:
  stones: "count(c in cells: owner(c) == p)"
render:
"""


def _lower(tmp_path: Path, render: str):
    spec = tmp_path / "plain.yaml"
    spec.write_text(BASE + render, encoding="utf-8")
    return load_game_ir(str(spec))


def test_every_construct_lowers(tmp_path: Path) -> None:
    ir = _lower(
        tmp_path,
        """\
  internal: [hour]
  labels: {points: victory points, stone: stone, stones: stones on the board, play: place a stone, play.c: where}
  regions:
    - {label: Row one, cells: ["*1"]}
    - {areas: "area {n} ({name})", starred: capital}
  places:
    pile: {label: Pile, holds: {stone: "hand(p, stone)"}}
  tracks:
    score: {label: Score, spaces: "0..10", each: "points(p)"}
    clock: {spaces: "1..12", markers: {hand: hour}}
  highlight:
    - {label: taken, when: "occupied(c)"}
    - {label: mine, when: "owner(c) == p", of: player}
  hand: false
  neutral: [stone]
""",
    )
    pr = ir.render.present
    assert [ir.counters[i] for i in pr.internal] == ["hour"]
    assert [(r.label, [ir.board.cell_names[c] for c in r.cells]) for r in pr.regions] == [("Row one", ["a1", "b1", "c1"]), ("area 1 (left)", ["a1", "a2"])]
    assert pr.regions[1].marks == ((ir.board.cell_names.index("a1"), "capital"),)
    assert [t.name for t in pr.tracks] == ["score", "clock"] and pr.hide_hand
    state = game_from_ir(ir, "interpreted").new_state(0)
    state.apply("b1")
    root = _svg(state)
    texts = _texts(root)
    assert "score: stones on the board: 1" in texts and not any(t.startswith("hour:") for t in texts)
    assert not any(t.startswith("victory points") for t in texts)  # (drawn on the track instead)
    assert not any("in hand" in t for t in texts)
    assert [el.get("data-at") for el in root.iter(NS + "circle") if el.get("data-highlight") == "taken"] == ["b1"]


def test_board_styles_figures_and_names_lower(tmp_path: Path) -> None:
    """render.board (a lines board with star points, a checkered board's two colours),
    render.figures, and labels for moves and values: the picture draws them."""
    ir = _lower(tmp_path, '  board: {style: lines, ground: "#dcb35c", line: "#3b2f1e", points: [b1, a2]}\n  figures: {stone: stone}\n  labels: {play: place a stone}\n')
    pr = ir.render.present
    assert (pr.board_style, pr.ground, pr.line) == ("lines", "#dcb35c", "#3b2f1e")
    assert [ir.board.cell_names[c] for c in pr.points] == ["b1", "a2"] and pr.figures == ("stone",)
    assert pr.label("play") == "place a stone"
    state = game_from_ir(ir, "interpreted").new_state(0)
    state.apply("b1")
    root = _svg(state)
    assert sorted(el.get("data-point") for el in root.iter(NS + "circle") if el.get("data-point")) == ["a2", "b1"]
    lines = [el for el in root.iter(NS + "line") if el.get("class") == "edge"]
    assert lines and all(el.get("style") == "stroke:#3b2f1e" for el in lines)
    # a point where lines cross is a round target with nothing painted on it (the table
    # shows through); the stone stands on it
    cells = {el.get("data-cell"): el for el in root.iter(NS + "circle") if el.get("data-cell")}
    assert sorted(cells) == sorted(ir.board.cell_names) and cells["a1"].get("style") == "fill:transparent"
    assert [(g.get("data-at"), g.get("data-figure"), g.get("data-player")) for g in root.iter(NS + "g") if g.get("data-figure")] == [("b1", "stone", "a")]
    ir = _lower(tmp_path, '  board: {style: checkered, ground: white, dark: navy}\n')
    assert (ir.render.present.ground, ir.render.present.dark, ir.render.present.figures) == ("#f4f4f4", "#1f3a68", ())
    state = game_from_ir(ir, "interpreted").new_state(0)
    state.apply("a1")
    root = _svg(state)
    ground = {el.get("data-cell"): el.get("style") for el in root.iter() if el.get("data-cell")}
    # the bottom-left square is dark; a piece with no figure is a disc on a checkered board
    assert (ground["a1"], ground["b1"], ground["a2"], ground["b2"]) == ("fill:#1f3a68", "fill:#f4f4f4", "fill:#f4f4f4", "fill:#1f3a68")
    assert [g.get("data-figure") for g in root.iter(NS + "g") if g.get("data-figure")] == ["disc"]


def test_a_figure_per_player(tmp_path: Path) -> None:
    """render.figures: {stone: {a: cross, b: ring}}: each player's stones are drawn as
    that player's figure."""
    ir = _lower(tmp_path, "  figures: {stone: {a: cross, b: ring}}\n")
    assert ir.render.present.seat_figures == (("cross",), ("ring",))
    state = game_from_ir(ir, "interpreted").new_state(0)
    state.apply("a1")
    state.apply("b1")
    root = _svg(state)
    assert {g.get("data-at"): g.get("data-figure") for g in root.iter(NS + "g") if g.get("data-figure")} == {"a1": "cross", "b1": "ring"}


def test_a_named_value_is_shown_by_its_label() -> None:
    """Vikings' phase counter holds a value of the enumeration of its phases: the panel
    writes the rulebook's name of the phase, not the value's name in the spec."""
    state = load(str(SPECS / "midgard-vikings.yaml"), engine="interpreted").new_state(0)
    texts = _texts(_svg(state))
    assert "phase: Doom Phase" in texts and not any("doom_phase" in t for t in texts)


def test_an_array_element_is_named_by_its_arrays_and_its_indexs_labels() -> None:
    """Yahtzee's score card is arrays indexed by box: a line of the panel is the array's
    label with the box's own label ("points [3 of a kind]"), never the spec's names."""
    state = load(str(SPECS / "classics" / "yahtzee.yaml"), engine="interpreted").new_state(0)
    texts = _texts(_svg(state))
    assert "points [3 of a kind]: 0" in texts and "points [ones]: 0" in texts
    assert not any("three_of_a_kind" in t for t in texts)


@pytest.mark.parametrize(
    "render,message,line,col",
    [
        ("  internal: [pionts]\n", "render.internal: unknown counter 'pionts'", 13, 14),
        ("  labels: {stoen: x}\n", "render.labels: 'stoen' names nothing of this spec", 13, 12),
        ("  labels: {play.d: x}\n", "render.labels: 'play.d' names nothing of this spec", 13, 12),
        ("  regions:\n    - {label: x, cells: [z9]}\n", "a region's cells: no cell is called 'z9'", 14, 26),
        ("  regions:\n    - {label: x}\n", "a region needs 'cells' (or 'areas')", 14, 7),
        ("  regions:\n    - {label: x, cells: [a1], starred: c}\n", "'starred' marks the heavier cells", 14, 31),
        ("  regions:\n    - {areas: \"a {m}\"}\n", "an areas label may use {n}", 14, 15),
        ("  places:\n    pile: {holds: {rock: \"1\"}}\n", "place 'pile': unknown piece 'rock'", 14, 20),
        ("  places:\n    pile: {holds: {stone: \"points(q)\"}}\n", "", 14, 0),
        ("  places:\n    pile: {at: z1, holds: {stone: \"1\"}}\n", "place 'pile': no cell is called 'z1'", 14, 16),
        ("  tracks:\n    t: {spaces: \"5..1\", each: \"points(p)\"}\n", "track 't': spaces is a range", 14, 17),
        ("  tracks:\n    t: {spaces: \"0..5\"}\n", "track 't' has no markers", 14, 8),
        ("  tracks:\n    t: {spaces: \"0..5\", each: \"points(p)\", colour: red}\n", "unknown key 'colour' in track 't'", 14, 44),
        ("  highlight:\n    - {when: \"occupied(c)\", of: team}\n", "a highlight is 'of: player'", 14, 33),
        ("  hand: maybe\n", "render.hand must be true or false", 13, 9),
        ("  neutral: [stoen]\n", "render.neutral: unknown piece 'stoen'", 13, 13),
        ("  revealed_at_end: [pionts]\n", "render.revealed_at_end: unknown counter 'pionts'", 13, 21),
        ("  card_text: {stoen: x}\n", "render.card_text: 'stoen' is not an item of this spec", 13, 15),
        ("  card_text: [stone]\n", "render.card_text maps items to the short text on their face", 13, 14),
        ("  board: {style: chequered}\n", "render.board: unknown style 'chequered'", 13, 18),
        ("  board: {style: lines, ground: wood}\n", "render.board.ground: 'wood' is not a colour", 13, 33),
        ("  board: {style: cells, dark: black}\n", "'dark' colours the dark squares of a checkered board", 13, 25),
        ("  board: {style: checkered, line: black}\n", "'line' colours the lines of a lines board", 13, 29),
        ("  board: {style: cells, points: [a1]}\n", "'points' (star points) are marked on a lines board", 13, 25),
        ("  board: {style: lines, points: [z9]}\n", "render.board.points: no cell is called 'z9'", 13, 34),
        ("  board: {ground: white}\n", "render.board needs a 'style' key", 13, 10),
        ("  figures: {stoen: disc}\n", "render.figures: unknown piece 'stoen'", 13, 13),
        ("  figures: {stone: rock}\n", "render.figures: unknown figure 'rock'", 13, 20),
        ("  figures: {stone: {a: cross}}\n", "render.figures: stone has no figure for b (give every player one)", 13, 20),
        ("  figures: {stone: {a: cross, c: ring}}\n", "render.figures: unknown player 'c'", 13, 31),
    ],
)
def test_broken_presentations_are_errors_at_their_place(tmp_path: Path, render: str, message: str, line: int, col: int) -> None:
    with pytest.raises(SpecError) as info:
        _lower(tmp_path, render)
    assert message in info.value.message
    assert info.value.pos.line == line
    if col:
        assert info.value.pos.col == col


# -- cards with a name and a text (render.card_text; issue 26) -------------------------------


def _faces(root: ET.Element, place: str) -> list[tuple[str, list[str], list[str], list[str]]]:
    """Each card of ``place`` drawn with a face: (data-item, name lines, code, text lines)."""
    out = []
    for card in _zone(root, place).iter(NS + "g"):
        if card.get("class") == "item face":
            lines = {cls: ["".join(t.itertext()) for t in card.iter(NS + "text") if t.get("class") == cls] for cls in ("card-name", "card-code", "card-rule")}
            out.append((card.get("data-item"), lines["card-name"], lines["card-code"], lines["card-rule"]))
    return out


def test_a_card_shows_its_name_its_code_and_its_text_wrapped_to_its_width() -> None:
    """tests/data/cards.yaml names four of its cards and gives every card a text: each face-up
    card is drawn with its name (the move's code in its corner, where the name differs), and
    its text in lines that fit the card; "1-2", unnamed, is named by its code alone."""
    from midgardc.render.svg.cards import FACE_COLUMNS, PAD, RULE_CHAR
    from midgardc.render.svg.common import PANEL_WIDTH

    state = _play(str(DATA / "cards.yaml"), 3)
    root = _svg(state, 0)
    width = (PANEL_WIDTH - 16 - 3 * (FACE_COLUMNS - 1)) / FACE_COLUMNS
    faces = _faces(root, "up:red") + _faces(root, "discard:red") + _faces(root, "up:blue")
    assert len(faces) >= 4
    names = {"1": "First column", "2": "Second column", "3": "Third column", "4": "Fourth column", "1-2": "1-2"}
    for item, name, code, rule in faces:
        assert " ".join(name) == names[item]
        assert code == ([] if item == "1-2" else [item])
        assert " ".join(rule).startswith("Place a stone on an empty cell of the") and rule[-1].endswith("or discard it.")
        assert len(rule) >= 2 and all(len(line) * RULE_CHAR <= width - 2 * PAD for line in rule)
    # a card's rect is as wide as the text was wrapped for, and cards of a row are as tall
    rects = [r for r in _zone(root, "up:red").iter(NS + "rect") if r.get("class") == "card"]
    assert {float(r.get("width")) for r in rects} == {round(width, 1)} and len({r.get("height") for r in rects}) == 1


def test_a_hidden_card_shows_no_name_nor_text() -> None:
    """A deck nobody sees is a back with its count: no card's name or text reaches the page."""
    state = _play(str(DATA / "cards.yaml"), 0)
    root = _svg(state, 1)
    deck = _zone(root, "deck:red")
    assert not _faces(root, "deck:red") and "Place a stone" not in "".join(deck.itertext())
    assert [r.get("data-count") for r in deck.iter(NS + "rect") if r.get("class") == "card back"] == [deck.get("data-size")]


def test_card_texts_that_do_not_fit_a_card_are_errors(tmp_path: Path) -> None:
    text = (DATA / "cards.yaml").read_text(encoding="utf-8")
    spec = tmp_path / "long.yaml"
    spec.write_text(text.replace("    low: \"Place", "    low: \"" + "very " * 50 + "Place"), encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_game_ir(str(spec))
    assert "render.card_text: the text of 'low' is 1 to 200 characters" in info.value.message and info.value.pos.line > 60


def test_every_vikings_card_has_a_name_and_a_text_from_the_rulebook() -> None:
    """Issue 26: "cards are bare codes (InvA, G14) with no name or text". Every card of the
    three decks has a name and a text; a doom token (a token, not a card) a name; moves still
    write the codes."""
    ir = load_game_ir(str(SPECS / "midgard-vikings.yaml"))
    pr = ir.render.present
    for name, code in zip(ir.item_names, ir.item_texts):
        assert pr.item_label(name, code) != code, name
        assert bool(pr.card_text(name)) != name.startswith("doom_"), name
    assert pr.item_label("inv_alfheim", "InvA") == "Invasion: Alfheim" and pr.item_label("recruit_card_mannheim", "G14") == "New Warriors: Mannheim"
    state = _play(str(SPECS / "midgard-vikings.yaml"), 60)
    root = _svg(state, 0)
    played = [f for p in ir.players for f in _faces(root, f"played:{p}")]
    assert played and all(code == [item] and name and rule for item, name, code, rule in played)
