"""Pages of the club's books: seasons, printable standings, the ledger with settle-ups.

Forms are checked by the API's serializers, so a page and the API refuse the same input.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError

from analysis import labels, sentences
from analysis.league import ratings, selectors, services
from analysis.league.corrections import (
    correct_match,
    handle_history,
    link_handle,
    ruleset_name,
    wind,
)
from analysis.league.corrections import match_history as history
from analysis.league.params import ledger_for, ruleset_param
from analysis.league.serializers import SeasonSerializer, SettleUpSerializer, decimal_of
from analysis.league.tasks import recompute_ratings
from analysis.models import MatchVoid, Season, SettleUp
from analysis.tasks import verify_match
from records.access import member_or_404, require_admin
from records.models import Match, Membership, Player, Seat
from records.permissions import signed_in
from xuezhan.rules import PRESETS


def _season_form(post: Any) -> dict[str, Any]:
    """The form's fields as the API takes them (tie-breaks: comma-separated codes)."""
    data = {k: post.get(k, "") for k in ("name", "starts_on", "ends_on", "method", "min_matches")}
    data["ruleset"] = post.get("ruleset", "chengdu").strip() or "chengdu"
    data["point_value"] = post.get("point_value") or None
    # the page's selects, in order (``tie_break``), or comma-separated codes (``tie_breaks``)
    chosen = post.getlist("tie_break") if hasattr(post, "getlist") else []
    data["tie_breaks"] = [t for t in chosen if t] or [
        t.strip() for t in post.get("tie_breaks", "").split(",") if t.strip()]
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
        "tie_break_slots": [""] * len(selectors.TIE_BREAK_NAMES),
        "rulesets": labels.table("ruleset"),
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
        context["form"] = form
        slots = list(form["tie_breaks"])[: len(selectors.TIE_BREAK_NAMES)]
        context["tie_break_slots"] = slots + [""] * (len(selectors.TIE_BREAK_NAMES) - len(slots))
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
            "tie_breaks": _(", ").join(str(selectors.TIE_BREAK_NAMES[t])
                                        for t in season.tie_breaks),
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
    context: dict[str, Any] = {"club": membership.club, "season": season, "errors": {},
                               "rulesets": labels.table("ruleset")}
    context["asked"] = request.GET.get("ruleset", "")
    status = 200
    if context["asked"]:
        try:
            result = selectors.what_if(season, ruleset_param(request.GET))
        except ValidationError as exc:
            context["errors"] = exc.detail
            status = 400
        else:
            context["result"] = result
            names: dict[int, list[str]] = defaultdict(list)
            for match_id, handle in (Seat.objects.filter(
                    match_id__in={r.match for r in result.illegal_rounds})
                    .order_by("match_id", "seat").values_list("match_id", "player__handle")):
                names[match_id].append(handle)
            # the violations in the page's words (players by name, rounds from 1)
            context["illegal"] = [
                {"match": r.match, "round": r.round,
                 "violations": sentences.report_violations(r.violations, names[r.match])}
                for r in result.illegal_rounds]
    return render(request, "league/what_if.html", context, status=status)


CORRECTIONS = ("players", "ruleset", "void", "unvoid", "accept", "withdraw")


@login_required
def match_history(request: HttpRequest, club_id: int, match_id: int) -> HttpResponse:
    """The match's history (members), one row per change a person made; admins correct
    the match here (who sat where, the ruleset, void or count it again, accept an illegal
    match as played or withdraw that), always with a reason."""
    membership = member_or_404(request, club_id)
    club = membership.club
    match = Match.objects.filter(club=club, pk=match_id).defer("raw").first()
    if match is None:
        raise Http404("No such match.")
    errors: dict[str, str] = {}
    status = 200
    if request.method == "POST":
        require_admin(membership)
        try:
            _correct(request, match)
        except services.LeagueError as exc:
            errors = {exc.field: correction_error(exc)}
            status = 400
        else:
            messages.success(request, _("Saved: the change is in the history below."))
            return redirect("pages:match-history", club_id=club.pk, match_id=match.pk)
    seats = list(match.seats.select_related("player").order_by("seat"))
    return render(
        request,
        "league/match_history.html",
        {
            "club": club,
            "match": match,
            "changes": history(match),
            "is_admin": membership.has_role(Membership.Role.ADMIN),
            "errors": errors,
            "form": request.POST,
            "seats": [(correction_wind(s.seat), s) for s in seats],
            "roster": Player.objects.filter(club=club).order_by("handle"),
            "voided": MatchVoid.objects.filter(match=match).exists(),
            "acceptance": selectors.accepted(match),
            "presets": [(name, ruleset_name(name)) for name in PRESETS],
        },
        status=status,
    )


