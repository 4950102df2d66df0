from django.urls import path

import records.converters  # noqa: F401  (registers <id:…>)
from analysis import views

MATCH = "clubs/<id:club_id>/matches/<id:match_id>/"

urlpatterns = [
    path(MATCH, views.MatchDetail.as_view(), name="match-detail"),
    path(MATCH + "reverify/", views.MatchReverify.as_view(), name="match-reverify"),
    path(MATCH + "rounds/", views.RoundList.as_view(), name="round-list"),
    path(MATCH + "rounds/<id:index>/", views.RoundDetail.as_view(), name="round-detail"),
    path(MATCH + "rounds/<id:index>/replay/", views.RoundReplay.as_view(), name="round-replay"),
    path(
        MATCH + "rounds/<id:index>/review/", views.RoundReviewView.as_view(), name="round-review"
    ),
]

# The league: seasons, standings, the ledger, settle-ups (analysis.league.views).
from analysis.league import views as league_views  # noqa: E402  (kept apart from the lines above)

CLUB = "clubs/<id:club_id>/"
SEASON = CLUB + "seasons/<id:season_id>/"
urlpatterns += [
    path(CLUB + "seasons/", league_views.SeasonList.as_view(), name="season-list"),
    path(SEASON, league_views.SeasonDetail.as_view(), name="season-detail"),
    path(SEASON + "standings/", league_views.SeasonStandings.as_view(), name="season-standings"),
    path(SEASON + "matches/", league_views.SeasonMatches.as_view(), name="season-matches"),
    path(
        SEASON + "matches/<id:match_id>/",
        league_views.SeasonMatchDetail.as_view(),
        name="season-match",
    ),
    path(
        MATCH + "acceptance/", league_views.MatchAcceptanceView.as_view(), name="match-acceptance"
    ),
    path(CLUB + "ledger/", league_views.LedgerView.as_view(), name="ledger"),
    path(CLUB + "settle-ups/", league_views.SettleUpList.as_view(), name="settleup-list"),
]
urlpatterns += [
    path(CLUB + "ratings/", league_views.RatingList.as_view(), name="rating-list"),
    path(
        CLUB + "ratings/recompute/", league_views.RatingRecompute.as_view(), name="rating-recompute"
    ),
    path(
        CLUB + "ratings/<id:player_id>/", league_views.RatingDetail.as_view(), name="rating-detail"
    ),
]
urlpatterns += [
    path(SEASON + "what-if/", league_views.SeasonWhatIf.as_view(), name="season-what-if"),
]
urlpatterns += [
    path(MATCH + "corrections/", league_views.MatchCorrections.as_view(), name="match-corrections"),
]
urlpatterns += [
    path(CLUB + "sheets/preview/", league_views.SheetPreview.as_view(), name="sheet-preview"),
]
urlpatterns += [
    path(
        CLUB + "players/<id:player_id>/stats/", views.PlayerStats.as_view(), name="player-stats"
    ),
    path(CLUB + "leaderboard/", views.Leaderboard.as_view(), name="leaderboard"),
]
