"""The net decomposition of analysis/facts.py under the pot and false-win house rules."""

from __future__ import annotations

from analysis.facts import round_facts
from xuezhan.replay import verify_document
from xuezhan.sim.simulate import simulate_match

POT_RULES = {"false_win": {"penalty": 4, "to": "pot"}, "flower_pig_payees": "pot"}
PENALTY_RULES = {"false_win": {"penalty": "cap", "to": "each_other_player"}, "max_fan": 4}


def test_the_decomposition_sums_to_the_delta_with_penalties_and_payments_into_the_pot() -> None:
    seen_pot = seen_penalty = False
    for rules in (POT_RULES, PENALTY_RULES):
        for seed in range(3):
            doc = simulate_match(seed, 4, rules)
            for round_doc, report in zip(doc["rounds"], verify_document(doc).rounds,
                                         strict=True):
                result = report.to_json()
                seen_pot |= bool(result.get("pot"))
                seen_penalty |= any(p["reason"] == "false_win" for p in result["payments"])
                for seat, row in enumerate(round_facts(result, None, round_doc["dealer"])):
                    parts = (row["win_received"] - row["win_paid"] + row["kong_net"]
                             + row["ting_net"] + row["pig_net"])
                    assert parts == result["deltas"][seat]
                assert sum(result["deltas"]) == -result.get("pot", 0)
    assert seen_pot and seen_penalty


def test_the_money_between_two_seats_of_a_round_is_the_sum_of_its_lines_between_them() -> None:
    for rules in ("chengdu", POT_RULES):
        for seed in range(3):
            for report in verify_document(simulate_match(seed, 4, rules)).rounds:
                result = report.to_json()
                rows = round_facts(result, None, 0)
                for seat, other in ((a, b) for a in range(4) for b in range(4)):
                    received = sum(p["amount"] for p in result["payments"]
                                   if (p["payer"], p["payee"]) == (other, seat))
                    paid = sum(p["amount"] for p in result["payments"]
                               if (p["payer"], p["payee"]) == (seat, other))
                    assert rows[seat][f"net_from_{other}"] == received - paid
                    assert rows[seat][f"net_from_{other}"] == -rows[other][f"net_from_{seat}"]
                # the pot's lines are no seat's: what the seats pay it is left out
                assert sum(rows[s][f"net_from_{o}"] for s in range(4) for o in range(4)) == 0
