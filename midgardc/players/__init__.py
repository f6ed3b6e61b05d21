"""Players that choose moves for a seat: random, greedy, MCTS, and user scripts."""

from .base import Player
from .registry import KINDS, PlayerSpec, kinds_help, parse_player, parse_players, player_labels
from .view import PlayerView

__all__ = ["KINDS", "Player", "PlayerSpec", "kinds_help", "parse_player", "parse_players", "player_labels", "PlayerView"]
