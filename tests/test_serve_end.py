"""The end of a game as the page and the pictures say it, and what they leave out before it
(issue 26, items 2 and 5): ``views.result_payload`` (the result with its reason, every
seat's rank and score, the ranking keys and the tie-break, the length in the rulebook's
moves), no final-only ranking key in any spec's panels while its game goes on, and
``render.highlight``'s alert style (chess's check; tests/data/threats.yaml's stones in
danger and secret squares, which only their owner's picture may show)."""

from __future__ import annotations

import glob
import random
import re

import pytest

from conftest import ROOT, SPECS
from midgardc.engines import load
from midgardc.errors import SpecError
from midgardc.players import PlayerSpec
from midgardc.render.svg import render_svg
from midgardc.runtime.game import replay
from midgardc.spec.lower import load_game_ir
from midgardc.web.session import Session
from midgardc.web.views import result_payload, seat_payload

TTT = str(SPECS / "classics" / "tic-tac-toe.yaml")
CHESS = str(SPECS / "classics" / "chess.yaml")
THREATS = str(ROOT / "tests" / "data" / "threats.yaml")
ALERT = re.compile(r'<g class="alert" data-highlight="([^"]*)" data-at="([^"]*)"')


def _session(spec: str, moves: list[str]) -> Session:
    """A session of humans only (labelled human#1, human#2, ...), with ``moves`` played."""
    game = load(spec, engine="interpreted")
    n = game.ir.n_players
    session = Session(game, spec, [PlayerSpec("human")] * n, seed=0, tokens=[f"t{i}" for i in range(n)])
    for text in moves:
        session.state.apply(text)
    return session


def test_the_result_says_its_reason_ranks_scores_and_length() -> None:
    # tic-tac-toe: "the first player to get 3 of their marks in a row ... is the winner"
    session = _session(TTT, ["a1", "b1", "a2", "b2", "a3"])
    r = result_payload(session)
    assert r["headline"] == r["text"] == "x (human#1) wins by three in a row in 5 moves"
    assert r["outcome"] == "win" and r["reason"] == "three in a row" and (r["plies"], r["moves"]) == (5, 5)
    assert [(s["player"], s["label"], s["rank"], s["score"]) for s in r["seats"]] == [("x", "human#1", 1, {"line": 1}), ("o", "human#2", 2, {"line": 0})]
    assert r["ranked_by"] == ["line"] and r["tie_break"] is None and r["ranks"] == {"x": 1, "o": 2}
    # every seat's page gets the same result (nothing about it is hidden at the end)
    assert seat_payload(session, 1)["result"] == r == seat_payload(session, -1)["result"]
    assert result_payload(_session(TTT, ["a1"])) is None


def test_tied_leaders_of_three_share_first_place_and_a_tie_break_is_said() -> None:
    # black a2, white b1, red b2 (two enemies beside it), black c2 takes it (three)
    shared = result_payload(_session(THREATS, ["a2", "b1", "b2", "c2", "d3", "d1"]))
    assert shared["outcome"] == "shared" and shared["tie_break"] is None
    assert shared["headline"] == "black (human#1) and white (human#2) share first place by the last stone placed in 6 moves"
    assert [(s["player"], s["rank"]) for s in shared["seats"]] == [("black", 1), ("white", 1), ("red", 3)]
    # the same, but white's last stone on the top row: the second key breaks the 2-2 tie
    broken = result_payload(_session(THREATS, ["a2", "b1", "b2", "c2", "d4", "d1"]))
    assert broken["outcome"] == "win" and [(s["player"], s["rank"]) for s in broken["seats"]] == [("white", 1), ("black", 2), ("red", 3)]
    assert broken["ranked_by"] == ["stones", "stones on the top row"]
    assert broken["tie_break"]["text"] == "2-2 tie broken by stones on the top row (1-0)"
    assert broken["headline"] == "white (human#2) wins by the last stone placed in 6 moves"
    assert broken["text"] == broken["headline"] + "; 2-2 tie broken by stones on the top row (1-0)"


def test_chess_counts_moves_of_both_players() -> None:
    # fool's mate: four plies, two moves as the Laws count them (1.3)
    r = result_payload(_session(CHESS, ["f2f3", "e7e5", "g2g4", "d8h4"]))
    assert r["headline"] == "black (human#2) wins by checkmate in 2 moves" and r["plies"] == 4


def _mid_game(spec: str, variant=None, plies: int = 6):
    """A position a few random plies in where the game goes on (no move that ends it)."""
    game = load(spec, variant, engine="interpreted")
    state = game.new_state(3)
    rng = random.Random(3)
    for _ in range(plies):
        moves = state.legal_moves()
        rng.shuffle(moves)
        for m in moves:
            after = state.clone()
            after.apply(m)
            if not after.is_terminal():
                state = after
                break
    return state


@pytest.mark.parametrize("spec", sorted(glob.glob(str(SPECS / "*.yaml")) + glob.glob(str(SPECS / "*" / "*.yaml"))), ids=lambda s: s.split("specs/")[-1])
def test_no_panel_shows_a_final_key_while_the_game_goes_on(spec: str) -> None:
    """A key that means something only at the end (``final: true``: a won flag, go's score
    with komi) is in no picture's panel mid-game; the others are, and the page is told which
    keys to leave out."""
    state = _mid_game(spec)
    ir = state.game.ir
    assert not state.is_terminal()
    finals = [k for k in ir.ranking if k.final]
    present = ir.render.present
    label = (lambda name: present.label(name)) if present is not None else (lambda name: name)
    for viewer in (0, None):
        shown = re.findall(r">score: ([^<]*): [^<]*<", render_svg(state, viewer=viewer))
        assert sorted(set(shown)) == sorted({label(k.name) for k in ir.ranking if not k.final}), spec
    assert state.observation(0).get("final_keys", []) == [k.name for k in finals]


