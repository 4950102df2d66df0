"""The books' rows (analysis.books): kept exact by every change of what a match counts, and
the standings read from them equal the standings summed from the settlements."""

from __future__ import annotations

import os
from datetime import date
from typing import Any

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analysis import books
from analysis import services as verification
from analysis.league import corrections, selectors, services
from analysis.models import BookDay, BookMatch, Season, SeasonMatch
from records.models import Club, Match, Player, ruleset_key
from tests.conftest import needs_postgres
from tests.records.documents import dumps, illegal_document

pytestmark = pytest.mark.django_db

OPERATIONS = ("verify", "reverify", "accept", "withdraw", "void", "unvoid", "reseat", "delete")


def documents(seed: int) -> list[dict[str, Any]]:
    """Four legal matches (two on one day, one with no played_at) and two illegal ones."""
    from xuezhan.sim.simulate import simulate_match

    docs = [simulate_match(seed * 10 + i, 2) for i in range(4)] + [
        illegal_document(seed * 10 + i) for i in range(2)
    ]
    for doc, day in zip(docs, (3, 3, 5, None, 4, 6), strict=True):
        doc.pop("played_at", None)
        if day is not None:
            doc["played_at"] = f"2026-11-{day:02d}T19:30:00+00:00"
    return docs


def snapshot(club: Club) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Every book row of the club, without row ids, in a stable order."""
    matches = sorted(
        tuple(r) for r in BookMatch.objects.filter(club=club).values_list(
            "match_id", "player_id", "seat", "kind", "ruleset_key", "played_at", "when", "day",
            "rounds", "net", "deal_ins", "place", "span", "vs",
        )
    )
    fields = [f.name for f in BookDay._meta.fields if f.name != "id"]
    days = sorted(tuple(r) for r in BookDay.objects.filter(club=club).values_list(*fields))
    return matches, days


def summed_standings(season: Season) -> list[tuple[Any, ...]]:
    """The standings as they were computed before the books' rows: from the settlements of
    the counted matches (selectors.match_results), movement by ranking twice."""
    with timezone.override(season.club.time_zone):  # a season's days are the club's
        in_dates = Match.objects.filter(
            club=season.club, played_at__date__gte=season.starts_on,
            played_at__date__lte=season.ends_on,
        )
        dated = list(in_dates.filter(stored_ruleset_id=ruleset_key(season.ruleset))
                     .values_list("pk", flat=True))
    assigned = list(SeasonMatch.objects.filter(season=season).values_list("match_id", flat=True))
    ids = sorted(Match.objects.filter(pk__in=dated + assigned)
                 .filter(selectors.counted(season.include_accepted)).values_list("pk", flat=True))
    results = selectors.match_results(ids)
    handles = dict(Player.objects.filter(club=season.club).values_list("pk", "handle"))
    rows = selectors.compute_rows(season, results, handles)
    days = sorted({r.day for r in results})
    if len(days) > 1:
        before = [r for r in results if r.day < days[-1]]
        previous = {row.player: row.rank for row in selectors.compute_rows(season, before, handles)}
        for row in rows:
            row.previous_rank = previous.get(row.player)
    return [_row(r) for r in rows] + [("matches", len(ids), tuple(days))]


def _row(r: selectors.Row) -> tuple[Any, ...]:
    return (r.handle, r.rank, r.previous_rank, r.matches, r.rounds, r.net, r.placement_points,
            tuple(r.placements), r.deal_ins)


def book_standings(season: Season) -> list[tuple[Any, ...]]:
    table = selectors.standings(season)
    return [_row(r) for r in table.rows] + [
        ("matches", table.match_count, tuple(table.match_days))
    ]


def apply(op: str, match: Match, user: Any) -> None:
    """One change of what a match counts, as the service makes it (refusals are no change)."""
    try:
        if op == "verify":
            verification.verify_match(match_id=match.pk)
        elif op == "reverify":
            verification.reverify_match(match_id=match.pk)
        elif op == "accept":
            services.accept_match(match=Match.objects.get(pk=match.pk), by=user, reason="agreed")
        elif op == "withdraw":
            services.withdraw_acceptance(match=match, by=user, reason="changed our minds")
        elif op in ("void", "unvoid"):
            corrections.correct_match(match=match, by=user, reason="fix", void=op == "void")
        elif op == "reseat":
            handles = list(Match.objects.get(pk=match.pk).document["players"])
            corrections.correct_match(match=match, by=user, reason="seats",
                                      players=handles[1:] + handles[:1])
        elif op == "delete":
            Match.objects.filter(pk=match.pk).delete()
    except services.LeagueError:
        pass


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    seed=st.integers(0, 50),
    ops=st.lists(st.tuples(st.sampled_from(OPERATIONS), st.integers(0, 5)), max_size=12),
)
def test_rows_kept_by_every_change_equal_rows_rebuilt_from_scratch(
    cast: dict[str, Any], seed: int, ops: list[tuple[str, int]]
) -> None:
    """After any sequence of verifications, re-verifications, acceptances given and
    withdrawn, voids and un-voids, corrections and deletes, the rows kept step by step are
    the rows rebuilt from scratch, and standings read from them (each method, with movement
    and head-to-head) equal the standings summed from the settlements."""
    from records.services import upload_match

    club = Club.objects.create(name=f"books {seed} {len(ops)} {Club.objects.count()}")
    user = cast["adam"]
    matches = [
        upload_match(club=club, raw=dumps(doc), uploaded_by=user).match for doc in documents(seed)
    ]
    for match in matches:
        verification.verify_match(match_id=match.pk)
    seasons = [
        services.save_season(club=club, by=user, name=name, starts_on=date(2026, 11, 1),
                             ends_on=date(2026, 11, 30), ruleset="chengdu", method=method,
                             tie_breaks=["head_to_head", "wins"], include_accepted=accepted)
        for name, method, accepted in (("net", "net", False), ("placed", "placement", True))
    ]
    SeasonMatch.objects.create(season=seasons[0], match=matches[3])  # no played_at: by hand
    assert len(book_standings(seasons[0])) == 1 + len(
        {h for d in documents(seed)[:4] for h in d["players"]}
    )  # every legal match counts at first
    for op, index in ops:
        if Match.objects.filter(pk=matches[index].pk).exists():
            apply(op, matches[index], user)
    kept = snapshot(club)
    for season in seasons:
        assert book_standings(season) == summed_standings(season)
    books.rebuild_club(club.pk)
    assert snapshot(club) == kept


def test_a_match_counts_in_the_books_only_while_verified_or_accepted_and_not_void(
    cast: dict[str, Any],
) -> None:
    from records.services import upload_match

    club = Club.objects.create(name="kinds")
    user = cast["adam"]
    legal, illegal = (
        upload_match(club=club, raw=dumps(doc), uploaded_by=user).match
        for doc in (documents(1)[0], documents(1)[4])
    )
    for match in (legal, illegal):
        verification.verify_match(match_id=match.pk)
    kinds = dict(BookMatch.objects.filter(seat=0).values_list("match_id", "kind"))
    assert kinds == {legal.pk: "v"}
    services.accept_match(match=Match.objects.get(pk=illegal.pk), by=user, reason="agreed")
    corrections.correct_match(match=legal, by=user, reason="misdeal", void=True)
    kinds = dict(BookMatch.objects.filter(seat=0).values_list("match_id", "kind"))
    assert kinds == {illegal.pk: "a"}


def _loaded_rows(club: Club) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of a club the upload and the verification write, without ids or times:
    matches by source id, players by handle, rounds by (source id, index)."""
    from analysis.models import (
        PairDay,
        PlayerDay,
        PlayerDayPattern,
        PlayerMatch,
        PlayerRating,
        RatingStep,
        RoundSettlement,
        SeatResult,
        Verification,
        Violation,
    )
    from records.models import Round, Seat

    source = dict(Match.objects.filter(club=club).values_list("pk", "source_match_id"))
    handle = dict(Player.objects.filter(club=club).values_list("pk", "handle"))
    rounds = {pk: (source[m], i) for pk, m, i in
              Round.objects.filter(match__club=club).values_list("pk", "match_id", "index")}
    verifications = dict(Verification.objects.filter(match__club=club)
                         .values_list("pk", "match_id"))
    skip = {"id", "uploaded_at", "status_changed_at", "verified_at", "club", "uploaded_by",
            "lease_until", "lease_owner", "computed_at"}
    mapped = {"match": source, "player": handle, "other": handle, "round": rounds,
              "best_win_round": rounds, "worst_loss_round": rounds,
              "verification": {pk: source[m] for pk, m in verifications.items()}}
    tables: dict[str, Any] = {
        "match": Match.objects.filter(club=club), "seat": Seat.objects.filter(match__club=club),
        "round": Round.objects.filter(match__club=club),
        "verification": Verification.objects.filter(match__club=club),
        "violation": Violation.objects.filter(verification__match__club=club),
        "settlement": RoundSettlement.objects.filter(round__match__club=club),
        "seat_result": SeatResult.objects.filter(club=club),
        "player_day": PlayerDay.objects.filter(club=club),
        "player_day_pattern": PlayerDayPattern.objects.filter(club=club),
        "player_match": PlayerMatch.objects.filter(club=club),
        "pair_day": PairDay.objects.filter(club=club),
        "book_match": BookMatch.objects.filter(club=club),
        "book_day": BookDay.objects.filter(club=club),
        "player_rating": PlayerRating.objects.filter(club=club),
        "rating_step": RatingStep.objects.filter(match__club=club),
    }
    out = {}
    for name, rows in tables.items():
        fields = [f for f in rows.model._meta.concrete_fields if f.name not in skip]
        values = []
        for row in rows.values_list(*[f.attname for f in fields]):
            values.append(tuple(
                mapped[f.name].get(v, v) if f.name in mapped else
                (source[row[0]] if f.name == "pk" else v)
                for f, v in zip(fields, row, strict=True)
            ))
        out[name] = sorted(values, key=repr)
    return out


