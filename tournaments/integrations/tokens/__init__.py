"""Personal API tokens (issue 23, item 5): an account's named, scoped, expiring, revocable
credentials for scripts, sent as ``Authorization: Bearer <token>``. docs/api-tokens.md.

Why here: the architecture files API tokens under "integrations" beside webhooks, exports and the
calendar feeds, all in ``tournaments/``; accounts have no app of their own (``snapleague/users.py``
holds only the user types, and ``snapleague/`` imports no app's models), and a token's audit rows
live in ``tournaments.AuditEntry`` with the sign-ins.

- ``keys.py`` (pure): a new token, its display prefix, its SHA-256 digest, its expiry.
- ``models.py``: ``ApiToken`` (the digest and the prefix, never the token itself).
- ``services.py``: create, revoke, and the check of a presented token (expiry, revocation, last
  used, the refusal's audit row and the per-address throttle).
- ``selectors.py``: an account's tokens, and one of them.
- ``authentication.py``: the DRF authentication class (scope enforced) and its OpenAPI scheme.
- ``views.py`` / ``forms.py`` / ``api.py``: the "API tokens" page and the REST API.

This file imports nothing, so that ``tournaments.models`` can import the models without a cycle.
"""
