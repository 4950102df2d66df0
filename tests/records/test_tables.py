"""The one export convention (records.tables): ?format=json|csv|ndjson on every table, file
names, 406 naming the formats, the deprecated ?export=csv, and no formula in any CSV cell."""

from __future__ import annotations

import csv
import io
from datetime import date
from typing import Any

import pytest

from records.tables import FORMULA_STARTS, Table, cell, csv_chunks
from tests.analysis.league.data import settled_match, win
from tests.exports import body, csv_rows, ndjson_rows
from tests.records.documents import data_documents, make_document

#: handles a spreadsheet would run as formulas (OWASP's examples), one per seat
HOSTILE = ['=HYPERLINK("http://evil.example","c")', "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)"]


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("=1+1", "'=1+1"),
        ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("alice", "alice"),
        ("张三", "张三"),
        ("-12", "-12"),  # a number is no formula
        ("-3.50", "-3.50"),
        (-12, -12),
        (None, ""),
        (True, "true"),
        (date(2026, 11, 3), "2026-11-03"),
        (["=x"], "'[\"=x\"]"[1:]),  # JSON text starts with [, not a formula
    ],
)
def test_a_cell_that_starts_a_formula_is_neutralised_and_numbers_stay(
    value: Any, written: Any
) -> None:
    assert cell(value) == written


def test_the_csv_writer_quotes_text_and_leaves_no_cell_a_formula() -> None:
    table = Table("t", ["name", "net"], [{"name": h, "net": -8} for h in HOSTILE])
    text = b"".join(csv_chunks(table)).decode()
    assert text.splitlines()[0] == '"name","net"' and text.endswith("\r\n")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["name"] for r in rows] == ["'" + h for h in HOSTILE]
    assert {r["net"] for r in rows} == {"-8"}


# -- every table of the site -------------------------------------------------------------


@pytest.fixture
def hostile_club(club: Any, cast: Any, upload: Any, api_client: Any) -> dict[str, Any]:
    """A club whose four players have hostile handles, with a verified match, a season, a
    settle-up and ratings: every table has a row to show."""
    from analysis import services as verification
    from analysis.league import services as league
    from records.models import Player

    doc = {**data_documents()["rob_kong_chengdu"], "players": HOSTILE}
    match = upload(doc)
    verification.verify_match(match_id=match.pk)
    settled_match(club, tuple(HOSTILE), [win(0, 1, 8)])  # type: ignore[arg-type]
    season = league.save_season(
        club=club, by=cast["adam"], name="=Autumn", starts_on=date(2000, 1, 1),
        ends_on=date(2100, 1, 1), ruleset="chengdu",
    )  # fmt: skip
    players = list(Player.objects.filter(club=club).order_by("pk"))
    league.record_settle_up(
        club=club, payer=players[0], payee=players[1], points=1, paid_at=None, season=None,
        note="=cmd", by=cast["adam"],
    )  # fmt: skip
    league.recompute_ratings(club_id=club.pk)
    return {"club": club, "season": season, "player": players[0], "match": match}


def tables(h: dict[str, Any]) -> dict[str, str]:
    c = f"/api/v1/clubs/{h['club'].pk}/"
    return {
        "matches": c + "matches/",
        "stats": c + f"players/{h['player'].pk}/stats/",
        "leaderboard": c + "leaderboard/?stat=net&min_rounds=0",
        "standings": c + f"seasons/{h['season'].pk}/standings/",
        "ledger": c + "ledger/",
        "settle-ups": c + "settle-ups/",
        "ratings": c + "ratings/",
    }


def _with(url: str, query: str) -> str:
    return url + ("&" if "?" in url else "?") + query


NAMES = ["matches", "stats", "leaderboard", "standings", "ledger", "settle-ups", "ratings"]


