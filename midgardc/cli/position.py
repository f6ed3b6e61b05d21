"""replay, moves, show and perft: one position or one game, looked at closely."""

from __future__ import annotations

import json
from typing import Optional

import click

from ..cli_options import (
    engine_option,
    json_option,
    moves_option,
    player_count_option,
    position_option,
    seed_option,
    spec_argument,
    variant_option,
)
from ..errors import MidgardcError
from ..fileio import write_atomic
from ..runtime.game import State
from .common import _load_ir, _open_game, _play
from .group import cli


# -- replay / moves / show / perft -----------------------------------------------------------


def _print_observations(state: State, who: str, seed: int) -> None:
    """``who``'s observation at every step of ``state``'s game, one JSON line each."""
    from ..runtime.observe import viewer_index

    ir = state.game.ir
    viewer = viewer_index(ir, who)
    if viewer is None:
        raise MidgardcError(f"--as {who}: {ir.title} has no such player; players are {', '.join(ir.players)} (or a seat index 0..{ir.n_players - 1})")
    step = state.game.new_state(seed)
    click.echo(step.observation_string(viewer))
    for move in state.history:
        step.apply_unchecked(move)
        click.echo(step.observation_string(viewer))


def _matches_note(state: State, line: dict, record: str) -> str:
    """What ``replay --record`` says once the game proved itself (matches/proof.py)."""
    from ..matches.results import result_words

    seats = line["seats"]
    winners = [str(seats[s]) for s, r in enumerate(state.ranks() or ()) if r == 1]
    return f"game {line['game']} of {record}: replayed {state.ply()} moves; result matches the record ({result_words(state.outcome() or 'draw', winners)})"


@cli.command("replay")
@spec_argument
@moves_option
@variant_option
@player_count_option
@seed_option
@engine_option("interpreted")
@click.option("--record", "-r", type=click.Path(dir_okay=False), default=None, metavar="FILE.jsonl", help="Replay a game recorded by 'match --record' or 'tournament --record' and check its result; a spec changed since the record was made is refused.")
@click.option("--game", "-g", "game_index", type=click.IntRange(min=0), default=None, help="Which game of --record (default 0).")
@position_option
@click.option("--as", "as_player", default=None, metavar="PLAYER", help="Print only what PLAYER (a name or a seat index) sees: its observation at every step, one JSON object per line (its legal moves on its turns).")
@json_option
@click.pass_context
def replay_cmd(
    ctx: click.Context,
    spec: str,
    moves: str,
    variant: Optional[str],
    player_count: Optional[int],
    seed: int,
    engine: str,
    record: Optional[str],
    game_index: Optional[int],
    as_player: Optional[str],
    position: Optional[str],
    as_json: bool,
) -> None:
    """Play moves from the start and show where they lead.

    An illegal move stops the replay with its position in the list and the legal moves
    there (exit 1). With --json the final state is printed as one JSON object: board,
    players, current, terminal, winner, ... With --as PLAYER only that player's
    observation is printed, at the start and after every move (JSON lines): places it may
    not see show only their size, and its legal moves are listed on its turns.
    """
    note = None
    start_seed = seed
    if record is None:
        if game_index is not None:
            raise click.UsageError("--game needs --record")
        state = _play(ctx, spec, variant, engine, moves, seed, player_count, position)
    else:
        from ..errors import Pos
        from ..matches.proof import check_proof_fields, prove
        from ..matches.record import read_record_line, spec_sha256

        if moves:
            raise click.UsageError("--moves and --record cannot be used together")
        if ctx.get_parameter_source("seed") != click.core.ParameterSource.DEFAULT:
            raise click.UsageError("--seed and --record cannot be used together (the record holds each game's seed)")
        lineno, raw, line = read_record_line(record, game_index or 0)
        check_proof_fields(record, lineno, raw, line)
        rec_variant = line["variant"]
        if variant is not None and variant != rec_variant:
            raise click.UsageError(f"--variant {variant} does not match the record's variant ({rec_variant or 'none'})")
        if line["spec_sha256"] != spec_sha256(spec):
            raise MidgardcError(
                f"{spec} is not the spec {record} was made from (it was made from {line['spec']}; its 'spec_sha256' differs): the file has changed since, so its games "
                "may no longer replay as recorded; refusing to replay",
                hint="replay with the unchanged spec file, or record the games again",
            )
        seated = len(line["seat_names"]) or None
        if player_count is not None and seated is not None and player_count != seated:
            raise click.UsageError(f"--player-count {player_count} does not match the record ({seated} players)")
        from ..spec.lower import list_player_counts

        recorded = line.get("position")  # a game recorded from a --position start begins there
        if position is not None and position != recorded:
            raise click.UsageError(f"--position does not match the record's start ({'the position ' + repr(recorded) if recorded else 'the setup'}); leave it off")
        position = recorded
        game = _open_game(ctx, _load_ir(spec, rec_variant, seated if list_player_counts(spec, rec_variant) else None), engine, position)
        state = prove(game, spec, line, f"game {line['game']} of {record}", Pos(record, lineno, 1))
        note = _matches_note(state, line, record)
        start_seed = line["game_seed"]
    if as_player is not None:
        _print_observations(state, as_player, start_seed)
    elif as_json:
        click.echo(json.dumps(state.to_json()))
    else:
        from ..runtime.view import render_text

        click.echo(render_text(state, color=True))
    if note:
        click.echo(note, err=True)


