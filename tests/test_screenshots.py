"""``make screenshots``: every spec in ``specs/`` and ``specs/classics/`` (its default variant
and player count) as a person sees it in ``midgardc serve``, in headless Chromium, at the
start, mid-game and at the end of one game, in a 1400x1000 and a 400x800 window, written to
``$MIDGARDC_SCREENSHOTS/<spec>-<start|mid|end>-<1400|400>.png`` (the browser part runs only
with MIDGARDC_SCREENSHOTS=DIR set; it is skipped otherwise).

The game: every seat is a person at its own address, and the pictures are seat 0's page.
Every seat's moves are drawn at random from ``random.Random(SEED)`` and sent through the
seat's move address as its page sends them; the rolls come from the session's own seeded
stream. The same seed gives the same game, and the same pictures: animations and the text
caret are switched off before each picture. "Mid-game" is seat 0's first turn at or after
half the game's moves, or half way when seat 0 has no turn left by then (a two-move Kuhn
poker hand); a first run of the same game, without the browser, tells how many there are.

Each picture is the whole page at that window width (at least the window's height, at most
``MAX_HEIGHT``): the panels below the board at 400 px are part of what a person scrolls to.
With Pillow installed each PNG is reduced to a palette of ``COLOURS`` colours (no dithering,
so the same page gives the same bytes) and saved optimised."""

from __future__ import annotations

import io
import json
import logging
import os
import random
import threading
import urllib.request
from pathlib import Path

import pytest

from conftest import ROOT
from midgardc.players import PlayerSpec
from midgardc.web.session import Session

SCREENSHOTS = os.environ.get("MIDGARDC_SCREENSHOTS")
SEED = 7
WINDOWS = ((1400, 1000), (400, 800))
MAX_HEIGHT = 3200  # px: a taller page is cut there (its panels go on below)
COLOURS = 128  # palette size of a saved PNG (screenshots are flat colours and anti-aliased text)
SPECS = sorted(str(p.relative_to(ROOT / "specs")) for p in [*(ROOT / "specs").glob("*.yaml"), *(ROOT / "specs" / "classics").glob("*.yaml")])

logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request


def new_session(spec: str, seed: int = SEED) -> Session:
    """The spec's default variant and player count, every seat a person."""
    from midgardc.engines import load

    game = load(str(ROOT / "specs" / spec), None, engine="compiled")  # cached by content
    return Session(game, str(ROOT / "specs" / spec), [PlayerSpec("human")] * game.ir.n_players, seed=seed)


def random_moves(session: Session, seed: int = SEED) -> list[tuple[int, int, str]]:
    """Play random moves (from ``seed``) for every seat to the end of the game; returns each
    as (step it was chosen at, the seat, its text)."""
    rng = random.Random(seed)
    played: list[tuple[int, int, str]] = []
    while not session.state.is_terminal():
        seat = session.state.current_player()
        texts = [m.text for m in session.state.legal_moves()]
        text = texts[rng.randrange(len(texts))]
        played.append((session.step(), seat, text))
        session.play(seat, session.step(), text)
    return played


