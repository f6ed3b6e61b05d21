"""One seat of a spec as a single-agent Gymnasium environment against bots:
``make(spec_path, variant=None, players=None, opponent="random", seat=0)`` (see
``midgardc.research.single`` and docs/research.md). Needs the ``research`` extra."""

from __future__ import annotations

from midgardc.research.single import MidgardcGymEnv, make

__all__ = ["MidgardcGymEnv", "make"]
