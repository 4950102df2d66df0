"""The league API: seasons, standings, ledger, settle-ups, acceptance; CSV; permissions."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest

from analysis.models import Season
from records.models import Match
from tests.analysis.league.data import settled_match, tsumo, win
from tests.exports import body as body_of
from tests.languages import in_chinese
from tests.records.documents import dumps

pytestmark = pytest.mark.django_db

ABCD = ("a", "b", "c", "d")
SEASON_BODY = {
    "name": "Autumn 2026",
    "starts_on": "2026-11-01",
    "ends_on": "2026-11-30",
    "ruleset": "chengdu",
    "point_value": "0.5",
    "tie_breaks": ["wins", "head_to_head"],
}


def names_field(response: Any, field: str) -> bool:
    """The API's problem shape names the field in one of its error paths."""
    return any(e["path"].split(".")[1:2] == [field] or e["path"] == f"$.{field}"
               or e["path"].startswith(f"$.{field}[") for e in response.json()["errors"])


@pytest.fixture
def season(club: Any, cast: Any, api_client: Any) -> dict[str, Any]:
    response = api_client(cast["adam"]).post(
        f"/api/v1/clubs/{club.pk}/seasons/", SEASON_BODY, format="json"
    )
    assert response.status_code == 201, response.content
    body: dict[str, Any] = response.json()
    return body


def test_an_admin_creates_a_season_with_its_ruleset_resolved(season: dict[str, Any]) -> None:
    assert season["ruleset_name"] == "chengdu" and isinstance(season["ruleset"], dict)
    assert season["point_value"] == "0.5000" and season["method"] == "net"
    assert season["tie_breaks"] == ["wins", "head_to_head"]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"ruleset": "nowhere"}, "ruleset"),
        ({"tie_breaks": ["coin_toss"]}, "tie_breaks"),
        ({"tie_breaks": ["wins", "wins"]}, "tie_breaks"),
        ({"placement_points": [1, 2, 3, 4]}, "placement_points"),
        ({"placement_points": [4, 2, 1]}, "placement_points"),
        ({"ends_on": "2026-10-01"}, "ends_on"),
        ({"method": "elo"}, "method"),
    ],
)
def test_a_bad_season_is_refused_naming_the_field(
    club: Any, cast: Any, api_client: Any, change: dict[str, Any], field: str
) -> None:
    response = api_client(cast["adam"]).post(
        f"/api/v1/clubs/{club.pk}/seasons/", {**SEASON_BODY, **change}, format="json"
    )
    assert response.status_code == 400 and names_field(response, field), response.content


def test_a_refused_season_is_worded_in_the_request_language_and_still_names_the_field(
    club: Any, cast: Any, api_client: Any
) -> None:
    response = api_client(cast["adam"]).post(
        f"/api/v1/clubs/{club.pk}/seasons/", {**SEASON_BODY, "ends_on": "2026-10-01"},
        format="json", HTTP_ACCEPT_LANGUAGE="zh-Hans",
    )
    assert response.status_code == 400 and response.json()["type"] == "invalid_request"
    message = in_chinese("the season ends before it starts")
    assert response.json()["errors"] == [{"path": "$.ends_on", "message": message}]


@pytest.mark.parametrize(
    ("query", "english"),
    [("season=999999", "no such season in this club"), ("point_value=lots", "a decimal number")],
)
def test_a_bad_ledger_query_is_worded_in_the_request_language_and_names_the_parameter(
    club: Any, cast: Any, api_client: Any, query: str, english: str
) -> None:
    response = api_client(cast["mia"]).get(
        f"/api/v1/clubs/{club.pk}/ledger/?{query}", HTTP_ACCEPT_LANGUAGE="zh-Hans"
    )
    path = "$." + query.split("=")[0]
    assert response.status_code == 400
    assert response.json()["errors"] == [{"path": path, "message": in_chinese(english)}]


def test_a_second_season_of_the_same_name_is_refused(
    club: Any, cast: Any, api_client: Any, season: dict[str, Any]
) -> None:
    response = api_client(cast["adam"]).post(
        f"/api/v1/clubs/{club.pk}/seasons/", SEASON_BODY, format="json"
    )
    assert response.status_code == 400 and names_field(response, "name")


