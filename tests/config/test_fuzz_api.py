"""The API fuzzer: schemathesis generates requests from the OpenAPI schema and sends them to
the application in-process (WSGI, no network). No answer may be a server error, and every
status and body must be the ones the schema documents.

Bounded (FUZZ_EXAMPLES per operation, 10 by default; derandomized, so each run sends the
same requests) so that it runs in well under two minutes.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.records.documents import dumps, make_document

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "10"))


def _load_schema() -> Any:
    from config.wsgi import application

    # the schema comes from the application itself (no database needed), as clients get it
    return schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", application)


# the bulk upload's body, one document per line: the generated text as it comes
schemathesis.serializer.alias("application/x-ndjson", "text/plain")
schema = _load_schema()


@pytest.fixture
def one_connection() -> Iterator[None]:
    """Requests go through the WSGI handler, whose request signals close a connection that
    is inside a transaction — the test's own on PostgreSQL. Django's test client unhooks
    them for the same reason; so does this."""
    signals = (request_started, request_finished)
    for signal in signals:
        signal.disconnect(close_old_connections)
    try:
        yield
    finally:
        for signal in signals:
            signal.connect(close_old_connections)


@pytest.fixture
def world(club: Any, cast: Any, upload: Any) -> dict[str, Any]:
    """A club with a match, and the owner's token: requests reach the code, not just 404s."""
    from records import services

    match = upload(make_document(1))
    return {
        "club_id": club.pk,
        "match_id": match.pk,
        "token": services.issue_token(user=cast["olga"]).key,
    }


@pytest.mark.filterwarnings("ignore")
@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],  # a failure is reported as found: no shrinking
)
def test_the_api_answers_every_generated_request_as_documented(
    case: Any, world: dict[str, Any], eager_tasks: None, settings: Any, one_connection: None
) -> None:
    settings.ALLOWED_HOSTS = ["localhost", "testserver", "127.0.0.1"]
    # Deleting the club or the match would turn the rest of the run into 404s
    if case.method != "DELETE" and case.path_parameters:
        for name in ("club_id", "match_id"):
            if name in case.path_parameters:
                case.path_parameters[name] = world[name]
    uploading = case.path == "/api/v1/clubs/{club_id}/matches/" and case.method == "POST"
    if uploading and case.media_type == "application/json" and case.body == {}:
        case.body = _document()  # a valid document now and then: the upload's own path
    case.call_and_validate(
        headers={"Authorization": f"Token {world['token']}"}, checks=CHECKS
    )


def _document() -> Any:
    import json

    return json.loads(dumps(make_document(2)))
