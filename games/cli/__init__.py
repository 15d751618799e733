"""Command-line tools (simulators, oracles, arenas): they may print, time and write files."""
