"""Every spec as an OpenSpiel game: ``load_game(spec_path, variant=None, players=None)``
returns a ``pyspiel.Game`` (see ``midgardc.research.openspiel_game`` and docs/research.md).
Needs the ``research`` extra."""

from __future__ import annotations

from midgardc.research.openspiel import MidgardcGame, MidgardcState, load_game

__all__ = ["MidgardcGame", "MidgardcState", "load_game"]
