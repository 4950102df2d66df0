"""Player statistics, aggregated in the database over the facts (docs/statistics.md).

Every figure is a SQL aggregate: sums and counts first, then one division per rate. The
sums come from one of two sources that give the same numbers:

- ``"aggregates"`` (the default): the materialised per-player-per-day rows of
  ``analysis.stats.aggregates`` (``PlayerDay`` and its siblings), a few hundred rows a player;
- ``"facts"``: the ``SeatResult`` rows themselves (one per seat per round), with the same
  :data:`AGGREGATES`. The ``with`` filter (rounds shared with a co-player) needs the
  rounds, so it always reads the facts.

``player_stats`` serves the API's shape; ``club_table`` computes the same statistics for
every player of a club in one grouped query, for the leaderboard and the percentiles.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any, TypeVar

from django.core.cache import cache
from django.db.models import Count, Min, Model, Q, QuerySet, Sum
from django.db.models.functions import TruncMonth, TruncWeek
from django.utils import timezone

from analysis.models import (
    NET_FROM,
    PairDay,
    PlayerDay,
    PlayerDayPattern,
    PlayerMatch,
    SeatResult,
)
from records.models import Club, Player, Seat

DEFINITIONS_VERSION = 2
LOW_SAMPLE = 30
TREND_WINDOW = 4
M = TypeVar("M", bound=Model)
CLUB_TABLE_SECONDS = 3600  # a bound: a changed definition (a deploy) refreshes within the hour


@dataclass(frozen=True)
class Filters:
    """Which rounds count (docs/statistics.md, "Which rounds count" and "Dates")."""

    start: date | None = None
    end: date | None = None
    ruleset: str | None = None
    with_player: int | None = None
    include_illegal: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "from": self.start.isoformat() if self.start else None,
            "to": self.end.isoformat() if self.end else None,
            "ruleset": self.ruleset,
            "with": self.with_player,
            "include_illegal": self.include_illegal,
        }


def counted(club: Club, filters: Filters) -> QuerySet[SeatResult]:
    """The club's seat rows that count under ``filters``."""
    rows = SeatResult.objects.filter(club=club, complete=True)
    if not filters.include_illegal:
        rows = rows.filter(legal=True)
    if filters.start is not None:
        rows = rows.filter(played_at__gte=_midnight(filters.start))
    if filters.end is not None:
        rows = rows.filter(played_at__lt=_midnight(filters.end + timedelta(days=1)))
    if filters.ruleset:
        rows = rows.filter(ruleset_name=filters.ruleset)
    if filters.with_player is not None:
        # the co-player's rows by (player, played_at): through their matches' seats instead,
        # the planner loops over the matches (a player's statistics twice as slow)
        together = SeatResult.objects.filter(player_id=filters.with_player).values("round_id")
        rows = rows.filter(round_id__in=together)
    return rows


