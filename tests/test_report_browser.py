"""The HTML report in a real headless browser: Debian's chromium driven by selenium through
/usr/bin/chromedriver (never Selenium Manager, which would download a browser). Choosing a
game and stepping through it must change the board, the ply counter and the highlighted
move, going back must restore them, and the page must log no JavaScript errors."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import MIDGARD, ROOT
from midgardc.cli import cli

TTT = str(ROOT / "specs" / "classics" / "tic-tac-toe.yaml")
CHROMEDRIVER = os.environ.get("MIDGARDC_CHROMEDRIVER") or shutil.which("chromedriver") or "/usr/bin/chromedriver"
CHROMIUM = os.environ.get("MIDGARDC_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[test]')")
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402


def _missing() -> str:
    gone = [p for p in (CHROMIUM, CHROMEDRIVER) if not (os.path.isfile(p) and os.access(p, os.X_OK))]
    return ", ".join(gone)


pytestmark = pytest.mark.skipif(
    bool(_missing()),
    reason=f"headless browser test skipped: {_missing()} not found (install Debian's chromium and chromium-driver; `make test` does when it can)",
)


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> Path:
    """A report over tic-tac-toe, Midgard and graph-board games (one record, three groups)."""
    from test_svg import GRAPH_SPEC, PLACED_NODES

    tmp = tmp_path_factory.mktemp("browser")
    ring = tmp / "ring.yaml"
    ring.write_text(GRAPH_SPEC.format(nodes=PLACED_NODES))
    lines = []
    for spec, games, extra in ((TTT, 4, ()), (MIDGARD, 2, ("--variant", "mere-mortal")), (str(ring), 1, ())):
        record = tmp / f"{Path(spec).stem}.jsonl"
        result = CliRunner().invoke(cli, ["match", spec, "-p", "random,greedy", "-n", str(games), "--seed", "9", "--engine", "interpreted", "--record", str(record), *extra])
        assert result.exit_code == 0, result.output
        lines += [json.loads(x) for x in record.read_text().splitlines()]
    both = tmp / "both.jsonl"
    both.write_text("".join(json.dumps(x) + "\n" for x in lines))
    out = tmp / "report.html"
    result = CliRunner().invoke(cli, ["report", str(both), "--html", str(out), "--engine", "interpreted"])
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1400,1200"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def _cells(driver, board: str) -> dict[str, str]:
    return driver.execute_script(
        "var out = {}; document.querySelectorAll('#' + arguments[0] + ' [data-cell]').forEach(function (e) {"
        " out[e.getAttribute('data-cell')] = e.getAttribute('class') + '|' + e.getAttribute('fill'); }); return out;",
        board,
    )


def _ply(driver) -> int:
    return int(driver.find_element(By.ID, "ply").text)


def _current(driver) -> list[str]:
    return [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#move-list li.current")]


def test_step_through_a_replay(browser, page: Path) -> None:
    browser.get(page.as_uri())
    assert browser.find_elements(By.CSS_SELECTOR, "svg.seat-chart") and browser.find_elements(By.CSS_SELECTOR, "svg.length-histogram")
    assert len(browser.find_elements(By.CSS_SELECTOR, "svg.seat-chart .chart-bar")) >= 2
    select = Select(browser.find_element(By.ID, "game-select"))
    assert len(select.options) == 7
    # a Midgard game (the fifth option): its board shows, the tic-tac-toe one hides
    select.select_by_index(4)
    midgard = browser.find_element(By.ID, "board-1")
    assert midgard.is_displayed() and not browser.find_element(By.ID, "board-0").is_displayed()
    moves = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#move-list li")]
    assert len(moves) > 10 and _ply(browser) == 0 and _current(browser) == []
    start = _cells(browser, "board-1")
    assert len(start) == 124 and all(v.startswith("cell s") for v in start.values())  # all ice
    seen = [start]
    for step in range(1, 6):
        browser.find_element(By.ID, "next").click()
        assert _ply(browser) == step
        assert _current(browser) == [moves[step - 1]]
        now = _cells(browser, "board-1")
        changed = {c for c in now if now[c] != seen[-1][c]}
        assert moves[step - 1] in changed  # the cell just played changed
        assert now[moves[step - 1]].startswith("cell p")  # and now holds a tile
        seen.append(now)
    status = browser.find_element(By.ID, "status").text
    assert "to move (move 6)" in status
    browser.find_element(By.ID, "prev").click()
    browser.find_element(By.ID, "prev").click()
    assert _ply(browser) == 3 and _current(browser) == [moves[2]] and _cells(browser, "board-1") == seen[3]
    browser.find_element(By.ID, "first").click()
    assert _ply(browser) == 0 and _cells(browser, "board-1") == start
    browser.find_element(By.ID, "last").click()
    assert _ply(browser) == len(moves) and "game over" in browser.find_element(By.ID, "status").text
    # keyboard: the left arrow steps back
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    assert _ply(browser) == len(moves) - 1 and _current(browser) == [moves[-2]]
    # the tracks follow the ply: tiles in hand at the start are the spec's 70
    browser.find_element(By.ID, "first").click()
    tracks = [e.text for e in midgard.find_elements(By.CSS_SELECTOR, "[data-track]")]
    assert "tile in hand: 70" in tracks
    # a tic-tac-toe game: clicking a move in the list jumps there
    select.select_by_index(0)
    ttt_moves = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#move-list li")]
    browser.find_elements(By.CSS_SELECTOR, "#move-list li")[2].click()
    assert _ply(browser) == 3 and _current(browser) == [ttt_moves[2]]
    marks = _cells(browser, "board-0")
    assert sorted(c for c, v in marks.items() if v.startswith("cell p")) == sorted(ttt_moves[:3])
    # a graph board: the nodes (circles) take their owner's class move by move
    select.select_by_index(6)
    assert browser.find_element(By.ID, "board-2").is_displayed()
    ring_moves = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#move-list li")]
    assert all(v == "cell empty|#ffffff" for v in _cells(browser, "board-2").values())
    browser.find_element(By.ID, "next").click()
    browser.find_element(By.ID, "next").click()
    nodes = _cells(browser, "board-2")
    assert nodes[ring_moves[0]].startswith("cell p0 player-a|") and nodes[ring_moves[1]].startswith("cell p1 player-b|")
    assert browser.execute_script("return document.querySelectorAll('#board-2 circle[data-cell]').length") == 4
    errors = [entry for entry in browser.get_log("browser") if entry.get("level") == "SEVERE"]
    assert errors == []
