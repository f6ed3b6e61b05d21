"""Every spec as a PettingZoo AEC environment: ``env(spec_path, variant=None, players=None)``
(see ``midgardc.research.pz`` and docs/research.md). Needs the ``research`` extra."""

from __future__ import annotations

from midgardc.research.pz import MidgardcEnv, env

__all__ = ["MidgardcEnv", "env"]
