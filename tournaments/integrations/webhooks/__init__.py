"""Outbound webhooks (issue 15): a club's organisers register endpoints; a result confirmed, a round
published or a tournament finished is posted to them, signed, retried by Celery. docs/webhooks.md.

- ``models.py``: the endpoint, the outbox row (``WebhookDelivery``, one per event per endpoint,
  written in the transaction of what happened) and each attempt to send it.
- ``signing.py`` (pure): the ``Snapleague-Signature`` header, HMAC-SHA-256 over timestamp + body.
- ``schedule.py`` (pure): when the next attempt is due (exponential backoff with jitter).
- ``targets.py``: which URLs may be registered and which addresses may be connected to (SSRF).
- ``sender.py``: one HTTP POST with a timeout, to the checked address only.
- ``events.py``: the events' payloads, and :func:`events.webhook_event_emit`, the outbox's writer.
- ``services.py``: endpoints (create, change, secret, delete, test), redelivery, one attempt.
- ``selectors.py``: the endpoints of a club and their delivery log.
- ``views.py`` / ``api.py``: the organiser's pages and the REST API.

This file imports nothing, so that ``tournaments.models`` can import the models without a cycle.
"""
