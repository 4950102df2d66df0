"""The replay viewer: one page per round, stepping through the engine's replay frames.

Rounds are numbered from 1 in the URL as on every page (the document and the API count
from 0). Step 0 is the deal and step ``n`` the table after the round's event ``n``
(events counted from 1), so a violation at event ``n`` links to ``#step=n``.
The frames (``xuezhan.replay.replay_frames``) are embedded with ``json_script``; the
script (static/xuezhan/viewer.js) draws them and reads every key defensively.
"""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from analysis import labels, sentences
from analysis.models import Violation, payments_of
from analysis.templatetags.tiles import tile_names
from records.access import member_or_404
from records.models import Match, Round, Seat
from records.names import visible
from xuezhan.errors import XuezhanError
from xuezhan.replay import replay_frames

_SEAT = re.compile(r"\bseat ([0-3])\b")
#: violations of the deal itself: shown at step 0; other round-level ones at the end
_DEAL_CODES = frozenset({"bad_deal", "bad_wall", "fifth_copy", "wrong_dealer", "dice_missing"})


def name_seats(text: str, names: list[str]) -> str:
    """The engine's "seat 2" as the player's name ("carol"): pages never show seat numbers."""
    return _SEAT.sub(lambda m: names[int(m[1])] if int(m[1]) < len(names) else m[0], text)


def violation_step(code: str, event_index: int | None, last_step: int) -> int:
    """The viewer step that shows a violation: after its event, else the deal or the end."""
    if event_index is not None:
        return min(event_index + 1, last_step)
    return 0 if code in _DEAL_CODES else last_step


def viewer_url(club_id: int, match_id: int, round_index: int, step: int | None = None,
               review: bool = False) -> str:
    """The viewer of a round (``round_index`` from 0) at ``step``; ``review``: with the
    review panel open (``?step=K&review=1``, as the match report links a decision)."""
    url = reverse("pages:round-viewer", args=[club_id, match_id, round_index + 1])
    if review:
        return url + ("?review=1" if step is None else f"?step={step}&review=1")
    return url if step is None else f"{url}#step={step}"


def script_text() -> dict[str, str]:
    """The sentences the script fills in, in the page language."""
    return {
        "deal": _("The deal: {dealer} deals."),
        "deal_dice": _("The deal: {dealer} deals, the dice show {dice}."),
        "exchange": _("Exchange: every player passes three tiles (die {die})."),
        "dingque": _("Void suits declared: {suits}."),
        "draw": _("{actor} draws {tile}."),
        "discard": _("{actor} discards {tile}."),
        "peng": _("{actor} pengs {target}'s {tile}."),
        "gang_ming": _("{actor} makes a direct kong on {target}'s {tile}."),
        "gang_jia": _("{actor} adds {tile} to a pung (added kong)."),
        "gang_an": _("{actor} makes a concealed kong of {tile}."),
        "hu_self": _("{actor} wins self-drawn on {tile}."),
        "hu_discard": _("{actor} wins on {target}'s {tile}."),
        "other": _("Event {number}: {type}."),
        "step": _("Step {step} of {last}"),
        "gave": _("gave {tiles}"),
        "received": _("received {tiles}"),
        "won": _("won #{order}"),
        "dealer": _("dealer"),
        "to_act": _("to act"),
        "void": _("void: {suit}"),
        "wall": _("Wall: {count} tiles left"),
        "dice": _("Dice: {dice}"),
        "dealer_is": _("Dealer: {name}"),
        "hidden": _("{count} hidden tiles"),
        "meld_from": _("from {name}"),
        "claimed_by": _("claimed by {name}"),
        "won_by": _("won by {name}"),
        "win_order": _("Win order: {names}"),
        "no_win": _("No one has won yet."),
        "tile": pgettext("tile, for screen readers", "{rank} {suit}"),
        "play": _("Play"),
        "pause": _("Pause"),
        "peng_meld": pgettext("meld", "pung"),
        "ming_meld": pgettext("meld", "direct kong"),
        "jia_meld": pgettext("meld", "added kong"),
        "an_meld": pgettext("meld", "concealed kong"),
        "mark_win": pgettext("timeline mark", "win"),
        "mark_kong": pgettext("timeline mark", "kong"),
        "mark_violation": pgettext("timeline mark", "violation"),
        "mark_mistake": _("{name}: {verdict}, {count} 进张 lost"),
        **review_text(),
    }


