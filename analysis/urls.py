"""The verification's routes, included by config/urls.py: ``api_urls`` (a match's report,
rounds, replay frames, reviews) and ``page_urls`` (the match page, the round viewer)."""

from django.urls import URLPattern, path

import records.converters  # noqa: F401  (registers <id:…>)
from analysis import pages, viewer, views

MATCH = "clubs/<id:club_id>/matches/<id:match_id>/"

api_urls: list[URLPattern] = [
    path(MATCH, views.MatchDetail.as_view(), name="match-detail"),
    path(MATCH + "reverify/", views.MatchReverify.as_view(), name="match-reverify"),
    path(MATCH + "rounds/", views.RoundList.as_view(), name="round-list"),
    path(MATCH + "rounds/<id:index>/", views.RoundDetail.as_view(), name="round-detail"),
    path(MATCH + "rounds/<id:index>/replay/", views.RoundReplay.as_view(), name="round-replay"),
    path(
        MATCH + "rounds/<id:index>/review/", views.RoundReviewView.as_view(), name="round-review"
    ),
]

page_urls: list[URLPattern] = [
    path(MATCH, pages.match_detail, name="match-detail"),
    path(MATCH + "reverify/", pages.match_reverify, name="match-reverify"),
    path(MATCH + "delete/", pages.match_delete, name="match-delete"),
    # rounds counted from 1, as every page counts them (the API counts from 0)
    path(MATCH + "rounds/<id:number>/", viewer.round_viewer, name="round-viewer"),
]