@pytest.mark.parametrize("name", NAMES)
def test_every_csv_of_the_site_neutralises_formulas(
    name: str, hostile_club: dict[str, Any], cast: Any, api_client: Any
) -> None:
    response = api_client(cast["mia"]).get(_with(tables(hostile_club)[name], "format=csv"))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    text = body(response)
    cells = [c for row in csv.reader(io.StringIO(text)) for c in row]
    dangerous = [c for c in cells if c.startswith(FORMULA_STARTS) and not _number(c)]
    assert dangerous == []
    if name not in ("stats",):  # the stats table has keys and numbers, no handle
        assert any(c.startswith("'") and c[1:] in HOSTILE for c in cells), text


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("name", NAMES)
def test_every_table_comes_as_csv_ndjson_and_json_with_a_file_name(
    name: str, hostile_club: dict[str, Any], cast: Any, api_client: Any
) -> None:
    client, url = api_client(cast["mia"]), tables(hostile_club)[name]
    as_csv = client.get(_with(url, "format=csv"))
    as_ndjson = client.get(_with(url, "format=ndjson"))
    as_json = client.get(_with(url, "format=json"))
    rows, lines = csv_rows(as_csv), ndjson_rows(as_ndjson)
    assert len(rows) == len(lines) > 0
    assert list(rows[0]) == list(lines[0])  # the same columns, in the same order
    assert as_ndjson["Content-Type"] == "application/x-ndjson"
    assert as_json.status_code == 200 and as_json["Content-Type"] == "application/json"
    for response, ext in ((as_csv, "csv"), (as_ndjson, "ndjson"), (as_json, "json")):
        disposition = response["Content-Disposition"]
        assert disposition.startswith("attachment; filename=") and disposition.endswith(
            f'.{ext}"'
        )
    assert "Content-Disposition" not in client.get(url)  # the usual JSON, as before


@pytest.mark.parametrize("name", NAMES)
def test_an_unknown_format_is_a_406_naming_the_formats(
    name: str, hostile_club: dict[str, Any], cast: Any, api_client: Any
) -> None:
    response = api_client(cast["mia"]).get(_with(tables(hostile_club)[name], "format=xlsx"))
    assert response.status_code == 406
    problem = response.json()
    assert problem["type"] == "not_acceptable" and problem["formats"] == ["json", "csv", "ndjson"]
    assert "xlsx" in problem["detail"] and problem["errors"][0]["path"] == "$.format"


@pytest.mark.parametrize("name", ["stats", "leaderboard", "standings", "ledger"])
def test_the_old_export_csv_still_works_and_says_it_is_deprecated(
    name: str, hostile_club: dict[str, Any], cast: Any, api_client: Any
) -> None:
    url = tables(hostile_club)[name]
    client = api_client(cast["mia"])
    old, new = client.get(_with(url, "export=csv")), client.get(_with(url, "format=csv"))
    assert old.status_code == 200 and body(old) == body(new)
    assert old["Deprecation"] == "true" and "format=csv" in old["Link"]
    assert "Deprecation" not in new


def test_the_match_table_follows_the_list_filters(
    hostile_club: dict[str, Any], cast: Any, api_client: Any, upload: Any
) -> None:

    upload(make_document(3))
    url = tables(hostile_club)["matches"]
    client = api_client(cast["mia"])
    assert len(csv_rows(client.get(_with(url, "format=csv")))) == 3
    only = ndjson_rows(client.get(_with(url, "format=ndjson&status=queued")))
    assert len(only) == 1 and only[0]["player_0"] == "alice"
    verified = ndjson_rows(client.get(_with(url, "format=ndjson&status=verified")))
    assert len(verified) == 2 and verified[-1]["id"] == hostile_club["match"].pk
    assert verified[-1]["player_0"] == HOSTILE[0]  # ndjson keeps the text as it is
    bad = client.get(_with(url, "format=csv&status=nonsense"))
    assert bad.status_code == 400 and bad.json()["errors"][0]["path"] == "$.status"


def test_a_non_member_gets_404_for_any_format(
    hostile_club: dict[str, Any], cast: Any, api_client: Any
) -> None:
    response = api_client(cast["nora"]).get(_with(tables(hostile_club)["ledger"], "format=csv"))
    assert response.status_code == 404 and response.json()["type"] == "not_found"
