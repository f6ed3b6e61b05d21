"""The end of a game and the check in a real headless browser (as test_serve_browser.py
drives it, clicks like a person; issue 26, items 2 and 5): the banner with the result, its
reason, every seat's rank and score and the ranking keys; no final-only key (a won flag)
in the players' panel (the banner gives it at the end); a king in check glowing red on the board. Every
response a watched seat's page received holds only what that seat may see."""

from __future__ import annotations

import random

import pytest

from conftest import ROOT
from test_serve_browser import Served, _check_private, _severe, _wait, browser, click_a_move, pytestmark  # noqa: F401 (the fixture, the skip)

from selenium.webdriver.common.by import By  # noqa: E402 (test_serve_browser skips without selenium)

from midgardc.engines import load
from midgardc.players import PlayerSpec, parse_player
from midgardc.web.session import Session
from midgardc.web.views import result_payload

def _session(spec: str, players: str, seed: int = 0) -> Session:
    """On the interpreter (the rules are not the point here), humans with tokens t0, t1..."""
    path = str(ROOT / spec)
    seats = [PlayerSpec("human") if p == "human" else parse_player(p) for p in players.split(",")]
    humans = players.split(",").count("human")
    return Session(load(path, engine="interpreted"), path, seats, seed=seed, tokens=[f"t{i}" for i in range(humans)])


def _play(driver, served: Served, seat: int, cells: list[str]) -> None:
    """On ``seat``'s page, click ``cells`` one after the other (one move) and wait for it."""
    driver.get(served.url(seat))
    step = _wait(driver, lambda p: p["turn"])["step"]
    for cell in cells:
        driver.find_element(By.CSS_SELECTOR, f'#board [data-cell="{cell}"]').click()
    _wait(driver, lambda p: p["step"] != step and not p["busy"])


def _players_text(driver) -> str:
    return driver.find_element(By.ID, "players").text


def _banner(driver) -> dict:
    return driver.execute_script(
        """var r = document.getElementById('result'), all = function (q) { return Array.prototype.slice.call(r.querySelectorAll(q)); };
        return {shown: !r.hidden && r.offsetHeight > 0, head: document.getElementById('result-text').textContent,
          rows: all('tr.seat-rank').map(function (t) { return [t.getAttribute('data-player'), t.getAttribute('data-rank'), t.querySelector('td.rank').textContent]; }),
          header: all('th').map(function (t) { return t.textContent; }),
          scores: all('tr.seat-rank').map(function (t) { return Array.prototype.slice.call(t.querySelectorAll('td.score')).map(function (d) { return d.textContent; }); }),
          how: (document.getElementById('tie-break') || {}).textContent || ''};"""
    )


def test_tic_tac_toe_to_the_end_banner_by_clicks(browser) -> None:
    session = _session("specs/classics/tic-tac-toe.yaml", "human,random", seed=4)
    served = Served(session)
    try:
        browser.get(served.url(0))
        rng = random.Random(4)
        _wait(browser, lambda p: p["turn"])
        assert "score" not in _players_text(browser)  # `line` is a final key: no "line 0" before the end
        while not _wait(browser, lambda p: p["turn"] or p["over"])["over"]:
            click_a_move(browser, rng)
            if not session.state.is_terminal():
                assert "score" not in _players_text(browser)
        want = result_payload(session)
        banner = _wait(browser, lambda p: p["over"]) and _banner(browser)
        assert banner["shown"] and banner["head"] == want["headline"]
        assert f" by {want['reason']} in {want['moves']} move" in banner["head"] or want["outcome"] == "draw"
        assert banner["header"] == ["rank", "player", "line"]
        assert [(r[0], r[1]) for r in banner["rows"]] == [(s["player"], str(s["rank"])) for s in want["seats"]]
        assert banner["rows"][0][2] == "1st" + (" (shared)" if want["outcome"] == "shared" else "")
        assert banner["scores"] == [[str(s["score"]["line"])] for s in want["seats"]]
        assert "score" not in _players_text(browser)  # the result: in the banner, not a panel row
        _check_private(served, 0)
        assert _severe(browser) == []
    finally:
        served.close()


def test_three_players_tied_leaders_share_first_place_in_the_banner(browser) -> None:
    """tests/data/threats.yaml, three seats in one browser: black a2, white b1, red b2 (in
    danger: it glows), black c2 takes it; white d3, red d1: black and white 2 stones each."""
    session = _session("tests/data/threats.yaml", "human,human,human")
    served = Served(session, watched=2)
    try:
        for seat, cell in [(0, "a2"), (1, "b1"), (2, "b2")]:
            _play(browser, served, seat, [cell])
        alerts = browser.find_elements(By.CSS_SELECTOR, "#board .alert")
        assert [a.get_attribute("data-at") for a in alerts if a.get_attribute("data-highlight") == "in danger"] == ["b2"]
        for seat, cell in [(0, "c2"), (1, "d3"), (2, "d1")]:
            _play(browser, served, seat, [cell])
        _wait(browser, lambda p: p["over"])
        banner = _banner(browser)
        assert banner["head"] == "black (human#1) and white (human#2) share first place by the last stone placed in 6 moves"
        assert banner["rows"] == [["black", "1", "1st (shared)"], ["white", "1", "1st (shared)"], ["red", "3", "3rd"]]
        assert banner["header"] == ["rank", "player", "stones", "stones on the top row"]
        assert banner["how"] == "Ranked by stones, then stones on the top row."
        _check_private(served, 2)
        assert _severe(browser) == []
    finally:
        served.close()


def test_a_king_in_check_glows_red(browser) -> None:
    session = _session("specs/classics/chess.yaml", "human,human")
    served = Served(session, watched=1)
    try:
        for seat, move in [(0, "e2e4"), (1, "e7e5"), (0, "f1c4"), (1, "d7d6")]:
            _play(browser, served, seat, [move[:2], move[2:]])
        assert browser.find_elements(By.CSS_SELECTOR, "#board .alert") == []
        _play(browser, served, 0, ["c4", "f7"])  # the bishop takes f7: check
        browser.get(served.url(1))
        _wait(browser, lambda p: p["turn"])
        glow = browser.find_element(By.CSS_SELECTOR, '#board .alert[data-highlight="check"]')
        assert glow.get_attribute("data-at") == "e8" and glow.is_displayed()
        # drawn over e8, under the king; its red shows (a large disc of it)
        king = browser.find_element(By.CSS_SELECTOR, '#board [data-cell="e8"]').rect
        box = glow.rect
        assert abs(box["x"] + box["width"] / 2 - (king["x"] + king["width"] / 2)) < 2 and box["width"] >= 0.9 * king["width"]
        fills = browser.execute_script("return Array.prototype.map.call(arguments[0].querySelectorAll('circle'), function (c) { return getComputedStyle(c).fill; });", glow)
        assert fills and all(f == "rgb(232, 0, 11)" for f in fills)
        # the glow does not stop a click on the king: it steps out of check
        _play(browser, served, 1, ["e8", "e7"])
        assert session.state.texts[-1] == "e8e7" and browser.find_elements(By.CSS_SELECTOR, "#board .alert") == []
        _check_private(served, 1)
        assert _severe(browser) == []
    finally:
        served.close()
