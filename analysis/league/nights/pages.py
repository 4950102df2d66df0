"""Pages of club nights, and the club's home.

The club's home (``/clubs/C/``) shows at a glance what a member comes for: the open night
(or the last one) with its settle-up, what the member owes or is owed, the season's top and
their place, the latest matches, and the actions of their role. A night's page runs the
evening: the people present and their seating, each table's match as it arrives, the
running totals, the settle-up marked paid, closing. Forms post to the page they are on;
admins act, members read (403 on a form).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from analysis.league import ledger, seating
from analysis.league.nights import selectors, services
from analysis.league.services import LeagueError, money_value
from analysis.models import Night
from records.access import member_or_404, require_admin
from records.models import Club, Membership, Player
from records.names import INVISIBLE_MESSAGE, has_unsafe
from records.permissions import signed_in
from records.webhooks.selectors import disabled_webhooks

WINDS = ("east", "south", "west", "north")


def seating_rounds(book: selectors.NightBook) -> list[dict[str, Any]]:
    """The seating as the pages show it: per round its number (from 1), its tables (each
    with its players by wind, in the page language) and who sits out."""
    winds = wind_names()
    rounds = []
    for r, tables in enumerate(book.tables):
        rows = [{"round": t.round, "table": t.table, "number": t.table + 1, "match": t.match,
                 "seats": list(zip(winds, t.players, strict=False))} for t in tables]
        out = book.sitting_out[r] if r < len(book.sitting_out) else []
        rounds.append({"number": r + 1, "tables": rows, "out": out})
    return rounds


def wind_names() -> list[str]:
    """The four seats' winds in the page language, east (the first dealer) first."""
    return [pgettext("wind", "East"), pgettext("wind", "South"), pgettext("wind", "West"),
            pgettext("wind", "North")]


@login_required
def club_home(request: HttpRequest, club_id: int) -> HttpResponse:
    membership = member_or_404(request, club_id)
    home = selectors.home(membership.club, membership)
    is_admin = membership.has_role(Membership.Role.ADMIN)
    return render(request, "league/club_home.html", {
        "club": membership.club,
        "membership": membership,
        "is_admin": is_admin,
        # an endpoint failing for a day was disabled: its admins are told here
        "failing_webhooks": list(disabled_webhooks(membership.club)) if is_admin else [],
        "home": home,
        "book": home.night_book,
        "today": services.night_day(membership.club, timezone.now()),
    })


# -- the nights ---------------------------------------------------------------------------


def field_labels() -> dict[str, str]:
    """The forms' fields by name, in the page language, for their errors."""
    return {
        "players": _("Who is here"), "new_players": _("New players"),
        "rounds": pgettext("seating", "Rounds"),
        "date": _("Date"), "name": _("Name"), "point_value": _("Money per point"),
        "matches": _("Matches"), "match": _("Match"), "from": _("From"), "to": _("To"),
        "points": _("Points"), "action": _("Action"), "seed": _("Seating"),
        "payee": _("To"), "payer": _("From"), "night": _("Night"), "season": _("Season"),
    }


def _errors(exc: LeagueError) -> dict[str, str]:
    """An error as a form shows it: the field's name, then what is wrong."""
    name = field_labels().get(exc.field, exc.field)
    return {exc.field: _("%(field)s: %(message)s") % {"field": name, "message": exc.message}}


def _handles(text: str) -> list[str]:
    """New players' handles, one a line or comma-separated."""
    names = [part.strip() for line in text.splitlines() for part in line.split(",")]
    return [n for n in names if n]


def _present(club: Club, post: Any) -> list[int]:
    """The players ticked as present, and the new handles typed in (created)."""
    ids = [int(v) for v in post.getlist("present") if v.isdigit()]
    new = _handles(post.get("new_players", ""))
    for handle in new:
        if len(handle) > 64:
            raise LeagueError("new_players", _("a handle has at most 64 characters"))
        if has_unsafe(handle):
            raise LeagueError("new_players", str(INVISIBLE_MESSAGE))
    ids += [p.pk for p in services.ensure_players(club, new)]
    return ids


def _number(post: Any, name: str, *, default: int | None = None) -> int | None:
    value = post.get(name, "").strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise LeagueError(name, _("a whole number")) from None


def _day(post: Any) -> date | None:
    value = post.get("date", "").strip()
    if not value:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise LeagueError("date", _("a date, YYYY-MM-DD")) from None


@login_required
def night_list(request: HttpRequest, club_id: int) -> HttpResponse:
    """The club's nights; admins start one (for the people present, seated at once if a
    number of rounds is given), or make one of a proposal."""
    membership = member_or_404(request, club_id)
    club = membership.club
    is_admin = membership.has_role(Membership.Role.ADMIN)
    context: dict[str, Any] = {
        "club": club, "is_admin": is_admin, "errors": {}, "form": request.POST,
        "today": services.night_day(club, timezone.now()).isoformat(),
        "checked": set(request.POST.getlist("present")),
    }
    status = 200
    if request.method == "POST":
        require_admin(membership)
        try:
            night = _start(request, club)
        except LeagueError as exc:
            context["errors"] = _errors(exc)
            status = 400
        else:
            return redirect("pages:night-detail", club_id=club.pk, night_id=night.pk)
    context["nights"] = selectors.nights_page(club)
    context["roster"] = Player.objects.filter(club=club).order_by("handle")
    context["proposals"] = selectors.proposals(club)[:6] if is_admin else []
    return render(request, "league/night_list.html", context, status=status)


