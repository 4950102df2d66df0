"""Pages of score sheets: entering one at the table, and a written-down round's own page.

The form (templates/league/sheet_new.html, static/xuezhan/sheet.js) builds the sheet in
the browser and keeps it there until it is saved; it asks ``…/sheets/check/`` to settle it
as it grows. Saving posts the sheet as JSON: a sheet with something missing is refused
with the reasons (400); one the engine finds fault with is stored only once the person
confirms (409 until then); a stored one answers with the match's page (``Accept:
application/json``) or redirects to it. Without the script, the page posts the same
fields and shows the same answers.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from analysis import labels, sentences
from analysis.league.corrections import ruleset_name, wind
from analysis.league.nights import selectors as nights
from analysis.league.services import LeagueError
from analysis.league.sheets import checks, services
from analysis.models import Night, payments_of
from analysis.tasks import verify_match
from records.access import member_or_404
from records.errors import DocumentError
from records.models import Club, Match, Player, Round, Seat
from records.names import visible
from records.permissions import signed_in
from xuezhan.rules import PRESETS
from xuezhan.sheet import IMPLIED

TILES = [f"{rank}{suit}" for suit in "mps" for rank in range(1, 10)]


@cache
def tile_faces_served() -> bool:
    """Whether the analysis board's tile faces (static/xuezhan/tiles.js, its
    ``XuezhanTiles.face``) are there: the keypad draws them, else text tiles."""
    return finders.find("xuezhan/tiles.js") is not None


def _night(club: Club, request: HttpRequest) -> Night | None:
    value = request.GET.get("night") or request.POST.get("night") or ""
    if not value.isdigit():
        return None
    return nights.night_of(club, int(value))


def _seated(night: Night | None, request: HttpRequest) -> list[str]:
    """The players of the seating's table the sheet is for (``round``, ``table``), east
    first; else none."""
    if night is None or not night.seating:
        return []
    try:
        r, t = int(request.GET.get("round", "")), int(request.GET.get("table", ""))
        ids = night.seating["rounds"][r][t]
    except (ValueError, IndexError, KeyError, TypeError):
        return []
    handles = dict(Player.objects.filter(pk__in=ids).values_list("pk", "handle"))
    return [handles[i] for i in ids if i in handles]


def form_text() -> dict[str, Any]:
    """Everything the form's script shows, in the page language."""
    add_ons = {k: v for k, v in labels.table("add_on").items() if k not in IMPLIED}
    return {
        "patterns": labels.table("pattern"),
        "add_ons": add_ons,
        "suits": labels.table("suit"),
        "winds": [wind(i) for i in range(4)],
        "text": {
            "players": _("Players, by wind (East deals the first round)"),
            "ruleset": _("Ruleset"),
            "played_at": _("Played at"),
            "round": _("Round %(n)s"),
            "dealer": _("Dealer"),
            "dealer_rule": _("Worked out by the rules; change it if the table did otherwise."),
            "dealer_by_hand": _("Chosen by hand."),
            "dealer_waiting": _("The next dealer is worked out once the round before is "
                                "complete."),
            "add_win": _("Win"),
            "add_kong": _("Kong"),
            "add_round": _("Next round"),
            "remove": _("Remove"),
            "remove_round": _("Remove this round"),
            "done": _("Done"),
            "edit": _("Change"),
            "win_title": _("Win"),
            "kong_title": _("Kong"),
            "winner": _("Winner"),
            "from": _("On whose discard"),
            "self_drawn": _("Self-drawn"),
            "tile": _("Tile"),
            "pick_tile": _("Pick the tile"),
            "pattern": _("Pattern"),
            "choose": _("choose…"),
            "fan": _("Fan (if not from the pattern)"),
            "add_ons": _("Add-ons"),
            "rob_kong": _("Robbed a kong (qiang gang)"),
            "after_kong": _("On a kong's replacement (gang shang hua)"),
            "kong_discard": _("On the discard after a kong (gang shang pao)"),
            "with_previous": _("Same discard as the win before (several wins)"),
            "who": _("Who"),
            "kind": _("Kind"),
            "kinds": {"direct": _("direct (on a discard)"), "added": _("added (to a pung)"),
                      "concealed": _("concealed")},
            "drawn": _("Drawn: the wall ran out"),
            "at_the_draw": _("At the draw"),
            "still_in": _("not ready"),
            "ready": _("ready"),
            "flower_pig": _("flower pig"),
            "win_line": _("%(winner)s wins on %(from)s's discard"),
            "win_self": _("%(winner)s wins self-drawn"),
            "kong_line": _("%(who)s: %(kind)s"),
            "payments": _("Payments"),
            "no_payments": _("No payments."),
            "after_round": _("After round %(n)s"),
            "totals": _("Totals"),
            "checking": _("Checking…"),
            "offline": _("No connection: the sheet is kept on this phone; it is checked and "
                         "saved once the connection is back."),
            "kept": _("Restored the sheet you were entering (kept on this phone until it is "
                      "saved)."),
            "start_afresh": _("Start afresh"),
            "afresh_sure": _("Throw this sheet away?"),
            "all_good": _("Everything on the sheet adds up."),
            "problems": _("To check before saving"),
            "saving": _("Saving…"),
            "save_anyway": _("Save it anyway"),
            "save_refused": _("Not saved yet:"),
            "new_player": _("a new player…"),
            "new_player_name": _("New player's handle"),
        },
    }


