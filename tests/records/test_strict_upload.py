"""An upload the strict reader or the format's limits refuse is a 400 that names the field in
plain words: never a 500, never the interpreter's advice, never a Python repr."""

from __future__ import annotations

from typing import Any

import pytest

from records.models import Match
from tests.records.documents import dumps, make_document

pytestmark = pytest.mark.django_db


def post(client: Any, club: Any, body: bytes) -> Any:
    return client.generic(
        "POST", f"/api/v1/clubs/{club.pk}/matches/", body, content_type="application/json"
    )


def refusal(response: Any) -> dict[str, Any]:
    assert response.status_code == 400, response.content
    assert response["Content-Type"] == "application/json"
    assert Match.objects.count() == 0
    body: dict[str, Any] = response.json()
    for error in body["errors"]:
        # plain: no interpreter internals, no repr of a large value
        assert "sys." not in error["message"] and len(error["message"]) < 200, error
    return body


def test_an_integral_float_actor_is_a_400_naming_the_field(
    club: Any, cast: Any, api_client: Any
) -> None:
    raw = dumps(make_document(21)).replace(b'"actor": 1,', b'"actor": 1.0,', 1)
    body = refusal(post(api_client(cast["mia"]), club, raw))
    assert body["type"] == "invalid_document"
    [error] = body["errors"]
    assert error["code"] == "integral_float"
    assert error["path"].startswith("$.rounds[0].events[") and error["path"].endswith(".actor")
    assert error["message"] == "1.0 is written as a float; this field takes an integer (1)"


def test_a_duplicate_key_is_a_400_naming_the_key(club: Any, cast: Any, api_client: Any) -> None:
    raw = dumps(make_document(22)).replace(b'"dealer": 0,', b'"dealer": 0, "dealer": 1,', 1)
    body = refusal(post(api_client(cast["mia"]), club, raw))
    assert body["type"] == "invalid_json"
    assert body["errors"] == [
        {
            "path": "$.rounds[0].dealer",
            "message": 'the key "dealer" appears twice in one object',
            "code": "duplicate_key",
        }
    ]


def test_deep_nesting_is_a_400_saying_how_deep_is_allowed(
    club: Any, cast: Any, api_client: Any, settings: Any
) -> None:
    raw = dumps({**make_document(23), "note": 0}).replace(
        b'"note": 0', b'"note": ' + b"[" * 40 + b"]" * 40
    )
    body = refusal(post(api_client(cast["mia"]), club, raw))
    [error] = body["errors"]
    assert error["code"] == "too_deep"
    limit = settings.UPLOAD_MAX_DEPTH
    assert error["message"] == f"arrays and objects are nested more than {limit} levels deep"


def test_a_5000_digit_integer_is_a_400_in_plain_words(
    club: Any, cast: Any, api_client: Any
) -> None:
    raw = dumps(make_document(24)).replace(b'"version": 1', b'"version": ' + b"9" * 5000)
    body = refusal(post(api_client(cast["mia"]), club, raw))
    assert body["errors"] == [
        {
            "path": "$.version",
            "message": "an integer of 5000 digits; integers of more than 100 are not read",
            "code": "integer_too_long",
        }
    ]


def test_too_many_rounds_is_a_400_before_any_round_is_validated(
    club: Any, cast: Any, api_client: Any
) -> None:
    doc = make_document(25, turns=2)
    doc["rounds"] = doc["rounds"] * 300
    doc["rounds"][299]["dealer"] = "not even checked"
    body = refusal(post(api_client(cast["mia"]), club, dumps(doc)))
    assert body["type"] == "invalid_document"
    assert body["detail"] == "The document does not follow the log format (1 problem)."
    assert body["errors"] == [
        {
            "path": "$.rounds",
            "message": "300 rounds; the format allows at most 64 in one document",
            "rule": "too_long",
            "code": "schema",
        }
    ]


def test_too_many_events_in_a_round_is_a_400_naming_the_round(
    club: Any, cast: Any, api_client: Any
) -> None:
    doc = make_document(26, rounds=2, turns=2)
    doc["rounds"][1]["events"] *= 100
    body = refusal(post(api_client(cast["mia"]), club, dumps(doc)))
    [error] = body["errors"]
    assert error["path"] == "$.rounds[1].events"
    assert error["message"].endswith("events; the format allows at most 400 in one round")


def test_many_schema_problems_are_cut_to_the_first_few_and_say_so(
    club: Any, cast: Any, api_client: Any
) -> None:
    doc = make_document(27, rounds=3)
    for round_doc in doc["rounds"]:
        for event in round_doc["events"][2:]:
            event["tile"] = "0z"
    body = refusal(post(api_client(cast["mia"]), club, dumps(doc)))
    assert body["detail"] == "The document does not follow the log format (the first 20 problems)."
    assert len(body["errors"]) == 20
    assert body["errors"][0]["path"] == "$.rounds[0].events[2].tile"


def test_one_problem_is_one_problem_not_1_errors(club: Any, cast: Any, api_client: Any) -> None:
    doc = {**make_document(28), "ruleset": "vegas"}
    body = refusal(post(api_client(cast["mia"]), club, dumps(doc)))
    assert body["detail"] == "The document cannot be accepted (1 problem)."


def test_in_chinese_a_schema_problem_is_worded_from_its_rule_with_the_path_kept(
    club: Any, cast: Any, api_client: Any
) -> None:
    doc = make_document(27, turns=2)
    doc["players"] = doc["players"][:3]
    del doc["rounds"][0]["dealer"]
    response = api_client(cast["mia"]).generic(
        "POST", f"/api/v1/clubs/{club.pk}/matches/", dumps(doc),
        content_type="application/json", HTTP_ACCEPT_LANGUAGE="zh-Hans")
    body = refusal(response)
    found = {e["path"]: e for e in body["errors"]}
    assert found["$.players"]["message"] == "3 项；至少需要 4 项。"
    assert found["$.players"]["rule"] == "minItems"
    assert found["$.rounds[0]"]["message"] == "缺少字段 dealer。"
    assert not [e for e in body["errors"] if "expected" in e["message"]
                or "required" in e["message"]]


def test_in_chinese_a_reader_refusal_is_worded_from_its_code() -> None:
    from django.utils import translation

    from records.wording import reader_text

    english = "not valid JSON: expecting value at line 3, column 7"
    with translation.override("zh-hans"):
        assert reader_text("not_json", english) == "文本不是 JSON：第 3 行第 7 列。"
        assert reader_text("duplicate_key", "duplicate key 'a'") == "同一个对象里有重复的键。"
    with translation.override("en"):  # English: the engine's sentence, which names more
        assert reader_text("not_json", english) == english


def test_a_json_path_reads_as_a_place_counted_from_1() -> None:
    from django.utils import translation

    from records.wording import where

    with translation.override("zh-hans"):
        assert where("$.rounds[1].events[0].tile") == "第 2 局 · 第 1 步 · tile"
        assert where("$") == "整个文档"
