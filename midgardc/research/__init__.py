"""Research bridges: observation tensors, OpenSpiel games and PettingZoo environments.

Modules here import the real ``pyspiel``/``pettingzoo`` packages by absolute name; none of
them is named like those packages, so nothing shadows them. Install with the ``research``
extra (``pip install -e '.[research]'``; ``make setup`` does).
"""

from __future__ import annotations

from typing import Any, Optional


def pettingzoo_env(spec_path: str, variant: Optional[str] = None, players: Optional[int] = None, **kwargs: Any):
    """An AEC PettingZoo environment for a spec (see ``midgardc.research.pz``)."""
    from midgardc.research.pz import env

    return env(spec_path, variant=variant, players=players, **kwargs)
