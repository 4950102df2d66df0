"""The fast path cannot drift: for every option of ``Rules`` and each of its values, the
lean path (``xuezhan/fastpath.py``) and the lenient walk (``Table``) give the same report.

The options are read from ``Rules`` itself (its dataclass fields): a bool is tried both
ways, a choice (``rules._CHOICES``) with each of its values, any other option with the
values of :data:`OTHER_VALUES`. An option this file does not know how to vary fails
:func:`test_every_rules_option_has_values_to_try`, naming it, so a new option cannot slip
by: give it values here (and mirror it in ``fastpath.py``, CONTRIBUTING's house-rule
checklist).

For each value, hypothesis simulates a short match under the chengdu rules with that one
option changed (now and then steered to a kong or a heavenly hand, now and then with the
bots' chaos), and checks that

- both paths report the same, byte for byte, on the match, on the match the option's
  next value played (checked under this value: what one value allows another may
  forbid) and on matches the simulator's ``corrupt`` mutations made illegal;
- the lean path replays every legal simulated round itself, leaving the lenient walk's
  table: a branch missing from the lean path does not hide behind the fallback (a round
  given up would still report the same).

Checked by hand (5 December 2026): with ``void_first`` read as False in
``fastpath._play_events`` (its discard then skips the void-first check),
``void_first=true`` fails, naming the option: a match played without the rule is legal
on the lean path and not on the table. Removing a branch that only makes the lean path
hand an event to the table (``from_back`` for ``kong_draw``) changes no report and is
not drift; a branch bots seldom reach (``heaven_earth``'s 地胡, ``no_claim_void``'s
claims) is not caught within this file's budget of examples (``test_fastpath.py`` also
runs the hand-made logs of ``tests/data``, ``violations/claim_void_tile.json`` among them).
"""

from __future__ import annotations

import dataclasses
import json
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from xuezhan.errors import XuezhanError
from xuezhan.fastpath import replay_regular
from xuezhan.replay import play_round, verify_document
from xuezhan.rules import _CHOICES, Rules
from xuezhan.sim.corrupt import KINDS, corrupt
from xuezhan.sim.simulate import simulate_match
from xuezhan.table import Table

#: values of the options that are neither bools nor choices: a couple each, away from
#: the chengdu default (each an override on the chengdu rules, with what it needs)
OTHER_VALUES: dict[str, tuple[dict[str, Any], ...]] = {
    "exchange": ({"exchange": "off"}, {"exchange": "parity"}, {"exchange": "opposite"},
                 {"exchange": {"by": "sum", "map": {str(k): ("from_next", "from_prev",
                                                             "opposite")[k % 3]
                                                    for k in range(2, 13)}}}),
    "fan_offset": ({"fan_offset": 1}, {"fan_offset": 2}),
    "max_fan": ({"max_fan": 2}, {"max_fan": 4}),
    "flower_pig": ({"flower_pig": 0}, {"flower_pig": "cap", "max_fan": 3}),
    "min_fan": ({"min_fan": 1}, {"min_fan": 2}),
    "kong_payments": ({"kong_payments": {"direct": 3, "added": 0, "concealed": 1}},),
    "kong_fan": ({"kong_fan": {"direct": 0, "added": 2, "concealed": 0}},),
    "patterns": ({"patterns": {"qing_yi_se": None, "dui_dui_hu": 3, "tian_hu": None}},),
    "add_ons": ({"add_ons": {"gen": None, "jin_gou_diao": 1, "hai_di_lao_yue": 1,
                             "hai_di_pao": 1, "men_qing": 1, "zhong_zhang": 1}},),
    "false_win": ({"false_win": {"penalty": 8, "to": "each_other_player"}},
                  {"false_win": {"penalty": "cap", "to": "pot"}, "max_fan": 3}),
    "exclusions": ({"exclusions": [["qi_dui", "gang_shang_hua"], ["dui_dui_hu", "gen"]]},),
}
#: scenarios that steer a round to a kong's replacement win or a heavenly hand now and
#: then (the robbed kong's and the multiple win's take seconds to steer: too slow here)
SCENARIOS = (None, "gang_shang_hua", "tian_hu")
#: rounds a simulated match: one, and more examples, reach more situations for the time
ROUNDS = 1
#: a failure names the option; shrinking it would re-simulate hundreds of matches
DRIFT = settings(max_examples=3, deadline=None, derandomize=True, database=None,
                 phases=(Phase.explicit, Phase.generate),
                 suppress_health_check=[HealthCheck.too_slow])