def _start(request: HttpRequest, club: Club) -> Night:
    post = request.POST
    by = signed_in(request)
    if post.get("action") == "propose":
        ids = [int(v) for v in post.getlist("matches") if v.isdigit()]
        return services.create_night(club=club, by=by, matches=ids)
    players = _present(club, post)
    rounds = _number(post, "rounds")
    night = services.create_night(
        club=club, by=by, players=players, name=post.get("name", ""), day=_day(post),
        point_value=money_value(post.get("point_value")))
    if rounds:
        services.seat_night(night, players=players, rounds=rounds,
                            seed=_number(post, "seed", default=night.pk) or 0, by=by)
    return night


def _night(membership: Membership, night_id: int) -> Night:
    night = selectors.night_of(membership.club, night_id)
    if night is None:
        raise Http404("No such night.")
    return night


ACTIONS = ("seat", "paid", "close", "reopen", "add_match", "remove_match", "edit", "delete")


@login_required
def night_detail(request: HttpRequest, club_id: int, night_id: int) -> HttpResponse:
    membership = member_or_404(request, club_id)
    night = _night(membership, night_id)
    is_admin = membership.has_role(Membership.Role.ADMIN)
    errors: dict[str, str] = {}
    status = 200
    if request.method == "POST":
        require_admin(membership)
        action = request.POST.get("action", "")
        try:
            if action not in ACTIONS:
                raise LeagueError("action", _("unknown action"))
            if action == "delete":
                services.delete_night(night)
                return redirect("pages:night-list", club_id=club_id)
            _act(request, night, action)
        except LeagueError as exc:
            errors = _errors(exc)
            status = 400
        else:
            return redirect(reverse("pages:night-detail", args=[club_id, night.pk]) + _anchor(
                action))
        night.refresh_from_db()
    book = selectors.night_book(night)
    present = {p.pk for p in book.players}
    return render(request, "league/night_detail.html", {
        "club": membership.club,
        "night": night,
        "book": book,
        "is_admin": is_admin,
        "errors": errors,
        "form": request.POST,
        "seating": seating_rounds(book),
        "totals": [(row, money(row.net, night)) for row in book.rows],
        "roster": [(p, p.pk in present) for p in Player.objects.filter(
            club=membership.club).order_by("handle")],
        "rounds": len(book.tables) or 4,
        "max_rounds": seating.MAX_ROUNDS,
        "seed": (night.seating or {}).get("seed", night.pk),
        "refresh": night.is_open,
    }, status=status)


def _anchor(action: str) -> str:
    return {"seat": "#tables", "paid": "#settle", "close": "#settle", "add_match": "#matches",
            "remove_match": "#matches"}.get(action, "")


def _act(request: HttpRequest, night: Night, action: str) -> None:
    post, by = request.POST, signed_in(request)
    if action == "seat":
        players = _present(night.club, post)
        rounds = _number(post, "rounds", default=4) or 4
        seed = _number(post, "seed", default=0) or 0
        if post.get("reshuffle"):
            seed += 1
        services.seat_night(night, players=players, rounds=rounds, seed=seed, by=by)
    elif action == "paid":
        people = {p.pk: p for p in Player.objects.filter(
            club=night.club, pk__in=[_number(post, "from"), _number(post, "to")])}
        payer, payee = people.get(_number(post, "from") or 0), people.get(_number(post, "to") or 0)
        if payer is None or payee is None:
            raise LeagueError("from", _("not a player of this club"))
        points = _number(post, "points")
        if points is None or points <= 0:
            raise LeagueError("points", _("a positive number of points"))
        services.mark_paid(night, payer=payer, payee=payee, points=points, by=by)
    elif action == "close":
        services.close_night(night, by=by, mark_all_paid=post.get("mark_paid") == "on")
    elif action == "reopen":
        services.reopen_night(night)
    elif action == "add_match":
        match_id = _number(post, "match")
        if match_id is None:
            raise LeagueError("match", _("the number of a match of this club"))
        services.add_match(night, match_id=match_id, by=by)
    elif action == "remove_match":
        services.remove_match(night, match_id=_number(post, "match") or 0)
    elif action == "edit":
        services.change_night(night, by=by, name=post.get("name", ""),
                              date=_day(post) or night.date,
                              point_value=money_value(post.get("point_value")))


@login_required
def night_seating(request: HttpRequest, club_id: int, night_id: int) -> HttpResponse:
    """The night's seating, to print or to show on a screen: each round's tables with their
    players by wind, who sits out, and the seating's quality."""
    membership = member_or_404(request, club_id)
    night = _night(membership, night_id)
    if not night.seating:
        raise Http404("This night has no seating.")
    book = selectors.night_book(night)
    return render(request, "league/night_seating.html", {
        "club": membership.club, "night": night, "book": book,
        "seating": seating_rounds(book), "plan": night.seating,
    })


def money(points: int, night: Night) -> ledger.Money | None:
    return None if night.point_value is None else ledger.to_money(points, night.point_value)
