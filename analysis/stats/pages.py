"""Pages: a player's statistics and the club leaderboard (docs/statistics.md).

The views only translate: every statistic arrives from :mod:`analysis.stats.figures` as the API
serves it and leaves as a row of shown text (label in the page language, value, sample
size, low-sample mark). A key the API does not serve (yet) is shown as "—", never an error:
the page names statistics that other changes add to the API on their own schedule.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from analysis import labels
from analysis.labels import label
from analysis.stats import charts, figures
from analysis.stats.serializers import LeaderboardQuerySerializer, StatsQuerySerializer
from analysis.viewer import viewer_url
from records.access import member_or_404
from records.models import Club, Player

#: the headline numbers at the top of a player page
HEADLINE = (
    "rounds",
    "net",
    "net_per_round",
    "win_rate",
    "first_win_rate",
    "deal_in_rate",
    "deal_in_rate_per_turn",
    "average_win",
    "best_discard_rate",
    "ukeire_lost_per_discard",
)

#: the player page's table of every statistic, in groups (keys as ``figures.stat_keys``);
#: a key the API serves that no group names goes to a last group, "Other"
GROUPS: tuple[tuple[Promise, tuple[str, ...]], ...] = (
    (_("Basics"), (
        "matches", "rounds", "net", "net_per_round", "wins", "win_rate", "self_draw_wins",
        "self_draw_rate", "average_win", "average_fan", "deal_ins", "deal_in_rate",
        "average_deal_in", "paid_for_self_draws", "claim_rate", "draw_rate",
        "ready_at_draw_rate", "dealer_rounds",
    )),
    (_("Exposure per active turn"), (
        "active_turns", "deal_in_rate_per_turn", "paid_for_self_draw_rate_per_turn",
    )),
    (_("Win order"), (
        "first_win_rate", "win_order.1", "win_order.2", "win_order.3", "last_standing_rate",
    )),
    (_("Patterns and add-ons"), (
        "roots_per_win", "kong_bloom_rate", "kong_discard_win_rate", "rob_kong_win_rate",
        "last_tile_win_rate", "heaven_earth_win_rate", "capped_win_rate", "big_deal_ins",
    )),
    (_("Kongs and payments"), (
        "kongs.direct", "kongs.added", "kongs.concealed", "kong_income.gross",
        "kong_income.net", "tax_refunds", "call_transfer_in", "call_transfer_out",
        "robbed_kongs", "flower_pig", "ting_check_received", "ting_check_paid",
    )),
    (_("Exchange and void"), (
        "exchange_shortest_rate", "void_is_given_rate", "void_fewest_rate",
        "void_cleared_turn", "starting_shanten",
    )),
    (_("Decision review"), ("best_discard_rate", "ukeire_lost_per_discard")),
)
OTHER = _("Other")
#: the figures that link to the player's reviewed matches (analysis.review.pages)
REVIEW_KEYS = frozenset({"best_discard_rate", "ukeire_lost_per_discard"})

#: rates that are averages or counts per round, shown as numbers; every other rate is a
#: share, shown as a percentage
AVERAGES = frozenset({
    "net_per_round", "average_win", "average_fan", "average_deal_in", "roots_per_win",
    "kongs.direct", "kongs.added", "kongs.concealed", "big_deal_ins", "void_cleared_turn",
    "starting_shanten", "ukeire_lost_per_discard",
})


def _query(request: HttpRequest, serializer_class: type[StatsQuerySerializer]) -> Any:
    # a form sends its empty fields too ("from=&with="): on a page that means "not set",
    # where the API would call an empty date malformed
    given = {name: value for name, value in request.GET.items() if value != ""}
    query = serializer_class(data=given)
    return query, query.is_valid()


def lookup(data: dict[str, Any], key: str) -> Any:
    """The statistic ``key`` (``a.b`` reaches inside) as served, None when not served."""
    value: Any = data
    for part in key.split("."):
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value


def number(key: str, value: float | int | None) -> str:
    """A statistic's value as shown: "—" for none, a share as a percentage."""
    if value is None:
        return "—"
    if isinstance(value, int):
        return str(value)
    if key not in AVERAGES:
        return f"{value:.1%}"
    return f"{value:.3f}" if 0 < abs(value) < 0.1 else f"{value:.2f}"


