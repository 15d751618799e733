"""Command-line tools around the pure engines (simulators, oracles, arenas): they may print, time and write files."""
