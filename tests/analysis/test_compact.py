"""The compact stored forms (docs/scaling.md, "Storage"): a payment line's params packed
without their keys, an upload's bytes compressed. Each reads back as what was stored."""

from __future__ import annotations

import importlib
import json
from types import SimpleNamespace
from typing import Any

import pytest
from django.db import connection

from analysis import compact, services
from analysis.models import Payment, Verification
from records import fields
from records.models import Match
from tests.records.documents import make_document
from xuezhan.replay import verify_document
from xuezhan.sim.simulate import simulate_match

pytestmark = pytest.mark.django_db


def _params_of(seed: int) -> list[dict[str, Any]]:
    report = verify_document(simulate_match(seed, 8)).to_dict()
    return [p["params"] for r in report["rounds"] for p in r["payments"]]


def _jsonb_ordered(value: Any) -> Any:
    """``value`` with its objects' keys as ``jsonb`` orders them (shorter first, then bytes)."""
    if isinstance(value, dict):
        keys = sorted(value, key=lambda k: (len(k.encode()), k.encode()))
        return {k: _jsonb_ordered(value[k]) for k in keys}
    if isinstance(value, list):
        return [_jsonb_ordered(v) for v in value]
    return value


def test_packed_params_read_back_as_the_engine_gave_them_keys_in_jsonb_order() -> None:
    seen = [p for seed in range(6) for p in _params_of(seed)]
    assert seen
    for params in seen:
        text = compact.dumps(params)
        back = compact.loads(text)
        assert back == params
        # the API's bytes as the jsonb column gave them: keys in jsonb's order
        assert json.dumps(back) == json.dumps(_jsonb_ordered(params))
        assert '"amount"' not in text  # a known shape names no key


def test_params_of_an_unknown_shape_keep_their_keys_and_round_trip() -> None:
    params = {
        "zeta": [1, [], {"a": None}],
        "why": "x",
        "amount": 2,
        "nested": {"fan": 1, "name": "n"},
    }
    text = compact.dumps(params)
    assert compact.loads(text) == params and '"zeta"' in text
    assert compact.loads(compact.dumps({})) == {}


def test_a_packed_line_is_a_fraction_of_its_json() -> None:
    seen = _params_of(1)
    packed = sum(len(compact.dumps(p)) for p in seen)
    plain = sum(len(json.dumps(p, separators=(",", ":"))) for p in seen)
    assert packed < plain / 2


def test_the_verification_stores_packed_params_and_reads_them_back(upload: Any) -> None:
    doc = simulate_match(3, 3)
    match = upload(doc)
    services.verify_match(match_id=match.pk)
    report = verify_document(doc).to_dict()
    expected = [p["params"] for r in report["rounds"] for p in r["payments"]]
    stored = list(
        Payment.objects.filter(round__match=match)
        .order_by("round__index", "ordinal")
        .values_list("params", flat=True)
    )
    assert stored == expected
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT params FROM analysis_payment WHERE round_id IN "
            "(SELECT id FROM records_round WHERE match_id = %s)",
            [match.pk],
        )
        texts = [row[0] for row in cursor.fetchall()]
    assert texts and all(t.startswith("[") for t in texts)


def test_an_upload_s_bytes_are_stored_compressed_and_read_back_verbatim(upload: Any) -> None:
    doc = make_document(5)
    match = upload(doc)
    raw = bytes(Match.objects.get(pk=match.pk).raw)
    with connection.cursor() as cursor:
        cursor.execute("SELECT raw FROM records_match WHERE id = %s", [match.pk])
        stored = bytes(cursor.fetchone()[0])
    assert stored[:4] == fields.ZSTD_MAGIC and len(stored) < len(raw)
    assert fields.decompress(stored) == raw
    assert Match.objects.get(pk=match.pk).document == json.loads(raw)


def test_bytes_stored_before_compression_read_as_they_are() -> None:
    assert fields.decompress(b'{"a": 1}') == b'{"a": 1}'
    assert fields.decompress(fields.compress(b"")) == b""


