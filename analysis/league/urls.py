"""The club books' routes: ``api_urls`` (seasons, standings, the ledger, settle-ups, ratings,
what-if, corrections, score-sheet previews) and ``page_urls``, included by config/urls.py."""

from django.urls import URLPattern, path

import records.converters  # noqa: F401  (registers <id:…>)
from analysis.league import pages, views

CLUB = "clubs/<id:club_id>/"
SEASON = CLUB + "seasons/<id:season_id>/"
MATCH = CLUB + "matches/<id:match_id>/"

api_urls: list[URLPattern] = [
    path(CLUB + "seasons/", views.SeasonList.as_view(), name="season-list"),
    path(SEASON, views.SeasonDetail.as_view(), name="season-detail"),
    path(SEASON + "standings/", views.SeasonStandings.as_view(), name="season-standings"),
    path(SEASON + "matches/", views.SeasonMatches.as_view(), name="season-matches"),
    path(SEASON + "matches/<id:match_id>/", views.SeasonMatchDetail.as_view(),
         name="season-match"),
    path(SEASON + "what-if/", views.SeasonWhatIf.as_view(), name="season-what-if"),
    path(MATCH + "acceptance/", views.MatchAcceptanceView.as_view(), name="match-acceptance"),
    path(MATCH + "corrections/", views.MatchCorrections.as_view(), name="match-corrections"),
    path(CLUB + "ledger/", views.LedgerView.as_view(), name="ledger"),
    path(CLUB + "settle-ups/", views.SettleUpList.as_view(), name="settleup-list"),
    path(CLUB + "ratings/", views.RatingList.as_view(), name="rating-list"),
    path(CLUB + "ratings/recompute/", views.RatingRecompute.as_view(), name="rating-recompute"),
    path(CLUB + "ratings/<id:player_id>/", views.RatingDetail.as_view(), name="rating-detail"),
    path(CLUB + "sheets/preview/", views.SheetPreview.as_view(), name="sheet-preview"),
]

page_urls: list[URLPattern] = [
    path(MATCH + "history/", pages.match_history, name="match-history"),
    path(CLUB + "players/", pages.player_list, name="player-list"),
    path(SEASON + "what-if/", pages.season_what_if, name="season-what-if"),
    path(CLUB + "ratings/", pages.rating_list, name="rating-list"),
    path(CLUB + "ratings/<id:player_id>/", pages.rating_detail, name="rating-detail"),
    path(CLUB + "seasons/", pages.season_list, name="season-list"),
    path(SEASON, pages.season_standings, name="season-standings"),
    path(CLUB + "ledger/", pages.ledger, name="ledger"),
]
