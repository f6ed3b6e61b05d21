"""``midgardc serve`` in a real headless browser (Debian's chromium through selenium, as the
report's browser test drives it): whole games played by clicks against a random bot, for
Midgard (every move one click on the board) and Meridian (a card game: a click on a cell,
then a button for the card and height; passes are buttons), while a recorder in the app
keeps every response the seat's page received, which must never hold what the seat may not
see. The two games took 6 s (Midgard) and 10 s (Meridian) on the 2-core machine
while it was busy (load average 15), 2026-11-23. (``make screenshots``: test_screenshots.py.)"""

from __future__ import annotations

import logging
import random
import threading
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

            if (request.path.startswith(prefix) or request.path.startswith("/watch")) and response.is_json:
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
  thinking: b.getAttribute('data-thinking') === '1', message: document.getElementById('message').textContent,
  cells: all('#board [data-cell].target, #board [data-cell].movable').map(function (e) { return e.getAttribute('data-cell'); }),
  choices: all('#choices button.choice').map(function (e) { return e.getAttribute('data-move'); }),
  others: all('#other-moves button.other').map(function (e) { return e.getAttribute('data-move'); }),
  picks: all('#choices button.pick, #other-moves button.pick').map(function (e) { return [e.parentNode.parentNode.id, e.getAttribute('data-group'), e.getAttribute('data-value')]; }),
  controls: all('#choices button, #choices input, #choices select').length,
  last: all('#board .last-move').map(function (e) { return e.getAttribute('data-at'); }),
  removed: all('#board .removed-piece').map(function (e) { return e.getAttribute('data-at'); })};"""


def _page(driver) -> dict:
    return driver.execute_script(PAGE)


def _wait(driver, ready: Callable[[dict], bool]) -> dict:
    """The page once ``ready`` holds for it (checked every 20 ms, 30 s at most)."""
    return WebDriverWait(driver, 30, poll_frequency=0.02).until(lambda d: (lambda p: p if ready(p) else False)(_page(d)))


def _click_pick(driver, where: str, group: str, value: str) -> None:
    driver.find_element(By.CSS_SELECTOR, f'#{where} button.pick[data-group="{group}"][data-value="{value}"]').click()


def click_a_move(driver, rng: random.Random) -> str:
    """Play one legal move by clicks: cells while the page highlights some (a random
    highlighted one each time), then the controls that tell the moves left apart (a random
    value of a picker, or a button that plays a move); returns how (for messages)."""
    page = _page(driver)
    step = page["step"]
    how: list[str] = []
    for _ in range(12):
        if page["step"] != step:
            return " ".join(how)
        cells, choices, others, picks = page["cells"], page["choices"], page["others"], page["picks"]
        buttons = choices + others + picks
        if cells and not (buttons and rng.random() < 0.5) and not ((others or picks) and not how and rng.random() < 0.2):
            cell = rng.choice(cells)
            how.append(cell)
            driver.find_element(By.CSS_SELECTOR, f'#board [data-cell="{cell}"]').click()
        elif picks and not (choices or others):
            where, group, value = rng.choice(picks)
            how.append(f"{group}={value}")
            _click_pick(driver, where, group, value)
        elif choices or others:
            where, move = ("choices", rng.choice(choices)) if choices else ("other-moves", rng.choice(others))
            how.append(f"[{move}]")
            driver.find_element(By.CSS_SELECTOR, f'#{where} button[data-move="{move}"]').click()
        else:
            raise AssertionError(f"nothing to click at step {step}: {page['hint']!r}")
        page = _wait(driver, lambda p: not p["busy"] and (p["step"] != step or p["chosen"] or p["choices"] or p["picks"] or p["others"]))
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


def _fresh(driver) -> None:
    """A blank page and an empty log: what an earlier test's page said after its server
    stopped (a poll that failed) is not this test's."""
    driver.get("about:blank")
    driver.get_log("browser")


