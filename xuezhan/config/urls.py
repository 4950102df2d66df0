"""URLs: the API under /api/v1/, its schema and docs, the pages, sign-in and the admin."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import URLPattern, URLResolver, include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.authtoken.views import obtain_auth_token

from analysis import pages as analysis_pages
from analysis import stats_pages, viewer
from records import pages as records_pages

api: list[URLPattern | URLResolver] = [
    path("", include("records.urls")),
    path("", include("analysis.urls")),
    path("auth/token/", obtain_auth_token, name="auth-token"),
    path("schema/", SpectacularAPIView.as_view(api_version="1"), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
]

MATCH = "clubs/<int:club_id>/matches/<int:match_id>/"
pages: list[URLPattern | URLResolver] = [
    path("", records_pages.home, name="home"),
    path("clubs/", records_pages.club_list, name="club-list"),
    path("clubs/<int:club_id>/", records_pages.match_list, name="match-list"),
    path("clubs/<int:club_id>/upload/", records_pages.match_upload, name="match-upload"),
    path("clubs/<int:club_id>/members/", records_pages.club_members, name="club-members"),
    path("clubs/<int:club_id>/members/add/", records_pages.member_add, name="member-add"),
    path(
        "clubs/<int:club_id>/members/<int:membership_id>/",
        records_pages.member_change,
        name="member-change",
    ),
    path(MATCH, analysis_pages.match_detail, name="match-detail"),
    path(MATCH + "reverify/", analysis_pages.match_reverify, name="match-reverify"),
    path(MATCH + "delete/", analysis_pages.match_delete, name="match-delete"),
    # rounds counted from 1, as every page counts them (the API counts from 0)
    path(MATCH + "rounds/<int:number>/", viewer.round_viewer, name="round-viewer"),
    path(
        "clubs/<int:club_id>/players/<int:player_id>/stats/",
        stats_pages.player_stats,
        name="player-stats",
    ),
    path("clubs/<int:club_id>/leaderboard/", stats_pages.leaderboard, name="leaderboard"),
]

urlpatterns = [
    path("api/v1/", include((api, "api"))),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/signup/", records_pages.signup, name="signup"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("", include((pages, "pages"))),
]

handler404 = "records.errors.page_not_found"
handler500 = "records.errors.server_error"