def options() -> list[str]:
    return [f.name for f in dataclasses.fields(Rules) if f.name != "preset_name"]


def overrides_of(name: str) -> tuple[dict[str, Any], ...] | None:
    """The rulesets to try for option ``name`` (None: this file does not know it)."""
    default = getattr(Rules(), name)
    if isinstance(default, bool):
        return ({name: True}, {name: False})
    if name in _CHOICES:
        return tuple({name: value} for value in _CHOICES[name])
    return OTHER_VALUES.get(name)


def variants() -> list[Any]:
    out = []
    for name in options():
        found = overrides_of(name)
        if found is None:  # fails below, by name
            out.append(pytest.param(name, None, None, id=f"{name}=?"))
            continue
        # each value's neighbour: the next value of the option (the chengdu rules for
        # an option with one value to try), whose matches are played against this value
        others = (*found[1:], found[0]) if len(found) > 1 else ({},)
        for override, other in zip(found, others, strict=True):
            shown = json.dumps(override[name], sort_keys=True, separators=(",", ":"))
            out.append(pytest.param(name, override, other, id=f"{name}={shown[:40]}"))
    return out


def test_every_rules_option_has_values_to_try() -> None:
    unknown = [name for name in options() if overrides_of(name) is None]
    assert not unknown, (
        f"tests/xuezhan/test_fastpath_drift.py does not know how to vary the option(s) "
        f"{', '.join(unknown)}: add their values to OTHER_VALUES (and mirror them in "
        f"xuezhan/fastpath.py)")


@cache
def legal_match(ruleset: str, seed: int, scenario: str | None, chaos: float
                ) -> dict[str, Any]:
    rules = json.loads(ruleset)
    try:
        return simulate_match(seed, ROUNDS, rules, chaos, scenario)
    except XuezhanError:  # the scenario does not apply under these rules
        return simulate_match(seed, ROUNDS, rules, chaos)


def reports(doc: object) -> tuple[str, str]:
    fast = json.dumps(verify_document(doc).to_dict(), ensure_ascii=False)
    lenient = json.dumps(verify_document(doc, fastpath=False).to_dict(), ensure_ascii=False)
    return fast, lenient


def state(table: Table) -> dict[str, Any]:
    """What a table holds, without its caches (the waits, the win-test memo of its keys)."""
    out = {k: v for k, v in vars(table).items() if k not in ("_waits", "_keys")}
    out["keys"] = [k.keys for k in table.keys]
    return out


@pytest.mark.parametrize(("name", "override", "other"), variants())
@DRIFT
@given(seed=st.integers(0, 2**20), scenario=st.sampled_from(SCENARIOS),
       chaos=st.sampled_from((0.0, 0.3)), kinds=st.lists(st.sampled_from(sorted(KINDS)),
                                                         min_size=2, max_size=2))
def test_the_lean_path_and_the_table_agree_under_every_value_of_every_option(
        name: str, override: dict[str, Any] | None, other: dict[str, Any] | None, seed: int,
        scenario: str | None, chaos: float, kinds: list[str]) -> None:
    if override is None or other is None:
        pytest.fail(f"option {name}: no values to try (see OTHER_VALUES)")
    rules = Rules.preset("chengdu").with_options(override)
    where = f"option {name} = {override[name]!r}"
    doc = legal_match(json.dumps(override, sort_keys=True), seed, scenario, chaos)
    fast, lenient = reports(doc)
    assert fast == lenient, f"{where}: the two paths report a legal match differently"
    for index, round_doc in enumerate(doc["rounds"]):
        lean = replay_regular(round_doc, rules, doc.get("base", 1))
        assert lean is not None, f"{where}: the lean path gave up legal round {index}"
        table, problems = play_round(round_doc, rules, doc.get("base", 1))
        assert not problems
        assert state(lean) == state(table), f"{where}: round {index} leaves another table"
    # a match played under the option's next value, checked under this one: what one
    # value allows the other may forbid, the deliberate fault a rule's branch must see
    played = legal_match(json.dumps(other, sort_keys=True), seed, scenario, chaos)
    fast, lenient = reports({**played, "ruleset": rules.to_json()})
    assert fast == lenient, (f"{where}: the two paths report differently on a match played "
                             f"under {other or 'chengdu'}")
    for i, kind in enumerate(kinds):
        try:
            bad, mutation = corrupt(doc, seed + i, kind)
        except XuezhanError:  # that kind does not apply to this match
            bad, mutation = corrupt(doc, seed + i)
        fast, lenient = reports(bad)
        assert fast == lenient, f"{where}: the two paths report differently after {mutation}"