def _check_private(served: Served, seat: int) -> None:
    """Every state the page got is the one the seat's observation allows (see test_serve);
    every earlier position it was shown (review) is drawn as the seat saw it then; the
    spectator's page was sent only what is public."""
    from test_serve import assert_only_observation, assert_only_public, assert_review_private

    assert served.sent
    for path, payload in served.sent:
        if path.startswith("/watch"):
            (assert_review_private(served.session, -1, payload) if "/at/" in path else assert_only_public(served.session, payload))
        elif "/at/" in path:
            assert_review_private(served.session, seat, payload)
        else:
            assert_only_observation(served.session, seat, payload)


def test_midgard_by_clicks(browser) -> None:
    session = _session("midgard.yaml", "human,random", seed=3)
    served = Served(session)
    try:
        moves = play_by_clicks(browser, served.url(0), random.Random(1))
        assert session.state.is_terminal() and moves >= 10
        assert browser.find_element(By.ID, "result").is_displayed()
        assert browser.find_element(By.ID, "result-text").text == result_payload(session)["headline"]
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
        text = browser.find_element(By.ID, "result-text").text
        assert text.startswith(result_payload(session)["headline"]) and ("wins" in text or "share first place" in text or "draw" in text)
        _check_private(served, 0)
        assert _severe(browser) == []
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


# -- what happened, who is thinking, choices, table controls, the narrow page (issue 26) ----


def _held_bot(session: Session, seat: int):
    """The bot of ``seat`` replaced by one that chooses only when the test lets it."""
    from test_serve import _BlockedBot

    bot = _BlockedBot()
    session.bots[seat] = bot
    return bot


def _click(driver, cell: str) -> None:
    driver.find_element(By.CSS_SELECTOR, f'#board [data-cell="{cell}"]').click()


def test_the_move_is_drawn_at_once_with_what_it_removed_while_the_bot_thinks(browser) -> None:
    """Draughts: Black (the person) jumps c3xe5xg7 over d4 and f6 while White's bot is held.
    The answer comes at once: the jump's cells are ringed as the last move, the two men it
    took are shown where they stood, the page says White is thinking (a spinner), and a
    click meanwhile says why nothing happens. Once the bot moves, its move is the last one."""
    from test_draughts import position

    session = _session("classics/draughts.yaml", "human,random", seed=1)
    session.state = position(session.game, {"c3": "b", "d4": "w", "d6": "w", "f6": "w", "a7": "w"}, "black")
    bot = _held_bot(session, 1)
    served = Served(session)
    try:
        browser.get(served.url(0))
        page = _wait(browser, lambda p: p["turn"])
        step = page["step"]
        for cell in ("c3", "e5", "g7"):
            _click(browser, cell)
        page = _wait(browser, lambda p: p["step"] != step and not p["busy"])
        assert bot.thinking.is_set() and not bot.go_on.is_set()  # drawn while the bot is held
        assert page["thinking"] and not page["turn"]
        assert "white (random) is thinking" in browser.find_element(By.ID, "turn").text
        assert browser.find_element(By.ID, "spinner").is_displayed()
        assert sorted(page["last"]) == ["c3", "e5", "g7"] and sorted(page["removed"]) == ["d4", "f6"]
        assert browser.find_elements(By.CSS_SELECTOR, '#board [data-cell="g7"].p0')  # my man stands on g7
        _click(browser, "a7")
        assert "is thinking" in _page(browser)["message"]
        bot.go_on.set()
        page = _wait(browser, lambda p: p["turn"] or p["over"])
        assert not page["thinking"] and not browser.find_element(By.ID, "spinner").is_displayed()
        bots_move = session.game.move_text(session.state.history[-1])
        assert page["last"] and all(c in bots_move for c in page["last"])
        # (draughts hides nothing; the privacy checks replay games from their start, and this
        # one began at a position set by the test)
        assert _severe(browser) == []
    finally:
        bot.go_on.set()
        served.close()