def mid_game(moves: list[tuple[int, int, str]], total: int) -> int:
    """The index in ``moves`` of the mid-game picture (see the module's docstring)."""
    half = [i for i, (step, _, _) in enumerate(moves) if step >= total // 2]
    return next((i for i in half if moves[i][1] == 0), half[0] if half else len(moves) - 1)


def test_the_same_seed_plays_the_same_game() -> None:
    """What makes the pictures repeatable: two sessions of a spec with chance and bots, the
    person's moves drawn from the same seed, play the same game to the end."""
    games = []
    for _ in range(2):
        session = new_session("classics/liars-dice.yaml")
        moves = random_moves(session)
        games.append(list(session.state.texts))
    assert games[0] == games[1] and len(games[0]) > len(moves) > 2  # (the rolls are moves too)
    assert {seat for _, seat, _ in moves} == {0, 1}


def test_mid_game_is_seat_0s_turn_half_way_or_half_way() -> None:
    moves = [(0, 0, "a"), (1, 1, "b"), (2, 1, "c"), (3, 0, "d"), (4, 1, "e")]
    assert mid_game(moves, 6) == 3  # seat 0's first turn from step 3 on
    assert mid_game(moves[:3], 3) == 1  # none: half way (step 1, seat 1 to move)


# -- the browser part (make screenshots) -----------------------------------------------------


@pytest.fixture(scope="module")
def browser():
    from test_report_browser import CHROMEDRIVER, CHROMIUM, _missing

    if _missing():
        pytest.skip(f"{_missing()} not found (install Debian's chromium and chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1", "--window-size=1400,1000"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


STILL = "*, *::before, *::after { animation: none !important; transition: none !important; caret-color: transparent !important; }"


def _served(session: Session):
    from werkzeug.serving import make_server

    from midgardc.web.app import create_app

    server = make_server("127.0.0.1", 0, create_app(session), threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}"


def _post_move(base: str, session: Session, step: int, seat: int, text: str) -> None:
    """The move as the page sends it: POST {"step", "move"} to the seat's move address."""
    request = urllib.request.Request(base + session.seat_path(seat) + "/move", data=json.dumps({"step": step, "move": text}).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        assert answer.status == 200


def _shoot(driver, url: str, session: Session, path: Path, width: int, height: int) -> int:
    """Open the seat's page in a ``width`` x ``height`` window, once it shows the session's
    step, and save the whole page (see the module's docstring); returns the PNG's bytes."""
    import base64

    from selenium.webdriver.support.ui import WebDriverWait

    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    driver.get(url)
    step = str(session.step())
    WebDriverWait(driver, 60, poll_frequency=0.05).until(lambda d: d.execute_script("return document.body.getAttribute('data-step') === arguments[0] && document.body.getAttribute('data-busy') !== '1'", step))
    driver.execute_script("var s = document.createElement('style'); s.textContent = arguments[0]; document.head.appendChild(s); if (document.activeElement) document.activeElement.blur(); window.scrollTo(0, 0);", STILL)
    tall = int(driver.execute_script("return Math.max(document.body.scrollHeight, document.documentElement.scrollHeight)"))
    clip = {"x": 0, "y": 0, "width": width, "height": max(height, min(tall, MAX_HEIGHT)), "scale": 1}
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": clip})
    data = _small_png(base64.b64decode(shot["data"]))
    path.write_bytes(data)
    return len(data)


def _small_png(data: bytes) -> bytes:
    """The PNG with a palette of COLOURS (no dithering: repeatable), when Pillow is there."""
    try:
        from PIL import Image
    except ImportError:
        return data
    image = Image.open(io.BytesIO(data)).convert("RGB")
    out = io.BytesIO()
    image.quantize(colors=COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(out, format="PNG", optimize=True)
    return out.getvalue()


@pytest.mark.skipif(not SCREENSHOTS, reason="screenshots only with MIDGARDC_SCREENSHOTS=DIR (make screenshots)")
@pytest.mark.parametrize("spec", SPECS, ids=[Path(s).stem for s in SPECS])
def test_screenshots(browser, spec: str) -> None:
    out = Path(SCREENSHOTS)
    out.mkdir(parents=True, exist_ok=True)
    probe = new_session(spec)
    moves = random_moves(probe)
    mid = mid_game(moves, probe.step())
    session = new_session(spec)
    server, base = _served(session)
    name = Path(spec).stem
    try:
        url = base + session.seat_path(0)

        def shoot(when: str) -> None:
            for width, height in WINDOWS:
                _shoot(browser, url, session, out / f"{name}-{when}-{width}.png", width, height)

        shoot("start")
        for i, (step, seat, text) in enumerate(moves):
            if i == mid:
                shoot("mid")
            assert session.step() == step, f"{name}: the game went otherwise than its first run at move {i}"
            _post_move(base, session, step, seat, text)
        assert session.state.is_terminal() and list(session.state.texts) == list(probe.state.texts)
        shoot("end")
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        server.shutdown()
        server.server_close()
