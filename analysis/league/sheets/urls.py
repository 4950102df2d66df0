"""The score sheets' routes: ``api_urls`` (checking a sheet as it is entered) and
``page_urls`` (entering one; a written-down round's page), included by config/urls.py."""

from django.urls import URLPattern, path

import records.converters  # noqa: F401  (registers <id:…>)
from analysis.league.sheets import pages, views

CLUB = "clubs/<id:club_id>/"
MATCH = CLUB + "matches/<id:match_id>/"

api_urls: list[URLPattern] = [
    path(CLUB + "sheets/check/", views.SheetCheck.as_view(), name="sheet-check"),
]

page_urls: list[URLPattern] = [
    path(CLUB + "sheets/new/", pages.sheet_new, name="sheet-new"),
    path(MATCH + "sheet/<id:number>/", pages.sheet_round, name="sheet-round"),
]