def correction_wind(seat: int) -> str:
    return wind(seat)


def correction_error(exc: services.LeagueError) -> str:
    """A refused correction, naming its field in the page language."""
    names = {"reason": _("Why"), "players": _("Players"), "ruleset": _("Ruleset"),
             "match": _("Match"), "document": _("Document"), "action": _("Change")}
    return _("%(field)s: %(message)s") % {"field": names.get(exc.field, exc.field),
                                          "message": exc.message}


def _correct(request: HttpRequest, match: Match) -> None:
    post, by = request.POST, signed_in(request)
    action = post.get("action", "")
    reason = post.get("reason", "").strip()[:1000]
    if action not in CORRECTIONS:
        raise services.LeagueError("action", _("unknown change"))
    if not reason:
        raise services.LeagueError("reason", _("say why"))
    if action == "accept":
        services.accept_match(match=match, by=by, reason=reason)
        recompute_ratings.delay_on_commit(match.club_id)
        return
    if action == "withdraw":
        services.withdraw_acceptance(match=match, by=by, reason=reason)
        recompute_ratings.delay_on_commit(match.club_id)
        return
    fields: dict[str, Any] = {}
    if action == "players":
        fields["players"] = [(post.get(f"new{i}", "").strip() or post.get(f"seat{i}", "")).strip()
                             for i in range(4)]
    elif action == "ruleset":
        fields["ruleset"] = post.get("ruleset", "")
    else:
        fields["void"] = action == "void"
    outcome = correct_match(match=match, by=by, reason=reason, **fields)
    if outcome.reverify:
        verify_match.delay_on_commit(outcome.match.pk)
    if outcome.ratings:
        recompute_ratings.delay_on_commit(match.club_id)


@login_required
def player_list(request: HttpRequest, club_id: int) -> HttpResponse:
    """The club's handles and the members' accounts they are linked to; admins link or
    unlink them (with a reason, kept with who and when in the list of changes below)."""
    membership = member_or_404(request, club_id)
    club = membership.club
    errors: dict[str, str] = {}
    status = 200
    if request.method == "POST":
        require_admin(membership)
        try:
            _link(request, club)
        except services.LeagueError as exc:
            errors = {exc.field: exc.message}
            status = 400
        else:
            messages.success(request, _("Saved."))
            return redirect("pages:player-list", club_id=club.pk)
    return render(request, "league/players.html", {
        "club": club,
        "is_admin": membership.has_role(Membership.Role.ADMIN),
        "players": Player.objects.filter(club=club).select_related("user").order_by("handle"),
        "members": club.memberships.select_related("user").order_by("user__username"),
        "changes": handle_history(club)[:50],
        "errors": errors,
        "form": request.POST,
    }, status=status)


def _link(request: HttpRequest, club: Any) -> None:
    post = request.POST
    player = Player.objects.filter(club=club, pk=_int(post.get("player"))).first()
    if player is None:
        raise services.LeagueError("player", _("no such player in this club"))
    user = None
    if post.get("action") == "link":
        member = club.memberships.filter(pk=_int(post.get("member"))).select_related("user").first()
        if member is None:
            raise services.LeagueError("user", _("choose a member of the club"))
        user = member.user
    link_handle(player=player, user=user, by=signed_in(request),
                reason=post.get("reason", "")[:1000])


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0