def review_text() -> dict[str, str]:
    """The review panel's words (docs/review.md names the kinds and verdicts)."""
    return {
        "review_loading": _("Loading the review…"),
        "review_failed": _("The review could not be loaded."),
        "review_none": _("No decision to review at this step."),
        "review_of": _("{name}: {kind}"),
        "review_chosen": _("Chosen:"),
        "review_shanten": _("Shanten {before} → {after}"),
        "review_ukeire": _("Tile acceptance (进张): {count} unseen"),
        "review_loss": _("{count} unseen 进张 fewer than the best"),
        "review_alternatives": _("Best options:"),
        "review_best": _("Best:"),
        "review_option": _("shanten {shanten}, {count} unseen"),
        "review_pass": pgettext("review option", "pass"),
        "review_peng": pgettext("review option", "peng"),
        "review_gang": pgettext("review option", "kong"),
        "review_hu": pgettext("review option", "win"),
        "kind_exchange": pgettext("review kind", "exchange"),
        "kind_dingque": pgettext("review kind", "void suit"),
        "kind_discard": pgettext("review kind", "discard"),
        "kind_peng": pgettext("review kind", "peng"),
        "kind_gang": pgettext("review kind", "kong"),
        "kind_pass_win": pgettext("review kind", "win passed up"),
        "verdict_best": pgettext("review verdict", "best"),
        "verdict_equal": pgettext("review verdict", "as good as the best"),
        "verdict_worse": pgettext("review verdict", "worse"),
        "verdict_void_held": pgettext("review verdict", "void suit kept"),
        "verdict_passed": pgettext("review verdict", "win passed"),
    }


def _violation(step: int, code: str, seat: int | None, message: str,
               names: list[str], round_index: int) -> dict[str, Any]:
    """A violation as the viewer marks it: a sentence in the page language; its detail is
    the engine's English (with names for seats) on an English page only."""
    player = names[seat] if seat is not None and seat < len(names) else None
    text = sentences.violation_sentence(code, message, player, round_index)
    return {"step": step, "code": code, "label": labels.label("violation", code), "seat": seat,
            "message": text, "detail": sentences.engine_detail(name_seats(message, names), text)}


@login_required
def round_viewer(request: HttpRequest, club_id: int, match_id: int, number: int) -> HttpResponse:
    membership = member_or_404(request, club_id)
    match = (Match.objects.filter(club=membership.club, pk=match_id)
             .select_related("verification").first())
    if match is None:
        raise Http404("No such match.")
    index = number - 1
    round_ = Round.objects.filter(match=match, index=index).select_related("settlement").first()
    if round_ is None:
        raise Http404("No such round.")
    if match.document.get("format") == "xuezhan-sheet":  # no tiles: the round as written
        return redirect("pages:sheet-round", club_id=club_id, match_id=match_id, number=number)
    # handles as shown: invisible characters written out, in the sentences and the script too
    names = [visible(s.player.handle) for s in Seat.objects.filter(match=match)
             .select_related("player").order_by("seat")]
    round_count = Round.objects.filter(match=match).count()
    context: dict[str, Any] = {
        "club": membership.club, "match": match, "number": number, "round_count": round_count,
        "previous": number - 1 if number > 1 else None,
        "next": number + 1 if number < round_count else None,
    }
    try:
        frames = replay_frames(match.document, index)
    except XuezhanError as exc:
        context["error"] = str(exc)
        return render(request, "analysis/round_viewer.html", context, status=422)
    last = len(frames) - 1
    violations = [
        _violation(violation_step(v.code, v.event_index, last), v.code, v.seat, v.message, names,
                   index)
        for v in Violation.objects.filter(verification__match=match, round_index=index)
        .order_by("ordinal")
    ]
    if not violations:  # not verified yet: the frames' own problems, worded the same way
        violations = [_violation(step, p["code"], p.get("seat"), p["message"], names, index)
                      for step, frame in enumerate(frames) for p in frame.get("problems", [])]
    payments = payments_of(round_)
    seat_names = dict(enumerate(names))
    context["lines"] = [
        {"payer": names[p.payer], "payee": names[p.payee], "amount": p.amount,
         "reason": labels.label("reason", p.reason),
         "detail": sentences.line_sentence(p, seat_names)}
        for p in payments
    ]
    round_doc = match.document["rounds"][index]
    context["data"] = {
        "names": names, "dealer": round_doc.get("dealer"), "dice": round_doc.get("dice"),
        "frames": frames, "violations": violations,
        "labels": {kind: labels.table(kind) for kind in ("pattern", "add_on", "suit")},
        "text": script_text(),
        "tile_names": tile_names(),
        "review_url": reverse("api:round-review", args=[club_id, match_id, index]),
    }
    context["names"] = names
    return render(request, "analysis/round_viewer.html", context)