def test_meridian_placement_is_three_clicks_at_most_and_twelve_controls(browser) -> None:
    """Meridian (two players: 40 tower-pieces, so up to 39 heights at a city): clicking a city
    offers the card (when two fit) and the height (a slider) as controls, never more than
    12; the tallest tower is built with a click on the city, the height and the card."""
    session = _session("meridian.yaml", "human,random", seed=5, count=2)
    served = Served(session)
    try:
        browser.get(served.url(0))
        page = _wait(browser, lambda p: p["turn"])
        legal = [m.text for m in session.state.legal_moves()]
        city = max(page["cells"], key=lambda c: sum(f":{c}:" in t for t in legal))
        raw = [t for t in legal if f":{city}:" in t]
        assert len(raw) > 12  # as raw strings, too many to offer
        step = page["step"]
        _click(browser, city)  # click 1
        page = _page(browser)
        assert page["controls"] <= 12, page
        slider = browser.find_element(By.CSS_SELECTOR, '#choices input.pick-range[data-group="height"]')
        from selenium.webdriver.common.keys import Keys

        slider.click()  # click 2: the height (then End: the tallest)
        browser.switch_to.active_element.send_keys(Keys.END)  # (the slider, drawn again, keeps the focus)
        tallest = max(int(t.rsplit(":", 1)[1]) for t in raw)
        assert browser.find_element(By.CSS_SELECTOR, '#choices .pick-group[data-group="height"] output').text == str(tallest)
        page = _page(browser)
        assert page["controls"] <= 12 and page["step"] == step
        cards = [p for p in page["picks"] if p[1] == "card"]
        if cards:
            _click_pick(browser, *cards[0])  # click 3: the card, and the move is played
        else:
            browser.find_element(By.CSS_SELECTOR, "#choices button.choice").click()  # click 3: play
        _wait(browser, lambda p: p["step"] != step and not p["busy"])
        played = session.game.move_text(session.state.history[0])
        assert played in raw and played.endswith(f":{city}:{tallest}")
        # and every later turn, to the end of the game, offers at most 12 controls at once
        rng = random.Random(8)
        while not _wait(browser, lambda p: p["turn"] or p["over"])["over"]:
            assert _page(browser)["controls"] <= 12
            click_a_move(browser, rng)
        _check_private(served, 0)
        assert _severe(browser) == []
    finally:
        served.close()


def test_takeback_undoes_my_move_and_the_reply(browser) -> None:
    session = _session("classics/tic-tac-toe.yaml", "human,random", seed=2)
    served = Served(session)
    try:
        browser.get(served.url(0))
        _wait(browser, lambda p: p["turn"])
        assert not browser.find_element(By.ID, "takeback").is_enabled()  # nothing to take back yet
        _click(browser, "b2")
        page = _wait(browser, lambda p: p["turn"] and p["step"] == "2")
        assert browser.find_element(By.ID, "takeback").is_enabled()
        browser.find_element(By.ID, "takeback").click()
        page = _wait(browser, lambda p: p["turn"] and p["step"] == "0" and not p["busy"])
        assert session.step() == 0 and page["last"] == []
        assert not browser.find_elements(By.CSS_SELECTOR, "#board [data-cell].p0, #board [data-cell].p1")
        _click(browser, "a1")  # and the game goes on from there
        _wait(browser, lambda p: p["turn"] and p["step"] == "2")
        assert session.game.move_text(session.state.history[0]) == "a1"
        assert _severe(browser) == []
    finally:
        served.close()


