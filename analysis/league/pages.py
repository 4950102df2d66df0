"""Pages of the club's books: seasons, printable standings, the ledger with settle-ups.

Forms are checked by the API's serializers, so a page and the API refuse the same input.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError

from analysis import labels
from analysis.league import ratings, selectors, services
from analysis.league.corrections import match_history as history
from analysis.league.params import ledger_for, ruleset_param
from analysis.league.serializers import SeasonSerializer, SettleUpSerializer, decimal_of
from analysis.models import Season, SettleUp
from analysis.tasks import verify_match
from records import services as records_services
from records.access import member_or_404
from records.errors import DocumentError
from records.models import Match, Membership
from records.permissions import signed_in
from xuezhan.schema import canonical_bytes
from xuezhan.sheet import IMPLIED, settle_sheet


def _season_form(post: Any) -> dict[str, Any]:
    """The form's fields as the API takes them (tie-breaks: comma-separated codes)."""
    data = {k: post.get(k, "") for k in ("name", "starts_on", "ends_on", "method", "min_matches")}
    data["ruleset"] = post.get("ruleset", "chengdu").strip() or "chengdu"
    data["point_value"] = post.get("point_value") or None
    data["tie_breaks"] = [t.strip() for t in post.get("tie_breaks", "").split(",") if t.strip()]
    data["include_accepted"] = post.get("include_accepted") == "on"
    return data


@login_required
def season_list(request: HttpRequest, club_id: int) -> HttpResponse:
    membership = member_or_404(request, club_id)
    club = membership.club
    context: dict[str, Any] = {
        "club": club,
        "membership": membership,
        "is_admin": membership.has_role(Membership.Role.ADMIN),
        "tie_breaks": selectors.TIE_BREAK_NAMES,
        "errors": {},
        "form": {},
    }
    if request.method == "POST":
        if not membership.has_role(Membership.Role.ADMIN):
            return HttpResponse(status=403)
        form = _season_form(request.POST)
        serializer = SeasonSerializer(data=form)
        if serializer.is_valid():
            try:
                season = services.save_season(
                    club=club, by=signed_in(request), **serializer.validated_data
                )
            except services.LeagueError as exc:
                context["errors"] = {exc.field: [exc.message]}
            else:
                return redirect("pages:season-standings", club_id=club.pk, season_id=season.pk)
        else:
            context["errors"] = serializer.errors
        context["form"] = {**form, "tie_breaks": ", ".join(form["tie_breaks"])}
        context["seasons"] = Season.objects.filter(club=club)
        return render(request, "league/season_list.html", context, status=400)
    context["seasons"] = Season.objects.filter(club=club)
    return render(request, "league/season_list.html", context)


@login_required
def season_standings(request: HttpRequest, club_id: int, season_id: int) -> HttpResponse:
    membership = member_or_404(request, club_id)
    season = Season.objects.filter(club=membership.club, pk=season_id).first()
    if season is None:
        raise Http404("No such season.")
    standings = selectors.standings(season)
    rows = [
        {
            "row": row,
            "points": decimal_of(row.placement_points),
            "net_per_round": decimal_of(row.net_per_round),
            "deal_ins_per_round": decimal_of(row.deal_ins_per_round),
        }
        for row in standings.rows
    ]
    return render(
        request,
        "league/standings.html",
        {
            "club": membership.club,
            "season": season,
            "standings": standings,
            "rows": rows,
            "placement": season.method == Season.Method.PLACEMENT,
            "tie_breaks": [selectors.TIE_BREAK_NAMES[t] for t in season.tie_breaks],
            "other": selectors.season_other_ruleset_matches(season).order_by("played_at"),
            "print": request.GET.get("print") == "1",
        },
    )


