"""Create the demo club, its users, and matches from the simulator (or the sample logs)."""

from __future__ import annotations

import json
import os
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from analysis.league.nights.services import create_night, seat_night
from analysis.league.services import save_season
from analysis.models import Night, PlayerMatch, Season
from analysis.services import FACT_STATUSES
from analysis.stats import aggregates
from records import services
from records.errors import DocumentError
from records.models import Club, Membership
from xuezhan.sim.simulate import simulate_matches

DEMO_CLUB = "Demo club"
DEMO_USERS = (("demo-owner", "owner"), ("demo-admin", "admin"), ("demo-member", "member"))
DEMO_FIRST_NIGHT = datetime(2026, 9, 1, 19, 30, tzinfo=timezone(timedelta(hours=8)))


def demo_season(club: Club, admin: Any) -> Any:
    """The season the demo matches are played in (weekly from 1 September 2026)."""
    season = Season.objects.filter(club=club, name="Autumn 2026").first()
    return season or save_season(
        club=club,
        by=admin,
        name="Autumn 2026",
        starts_on=date(2026, 9, 1),
        ends_on=date(2026, 12, 31),
        ruleset="chengdu",
        point_value=Decimal("0.5"),
        tie_breaks=["wins", "net_per_round", "deal_ins_per_round"],
    )


def demo_night(club: Club, users: dict[str, Any]) -> Night | None:
    """The last match's evening as a night, its players seated for two rounds, and the
    demo member linked to one of them (so that their home shows what they owe)."""
    last = club.matches.order_by("-played_at", "-pk").first()
    if last is None or club.nights.exists():
        return club.nights.first()
    players = [s.player for s in last.seats.select_related("player").order_by("seat")]
    if not club.players.filter(user=users["member"]).exists():
        services.link_player(player=players[0], user=users["member"])
    ids = [p.pk for p in club.players.all()]
    night = create_night(club=club, by=users["admin"], matches=[last.pk], players=ids)
    seat_night(night, players=ids, rounds=2, seed=1, by=users["admin"])
    return night


def _count_in_statistics(club: Club) -> None:
    """Rebuild the club's statistics day rows if a verified match is missing from them: a
    database filled before those rows existed (migration 0007), whose matches are not
    verified again here (docs/statistics.md, "Scale")."""
    counted = PlayerMatch.objects.values("match_id")
    if club.matches.filter(status__in=FACT_STATUSES).exclude(pk__in=counted).exists():
        with transaction.atomic():
            aggregates.rebuild_club(club.pk)


class Command(BaseCommand):
    help = "Create a demo club with three users and load simulated matches into it."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--matches", type=int, default=12, help="simulated matches to load")
        parser.add_argument("--rounds", type=int, default=24, help="rounds in each match")
        parser.add_argument("--seed", type=int, default=2026, help="the simulation's seed")

    def handle(self, *args: Any, **options: Any) -> None:
        password = os.environ.get("DEMO_PASSWORD", "xuezhan-demo")
        User = get_user_model()
        users = {}
        for username, role in DEMO_USERS:
            user, new = User.objects.get_or_create(username=username)
            if new:
                user.set_password(password)
                user.save()
            users[role] = user
        club = Club.objects.filter(
            name=DEMO_CLUB, memberships__user=users["owner"], memberships__role="owner"
        ).first()
        if club is None:
            club = services.create_club(name=DEMO_CLUB, owner=users["owner"])
        for role in (Membership.Role.ADMIN, Membership.Role.MEMBER):
            services.add_member(club=club, user=users[role], role=role)

        docs = list(simulate_matches(options["matches"], options["rounds"], options["seed"]))
        created = 0
        for week, doc in enumerate(docs):
            # one match night a week, so that the demo season has match days and movement
            doc.setdefault("played_at", (DEMO_FIRST_NIGHT + timedelta(weeks=week)).isoformat())
            raw = json.dumps(doc, ensure_ascii=False).encode()
            try:
                upload = services.upload_match(club=club, raw=raw, uploaded_by=users["member"])
            except DocumentError as exc:
                self.stderr.write(f"skipped a document: {exc.detail} {exc.errors[:3]}")
                continue
            if upload.created:
                created += 1  # verification is queued by the upload, after commit
        _count_in_statistics(club)
        statuses: dict[str, int] = {}
        for status in club.matches.values_list("status", flat=True):
            statuses[status] = statuses.get(status, 0) + 1
        summary = ", ".join(f"{n} {s}" for s, n in sorted(statuses.items())) or "no matches"
        season = demo_season(club, users["admin"])
        night = demo_night(club, users)
        token = services.issue_token(user=users["owner"], name="load_demo")
        self.stdout.write(
            f"Demo club #{club.pk}: {created} new matches from the simulator ({summary}).\n"
            f"Sign in at http://127.0.0.1:8000/accounts/login/ as demo-owner, demo-admin or "
            f"demo-member, password {password!r} (set DEMO_PASSWORD to choose another).\n"
            f"API docs: http://127.0.0.1:8000/api/v1/docs/ - demo-owner's token: {token.key}\n"
            f"Standings: http://127.0.0.1:8000/clubs/{club.pk}/seasons/{season.pk}/ - "
            f"ledger: http://127.0.0.1:8000/clubs/{club.pk}/ledger/?season={season.pk}"
            + (f" - the last night: http://127.0.0.1:8000/clubs/{club.pk}/nights/{night.pk}/"
               if night else "")
        )