def cell(key: str, value: Any) -> dict[str, Any]:
    """One statistic as shown: ``shown`` text and, for a rate, its ``sample`` (n/d) and
    ``low_sample`` mark; a tally (count and amount) shows the amount, the count aside."""
    if isinstance(value, dict) and "value" in value:
        numerator, denominator = value.get("numerator"), value.get("denominator")
        sample = None if denominator is None else f"{numerator}/{denominator}"
        return {
            "shown": number(key, value["value"]),
            "sample": sample,
            "low_sample": bool(value.get("low_sample", False)),
            "numerator": numerator,
            "denominator": denominator,
        }
    if isinstance(value, dict) and "count" in value:
        count = value["count"]
        times = ngettext("%(count)s time", "%(count)s times", count) % {"count": count}
        return {"shown": str(value.get("amount", "—")), "sample": times, "low_sample": False}
    return {"shown": number(key, value), "sample": None, "low_sample": False}


def stat_row(data: dict[str, Any], key: str, percentile: float | None = None) -> dict[str, Any]:
    """The statistic ``key`` of ``data`` as a row: key, label, the :func:`cell`, the raw
    value (as served, None when not served) and the club percentile."""
    value = lookup(data, key)
    return {
        "key": key,
        "label": label("stat", key),
        "raw": value,
        "percentile": None if percentile is None else f"{percentile:.0f}",
        **cell(key, value),
    }


def grouped(keys: Iterable[str]) -> list[tuple[str, list[str]]]:
    """``keys`` in the page's groups, in the groups' order, then the ones no group names."""
    known = list(keys)
    out: list[tuple[str, list[str]]] = []
    for title, members in GROUPS:
        out.append((str(title), [k for k in members if k in known]))
    named = {k for _, members in GROUPS for k in members}
    out.append((str(OTHER), [k for k in known if k not in named]))
    return [(title, members) for title, members in out if members]


def stat_groups(data: dict[str, Any], percentiles: dict[str, float | None]
                ) -> list[tuple[str, list[dict[str, Any]]]]:
    """Every statistic as a row, in groups; the decision review always shows (as "—"
    until the API serves it)."""
    keys = [*figures.stat_keys(), *(k for k in HEADLINE if k not in figures.stat_keys())]
    return [
        (title, [stat_row(data, k, percentiles.get(k)) for k in members])
        for title, members in grouped(keys)
    ]


def percentiles(club: Club, player: Player, filters: figures.Filters) -> dict[str, float | None]:
    """The player's percentile in the club for every statistic (one grouped query)."""
    table = figures.club_table(club, filters)
    mine = next((row for row in table if row["player"] == player.pk), None)
    if mine is None:
        return {}
    out: dict[str, float | None] = {}
    for key in figures.stat_keys():
        values = [v for row in table if (v := figures.scalar(row["stats"], key)) is not None]
        out[key] = figures.percentile(figures.scalar(mine["stats"], key), values)
    return out


def filter_errors(errors: dict[str, Any]) -> list[tuple[str, str]]:
    """The query's errors by the filter's name in the page language."""
    return [(label("filter", field), " ".join(map(str, messages)))
            for field, messages in errors.items()]


def _query_string(request: HttpRequest, **changes: str) -> str:
    query = request.GET.copy()
    for name, value in changes.items():
        query[name] = value
    return f"?{query.urlencode()}" if query else ""


def _records(club: Club, records: dict[str, Any]) -> list[dict[str, Any]]:
    """The biggest win and loss, each linked to the replay viewer at the end of its round
    (where the settlement shows the money)."""
    out = []
    for key, title in (("biggest_win", gettext("Biggest win")),
                       ("biggest_loss", gettext("Biggest loss"))):
        ref = records.get(key)
        row: dict[str, Any] = {"key": key, "label": title, "ref": ref}
        if ref:
            row.update(
                amount=charts.signed(ref["amount"]),
                url=viewer_url(club.pk, ref["match"], ref["round"]) + "#step=end",
                where=gettext("match #%(match)s, round %(round)s") % {
                    "match": ref["match"], "round": ref["round"] + 1},
                day=(ref.get("played_at") or "")[:10],
            )
        out.append(row)
    return out


