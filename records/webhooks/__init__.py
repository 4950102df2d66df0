"""Webhooks: a club's events pushed to the apps that registered for them (docs/apps.md).

``events`` is the table of event types; ``services.emit`` makes one delivery per endpoint
that wants an event (the apps' receivers of the core's signals call it: analysis/events.py,
analysis/league/events.py); ``tasks`` send them, Standard Webhooks-signed, at least once,
with backoff; ``addresses`` keeps requests off loopback, private and metadata addresses.
"""
