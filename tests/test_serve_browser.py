"""``midgardc serve`` in a real headless browser (Debian's chromium through selenium, as the
report's browser test drives it): whole games played by clicks against a random bot, for
Midgard (every move one click on the board) and Meridian (a card game: a click on a cell,
then a button for the card and height; passes are buttons), while a recorder in the app
keeps every response the seat's page received, which must never hold what the seat may not
see. The two games took 6 s (Midgard) and 10 s (Meridian) on the 2-core machine
while it was busy (load average 15), 2026-11-23.

``make screenshots`` runs this module with MIDGARDC_SCREENSHOTS=DIR: then
``test_screenshots`` plays each seed spec and variant to mid-game by clicks and writes
DIR/<spec>[-<variant>].png (it is skipped otherwise)."""

from __future__ import annotations

import logging
import os
import random
import threading
import time
from pathlib import Path
from typing import Callable, Optional

import pytest

from conftest import ROOT
from test_report_browser import CHROMEDRIVER, CHROMIUM, _missing

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[test]')")
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from midgardc.players import PlayerSpec, parse_player  # noqa: E402
from midgardc.engines import load  # noqa: E402
from midgardc.web.app import create_app  # noqa: E402
from midgardc.web.session import Session  # noqa: E402
from midgardc.web.views import result_payload  # noqa: E402

pytestmark = pytest.mark.skipif(
    bool(_missing()),
    reason=f"headless browser test skipped: {_missing()} not found (install Debian's chromium and chromium-driver; `make test` does when it can)",
)

SCREENSHOTS = os.environ.get("MIDGARDC_SCREENSHOTS")
logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1500,1100"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


class Served:
    """A session on a real socket, in a thread; every JSON answer to ``watched`` is kept."""

    def __init__(self, session: Session, watched: int = 0):
        from werkzeug.serving import make_server

        self.session = session
        self.sent: list[tuple[str, dict]] = []
        app = create_app(session)
        prefix = session.seat_path(watched)

        @app.after_request
        def keep(response):
            from flask import request

            if request.path.startswith(prefix) and response.is_json:
                self.sent.append((request.path, response.get_json()))
            return response

        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.base = f"http://127.0.0.1:{self.server.server_port}"

    def url(self, seat: int) -> str:
        return self.base + self.session.seat_path(seat)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _session(spec: str, players: str, seed: int, variant: Optional[str] = None, count: Optional[int] = None) -> Session:
    seats = [PlayerSpec("human") if p == "human" else parse_player(p) for p in players.split(",")]
    game = load(str(ROOT / "specs" / spec), variant, engine="compiled", n_players=count or None)  # cached by content hash
    return Session(game, str(ROOT / "specs" / spec), seats, seed=seed)


# what the page shows, in one round trip (selenium calls are the cost of these tests)
PAGE = """var b = document.body, all = function (q) { return Array.prototype.slice.call(document.querySelectorAll(q)); };
return {step: b.getAttribute('data-step'), busy: b.getAttribute('data-busy') === '1', turn: b.getAttribute('data-your-turn') === '1',
  over: b.getAttribute('data-over') === '1', chosen: all('#board .chosen').length, hint: document.getElementById('hint').textContent,
  cells: all('#board [data-cell].target, #board [data-cell].movable').map(function (e) { return e.getAttribute('data-cell'); }),
  choices: all('#choices button.choice').map(function (e) { return e.getAttribute('data-move'); }),
  others: all('#other-moves button').map(function (e) { return e.getAttribute('data-move'); })};"""


def _page(driver) -> dict:
    return driver.execute_script(PAGE)


def _wait(driver, ready: Callable[[dict], bool]) -> dict:
    """The page once ``ready`` holds for it (checked every 20 ms, 30 s at most)."""
    return WebDriverWait(driver, 30, poll_frequency=0.02).until(lambda d: (lambda p: p if ready(p) else False)(_page(d)))


def click_a_move(driver, rng: random.Random) -> str:
    """Play one legal move by clicks: cells while the page highlights some (a random
    highlighted one each time), then a button; returns how (for messages)."""
    page = _page(driver)
    step = page["step"]
    how: list[str] = []
    for _ in range(12):
        if page["step"] != step:
            return " ".join(how)
        cells, choices, others = page["cells"], page["choices"], page["others"]
        if cells and not (choices and rng.random() < 0.5) and not (others and not how and rng.random() < 0.2):
            cell = rng.choice(cells)
            how.append(cell)
            driver.find_element(By.CSS_SELECTOR, f'#board [data-cell="{cell}"]').click()
        elif choices or others:
            where, move = ("choices", rng.choice(choices)) if choices else ("other-moves", rng.choice(others))
            how.append(f"[{move}]")
            driver.find_element(By.CSS_SELECTOR, f'#{where} button[data-move="{move}"]').click()
        else:
            raise AssertionError(f"nothing to click at step {step}: {page['hint']!r}")
        page = _wait(driver, lambda p: not p["busy"] and (p["step"] != step or p["chosen"] or p["choices"]))
    raise AssertionError(f"no move after clicking {how} at step {step}")