def _stored(club: Any) -> list[tuple[Any, ...]]:
    """The match's stored bytes (records.fields) and its rounds' packed payment lines
    (analysis.compact), by source match id and round, as the database holds them."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT m.source_match_id, m.raw, r.\"index\", s.lines FROM records_match m"
            " JOIN records_round r ON r.match_id = m.id"
            " JOIN analysis_roundsettlement s ON s.round_id = r.id WHERE m.club_id = %s",
            [club.pk],
        )
        rows = [(m, bytes(raw), index, lines) for m, raw, index, lines in cursor]
    assert rows and all(raw[:4] == b"\x28\xb5\x2f\xfd" for _, raw, _, _ in rows)
    return sorted(rows)


def test_a_bulk_load_writes_exactly_what_uploads_and_verification_write(
    cast: dict[str, Any], django_capture_on_commit_callbacks: Any,
) -> None:
    """Every row of every table, for matches of their own and copies of them (other
    players, other days, days that several matches share, the reviews and the ratings
    that follow the verdicts), and a second run adds none."""
    from django.core.management import call_command

    arguments = ["--players", "6", "--rounds-per-match", "4", "--distinct", "3", "--weeks", "1",
                 "--seed", "5"]

    def load(rounds: int, *more: str) -> None:
        with django_capture_on_commit_callbacks(execute=True):  # the verdicts' followers
            call_command("load_simulated", *arguments, "--rounds", str(rounds), *more,
                         stdout=open(os.devnull, "w"))  # noqa: SIM115

    load(64)
    uploaded = Club.objects.get(name="Simulated club")
    one_by_one = _loaded_rows(uploaded)
    uploaded.name = "uploaded one by one"
    uploaded.save()
    load(12, "--bulk")  # the distinct matches, reviewed before their copies are made
    load(64, "--bulk")
    club = Club.objects.get(name="Simulated club")
    bulk = _loaded_rows(club)
    assert len(one_by_one["match"]) == 16 and one_by_one["player_day_pattern"]
    assert len(one_by_one["player_day"]) < 16 * 4  # days that several matches share
    assert len(one_by_one["book_day"]) < 16 * 4
    assert all(row[-1] is not None for row in one_by_one["verification"])  # reviewed
    assert one_by_one["rating_step"]
    for table, rows in one_by_one.items():
        assert bulk[table] == rows, table
    # and as stored, not only as read: the bytes compressed, the lines packed
    assert _stored(club) == _stored(uploaded)
    load(64, "--bulk")
    assert _loaded_rows(club) == bulk


@needs_postgres
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_bulk_load_by_several_writers_writes_what_one_writer_writes(
    cast: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The copies' batches written at once, each by its own connection (outside a
    transaction of the caller's, on PostgreSQL), give the same rows, day sums included,
    as the same batches one after the other."""
    import threading

    from django.core.management import call_command

    from analysis import copies
    from analysis.management.commands import load_simulated

    arguments = ["--bulk", "--players", "6", "--rounds-per-match", "4", "--distinct", "3",
                 "--weeks", "1", "--seed", "7", "--rounds", "160"]
    monkeypatch.setattr(load_simulated, "BATCH", 5)  # eight batches
    monkeypatch.setattr(load_simulated, "WRITERS", 1)
    call_command("load_simulated", *arguments, stdout=open(os.devnull, "w"))  # noqa: SIM115
    alone = Club.objects.get(name="Simulated club")
    one_writer = _loaded_rows(alone)
    alone.name = "one writer"
    alone.save()
    monkeypatch.setattr(load_simulated, "WRITERS", 3)
    threads = set()
    store = copies.store_copies

    def store_copies(*args: Any) -> Any:
        threads.add(threading.get_ident())
        return store(*args)

    monkeypatch.setattr(copies, "store_copies", store_copies)
    call_command("load_simulated", *arguments, stdout=open(os.devnull, "w"))  # noqa: SIM115
    assert threading.get_ident() not in threads and len(threads) == 3
    several = _loaded_rows(Club.objects.get(name="Simulated club"))
    assert len(one_writer["match"]) == 40 and one_writer["book_day"]
    for table, rows in one_writer.items():
        assert several[table] == rows, table


def test_a_book_day_is_the_club_s_day_and_follows_a_new_time_zone(
    cast: dict[str, Any], django_capture_on_commit_callbacks: Any,
) -> None:
    from records.services import set_club_time_zone, upload_match

    club = Club.objects.create(name="zones", time_zone="Asia/Shanghai")
    doc = documents(2)[0]
    doc["played_at"] = "2026-11-03T18:30:00+00:00"  # 02:30 on 4 November in Chengdu
    match = upload_match(club=club, raw=dumps(doc), uploaded_by=cast["adam"]).match
    verification.verify_match(match_id=match.pk)
    assert set(BookMatch.objects.filter(match=match).values_list("day", flat=True)) == {
        date(2026, 11, 4)}
    with django_capture_on_commit_callbacks(execute=True):
        set_club_time_zone(club=club, time_zone="UTC")
    assert set(BookMatch.objects.filter(match=match).values_list("day", flat=True)) == {
        date(2026, 11, 3)}
    assert set(BookDay.objects.filter(club=club).values_list("day", flat=True)) == {
        date(2026, 11, 3)}