def test_standings_name_rank_player_handle_matches_rounds_net(
    club: Any, cast: Any, api_client: Any, season: dict[str, Any]
) -> None:
    settled_match(club, ABCD, [win(0, 1, 8), tsumo(2, 1)])
    body = (
        api_client(cast["mia"])
        .get(f"/api/v1/clubs/{club.pk}/seasons/{season['id']}/standings/")
        .json()
    )
    assert body["season"]["id"] == season["id"] and body["match_count"] == 1
    first = body["rows"][0]
    assert {k: first[k] for k in ("rank", "handle", "matches", "rounds", "net")} == {
        "rank": 1, "handle": "a", "matches": 1, "rounds": 2, "net": 7,
    }  # fmt: skip
    assert first["placements"] == [1, 0, 0, 0] and first["net_per_round"] == "3.50"
    assert [r["handle"] for r in body["rows"]] == ["a", "c", "d", "b"]


def test_standings_export_as_csv_one_line_per_player(
    club: Any, cast: Any, api_client: Any, season: dict[str, Any]
) -> None:
    settled_match(club, ABCD, [win(0, 1, 8)])
    response = api_client(cast["mia"]).get(
        f"/api/v1/clubs/{club.pk}/seasons/{season['id']}/standings/?format=csv"
    )
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(body_of(response))))
    assert (rows[0]["rank"], rows[0]["handle"], rows[0]["net"]) == ("1", "a", "8")
    assert rows[0]["placed_1"] == "1" and len(rows) == 4


def test_ledger_lists_balances_and_the_fewest_transfers_in_points_and_money(
    club: Any, cast: Any, api_client: Any, season: dict[str, Any]
) -> None:
    settled_match(club, ABCD, [win(0, 1, 8), win(2, 3, 3)])
    body = (
        api_client(cast["mia"]).get(f"/api/v1/clubs/{club.pk}/ledger/?season={season['id']}").json()
    )
    balances = {b["handle"]: (b["points"], b["money"]) for b in body["balances"]}
    assert balances == {"a": (8, "4.00"), "b": (-8, "-4.00"), "c": (3, "1.50"), "d": (-3, "-1.50")}
    transfers = {
        (t["from_handle"], t["to_handle"], t["points"], t["money"]) for t in body["transfers"]
    }
    assert transfers == {("b", "a", 8, "4.00"), ("d", "c", 3, "1.50")}
    assert body["exact"] is True and body["rounding"] == "0.00000000"


def test_money_is_rounded_once_per_line_and_the_rounding_is_shown(
    club: Any, cast: Any, api_client: Any
) -> None:
    settled_match(club, ABCD, [win(0, 1, 3)])
    body = api_client(cast["mia"]).get(f"/api/v1/clubs/{club.pk}/ledger/?point_value=0.125").json()
    a = next(b for b in body["balances"] if b["handle"] == "a")
    assert a["money"] == "0.38"
    assert a["money_detail"]["exact"] == "0.37500000"
    assert a["money_detail"]["rounding"] == "0.00500000"


def test_settle_ups_reduce_balances_and_what_is_unpaid_carries_over(
    club: Any, cast: Any, api_client: Any
) -> None:
    settled_match(club, ABCD, [win(0, 1, 8)], day="2026-11-03")
    admin = api_client(cast["adam"])
    players = {
        p["handle"]: p["id"]
        for p in admin.get(f"/api/v1/clubs/{club.pk}/players/").json()["results"]
    }
    paid = admin.post(
        f"/api/v1/clubs/{club.pk}/settle-ups/",
        {"payer": players["b"], "payee": players["a"], "points": 5,
         "paid_at": "2026-11-04T12:00:00Z", "note": "cash"},
        format="json",
    )  # fmt: skip
    assert paid.status_code == 201, paid.content
    assert paid.json()["recorded_by"] == "adam"
    settled_match(club, ABCD, [win(2, 1, 1)], day="2026-11-10")
    body = admin.get(f"/api/v1/clubs/{club.pk}/ledger/?from=2026-11-05").json()
    b = next(x for x in body["balances"] if x["handle"] == "b")
    assert (b["opening"], b["played"], b["settled"], b["points"]) == (-3, -1, 0, -4)
    transfers = {(t["from_handle"], t["to_handle"], t["points"]) for t in body["transfers"]}
    assert transfers == {("b", "a", 3), ("b", "c", 1)}
    whole = admin.get(f"/api/v1/clubs/{club.pk}/ledger/").json()
    b = next(x for x in whole["balances"] if x["handle"] == "b")
    assert (b["opening"], b["played"], b["settled"], b["points"]) == (0, -9, 5, -4)


