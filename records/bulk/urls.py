"""The bulk upload's route: ``api_urls`` (``page_urls`` has none), included by config/urls.py."""

from django.urls import URLPattern, path

import records.converters  # noqa: F401  (registers <id:…>)
from records.bulk import views

api_urls: list[URLPattern] = [
    path("clubs/<id:club_id>/matches/bulk/", views.BulkUpload.as_view(), name="match-bulk"),
]

page_urls: list[URLPattern] = []
