"""The nights API: start a night from matches, read its books, mark paid, close; seatings."""

from __future__ import annotations

import json
from typing import Any

import pytest

from analysis.league.signals import night_closed
from analysis.models import Night, SettleUp
from records.models import Club, Player
from tests.analysis.league.data import settled_match, tsumo, win

pytestmark = pytest.mark.django_db

C = "/api/v1/clubs/{club}/"


def nights_url(club: Any, *rest: Any) -> str:
    return C.format(club=club.pk) + "nights/" + "".join(f"{r}/" for r in rest)


def names_field(response: Any, field: str) -> bool:
    return any(e["path"] in (f"$.{field}",) or e["path"].startswith(f"$.{field}")
               for e in response.json()["errors"])


@pytest.fixture
def evening(club: Club) -> list[Any]:
    """Two matches of one evening among five people: erin sits in for dave."""
    first = settled_match(club, ("ann", "bob", "cai", "dan"), [win(0, 1, 8), tsumo(2, 2)])
    second = settled_match(club, ("ann", "bob", "cai", "erin"), [win(3, 0, 4), win(1, 2, 16)])
    return [first, second]


def test_an_admin_starts_a_night_from_matches_and_gets_its_id(
    club: Club, cast: Any, api_client: Any, evening: list[Any]
) -> None:
    response = api_client(cast["adam"]).post(
        nights_url(club), {"matches": [m.pk for m in evening], "name": "Tuesday",
                           "date": "2026-11-03", "point_value": "0.5"}, format="json")
    assert response.status_code == 201
    body = response.json()
    night = Night.objects.get(pk=body["id"])
    assert night.name == "Tuesday" and str(night.date) == "2026-11-03"
    assert sorted(m["id"] for m in body["matches"]) == sorted(m.pk for m in evening)
    assert body["status"] == "open" and body["point_value"] == "0.5000"


def test_a_night_lists_its_standings_balances_and_the_transfers_that_settle_them(
    club: Club, cast: Any, api_client: Any, evening: list[Any]
) -> None:
    client = api_client(cast["mia"])
    night = api_client(cast["adam"]).post(
        nights_url(club), {"matches": [m.pk for m in evening], "point_value": "0.5"},
        format="json").json()
    body = client.get(nights_url(club, night["id"])).json()
    net = {b["handle"]: b["played"] for b in body["balances"]}
    # ann: −8 −2 +0... first match: bob deals in 8 to ann; cai self-draws 2 from each
    assert net == {"ann": 8 - 2 - 4, "bob": -8 - 2 + 16, "cai": 6 - 16, "dan": -2, "erin": 4}
    assert {b["handle"]: b["money"] for b in body["balances"]}["bob"] == "3.00"
    assert sum(b["points"] for b in body["balances"]) == 0
    assert [r["handle"] for r in body["standings"]][:1] == ["bob"]
    transfers = body["transfers"]
    assert len(transfers) <= len(net) - 1
    after = dict(net)
    for t in transfers:
        after[t["from_handle"]] += t["points"]
        after[t["to_handle"]] -= t["points"]
    assert set(after.values()) == {0}
    assert {"from", "to", "points", "money"} <= set(transfers[0])


def test_marking_a_transfer_paid_records_a_settle_up_the_club_ledger_carries(
    club: Club, cast: Any, api_client: Any, evening: list[Any]
) -> None:
    admin = api_client(cast["adam"])
    night = admin.post(nights_url(club), {"matches": [m.pk for m in evening]},
                       format="json").json()
    first = night["transfers"][0]
    paid = admin.post(nights_url(club, night["id"], "payments"),
                      {"from": first["from"], "to": first["to"]}, format="json")
    assert paid.status_code == 201 and paid.json()["points"] == first["points"]
    assert SettleUp.objects.get().night_id == night["id"]
    body = admin.get(nights_url(club, night["id"])).json()
    assert first not in body["transfers"] and len(body["settle_ups"]) == 1
    ledger = admin.get(C.format(club=club.pk) + "ledger/").json()
    payer = next(b for b in ledger["balances"] if b["player"] == first["from"])
    assert payer["settled"] == first["points"]


def test_closing_a_night_with_everything_paid_tells_its_listeners_once(
    club: Club, cast: Any, api_client: Any, evening: list[Any],
    django_capture_on_commit_callbacks: Any,
) -> None:
    admin = api_client(cast["adam"])
    night = admin.post(nights_url(club), {"matches": [m.pk for m in evening]},
                       format="json").json()
    heard: list[dict[str, Any]] = []

    def listen(sender: Any, **kwargs: Any) -> None:
        heard.append(kwargs)

    night_closed.connect(listen)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            closed = admin.post(nights_url(club, night["id"], "close"), {"mark_paid": True},
                                format="json")
        with django_capture_on_commit_callbacks(execute=True):
            admin.post(nights_url(club, night["id"], "close"), {}, format="json")
    finally:
        night_closed.disconnect(listen)
    body = closed.json()
    assert closed.status_code == 200 and body["status"] == "closed"
    assert body["transfers"] == [] and len(body["settle_ups"]) == len(night["transfers"])
    assert [h["night_id"] for h in heard] == [night["id"]] and heard[0]["club_id"] == club.pk


