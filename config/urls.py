"""URLs: the API under /api/v1/, its schema and docs, the pages, sign-in and the admin."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import URLPattern, URLResolver, include, path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

import analysis.exports.urls
import analysis.league.nights.urls
import analysis.league.sheets.urls
import analysis.league.urls
import analysis.review.urls
import analysis.stats.urls
import analysis.urls
import records.bulk.urls
import records.converters
import records.urls
import records.webhooks.urls
from config import ops
from records import pages as records_pages
from records.signin import ThrottledLoginView

#: every feature's routes, in one order for the API and the pages
FEATURES = (
    records.urls, records.bulk.urls, records.webhooks.urls, analysis.urls, analysis.review.urls,
    analysis.stats.urls, analysis.league.urls, analysis.league.nights.urls,
    analysis.league.sheets.urls, analysis.exports.urls,
)

api: list[URLPattern | URLResolver] = [
    *(path("", include(feature.api_urls)) for feature in FEATURES),
    path("schema/", SpectacularAPIView.as_view(api_version="1"), name="schema"),
    # the split view serves Swagger UI's starting script from a URL (the CSP allows no
    # inline script)
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="docs"),
]
pages: list[URLPattern | URLResolver] = [
    path("", include(feature.page_urls)) for feature in FEATURES
]

urlpatterns = [
    path("healthz", ops.healthz, name="healthz"),
    path("readyz", ops.readyz, name="readyz"),
    path("metrics", ops.metrics, name="metrics"),
    path("api/v1/", include((api, "api"))),
    path("accounts/login/", ThrottledLoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/signup/", records_pages.signup, name="signup"),
    path("i18n/", include("django.conf.urls.i18n")),
    # the admin signs in through the site's sign-in page: one throttled path (issue 27)
    path("admin/login/", RedirectView.as_view(pattern_name="login", query_string=True)),
    path("admin/", admin.site.urls),
    path("", include((pages, "pages"))),
]

handler404 = "records.errors.page_not_found"
handler500 = "records.errors.server_error"
