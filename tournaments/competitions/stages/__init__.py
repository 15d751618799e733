"""Stages driven by their format: create, preview, publish, advance, withdraw, forfeit.

The format registry (``tournaments/competitions/formats/registry.py``) owns every format's options, pairing and
progress; this module only moves values between the database and the pure formats, under the
stage's row lock. No ``if format ==`` here: a stage's format object answers.

- **State.** :func:`stage_state` reads a stage as the formats' ``StageState``: its entrants in
  seeding order (fixed when the first round is published), its published rounds exactly as planned
  (``Round.plan``), the decided series' placings (a forfeit or a withdrawn player: no placing) and
  the withdrawals.
- **Publishing.** The organiser publishes the first round (after a preview). Later rounds are
  published by :func:`stage_advance` (the Celery stage task, after every result, and the beat
  reconciler) when the stage publishes automatically, or by the organiser when it is set to
  "review before publishing". Both go through :func:`rounds_publish`; both run under the stage's row
  lock, and the format only ever returns rounds after the published ones, so two runs at once, or
  a run after a crash, publish each round once. After the commit, the rounds published go into
  the tournament's sessions that plan rounds (``sessions.services.rounds_schedule_published``).
- **Flags.** Published pairings never change. A round remembers the results it was paired from
  (``Round.inputs``); a correction that changes one flags that round's series. Brackets say which
  of their series a correction would now seat differently (``stale_series``) and only those are
  flagged.

Modules (import from the owning one): ``state.py`` (reading a stage; the draw check; a format's
refusal as a message), ``create.py`` (creating a stage; online or at the tables), ``publish.py``
(preview and publish), ``advance.py`` (the stage task), ``withdrawals.py`` (withdrawals, forfeits,
no-shows), ``queue.py`` (the stage's tasks, sent after the commit).
"""
