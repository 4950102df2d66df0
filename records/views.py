"""The records API: clubs, memberships, players, match lists and uploads."""
# ruff: noqa: RUF012  (Django and DRF declare options as mutable class attributes)

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

import django_filters
from django import forms
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django_filters.fields import IsoDateTimeField
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.exceptions import APIException, UnsupportedMediaType
from rest_framework.exceptions import ValidationError as DRFValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer
from rest_framework.throttling import BaseThrottle

from records import selectors, services
from records.errors import DocumentError, MatchConflict, UploadTooLarge
from records.idempotency import IDEMPOTENCY_PARAMETER, IDEMPOTENCY_RESPONSES, idempotent
from records.metrics import UPLOADS
from records.models import Club, Match, Membership, Player
from records.parsers import StrictJSONParser, StrictMultiPartParser
from records.permissions import ClubMixin, signed_in
from records.serializers import (
    ClubSerializer,
    DocumentErrorSerializer,
    MatchSerializer,
    MembershipRoleSerializer,
    PlayerSerializer,
    UploadFileSerializer,
    iso,
    stored_match_data,
)
from records.tables import (
    Table,
    TableNegotiation,
    asked_format,
    format_parameter,
    named_json,
    table_response,
    table_responses,
)
from records.throttles import UploadThrottle

ADMIN = Membership.Role.ADMIN
OWNER = Membership.Role.OWNER
log = logging.getLogger(__name__)


# -- clubs ---------------------------------------------------------------------------


class ClubList(generics.ListCreateAPIView[Club]):
    """The clubs you belong to; creating one makes you its owner."""

    queryset = Club.objects.none()  # for the schema; get_queryset() scopes it
    serializer_class = ClubSerializer

    def get_queryset(self) -> QuerySet[Club]:
        return selectors.clubs_for_user(self.request.user).order_by("name", "pk")

    def perform_create(self, serializer: BaseSerializer[Club]) -> None:
        serializer.instance = services.create_club(
            name=serializer.validated_data["name"], owner=signed_in(self.request)
        )


class ClubDetail(ClubMixin, generics.RetrieveUpdateDestroyAPIView[Club]):
    """A club: members read it, admins rename it, the owner deletes it."""

    queryset = Club.objects.none()  # for the schema; get_queryset() scopes it
    serializer_class = ClubSerializer
    roles = {"PUT": ADMIN, "PATCH": ADMIN, "DELETE": OWNER}

    def get_object(self) -> Club:
        return selectors.clubs_for_user(self.request.user).get(pk=self.club.pk)


# -- memberships ---------------------------------------------------------------------


class MembershipList(ClubMixin, generics.ListAPIView[Membership]):
    """The members of a club and their roles. Members join by accepting an invitation
    (``invitations/``): nobody is added to a club without saying so."""

    queryset = Membership.objects.none()  # for the schema; get_queryset() scopes it
    serializer_class = MembershipRoleSerializer

    def get_queryset(self) -> QuerySet[Membership]:
        return selectors.club_memberships(self.club)


class MembershipDetail(ClubMixin, generics.RetrieveUpdateDestroyAPIView[Membership]):
    """One membership: admins change roles and remove members; owners handle owners."""

    queryset = Membership.objects.none()  # for the schema; get_queryset() scopes it
    serializer_class = MembershipRoleSerializer
    roles = {"PUT": ADMIN, "PATCH": ADMIN, "DELETE": ADMIN}
    lookup_url_kwarg = "membership_id"

    def get_queryset(self) -> QuerySet[Membership]:
        return selectors.club_memberships(self.club)

    def perform_update(self, serializer: BaseSerializer[Membership]) -> None:
        membership = serializer.instance
        assert membership is not None
        role = serializer.validated_data.get("role", membership.role)
        if OWNER in (role, membership.role) and not self.membership.has_role(OWNER):
            self.permission_denied(self.request, "Only an owner can change an owner's role.")
        try:
            services.change_role(membership=membership, role=role)
        except services.RoleError as exc:
            raise DRFValidationError({"role": [str(exc)]}) from None

    def perform_destroy(self, instance: Membership) -> None:
        if instance.role == OWNER and not self.membership.has_role(OWNER):
            self.permission_denied(self.request, "Only an owner can remove an owner.")
        try:
            services.remove_member(membership=instance)
        except services.RoleError as exc:
            raise DRFValidationError({"role": [str(exc)]}) from None


# -- players -------------------------------------------------------------------------


