"""What an OPTIONS request answers: the view's name, description, renderers and parsers.

DRF's default also describes each writable action by building the view's serializer and,
for PUT, fetching the object — which fails on views that take no serializer or look their
object up by another URL keyword. The OpenAPI schema (``/api/v1/schema/``) already says
what every operation takes, so OPTIONS leaves the actions out and can never fail.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rest_framework.metadata import SimpleMetadata
from rest_framework.request import Request

if TYPE_CHECKING:  # rest_framework.views imports this module through its settings
    from rest_framework.views import APIView


class DescribeOnly(SimpleMetadata):
    def determine_metadata(self, request: Request, view: APIView) -> dict[str, Any]:
        return {
            "name": view.get_view_name(),
            "description": view.get_view_description(),
            "renders": [renderer.media_type for renderer in view.renderer_classes],
            "parses": [parser.media_type for parser in view.parser_classes],
        }
