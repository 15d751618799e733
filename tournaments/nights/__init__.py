"""Club nights (issue 15): sessions, stations, check-in, the tonight page, the "next table" card and
calendar feeds. ``planning.py`` is pure (stations in table order, the current round, the next
table); ``services.py`` holds every write, ``selectors.py`` the reads, ``calendar.py`` the iCal
feeds. docs/sessions.md has the decisions.
"""