@login_required
def sheet_new(request: HttpRequest, club_id: int) -> HttpResponse:
    """Enter a score sheet at the table; for a night's table when ``night`` (and
    ``round``, ``table`` of its seating) say so."""
    membership = member_or_404(request, club_id)
    club = membership.club
    night = _night(club, request)
    if request.method == "POST":
        return _save(request, club, night)
    zone_now = timezone.localtime(timezone.now(), _zone(club)).strftime("%Y-%m-%dT%H:%M")
    roster = list(Player.objects.filter(club=club).order_by("handle").values_list(
        "handle", flat=True))
    seated = _seated(night, request)
    context = {
        "club": club,
        "night": night,
        "now": zone_now,
        "start": {
            "club": club.pk, "night": night.pk if night else None, "players": seated,
            "roster": roster, "played_at": zone_now,
            "ruleset": _default_ruleset(club),
            "rulesets": [[code, ruleset_name(code)] for code in PRESETS],
            "tiles": TILES,
            "check": reverse("api:sheet-check", args=[club.pk]),
            "save": reverse("pages:sheet-new", args=[club.pk]),
            "key": f"xuezhan-sheet:{club.pk}:{night.pk if night else ''}:"
                   f"{request.GET.get('round', '')}:{request.GET.get('table', '')}",
        },
        "text": form_text(),
        "winds": [wind(i) for i in range(4)],
        "seated": seated,
        "roster": roster,
        "tiles_js": tile_faces_served(),
    }
    return render(request, "league/sheet_new.html", context)


def _zone(club: Club) -> ZoneInfo:
    return ZoneInfo(club.time_zone)


def _default_ruleset(club: Club) -> str:
    """The preset of the club's latest match (a table plays what it played last)."""
    latest = Match.objects.filter(club=club).order_by("-uploaded_at").values_list(
        "ruleset_name", flat=True).first()
    return latest if latest in PRESETS else "chengdu"


def _form(request: HttpRequest) -> dict[str, Any] | None:
    """The posted sheet: JSON (the script), or the form field ``sheet`` holding it."""
    raw = request.body if request.content_type == "application/json" else request.POST.get(
        "sheet", "").encode()
    try:
        form = json.loads(raw or b"null")
    except ValueError:
        return None
    return form if isinstance(form, dict) else None


def _save(request: HttpRequest, club: Club, night: Night | None) -> HttpResponse:
    wants_json = "application/json" in request.headers.get("Accept", "")
    form = _form(request)
    if form is None:
        problems = [checks.Problem(_("The sheet could not be read."))]
        return _refused(request, club, night, problems, 400, wants_json)
    try:
        doc = services.sheet_document(club, form)
    except LeagueError as exc:
        problems = [checks.Problem(_("Played at: %(message)s") % {"message": exc.message},
                                   field="played_at")]
        return _refused(request, club, night, problems, 400, wants_json)
    checked = checks.check_sheet(doc)
    if checked.blocking:
        return _refused(request, club, night, checked.problems, 400, wants_json)
    if checked.problems and not form.get("confirmed"):
        return _refused(request, club, night, checked.problems, 409, wants_json)
    try:
        upload = services.save_sheet(club=club, by=signed_in(request), doc=doc, night=night)
    except (DocumentError, LeagueError):
        problems = [checks.Problem(_("The sheet could not be stored; check it and try again."))]
        return _refused(request, club, night, problems, 400, wants_json)
    if upload.created:
        verify_match.delay_on_commit(upload.match.pk)
    url = reverse("pages:match-detail", args=[club.pk, upload.match.pk])
    if wants_json:
        return JsonResponse({"ok": True, "match": upload.match.pk, "url": url})
    return redirect(url)


