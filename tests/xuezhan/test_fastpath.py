"""The lean path and the lenient walk give byte-identical reports, on the whole corpus."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xuezhan.errors import XuezhanError
from xuezhan.fastpath import _plain_round, replay_regular
from xuezhan.replay import play_round, verify_document
from xuezhan.rules import Rules
from xuezhan.schema import validate_document
from xuezhan.sim.corrupt import KINDS, corrupt
from xuezhan.sim.simulate import simulate_match
from xuezhan.table import Table

DATA = Path(__file__).resolve().parents[1] / "data"
#: rulesets that change what the lean path does itself (the wall's back, the last four,
#: void first, passed wins, kongs straight after a peng) or nothing at all
VARIANTS: tuple[dict[str, Any] | str, ...] = (
    "chengdu", "online", {"kong_draw": "back"}, {"last_four": "must_win_all"},
    {"last_four": "off", "passed_win": "strict"}, {"void_first": True, "exchange": "off"},
    {"passed_win": "off", "no_claim_void": True}, {"kong_after_peng": True, "kong_draw": "back"},
    {"last_discard_claims": "peng", "kong_payment_timing": "after_discard"},
    {"added_kong_fresh_only": True, "kong_after_peng": True},
    {"add_ons": {"yi_tiao_long": 1, "jia_xin_wu": 1},
     "exclusions": [["qi_dui", "gang_shang_hua"], ["ping_hu", "gen"]]},
    {"false_win": {"penalty": "cap", "to": "pot"}, "max_fan": 4, "flower_pig_payees": "pot"},
)


def both(doc: object) -> tuple[str, str]:
    fast = json.dumps(verify_document(doc).to_dict(), ensure_ascii=False)
    lenient = json.dumps(verify_document(doc, fastpath=False).to_dict(), ensure_ascii=False)
    return fast, lenient


@cache
def legal_corpus() -> tuple[dict[str, Any], ...]:
    docs = [simulate_match(seed, 2, rules) for rules in VARIANTS for seed in range(4)]
    return tuple(docs)


def files() -> list[Path]:
    return sorted(DATA.glob("**/*.json"))


@pytest.mark.parametrize("path", files(), ids=lambda p: p.name)
def test_both_paths_report_the_same_on_every_file_of_tests_data(path: Path) -> None:
    fast, lenient = both(json.loads(path.read_text(encoding="utf-8")))
    assert fast == lenient


def test_both_paths_report_the_same_on_simulated_matches_of_every_variant() -> None:
    for doc in legal_corpus():
        fast, lenient = both(doc)
        assert fast == lenient
        assert json.loads(fast)["legal"]


def test_the_lean_path_replays_legal_simulated_rounds_itself() -> None:
    # the point of the lean path: a legal round needs no second replay
    for doc in legal_corpus():
        rules = Rules.from_json(doc.get("ruleset", "chengdu"))
        for round_doc in doc["rounds"]:
            assert replay_regular(round_doc, rules, doc.get("base", 1)) is not None


def test_both_paths_report_the_same_on_every_kind_of_corruption() -> None:
    docs = legal_corpus()
    kinds = sorted(KINDS)
    for seed in range(len(kinds) * 12):
        kind = kinds[seed % len(kinds)]
        doc = docs[seed // len(kinds) % len(docs)]
        try:
            bad, _mutation = corrupt(doc, seed, kind)
        except XuezhanError:  # that kind does not apply to this document
            bad, _mutation = corrupt(doc, seed)
        fast, lenient = both(bad)
        assert fast == lenient, f"seed {seed}, kind {kind}"


def state(table: Table) -> dict[str, Any]:
    """What a table holds, without its caches (the waits, the win-test memo of its keys)."""
    out = {k: v for k, v in vars(table).items() if k not in ("_waits", "_keys")}
    out["keys"] = [k.keys for k in table.keys]
    return out


def test_the_lean_path_leaves_the_lenient_walks_table_after_every_prefix_of_a_round() -> None:
    # a report shows only some of the state (the wins let go on a discard show only in a
    # later fault): compare all of it, after every event of every round of each variant
    passes_seen = 0
    for doc in legal_corpus():
        rules = Rules.from_json(doc.get("ruleset", "chengdu"))
        for round_doc in doc["rounds"]:
            for end in range(len(round_doc["events"]) + 1):
                prefix = {**round_doc, "events": round_doc["events"][:end]}
                lean = replay_regular(prefix, rules, doc.get("base", 1))
                if lean is None:  # a cut inside a window the lenient walk must close
                    continue
                lenient, problems = play_round(prefix, rules, doc.get("base", 1))
                assert not problems
                assert state(lean) == state(lenient), f"after {end} events"
                passes_seen += any(fan is not None for fan in lean.passed)
    assert passes_seen  # the corpus lets some wins go


def test_a_faulty_round_falls_back_to_the_lenient_walk() -> None:
    doc = legal_corpus()[0]
    bad, mutation = corrupt(doc, 3, "draw_not_wall_tile")
    round_doc = bad["rounds"][mutation.round]
    rules = Rules.from_json(bad.get("ruleset", "chengdu"))
    assert replay_regular(round_doc, rules) is None
    assert "draw_not_wall_tile" in {v.code for v in verify_document(bad).violations}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_both_paths_agree_on_events_moved_dropped_or_changed(data: st.DataObject) -> None:
    doc = json.loads(json.dumps(data.draw(st.sampled_from(legal_corpus()))))
    events = doc["rounds"][0]["events"]
    i = data.draw(st.integers(0, len(events) - 1))
    change = data.draw(st.sampled_from(["drop", "swap", "actor", "tile"]))
    if change == "drop":
        del events[i]
    elif change == "swap" and i + 1 < len(events):
        events[i], events[i + 1] = events[i + 1], events[i]
    elif change == "actor" and "actor" in events[i]:
        events[i]["actor"] = data.draw(st.integers(0, 3))
    elif change == "tile" and "tile" in events[i]:
        events[i]["tile"] = data.draw(st.sampled_from(["1m", "5p", "9s", "2m", "7p"]))
    fast, lenient = both(doc)
    assert fast == lenient


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**65), 2**65)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=4)
    | st.sampled_from(["1m", "9s", "draw", "discard", "hu", "peng", "gang", "ming", "m"]),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.sampled_from(["type", "actor", "tile", "target", "kind", "x"]),
                      children, max_size=4),
    max_leaves=8,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


def put_anywhere(data: st.DataObject, doc: Any, value: Any) -> None:
    """Put ``value`` in place of one value of ``doc`` (not the whole), drawn by ``data``."""
    path = data.draw(st.sampled_from([p for p in _paths(doc) if p]))
    target = doc
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), value=JSON_VALUES)
def test_both_paths_agree_on_any_value_put_anywhere(data: st.DataObject, value: Any) -> None:
    # the lean checks must never pass what the schema refuses: this puts arbitrary JSON
    # (floats for integers, bools for seats, events of the wrong shape, ...) at any place
    doc = json.loads(json.dumps(legal_corpus()[data.draw(st.integers(0, 7))]))
    put_anywhere(data, doc, value)
    fast, lenient = both(doc)
    assert fast == lenient


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), value=JSON_VALUES)
def test_the_hand_check_of_a_round_never_passes_what_the_schema_refuses(
        data: st.DataObject, value: Any) -> None:
    doc = json.loads(json.dumps(legal_corpus()[data.draw(st.integers(0, 7))]))
    round_doc = {**doc["rounds"][0], "events": []}
    put_anywhere(data, round_doc, value)
    if _plain_round(round_doc):
        # the tiles and events are the replay's to check: only the rest is vouched for
        named = {**round_doc, "hands": [["1m"] * len(h) for h in round_doc["hands"]],
                 "events": [{"type": "dingque", "suits": ["m", "m", "m", "m"]}] * len(
                     round_doc["events"]),
                 "wall": ["1m"] * len(round_doc.get("wall", []))}
        assert not validate_document({**doc, "rounds": [named]})


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_both_paths_agree_on_changed_claims_kongs_and_openings(data: st.DataObject) -> None:
    # the lean path applies pengs, kongs, exchanges and void declarations itself: change
    # one of them (its target, kind, tile, seat) or what comes right after it
    doc = json.loads(json.dumps(data.draw(st.sampled_from(legal_corpus()))))
    events = doc["rounds"][0]["events"]
    picked = [i for i, e in enumerate(events)
              if e["type"] in ("peng", "gang", "hu", "exchange", "dingque")]
    i = data.draw(st.sampled_from(picked)) + data.draw(st.integers(0, 1))
    if i >= len(events):
        i = len(events) - 1
    event = events[i]
    field = data.draw(st.sampled_from(["target", "kind", "tile", "actor", "die", "suits"]))
    if field == "kind":
        event["kind"] = data.draw(st.sampled_from(["ming", "jia", "an"]))
    elif field == "suits":
        event["suits"] = data.draw(st.lists(st.sampled_from("mps"), min_size=4, max_size=4))
    elif field == "die":
        event["die"] = data.draw(st.integers(1, 6))
    elif field == "tile":
        event["tile"] = data.draw(st.sampled_from(["1m", "5p", "9s", "2m", "7p"]))
    else:
        event[field] = data.draw(st.integers(0, 3))
    fast, lenient = both(doc)
    assert fast == lenient
