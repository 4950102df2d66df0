"""Pages of the match review: the report of one match, and a player's reviewed matches
sorted by 进张 lost (linked from the statistics page's review figures)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext, pgettext_lazy

from analysis import labels
from analysis.review import selectors, services, worst
from records.access import member_or_404
from records.models import Match, Player
from xuezhan.errors import XuezhanError

#: the review's kinds by name (the viewer's panel uses the same words)
KINDS = {
    "exchange": pgettext_lazy("review kind", "exchange"),
    "dingque": pgettext_lazy("review kind", "void suit"),
    "discard": pgettext_lazy("review kind", "discard"),
    "peng": pgettext_lazy("review kind", "peng"),
    "gang": pgettext_lazy("review kind", "kong"),
    "pass_win": pgettext_lazy("review kind", "win passed up"),
}
VERDICTS = {
    "worse": pgettext_lazy("review verdict", "worse"),
    "void_held": pgettext_lazy("review verdict", "void suit kept"),
}
#: the worst decisions the report lists, and the match page
WORST_SHOWN, WORST_ON_MATCH_PAGE = 20, worst.ON_MATCH_PAGE
PAGE_SIZE = 25


def step_url(club_id: int, match_id: int, round_index: int, event: int) -> str:
    """The viewer at the step that shows a decision, its review panel open (a decision at
    event ``e`` of the round shows at step ``e + 1``, docs/review.md)."""
    url = reverse("pages:round-viewer", args=[club_id, match_id, round_index + 1])
    return f"{url}?step={event + 1}&review=1"


def tiles_text(chosen: str) -> str:
    """An option as the review writes it ("5m", "123m", "m", "peng 5m", "pass") in the page
    language: tiles with their suit's character (5万), a void suit by name."""
    words = chosen.split()
    if words == ["pass"]:
        return pgettext("review option", "pass")
    if len(words) == 2:
        verb = {"peng": pgettext("review option", "peng"),
                "gang": pgettext("review option", "kong")}.get(words[0], words[0])
        return f"{verb} {tiles_text(words[1])}"
    if chosen in labels.SUITS:
        return labels.label("suit", chosen)
    suit = {"m": pgettext("suit, after a number", "m"), "p": pgettext("suit, after a number", "p"),
            "s": pgettext("suit, after a number", "s")}
    return f"{chosen[:-1]}{suit.get(chosen[-1:], chosen[-1:])}" if chosen else chosen


def percent(share: float | None) -> str:
    return "—" if share is None else f"{share:.0%}"


