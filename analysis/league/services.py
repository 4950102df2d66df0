"""Writes of the club's books: seasons, hand assignments, accepted matches, settle-ups."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from analysis import books
from analysis.labels import label
from analysis.league.selectors import TIE_BREAK_NAMES
from analysis.league.signals import counted_matches_changed, publish, settle_up_recorded
from analysis.models import (
    BookMatch,
    MatchAcceptance,
    Night,
    PlayerRating,
    RatingStep,
    Season,
    SeasonMatch,
    SettleUp,
)
from records.models import Club, Match, Player
from records.wording import ruleset_problem
from xuezhan.errors import XuezhanError
from xuezhan.rules import Rules


@dataclass
class LeagueError(Exception):
    """Input the books cannot take, naming the field (the API answers 400 with it)."""

    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.field}: {self.message}"


def resolve_ruleset(value: Any) -> Rules:
    """A preset name or a ruleset object, as in a log's ``ruleset``."""
    try:
        return Rules.from_json(value)
    except XuezhanError as exc:
        raise LeagueError("ruleset", ruleset_problem(str(exc))) from None


def check_tie_breaks(value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise LeagueError("tie_breaks", _("a list of tie-break codes"))
    unknown = [v for v in value if v not in TIE_BREAK_NAMES]
    if unknown:
        known = sorted(TIE_BREAK_NAMES)
        message = _("unknown %(unknown)s; known: %(known)s") % {"unknown": unknown, "known": known}
        raise LeagueError("tie_breaks", message)
    if len(set(value)) != len(value):
        raise LeagueError("tie_breaks", _("a tie-break is listed twice"))
    return list(value)


def check_placement_points(value: Any) -> list[int]:
    if value in (None, []):
        return []
    if (
        not isinstance(value, list)
        or len(value) != 4
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise LeagueError("placement_points", _("four whole numbers, for 1st to 4th"))
    if sorted(value, reverse=True) != value:
        raise LeagueError("placement_points", _("a better place cannot earn fewer points"))
    return list(value)


def save_season(
    *, season: Season | None = None, club: Club, by: User | None, **fields: Any
) -> Season:
    """Create a season (``season`` None) or change one; ``fields`` are already checked."""
    if "ruleset" in fields:
        rules = resolve_ruleset(fields.pop("ruleset"))
        fields["ruleset"] = rules.to_json()
        fields["ruleset_name"] = rules.preset_name
    if season is None:
        season = Season(club=club, created_by=by)
    for name, value in fields.items():
        setattr(season, name, value)
    if season.ends_on < season.starts_on:
        raise LeagueError("ends_on", _("the season ends before it starts"))
    if Season.objects.filter(club=club, name=season.name).exclude(pk=season.pk).exists():
        raise LeagueError("name", _("the club already has a season of that name"))
    season.save()
    return season


def assign_match(*, season: Season, match: Match, by: User | None) -> SeasonMatch:
    if match.club_id != season.club_id:
        raise LeagueError("match", _("not a match of this club"))
    assignment, _created = SeasonMatch.objects.get_or_create(
        season=season, match=match, defaults={"assigned_by": by}
    )
    publish(counted_matches_changed, club_id=season.club_id, match_ids=[match.pk])
    return assignment


def unassign_match(*, season: Season, match: Match) -> None:
    SeasonMatch.objects.filter(season=season, match=match).delete()
    publish(counted_matches_changed, club_id=season.club_id, match_ids=[match.pk])


def accept_match(*, match: Match, by: User | None, reason: str) -> MatchAcceptance:
    """Accept an illegal match as played (seasons that opt in count it); the history keeps
    who accepted it and why."""
    if not reason.strip():
        raise LeagueError("reason", _("say why the club accepts this match"))
    if match.status != Match.Status.ILLEGAL:
        message = _("only an illegal match needs accepting (it is %(status)s)")
        raise LeagueError("match", message % {"status": label("status", match.status)})
    with transaction.atomic():
        for old in MatchAcceptance.objects.filter(match=match):
            _delete_with_history(old, by, reason.strip())
        acceptance = MatchAcceptance(match=match, accepted_by=by, reason=reason.strip())
        acceptance._history_user = by  # type: ignore[attr-defined]
        acceptance._change_reason = reason.strip()  # type: ignore[attr-defined]
        acceptance.save()
        books.refresh_matches([match.pk])
        publish(counted_matches_changed, club_id=match.club_id, match_ids=[match.pk])
        return acceptance


def withdraw_acceptance(*, match: Match, by: User | None = None, reason: str = "") -> None:
    """The club no longer accepts the match as played; the history keeps who and why."""
    with transaction.atomic():
        for old in MatchAcceptance.objects.filter(match=match):
            _delete_with_history(old, by, reason.strip())
        books.refresh_matches([match.pk])
    publish(counted_matches_changed, club_id=match.club_id, match_ids=[match.pk])


def _delete_with_history(row: Any, by: User | None, reason: str) -> None:
    row._history_user = by
    row._change_reason = reason
    row.delete()


def record_settle_up(
    *,
    club: Club,
    payer: Player,
    payee: Player,
    points: int,
    by: User | None,
    paid_at: datetime | None = None,
    season: Season | None = None,
    night: Night | None = None,
    note: str = "",
) -> SettleUp:
    """Record that ``payer`` paid ``payee`` (all of a transfer or part of it), against a
    season's books or a night's settle-up if given."""
    for name, player in (("payer", payer), ("payee", payee)):
        if player.club_id != club.pk:
            raise LeagueError(name, _("not a player of this club"))
    if payer.pk == payee.pk:
        raise LeagueError("payee", _("a player cannot pay themselves"))
    if points <= 0:
        raise LeagueError("points", _("a positive number of points"))
    if season is not None and season.club_id != club.pk:
        raise LeagueError("season", _("not a season of this club"))
    if night is not None and night.club_id != club.pk:
        raise LeagueError("night", _("not a night of this club"))
    settle_up = SettleUp.objects.create(
        club=club,
        season=season,
        night=night,
        payer=payer,
        payee=payee,
        points=points,
        paid_at=paid_at or timezone.now(),
        note=note,
        recorded_by=by,
    )
    publish(settle_up_recorded, settle_up_id=settle_up.pk, club_id=club.pk)
    return settle_up


MAX_POINT_VALUE = Decimal(10) ** 8


def money_value(value: Any) -> Decimal | None:
    if value in (None, ""):
        return None
    try:
        amount = Decimal(str(value))
    except ArithmeticError:
        raise LeagueError("point_value", _("a decimal number")) from None
    if not amount.is_finite() or amount < 0:
        raise LeagueError("point_value", _("a decimal number, 0 or more"))
    # the bounds a season stores (max_digits=12, decimal_places=4), so that every money
    # figure the ledger derives from it fits the API's decimal fields
    if amount >= MAX_POINT_VALUE or amount != amount.quantize(Decimal("0.0001")):
        raise LeagueError("point_value", _("at most 99,999,999.9999, with at most 4 decimals"))
    return amount


def recompute_ratings(*, club_id: int) -> int:
    """Rate the club's counted matches from scratch, in the order they were played.

    Safe to run twice or concurrently: the club row is locked and every rating row of the
    club is replaced in one transaction. Returns the number of matches rated.
    """
    # the rating model (openskill) is loaded where ratings are computed, not in every
    # process that imports the league's services (each verification worker does)
    from analysis.league import ratings

    with transaction.atomic():
        # FOR NO KEY UPDATE: it still makes concurrent recomputations of the club take
        # turns, but, unlike FOR UPDATE, lets others take FOR KEY SHARE on the club (every
        # insert of a row that refers to it does). A correction holding its match FOR
        # UPDATE and writing a row of the club waited on this lock while this waited on
        # the match (inserting its RatingStep): a deadlock that lost the recomputation
        club = Club.objects.select_for_update(no_key=True).get(pk=club_id)
        # the club's counted matches in order, with each player's net (the books' rows)
        nets: dict[int, dict[int, int]] = {}
        for match_id, player, net, rounds in (
            BookMatch.objects.filter(club=club).order_by("when", "match_id", "seat")
            .values_list("match_id", "player_id", "net", "rounds").iterator(chunk_size=2000)
        ):  # fmt: skip
            nets.setdefault(match_id, {})
            if rounds:
                nets[match_id][player] = net
        order = list(nets)
        current, history = ratings.rate_matches(ratings.MatchNet(m, nets[m]) for m in order)
        position = {m: i for i, m in enumerate(order)}
        played: dict[int, int] = {}
        for step in history:
            played[step.player] = played.get(step.player, 0) + 1
        RatingStep.objects.filter(player__club=club).delete()
        PlayerRating.objects.filter(club=club).delete()
        now = timezone.now()
        PlayerRating.objects.bulk_create(
            PlayerRating(
                club=club, player_id=player, mu=r.mu, sigma=r.sigma, ordinal=r.ordinal,
                matches=played[player], model_version=ratings.MODEL_VERSION, computed_at=now,
            )
            for player, r in sorted(current.items())
        )  # fmt: skip
        RatingStep.objects.bulk_create(
            RatingStep(
                player_id=s.player, match_id=s.match, position=position[s.match],
                mu=s.rating.mu, sigma=s.rating.sigma, ordinal=s.rating.ordinal,
            )
            for s in history
        )  # fmt: skip
    return len({s.match for s in history})