@pytest.mark.parametrize(("who", "status"), [("mia", 403), ("nora", 404), (None, 401)])
def test_only_admins_start_or_close_a_night(
    club: Club, cast: Any, api_client: Any, who: str | None, status: int
) -> None:
    client = api_client(cast[who] if who else None)
    assert client.post(nights_url(club), {}, format="json").status_code == status
    night = Night.objects.create(club=club, date="2026-11-03")
    assert client.post(nights_url(club, night.pk, "close"), {}, format="json").status_code == status


def test_a_non_member_cannot_read_a_night(club: Club, cast: Any, api_client: Any) -> None:
    night = Night.objects.create(club=club, date="2026-11-03")
    assert api_client(cast["nora"]).get(nights_url(club, night.pk)).status_code == 404
    assert api_client(cast["mia"]).get(nights_url(club, night.pk)).status_code == 200


def test_a_match_of_another_club_or_of_another_night_is_refused_naming_the_field(
    club: Club, cast: Any, api_client: Any, evening: list[Any]
) -> None:
    admin = api_client(cast["adam"])
    other = Club.objects.create(name="Elsewhere")
    foreign = settled_match(other, ("w", "x", "y", "z"), [win(0, 1, 1)])
    response = admin.post(nights_url(club), {"matches": [foreign.pk]}, format="json")
    assert response.status_code == 400 and names_field(response, "matches")
    assert admin.post(nights_url(club), {"matches": [evening[0].pk]},
                      format="json").status_code == 201
    again = admin.post(nights_url(club), {"matches": [evening[0].pk]}, format="json")
    assert again.status_code == 400 and names_field(again, "matches")
    bad = admin.post(nights_url(club), {"point_value": "cheap"}, format="json")
    assert bad.status_code == 400 and names_field(bad, "point_value")
    assert Night.objects.count() == 1


