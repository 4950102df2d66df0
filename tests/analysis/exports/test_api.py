"""Export: the club's matches as ndjson (the documents verbatim, with verdicts), a match's
document byte for byte, and an export re-imported elsewhere giving the same numbers."""

from __future__ import annotations

import hashlib
import json
from datetime import date
from typing import Any

from analysis import services as verification
from analysis.league import selectors as league_selectors
from analysis.league import services as league
from analysis.stats import figures
from records import services as records_services
from records.errors import DocumentError
from records.models import Match, Player
from tests.exports import body, ndjson_rows
from tests.records.documents import data_documents

PRETTY = {"indent": 2, "ensure_ascii": False}


def load(club: Any, cast: Any, capture: Any = None) -> list[Match]:
    """The hand-checked logs, some pretty-printed, verified."""
    matches = []
    for i, doc in enumerate(data_documents().values()):
        doc = {"played_at": f"2026-11-{1 + i % 28:02d}T19:30:00+08:00", **doc}  # for seasons
        raw = json.dumps(doc, **PRETTY).encode() if i % 2 else json.dumps(doc).encode()
        try:
            upload = records_services.upload_match(club=club, raw=raw, uploaded_by=cast["mia"])
        except DocumentError:  # the corpus keeps a few refused documents too
            continue
        if capture is None:
            verification.verify_match(match_id=upload.match.pk)
        else:  # as the pipeline does: the review after the verdict
            with capture(execute=True):
                verification.verify_match(match_id=upload.match.pk)
        matches.append(upload.match)
    return matches


def test_a_document_comes_back_byte_for_byte(club: Any, cast: Any, api_client: Any) -> None:
    raw = b'{ "format":"xuezhan-log",\n  "version":1,' + json.dumps(
        data_documents()["rob_kong_chengdu"])[1:].replace('"format": "xuezhan-log", ', "", 1)\
        .replace('"version": 1, ', "", 1).encode()
    match = records_services.upload_match(club=club, raw=raw, uploaded_by=cast["mia"]).match
    response = api_client(cast["mia"]).get(
        f"/api/v1/clubs/{club.pk}/matches/{match.pk}/document/"
    )
    assert response.status_code == 200 and response.content == raw
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == f'attachment; filename="match-{match.pk}.json"'
    assert hashlib.sha256(response.content).hexdigest() == match.raw_sha256
    assert api_client(cast["nora"]).get(
        f"/api/v1/clubs/{club.pk}/matches/{match.pk}/document/").status_code == 404


def test_the_export_streams_one_line_per_match_with_verdict_and_filters(
    club: Any, cast: Any, api_client: Any
) -> None:
    matches = load(club, cast)
    client = api_client(cast["mia"])
    url = f"/api/v1/clubs/{club.pk}/matches/export/"
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/x-ndjson"
    assert response["Content-Disposition"].endswith('-matches.ndjson"')
    lines = ndjson_rows(response)
    assert len(lines) == len(matches)
    by_id = {line["id"]: line for line in lines}
    for match in matches:
        match.refresh_from_db()
        line = by_id[match.pk]
        assert line["document"] == json.loads(bytes(match.raw))  # the same document
        assert line["raw_sha256"] == match.raw_sha256 and line["status"] == match.status
        if line["verdict"] is not None:
            assert sum(line["totals"]) == 0 and line["settlement"]
    text = body(client.get(url))
    assert "\n  " not in text  # each document on its line
    verified = ndjson_rows(client.get(url + "?status=verified"))
    assert {line["status"] for line in verified} == {"verified"}
    assert client.get(url + "?format=csv").status_code == 406
    assert client.get(url + "?season=999").status_code == 400


def test_an_export_re_imported_in_a_new_club_gives_the_same_statistics_and_standings(
    club: Any, cast: Any, api_client: Any, eager_tasks: None,
    django_capture_on_commit_callbacks: Any,
) -> None:
    load(club, cast, django_capture_on_commit_callbacks)
    season_args = {"name": "All", "starts_on": date(2000, 1, 1), "ends_on": date(2100, 1, 1),
                   "ruleset": "chengdu"}
    season = league.save_season(club=club, by=cast["olga"], **season_args)
    export = ndjson_rows(api_client(cast["mia"]).get(f"/api/v1/clubs/{club.pk}/matches/export/"))
    documents = b"".join(
        json.dumps(line["document"], ensure_ascii=False).encode() + b"\n" for line in export
    )
    other = records_services.create_club(name="Elsewhere", owner=cast["adam"])
    with django_capture_on_commit_callbacks(execute=True):
        answer = api_client(cast["adam"]).post(
            f"/api/v1/clubs/{other.pk}/matches/bulk/", documents,
            content_type="application/x-ndjson",
        ).json()
    assert answer["counts"]["stored"] == len(export) > 10
    copy = league.save_season(club=other, by=cast["adam"], **season_args)

    def standings(s: Any) -> list[tuple[Any, ...]]:
        return [(r.rank, r.handle, r.matches, r.rounds, r.net, r.deal_ins)
                for r in league_selectors.standings(s).rows]

    def stats(c: Any) -> dict[str, Any]:
        return {p.handle: figures.player_stats(c, p, figures.Filters(), "week")["stats"]
                for p in Player.objects.filter(club=c)}

    assert standings(copy) == standings(season) and standings(season)
    assert stats(other) == stats(club)
    assert set(Match.objects.filter(club=other).values_list("content_sha256", flat=True)) == \
        set(Match.objects.filter(club=club).values_list("content_sha256", flat=True))
