"""No seat is shown what it may not see, on any path: its observation (what ``replay --as``
prints and script players get), the moves as it sees them (nested hidden effects included),
its observation tensor, its web page's payload and picture, its terminal view, and what a
spectator or a report is shown.

The check is non-interference between two worlds. World A is a random game. World B starts
from A's start with everything the viewer cannot see dealt again (``determinize``), and at
each step the viewer's own move is the same as in A, while another seat's move (or a roll)
is one of the same action (which action a seat plays is public, as at a table: only its
parameters may be hidden) that leaves the viewer's observation (without the move list) as
A's did, a different move than A's whenever one does (the worlds part when the viewer's own
move shows it something, a card drawn, that B holds otherwise). Whatever the viewer is then
shown must be the same in both worlds, and in a third with the hidden items of A dealt
again: anything that differs tells it something it could not see. Both
engines run the same code above the cores; the compiled engine is checked on the small
test spec whose hidden effects are nested at every depth (tests/data/hidden_nesting.yaml).
"""

from __future__ import annotations

import copy
import functools
import json
import random
from pathlib import Path
from typing import Any, Optional

import pytest
from click.testing import CliRunner

from conftest import ROOT, get_game
from midgardc.cli import cli
from midgardc.players import PlayerSpec, parse_player
from midgardc.research.tensor import observation_tensor
from midgardc.render.svg import render_svg
from midgardc.render.svg.seen import SPECTATOR
from midgardc.runtime.determinize import determinize
from midgardc.runtime.observe import moves_seen, observation, places, may_hide
from midgardc.runtime.rng import Rng
from midgardc.runtime.view import render_text
from midgardc.web.session import MoveRefused, Session
from midgardc.web.views import reveal_at_end, seat_payload

DATA = ROOT / "tests" / "data"
NESTING = str(DATA / "hidden_nesting.yaml")
TAKE_IN_IF = str(DATA / "hidden_take_in_if.yaml")
SPEC_FILES = sorted(str(p) for p in (ROOT / "specs").rglob("*.yaml"))


@functools.lru_cache(maxsize=1)
def _hidden_specs() -> tuple[tuple[str, Optional[str]], ...]:
    """Every spec of specs/ (each variant too) in which something can be hidden from a seat.
    Found once per process: the parametrization and test_every_hidden_spec_is_checked both
    ask, and each time it lowers every spec and variant (seconds of CPU; issue 25)."""
    from midgardc.spec.lower import list_variants, load_game_ir

    out = []
    for path in SPEC_FILES:
        for variant in [None] + list_variants(path):
            if may_hide(load_game_ir(path, variant)):
                out.append((path, variant))
    return tuple(out)


def _session(state: Any, spec: str, viewer: int) -> Session:
    """A web session whose one person sits at ``viewer`` (the other seats: bots that never
    move here), showing ``state``."""
    game = state.game
    seats = [PlayerSpec("human") if p == viewer else parse_player("random") for p in range(game.ir.n_players)]
    return Session(game, spec, seats, tokens=["t"])


def _unknown_before(moves: int) -> Any:
    raise MoveRefused(404, "a sample's earlier positions are not kept")


def seen_by(state: Any, viewer: int, session: Session) -> dict:
    """Everything ``viewer`` is shown of ``state`` on every path (and a spectator's view,
    which is no more than any seat's)."""
    twin = copy.copy(session)
    twin.state = state
    # (neither world's earlier positions are kept here: world B is a sample, so the page
    # says the last move without the cells it changed in both, alike)
    twin.position = _unknown_before
    payload = seat_payload(twin, viewer)
    payload.pop("step")  # (the number of moves made: equal in both worlds anyway)
    # its own legal moves follow the rules, which may read what it cannot see (a move legal
    # when the hidden stock shows an apple on top): they are its own, as at a table
    payload.pop("legal")
    obs = observation(state, viewer)
    obs.pop("legal", None)
    return {
        "observation": obs,
        "tensor": observation_tensor(state, viewer).tolist(),
        "page": payload,
        "terminal": render_text(state, color=False, viewer=viewer),
        "spectator_moves": moves_seen(state, SPECTATOR),
        "spectator_picture": render_svg(state, None) if not state.is_terminal() else None,
    }


