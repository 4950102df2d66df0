"""The statistics' routes: ``api_urls`` and ``page_urls``, included by config/urls.py."""

from django.urls import URLPattern, path

import records.converters  # noqa: F401  (registers <id:…>)
from analysis.stats import pages, views

CLUB = "clubs/<id:club_id>/"

api_urls: list[URLPattern] = [
    path(
        CLUB + "players/<id:player_id>/stats/", views.PlayerStats.as_view(), name="player-stats"
    ),
    path(CLUB + "leaderboard/", views.Leaderboard.as_view(), name="leaderboard"),
]

page_urls: list[URLPattern] = [
    path(CLUB + "players/<id:player_id>/stats/", pages.player_stats, name="player-stats"),
    path(CLUB + "leaderboard/", pages.leaderboard, name="leaderboard"),
]
