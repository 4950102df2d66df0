"""Settlement sentences in the page language: English word for word as the engine's."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from analysis.sentences import sentence
from tests.records.documents import data_documents
from xuezhan.replay import verify_document
from xuezhan.sentences import LEADS
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


def test_in_english_every_sentence_is_the_engine_s_own_after_its_lead() -> None:
    """One table (xuezhan/sentences.py) words both: the engine's line is the site's English
    with the reason's name before it where it has one (查花猪: …)."""
    with translation.override("en"):
        for p in PAYMENTS:
            text = sentence(p.reason, p.params, lambda n: f"seat {n}")
            lead = LEADS.get(p.reason)
            assert (f"{lead}: {text}" if lead else text) == p.detail


@pytest.mark.django_db
def test_no_chinese_sentence_repeats_the_reason_s_name_the_page_shows_before_it() -> None:
    from analysis.labels import label

    with translation.override("zh-hans"):
        for p in PAYMENTS:
            name = label("reason", p.reason)
            assert not sentence(p.reason, p.params, lambda n: f"P{n}").startswith(name)


def test_every_template_of_the_engine_s_table_is_translated() -> None:
    """The engine's templates are the catalogue's message ids: each has its Chinese."""
    import polib

    from tests.analysis.test_pages import CATALOGUE
    from xuezhan import sentences as engine

    source = Path(engine.__file__).read_text(encoding="utf-8")
    templates = re.findall(r'gettext_noop\(\s*((?:"(?:[^"\\]|\\.)*"\s*)+)\)', source)
    ids = {"".join(re.findall(r'"((?:[^"\\]|\\.)*)"', t)) for t in templates}
    translated = {e.msgid for e in polib.pofile(str(CATALOGUE)) if e.translated()}
    assert len(ids) > 30 and ids - translated == set()


@pytest.mark.django_db
def test_a_score_sheet_s_win_says_fan_and_base_in_chinese_as_a_logged_one_does() -> None:
    from xuezhan.sheet import settle_sheet

    doc = {"format": "xuezhan-sheet", "version": 1, "players": ["a", "b", "c", "d"],
           "rounds": [{"dealer": 0, "events": [
               {"type": "win", "seat": 1, "from": 3, "tile": "9m", "pattern": "ping_hu"},
               {"type": "win", "seat": 2, "tile": "5p", "fan": 2}]}]}
    payments = [p for r in settle_sheet(doc).rounds for p in r.settlement.payments]
    with translation.override("zh-hans"):
        texts = [sentence(p.reason, p.params, "abcd".__getitem__) for p in payments]
    assert "平胡 0 = 0 番 → 1 × 底分 1 = 1" in texts[0]
    assert "加番 2 = 2 番 → 4 × 底分 1 = 4" in texts[1]
    assert not [t for t in texts if re.search(r"\bfan\b|\bbase\b", t)]


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