class PlayerList(ClubMixin, generics.ListCreateAPIView[Player]):
    """A club's player handles (created by uploads, or by admins ahead of them)."""

    queryset = Player.objects.none()  # for the schema; get_queryset() scopes it
    serializer_class = PlayerSerializer
    roles = {"POST": ADMIN}

    def get_queryset(self) -> QuerySet[Player]:
        return selectors.club_players(self.club)

    def get_serializer_context(self) -> dict[str, Any]:
        return {**super().get_serializer_context(), "club": self.club}

    def perform_create(self, serializer: BaseSerializer[Player]) -> None:
        data = serializer.validated_data
        try:
            with transaction.atomic():
                serializer.instance = services.create_player(
                    club=self.club, handle=data["handle"], user=data.get("user")
                )
        except IntegrityError:  # a concurrent request took the handle or the user first
            raise DRFValidationError(
                {"handle": ["this club already has this handle, or this user's player"]}
            ) from None


class PlayerDetail(ClubMixin, generics.RetrieveUpdateAPIView[Player]):
    """One player; admins link the handle to a member's user account."""

    queryset = Player.objects.none()  # for the schema; get_queryset() scopes it
    serializer_class = PlayerSerializer
    roles = {"PUT": ADMIN, "PATCH": ADMIN}
    lookup_url_kwarg = "player_id"

    def get_queryset(self) -> QuerySet[Player]:
        return selectors.club_players(self.club)

    def get_serializer_context(self) -> dict[str, Any]:
        return {**super().get_serializer_context(), "club": self.club}

    def perform_update(self, serializer: BaseSerializer[Player]) -> None:
        player = serializer.instance
        assert player is not None
        user = serializer.validated_data.get("user", player.user)
        try:
            with transaction.atomic():
                services.link_player(player=player, user=user)
        except IntegrityError:  # a concurrent request linked the user to another player
            raise DRFValidationError(
                {"username": ["already linked to another player of this club"]}
            ) from None


# -- matches -------------------------------------------------------------------------


class UtcDateTimeField(IsoDateTimeField):  # type: ignore[misc]  # no stubs
    """An ISO 8601 date and time, turned into UTC before it reaches the database.

    PostgreSQL refuses a time-zone displacement of 16 hours or more, which Python accepts
    (up to 24 hours); in UTC any offset is fine. A time that has no UTC equivalent (year 1
    with a positive offset) is a 400, not an overflow.
    """

    def to_python(self, value: Any) -> datetime | None:
        parsed: datetime | None = super().to_python(value)
        if parsed is None:
            return None
        try:
            return parsed.astimezone(UTC)
        except OverflowError:
            raise forms.ValidationError(_("out of range once converted to UTC")) from None


class UtcDateTimeFilter(django_filters.IsoDateTimeFilter):  # type: ignore[misc]  # no stubs
    field_class = UtcDateTimeField


class MatchFilter(django_filters.FilterSet):  # type: ignore[misc]  # no stubs
    player = django_filters.NumberFilter(
        field_name="seats__player", label="Only matches where this player (id) sat."
    )
    status = django_filters.ChoiceFilter(choices=Match.Status.choices)
    ruleset = django_filters.CharFilter(field_name="ruleset_name", label="Ruleset preset name.")
    played_after = UtcDateTimeFilter(
        field_name="played_at", lookup_expr="gte", label="Played at or after (ISO 8601)."
    )
    played_before = UtcDateTimeFilter(
        field_name="played_at", lookup_expr="lt", label="Played before (ISO 8601)."
    )

    class Meta:
        model = Match
        fields = ["player", "status", "ruleset", "played_after", "played_before"]


UPLOAD_EXAMPLE = {
    "format": "xuezhan-log",
    "version": 1,
    "ruleset": "chengdu",
    "players": ["alice", "bob", "carol", "dave"],
    "rounds": ["…"],
}


#: the match list's table (docs/apps.md, Tables): a row per match, the players by seat
MATCH_COLUMNS = [
    "id", "source_match_id", "status", "ruleset_name", "played_at", "uploaded_at",
    "uploaded_by", "content_sha256", "player_0", "player_1", "player_2", "player_3",
]  # fmt: skip


def match_table(club: Club, matches: QuerySet[Match]) -> Table:
    def rows() -> Any:
        for match in matches.iterator(chunk_size=500):
            handles = {s.seat: s.player.handle for s in match.seats.all()}
            yield {
                "id": match.pk, "source_match_id": match.source_match_id,
                "status": match.status, "ruleset_name": match.ruleset_name,
                "played_at": iso(match.played_at), "uploaded_at": iso(match.uploaded_at),
                "uploaded_by": match.uploaded_by.username if match.uploaded_by else None,
                "content_sha256": match.content_sha256,
                **{f"player_{seat}": handles.get(seat) for seat in range(4)},
            }  # fmt: skip

    return Table(f"matches-{club.pk}", MATCH_COLUMNS, rows())


