"""Settled matches written straight into the tables, for standings and ledger tests.

A round is a list of wins: ``win(winner, discarder, amount)`` (the discarder deals in and
pays) or ``tsumo(winner, amount)`` (the three others pay). The rows are what
``analysis.services.verify_match`` would write for such a round; the upload path itself is
tested in test_league_api.py with simulated logs.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from itertools import count
from typing import Any

from analysis import books, compact
from analysis.facts import net_from_seats
from analysis.models import RoundSettlement, SeatResult, Verification
from records.models import Club, Match, Player, Round, Seat, store_ruleset
from xuezhan.rules import Rules

Line = tuple[int, int, int, bool]  # payer seat, payee seat, amount, payer dealt in

_serial = count()


def win(winner: int, discarder: int, amount: int) -> list[Line]:
    return [(discarder, winner, amount, True)]


def tsumo(winner: int, amount: int) -> list[Line]:
    return [(seat, winner, amount, False) for seat in range(4) if seat != winner]


def settled_match(
    club: Club,
    handles: tuple[str, str, str, str],
    rounds: list[list[Line]],
    *,
    day: str = "2026-11-03",
    status: str = Match.Status.VERIFIED,
    ruleset: Any = "chengdu",
    incomplete: tuple[int, ...] = (),
) -> Match:
    """A verified match of ``rounds``; ``incomplete`` lists round indexes left unfinished."""
    rules = Rules.from_json(ruleset)
    serial = next(_serial)
    match = Match.objects.create(
        club=club,
        raw=b'{"test": %d}' % serial,
        raw_sha256="0" * 64,
        content_sha256=hashlib.sha256(str(serial).encode()).hexdigest(),
        stored_ruleset_id=store_ruleset(rules.to_json()),
        ruleset_name=rules.preset_name,
        played_at=datetime.fromisoformat(day).replace(hour=19, tzinfo=UTC),
        status=status,
    )
    players = [Player.objects.get_or_create(club=club, handle=h)[0] for h in handles]
    Seat.objects.bulk_create(Seat(match=match, seat=i, player=p) for i, p in enumerate(players))
    totals = [0, 0, 0, 0]
    for index, lines in enumerate(rounds):
        round_ = Round.objects.create(match=match, index=index, dealer=0)
        deltas = [0, 0, 0, 0]
        for payer, payee, amount, _ in lines:
            deltas[payer] -= amount
            deltas[payee] += amount
        payments = [{"payer": a, "payee": b, "amount": n, "reason": "win"} for a, b, n, _ in lines]
        RoundSettlement.objects.create(
            round=round_, incomplete=index in incomplete, next_dealer=0, deltas=deltas,
            lines=compact.dumps_lines(payments),
        )
        dealt_in = {b: a for a, b, _, d in lines if d}
        winners = {b for _, b, _, _ in lines}
        SeatResult.objects.bulk_create(
            _seat_result(round_, seat, players[seat], deltas[seat], seat in winners, dealt_in,
                         net_from_seats(seat, payments))
            for seat in range(4)
        )
        if index not in incomplete:
            totals = [t + d for t, d in zip(totals, deltas, strict=True)]
    Verification.objects.create(
        match=match,
        legal=status == Match.Status.VERIFIED,
        engine_version="test",
        verified_at=match.played_at,
        stored_ruleset_id=match.stored_ruleset_id,
        totals=totals,
    )
    books.refresh_matches([match.pk])  # as the verification does
    return match


def _seat_result(
    round_: Round, seat: int, player: Player, delta: int, won: bool, dealt_in: dict[int, int],
    nets: dict[str, int],
) -> SeatResult:
    return SeatResult(
        round=round_,
        seat=seat,
        player=player,
        won=won,
        win_order=1 if won else None,
        self_drawn=won and seat not in dealt_in,
        discarder=dealt_in.get(seat) if won else None,
        delta=delta,
        kong_income=0,
        flower_pig=False,
        ting_paid=0,
        ting_received=0,
        refunded=0,
        transferred=0,
        **nets,
    )
