"""The ``midgardc`` command line: thin commands over the engine API, players and matches.

The command names and options are a contract that outside checks rely on (listed in
docs/usage.md, "The command line at a glance", and held by tests/test_cli.py); the error
policy (exit 1 for user errors, 123 for bugs) lives in cli_errors.
One module per concern: build (validate, build, generate), matches (match, tournament,
report), position (replay, moves, show, perft), playthrough, bench, explain and watch (a
match rerun at every save); common holds the helpers they share, group the command group
they register on.
Commands that look at single positions (replay, moves, show, playthrough) default to the
interpreter, which needs no build; commands that play many games or search deep (match,
tournament, bench, perft) default to the compiled engine, as the library's load() does,
and fall back to the interpreter, with a note, when it cannot be had and was not asked
for by name.
"""

from __future__ import annotations

from . import bench, build, explain, matches, play, playthrough, position, serve, watch  # noqa: F401  (each registers its commands)
from .group import cli, main

__all__ = ["cli", "main"]