class MatchList(ClubMixin, generics.ListAPIView[Match]):
    """A club's matches, with filters; POST uploads a document (JSON body or ``.json`` file).
    ``?format=csv|ndjson`` gives every match the filters select as a table (docs/apps.md)."""

    queryset = Match.objects.none()  # for the schema; get_queryset() scopes it
    serializer_class = MatchSerializer
    filterset_class = MatchFilter
    parser_classes = [StrictJSONParser, StrictMultiPartParser]
    content_negotiation_class = TableNegotiation

    throttle_scope = "uploads"

    def get_queryset(self) -> QuerySet[Match]:
        return selectors.club_matches(self.club).distinct()

    def get_throttles(self) -> list[BaseThrottle]:
        # reading a club's matches is not limited; uploading is
        return [UploadThrottle()] if self.request.method == "POST" else []

    @extend_schema(
        parameters=format_parameter(),
        responses=table_responses(MatchSerializer(many=True)),
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Any:
        fmt = asked_format(request)
        if fmt in ("csv", "ndjson"):
            matches = self.filter_queryset(self.get_queryset())
            return table_response(match_table(self.club, matches), fmt, request)
        return named_json(super().get(request, *args, **kwargs), f"matches-{self.club.pk}",
                          fmt, request)

    @extend_schema(
        request={
            "application/json": OpenApiTypes.OBJECT,
            "multipart/form-data": UploadFileSerializer,
        },
        responses={
            201: OpenApiResponse(MatchSerializer, "Stored; verification is queued."),
            200: OpenApiResponse(MatchSerializer, "Already uploaded to this club: that match."),
            409: OpenApiResponse(
                DocumentErrorSerializer,
                "The club has a match with this match_id and other content (``match``).",
            ),
            400: OpenApiResponse(DocumentErrorSerializer, "Not JSON, or not a valid document."),
            413: OpenApiResponse(DocumentErrorSerializer, "Over the upload limit."),
            429: OpenApiResponse(description="Too many uploads; see Retry-After."),
            **IDEMPOTENCY_RESPONSES,
        },
        examples=[OpenApiExample("document", value=UPLOAD_EXAMPLE, request_only=True)],
        parameters=[IDEMPOTENCY_PARAMETER],
    )
    @idempotent()
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        try:
            upload = services.upload_match(
                club=self.club, raw=_uploaded_bytes(request), uploaded_by=signed_in(request)
            )
        except Exception as exc:
            UPLOADS.labels(_upload_outcome(exc)).inc()
            raise
        UPLOADS.labels("created" if upload.created else "duplicate").inc()
        log.info(
            "upload",
            extra={"match": upload.match.pk, "club": self.club.pk, "new": upload.created},
        )
        if upload.created:  # as stored, with its seats: queued, the verification after commit
            return Response(stored_match_data(upload.match), status=status.HTTP_201_CREATED)
        match = selectors.club_matches(self.club).get(pk=upload.match.pk)
        return Response(MatchSerializer(match).data, status=status.HTTP_200_OK)


def _upload_outcome(exc: Exception) -> str:
    if isinstance(exc, MatchConflict):
        return "conflict"
    if isinstance(exc, UploadTooLarge | RequestDataTooBig):
        return "too_large"
    return "invalid" if isinstance(exc, DocumentError | APIException) else "error"


def _uploaded_bytes(request: Request) -> bytes:
    """The document's bytes, verbatim: the JSON body, or the uploaded file."""
    content_type = request.content_type or ""
    if content_type.startswith("multipart/form-data"):
        files = request.FILES.getlist("file")
        if not files:
            raise DRFValidationError({"file": ["Attach the document as a file named 'file'."]})
        if len(files) > 1:
            raise DRFValidationError(
                {"file": [f"One document per upload: {len(files)} files are named 'file'."]}
            )
        upload = files[0]
        if upload.size is not None and upload.size > settings.UPLOAD_MAX_BYTES:
            raise UploadTooLarge()
        return bytes(upload.read())
    if content_type.startswith("application/json"):
        try:
            return request._request.body
        except RequestDataTooBig:
            raise UploadTooLarge() from None
    raise UnsupportedMediaType(content_type)
