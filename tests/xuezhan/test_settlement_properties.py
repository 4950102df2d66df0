"""Settlement properties over random valid rounds and random house rules: the money balances,
every payment is a real transfer, and settling is a pure function of record and rules."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from xuezhan.rules import Rules
from xuezhan.settlement import (
    POT,
    REASONS,
    DrawCheck,
    FalseWin,
    KongEvent,
    RoundRecord,
    WinEvent,
    describe,
    next_dealer,
    settle,
)

KINDS = ("direct", "added", "concealed")
#: kongs listed three times so that rounds often carry kong money into the draw checks
ACTIONS = ("kong", "kong", "kong", "self_drawn", "discard", "multiple", "rob_kong",
           "kong_then_self_draw", "kong_then_discard")


@st.composite
def round_records(draw: st.DrawFn) -> RoundRecord:
    """A round whose events respect the in-round sets: only seats still in play kong, win,
    discard or pay; several wins on one discard share a group and an in-round set."""
    in_round = {0, 1, 2, 3}
    events: list[KongEvent | WinEvent] = []
    index = 0
    rules_for_points = Rules.preset(draw(st.sampled_from(["chengdu", "online"])))

    def next_index() -> int:
        nonlocal index
        index += draw(st.integers(1, 4))
        return index

    def tile() -> int:
        return draw(st.integers(0, 26))

    def a_kong(seat: int, kind: str | None = None) -> KongEvent:
        kind = kind or draw(st.sampled_from(KINDS))
        others = sorted(in_round - {seat})
        return KongEvent(index=next_index(), seat=seat, kind=kind, tile=tile(),
                         discarder=draw(st.sampled_from(others)) if kind == "direct" else None,
                         in_round=frozenset(in_round), fresh=draw(st.booleans()))

    def a_win(seat: int, discarder: int | None, group: int, before: frozenset[int],
              **extra: Any) -> WinEvent:
        fan = draw(st.integers(0, 12))
        return WinEvent(index=next_index(), seat=seat, tile=tile(), discarder=discarder,
                        fan=fan, points=rules_for_points.points(fan), detail=f"{fan} fan",
                        pattern=None, in_round=before, group=group, **extra)

    for _ in range(draw(st.integers(0, 6))):
        if len(in_round) < 2:
            break
        seat = draw(st.sampled_from(sorted(in_round)))
        others = sorted(in_round - {seat})
        action = draw(st.sampled_from(ACTIONS))
        before = frozenset(in_round)
        if action == "kong":
            events.append(a_kong(seat))
        elif action in ("self_drawn", "kong_then_self_draw"):
            k = a_kong(seat) if action == "kong_then_self_draw" else None
            if k is not None:
                events.append(k)
            events.append(a_win(seat, None, next_index(), before, after_kong=k))
            in_round.discard(seat)
        else:
            # ``seat`` discards (or is robbed); one or more of the others win on it
            k = a_kong(seat) if action == "kong_then_discard" else None
            if k is not None:
                events.append(k)
            most = 1 if action == "discard" else len(others)
            winners = draw(st.lists(st.sampled_from(others), min_size=1, max_size=most,
                                    unique=True))
            group = next_index()
            for w in winners:
                events.append(a_win(w, seat, group, before, rob_kong=action == "rob_kong",
                                    kong_before_discard=k))
            in_round.difference_update(winners)

    drawn = len(in_round) >= 2 and draw(st.sampled_from([True, True, False]))
    checks: list[DrawCheck] = []
    if drawn:
        for seat in sorted(in_round):
            pig = draw(st.sampled_from([False, False, True]))
            ready = None if pig else draw(st.none() | st.integers(0, 10))
            no_kong = None if ready is None else draw(st.integers(0, ready))
            checks.append(DrawCheck(seat=seat, flower_pig=pig, ready_fan=ready,
                                    ready_fan_no_kong=no_kong))
    # kong_payment_timing: after_discard — a kong is released by its declarer's discard
    # (right after it), unless the declarer won first (here: by chance)
    released = {e.index: e.index for e in events
                if isinstance(e, KongEvent) and draw(st.booleans())}
    # 诈胡 under a false_win penalty: by a seat still in the round at some point
    false_wins = tuple(
        FalseWin(index=i, seat=seat, tile=tile(), discarder=None, reason="not_a_winning_hand",
                 in_round=frozenset({0, 1, 2, 3}) - {e.seat for e in events
                                                     if isinstance(e, WinEvent) and e.index < i})
        for i, seat in sorted(draw(st.lists(st.tuples(st.integers(0, index + 1),
                                                      st.integers(0, 3)), max_size=2))))
    used = {e.index for e in events}
    false_wins = tuple(f for f in false_wins if f.seat in f.in_round and f.index not in used)
    return RoundRecord(dealer=draw(st.integers(0, 3)), events=tuple(events), drawn=drawn,
                       false_wins=false_wins,
                       checks=tuple(checks), base=draw(st.integers(1, 5)),
                       complete=draw(st.sampled_from([True, True, True, False])),
                       kong_discards=draw(st.sampled_from([released, None])))


@st.composite
def rulesets(draw: st.DrawFn) -> Rules:
    preset = draw(st.sampled_from(["chengdu", "online"]))
    max_fan = draw(st.none() | st.integers(3, 8))
    pig = draw(st.sampled_from([0, 8, 16, "cap"]))
    if pig == "cap" and max_fan is None:
        max_fan = 7
    options: dict[str, object] = {
        "max_fan": max_fan,
        "flower_pig": pig,
        "kong_payments": {k: draw(st.integers(0, 3)) for k in KINDS},
        "kong_then_discard_won": draw(st.sampled_from(
            ["keep", "transfer_last", "transfer_all", "refund"])),
        "dian_gang_hua": draw(st.sampled_from(["self_draw", "discard"])),
        "flower_pig_payees": draw(st.sampled_from(["all_non_pigs", "non_pigs_in_round",
                                                   "pot"])),
        "false_win": draw(st.sampled_from([
            "violation", {"penalty": 4, "to": "each_other_player"}, {"penalty": 2, "to": "pot"}])),
        "pig_pays_ting_check": draw(st.booleans()),
        "ting_check": draw(st.sampled_from(["max", "max_no_kong_fan", "flat", "off"])),
        "price_difference": draw(st.booleans()),
        "tax_refund": draw(st.booleans()),
        "self_draw_bonus": draw(st.sampled_from(["none", "plus_fan", "plus_base"])),
        "added_kong_fresh_only": draw(st.booleans()),
        "kong_payment_timing": draw(st.sampled_from(["immediate", "after_discard"])),
    }
    return Rules.preset(preset).with_options(options)


@settings(max_examples=200, deadline=None)
@given(round_records(), rulesets())
def test_settlement_balances_and_every_payment_is_a_real_transfer(
        record: RoundRecord, rules: Rules) -> None:
    result = settle(record, rules)
    deltas = [0, 0, 0, 0]
    for p in result.payments:
        assert p.amount > 0
        assert p.payer != p.payee
        assert p.payer in range(4) and p.payee in range(4)
        assert p.reason in REASONS
        assert p.detail
        deltas[p.payer] -= p.amount
        deltas[p.payee] += p.amount
    for p in result.pot_payments:  # into the pot: the club's, no seat receives it
        assert p.amount > 0 and p.payee == POT and p.reason in ("flower_pig", "false_win")
        deltas[p.payer] -= p.amount
    assert tuple(deltas) == result.deltas
    # without a pot the money balances; with one, the deltas sum to minus the pot
    assert sum(result.deltas) == -result.pot
    assert result.pot == 0 or rules.flower_pig_payees == "pot" or (
        isinstance(rules.false_win, dict) and rules.false_win["to"] == "pot")
    assert result.next_dealer == next_dealer(record)


#: which params name a payment's payer and payee, by reason
ROLES = {
    "kong_direct": ("payer", "konger"), "kong_added": ("payer", "konger"),
    "kong_concealed": ("payer", "konger"), "win_self_drawn": ("payer", "winner"),
    "win_discard": ("payer", "winner"), "win_rob_kong": ("payer", "winner"),
    "call_transfer": ("konger", "winner"), "kong_refund": ("konger", "kong_payer"),
    "flower_pig": ("pig", "payee"), "ting_check": ("payer", "payee"),
    "price_difference": ("payer", "payee"), "tax_refund": ("konger", "kong_payer"),
    "false_win": ("payer", "payee"),
}


@settings(max_examples=150, deadline=None)
@given(round_records(), rulesets())
def test_every_payment_sentence_is_rendered_from_its_params_which_name_payer_and_payee(
        record: RoundRecord, rules: Rules) -> None:
    result = settle(record, rules)
    for p in result.payments + result.pot_payments:
        assert p.detail == describe(p.reason, p.params)
        assert json.loads(json.dumps(p.params)) == p.params
        payer, payee = ROLES[p.reason]
        assert (p.params[payer], p.params[payee], p.params["amount"]) == (
            p.payer, "pot" if p.payee == POT else p.payee, p.amount)


@settings(max_examples=60, deadline=None)
@given(round_records(), rulesets())
def test_settling_twice_gives_the_same_result(record: RoundRecord, rules: Rules) -> None:
    assert settle(record, rules) == settle(record, rules)


@settings(max_examples=100, deadline=None)
@given(round_records(), rulesets())
def test_players_who_won_take_no_part_in_later_events(record: RoundRecord,
                                                      rules: Rules) -> None:
    by_index = {e.index: e for e in (*record.events, *record.false_wins)}
    for p in settle(record, rules).payments:
        if p.event is not None:
            in_round = by_index[p.event].in_round
            assert p.payer in in_round and p.payee in in_round
        else:
            # end-of-round checks: only a drawn, complete round; the payer is a checked seat
            # (a flower-pig payee or a tax-refund payer's former payer may have won)
            assert record.drawn and record.complete
            assert p.payer in {c.seat for c in record.checks}


@settings(max_examples=60, deadline=None)
@given(round_records(), rulesets())
def test_base_scales_every_amount(record: RoundRecord, rules: Rules) -> None:
    one = settle(_with_base(record, 1), rules)
    more = settle(record, rules)
    assert [(p.payer, p.payee, p.reason) for p in one.payments] == \
        [(p.payer, p.payee, p.reason) for p in more.payments]
    # 自摸加底 adds one base, so amounts scale with the base exactly as a whole
    assert [p.amount * record.base for p in one.payments] == [p.amount for p in more.payments]


def _with_base(record: RoundRecord, base: int) -> RoundRecord:
    return dataclasses.replace(record, base=base)
