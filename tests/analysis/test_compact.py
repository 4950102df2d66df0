"""The compact stored forms (docs/scaling.md, "Storage"): a payment line's params packed
without their keys, a round's lines packed together on its settlement, an upload's bytes
compressed. Each reads back as what was stored."""

from __future__ import annotations

import importlib
import json
from types import SimpleNamespace
from typing import Any

import pytest
from django.db import connection
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis import compact, services
from analysis.models import (
    NET_FROM,
    Payment,
    RoundSettlement,
    SeatResult,
    Verification,
    stored_detail,
)
from records import fields
from records.models import Match, Seat
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


def _lines_of(match: Any) -> list[Payment]:
    return [p for s in RoundSettlement.objects.filter(round__match=match).order_by("round__index")
            for p in s.payments]  # fmt: skip


def test_the_verification_stores_packed_lines_and_reads_them_back(upload: Any) -> None:
    doc = simulate_match(3, 3)
    match = upload(doc)
    services.verify_match(match_id=match.pk)
    report = verify_document(doc).to_dict()
    expected = [(p["payer"], p["payee"], p["amount"], p["reason"], p["params"], p["detail"])
                for r in report["rounds"] for p in r["payments"]]  # fmt: skip
    stored = [(p.payer, p.payee, p.amount, p.reason, p.params, p.detail) for p in _lines_of(match)]
    assert stored == expected
    assert [p.ordinal for p in _lines_of(match)[:2]] == [0, 1]
    texts = RoundSettlement.objects.filter(round__match=match).values_list("lines", flat=True)
    assert texts and all(t.startswith("[[") and '"amount"' not in t for t in texts)


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


def test_the_migration_compresses_bytes_stored_the_old_way_and_back(upload: Any) -> None:
    match = upload(simulate_match(4, 2))
    raw = bytes(Match.objects.get(pk=match.pk).raw)
    with connection.cursor() as cursor:  # as the bytes were before the migration
        cursor.execute("UPDATE records_match SET raw = %s WHERE id = %s", [raw, match.pk])
    records_0008 = _migration("records", "0008_compressed_raw_no_document")
    editor = SimpleNamespace(connection=connection)  # what the data steps use of it
    records_0008.compress(None, editor)
    assert bytes(Match.objects.get(pk=match.pk).raw) == raw
    with connection.cursor() as cursor:
        cursor.execute("SELECT raw FROM records_match WHERE id = %s", [match.pk])
        assert bytes(cursor.fetchone()[0])[:4] == fields.ZSTD_MAGIC
    records_0008.decompress(None, editor)  # backward: the plain bytes again
    with connection.cursor() as cursor:
        cursor.execute("SELECT raw FROM records_match WHERE id = %s", [match.pk])
        assert bytes(cursor.fetchone()[0]) == raw


#: the payment lines' table as migration 0014 left it (0015 drops it)
_PAYMENT_TABLE = (
    "CREATE TABLE analysis_payment (id {id} PRIMARY KEY, round_id integer NOT NULL,"
    " ordinal integer NOT NULL, payer smallint NOT NULL, payee smallint NOT NULL,"
    " amount integer NOT NULL, reason varchar(32) NOT NULL, params text NOT NULL,"
    " detail text NOT NULL, payer_player_id integer NULL, payee_player_id integer NULL)"
)
_PAYMENT_COLUMNS = ("round_id, ordinal, payer, payee, amount, reason, params, detail,"
                    " payer_player_id, payee_player_id")


def _payment_rows() -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {_PAYMENT_COLUMNS} FROM analysis_payment"
                       " ORDER BY round_id, ordinal")  # fmt: skip
        return [(*row[:6], json.loads(row[6]), *row[7:]) for row in cursor.fetchall()]


