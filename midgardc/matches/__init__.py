"""Matches between players: play games, tally results, record and replay them."""

from .record import read_record, spec_sha256
from .results import GameResult
from .runner import MatchOutcome, play_game, run_match
from .tally import Tally

__all__ = ["GameResult", "MatchOutcome", "Tally", "play_game", "read_record", "run_match", "spec_sha256"]