def test_a_review_is_stored_compressed_and_read_back_as_jsonb_gave_it(uploaded: Any) -> None:
    doc = simulate_match(3, 2)
    match_id = uploaded(doc)
    review = Verification.objects.get(match_id=match_id).review
    # the API serves the stored summaries as they are: their keys in jsonb's order
    assert json.dumps(review) == json.dumps(_jsonb_ordered(services._review_summary(doc)))
    with connection.cursor() as cursor:
        cursor.execute("SELECT review FROM analysis_verification WHERE match_id = %s", [match_id])
        stored = bytes(cursor.fetchone()[0])
    assert stored[:4] == fields.ZSTD_MAGIC and len(stored) < len(json.dumps(review)) // 4


def test_a_verification_without_review_stores_null(upload: Any) -> None:
    reviewed = upload(make_document(5))
    services.verify_match(match_id=reviewed.pk)
    services.store_review(match_id=reviewed.pk)
    waiting = upload(make_document(6))
    services.verify_match(match_id=waiting.pk)
    assert list(Verification.objects.filter(review__isnull=True).values_list(
        "match_id", flat=True)) == [waiting.pk]  # fmt: skip
    assert Verification.objects.get(match_id=waiting.pk).review is None


def _migration(app: str, name: str) -> Any:
    return importlib.import_module(f"{app}.migrations.{name}")


def test_the_migrations_pack_and_compress_rows_stored_the_old_way(upload: Any) -> None:
    doc = simulate_match(4, 2)
    match = upload(doc)
    services.verify_match(match_id=match.pk)
    raw = bytes(Match.objects.get(pk=match.pk).raw)
    expected = list(
        Payment.objects.filter(round__match=match).order_by("pk").values_list("params", flat=True)
    )
    with connection.cursor() as cursor:  # as the rows were before the migrations
        cursor.execute("UPDATE records_match SET raw = %s WHERE id = %s", [raw, match.pk])
        for pk, params in zip(
            Payment.objects.filter(round__match=match).order_by("pk").values_list("pk", flat=True),
            expected,
            strict=True,
        ):
            cursor.execute(
                "UPDATE analysis_payment SET params = %s WHERE id = %s", [json.dumps(params), pk]
            )
    records_0008 = _migration("records", "0008_compressed_raw_no_document")
    analysis_0014 = _migration("analysis", "0014_compact_params_no_report")
    editor = SimpleNamespace(connection=connection)  # what the data steps use of it
    records_0008.compress(None, editor)
    analysis_0014.pack(None, editor)
    assert bytes(Match.objects.get(pk=match.pk).raw) == raw
    with connection.cursor() as cursor:
        cursor.execute("SELECT raw FROM records_match WHERE id = %s", [match.pk])
        assert bytes(cursor.fetchone()[0])[:4] == fields.ZSTD_MAGIC
    assert (
        list(
            Payment.objects.filter(round__match=match)
            .order_by("pk")
            .values_list("params", flat=True)
        )
        == expected
    )
    analysis_0014.unpack(None, editor)  # backward: the plain forms again
    records_0008.decompress(None, editor)
    with connection.cursor() as cursor:
        cursor.execute("SELECT raw FROM records_match WHERE id = %s", [match.pk])
        assert bytes(cursor.fetchone()[0]) == raw
        cursor.execute(
            "SELECT params FROM analysis_payment WHERE round_id IN "
            "(SELECT id FROM records_round WHERE match_id = %s) ORDER BY id",
            [match.pk],
        )
        assert [json.loads(r[0]) for r in cursor.fetchall()] == expected


def test_a_line_s_sentence_is_stored_only_where_its_params_do_not_give_it(upload: Any) -> None:
    doc = simulate_match(6, 2)
    match = upload(doc)
    services.verify_match(match_id=match.pk)
    report = verify_document(doc).to_dict()
    lines = list(Payment.objects.filter(round__match=match).order_by("round__index", "ordinal"))
    assert lines and {line.stored_detail for line in lines} == {""}
    assert [line.detail for line in lines] == [
        p["detail"] for r in report["rounds"] for p in r["payments"]
    ]
    old = Payment(reason="win_discard", params={}, detail="written before params")
    assert old.stored_detail == "written before params" == old.detail
