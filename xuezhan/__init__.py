"""xuezhan: replay, verify and settle Sichuan 血战到底 mahjong round logs.

The engine is plain Python with no Django. Entry points, in dependency order:

- ``xuezhan.tiles``      tiles and notation: ``parse_tiles("123m456p")``, ``format_tiles``
- ``xuezhan.reader``     the one strict JSON reader (duplicate keys, NaN, 1.0 for 1 refused)
- ``xuezhan.rules``      rulesets as data: ``Rules.preset("chengdu")``, ``Rules.from_json``
- ``xuezhan.hand``       win test, waits, void condition (per-suit tables), ``KongKind``
- ``xuezhan.shanten``    ``shanten``, ``ukeire``: how far a hand is from ready, what helps it
- ``xuezhan.fan``        scoring a win: patterns, add-ons, fan, points, breakdown
- ``xuezhan.table``      ``Table``: one round's state, ``legal_actions(seat)``, violations
- ``xuezhan.settlement`` payments of a round with their reasons as data: wins, kongs, checks
- ``xuezhan.replay``     ``RoundWalk`` and ``verify_document(doc)``: replay a log, report faults
- ``xuezhan.fastpath``   the lean replay of regular rounds (the walk is its specification)
- ``xuezhan.frames``     the step-by-step frames a replay viewer draws
- ``xuezhan.playfacts``  per-seat facts of a round for statistics
- ``xuezhan.review``     every decision of a round graded by shanten and unseen 进张
- ``xuezhan.sheet``      score sheets of offline tables, settled by the same settlement
- ``xuezhan.schema``     the log format's JSON Schema and structural validation
- ``xuezhan.sim``        bots, the simulator, scenarios, coverage and log corruption
- ``xuezhan.cli``        ``python -m xuezhan verify|score|waits|review|simulate|…``

Docs: ``docs/rules.md`` (the rules and every decision), ``docs/format.md`` (the log format,
the report, every code).

The service around the engine (``config/``, ``records/``, ``analysis/``) lives beside
this package in the repository; nothing here imports it, Django, DRF or Celery.
"""

__version__ = "0.1.0"
