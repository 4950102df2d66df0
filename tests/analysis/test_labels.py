"""Rulesets, options and fields named in the page language, never by their identifiers."""

from __future__ import annotations

from django.utils import translation

from analysis import labels
from xuezhan.rules import Rules


def custom() -> dict[str, object]:
    return Rules.from_json({"preset": "chengdu", "max_fan": 4, "passed_win": "strict",
                            "tax_refund": False, "min_fan": 1}).to_json()


def test_a_preset_reads_as_its_name() -> None:
    with translation.override("zh-hans"):
        assert labels.ruleset_text(Rules.preset("online").to_json()) == "线上规则"
        assert labels.ruleset_text("chengdu", "chengdu") == "成都规则"
    with translation.override("en"):
        assert labels.ruleset_text(Rules.preset("chengdu").to_json()) == "Chengdu rules"


def test_a_custom_ruleset_is_described_in_words_the_first_three_changes_named() -> None:
    with translation.override("zh-hans"):
        text = labels.ruleset_text(custom())
    assert text == "成都规则（封顶：4；退税：关；过手胡：严格；另有 1 项改动）"  # options in order


def test_every_option_and_value_of_the_engine_has_words() -> None:
    from xuezhan.rules import _CHOICES

    options = set(Rules.preset("chengdu").to_json()) - {"preset"}
    assert options <= set(labels.OPTIONS)
    values = {v for choices in _CHOICES.values() for v in choices}
    assert values <= set(labels.OPTION_VALUES)


def test_an_unknown_preset_reads_as_it_is() -> None:
    assert labels.ruleset_text({"preset": "martian"}) == "martian"
