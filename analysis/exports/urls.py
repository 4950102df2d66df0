"""The export routes: ``api_urls`` (``page_urls`` has none), included by config/urls.py."""

from django.urls import URLPattern, path

import records.converters  # noqa: F401  (registers <id:…>)
from analysis.exports import views

CLUB = "clubs/<id:club_id>/"

api_urls: list[URLPattern] = [
    path(CLUB + "matches/export/", views.MatchExport.as_view(), name="match-export"),
    path(CLUB + "matches/<id:match_id>/document/", views.MatchDocument.as_view(),
         name="match-document"),
]

page_urls: list[URLPattern] = []
