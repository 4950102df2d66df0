"""The statistics facts of one round, per seat, from the engine's report (docs/statistics.md).

Pure functions, no database: ``round_facts`` turns one round of the report (seat facts
and payment lines with their params) and the engine's play facts into the columns of
``SeatResult`` that statistics add up. Every payment line lands in exactly one part of
the net decomposition, so ``win_received - win_paid + kong_net + ting_net + pig_net``
is the seat's delta.
"""

from __future__ import annotations

from typing import Any

from xuezhan.playfacts import PlayFacts

WIN_REASONS = frozenset({"win_self_drawn", "win_discard", "win_rob_kong"})
KONG_REASONS = frozenset(
    {"kong_direct", "kong_added", "kong_concealed", "call_transfer", "kong_refund", "tax_refund"}
)
KONG_PAYMENTS = frozenset({"kong_direct", "kong_added", "kong_concealed"})
TING_REASONS = frozenset({"ting_check", "price_difference"})
#: a deal-in into a hand of at least this many fan is a big deal-in (docs/statistics.md)
BIG_DEAL_IN_FAN = 3
_PLAY_FIELDS = (
    "active_turns", "pengs", "kongs_direct", "kongs_added", "kongs_concealed", "robbed_kongs",
    "deal_ins", "exchange_shortest", "void_is_given", "void_fewest", "void_cleared_turn",
    "starting_shanten",
)  # fmt: skip


def round_facts(
    result: dict[str, Any], play: list[PlayFacts] | None, dealer: int
) -> list[dict[str, Any]]:
    """The statistics columns of each seat of one reported round (a list of four dicts)."""
    seats = result["seats"]
    winners = sum(1 for s in seats if s["won"])
    drawn = any(s["ready"] is not None for s in seats)
    facts = []
    for s in seats:
        seat = s["seat"]
        row: dict[str, Any] = {
            "dealer": seat == dealer,
            "complete": not result["incomplete"],
            "drawn_in": drawn and not s["won"],
            "last_standing": winners == 3 and not s["won"],
            **_money(seat, [*result["payments"], *result.get("pot_payments", ())]),
            **net_from_seats(seat, result["payments"]),
        }
        if play is not None:
            row.update({name: play[seat].get(name) for name in _PLAY_FIELDS})
        facts.append(row)
    return facts


def net_from_seats(seat: int, payments: list[dict[str, Any]]) -> dict[str, int]:
    """What ``seat`` received from each seat over the round's lines, less what it paid it
    (``SeatResult.net_from_*``: head-to-head figures). Pot payments are not lines between
    seats."""
    net = [0, 0, 0, 0]
    for p in payments:
        if p["payee"] == seat:
            net[p["payer"]] += p["amount"]
        elif p["payer"] == seat:
            net[p["payee"]] -= p["amount"]
    return {f"net_from_{other}": amount for other, amount in enumerate(net)}


def _money(seat: int, payments: list[dict[str, Any]]) -> dict[str, Any]:
    """What the seat's payment lines say: the decomposition parts and the counts."""
    out = dict.fromkeys(
        ("deal_in_amount", "big_deal_ins", "paid_self_draws", "paid_self_draw_amount",
         "win_received", "win_paid", "kong_paid", "kong_net", "call_transfer_in",
         "call_transfer_in_amount", "call_transfer_out", "call_transfer_out_amount",
         "tax_refunds", "pig_paid", "pig_net", "ting_net", "roots"), 0)  # fmt: skip
    out.update(dict.fromkeys(
        ("kong_bloom", "kong_discard_win", "rob_kong_win", "last_tile_win", "heaven_earth",
         "capped"), False))  # fmt: skip
    scored = False
    for p in payments:
        reason, amount, params = p["reason"], p["amount"], p.get("params") or {}
        paid, received = p["payer"] == seat, p["payee"] == seat
        if not (paid or received):
            continue
        sign = amount if received else -amount
        if reason in WIN_REASONS:
            if received:
                out["win_received"] += amount
                if not scored:
                    out.update(_win_features(reason, params))
                    scored = True
            else:
                out["win_paid"] += amount
                _count_paid_win(out, reason, amount, params)
        elif reason in KONG_REASONS:
            out["kong_net"] += sign
            if reason in KONG_PAYMENTS and paid:
                out["kong_paid"] += amount
            elif reason == "call_transfer":
                key = "call_transfer_in" if received else "call_transfer_out"
                out[key] += 1
                out[key + "_amount"] += amount
            elif reason == "tax_refund" and paid:
                out["tax_refunds"] += 1
        elif reason in TING_REASONS:
            out["ting_net"] += sign
        elif reason == "flower_pig":
            out["pig_net"] += sign
            out["pig_paid"] += amount if paid else 0
        elif reason == "false_win":
            # a penalty like the pig's (docs/statistics.md): so the parts still sum to the
            # delta, the pot's share included (the pot is the club's: a payer's loss only)
            out["pig_net"] += sign
    return out


def _count_paid_win(out: dict[str, Any], reason: str, amount: int, params: dict[str, Any]) -> None:
    """A deal-in is a payment on one's discard or robbed kong; 点杠花 and self-draws are not."""
    if reason == "win_self_drawn" or params.get("dian_gang_hua"):
        out["paid_self_draws"] += 1
        out["paid_self_draw_amount"] += amount
        return
    out["deal_in_amount"] += amount
    score = params.get("score") or {}
    if score.get("fan", 0) >= BIG_DEAL_IN_FAN:
        out["big_deal_ins"] += 1


def _win_features(reason: str, params: dict[str, Any]) -> dict[str, Any]:
    """The winner's add-ons, read from one of the win's payment lines."""
    score = params.get("score") or {}
    add_ons = {a["name"]: a.get("count", 1) for a in score.get("add_ons", ())}
    patterns = {p["name"] for p in score.get("patterns", ())}
    return {
        "roots": add_ons.get("gen", 0),
        "kong_bloom": bool(params.get("after_kong")),
        "kong_discard_win": bool(params.get("kong_discard")),
        "rob_kong_win": reason == "win_rob_kong",
        "last_tile_win": "hai_di_lao_yue" in add_ons or "hai_di_pao" in add_ons,
        "heaven_earth": bool(patterns & {"tian_hu", "di_hu"}),
        "capped": bool(score.get("capped")),
    }
