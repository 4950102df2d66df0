"""URLs: the API under /api/v1/, its schema and docs, the pages, sign-in and the admin."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import URLPattern, URLResolver, include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

import records.converters  # noqa: F401  (registers <id:…>, before the apps' URLs)
from analysis import pages as analysis_pages
from analysis import viewer
from analysis.league import pages as league_pages
from analysis.stats import pages as stats_pages
from config import ops
from records import pages as records_pages
from records.signin import ThrottledLoginView

api: list[URLPattern | URLResolver] = [
    path("", include("records.urls")),
    path("", include("analysis.urls")),
    path("schema/", SpectacularAPIView.as_view(api_version="1"), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
]

MATCH = "clubs/<id:club_id>/matches/<id:match_id>/"
pages: list[URLPattern | URLResolver] = [
    path("", records_pages.home, name="home"),
    path("clubs/", records_pages.club_list, name="club-list"),
    path("clubs/<id:club_id>/", records_pages.match_list, name="match-list"),
    path("clubs/<id:club_id>/upload/", records_pages.match_upload, name="match-upload"),
    path("clubs/<id:club_id>/members/", records_pages.club_members, name="club-members"),
    path("clubs/<id:club_id>/members/invite/", records_pages.member_invite, name="member-invite"),
    path(
        "clubs/<id:club_id>/invitations/<id:invitation_id>/revoke/",
        records_pages.invitation_revoke,
        name="invitation-revoke",
    ),
    path("invitations/", records_pages.invitation_list, name="invitation-list"),
    path(
        "invitations/<id:invitation_id>/", records_pages.invitation_answer, name="invitation-answer"
    ),
    path("invitations/link/<str:secret>/", records_pages.invitation_link, name="invitation-link"),
    path(
        "clubs/<id:club_id>/members/<id:membership_id>/",
        records_pages.member_change,
        name="member-change",
    ),
    path(MATCH, analysis_pages.match_detail, name="match-detail"),
    path(MATCH + "reverify/", analysis_pages.match_reverify, name="match-reverify"),
    path(MATCH + "delete/", analysis_pages.match_delete, name="match-delete"),
    # rounds counted from 1, as every page counts them (the API counts from 0)
    path(MATCH + "rounds/<id:number>/", viewer.round_viewer, name="round-viewer"),
    path(
        "clubs/<id:club_id>/players/<id:player_id>/stats/",
        stats_pages.player_stats,
        name="player-stats",
    ),
    path("clubs/<id:club_id>/leaderboard/", stats_pages.leaderboard, name="leaderboard"),
]
pages += league_pages.page_urls  # seasons, standings, ledger

urlpatterns = [
    path("healthz", ops.healthz, name="healthz"),
    path("readyz", ops.readyz, name="readyz"),
    path("metrics", ops.metrics, name="metrics"),
    path("api/v1/", include((api, "api"))),
    path("accounts/login/", ThrottledLoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/signup/", records_pages.signup, name="signup"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("", include((pages, "pages"))),
]

handler404 = "records.errors.page_not_found"
handler500 = "records.errors.server_error"