def test_the_board_shows_my_side_at_the_bottom_and_flips(browser) -> None:
    """Breakthrough played as the second seat (its men start at the top of the drawing): the
    page turns the board round so they are at the bottom; 'flip board' turns it back."""
    session = _session("classics/breakthrough.yaml", "random,human", seed=1)
    served = Served(session, watched=1)
    try:
        browser.get(served.url(1))
        _wait(browser, lambda p: p["turn"])
        mine = browser.find_element(By.CSS_SELECTOR, "#board [data-cell].p1").get_attribute("data-cell")
        theirs = browser.find_element(By.CSS_SELECTOR, "#board [data-cell].p0").get_attribute("data-cell")

        def y(cell: str) -> float:
            return browser.execute_script(f"return document.querySelector('#board [data-cell=\"{cell}\"]').getBoundingClientRect().top")

        assert browser.find_element(By.TAG_NAME, "body").get_attribute("data-flipped") == "1"
        assert y(mine) > y(theirs)  # my men below
        browser.find_element(By.ID, "flip").click()
        assert browser.find_element(By.TAG_NAME, "body").get_attribute("data-flipped") == "0"
        assert y(mine) < y(theirs)
        click_a_move(browser, random.Random(1))  # moves are still made by clicks on a flipped board
        browser.find_element(By.ID, "flip").click()
        click_a_move(browser, random.Random(2))
        assert _severe(browser) == []
    finally:
        served.close()


def test_the_move_list_shows_earlier_positions_read_only(browser) -> None:
    session = _session("classics/tic-tac-toe.yaml", "human,random", seed=3)
    served = Served(session)
    try:
        browser.get(served.url(0))
        rng = random.Random(5)
        for _ in range(2):
            _wait(browser, lambda p: p["turn"])
            click_a_move(browser, rng)
        page = _wait(browser, lambda p: p["turn"] and p["step"] == "4")
        pieces = "#board [data-cell].p0, #board [data-cell].p1"
        assert len(browser.find_elements(By.CSS_SELECTOR, pieces)) == 4
        browser.find_element(By.CSS_SELECTOR, '#history li[data-moves="1"] button').click()
        WebDriverWait(browser, 30).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-review") == "1")
        assert len(browser.find_elements(By.CSS_SELECTOR, pieces)) == 1
        first = session.game.move_text(session.state.history[0])
        assert _page(browser)["last"] == [first] and _page(browser)["cells"] == []  # nothing to play here
        _click(browser, "c3")
        assert "earlier position" in _page(browser)["message"] and session.step() == 4
        browser.find_element(By.ID, "review-next").click()
        WebDriverWait(browser, 30).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-review") == "2")
        assert len(browser.find_elements(By.CSS_SELECTOR, pieces)) == 2
        browser.find_element(By.ID, "review-end").click()
        assert not browser.find_element(By.ID, "review").is_displayed()
        assert len(browser.find_elements(By.CSS_SELECTOR, pieces)) == 4 and _page(browser)["cells"]
        _check_private(served, 0)
        assert _severe(browser) == []
    finally:
        served.close()


def test_a_move_typed_on_the_keyboard(browser) -> None:
    session = _session("classics/tic-tac-toe.yaml", "human,random", seed=4)
    served = Served(session)
    try:
        browser.get(served.url(0))
        _wait(browser, lambda p: p["turn"])
        from selenium.webdriver.common.keys import Keys

        box = browser.find_element(By.ID, "move-entry")
        box.send_keys("z9", Keys.ENTER)
        assert "no legal move" in _page(browser)["message"] and session.step() == 0
        box.clear()
        box.send_keys("c3", Keys.ENTER)
        _wait(browser, lambda p: p["turn"] and p["step"] == "2")
        assert session.game.move_text(session.state.history[0]) == "c3"
    finally:
        served.close()


# the board at the page's width: its size, its cells' smallest side, how far it reaches
NARROW = """var svg = document.querySelector('#board svg'), r = svg.getBoundingClientRect(), board = document.getElementById('board');
var cells = Array.prototype.slice.call(svg.querySelectorAll('[data-cell]')).map(function (e) { var b = e.getBoundingClientRect(); return Math.min(b.width, b.height); });
return {width: r.width, left: r.left, right: r.right, top: r.top, page: document.documentElement.clientWidth, wide: document.documentElement.scrollWidth,
        scrolls: board.scrollWidth - board.clientWidth, smallest: Math.min.apply(null, cells), title: document.querySelector('header h1').getBoundingClientRect().bottom,
        aside: document.querySelector('aside').getBoundingClientRect().top, bottom: r.bottom};"""


