"""Pages: a match with its verification report and its settlement explained line by line."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext

from analysis import selectors
from analysis.models import Payment
from records import selectors as records_selectors
from xuezhan.settlement import describe


def payment_sentence(reason: str, params: Mapping[str, Any], names: Mapping[int, str]) -> str:
    """The sentence of one settlement line, made from its data alone: the reason code, its
    params (documented per reason in ``xuezhan.settlement.describe``) and who sat where.
    A seat reads as its player, "carol (seat 2)". The one place a page words a payment:
    another language renders the same reason and params here."""

    def seat(n: int) -> str:
        if n not in names:
            return gettext("seat %(seat)d") % {"seat": n}
        return gettext("%(name)s (seat %(seat)d)") % {"name": names[n], "seat": n}

    return describe(reason, params, seat)


def _line_sentence(payment: Payment, names: Mapping[int, str]) -> str:
    # rows written before payments carried params (or by another engine version, with other
    # params) still have the engine's English line: show it rather than fail the page
    if not payment.params:
        return payment.detail
    try:
        return payment_sentence(payment.reason, payment.params, names)
    except (KeyError, TypeError, ValueError):
        return payment.detail


@login_required
def match_detail(request: HttpRequest, club_id: int, match_id: int) -> HttpResponse:
    membership = records_selectors.membership_for(user=request.user, club_id=club_id)
    if membership is None:
        raise Http404("No such club.")
    match = selectors.club_matches_with_results(membership.club).filter(pk=match_id).first()
    if match is None:
        raise Http404("No such match.")
    names = {seat.seat: seat.player.handle for seat in match.seats.all()}
    rounds: list[dict[str, Any]] = []
    for round_ in match.rounds.all():
        settlement = getattr(round_, "settlement", None)
        rounds.append(
            {
                "round": round_,
                "settlement": settlement,
                "dealer": names.get(round_.dealer, round_.dealer),
                "lines": [
                    {
                        "payer": names.get(p.payer, p.payer),
                        "payee": names.get(p.payee, p.payee),
                        "payment": p,
                        "detail": _line_sentence(p, names),
                    }
                    for p in round_.payments.all()
                ],
                "seats": [
                    {
                        "name": names.get(s.seat, s.seat),
                        "discarder": None if s.discarder is None else names[s.discarder],
                        "result": s,
                    }
                    for s in round_.seat_results.all()
                ],
            }
        )
    verification = getattr(match, "verification", None)
    totals = []
    if verification is not None:
        totals = [{"name": names.get(i, i), "total": t} for i, t in enumerate(verification.totals)]
    return render(
        request,
        "analysis/match_detail.html",
        {
            "club": membership.club,
            "match": match,
            "names": [names[i] for i in sorted(names)],
            "verification": verification,
            "rounds": rounds,
            "totals": totals,
            "duplicate": request.GET.get("duplicate") == "1",
        },
    )