def test_a_settle_up_between_strangers_to_the_club_is_refused(
    club: Any, cast: Any, api_client: Any
) -> None:
    from records import services

    settled_match(club, ABCD, [win(0, 1, 8)])
    other = services.create_club(name="Elsewhere", owner=cast["nora"])
    stranger = services.create_player(club=other, handle="x")
    a = club.players.get(handle="a")
    response = api_client(cast["adam"]).post(
        f"/api/v1/clubs/{club.pk}/settle-ups/",
        {"payer": stranger.pk, "payee": a.pk, "points": 1},
        format="json",
    )
    assert response.status_code == 400 and names_field(response, "payer")
    same = api_client(cast["adam"]).post(
        f"/api/v1/clubs/{club.pk}/settle-ups/",
        {"payer": a.pk, "payee": a.pk, "points": 1},
        format="json",
    )
    assert same.status_code == 400 and names_field(same, "payee")


@pytest.mark.parametrize("query", ["from=yesterday", "season=999999", "point_value=lots"])
def test_a_bad_ledger_query_is_a_400_naming_the_parameter(
    club: Any, cast: Any, api_client: Any, query: str
) -> None:
    response = api_client(cast["mia"]).get(f"/api/v1/clubs/{club.pk}/ledger/?{query}")
    assert response.status_code == 400 and names_field(response, query.split("=")[0])


def test_ledger_exports_as_csv_with_balances_then_transfers(
    club: Any, cast: Any, api_client: Any
) -> None:
    settled_match(club, ABCD, [win(0, 1, 8)])
    response = api_client(cast["mia"]).get(f"/api/v1/clubs/{club.pk}/ledger/?format=csv")
    rows = list(csv.DictReader(io.StringIO(body_of(response))))
    assert [r["kind"] for r in rows] == ["balance"] * 4 + ["transfer"]
    assert (rows[-1]["player"], rows[-1]["to"], rows[-1]["points"]) == ("b", "a", "8")


def test_an_accepted_illegal_match_records_who_and_why(
    club: Any, cast: Any, api_client: Any
) -> None:
    match = settled_match(club, ABCD, [win(0, 1, 8)], status=Match.Status.ILLEGAL)
    url = f"/api/v1/clubs/{club.pk}/matches/{match.pk}/acceptance/"
    admin = api_client(cast["adam"])
    assert admin.get(url).status_code == 404
    response = admin.put(url, {"reason": "misdeal, all agreed"}, format="json")
    assert response.status_code == 200, response.content
    got = api_client(cast["mia"]).get(url).json()
    assert got["reason"] == "misdeal, all agreed" and got["accepted_by"] == "adam"
    assert admin.put(url, {"reason": ""}, format="json").status_code == 400


def test_season_matches_lists_other_rulesets_apart_and_takes_hand_assignments(
    club: Any, cast: Any, api_client: Any, season: dict[str, Any]
) -> None:
    counted = settled_match(club, ABCD, [win(0, 1, 8)])
    other = settled_match(club, ABCD, [win(0, 1, 8)], ruleset="online")
    url = f"/api/v1/clubs/{club.pk}/seasons/{season['id']}/matches/"
    body = api_client(cast["mia"]).get(url).json()
    assert [m["id"] for m in body["counted"]] == [counted.pk]
    assert [m["id"] for m in body["other_ruleset"]] == [other.pk]
    assert body["counted"][0]["players"] == list(ABCD)
    admin = api_client(cast["adam"])
    assert admin.post(url, {"match": other.pk}, format="json").status_code == 201
    body = admin.get(url).json()
    assert {m["id"] for m in body["counted"]} == {counted.pk, other.pk}
    assert admin.delete(f"{url}{other.pk}/").status_code == 204
    assert admin.post(url, {"match": 999999}, format="json").status_code == 400


