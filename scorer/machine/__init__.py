"""What this machine keeps apart from the games: where the folders are, and a disk cache."""
