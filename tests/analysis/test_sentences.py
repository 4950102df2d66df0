"""Settlement sentences in the page language: English word for word as the engine's."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import translation

from analysis.sentences import sentence
from tests.records.documents import data_documents
from xuezhan.replay import verify_document
from xuezhan.sim.simulate import simulate_match


def _payments() -> list[Any]:
    documents = list(data_documents().values())
    documents += [simulate_match(seed, 4, preset) for seed in range(6)
                  for preset in ("chengdu", "online")]
    found = []
    for doc in documents:
        report = verify_document(doc)
        found += [p for r in report.rounds for p in r.settlement.payments]
    return found


PAYMENTS = _payments()


def test_the_corpus_has_every_kind_of_payment() -> None:
    reasons = {p.reason for p in PAYMENTS}
    assert {"win_self_drawn", "win_discard", "win_rob_kong", "kong_direct", "kong_added",
            "kong_concealed", "call_transfer", "flower_pig", "ting_check", "tax_refund"} <= reasons


def test_in_english_every_sentence_is_the_engine_s_own() -> None:
    with translation.override("en"):
        for p in PAYMENTS:
            assert sentence(p.reason, p.params, lambda n: f"seat {n}") == p.detail


@pytest.mark.django_db
def test_in_chinese_every_sentence_is_chinese_with_the_players_names() -> None:
    names = ["alice", "bob", "carol", "dave"]
    with translation.override("zh-hans"):
        for p in PAYMENTS:
            text = sentence(p.reason, p.params, lambda n: names[n])
            assert text.endswith("。") and " pays " not in text and "seat" not in text, text


@pytest.mark.django_db
def test_in_chinese_tiles_are_named_as_players_read_them_never_coded() -> None:
    with translation.override("zh-hans"):
        texts = [sentence(p.reason, p.params, lambda n: f"P{n}") for p in PAYMENTS]
    assert not [t for t in texts if re.search(r"[1-9][mps]", t)]
    assert any(re.search(r"[1-9][万筒条]", t) for t in texts)
