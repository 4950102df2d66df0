"""Fifty clients upload the same document at once: exactly one match exists afterwards."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from tests.conftest import needs_postgres
from tests.records.documents import dumps, make_document

pytestmark = [needs_postgres, pytest.mark.postgres]

CLIENTS = 50


def post(url: str, token: str, body: bytes) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(
        url,
        data=body,
        method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Token {token}"},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, {"body": error.read().decode(errors="replace")[:500]}


def test_fifty_concurrent_uploads_of_one_document_make_one_match(
    live_server: Any, club: Any, cast: Any
) -> None:
    from records import services
    from records.models import Match, Player, Seat

    token = services.issue_token(user=cast["mia"]).key
    url = f"{live_server.url}/api/v1/clubs/{club.pk}/matches/"
    body = dumps(make_document(77, match_id="same-match"))
    with ThreadPoolExecutor(max_workers=CLIENTS) as pool:
        results = list(pool.map(lambda _: post(url, token, body), range(CLIENTS)))

    codes = sorted(code for code, _ in results)
    assert codes == [200] * (CLIENTS - 1) + [201], results[:3]
    assert len({payload["id"] for _, payload in results}) == 1
    assert Match.objects.count() == 1
    assert Seat.objects.count() == 4 and Player.objects.count() == 4


def test_concurrent_uploads_under_a_new_ruleset_store_it_once(
    live_server: Any, club: Any, cast: Any
) -> None:
    from records import services
    from records.models import Match, Ruleset

    token = services.issue_token(user=cast["mia"]).key
    url = f"{live_server.url}/api/v1/clubs/{club.pk}/matches/"
    bodies = [dumps(make_document(k, match_id=f"m-{k}")) for k in range(20)]
    with ThreadPoolExecutor(max_workers=len(bodies)) as pool:
        results = list(pool.map(lambda body: post(url, token, body), bodies))

    assert [code for code, _ in results] == [201] * len(bodies), results[:3]
    assert Ruleset.objects.count() == 1
    assert set(Match.objects.values_list("stored_ruleset_id", flat=True)) == {
        Ruleset.objects.get().key
    }