@login_required
def ledger(request: HttpRequest, club_id: int) -> HttpResponse:
    membership = member_or_404(request, club_id)
    club = membership.club
    context: dict[str, Any] = {
        "club": club,
        "is_admin": membership.has_role(Membership.Role.ADMIN),
        "seasons": Season.objects.filter(club=club),
        "query": request.GET,
        "errors": {},
        "settle_errors": {},
    }
    status = 200
    if request.method == "POST":
        if not membership.has_role(Membership.Role.ADMIN):
            return HttpResponse(status=403)
        body = SettleUpSerializer(data=request.POST, context={"club": club})
        if body.is_valid():
            try:
                services.record_settle_up(club=club, by=signed_in(request), **body.validated_data)
            except services.LeagueError as exc:
                context["settle_errors"] = {exc.field: [exc.message]}
                status = 400
            else:
                return redirect(request.get_full_path())
        else:
            context["settle_errors"] = body.errors
            status = 400
    try:
        context["book"] = ledger_for(club, request.GET)
    except ValidationError as exc:
        context["errors"] = exc.detail
        status = 400
    context["settle_ups"] = SettleUp.objects.filter(club=club).select_related(
        "payer", "payee", "recorded_by", "season"
    )[:100]
    return render(request, "league/ledger.html", context, status=status)


@login_required
def rating_list(request: HttpRequest, club_id: int) -> HttpResponse:
    membership = member_or_404(request, club_id)
    rows = list(selectors.leaderboard(membership.club))
    return render(
        request,
        "league/ratings.html",
        {
            "club": membership.club,
            "rows": rows,
            "model": ratings,
            "parameters": ratings.PARAMETERS,
        },
    )


CHART_WIDTH, CHART_HEIGHT = 600, 200


def chart_points(values: list[tuple[float, float]]) -> dict[str, Any]:
    """SVG coordinates of a rating line and its ±sigma band, scaled to the chart."""
    if not values:
        return {"line": "", "band": "", "low": 0, "high": 0}
    low = min(v - s for v, s in values)
    high = max(v + s for v, s in values)
    span = (high - low) or 1.0
    step = CHART_WIDTH / max(len(values) - 1, 1)

    def xy(i: int, value: float) -> str:
        return f"{i * step:.1f},{CHART_HEIGHT - (value - low) / span * CHART_HEIGHT:.1f}"

    upper = [xy(i, v + s) for i, (v, s) in enumerate(values)]
    lower = [xy(i, v - s) for i, (v, s) in enumerate(values)]
    return {
        "line": " ".join(xy(i, v) for i, (v, _) in enumerate(values)),
        "band": " ".join(upper + lower[::-1]),
        "low": round(low, 1),
        "high": round(high, 1),
    }


@login_required
def rating_detail(request: HttpRequest, club_id: int, player_id: int) -> HttpResponse:
    membership = member_or_404(request, club_id)
    player = membership.club.players.filter(pk=player_id).first()
    if player is None:
        raise Http404("No such player.")
    steps = list(selectors.rating_history(player))
    return render(
        request,
        "league/rating_detail.html",
        {
            "club": membership.club,
            "player": player,
            "steps": steps,
            "chart": chart_points([(s.mu, s.sigma) for s in steps]),
            "width": CHART_WIDTH,
            "height": CHART_HEIGHT,
        },
    )


@login_required
def season_what_if(request: HttpRequest, club_id: int, season_id: int) -> HttpResponse:
    membership = member_or_404(request, club_id)
    season = Season.objects.filter(club=membership.club, pk=season_id).first()
    if season is None:
        raise Http404("No such season.")
    context: dict[str, Any] = {"club": membership.club, "season": season, "errors": {}}
    context["asked"] = request.GET.get("ruleset", "")
    status = 200
    if context["asked"]:
        try:
            context["result"] = selectors.what_if(season, ruleset_param(request.GET))
        except ValidationError as exc:
            context["errors"] = exc.detail
            status = 400
    return render(request, "league/what_if.html", context, status=status)


@login_required
def match_history(request: HttpRequest, club_id: int, match_id: int) -> HttpResponse:
    membership = member_or_404(request, club_id)
    match = Match.objects.filter(club=membership.club, pk=match_id).defer("raw").first()
    if match is None:
        raise Http404("No such match.")
    return render(
        request,
        "league/match_history.html",
        {"club": membership.club, "match": match, "changes": history(match)},
    )


SHEET_EXAMPLE = """[
  {"dealer": 0, "events": [
    {"type": "win", "seat": 1, "from": 3, "tile": "9m",
     "pattern": "qing_yi_se", "add_ons": {"gen": 1}}
  ]},
  {"dealer": 1, "events": [], "drawn": true, "ready": [{"seat": 2, "fan": 1}], "flower_pigs": [0]}
]"""


