from __future__ import annotations

from typing import Any

import pytest


@pytest.mark.django_db
def test_the_schema_and_docs_are_served(client: Any) -> None:
    schema = client.get("/api/v1/schema/")
    assert schema.status_code == 200 and b"openapi: 3" in schema.content
    docs = client.get("/api/v1/docs/")
    assert docs.status_code == 200 and b"swagger-ui" in docs.content
