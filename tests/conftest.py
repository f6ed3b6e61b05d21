"""Shared fixtures: games loaded once per session, per spec, variant and back end."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "specs"
MIDGARD = str(SPECS / "midgard.yaml")
MIDGARD_VARIANTS = [None, "mere-mortal", "odin", "loki"]
ENGINES = ["interpreted", "compiled"]

_games: dict = {}


def get_game(spec: str, variant=None, engine: str = "interpreted"):
    """Load (and for 'compiled', build — cached by content hash) a game once per session."""
    from midgardc.engines import load

    key = (spec, variant, engine)
    if key not in _games:
        _games[key] = load(spec, variant, engine=engine)
    return _games[key]


@pytest.fixture(params=ENGINES)
def engine(request) -> str:
    return request.param


@pytest.fixture
def midgard(engine):
    return lambda variant=None: get_game(MIDGARD, variant, engine)


def pytest_report_header(config):
    return f"midgardc engine cache: {os.environ.get('MIDGARDC_CACHE', '(default)')}"