def _sheet_from_form(post: Any) -> tuple[dict[str, Any], str | None]:
    """The sheet the form describes, or why its rounds are not JSON."""
    sheet: dict[str, Any] = {
        "format": "xuezhan-sheet",
        "version": 1,
        "ruleset": post.get("ruleset", "").strip() or "chengdu",
        "players": [post.get(f"player{i}", "").strip() for i in range(4)],
        "rounds": [],
    }
    if post.get("played_at"):
        sheet["played_at"] = post["played_at"]
    try:
        sheet["rounds"] = json.loads(post.get("rounds", "[]"))
    except ValueError as exc:
        return sheet, _("rounds: not JSON (%(why)s)") % {"why": exc}
    return sheet, None


def _sheet_builder_text() -> dict[str, Any]:
    """What the round-by-round form's script shows, in the page language."""
    add_ons = {k: v for k, v in labels.table("add_on").items() if k not in IMPLIED}
    return {
        "patterns": labels.table("pattern"),
        "add_ons": add_ons,
        "reasons": labels.table("reason"),
        "violations": labels.table("violation"),
        "text": {
            "round": _("Round"),
            "dealer": _("Dealer"),
            "add_win": _("Add a win"),
            "add_kong": _("Add a kong"),
            "add_round": _("Add a round"),
            "remove": _("Remove"),
            "remove_round": _("Remove this round"),
            "win": _("Win"),
            "kong": _("Kong"),
            "winner": _("Winner"),
            "on_discard_of": _("On the discard of"),
            "self_drawn": _("self-drawn"),
            "tile": _("Tile"),
            "rob_kong": _("Robbed a kong (qiang gang)"),
            "after_kong": _("On a kong's replacement (gang shang hua)"),
            "kong_discard": _("On the discard after a kong (gang shang pao)"),
            "with_previous": _("Same discard as the win before"),
            "pattern": _("Pattern"),
            "add_ons": _("Add-ons"),
            "fan": _("Fan"),
            "who": _("Who"),
            "kind": _("Kind"),
            "from": _("From"),
            "kinds": {
                "direct": _("direct (on a discard)"),
                "added": _("added (to a pung)"),
                "concealed": _("concealed"),
            },
            "drawn": _("Drawn: the wall ran out"),
            "at_the_draw": _("At the draw"),
            "still_in": _("not ready"),
            "ready": _("ready"),
            "flower_pig": _("flower pig"),
            "preview": _("Settlement"),
            "payments": _("Payments"),
            "failed": _("The preview could not be reached."),
            "adds_up": _("Everything on the sheet adds up."),
            "no_payments": _("No payments."),
            "totals": _("Totals"),
            "seat": _("seat"),
            "event": _("event"),
        },
    }


@login_required
def sheet_new(request: HttpRequest, club_id: int) -> HttpResponse:
    """Enter a score sheet: preview the settlement round by round, then save it as a match."""
    membership = member_or_404(request, club_id)
    club = membership.club
    context: dict[str, Any] = {
        "club": club,
        "form": request.POST,
        "example": SHEET_EXAMPLE,
        "builder": _sheet_builder_text(),
    }
    if request.method != "POST":
        return render(request, "league/sheet_new.html", context)
    sheet, problem = _sheet_from_form(request.POST)
    if problem:
        context["problem"] = problem
        return render(request, "league/sheet_new.html", context, status=400)
    report = settle_sheet(sheet)
    names = sheet["players"]
    context["report"] = report
    context["rounds"] = [
        {
            "index": i,
            "deltas": list(zip(names, r.settlement.deltas, strict=True)),
            "payments": [(names[p.payer], names[p.payee], p) for p in r.settlement.payments],
        }
        for i, r in enumerate(report.rounds)
    ]
    context["totals"] = list(zip(names, report.totals, strict=True))
    if request.POST.get("action") != "save":
        return render(request, "league/sheet_new.html", context)
    try:
        upload = records_services.upload_match(
            club=club, raw=canonical_bytes(sheet), uploaded_by=signed_in(request)
        )
    except DocumentError as exc:
        context["problem"] = "; ".join(f"{e['path']}: {e['message']}" for e in exc.errors)
        return render(request, "league/sheet_new.html", context, status=400)
    if upload.created:
        verify_match.delay_on_commit(upload.match.pk)
    return redirect("pages:match-detail", club_id=club.pk, match_id=upload.match.pk)