def _fits_400_px(sizes: dict) -> None:
    """The board takes the 400 px page's width and no more (nothing of it is scrolled to or cut
    off), each cell at least 24 px (MIN_PIECE in seat.js), below the title, above the panels."""
    assert sizes["page"] <= 400 and sizes["wide"] <= 400, sizes
    assert sizes["width"] >= 350 and sizes["left"] >= 0 and sizes["right"] <= sizes["page"] and sizes["scrolls"] <= 1, sizes
    assert sizes["smallest"] >= 24, sizes
    assert sizes["top"] >= sizes["title"], sizes  # the board starts below the page's title
    assert sizes["aside"] >= sizes["bottom"], sizes  # the panels are below the board


def test_at_400_px_the_board_keeps_the_width(browser) -> None:
    """A phone-sized window: the board is at least 350 px wide, each cell at least 24 px, the
    panels below it (Midgard, mid-game)."""
    session = _session("midgard.yaml", "human,random", seed=3)
    served = Served(session)
    try:
        browser.set_window_size(400, 800)
        play_by_clicks(browser, served.url(0), random.Random(1), stop=lambda: session.step() > 10)
        _fits_400_px(browser.execute_script(NARROW))
        assert browser.execute_script("return document.querySelector('meta[name=viewport]') !== null")
    finally:
        browser.set_window_size(1500, 1100)
        served.close()


def test_at_400_px_a_graph_of_placed_nodes_fits_the_page(browser) -> None:
    """Midgard Vikings at 400 px: a graph of placed nodes (realms of huts in two columns) whose
    nodes, at the page's width, are drawn smaller than 24 px. The page grows them into the room
    between them, so the whole board shows at the page's width (it used to be drawn 605 px
    wide, its right column cut off) and every hut stays big enough to tap."""
    session = _session("midgard-vikings.yaml", "human,human,human,human", seed=7)
    served = Served(session)
    try:
        browser.set_window_size(400, 800)
        browser.get(served.url(0))
        _wait(browser, lambda p: p["turn"])
        sizes = browser.execute_script(NARROW)
        _fits_400_px(sizes)
        radii = browser.execute_script("return Array.prototype.slice.call(document.querySelectorAll('#board circle[data-cell]')).map(function (e) { return Number(e.getAttribute('r')); });")
        assert min(radii) > 17, radii  # grown past the renderer's NODE_RADIUS (17): this page needed it
    finally:
        browser.set_window_size(1500, 1100)
        served.close()


def test_the_spectator_sees_what_is_public_and_the_players_page_hides_the_rest(browser) -> None:
    """Midgard Vikings, two players (hidden hands): the person's page is played, then the
    spectator's page (/watch) is opened and walked back through the moves; every response
    either got is checked: the seat's against its observation, the spectator's against
    what every seat sees."""
    session = _session("midgard-vikings.yaml", "human,random", seed=4, variant="two-players")
    served = Served(session)
    try:
        play_by_clicks(browser, served.url(0), random.Random(3), stop=lambda: session.step() > 14)
        browser.get(served.base + "/watch")
        _wait(browser, lambda p: p["step"] == str(session.step()))
        assert not browser.find_elements(By.ID, "takeback") and _page(browser)["cells"] == []
        browser.find_element(By.CSS_SELECTOR, '#history li[data-moves="3"] button').click()
        WebDriverWait(browser, 30).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-review") == "3")
        assert any(path.startswith("/watch/at/") for path, _ in served.sent)
        assert any(path == "/watch/state" for path, _ in served.sent)
        _check_private(served, 0)
        assert _severe(browser) == []
    finally:
        served.close()