def _public(state: Any, viewer: int) -> str:
    """The viewer's observation without the move list, with what the rules put on the
    table once the game is over (``render.revealed_at_end``: liar's dice's cups, public
    then): what B's moves are matched on."""
    obs = observation(state, viewer)
    reveal_at_end(state, obs)
    obs.pop("moves")
    return json.dumps(obs, sort_keys=True)


def _whole(state: Any) -> str:
    """The whole truth of a state but its move list."""
    full = state.to_json()
    full.pop("moves")
    return json.dumps([full, [tuple(p.items) for p in places(state)], [list(r) for r in state.core.counters]], sort_keys=True)


def _hidden_differs(a: Any, b: Any) -> bool:
    return places(a) != places(b) or [list(r) for r in a.core.counters] != [list(r) for r in b.core.counters]


def _successors(state: Any, action: Any) -> list[tuple[int, Any]]:
    """(move, the state after it) for each legal move or roll of ``state`` that is one of
    ``action``: only those can stand for A's move, so only those are played (playing
    every move, the others to be dropped, was most of this file's time on Meridian)."""
    game, out = state.game, []
    for move in (m for m, _ in state.chance_outcomes()) if state.is_chance_node() else state.legal_moves():
        if game.decode_move(move.id)[0] is action:
            after = state.clone()
            after.apply_unchecked(move.id)
            out.append((move.id, after))
    return out


def check_twins(game: Any, spec: str, viewer: int, seed: int, max_steps: int) -> tuple[int, int]:
    """Play worlds A and B (see the module's text) for up to ``max_steps`` moves and assert
    that the viewer is shown the same in both after every one, and in a sample of A with
    its hidden items dealt again. When B cannot follow A unnoticed (the viewer's move or a
    public reveal shows what B holds otherwise), B starts again as such a sample of A.
    Returns (steps at which B followed A, steps at which something hidden differed)."""
    rng = random.Random(seed)
    a = game.new_state(seed)
    session = _session(a, spec, viewer)
    b = determinize(a, viewer, Rng(seed + 7))
    assert seen_by(a, viewer, session) == seen_by(b, viewer, session), f"seed {seed}: the start shows {game.ir.players[viewer]} what it cannot see"
    followed = differed = 0
    for step in range(max_steps):
        if a.is_terminal():
            break
        moved_apart = False
        if a.current_player() == viewer:
            text = rng.choice(a.legal_moves()).text
            a.apply(text)
            # legal by what it cannot see, or its move showed it something (a card drawn)
            parted = text not in {m.text for m in b.legal_moves()}
            if not parted:
                b.apply(text)
                parted = _public(b, viewer) != _public(a, viewer)
        else:
            if a.is_chance_node():
                move = a.sample_chance().id
            else:
                move = rng.choice(a.legal_move_ids())
                a.apply_unchecked(move)
            want, action = _public(a, viewer), game.decode_move(move)[0]
            options = [(m, after) for m, after in _successors(b, action) if _public(after, viewer) == want]
            parted = not options
            if options:
                same = next((after for m, after in options if m == move), None)
                # another move: one that leaves something hidden otherwise than A's move
                # would in B (a value that goes nowhere, as taking an item one does not
                # hold, is the mover's announcement, which is public)
                others = [o for o in options if o[0] != move and (same is None or _whole(o[1]) != _whole(same))]
                moved_apart = bool(others)
                _, b = rng.choice(others or [o for o in options if o[0] == move] or options)
        if parted:  # B cannot follow A unnoticed: it starts again from A, dealt again
            b = determinize(a, viewer, Rng(seed * 1000 + step))
            if a.is_terminal():  # (at the end the result is public, and a sample's differs)
                break
        got_a, got_b = seen_by(a, viewer, session), seen_by(b, viewer, session)
        for key in got_a:
            assert got_a[key] == got_b[key], f"seed {seed}, step {step}: {game.ir.players[viewer]}'s {key} depends on what it cannot see ({a.texts[-1]} / {b.texts[-1]})"
        followed += not parted
        differed += moved_apart or _hidden_differs(a, b)
        if not a.is_terminal() and not parted:  # (a sample of A was just checked when parted)
            sample = determinize(a, viewer, Rng(seed + step))  # everything it cannot see dealt again, now
            assert seen_by(sample, viewer, session) == got_a, f"seed {seed}, step {step}: what {game.ir.players[viewer]} is shown depends on how the hidden items lie"
            differed += _hidden_differs(a, sample)
    return followed, differed