def test_won_flags_are_final_keys() -> None:
    """The won/lost flags of the classics are 0 for everyone while the game goes on (or
    credit whoever moved last): each is a final key."""
    flags = {"chess": "won", "draughts": "won", "breakthrough": "won", "nine-mens-morris": "won", "tic-tac-toe": "line", "connect-four": "four", "hex": "connected", "liars-dice": "won", "go": "score"}
    for name, key in flags.items():
        ir = load_game_ir(str(SPECS / "classics" / f"{name}.yaml"))
        assert [k.final for k in ir.ranking if k.name == key] == [True], name
    for poker in ("kuhn-poker", "leduc-poker"):  # chips are paid when the hand is over
        assert all(k.final for k in load_game_ir(str(SPECS / f"{poker}.yaml")).ranking)


def test_check_glows_red_under_the_king_in_check() -> None:
    game = load(CHESS, engine="interpreted")
    quiet = replay(game, ["e2e4", "e7e5", "f1c4", "d7d6"])
    assert ALERT.findall(render_svg(quiet)) == []
    check = replay(game, ["e2e4", "e7e5", "f1c4", "d7d6", "c4f7"])  # the bishop takes f7: check
    for viewer in (0, 1, None):
        svg = render_svg(check, viewer=viewer)
        assert ALERT.findall(svg) == [("check", "e8")]
        # under the king: the glow's group comes before the pieces', and is red
        assert svg.index('class="alerts"') < svg.index('class="pieces"') and 'fill="#e8000b"' in svg
    check.apply("e8e7")  # the king steps out of it
    assert ALERT.findall(render_svg(check)) == []


def test_an_alert_shows_only_what_its_viewer_may_see() -> None:
    game = load(THREATS, engine="interpreted")
    state = replay(game, ["a2", "b1", "b2"])  # red's b2 has two enemies beside it: in danger
    secrets = {0: "d4", 1: "c4", 2: "b4"}  # (each player's own, from the spec's start)
    for seat, cell in secrets.items():
        assert sorted(ALERT.findall(render_svg(state, viewer=seat))) == [("in danger", "b2"), ("secret square", cell)]
    # the spectator sees neither the secrets nor the one that reads them all, until the end
    assert ALERT.findall(render_svg(state)) == [("in danger", "b2")]
    state = replay(game, ["a2", "b1", "b2", "c2", "d3", "d1"])
    assert ("a secret square", "d4") in ALERT.findall(render_svg(state)) and ("a secret square", "d4") not in ALERT.findall(render_svg(state, viewer=0))


def test_a_highlight_style_is_ring_alert_or_side(tmp_path) -> None:
    text = open(THREATS).read().replace("style: alert}\n", "style: glow}\n", 1)
    bad = tmp_path / "t.yaml"
    bad.write_text(text)
    with pytest.raises(SpecError, match="a highlight's style is ring, alert or side, not 'glow'"):
        load_game_ir(str(bad))


def test_a_won_flag_is_left_to_the_result_and_a_real_score_stays() -> None:
    """At the end a final key that is only a flag (tic-tac-toe's line: 1 and 0) is not a
    panel row: the result line and the page's banner say who won; go's half points (a
    score, not a flag) stay in the picture's panel."""
    session = _session(TTT, ["a1", "b1", "a2", "b2", "a3"])
    assert session.state.is_terminal() and ">score: " not in render_svg(session.state, viewer=0)
    go = str(SPECS / "classics" / "go.yaml")
    passed = _session(go, ["e5", "pass", "pass"])
    assert passed.state.is_terminal()
    assert re.findall(r">score: half points with komi: (\d+)<", render_svg(passed.state, viewer=0)) == ["162", "15"]


def test_a_private_roll_draws_no_empty_dice() -> None:
    """Liar's dice rolls into each cup's counters (``chance.into``): the picture has no
    dice area that would say "not rolled yet" after both cups were rolled."""
    session = _session(str(SPECS / "classics" / "liars-dice.yaml"), [])
    state = session.state
    while state.is_chance_node() or state.ply() < 2:
        state.apply(state.legal_moves()[0].text if not state.is_chance_node() else state.chance_outcomes()[0][0])
    svg = render_svg(state, viewer=0)
    assert "not rolled yet" not in svg and 'class="dice"' not in svg


def test_the_page_names_cards_and_tokens_as_the_rulebook_does() -> None:
    """The page lists zones and items by their ``render.labels`` (micro-midgard's "Sun
    Prophecies"), and the spec's name stays only where no label is given."""
    session = _session(str(SPECS / "micro-midgard.yaml"), [])
    payload = seat_payload(session, 0)
    names = payload["names"]
    assert names["sun_row"] == "Sun Prophecies" and names["sun_fewest_vp"] == "fewest VP"
    assert set(names) <= set(session.game.ir.kinds) | set(payload["observation"]["zones"]) | {i for o in payload["observation"]["zones"].values() for z in o.values() for i in (z["items"] or ())} | {z for p in payload["observation"]["players"] for z in p.get("zones", {})}
    assert all(k != v for k, v in names.items())
    # and the pieces in hand: connect four's disc is written "discs", as in the picture
    assert seat_payload(_session(str(SPECS / "classics" / "connect-four.yaml"), []), 0)["names"] == {"disc": "discs"}
