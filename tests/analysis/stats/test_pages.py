"""The statistics pages: a player's page and the club leaderboard."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils.html import escape

from tests.records.documents import data_documents

pytestmark = pytest.mark.django_db

CORPUS = data_documents()


@pytest.fixture
def players(club: Any, upload: Any) -> dict[str, int]:
    from analysis import services
    from records.models import Player

    for name in ("kong_discard_won_call_transfer_online", "multiple_win_two_winners_chengdu"):
        services.verify_match(match_id=upload(CORPUS[name]).pk)
    return dict(Player.objects.filter(club=club).values_list("handle", "pk"))


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_player_page_shows_charts_with_their_numbers_as_text(
    club: Any, cast: Any, players: dict[str, int]
) -> None:
    from analysis import labels
    from analysis.stats import charts

    page = signed_in(cast["mia"]).get(f"/clubs/{club.pk}/players/{players['bob']}/stats/")
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count("<svg") == 4  # waterfall, win order, patterns, trend
    decomposition = page.context["data"]["decomposition"]
    assert f'<th class="num">{charts.signed(decomposition["net"])}</th>' in html
    for part in decomposition:
        assert f"<td>{escape(labels.label('part', part))}</td>" in html or part == "net"
    shares = [row["shown"] for row in page.context["order"]]
    assert all(f">{share}" in html for share in shares)
    assert labels.label("stat", "call_transfer_out") in html and 'class="num low-sample"' in html
    assert [row["handle"] for row in page.context["data"]["head_to_head"]] == [
        "alice",
        "carol",
        "dave",
    ]


def test_the_headline_shows_counts_as_counts_and_rates_with_their_sample(
    club: Any, cast: Any, players: dict[str, int]
) -> None:
    page = signed_in(cast["mia"]).get(f"/clubs/{club.pk}/players/{players['bob']}/stats/")
    headline = {row["key"]: row for row in page.context["headline"]}
    stats = page.context["data"]["stats"]
    assert headline["rounds"]["shown"] == str(stats["rounds"])
    assert headline["rounds"]["sample"] is None
    rate = stats["win_rate"]
    assert headline["win_rate"]["sample"] == f"{rate['numerator']}/{rate['denominator']}"
    assert f"({rate['numerator']}/{rate['denominator']})" in page.content.decode()


def test_the_headline_and_every_statistic_show_labels_in_the_page_language(
    club: Any, cast: Any, players: dict[str, int]
) -> None:
    client = signed_in(cast["mia"])
    url = f"/clubs/{club.pk}/players/{players['bob']}/stats/"
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    chinese = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans")
    for page in (english, chinese):
        html = page.content.decode()
        rows = [*page.context["headline"],
                *(row for _, rows in page.context["groups"] for row in rows)]
        assert all(row["label"] != row["key"] and f">{escape(row['label'])}<" in html
                   for row in rows)
    assert [r["label"] for r in chinese.context["headline"]][:4] == ["局数", "净分", "每局净分",
                                                                    "胡牌率"]
    assert "Win rate" in english.content.decode() and "Win rate" not in chinese.content.decode()
    ranked = f"/clubs/{club.pk}/leaderboard/?stat=win_rate&amp;min_rounds=0"
    assert ranked in english.content.decode()  # the percentile links to its ranking


def test_the_decision_review_statistics_show_a_dash_until_the_api_serves_them(
    club: Any, cast: Any, players: dict[str, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    from analysis.stats import figures

    url = f"/clubs/{club.pk}/players/{players['bob']}/stats/"
    served = figures.player_stats
    review: dict[str, Any] = {}

    def with_review(*args: Any, **kwargs: Any) -> dict[str, Any]:
        data = served(*args, **kwargs)
        for key in ("best_discard_rate", "ukeire_lost_per_discard"):
            data["stats"].pop(key, None)
        data["stats"].update(review)
        return data

    monkeypatch.setattr(figures, "player_stats", with_review)
    page = signed_in(cast["mia"]).get(url)
    group = dict(page.context["groups"])["Decision review"]
    assert [(row["key"], row["shown"]) for row in group] == [
        ("best_discard_rate", "—"), ("ukeire_lost_per_discard", "—")]
    review.update(best_discard_rate=figures.rate(61, 80),
                  ukeire_lost_per_discard=figures.rate(100, 80))
    page = signed_in(cast["mia"]).get(url)
    headline = {row["key"]: row for row in page.context["headline"]}
    assert (headline["best_discard_rate"]["shown"], headline["best_discard_rate"]["sample"]) == (
        "76.2%", "61/80")
    assert headline["ukeire_lost_per_discard"]["shown"] == "1.25"
    html = page.content.decode()
    assert 'id="stat-best_discard_rate"' in html and "Best-discard match rate" in html


def test_a_statistic_served_as_null_shows_a_dash_with_its_sample() -> None:
    from analysis.stats import figures
    from analysis.stats import pages as stats_pages

    row = stats_pages.stat_row({"best_discard_rate": figures.rate(0, 0)}, "best_discard_rate")
    assert (row["shown"], row["sample"], row["low_sample"]) == ("—", "0/0", True)
    assert stats_pages.stat_row({}, "ukeire_lost_per_discard")["shown"] == "—"


def test_the_records_link_to_the_replay_viewer_at_the_end_of_their_round(
    club: Any, cast: Any, players: dict[str, int]
) -> None:
    from analysis.viewer import viewer_url

    page = signed_in(cast["mia"]).get(f"/clubs/{club.pk}/players/{players['bob']}/stats/")
    html = page.content.decode()
    records = page.context["data"]["records"]
    for key in ("biggest_win", "biggest_loss"):
        ref = records[key]
        if ref is not None:
            url = viewer_url(club.pk, ref["match"], ref["round"]) + "#step=end"
            assert f'href="{url}"' in html
    assert any(records[key] for key in ("biggest_win", "biggest_loss"))


def test_every_statistic_part_and_filter_has_a_label_in_both_languages() -> None:
    from django.utils import translation

    from analysis import labels
    from analysis.stats import figures
    from analysis.stats import pages as stats_pages
    from analysis.stats.serializers import LeaderboardQuerySerializer

    keys = {*figures.stat_keys(), *stats_pages.HEADLINE}
    parts = set(figures.decomposition(dict.fromkeys(figures.AGGREGATES, 0)))
    filters = set(LeaderboardQuerySerializer().get_fields())
    assert keys <= set(labels.STATS) and parts <= set(labels.PARTS)
    assert filters <= set(labels.FILTERS)
    for kind, names in (("stat", keys), ("part", parts), ("filter", filters)):
        with translation.override("en"):
            english = {name: labels.label(kind, name) for name in names}
        with translation.override("zh-hans"):
            chinese = {name: labels.label(kind, name) for name in names}
        assert all(english[n] != chinese[n] for n in names), kind


def test_a_bad_filter_on_the_page_is_shown_not_a_500(
    club: Any, cast: Any, players: dict[str, int]
) -> None:
    page = signed_in(cast["mia"]).get(f"/clubs/{club.pk}/players/{players['bob']}/stats/?from=soon")
    assert page.status_code == 200
    assert [name for name, _ in page.context["errors"]] == ["From"]


@pytest.mark.parametrize(
    ("language", "to", "start"), [("en", "To", "From"), ("zh-hans", "到", "从")]
)
def test_dates_out_of_order_are_named_by_their_filters_in_the_page_language(
    club: Any, cast: Any, players: dict[str, int], language: str, to: str, start: str
) -> None:
    page = signed_in(cast["mia"]).get(
        f"/clubs/{club.pk}/players/{players['bob']}/stats/?from=2026-02-01&to=2026-01-01",
        HTTP_ACCEPT_LANGUAGE=language)
    [(name, message)] = page.context["errors"]
    assert name == to and f"“{to}”" in message and f"“{start}”" in message
    assert ("before" in message) is (language == "en")


def test_the_leaderboard_page_ranks_with_the_chosen_stat(
    club: Any, cast: Any, players: dict[str, int]
) -> None:
    page = signed_in(cast["mia"]).get(f"/clubs/{club.pk}/leaderboard/?stat=net&min_rounds=0")
    assert page.status_code == 200
    values = [row["value"] for row in page.context["rows"]]
    assert values == sorted(values, reverse=True) and len(values) == 4
    html = page.content.decode()
    assert '<th class="num stat-name">Net</th>' in html
    assert '<option value="win_rate" >Win rate</option>' in html


def test_the_leaderboard_shows_each_rate_with_its_sample_and_low_sample_mark(
    club: Any, cast: Any, players: dict[str, int]
) -> None:
    page = signed_in(cast["mia"]).get(f"/clubs/{club.pk}/leaderboard/?stat=win_rate&min_rounds=0")
    rows = page.context["rows"]
    assert all(row["sample"] == f"{row['sample'].split('/')[0]}/{row['rounds']}" for row in rows)
    assert all(row["low_sample"] == (row["rounds"] < 30) for row in rows)
    assert 'class="num low-sample"' in page.content.decode()


def test_stats_pages_are_404_for_non_members(club: Any, cast: Any, players: dict[str, int]) -> None:
    outsider = signed_in(cast["nora"])
    assert outsider.get(f"/clubs/{club.pk}/players/{players['bob']}/stats/").status_code == 404
    assert outsider.get(f"/clubs/{club.pk}/leaderboard/").status_code == 404


def test_a_filter_form_sent_with_empty_fields_counts_every_round(
    club: Any, cast: Any, players: dict[str, int]
) -> None:
    client = signed_in(cast["mia"])
    page = client.get(f"/clubs/{club.pk}/players/{players['bob']}/stats/"
                      "?from=&to=&ruleset=&with=&period=month")
    assert page.context["errors"] == [] and page.context["period"] == "month"
    board = client.get(f"/clubs/{club.pk}/leaderboard/?stat=deal_in_rate&min_rounds=0&from=&to=")
    assert board.context["errors"] == [] and board.context["stat"] == "deal_in_rate"