def _midnight(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def keyed(model: type[M], club: Club, filters: Filters) -> QuerySet[M]:
    """The club's rows of a materialised table (``PlayerDay`` …) that count under
    ``filters``; their ``day`` is the date of ``played_at`` in the club's zone (the one the
    request runs in: records/timezones.py), so the date filters select
    exactly the rounds :func:`counted` selects. ``with`` is not theirs to answer."""
    rows = model._default_manager.filter(club=club)
    if not filters.include_illegal:
        rows = rows.filter(legal=True)
    if filters.start is not None:
        rows = rows.filter(day__gte=filters.start)
    if filters.end is not None:
        rows = rows.filter(day__lte=filters.end)
    if filters.ruleset:
        rows = rows.filter(ruleset_name=filters.ruleset)
    return rows


def source_of(filters: Filters, source: str | None = None) -> str:
    """Which rows answer: the day rows unless asked otherwise or filtered by ``with``."""
    if filters.with_player is not None:
        return "facts"
    if source is not None and source not in SOURCES:
        raise ValueError(f"unknown source {source!r}")
    return source or DEFAULT_SOURCE


def _count(condition: Q) -> Count:
    return Count("round", filter=condition)


WON = Q(won=True)
#: every sum and count the statistics are made of, as SQL aggregates
AGGREGATES: dict[str, Any] = {
    "rounds": Count("round"),
    "matches": Count("match_id", distinct=True),
    "net": Sum("delta"),
    "wins": _count(WON),
    "self_draw_wins": _count(WON & Q(self_drawn=True)),
    "win_received": Sum("win_received"),
    "win_paid": Sum("win_paid"),
    "fan": Sum("fan"),
    "deal_ins": Sum("deal_ins"),
    "deal_in_amount": Sum("deal_in_amount"),
    "big_deal_ins": Sum("big_deal_ins"),
    "active_turns": Sum("active_turns"),
    "paid_self_draws": Sum("paid_self_draws"),
    "claim_rounds": _count(Q(pengs__gt=0) | Q(kongs_direct__gt=0)),
    "drawn_in": _count(Q(drawn_in=True)),
    "ready_at_draw": _count(Q(drawn_in=True, ready=True)),
    "dealer_rounds": _count(Q(dealer=True)),
    "first": _count(Q(win_order=1)),
    "second": _count(Q(win_order=2)),
    "third": _count(Q(win_order=3)),
    "last_standing": _count(Q(last_standing=True)),
    "roots": Sum("roots", filter=WON),
    "kong_bloom": _count(WON & Q(kong_bloom=True)),
    "kong_discard_win": _count(WON & Q(kong_discard_win=True)),
    "rob_kong_win": _count(WON & Q(rob_kong_win=True)),
    "last_tile_win": _count(WON & Q(last_tile_win=True)),
    "heaven_earth": _count(WON & Q(heaven_earth=True)),
    "capped": _count(WON & Q(capped=True)),
    "kongs_direct": Sum("kongs_direct"),
    "kongs_added": Sum("kongs_added"),
    "kongs_concealed": Sum("kongs_concealed"),
    "kong_income": Sum("kong_income"),
    "kong_net": Sum("kong_net"),
    "tax_refunds": Sum("tax_refunds"),
    "refunded": Sum("refunded"),
    "call_transfer_in": Sum("call_transfer_in"),
    "call_transfer_in_amount": Sum("call_transfer_in_amount"),
    "call_transfer_out": Sum("call_transfer_out"),
    "call_transfer_out_amount": Sum("call_transfer_out_amount"),
    "robbed_kongs": Sum("robbed_kongs"),
    "pig_rounds": _count(Q(flower_pig=True)),
    "pig_paid": Sum("pig_paid"),
    "pig_net": Sum("pig_net"),
    "ting_received_rounds": _count(Q(ting_received__gt=0)),
    "ting_received": Sum("ting_received"),
    "ting_paid_rounds": _count(Q(ting_paid__gt=0)),
    "ting_paid": Sum("ting_paid"),
    "ting_net": Sum("ting_net"),
    "exchanges": _count(Q(exchange_shortest__isnull=False)),
    "exchange_shortest": _count(Q(exchange_shortest=True)),
    "void_given_of": _count(Q(void_is_given__isnull=False)),
    "void_is_given": _count(Q(void_is_given=True)),
    "voids": _count(Q(void_fewest__isnull=False)),
    "void_fewest": _count(Q(void_fewest=True)),
    "void_cleared_sum": Sum("void_cleared_turn"),
    "void_cleared_of": _count(Q(void_cleared_turn__isnull=False)),
    "shanten_sum": Sum("starting_shanten"),
    "shanten_of": _count(Q(starting_shanten__isnull=False)),
    "reviewed_discards": Sum("reviewed_discards"),
    "best_discards": Sum("best_discards"),
    "ukeire_lost": Sum("ukeire_lost"),
}
#: the same sums over the day rows, whose columns carry the names of :data:`AGGREGATES`
DAY_SUMS: dict[str, Any] = {k: Sum(k) for k in AGGREGATES}
SOURCES = ("aggregates", "facts")
#: where figures come from when the caller does not say (benchmarks/bench_stats.py times both)
DEFAULT_SOURCE = "aggregates"


def aggregate(rows: QuerySet[Any], sums: dict[str, Any] | None = None) -> dict[str, Any]:
    """The sums of :data:`AGGREGATES` over one player's ``rows`` — seat rows, or day rows
    with ``sums=DAY_SUMS`` (grouped by the player: Django compiles that faster than
    ``.aggregate()``; aliased, as the names are columns)."""
    sums = AGGREGATES if sums is None else sums
    found = list(rows.values("player_id").annotate(**{f"a_{k}": v for k, v in sums.items()}))
    if not found:
        return dict.fromkeys(AGGREGATES, 0)
    values: dict[str, Any] = dict(found[0])
    return {k: values[f"a_{k}"] for k in AGGREGATES}


def rate(numerator: int, denominator: int) -> dict[str, Any]:
    """A rate as served: ``value`` is null when nothing was counted."""
    return {
        "value": numerator / denominator if denominator else None,
        "numerator": numerator,
        "denominator": denominator,
        "low_sample": denominator < LOW_SAMPLE,
    }


def _tally(count: int, amount: int) -> dict[str, int]:
    return {"count": count, "amount": amount}


def build_stats(sums: dict[str, Any], patterns: dict[str, int] | None = None) -> dict[str, Any]:
    """The statistics (API keys) from the aggregates' sums (None counts as 0)."""
    a = {k: v or 0 for k, v in sums.items()}
    rounds, wins, turns, drawn = a["rounds"], a["wins"], a["active_turns"], a["drawn_in"]
    stats: dict[str, Any] = {
        "matches": a["matches"],
        "rounds": rounds,
        "net": a["net"],
        "net_per_round": rate(a["net"], rounds),
        "wins": wins,
        "win_rate": rate(wins, rounds),
        "self_draw_wins": a["self_draw_wins"],
        "self_draw_rate": rate(a["self_draw_wins"], wins),
        "average_win": rate(a["win_received"], wins),
        "average_fan": rate(a["fan"], wins),
        "deal_ins": a["deal_ins"],
        "deal_in_rate": rate(a["deal_ins"], rounds),
        "deal_in_rate_per_turn": rate(a["deal_ins"], turns),
        "average_deal_in": rate(a["deal_in_amount"], a["deal_ins"]),
        "paid_for_self_draws": a["paid_self_draws"],
        "paid_for_self_draw_rate_per_turn": rate(a["paid_self_draws"], turns),
        "active_turns": turns,
        "claim_rate": rate(a["claim_rounds"], rounds),
        "draw_rate": rate(drawn, rounds),
        "ready_at_draw_rate": rate(a["ready_at_draw"], drawn),
        "dealer_rounds": a["dealer_rounds"],
        "first_win_rate": rate(a["first"], rounds),
        "win_order": {
            "1": rate(a["first"], wins),
            "2": rate(a["second"], wins),
            "3": rate(a["third"], wins),
        },
        "last_standing_rate": rate(a["last_standing"], rounds),
        "roots_per_win": rate(a["roots"], wins),
        "kong_bloom_rate": rate(a["kong_bloom"], wins),
        "kong_discard_win_rate": rate(a["kong_discard_win"], wins),
        "rob_kong_win_rate": rate(a["rob_kong_win"], wins),
        "last_tile_win_rate": rate(a["last_tile_win"], wins),
        "heaven_earth_win_rate": rate(a["heaven_earth"], wins),
        "capped_win_rate": rate(a["capped"], wins),
        "kongs": {
            kind: rate(a[f"kongs_{kind}"], rounds) for kind in ("direct", "added", "concealed")
        },
        "kong_income": {"gross": a["kong_income"], "net": a["kong_net"]},
        "tax_refunds": _tally(a["tax_refunds"], a["refunded"]),
        "call_transfer_in": _tally(a["call_transfer_in"], a["call_transfer_in_amount"]),
        "call_transfer_out": _tally(a["call_transfer_out"], a["call_transfer_out_amount"]),
        "robbed_kongs": a["robbed_kongs"],
        "flower_pig": _tally(a["pig_rounds"], a["pig_paid"]),
        "ting_check_received": _tally(a["ting_received_rounds"], a["ting_received"]),
        "ting_check_paid": _tally(a["ting_paid_rounds"], a["ting_paid"]),
        "big_deal_ins": rate(a["big_deal_ins"], rounds),
        "exchange_shortest_rate": rate(a["exchange_shortest"], a["exchanges"]),
        "void_is_given_rate": rate(a["void_is_given"], a["void_given_of"]),
        "void_fewest_rate": rate(a["void_fewest"], a["voids"]),
        "void_cleared_turn": rate(a["void_cleared_sum"], a["void_cleared_of"]),
        "starting_shanten": rate(a["shanten_sum"], a["shanten_of"]),
        "best_discard_rate": rate(a["best_discards"], a["reviewed_discards"]),
        "ukeire_lost_per_discard": rate(a["ukeire_lost"], a["reviewed_discards"]),
    }
    if patterns is not None:
        stats["patterns"] = {name: rate(n, wins) for name, n in sorted(patterns.items())}
    return stats


def decomposition(sums: dict[str, Any]) -> dict[str, int]:
    """Net by source; the parts add up to ``net`` (docs/statistics.md)."""
    a = {k: v or 0 for k, v in sums.items()}
    return {
        "wins": a["win_received"],
        "paid_for_wins": -a["win_paid"],
        "kongs": a["kong_net"],
        "ting_check": a["ting_net"],
        "flower_pig": a["pig_net"],
        "net": a["net"],
    }


def player_stats(
    club: Club, player: Player, filters: Filters, period: str = "week", source: str | None = None
) -> dict[str, Any]:
    """Everything the player's stats endpoint serves (docs/statistics.md), from the day
    rows or, with ``source="facts"`` or a ``with`` filter, from the seat rows."""
    if source_of(filters, source) == "facts":
        rows = counted(club, filters).filter(player=player)
        sums = aggregate(rows)
        patterns: QuerySet[Any] = rows.filter(won=True, pattern__isnull=False)
        patterns = patterns.values_list("pattern").annotate(n=Count("round"))
        parts = (head_to_head(rows, player), records(rows), trend(rows, period))
    else:
        days = keyed(PlayerDay, club, filters).filter(player=player)
        sums = aggregate(days, DAY_SUMS)
        patterns = keyed(PlayerDayPattern, club, filters).filter(player=player)
        patterns = patterns.values_list("pattern").annotate(n=Sum("wins"))
        parts = (
            head_to_head_of_days(keyed(PairDay, club, filters).filter(player=player)),
            records_of_matches(keyed(PlayerMatch, club, filters).filter(player=player)),
            trend(days, period),
        )
    return {
        "player": {"id": player.pk, "handle": player.handle},
        "definitions_version": DEFINITIONS_VERSION,
        "filters": filters.to_json(),
        "stats": build_stats(
            sums, {str(name): n for name, n in patterns.values_list("pattern", "n")}
        ),
        "decomposition": decomposition(sums),
        "head_to_head": parts[0],
        "records": parts[1],
        "trend": parts[2],
    }


def head_to_head(rows: QuerySet[SeatResult], player: Player) -> list[dict[str, Any]]:
    """Per co-player: rounds together, and what they paid the player minus the reverse."""
    # seats are fixed for a match: rounds together are the player's counted rounds of
    # each match the co-player sat in (a few rows a match, not four a round), and the
    # money between them the player's rows' money from the co-player's seat
    per_match = {
        match_id: (n, nets)
        for match_id, n, *nets in rows.values_list("match_id")
        .annotate(n=Count("round"), **{f"s_{c}": Sum(c) for c in NET_FROM})
        .values_list("match_id", "n", *(f"s_{c}" for c in NET_FROM))
    }
    together: dict[tuple[int, str], list[int]] = {}
    seats = (
        Seat.objects.filter(match_id__in=list(per_match))
        .exclude(player=player)
        .values_list("match_id", "seat", "player_id", "player__handle")
    )
    for match_id, seat, pk, handle in seats:
        n, nets = per_match[match_id]
        pair = together.setdefault((pk, handle), [0, 0])
        pair[0] += n
        pair[1] += nets[seat]
    table = [
        {"player": pk, "handle": handle, "rounds": n, "net": net}
        for (pk, handle), (n, net) in together.items()
    ]
    return sorted(table, key=lambda r: (-r["rounds"], r["handle"]))


def head_to_head_of_days(pairs: QuerySet[PairDay]) -> list[dict[str, Any]]:
    """:func:`head_to_head` from the player's ``PairDay`` rows: one grouped query."""
    table = [
        {"player": pk, "handle": handle, "rounds": n, "net": net}
        for pk, handle, n, net in pairs.values_list("other_id", "other__handle")
        .annotate(n=Sum("rounds"), s=Sum("net"))
        .values_list("other_id", "other__handle", "n", "s")
    ]
    return sorted(table, key=lambda r: (-r["rounds"], r["handle"]))


def records(rows: QuerySet[SeatResult]) -> dict[str, Any]:
    """The biggest win, the biggest loss, the longest run of matches won on net."""
    fields = ("delta", "match_id", "round__index", "played_at")
    win = rows.filter(won=True).order_by("-delta", "played_at", "round_id")
    loss = rows.filter(delta__lt=0).order_by("delta", "played_at", "round_id")
    matches = (
        rows.values("match_id")
        .annotate(net=Sum("delta"), at=Min("played_at"))
        .order_by("at", "match_id")
        .values_list("match_id", "net")
    )
    return {
        "biggest_win": _round_ref(win.values_list(*fields).first()),
        "biggest_loss": _round_ref(loss.values_list(*fields).first()),
        "longest_positive_run": _longest_run(matches),
    }


def records_of_matches(matches: QuerySet[PlayerMatch]) -> dict[str, Any]:
    """:func:`records` from the player's ``PlayerMatch`` rows (their record rounds)."""
    win = matches.filter(best_win__isnull=False).order_by(
        "-best_win", "played_at", "best_win_round_id"
    )
    loss = matches.filter(worst_loss__isnull=False).order_by(
        "worst_loss", "played_at", "worst_loss_round_id"
    )
    return {
        "biggest_win": _round_ref(
            win.values_list("best_win", "match_id", "best_win_index", "played_at").first()
        ),
        "biggest_loss": _round_ref(
            loss.values_list("worst_loss", "match_id", "worst_loss_index", "played_at").first()
        ),
        "longest_positive_run": _longest_run(
            matches.order_by("played_at", "match_id").values_list("match_id", "net")
        ),
    }


def _round_ref(row: tuple[Any, ...] | None) -> dict[str, Any] | None:
    if row is None:
        return None
    amount, match_id, index, played_at = row
    return {
        "amount": amount,
        "match": match_id,
        "round": index,
        "played_at": played_at.isoformat() if played_at else None,
    }


def _longest_run(matches: Iterable[tuple[int, int]]) -> dict[str, Any]:
    """The longest run of consecutive matches with a positive net (the first if tied)."""
    best: list[int] = []
    run: list[int] = []
    for match_id, net in matches:
        run = [*run, match_id] if net > 0 else []
        if len(run) > len(best):
            best = run
    return {"length": len(best), "matches": best}


#: the trend's sums over seat rows and over day rows
_TREND_FACTS = {
    "rounds": Count("round"),
    "net": Sum("delta"),
    "wins": _count(WON),
    "deal_ins": Sum("deal_ins"),
}
_TREND_DAYS = {k: Sum(k) for k in _TREND_FACTS}


def trend(rows: QuerySet[Any], period: str = "week") -> list[dict[str, Any]]:
    """Per week or month: rounds, net and the main rates, and a rolling net per round
    (``rows``: seat rows, or day rows)."""
    days = rows.model is PlayerDay
    field = "day" if days else "played_at"
    trunc = TruncMonth(field) if period == "month" else TruncWeek(field)
    periods = list(
        rows.annotate(period=trunc)
        .values("period")
        .annotate(**(_TREND_DAYS if days else _TREND_FACTS))
        .order_by("period")
    )
    out = []
    for i, p in enumerate(periods):
        window = periods[max(0, i - TREND_WINDOW + 1) : i + 1]
        start = p["period"]
        out.append(
            {
                "period": _as_date(start).isoformat() if start else None,
                "rounds": p["rounds"],
                "net": p["net"] or 0,
                "win_rate": rate(p["wins"] or 0, p["rounds"]),
                "deal_in_rate": rate(p["deal_ins"] or 0, p["rounds"]),
                "rolling_net_per_round": rate(
                    sum(w["net"] or 0 for w in window), sum(w["rounds"] for w in window)
                ),
            }
        )
    return out


def _as_date(value: date | datetime) -> date:
    return value.date() if isinstance(value, datetime) else value


def club_table(club: Club, filters: Filters, source: str | None = None) -> list[dict[str, Any]]:
    """Every player of the club with counted rounds: id, handle and statistics.

    One query grouped by player over the day rows (the seat rows with a ``with``
    filter), kept in the cache until the club's facts change (the verification bumps the
    club's facts version, :func:`facts_changed`)."""
    scope = hashlib.sha256(json.dumps(filters.to_json(), sort_keys=True).encode()).hexdigest()
    source = source_of(filters, source)
    key = f"stats:club-table:{club.pk}:{facts_version(club.pk)}:{source}:{scope[:32]}"
    cached: list[dict[str, Any]] | None = cache.get(key)
    if cached is not None:
        return cached
    if source == "facts":
        rows: QuerySet[Any] = counted(club, filters)
        sums = AGGREGATES
    else:
        rows, sums = keyed(PlayerDay, club, filters), DAY_SUMS
    grouped = (
        rows.values("player_id", "player__handle")
        .annotate(**{f"a_{k}": v for k, v in sums.items()})
        .order_by("player_id")
    )
    table = []
    for row in grouped:
        values: dict[str, Any] = dict(row)
        table.append(
            {
                "player": values["player_id"],
                "handle": values["player__handle"],
                "stats": build_stats({k: values[f"a_{k}"] for k in AGGREGATES}),
            }
        )
    cache.set(key, table, CLUB_TABLE_SECONDS)
    return table


def facts_version(club_id: int) -> str:
    """A token that changes whenever the club's facts are rewritten."""
    key = f"stats:facts-version:{club_id}"
    version: str | None = cache.get(key)
    if version is None:
        version = uuid.uuid4().hex
        cache.add(key, version, None)
        version = cache.get(key, version)
    return version


def facts_changed(club_id: int) -> None:
    """Forget the club's cached tables: its facts were just rewritten."""
    cache.set(f"stats:facts-version:{club_id}", uuid.uuid4().hex, None)


def scalar(stats: dict[str, Any], key: str) -> float | int | None:
    """A statistic as one number: a rate's value, a tally's amount; ``a.b`` reaches inside."""
    value: Any = stats
    for part in key.split("."):
        if not isinstance(value, dict) or part not in value:
            raise KeyError(key)
        value = value[part]
    if isinstance(value, dict):
        if "value" in value:
            return value["value"]  # type: ignore[no-any-return]
        if "amount" in value:
            return value["amount"]  # type: ignore[no-any-return]
        raise KeyError(key)
    return value  # type: ignore[no-any-return]


def stat_keys() -> list[str]:
    """Every key a leaderboard can rank by (nested ones as ``a.b``)."""
    sample = build_stats(dict.fromkeys(AGGREGATES, 0))
    keys: list[str] = []
    for key, value in sample.items():
        if isinstance(value, dict) and not ({"value", "amount"} & value.keys()):
            keys.extend(f"{key}.{sub}" for sub in value)
        else:
            keys.append(key)
    return keys


def leaderboard(
    club: Club, key: str, min_rounds: int, filters: Filters, order: str = "desc"
) -> list[dict[str, Any]]:
    """The club's players with at least ``min_rounds`` rounds ranked by ``key`` (highest
    first, or lowest with ``order="asc"``; no value last), with value and percentile."""
    table = [row for row in club_table(club, filters) if row["stats"]["rounds"] >= min_rounds]
    values = [(row, scalar(row["stats"], key)) for row in table]
    sign = 1 if order == "asc" else -1
    values.sort(key=lambda rv: (rv[1] is None, sign * (rv[1] or 0), rv[0]["handle"]))
    known = [v for _, v in values if v is not None]
    return [
        {
            "rank": i + 1,
            "player": row["player"],
            "handle": row["handle"],
            "rounds": row["stats"]["rounds"],
            "value": value,
            "percentile": percentile(value, known),
        }
        for i, (row, value) in enumerate(values)
    ]


def percentile(value: float | int | None, values: list[float | int]) -> float | None:
    """The share of ``values`` strictly below ``value``, in percent."""
    if value is None or not values:
        return None
    return 100 * sum(1 for v in values if v < value) / len(values)