def play_by_clicks(driver, url: str, rng: random.Random, stop: Callable[[], bool] = lambda: False) -> int:
    """Play seat's moves by clicks until the game is over (or ``stop``); returns the clicks' moves."""
    driver.get(url)
    moves = 0
    while not _wait(driver, lambda p: p["turn"] or p["over"])["over"] and not stop():
        click_a_move(driver, rng)
        moves += 1
    return moves


def _severe(driver) -> list:
    return [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]


def _check_private(served: Served, seat: int) -> None:
    """Every state the page got is the one the seat's observation allows (see test_serve)."""
    from test_serve import assert_only_observation

    assert served.sent
    for path, payload in served.sent:
        assert_only_observation(served.session, seat, payload)


def test_midgard_by_clicks(browser) -> None:
    session = _session("midgard.yaml", "human,random", seed=3)
    served = Served(session)
    try:
        moves = play_by_clicks(browser, served.url(0), random.Random(1))
        assert session.state.is_terminal() and moves >= 10
        assert browser.find_element(By.ID, "result").is_displayed()
        assert browser.find_element(By.ID, "result").text == f"{result_payload(session)['text']} ({session.state.ply()} moves)"
        assert len(browser.find_elements(By.CSS_SELECTOR, "#history li")) == len(session.state.history)
        assert _severe(browser) == []
    finally:
        served.close()


def test_meridian_by_clicks_sends_only_the_seats_view(browser) -> None:
    session = _session("meridian.yaml", "human,random", seed=5, count=2)
    served = Served(session, watched=0)
    try:
        rng = random.Random(2)
        played = [0]

        def three() -> bool:
            played[0] += 1
            return played[0] > 3

        moves = play_by_clicks(browser, served.url(0), rng, stop=three)
        # mid-game the page draws each hidden deck as a back with a count, never its order
        backs = [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".item.back")]
        assert len(backs) == 2 and all(b.endswith(" hidden") for b in backs), backs
        moves += play_by_clicks(browser, served.url(0), rng)  # (the page is loaded again)
        assert session.state.is_terminal() and moves >= 10
        text = browser.find_element(By.ID, "result").text
        assert text.startswith(result_payload(session)["text"]) and ("wins" in text or "share first place" in text or "draw" in text)
        _check_private(served, 0)
        assert _severe(browser) == []
    finally:
        served.close()


# -- screenshots (make screenshots) ---------------------------------------------------------

SHOTS = [
    ("midgard.yaml", None, None),
    ("midgard.yaml", "mere-mortal", None),
    ("midgard.yaml", "odin", None),
    ("midgard.yaml", "loki", None),
    ("magic-mids.yaml", None, None),
    ("meridian.yaml", None, 2),
    ("midgard-vikings.yaml", None, None),
    ("midgard-vikings.yaml", "two-players", None),
    ("micro-midgard.yaml", None, None),
    ("micro-midgard.yaml", "prophecy-tie-shares", None),
]