def test_a_seating_of_the_club_s_players_reports_its_quality(
    club: Club, cast: Any, api_client: Any
) -> None:
    ids = [Player.objects.create(club=club, handle=f"p{i:02}").pk for i in range(16)]
    response = api_client(cast["mia"]).post(
        C.format(club=club.pk) + "seating/", {"players": ids, "rounds": 5, "seed": 4},
        format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["repeated_pairs"] == body["lower_bound"] == 0 and body["seed"] == 4
    assert len(body["rounds"]) == 5 and all(len(r) == 4 for r in body["rounds"])
    assert body["sitting_out"] == [[]] * 5


def test_a_seating_without_a_seed_says_which_it_used(
    club: Club, cast: Any, api_client: Any
) -> None:
    ids = [Player.objects.create(club=club, handle=f"p{i:02}").pk for i in range(13)]
    body = api_client(cast["mia"]).post(
        C.format(club=club.pk) + "seating/", {"players": ids, "rounds": 4},
        format="json").json()
    again = api_client(cast["mia"]).post(
        C.format(club=club.pk) + "seating/", {"players": ids, "rounds": 4,
                                               "seed": body["seed"]}, format="json").json()
    assert again == body and all(len(out) == 1 for out in body["sitting_out"])


@pytest.mark.parametrize(("body", "field"), [
    ({"players": [1, 2, 3], "rounds": 2}, "players"),
    ({"players": "all", "rounds": 2}, "players"),
    ({"rounds": 2}, "players"),
    ({"players": None, "rounds": 0}, "players"),
    ({"players": [], "rounds": 0}, "rounds"),
])
def test_a_seating_of_too_few_players_or_no_rounds_is_a_400_naming_the_field(
    club: Club, cast: Any, api_client: Any, body: dict[str, Any], field: str
) -> None:
    response = api_client(cast["mia"]).post(C.format(club=club.pk) + "seating/", body,
                                            format="json")
    assert response.status_code == 400 and names_field(response, field)


def test_a_seating_of_players_of_another_club_is_refused(
    club: Club, cast: Any, api_client: Any
) -> None:
    other = Club.objects.create(name="Elsewhere")
    ids = [Player.objects.create(club=other, handle=f"p{i}").pk for i in range(4)]
    response = api_client(cast["mia"]).post(C.format(club=club.pk) + "seating/",
                                            {"players": ids, "rounds": 1}, format="json")
    assert response.status_code == 400 and names_field(response, "players")


def test_a_seated_night_expects_each_match_at_its_table(
    club: Club, cast: Any, api_client: Any
) -> None:
    admin = api_client(cast["adam"])
    night = admin.post(nights_url(club), {}, format="json").json()
    handles = [f"p{i}" for i in range(8)]
    ids = [Player.objects.create(club=club, handle=h).pk for h in handles]
    seating = admin.post(nights_url(club, night["id"], "seating"),
                         {"players": ids, "rounds": 2, "seed": 1}, format="json").json()
    east, south, west, north = seating["rounds"][1][0]
    by_id = dict(zip(ids, handles, strict=True))
    played = settled_match(club, (by_id[south], by_id[west], by_id[north], by_id[east]),
                           [win(0, 1, 2)])
    admin.patch(nights_url(club, night["id"]), {"matches": [played.pk]}, format="json")
    body = admin.get(nights_url(club, night["id"])).json()
    assert body["tables"][1][0] == {"players": [east, south, west, north], "match": played.pk}
    assert body["tables"][0][0]["match"] is None
    assert body["matches"][0]["table"] == {"round": 1, "table": 0}
    assert sorted(p["id"] for p in body["players"]) == sorted(ids)


def test_proposals_group_the_matches_no_night_holds_by_the_hours_between_them(
    club: Club, cast: Any, api_client: Any
) -> None:
    from datetime import UTC, datetime

    from django.utils import timezone

    times = ["11:00", "13:00", "15:30", "23:00"]  # UTC: 19:00, 21:00, 23:30, then next 07:00
    today = timezone.now().date()
    made = []
    for at in times:
        m = settled_match(club, ("a", "b", "c", "d"), [win(0, 1, 1)])
        hour, minute = map(int, at.split(":"))
        m.played_at = datetime(today.year, today.month, today.day, hour, minute, tzinfo=UTC)
        m.save(update_fields=["played_at"])
        made.append(m.pk)
    body = api_client(cast["mia"]).get(nights_url(club, "proposals")).json()
    assert [p["matches"] for p in body] == [made[3:], made[:3]]
    assert body[1]["players"] == ["a", "b", "c", "d"]
    wide = api_client(cast["mia"]).get(nights_url(club, "proposals") + "?hours=12").json()
    assert [p["matches"] for p in wide] == [made]
    bad = api_client(cast["mia"]).get(nights_url(club, "proposals") + "?hours=99")
    assert bad.status_code == 400 and names_field(bad, "hours")


N = C + "nights/{night}/"
ANYONE = (401, 404, 200, 200, 200)  # anonymous, outsider, member, admin, owner
# (method, url, body, statuses): members read and compute seatings, admins run the night
MATRIX: list[tuple[str, str, Any, tuple[int, ...]]] = [
    ("GET", C + "nights/", None, ANYONE),
    ("POST", C + "nights/", {}, (401, 404, 403, 201, 201)),
    ("GET", C + "nights/proposals/", None, ANYONE),
    ("GET", N, None, ANYONE),
    ("PATCH", N, {"name": "Friday"}, (401, 404, 403, 200, 200)),
    ("GET", N + "payments/", None, ANYONE),
    ("POST", N + "payments/", {"from": "{a}", "to": "{b}", "points": 1},
     (401, 404, 403, 201, 201)),
    ("POST", N + "seating/", {"players": "{four}", "rounds": 1, "seed": 1},
     (401, 404, 403, 200, 200)),
    ("GET", N + "seating/", None, (401, 404, 404, 404, 404)),  # none made yet
    ("POST", N + "close/", {}, (401, 404, 403, 200, 200)),
    ("POST", N + "reopen/", None, (401, 404, 403, 200, 200)),
    ("DELETE", N, None, (401, 404, 403, 204, 204)),
    ("POST", C + "seating/", {"players": "{four}", "rounds": 2}, ANYONE),
    ("POST", C + "sheets/check/", {"players": ["a", "b", "c", "d"], "rounds": []}, ANYONE),
]
ROLES = ("anonymous", "outsider", "member", "admin", "owner")
USER_OF = {"anonymous": None, "outsider": "nora", "member": "mia", "admin": "adam",
           "owner": "olga"}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("method", "url", "body", "expected"), MATRIX,
                         ids=[f"{m} {u}" for m, u, _, _ in MATRIX])
def test_who_may_do_what_with_nights_and_seatings(
    club: Club, cast: Any, api_client: Any, role: str, method: str, url: str, body: Any,
    expected: tuple[int, ...],
) -> None:
    four = [Player.objects.create(club=club, handle=h).pk for h in "abcd"]
    night = Night.objects.create(club=club, date="2026-11-03")
    values = {"a": four[0], "b": four[1], "four": four}
    if isinstance(body, dict):
        body = {k: values[v[1:-1]] if isinstance(v, str) and v[:1] == "{" else v
                for k, v in body.items()}
    user = USER_OF[role]
    client = api_client(cast[user] if user else None)
    response = client.generic(method, url.format(club=club.pk, night=night.pk),
                              data=None if body is None else json.dumps(body),
                              content_type="application/json")
    assert response.status_code == expected[ROLES.index(role)], response.content
