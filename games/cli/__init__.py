"""Command-line tools around the pure engines (they may print, time and write files)."""
