"""Pages: a match with its verification report and its settlement explained line by line."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from analysis import labels, selectors, sentences, services, viewer
from analysis.models import payments_of
from analysis.review import charts as review_charts
from analysis.review import pages as review_pages
from analysis.review import selectors as review_selectors
from analysis.tasks import verify_match
from records import services as records_services
from records.access import member_or_404, require_admin
from records.models import Match, Membership
from records.names import visible


@login_required
def match_detail(request: HttpRequest, club_id: int, match_id: int) -> HttpResponse:
    membership = member_or_404(request, club_id)
    match = selectors.club_matches_with_results(membership.club).filter(pk=match_id).first()
    if match is None:
        raise Http404("No such match.")
    # handles as shown: invisible characters written out, in the sentences and the script too
    names = {seat.seat: visible(seat.player.handle) for seat in match.seats.all()}
    # a score sheet has no tiles to replay: its rounds link to the round as written down
    sheet = review_selectors.is_sheet(match)
    rounds: list[dict[str, Any]] = []
    for round_ in match.rounds.all():
        settlement = getattr(round_, "settlement", None)
        rounds.append(
            {
                "round": round_,
                "settlement": settlement,
                "url": reverse("pages:sheet-round", args=[club_id, match.pk, round_.index + 1])
                if sheet else viewer.viewer_url(club_id, match.pk, round_.index),
                "dealer": names.get(round_.dealer, round_.dealer),
                "lines": [
                    {
                        "payer": names.get(p.payer, p.payer),
                        "payee": names.get(p.payee, p.payee),
                        "payment": p,
                        "detail": sentences.line_sentence(p, names),
                    }
                    for p in payments_of(round_)
                ],
                # the pot (docs/rules.md §5): what the seats' totals lost to the club's
                # kitty, a line of its own and never a player's
                "pot": -sum(settlement.deltas) if settlement is not None else 0,
                "seats": [
                    {
                        "name": names.get(s.seat, s.seat),
                        "discarder": None if s.discarder is None else names[s.discarder],
                        "result": s,
                    }
                    for s in round_.seat_results.all()
                ],
                # the round's one line (the page shows rounds collapsed)
                "winners": sum(1 for s in round_.seat_results.all() if s.won),
            }
        )
    verification = getattr(match, "verification", None)
    totals = []
    violations: list[dict[str, Any]] = []
    extra: dict[str, Any] = {}
    if verification is not None:
        totals = [{"name": names.get(i, i), "total": t} for i, t in enumerate(verification.totals)]
        violations = _violations(club_id, match, verification.violations.all(), names)
        extra = _chart_and_review(club_id, match, [names[i] for i in sorted(names)], sheet)
    return render(
        request,
        "analysis/match_detail.html",
        {
            "club": membership.club,
            "match": match,
            "names": [names[i] for i in sorted(names)],
            "verification": verification,
            "violations": violations,
            "rounds": rounds,
            "totals": totals,
            "pending": match.status in Match.PENDING,
            "is_admin": membership.has_role(Membership.Role.ADMIN),
            "duplicate": request.GET.get("duplicate") == "1",
            "sheet": sheet,
            **extra,
        },
    )


def _chart_and_review(club_id: int, match: Match, names: list[str], sheet: bool
                      ) -> dict[str, Any]:
    """The running totals as a chart (a line per player) with its legend, and each seat's
    review summary with the match's worst decisions (a score sheet has no review)."""
    lines = review_selectors.score_lines(match)
    out: dict[str, Any] = {
        "score_chart": review_charts.score_chart(
            lines, names, _("Running totals by round"), _("round {number}")),
        "score_legend": [{"seat": seat, "name": name, "total": lines[seat][-1]}
                         for seat, name in enumerate(names)],
    }
    if not sheet:
        out.update(review_pages.review_context(club_id, match,
                                               review_pages.WORST_ON_MATCH_PAGE))
    return out


def _violations(club_id: int, match: Match, rows: Any, names: dict[int, str]) -> list[
        dict[str, Any]]:
    """Each violation as the page shows it: counted from 1, by name, linked to its step."""
    in_order = [names[i] for i in sorted(names)]
    events = {r.index: r.event_count for r in match.rounds.all()}
    out = []
    for v in rows:
        url = None
        if v.round_index is not None and v.round_index in events:
            step = viewer.violation_step(v.code, v.event_index, events[v.round_index])
            url = viewer.viewer_url(club_id, match.pk, v.round_index, step)
        player = None if v.seat is None else names.get(v.seat)
        text = sentences.violation_sentence(v.code, v.message, player, v.round_index)
        out.append({
            "round": None if v.round_index is None else v.round_index + 1,
            "event": None if v.event_index is None else v.event_index + 1,
            "player": player, "code": v.code, "label": labels.label("violation", v.code),
            "message": text,
            "detail": sentences.engine_detail(viewer.name_seats(v.message, in_order), text),
            "url": url,
        })
    return out


@login_required
@require_POST
def match_reverify(request: HttpRequest, club_id: int, match_id: int) -> HttpResponse:
    """An admin queues a match for verification again (as the API's reverify does)."""
    match = _admin_match(request, club_id, match_id)
    services.requeue_match(match=match)
    verify_match.delay_on_commit(match.pk)
    messages.success(request, _("The match is being verified again."))
    return redirect("pages:match-detail", club_id=club_id, match_id=match.pk)


@login_required
@require_POST
def match_delete(request: HttpRequest, club_id: int, match_id: int) -> HttpResponse:
    match = _admin_match(request, club_id, match_id)
    records_services.delete_match(match=match)
    messages.success(request, _("Match #%(id)s was deleted.") % {"id": match_id})
    return redirect("pages:match-list", club_id=club_id)


def _admin_match(request: HttpRequest, club_id: int, match_id: int) -> Match:
    membership = member_or_404(request, club_id)
    match = Match.objects.filter(club=membership.club, pk=match_id).defer("raw").first()
    if match is None:
        raise Http404("No such match.")
    require_admin(membership)
    return match