def _charts(data: dict[str, Any]) -> dict[str, Any]:
    """The player page's charts, each with the rows of its table of numbers."""
    s = data["stats"]
    parts = [(label("part", k), v) for k, v in data["decomposition"].items() if k != "net"]
    order = [(label("stat", f"win_order.{n}"), s["win_order"][n]) for n in "123"]
    ranked = sorted(s.get("patterns", {}).items(), key=lambda nr: -(nr[1]["value"] or 0))
    patterns = [(label("pattern", name), r) for name, r in ranked]
    return {
        "waterfall": charts.waterfall(parts, label("part", "net"), gettext("Net by source")),
        "parts": [(name, charts.signed(v)) for name, v in parts],
        "net": charts.signed(data["decomposition"]["net"]),
        "net_label": label("part", "net"),
        "win_order": charts.bars([(n, r["value"] or 0.0) for n, r in order],
                                 gettext("Win order"), percent=True),
        "order": [{"label": n, **cell("win_order", r)} for n, r in order],
        "pattern_chart": charts.bars([(n, r["value"] or 0.0) for n, r in patterns],
                                     gettext("Patterns"), percent=True),
        "patterns": [{"label": n, **cell("patterns", r)} for n, r in patterns],
        "trend_chart": charts.line([(p["period"], p["net"]) for p in data["trend"]],
                                   gettext("Net per period")),
        "trend": [
            {"period": p["period"], "rounds": p["rounds"], "net": p["net"],
             "win_rate": cell("win_rate", p["win_rate"]),
             "deal_in_rate": cell("deal_in_rate", p["deal_in_rate"]),
             "rolling": cell("net_per_round", p["rolling_net_per_round"])}
            for p in data["trend"]
        ],
    }


@login_required
def player_stats(request: HttpRequest, club_id: int, player_id: int) -> HttpResponse:
    club = member_or_404(request, club_id).club
    player = Player.objects.filter(club=club, pk=player_id).first()
    if player is None:
        raise Http404("No such player.")
    query, valid = _query(request, StatsQuerySerializer)
    filters = query.filters() if valid else figures.Filters()
    period = query.validated_data["period"] if valid else "week"
    data = figures.player_stats(club, player, filters, period)
    context: dict[str, Any] = {
        "club": club, "player": player, "data": data, "filters": filters, "period": period,
        "errors": filter_errors(query.errors), "low_sample": figures.LOW_SAMPLE,
        "headline": [stat_row(data["stats"], key) for key in HEADLINE],
        "groups": stat_groups(data["stats"], percentiles(club, player, filters)),
        "period_links": [(gettext("by week"), "week", _query_string(request, period="week")),
                         (gettext("by month"), "month", _query_string(request, period="month"))],
        "records": _records(club, data["records"]),
        "run": data["records"]["longest_positive_run"],
        "players": Player.objects.filter(club=club).exclude(pk=player.pk).order_by("handle"),
        "csv_query": _query_string(request, format="csv"),
        "json_query": _query_string(request),
        "rulesets": labels.table("ruleset"),
        # the review's figures open the player's matches, the most 进张 lost first
        "review_keys": REVIEW_KEYS,
        "review_url": reverse("pages:player-review", args=[club.pk, player.pk]),
        **_charts(data),
    }
    return render(request, "stats/player.html", context)


def _leaderboard_rows(club: Club, stat: str, rows: list[dict[str, Any]],
                      filters: figures.Filters) -> list[dict[str, Any]]:
    """The ranked rows with the value as shown and its sample (the cached club table)."""
    served = {row["player"]: row["stats"] for row in figures.club_table(club, filters)}
    return [
        {**row, **cell(stat, lookup(served.get(row["player"], {}), stat)),
         "percentile": None if row["percentile"] is None else f"{row['percentile']:.0f}"}
        for row in rows
    ]


@login_required
def leaderboard(request: HttpRequest, club_id: int) -> HttpResponse:
    club = member_or_404(request, club_id).club
    query, valid = _query(request, LeaderboardQuerySerializer)
    if valid:
        data = query.validated_data
        stat, min_rounds, order = data["stat"], data["min_rounds"], data["order"]
        filters = query.filters()
    else:
        stat, min_rounds, order, filters = (
            "net_per_round",
            figures.LOW_SAMPLE,
            "desc",
            figures.Filters(),
        )
    rows = figures.leaderboard(club, stat, min_rounds, filters, order)
    choices = [(title, [(k, label("stat", k)) for k in members])
               for title, members in grouped(figures.stat_keys())]
    return render(
        request,
        "stats/leaderboard.html",
        {
            "club": club,
            "rows": _leaderboard_rows(club, stat, rows, filters),
            "stat": stat,
            "stat_label": label("stat", stat),
            "min_rounds": min_rounds,
            "order": order,
            "choices": choices,
            "filters": filters,
            "errors": filter_errors(query.errors),
            "csv_query": _query_string(request, stat=stat, format="csv"),
        },
    )
