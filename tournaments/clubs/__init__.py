"""People, not rows: a person's account linked to their player in each club (docs/people.md)."""
