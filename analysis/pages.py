"""Pages: a match with its verification report and its settlement explained line by line."""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from analysis import selectors
from records import selectors as records_selectors

_SEAT = re.compile(r"\bseat ([0-3])\b")


def with_names(text: str, names: dict[int, str]) -> str:
    """The engine's sentences say "seat 2"; a page says who that was: "carol (seat 2)"."""
    return _SEAT.sub(lambda m: f"{names.get(int(m[1]), 'seat')} (seat {m[1]})", text)


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
                        "detail": with_names(p.detail, names),
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
