"""Pages: a player's statistics and the club leaderboard (docs/statistics.md)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext

from analysis import charts, stats
from analysis.labels import label
from analysis.stats_serializers import LeaderboardQuerySerializer, StatsQuerySerializer
from records import selectors as records_selectors
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
)


def _club(request: HttpRequest, club_id: int) -> Club:
    membership = records_selectors.membership_for(user=request.user, club_id=club_id)
    if membership is None:
        raise Http404("No such club.")
    return membership.club


def _query(request: HttpRequest, serializer_class: type[StatsQuerySerializer]) -> Any:
    query = serializer_class(data=request.GET.dict())
    return query, query.is_valid()


def stat_rows(data: dict[str, Any], percentiles: dict[str, float | None]) -> list[dict[str, Any]]:
    """Every statistic as a row for the page: key, shown value, sample, low-sample flag."""
    rows = []
    for key in stats.stat_keys():
        value: Any = data
        for part in key.split("."):
            value = value[part]
        row = {"key": key, "percentile": percentiles.get(key)}
        if isinstance(value, dict) and "value" in value:
            shown = "—" if value["value"] is None else f"{value['value']:.3g}"
            row.update(
                value=shown,
                numerator=value["numerator"],
                denominator=value["denominator"],
                low_sample=value["low_sample"],
            )
        elif isinstance(value, dict):
            row.update(value=f"{value['count']} × / {value['amount']}")
        else:
            row.update(value=value)
        rows.append(row)
    return rows


def percentiles(club: Club, player: Player, filters: stats.Filters) -> dict[str, float | None]:
    """The player's percentile in the club for every statistic (one grouped query)."""
    table = stats.club_table(club, filters)
    mine = next((row for row in table if row["player"] == player.pk), None)
    if mine is None:
        return {}
    out: dict[str, float | None] = {}
    for key in stats.stat_keys():
        values = [v for row in table if (v := stats.scalar(row["stats"], key)) is not None]
        out[key] = stats.percentile(stats.scalar(mine["stats"], key), values)
    return out


@login_required
def player_stats(request: HttpRequest, club_id: int, player_id: int) -> HttpResponse:
    club = _club(request, club_id)
    player = Player.objects.filter(club=club, pk=player_id).first()
    if player is None:
        raise Http404("No such player.")
    query, valid = _query(request, StatsQuerySerializer)
    context: dict[str, Any] = {"club": club, "player": player, "errors": query.errors}
    filters = query.filters() if valid else stats.Filters()
    period = query.validated_data["period"] if valid else "week"
    data = stats.player_stats(club, player, filters, period)
    s = data["stats"]
    names = {
        "wins": gettext("won"),
        "paid_for_wins": gettext("paid for wins"),
        "kongs": gettext("kongs"),
        "ting_check": gettext("ting check (查叫)"),
        "flower_pig": gettext("flower pig (花猪)"),
    }
    parts = [(names[k], v) for k, v in data["decomposition"].items() if k != "net"]
    order = [
        (gettext("winner no. %(n)s") % {"n": n}, s["win_order"][n]["value"] or 0.0)
        for n in ("1", "2", "3")
    ]
    patterns = [
        (label("pattern", name), r["value"] or 0.0) for name, r in s.get("patterns", {}).items()
    ]
    rows = stat_rows(s, percentiles(club, player, filters))
    context.update(
        data=data,
        filters=filters,
        period=period,
        # counts are plain ints, and a template would read an int's .numerator/.denominator
        # as a rate's: the headline takes the rows, which say which is which
        headline=[row for key in HEADLINE for row in rows if row["key"] == key],
        rows=rows,
        waterfall=charts.waterfall(parts, gettext("net"), gettext("Net by source")),
        parts=parts,
        win_order=charts.bars(order, gettext("Win order"), percent=True),
        order=order,
        pattern_chart=charts.bars(patterns, gettext("Patterns"), percent=True),
        patterns=patterns,
        trend_chart=charts.line(
            [(p["period"], p["net"]) for p in data["trend"]], gettext("Net per period")
        ),
        players=Player.objects.filter(club=club).exclude(pk=player.pk).order_by("handle"),
    )
    return render(request, "analysis/stats_player.html", context)


@login_required
def leaderboard(request: HttpRequest, club_id: int) -> HttpResponse:
    club = _club(request, club_id)
    query, valid = _query(request, LeaderboardQuerySerializer)
    if valid:
        data = query.validated_data
        stat, min_rounds, order = data["stat"], data["min_rounds"], data["order"]
        filters = query.filters()
    else:
        stat, min_rounds, order, filters = (
            "net_per_round",
            stats.LOW_SAMPLE,
            "desc",
            stats.Filters(),
        )
    rows = stats.leaderboard(club, stat, min_rounds, filters, order)
    return render(
        request,
        "analysis/stats_leaderboard.html",
        {
            "club": club,
            "rows": rows,
            "stat": stat,
            "min_rounds": min_rounds,
            "order": order,
            "keys": stats.stat_keys(),
            "filters": filters,
            "errors": query.errors,
        },
    )
