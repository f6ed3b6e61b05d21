"""Every piece stands out from every cell it can stand on (issue 26): for every spec in
specs/ and its variants, each player's colour (and the wood of pieces that are nobody's)
against each ground colour of the board (an empty cell; both squares of a checkered
board; a lines board's wood) has a WCAG contrast ratio of at least 3, by its fill or by
the outline the picture gives it. The ratio is computed here from the WCAG definition,
independently of midgardc.ir.colours, and the pictures are checked to paint what the
rule says."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import ROOT
from midgardc.engines import game_from_ir
from midgardc.render.svg import render_svg
from midgardc.render.svg.board import grounds
from midgardc.render.svg.common import NEUTRAL_FILL, player_fills
from midgardc.render.svg.figures import outline
from midgardc.render.svg.seen import present_of
from midgardc.spec.lower import list_variants, load_game_ir

NS = "{http://www.w3.org/2000/svg}"
SPECS = sorted((ROOT / "specs").rglob("*.yaml"))
TARGETS = [(spec, v) for spec in SPECS for v in [None, *list_variants(str(spec))]]
IDS = [f"{s.stem}-{v or 'base'}" for s, v in TARGETS]
MIN = 3.0  # WCAG 2.1 success criterion 1.4.11 (non-text contrast): 3:1 for graphical objects


def relative_luminance(colour: str) -> float:
    """WCAG 2.1 relative luminance (https://www.w3.org/TR/WCAG21/#dfn-relative-luminance):
    each sRGB channel c = v / 255 becomes c / 12.92 if c <= 0.04045, else
    ((c + 0.055) / 1.055) ** 2.4; L = 0.2126 R + 0.7152 G + 0.0722 B."""
    channels = []
    for i in (1, 3, 5):
        c = int(colour[i : i + 2], 16) / 255
        channels.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    r, g, b = channels
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: str, b: str) -> float:
    """WCAG 2.1 contrast ratio (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio):
    (L1 + 0.05) / (L2 + 0.05), L1 the lighter colour's relative luminance."""
    hi, lo = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_the_formula_gives_the_known_ratios() -> None:
    """Black on white is 21:1, a colour on itself 1:1, and #767676 on white about 4.54
    (the well-known lightest grey that passes AA for text)."""
    assert contrast_ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast_ratio("#7b241c", "#7b241c") == pytest.approx(1.0)
    assert contrast_ratio("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)


def _piece_colours(ir) -> list[str]:
    fills = list(player_fills(ir))
    if present_of(ir).neutral:
        fills.append(NEUTRAL_FILL)
    return fills


@pytest.mark.parametrize("spec,variant", TARGETS, ids=IDS)
def test_every_piece_colour_stands_out_on_every_ground(spec: Path, variant) -> None:
    ir = load_game_ir(str(spec), variant)
    weak = []
    for fill in _piece_colours(ir):
        for ground in grounds(ir):
            line = outline(fill, ground)
            best = max(contrast_ratio(fill, ground), contrast_ratio(line, ground))
            if best < MIN:
                weak.append((fill, ground, line, round(best, 2)))
    assert not weak, weak


def _ground_of(el: ET.Element) -> str:
    return el.get("style").split(";")[0].removeprefix("fill:")


@pytest.mark.parametrize("spec,variant", TARGETS, ids=IDS)
def test_pictures_paint_pieces_as_the_rule_says(spec: Path, variant) -> None:
    """In a picture after a few random moves, every piece drawn as a figure is outlined as
    ``outline`` says for the ground of its cell, and every piece that fills its cell and
    alone would not stand out from an empty cell carries that outline."""
    ir = load_game_ir(str(spec), variant)
    state = game_from_ir(ir, "interpreted").new_state(3)
    rng = random.Random(5)
    for _ in range(12):
        if state.is_terminal():
            break
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    root = ET.fromstring(render_svg(state))
    cells = {el.get("data-cell"): el for el in root.iter() if el.get("data-cell")}
    board = state.to_json()["board"]
    ground = (present_of(ir).ground or "#ffffff")
    for g in root.iter(NS + "g"):
        if not g.get("data-figure"):
            continue
        cell = cells[g.get("data-at")]
        under = ground if present_of(ir).board_style == "lines" else _ground_of(cell)
        assert g.get("stroke") == outline(g.get("fill"), under)
        assert max(contrast_ratio(g.get("fill"), under), contrast_ratio(g.get("stroke"), under)) >= MIN
    figured = {g.get("data-at") for g in root.iter(NS + "g") if g.get("data-figure")}
    for name, el in cells.items():
        if board[name] is None or name in figured:
            continue
        fill = _ground_of(el) if el.get("style") else el.get("fill")
        if contrast_ratio(fill, ground) < MIN:
            assert f"stroke:{outline(fill, ground)}" in el.get("style", ""), name


def test_white_stones_on_the_wooden_board_are_outlined() -> None:
    """Issue 26: Go's white stones were #f4f4f4 on white, nearly invisible. On the wooden
    board they are outlined in a dark line."""
    ir = load_game_ir(str(ROOT / "specs" / "classics" / "go.yaml"))
    state = game_from_ir(ir, "interpreted").new_state(0)
    state.apply(state.legal_moves()[0])
    state.apply(state.legal_moves()[0])
    root = ET.fromstring(render_svg(state))
    stones = {g.get("data-player"): g for g in root.iter(NS + "g") if g.get("data-figure") == "stone"}
    white = stones["white"]
    assert contrast_ratio(white.get("fill"), present_of(ir).ground) < MIN  # the fill alone: too faint
    assert contrast_ratio(white.get("stroke"), present_of(ir).ground) >= MIN
