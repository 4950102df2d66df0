"""The routes of club nights: ``api_urls`` (nights, their payments, seating and closing; the
proposals; a seating on its own) and ``page_urls`` (the club's home, the nights, the
printable seating), included by config/urls.py."""

from django.urls import URLPattern, path

import records.converters  # noqa: F401  (registers <id:…>)
from analysis.league.nights import pages, views

CLUB = "clubs/<id:club_id>/"
NIGHT = CLUB + "nights/<id:night_id>/"

api_urls: list[URLPattern] = [
    path(CLUB + "nights/", views.NightList.as_view(), name="night-list"),
    path(CLUB + "nights/proposals/", views.NightProposals.as_view(), name="night-proposals"),
    path(NIGHT, views.NightDetail.as_view(), name="night-detail"),
    path(NIGHT + "close/", views.NightClose.as_view(), name="night-close"),
    path(NIGHT + "reopen/", views.NightReopen.as_view(), name="night-reopen"),
    path(NIGHT + "payments/", views.NightPayments.as_view(), name="night-payments"),
    path(NIGHT + "seating/", views.NightSeating.as_view(), name="night-seating"),
    path(CLUB + "seating/", views.ClubSeating.as_view(), name="club-seating"),
]

page_urls: list[URLPattern] = [
    path(CLUB, pages.club_home, name="club-home"),
    path(CLUB + "nights/", pages.night_list, name="night-list"),
    path(NIGHT, pages.night_detail, name="night-detail"),
    path(NIGHT + "seating/", pages.night_seating, name="night-seating"),
]