@cli.command()
@spec_argument
@moves_option
@variant_option
@player_count_option
@engine_option("interpreted")
@seed_option  # (the game's seed: it shuffles the decks of a spec with a deck)
@position_option
@click.pass_context
def moves(ctx: click.Context, spec: str, moves: str, variant: Optional[str], player_count: Optional[int], engine: str, seed: int, position: Optional[str]) -> None:
    """Print the legal moves after a sequence of moves, in notation, on one line.

    Where a roll is due the legal moves are the roll's outcomes (e.g. roll:A-4-blank)."""
    state = _play(ctx, spec, variant, engine, moves, seed=seed, count=player_count, position=position)
    click.echo(" ".join(m.text for m in state.legal_moves()))
    if state.is_terminal():
        click.echo("(the game is over: no legal moves)", err=True)


@cli.command()
@spec_argument
@moves_option
@variant_option
@player_count_option
@engine_option("interpreted")
@click.option("--svg", type=click.Path(dir_okay=False, allow_dash=True), default=None, metavar="FILE", help="Also write an SVG picture of the board to FILE ('-': to stdout, instead of the text).")
@click.option("--color/--no-color", default=None, help="Colour the text board (default: when stdout is a terminal).")
@seed_option  # (the game's seed: it shuffles the decks of a spec with a deck)
@position_option
@click.pass_context
def show(ctx: click.Context, spec: str, moves: str, variant: Optional[str], player_count: Optional[int], engine: str, svg: Optional[str], color: Optional[bool], seed: int, position: Optional[str]) -> None:
    """Draw the board after a sequence of moves (text on the terminal, or SVG)."""
    from ..render.svg import render_svg
    from ..runtime.view import render_text

    state = _play(ctx, spec, variant, engine, moves, seed=seed, count=player_count, position=position)
    picture = None
    if svg is not None:
        try:
            picture = render_svg(state)
        except ValueError as exc:
            raise MidgardcError(f"cannot draw an SVG: {exc}") from None
    if svg == "-":
        click.echo(picture)
        return
    if svg is not None and picture is not None:
        write_atomic(svg, picture + "\n", "the picture")
        click.echo(f"wrote {svg}", err=True)
    click.echo(render_text(state, color=True), color=color)


@cli.command()
@spec_argument
@click.option("--depth", "-d", type=click.IntRange(min=1), required=True, help="Count move sequences of every length 1..N.")
@variant_option
@player_count_option
@engine_option("compiled", "Falls back to the interpreter, with a note, if the compiled engine is unavailable.")
@position_option
@moves_option
@click.pass_context
def perft(ctx: click.Context, spec: str, depth: int, variant: Optional[str], player_count: Optional[int], engine: str, position: Optional[str], moves: str) -> None:
    """Count legal move sequences, one line "depth count" per depth 1..N.

    The standard perft: only sequences of exactly that many moves count (a game that ends
    before the depth adds nothing there). A roll's outcomes count as moves, one branch
    each (not weighted by probability). Counted from the start, from --position, and
    after --moves. Both engines must give the same counts; a difference is a bug in one
    of them. The compiled engine is the default (a deep count on the interpreter takes
    hours); --engine interpreted counts with the reference.
    """
    from ..runtime.game import perft as count

    state = _play(ctx, spec, variant, engine, moves, 0, player_count, position)
    native = getattr(state.game.engine, "perft", None)
    for d in range(1, depth + 1):
        n = native(d, state.core) if native is not None else count(state, d)
        click.echo(f"{d} {n}")
