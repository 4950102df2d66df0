"""The match review's routes, included by config/urls.py: the report of a match (API and
page) and a player's reviewed matches (page)."""

from django.urls import URLPattern, path

import records.converters  # noqa: F401  (registers <id:…>)
from analysis.review import pages, views

CLUB = "clubs/<id:club_id>/"
MATCH = CLUB + "matches/<id:match_id>/"

api_urls: list[URLPattern] = [
    path(MATCH + "review/", views.MatchReviewView.as_view(), name="match-review"),
]

page_urls: list[URLPattern] = [
    path(MATCH + "review/", pages.match_review, name="match-review"),
    path(CLUB + "players/<id:player_id>/review/", pages.player_matches,
         name="player-review"),
]
