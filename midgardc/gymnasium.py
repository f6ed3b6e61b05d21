"""One seat of a spec as a single-agent Gymnasium environment against bots:
``make(spec_path, variant=None, players=None, opponent="random", seat=0)`` (see
``midgardc.research.single`` and docs/research.md); importing it registers the
repository's specs with Gymnasium as ``midgardc/<name>``. Needs the ``research`` extra."""

from __future__ import annotations

from midgardc.research.single import MidgardcGymEnv, make, register, register_specs

__all__ = ["MidgardcGymEnv", "make", "register", "register_specs"]