def test_uploaded_and_verified_logs_feed_standings_and_ledger(
    club: Any, cast: Any, api_client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from xuezhan.sim.simulate import simulate_match

    member = api_client(cast["mia"])
    totals: dict[str, int] = {}
    for seed in (3, 4):
        doc = simulate_match(seed, 2)
        doc["played_at"] = f"2026-11-{seed:02d}T19:00:00+08:00"
        with django_capture_on_commit_callbacks(execute=True):
            response = member.generic(
                "POST", f"/api/v1/clubs/{club.pk}/matches/", dumps(doc), "application/json"
            )
        assert response.status_code == 201
        match = Match.objects.get(pk=response.json()["id"])
        assert match.status == Match.Status.VERIFIED
        for handle, total in zip(doc["players"], match.verification.totals, strict=True):
            incomplete = any(r.settlement.incomplete for r in match.rounds.all())
            assert not incomplete
            totals[handle] = totals.get(handle, 0) + total
    season = Season.objects.create(
        club=club, name="S", starts_on="2026-11-01", ends_on="2026-11-30",
        ruleset=match.ruleset, ruleset_name="chengdu",
    )  # fmt: skip
    body = member.get(f"/api/v1/clubs/{club.pk}/seasons/{season.pk}/standings/").json()
    assert {r["handle"]: r["net"] for r in body["rows"]} == totals
    ledger = member.get(f"/api/v1/clubs/{club.pk}/ledger/?season={season.pk}").json()
    assert {b["handle"]: b["points"] for b in ledger["balances"]} == totals


# --- permissions: every endpoint × anonymous, outsider, member, admin, owner ---

ROLES = ("anonymous", "outsider", "member", "admin", "owner")
USER_OF = {"anonymous": None, "outsider": "nora", "member": "mia", "admin": "adam", "owner": "olga"}
C = "/api/v1/clubs/{club}/"
S = C + "seasons/{season}/"
MATRIX: list[tuple[str, str, Any, tuple[int, int, int, int, int]]] = [
    ("GET", C + "seasons/", None, (401, 404, 200, 200, 200)),
    ("POST", C + "seasons/", {**SEASON_BODY, "name": "New"}, (401, 404, 403, 201, 201)),
    ("GET", S, None, (401, 404, 200, 200, 200)),
    ("PATCH", S, {"min_matches": 3}, (401, 404, 403, 200, 200)),
    ("DELETE", S, None, (401, 404, 403, 204, 204)),
    ("GET", S + "standings/", None, (401, 404, 200, 200, 200)),
    ("GET", S + "standings/?format=csv", None, (401, 404, 200, 200, 200)),
    ("GET", S + "what-if/?ruleset=online", None, (401, 404, 200, 200, 200)),
    ("GET", S + "matches/", None, (401, 404, 200, 200, 200)),
    ("POST", S + "matches/", "match", (401, 404, 403, 201, 201)),
    ("DELETE", S + "matches/{match}/", None, (401, 404, 403, 204, 204)),
    ("GET", C + "matches/{illegal}/acceptance/", None, (401, 404, 404, 404, 404)),
    ("PUT", C + "matches/{illegal}/acceptance/", {"reason": "ok"}, (401, 404, 403, 200, 200)),
    ("DELETE", C + "matches/{illegal}/acceptance/", None, (401, 404, 403, 204, 204)),
    ("GET", C + "ledger/", None, (401, 404, 200, 200, 200)),
    ("GET", C + "ledger/?format=csv", None, (401, 404, 200, 200, 200)),
    ("GET", C + "settle-ups/", None, (401, 404, 200, 200, 200)),
    ("POST", C + "settle-ups/", "settle-up", (401, 404, 403, 201, 201)),
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(
    ("method", "path", "body", "expected"), MATRIX, ids=[f"{m} {p}" for m, p, _, _ in MATRIX]
)
def test_league_permission_matrix(
    role: str,
    method: str,
    path: str,
    body: Any,
    expected: tuple[int, ...],
    club: Any,
    cast: Any,
    api_client: Any,
) -> None:
    match = settled_match(club, ABCD, [win(0, 1, 8)])
    illegal = settled_match(club, ABCD, [win(0, 1, 2)], status=Match.Status.ILLEGAL)
    season = Season.objects.create(
        club=club, name="S", starts_on="2026-11-01", ends_on="2026-11-30",
        ruleset=match.ruleset, ruleset_name="chengdu",
    )  # fmt: skip
    url = path.format(club=club.pk, season=season.pk, match=match.pk, illegal=illegal.pk)
    if body == "match":
        body = {"match": match.pk}
    elif body == "settle-up":
        a, b = club.players.get(handle="a"), club.players.get(handle="b")
        body = {"payer": b.pk, "payee": a.pk, "points": 3}
    user = cast[USER_OF[role]] if USER_OF[role] else None
    response = api_client(user).generic(
        method, url, None if body is None else json.dumps(body), "application/json"
    )
    assert response.status_code == expected[ROLES.index(role)], response.content


def test_an_uploaded_score_sheet_is_stored_verbatim_settled_and_counted(
    club: Any, cast: Any, api_client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    sheet = {
        "format": "xuezhan-sheet", "version": 1, "ruleset": "chengdu",
        "players": ["a", "b", "c", "d"], "played_at": "2026-11-05T20:00:00+08:00",
        "rounds": [
            {"dealer": 0, "events": [
                {"type": "win", "seat": 1, "from": 3, "tile": "9m", "pattern": "qing_yi_se"}]},
            {"dealer": 1, "events": [
                {"type": "kong", "seat": 2, "kind": "concealed", "tile": "5p"}],
             "drawn": True, "ready": [{"seat": 0, "fan": 0}]},
        ],
    }  # fmt: skip
    raw = dumps(sheet)
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client(cast["mia"]).generic(
            "POST", f"/api/v1/clubs/{club.pk}/matches/", raw, "application/json"
        )
    assert response.status_code == 201, response.content
    match = Match.objects.get(pk=response.json()["id"])
    assert bytes(match.raw) == raw and match.status == Match.Status.VERIFIED
    # round 2: cai's kong (2 from each) is refunded at the draw (退税), and the unready ben,
    # cai and dan pay ann, ready for 0 fan, 1 each: ann +3, the others -1
    assert match.verification.totals == [3, 3, -1, -5]
    season = Season.objects.create(
        club=club, name="S", starts_on="2026-11-01", ends_on="2026-11-30",
        ruleset=match.ruleset, ruleset_name="chengdu",
    )  # fmt: skip
    body = api_client(cast["mia"]).get(f"/api/v1/clubs/{club.pk}/seasons/{season.pk}/standings/")
    assert {r["handle"]: r["net"] for r in body.json()["rows"]} == {
        "a": 3,
        "b": 3,
        "c": -1,
        "d": -5,
    }
    bad = {**sheet, "rounds": [{"dealer": 9, "events": []}]}
    refused = api_client(cast["mia"]).generic(
        "POST", f"/api/v1/clubs/{club.pk}/matches/", dumps(bad), "application/json"
    )
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["path"] == "$.rounds[0].dealer"


def test_what_if_settles_the_season_again_under_another_ruleset(
    club: Any, cast: Any, api_client: Any, upload: Any
) -> None:
    from tests.records.documents import DATA

    doc = json.loads((DATA / "kong_discard_won_keep_chengdu.json").read_text(encoding="utf-8"))
    doc["played_at"] = "2026-11-05T20:00:00+08:00"
    from analysis.services import verify_match

    match = verify_match(match_id=upload(doc).pk)
    assert match.status == Match.Status.VERIFIED
    season = Season.objects.create(
        club=club, name="S", starts_on="2026-11-01", ends_on="2026-11-30",
        ruleset=match.ruleset, ruleset_name="chengdu",
    )  # fmt: skip
    url = f"/api/v1/clubs/{club.pk}/seasons/{season.pk}/what-if/"
    member = api_client(cast["mia"])
    body = member.get(url + "?ruleset=online").json()
    # the same events are logged with their hand-worked result under online too
    online = json.loads(
        (DATA / "kong_discard_won_call_transfer_online.json").read_text(encoding="utf-8")
    )
    assert online["rounds"][0]["events"] == doc["rounds"][0]["events"]
    a_totals = dict(zip(doc["players"], doc["rounds"][0]["result"]["deltas"], strict=True))
    b_totals = dict(zip(doc["players"], online["rounds"][0]["result"]["deltas"], strict=True))
    rows = {r["handle"]: (r["net_a"], r["net_b"], r["difference"]) for r in body["rows"]}
    assert rows == {h: (a_totals[h], b_totals[h], b_totals[h] - a_totals[h]) for h in a_totals}
    assert body["ruleset"]["preset"] == "online" and body["illegal_rounds"] == []
    strict = member.get(url, {"ruleset": '{"preset": "chengdu", "min_fan": 6}'}).json()
    assert strict["illegal_rounds"][0]["match"] == match.pk
    assert {v["code"] for v in strict["illegal_rounds"][0]["violations"]} == {"win_below_min_fan"}
    for bad in ("?ruleset=nowhere", "", "?ruleset={oops"):
        response = member.get(url + bad)
        assert response.status_code == 400 and names_field(response, "ruleset")


@pytest.mark.parametrize("value", ["6.745730020396489e+16", "0.00001", "1e8"])
def test_a_point_value_a_season_could_not_store_is_a_400(
    club: Any, cast: Any, api_client: Any, value: str
) -> None:
    response = api_client(cast["mia"]).get(
        f"/api/v1/clubs/{club.pk}/ledger/", {"point_value": value}
    )
    assert response.status_code == 400 and names_field(response, "point_value")
