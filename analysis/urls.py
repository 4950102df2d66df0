from django.urls import path

from analysis import views

MATCH = "clubs/<int:club_id>/matches/<int:match_id>/"

urlpatterns = [
    path(MATCH, views.MatchDetail.as_view(), name="match-detail"),
    path(MATCH + "reverify/", views.MatchReverify.as_view(), name="match-reverify"),
    path(MATCH + "rounds/", views.RoundList.as_view(), name="round-list"),
    path(MATCH + "rounds/<int:index>/", views.RoundDetail.as_view(), name="round-detail"),
    path(MATCH + "rounds/<int:index>/replay/", views.RoundReplay.as_view(), name="round-replay"),
    path(
        "clubs/<int:club_id>/players/<int:player_id>/stats/",
        views.PlayerStats.as_view(),
        name="player-stats",
    ),
    path("clubs/<int:club_id>/leaderboard/", views.Leaderboard.as_view(), name="leaderboard"),
]
