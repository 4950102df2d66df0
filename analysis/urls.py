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
]