def test_the_migrations_move_payment_rows_into_their_settlements_and_back(upload: Any) -> None:
    match = upload(simulate_match(4, 2))
    services.verify_match(match_id=match.pk)
    settlements = RoundSettlement.objects.filter(round__match=match).order_by("round_id")
    lines = {s.round_id: s.payments for s in settlements}
    seat_rows = SeatResult.objects.filter(round__match=match).order_by("round_id", "seat")
    nets = list(seat_rows.values_list(*NET_FROM))
    assert any(any(n) for n in nets)
    players = dict(Seat.objects.filter(match=match).values_list("seat", "player_id"))
    rows = [(round_id, p.ordinal, p.payer, p.payee, p.amount, p.reason, p.params, p.detail,
             players[p.payer], players[p.payee])
            for round_id, found in lines.items() for p in found]  # fmt: skip
    with connection.cursor() as cursor:  # as the rows were before migrations 0014 and 0015
        serial = "serial" if connection.vendor == "postgresql" else "integer"
        cursor.execute(_PAYMENT_TABLE.format(id=serial))
        cursor.executemany(
            f"INSERT INTO analysis_payment ({_PAYMENT_COLUMNS}) VALUES ({', '.join(['%s'] * 10)})",
            [(*row[:6], json.dumps(row[6]), *row[7:]) for row in rows],
        )
    settlements.update(lines=compact.NO_LINES)
    seat_rows.update(**dict.fromkeys(NET_FROM, 0))
    analysis_0014 = _migration("analysis", "0014_compact_params_no_report")
    analysis_0015 = _migration("analysis", "0015_payment_lines_per_round")
    editor = SimpleNamespace(connection=connection)  # what the data steps use of it
    analysis_0014.pack(None, editor)
    analysis_0014.drop_details(None, editor)
    analysis_0015.pack_lines(None, editor)
    analysis_0015.pack_lines(None, editor)  # run again (an interrupted run): the same
    assert {s.round_id: s.payments for s in settlements.all()} == lines
    assert list(seat_rows.values_list(*NET_FROM)) == nets
    # backward: the rows again, from the settlements' lines and the seats
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM analysis_payment")
    analysis_0015.unpack_lines(None, editor)
    analysis_0015.unpack_lines(None, editor)
    analysis_0014.restore_details(None, editor)
    analysis_0014.unpack(None, editor)
    assert _payment_rows() == rows


def test_a_line_s_sentence_is_stored_only_where_its_params_do_not_give_it(upload: Any) -> None:
    doc = simulate_match(6, 2)
    match = upload(doc)
    services.verify_match(match_id=match.pk)
    report = verify_document(doc).to_dict()
    lines = _lines_of(match)
    assert lines and {line.stored_detail for line in lines} == {""}
    assert [line.detail for line in lines] == [
        p["detail"] for r in report["rounds"] for p in r["payments"]
    ]
    kept = stored_detail("win_discard", {}, "written before params")
    old = Payment(payer=0, payee=1, amount=1, reason="win_discard", stored_detail=kept)
    assert kept == "written before params" == old.detail


# --- a round's lines, packed together (RoundSettlement.lines) ---


def _reported_lines(seed: int) -> list[list[dict[str, Any]]]:
    """Each round's lines of a simulated match, as the verification stores them."""
    report = verify_document(simulate_match(seed, 8)).to_dict()
    return [[{"payer": p["payer"], "payee": p["payee"], "amount": p["amount"],
              "reason": p["reason"], "params": p["params"], "stored_detail": ""}
             for p in r["payments"]] for r in report["rounds"]]  # fmt: skip


def _as_read(lines: list[dict[str, Any]]) -> str:
    """The lines as today's reads give them: params' keys in jsonb's order, as JSON text
    (which tells key order and ``1`` from ``true`` apart)."""
    return json.dumps([{**line, "params": _jsonb_ordered(line["params"])} for line in lines],
                      sort_keys=False)  # fmt: skip