def _check_spec(spec: str, variant: Optional[str], engine: str, games: int, max_steps: int) -> None:
    game = get_game(spec, variant, engine)
    followed = differed = 0
    for viewer in range(game.ir.n_players):
        for g in range(games):
            f, d = check_twins(game, spec, viewer, 100 * g + viewer, max_steps)
            followed += f
            differed += d
    assert followed > 0, "world B never followed A for a move: the moves were never compared"
    assert differed > 0, "world B never differed from A in anything hidden: the check could not have failed"


# -- the property over every spec with hidden information -------------------------------------


@pytest.mark.parametrize("spec,variant", _hidden_specs(), ids=lambda x: Path(x).stem if isinstance(x, str) and x.endswith(".yaml") else str(x))
def test_no_seat_sees_what_it_may_not(spec: str, variant: Optional[str]) -> None:
    _check_spec(spec, variant, "interpreted", games=1, max_steps=25)


def test_every_hidden_spec_is_checked() -> None:
    """The property runs on the specs with hidden information (cards, hidden hands, private
    dice), so a spec that hides something is never left out by mistake."""
    names = {Path(s).stem for s, _ in _hidden_specs()}
    assert {"kuhn-poker", "leduc-poker", "liars-dice", "midgard-vikings"} <= names


@pytest.mark.parametrize("spec", [NESTING, TAKE_IN_IF, str(DATA / "private_dice.yaml"), str(DATA / "draft.yaml"), str(DATA / "zone_rules.yaml"), str(DATA / "arrays.yaml")], ids=lambda s: Path(s).stem)
def test_test_specs_hide_at_every_depth(spec: str) -> None:
    _check_spec(spec, None, "interpreted", games=4, max_steps=40)


def test_nested_hiding_on_the_compiled_engine() -> None:
    _check_spec(NESTING, None, "compiled", games=3, max_steps=40)


# -- what each kind of hidden move shows --------------------------------------------------------


def test_each_nested_hidden_value_is_a_question_mark() -> None:
    """Each action of the nesting spec played by ``a`` is written with '?' for ``b`` (and
    a spectator) where its value is hidden, in clear where it is public, and whole for ``a``."""
    game = get_game(NESTING)
    cases = {
        "plain:R": "plain:?", "if:R": "if:?", "ifelse:R": "ifelse:?", "each:R": "each:?", "repeat:R": "repeat:?",
        "vault:R": "vault:?", "chosen:R": "chosen:?", "later:R": "later:?", "note:2": "note:?", "mark:3": "mark:?",
        "steps@table:R+U": "steps@table:?+?", "show:R": "show:R", "tally:2": "tally:2",
    }
    for played, shown in cases.items():
        state = game.new_state(0)
        state.apply(played)
        assert observation(state, 1)["moves"] == [shown], played
        assert moves_seen(state, SPECTATOR) == [shown], played
        assert observation(state, 0)["moves"] == [played], played


def test_replay_as_hides_a_take_inside_an_if() -> None:
    """The issue's example: ``replay --as b`` wrote a's ``hideif:R`` in clear."""
    for moves in ("hide:R", "hideif:R"):
        result = CliRunner().invoke(cli, ["replay", TAKE_IN_IF, "--moves", moves, "--json", "--as", "b"])
        assert result.exit_code == 0, result.output
        last = json.loads(result.output.strip().splitlines()[-1])
        assert last["moves"] == [moves.split(":")[0] + ":?"]
