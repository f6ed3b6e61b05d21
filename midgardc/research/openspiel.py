"""``midgardc.research.openspiel.load_game``: a spec as a ``pyspiel.Game`` (see
``midgardc.research.openspiel_game``). This module's name does not shadow OpenSpiel's
package, ``open_spiel``, nor ``pyspiel``."""

from midgardc.research.openspiel_game import MidgardcGame, MidgardcState, load_game

__all__ = ["MidgardcGame", "MidgardcState", "load_game"]
