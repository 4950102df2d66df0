"""The API of the score-sheet form: check a sheet as it is entered."""


from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.request import Request
from rest_framework.response import Response

from analysis.league.sheets import checks
from records.models import Match
from records.permissions import ClubMixin


class SheetCheck(ClubMixin, generics.GenericAPIView[Match]):
    """Check a score sheet as the form at the table enters it (nothing is stored):
    ``problems``, each a sentence in the request's language naming the round (from 1), the
    player and the field, with ``round``/``event`` (from 0), ``field`` and ``blocking``
    (missing or unreadable: it cannot be saved; otherwise the engine's finding); per round
    its ``payments`` (each worded), ``deltas``, running ``totals``, and the engine's
    ``next_dealer`` with the ``rule`` that gave it. Rounds that are complete are settled
    even while others are not."""

    queryset = Match.objects.none()
    serializer_class = None

    @extend_schema(request={"application/json": OpenApiTypes.OBJECT},
                   responses={200: OpenApiTypes.OBJECT})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(checks.check_sheet(request.data).to_json())