def _refused(request: HttpRequest, club: Club, night: Night | None,
             problems: list[checks.Problem], status: int, wants_json: bool) -> HttpResponse:
    if wants_json:
        return JsonResponse({"ok": False, "confirm": status == 409,
                             "problems": [p.to_json() for p in problems]}, status=status)
    return render(request, "league/sheet_refused.html", {
        "club": club, "night": night, "problems": problems, "confirm": status == 409,
        "sheet": request.POST.get("sheet", ""),
    }, status=status)


# -- a written-down round -----------------------------------------------------------------


@login_required
def sheet_round(request: HttpRequest, club_id: int, match_id: int, number: int
                ) -> HttpResponse:
    """One round of a score sheet as written down (its kongs and wins in order, the
    draw's checks) and its settlement line by line; rounds counted from 1."""
    membership = member_or_404(request, club_id)
    match = Match.objects.filter(club=membership.club, pk=match_id).first()
    if match is None or match.document.get("format") != "xuezhan-sheet":
        raise Http404("No such score sheet.")
    rounds = match.document.get("rounds", [])
    if not 1 <= number <= len(rounds):
        raise Http404("No such round.")
    names = [visible(s.player.handle) for s in Seat.objects.filter(match=match)
             .select_related("player").order_by("seat")]  # invisible characters written out
    round_doc = rounds[number - 1]
    row = Round.objects.filter(match=match, index=number - 1).select_related(
        "settlement").first()
    payments = payments_of(row) if row else []
    seat_names = dict(enumerate(names))
    return render(request, "league/sheet_round.html", {
        "club": membership.club, "match": match, "number": number, "count": len(rounds),
        "dealer": names[round_doc["dealer"]],
        "events": [_written(e, names) for e in round_doc.get("events", [])],
        "drawn": bool(round_doc.get("drawn")),
        "checks": _checks(round_doc, names),
        "lines": [{"payer": names[p.payer], "payee": names[p.payee], "amount": p.amount,
                   "reason": labels.label("reason", p.reason),
                   "text": sentences.line_sentence(p, seat_names)} for p in payments],
        "deltas": list(zip(names, row.settlement.deltas, strict=True))
        if row and hasattr(row, "settlement") else [],
        "verified": row is not None and hasattr(row, "settlement"),
    })


def _written(event: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """A win or kong of the sheet in words."""
    tile = labels.tile_text(event["tile"])
    who = names[event["seat"]]
    if event["type"] == "kong":
        kinds = {"direct": _("direct kong"), "added": _("added kong"),
                 "concealed": _("concealed kong")}
        text = _("%(who)s: %(kind)s of %(tile)s") % {
            "who": who, "kind": kinds[event["kind"]], "tile": tile}
        if event.get("from") is not None:
            text += " " + _("(on %(name)s's discard)") % {"name": names[event["from"]]}
        return {"kind": "kong", "text": text}
    how = (_("%(who)s wins on %(name)s's discard with %(tile)s") % {
        "who": who, "name": names[event["from"]], "tile": tile}
        if event.get("from") is not None else
        _("%(who)s wins self-drawn with %(tile)s") % {"who": who, "tile": tile})
    value = []
    patterns = event.get("pattern")
    for p in [patterns] if isinstance(patterns, str) else patterns or []:
        value.append(labels.label("pattern", p))
    for name, count in sorted((event.get("add_ons") or {}).items()):
        value.append(labels.label("add_on", name) + (f" ×{count}" if count > 1 else ""))
    flags = {"rob_kong": _("robbing a kong"), "after_kong": _("on a kong's replacement"),
             "kong_discard": _("on the discard after a kong"),
             "with_previous": _("the same discard as the win before")}
    value += [text for flag, text in flags.items() if event.get(flag)]
    if "fan" in event:
        value.append(pgettext("fan count", "%(n)s fan") % {"n": event["fan"]})
    return {"kind": "win", "text": how, "value": value}


def _checks(round_doc: dict[str, Any], names: list[str]) -> list[str]:
    out = []
    for ready in round_doc.get("ready", []):
        out.append(_("%(name)s was ready (%(fan)s fan)") % {
            "name": names[ready["seat"]], "fan": ready["fan"]})
    for seat in round_doc.get("flower_pigs", []):
        out.append(_("%(name)s was a flower pig") % {"name": names[seat]})
    return out