@pytest.mark.skipif(not SCREENSHOTS, reason="screenshots only with MIDGARDC_SCREENSHOTS=DIR (make screenshots)")
@pytest.mark.parametrize("spec,variant,count", SHOTS, ids=[f"{s[:-5]}{'-' + v if v else ''}" for s, v, _ in SHOTS])
def test_screenshots(browser, spec: str, variant: Optional[str], count: Optional[int]) -> None:
    """Play the spec by clicks against random bots to mid-game (half a random game's length
    of the human's moves, at most 60) and save the page."""
    from midgardc.engines import load as load_game

    game = load_game(str(ROOT / "specs" / spec), variant, engine="compiled", n_players=count)
    n = game.ir.n_players
    probe = game.new_state(7)
    rng = random.Random(7)
    while not probe.is_terminal():  # a random game's length, to stop half way
        if probe.is_chance_node():
            probe.sample_chance()
        else:
            ids = probe.legal_move_ids()
            probe.apply_unchecked(ids[rng.randrange(len(ids))])
    mine = min(60, probe.ply() // (2 * n))
    session = _session(spec, ",".join(["human"] + ["random"] * (n - 1)), seed=7, variant=variant, count=count)
    served = Served(session)
    try:
        played = [0]

        def enough() -> bool:
            played[0] += 1
            return played[0] > mine

        play_by_clicks(browser, served.url(0), random.Random(7), stop=enough)
        time.sleep(0.2)
        out = Path(SCREENSHOTS)
        out.mkdir(parents=True, exist_ok=True)
        name = spec[:-5] + (f"-{variant}" if variant else "")
        height = browser.execute_script("return Math.max(document.body.scrollHeight, document.documentElement.scrollHeight)")
        browser.set_window_size(1500, max(900, min(int(height) + 40, 2400)))
        browser.execute_script("window.scrollTo(0, 0)")
        browser.save_screenshot(str(out / f"{name}.png"))
        browser.set_window_size(1500, 1100)
    finally:
        served.close()


def test_a_two_cell_move_is_built_click_by_click(browser) -> None:
    """Breakthrough's moves are paths (`a2-a3`): a first click highlights only where that
    piece may go, a second click plays it."""
    session = _session("classics/breakthrough.yaml", "human,random", seed=1)
    served = Served(session)
    try:
        browser.get(served.url(0))
        page = _wait(browser, lambda p: p["turn"])
        legal = [m.text for m in session.state.legal_moves()]
        starts = sorted({m.split("-")[0] for m in legal})
        assert sorted(page["cells"]) == starts
        source = starts[0]
        browser.find_element(By.CSS_SELECTOR, f'#board [data-cell="{source}"]').click()
        page = _page(browser)
        assert page["chosen"] == 1 and sorted(page["cells"]) == sorted(m.split("-")[1] for m in legal if m.startswith(source + "-"))
        step = page["step"]
        target = page["cells"][0]
        browser.find_element(By.CSS_SELECTOR, f'#board [data-cell="{target}"]').click()
        _wait(browser, lambda p: p["step"] != step and not p["busy"])
        assert session.game.move_text(session.state.history[0]) == f"{source}-{target}"
        assert _severe(browser) == []
    finally:
        served.close()


def test_a_multi_jump_is_built_click_by_click(browser) -> None:
    """Draughts: a multi-jump is one move (c3xe5xc7 or c3xe5xg7 here). Clicking the man
    highlights the first landing square, clicking it highlights where the man may jump on,
    and the move is sent once the last landing square is clicked."""
    from test_draughts import position

    session = _session("classics/draughts.yaml", "human,random", seed=1)
    session.state = position(session.game, {"c3": "b", "d4": "w", "d6": "w", "f6": "w", "a7": "w"}, "black")
    served = Served(session)
    try:
        browser.get(served.url(0))
        page = _wait(browser, lambda p: p["turn"])
        assert page["cells"] == ["c3"]
        step = page["step"]
        for cell, then in (("c3", ["e5"]), ("e5", ["c7", "g7"])):
            browser.find_element(By.CSS_SELECTOR, f'#board [data-cell="{cell}"]').click()
            page = _page(browser)
            assert sorted(page["cells"]) == then and page["step"] == step and page["choices"] == []
        assert page["chosen"] == 2
        browser.find_element(By.CSS_SELECTOR, '#board [data-cell="g7"]').click()
        _wait(browser, lambda p: p["step"] != step and not p["busy"])
        assert session.state.to_json()["moves"][0] == "c3xe5xg7"
        assert _severe(browser) == []
    finally:
        served.close()


def test_the_board_shows_before_the_compiled_engine_and_the_game_moves_over(browser) -> None:
    """An engine still building (a builder held back by the test): the page draws the board
    and says so; once it is ready the note goes, and the game played by clicks is the same
    on the interpreter (its moves replayed there reach the same position)."""
    from midgardc.engine_switch import BUILDING, open_switching, replay_drawn, same_position
    from midgardc.engines import game_from_ir
    from midgardc.spec.lower import load_game_ir

    spec = str(ROOT / "specs" / "classics" / "tic-tac-toe.yaml")
    ir = load_game_ir(spec)
    gate = threading.Event()

    def held(ir):
        game = game_from_ir(ir, "compiled")  # cached by content
        assert gate.wait(600)
        return game

    game, pending = open_switching(ir, "compiled", held)
    session = Session(game, spec, [PlayerSpec("human"), parse_player("random")], seed=4, pending=pending)
    served = Served(session)
    try:
        browser.get(served.url(0))
        _wait(browser, lambda p: p["turn"])
        note = browser.find_element(By.ID, "engine-note")
        assert note.is_displayed() and note.text == BUILDING
        assert browser.find_elements(By.CSS_SELECTOR, "#board svg [data-cell]")  # the board, drawn
        click_a_move(browser, random.Random(3))
        gate.set()
        assert pending.wait(600)
        WebDriverWait(browser, 30, poll_frequency=0.05).until(lambda d: not d.find_element(By.ID, "engine-note").is_displayed())
        play_by_clicks(browser, served.url(0), random.Random(4))
        assert session.state.is_terminal() and session.game.engine_name == "compiled"
        alone = replay_drawn(game_from_ir(ir, "interpreted"), session.state.history, session.game_seed)
        assert same_position(session.state, alone)
        assert _severe(browser) == []
    finally:
        served.close()
