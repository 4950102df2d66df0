"""xuezhan: replay, verify and settle Sichuan 血战到底 mahjong round logs.

The engine is plain Python with no Django. Entry points, in dependency order:

- ``xuezhan.tiles``      tiles and notation: ``parse_tiles("123m456p")``, ``format_tiles``
- ``xuezhan.rules``      rulesets as data: ``Rules.preset("chengdu")``, ``Rules.from_json``
- ``xuezhan.hand``       win test, waits, void condition (per-suit tables)
- ``xuezhan.fan``        scoring a win: pattern, add-ons, fan, points, breakdown
- ``xuezhan.table``      ``Table``: the state of one round and what is legal in it
- ``xuezhan.settlement`` payments of a round: wins, kong money, draw checks
- ``xuezhan.replay``     ``verify_document(doc)``: replay a FORMAT.md v1 log, report violations
- ``xuezhan.schema``     the log format's JSON Schema and structural validation
- ``xuezhan.cli``        ``python -m xuezhan verify|score|waits|simulate``

``xuezhan.config`` is the Django/Celery wiring of the service and is never
imported by the engine.
"""

__version__ = "0.1.0"
