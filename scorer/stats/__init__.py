"""Statistics across stored games, the CSV of every hand, and renaming players."""

from scorer.stats.csv_export import hands_csv, write_hands_csv
from scorer.stats.renaming import RenameError, RenameResult, rename_player
from scorer.stats.service import StatsService, load_stats

__all__ = [
    "RenameError",
    "RenameResult",
    "StatsService",
    "hands_csv",
    "load_stats",
    "rename_player",
    "write_hands_csv",
]