def _normal(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    keys = ("payer", "payee", "amount", "reason", "params", "stored_detail")
    return [{key: line[key] for key in keys} for line in lines]


def test_a_round_s_lines_read_back_in_order_with_their_params_and_sentences() -> None:
    rounds = [r for seed in range(6) for r in _reported_lines(seed)]
    assert sum(len(r) for r in rounds) > 100
    for lines in rounds:
        back = compact.loads_lines(compact.dumps_lines(lines))
        assert _as_read(_normal(back)) == _as_read(lines)


def test_a_self_draw_s_other_payers_are_stored_as_their_seats_and_its_score_once() -> None:
    lines = next(r[i:i + 3] for seed in range(6) for r in _reported_lines(seed)
                 for i in range(len(r) - 2)
                 if [p["reason"] for p in r[i:i + 3]] == ["win_self_drawn"] * 3)  # fmt: skip
    text = compact.dumps_lines(lines)
    _shared, first, *others = json.loads(text)
    assert others == [lines[1]["payer"], lines[2]["payer"]]
    assert len(first) == 2  # the params name payer, payee and amount
    assert text.count(compact.dumps(lines[0]["params"]["score"])) == 1


def test_a_round_s_lines_take_a_fraction_of_their_rows() -> None:
    rounds = [r for seed in range(4) for r in _reported_lines(seed)]
    packed = sum(len(compact.dumps_lines(r).encode()) for r in rounds)
    params = sum(len(compact.dumps(p["params"]).encode()) for r in rounds for p in r)
    assert packed < 0.7 * params  # the rows' packed params alone, without the rows


def test_lines_of_an_unknown_reason_or_with_a_stored_sentence_keep_what_they_say() -> None:
    lines = [
        {"payer": 0, "payee": 1, "amount": 3, "reason": "win", "params": {},
         "stored_detail": "seat 1 wins"},
        {"payer": 2, "payee": 1, "amount": 1, "reason": "win_discard",
         "params": {"payer": 2, "winner": 1, "amount": True}, "stored_detail": ""},
        {"payer": 3, "payee": 1, "amount": 1, "reason": "win_discard",
         "params": {"payer": 3, "winner": 1, "amount": True}, "stored_detail": ""},
    ]  # fmt: skip
    back = compact.loads_lines(compact.dumps_lines(lines))
    assert _as_read(_normal(back)) == _as_read(lines)
    assert compact.loads_lines(compact.NO_LINES) == []


def test_a_line_is_stored_as_the_one_before_paid_by_another_seat_only_if_identical() -> None:
    def line(payer: int, flag: Any) -> dict[str, Any]:
        return {"payer": payer, "payee": 1, "amount": 2, "reason": "win_self_drawn",
                "params": {"payer": payer, "winner": 1, "amount": 2, "x": [flag]},
                "stored_detail": ""}  # fmt: skip

    same = [line(0, 1), line(2, 1)]
    assert json.loads(compact.dumps_lines(same))[2] == 2
    for lines in (same, [line(0, 1), line(2, True)], [line(0, 1), line(2, 1.0)]):
        back = compact.loads_lines(compact.dumps_lines(lines))
        assert _as_read(_normal(back)) == _as_read(lines)


_scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 40), st.sampled_from(
    ["5p", "9m", "ping_hu", "direct", "天胡", "", 1.0, 0.5]))  # 1.0 is not 1 nor true
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(["fan", "name", "kind", "zeta", "x"]), inner,
                        max_size=3),
        st.builds(lambda v: dict(zip(compact.SHAPES[1], v, strict=True)),
                  st.tuples(inner, inner)),  # a pattern: a known shape
    ),
    max_leaves=6,
)


@st.composite
def _line(draw: Any) -> dict[str, Any]:
    payer, payee = draw(st.sampled_from([(a, b) for a in range(4) for b in range(4) if a != b]))
    amount = draw(st.integers(1, 64))
    reason = draw(st.sampled_from([*compact.LINE_REASONS, "win", "another_reason"]))
    params = draw(st.one_of(
        st.dictionaries(st.sampled_from(["base", "tile", "fan", "score", "kong"]), _values,
                        max_size=4),
        st.just({}), _values,
    ))  # fmt: skip
    roles = compact.ROLES.get(reason)
    if roles and isinstance(params, dict) and draw(st.booleans()):  # as the engine names them
        params = {**params, roles[0]: payer, roles[1]: payee, "amount": amount}
    detail = draw(st.sampled_from(["", "", "seat 1 pays", "座位"]))
    return {"payer": payer, "payee": payee, "amount": amount, "reason": reason,
            "params": params, "stored_detail": detail}


@st.composite
def _round(draw: Any) -> list[dict[str, Any]]:
    lines = draw(st.lists(_line(), max_size=6))
    for i in range(1, len(lines)):  # a line paid again by another seat, as a self-draw's
        before = lines[i - 1]
        roles = compact.ROLES.get(before["reason"])
        if roles and isinstance(before["params"], dict) and draw(st.booleans()):
            payer = draw(st.sampled_from([s for s in range(4) if s != before["payee"]]))
            lines[i] = {**before, "payer": payer, "stored_detail": "",
                        "params": {**before["params"], roles[0]: payer}}
    return lines


@settings(max_examples=300, deadline=None)
@given(_round())
def test_any_round_s_lines_packed_then_unpacked_are_given_back(lines: list[Any]) -> None:
    back = compact.loads_lines(compact.dumps_lines(lines))
    assert _as_read(_normal(back)) == _as_read(lines)
