"""Online play's pages, by page group: tables.py (the lobby, tables, replays), stats.py (Snap
statistics), analysis.py (the analysis and hands entered card by card)."""
