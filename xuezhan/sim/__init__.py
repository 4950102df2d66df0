"""The simulator: bots play real rounds on the engine's :class:`~xuezhan.table.Table`.

- :mod:`xuezhan.sim.simulate` — matches and rounds as log documents (``xuezhan simulate``);
- :mod:`xuezhan.sim.deals` — dealing, and deals steered towards rare situations (scenarios);
- :mod:`xuezhan.sim.coverage` — how often each situation of docs/rules.md occurs;
- :mod:`xuezhan.sim.bots` — the players' policies;
- :mod:`xuezhan.sim.corrupt` — illegal logs on purpose (``xuezhan corrupt``).

Nothing here is needed to verify a log: the engine never imports this package.
"""