def test_the_page_draws_the_last_move_under_pieces_and_trims_the_panel(browser) -> None:
    """Chess after 1. e4: the last move's squares are ringed over the board and tinted under
    the pawn (so the pawn keeps its colour); the panel beside the board ends below its last
    line (no empty height of the board's); the board's status line is left to the header."""
    session = _session("classics/chess.yaml", "human,random", seed=1)
    served = Served(session)
    try:
        _fresh(browser)
        browser.get(served.url(0))
        _wait(browser, lambda p: p["turn"])
        _click(browser, "e2")
        _click(browser, "e4")
        page = _wait(browser, lambda p: p["turn"] and p["step"] == "2")
        found = browser.execute_script(
            """var svg = document.querySelector('#board svg'), before = function (a, b) { return Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING); };
            var tints = Array.prototype.slice.call(svg.querySelectorAll('.last-move-ground'));
            var panel = document.querySelector('#board-panel svg'), box = panel.getBoundingClientRect(), bottom = 0;
            Array.prototype.slice.call(panel.querySelectorAll('text')).forEach(function (t) { var r = t.getBoundingClientRect(); if (r.right > box.left) bottom = Math.max(bottom, r.bottom); });
            var status = svg.querySelector('.status');
            return {tints: tints.length, under: tints.every(function (t) { return Array.prototype.slice.call(svg.querySelectorAll('[data-figure]')).every(function (f) { return before(t, f); }); }),
                    rings: svg.querySelectorAll('.what-happened .last-move').length, slack: box.bottom - bottom, status: status ? getComputedStyle(status).display : 'none'};"""
        )
        last = session.game.move_text(session.state.history[-1])
        assert sorted(page["last"]) == sorted([last[:2], last[2:4]])
        assert found["rings"] == 2 and found["tints"] == 2 and found["under"], found
        assert 0 <= found["slack"] < 40 and found["status"] == "none", found
        assert _severe(browser) == []
    finally:
        served.close()


def test_a_table_of_one_spot_is_drawn_as_its_panel(browser) -> None:
    """Kuhn poker's board is one spot (the table): the page draws the panel, with the cards
    and chips, in the board's place, and no empty board."""
    session = _session("kuhn-poker.yaml", "human,random", seed=1)
    served = Served(session)
    try:
        _fresh(browser)
        browser.get(served.url(0))
        _wait(browser, lambda p: p["turn"])
        assert not browser.find_elements(By.CSS_SELECTOR, "#board [data-cell]")
        drawn = browser.find_element(By.CSS_SELECTOR, "#board svg.board-panel")
        assert "chips in the pot" in drawn.text and drawn.size["width"] > 400
        assert not browser.find_elements(By.CSS_SELECTOR, "#board-panel svg")
        assert _severe(browser) == []
    finally:
        served.close()


def test_playable_cells_are_ringed_in_a_colour_that_shows_on_them(browser) -> None:
    """Reversi's green squares would hide the green ring of a playable square: there it is
    drawn light; on a chessboard's light squares it stays green."""
    for spec, light in (("classics/reversi.yaml", True), ("classics/chess.yaml", False)):
        session = _session(spec, "human,random", seed=1)
        served = Served(session)
        try:
            _fresh(browser)
            browser.get(served.url(0))
            page = _wait(browser, lambda p: p["turn"])
            strokes = browser.execute_script(
                "return arguments[0].map(function (c) { var e = document.querySelector('#board [data-cell=\"' + c + '\"]'); return [e.getAttribute('data-dark'), getComputedStyle(e).stroke]; });",
                page["cells"],
            )
            if light:
                assert strokes and all(s == ["1", "rgb(171, 235, 198)"] for s in strokes), strokes
            else:  # chess: the pawns and knights stand on both colours; the light squares keep green
                assert any(s == [None, "rgb(30, 132, 73)"] for s in strokes), strokes
            assert _severe(browser) == []
        finally:
            served.close()