def per_discard(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def first_ready(club_id: int, match_id: int, ready: dict[str, Any] | None
                ) -> dict[str, Any] | None:
    """When a seat was first ready, linked to that step: its waits and their unseen copies."""
    if not ready:
        return None
    return {"round_number": ready["round"] + 1, "step": ready["event"] + 1,
            "url": step_url(club_id, match_id, ready["round"], ready["event"]),
            "waits": " ".join(tiles_text(t) for t in ready.get("waits", [])),
            "unseen": ready.get("unseen", 0)}


def seat_rows(club_id: int, match_id: int, seats: list[dict[str, Any]],
              names: list[str]) -> list[dict[str, Any]]:
    """Each seat's summary as shown: shares as percentages, mistakes by kind by name."""
    return [
        {
            "seat": s["seat"], "name": names[s["seat"]] if s["seat"] < len(names) else s["seat"],
            "decisions": s["decisions"], "share_best": percent(s["share_best"]),
            "share_best_or_equal": percent(s["share_best_or_equal"]),
            "ukeire_lost": s["ukeire_lost"],
            "per_discard": per_discard(s["ukeire_lost_per_discard"]),
            "mistakes": [(str(KINDS.get(k, k)), n) for k, n in s["mistakes"].items()],
            "mistake_count": sum(s["mistakes"].values()), "passed_wins": s["passed_wins"],
            "first_ready": first_ready(club_id, match_id, s.get("first_ready")),
        }
        for s in seats
    ]


def worst_rows(club_id: int, match_id: int, worst: list[dict[str, Any]],
               names: list[str]) -> list[dict[str, Any]]:
    """The worst decisions as shown, each linked to its step in the viewer."""
    return [
        {**w, "name": names[w["seat"]] if w["seat"] < len(names) else w["seat"],
         "round_number": w["round"] + 1, "step": w["event"] + 1,
         "kind_label": KINDS.get(w["kind"], w["kind"]),
         "verdict_label": VERDICTS.get(w["verdict"], w["verdict"]),
         "chosen_text": tiles_text(w["chosen"]), "best_text": tiles_text(w["best"]),
         "url": step_url(club_id, match_id, w["round"], w["event"])}
        for w in worst
    ]


def review_context(club_id: int, match: Match, shown: int) -> dict[str, Any]:
    """The review as a page shows it: its status, and once ready the seats' summaries,
    each seat's worst decision and the ``shown`` worst of the match."""
    review = selectors.match_review(match)
    context: dict[str, Any] = {"review_status": review.status, "review_names": review.players}
    if review.status == selectors.REVIEWING:
        services.ask_for_review(match_id=match.pk)
    if review.status != selectors.READY or review.verification is None:
        return context
    try:
        found, mistakes = selectors.page_worst_decisions(match, review.verification, shown)
    except XuezhanError:
        found, mistakes = [], 0  # the summaries are stored: show them without the decisions
    rows = worst_rows(club_id, match.pk, found, review.players)
    seats = seat_rows(club_id, match.pk, review.seats, review.players)
    for seat in seats:
        seat["worst"] = next((w for w in rows if w["seat"] == seat["seat"]), None)
    context.update(review_seats=seats, review_worst=rows[:shown],
                   review_more=max(mistakes - shown, 0), review=review)
    return context


def round_rows(review: selectors.MatchReview) -> list[dict[str, Any]]:
    """Per round, each seat's share best-or-equal, 进张 lost and mistakes."""
    return [
        {"number": i + 1, "seats": [
            {"share": percent(s["share_best_or_equal"]), "lost": s["ukeire_lost"],
             "mistakes": sum(s["mistakes"].values()), "decisions": s["decisions"]}
            for s in seats]}
        for i, seats in enumerate(review.rounds)
    ]


@login_required
def match_review(request: HttpRequest, club_id: int, match_id: int) -> HttpResponse:
    club = member_or_404(request, club_id).club
    match = selectors.club_match(club, match_id)
    if match is None:
        raise Http404("No such match.")
    context = review_context(club_id, match, WORST_SHOWN)
    review = context.get("review")
    context.update(club=club, match=match,
                   rounds=round_rows(review) if review is not None else [],
                   waiting=context["review_status"] in (selectors.PENDING, selectors.REVIEWING))
    return render(request, "review/match_review.html", context)


@login_required
def player_matches(request: HttpRequest, club_id: int, player_id: int) -> HttpResponse:
    club = member_or_404(request, club_id).club
    player = Player.objects.filter(club=club, pk=player_id).first()
    if player is None:
        raise Http404("No such player.")
    page = Paginator(selectors.player_matches(club, player), PAGE_SIZE).get_page(
        request.GET.get("page"))
    rows = list(page.object_list)
    stored = selectors.stored_seat_summaries([r["match"] for r in rows])
    for row in rows:
        seats = stored.get(row["match"], [])
        summary = seats[row["seat"]] if row["seat"] < len(seats) else None
        row["share"] = percent(row["best"] / row["discards"]) if row["discards"] else "—"
        row["per_discard"] = per_discard(row["lost"] / row["discards"] if row["discards"]
                                         else None)
        row["mistakes"] = [(str(KINDS.get(k, k)), n) for k, n in
                           (summary or {}).get("mistakes", {}).items()]
        row["url"] = reverse("pages:match-review", args=[club_id, row["match"]])
    return render(request, "review/player_matches.html", {
        "club": club, "player": player, "rows": rows, "page": page,
        "title": _("%(name)s's reviewed matches") % {"name": player.handle},
    })
