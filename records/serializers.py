"""API shapes of the records."""
# ruff: noqa: RUF012  (Django and DRF declare options as mutable class attributes)

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework import serializers

from records.models import AccessToken, Club, Invitation, Match, Membership, Player, Seat
from records.names import refuse_unsafe

User = get_user_model()


class ClubSerializer(serializers.ModelSerializer[Club]):
    match_count = serializers.IntegerField(read_only=True, default=0)

    class Meta:
        model = Club
        fields = ["id", "name", "time_zone", "created_at", "match_count"]
        read_only_fields = ["id", "created_at", "match_count"]

    def validate_name(self, name: str) -> str:
        return refuse_unsafe(name)


class MembershipSerializer(serializers.ModelSerializer[Membership]):
    username = serializers.SlugRelatedField(
        source="user", slug_field="username", queryset=User.objects.all()
    )

    class Meta:
        model = Membership
        fields = ["id", "username", "role", "created_at"]
        read_only_fields = ["id", "created_at"]


class MembershipRoleSerializer(serializers.ModelSerializer[Membership]):
    username = serializers.CharField(source="user.username", read_only=True)

    class Meta:
        model = Membership
        fields = ["id", "username", "role", "created_at"]
        read_only_fields = ["id", "username", "created_at"]


class PlayerSerializer(serializers.ModelSerializer[Player]):
    username = serializers.SlugRelatedField(
        source="user",
        slug_field="username",
        queryset=User.objects.all(),
        allow_null=True,
        required=False,
        help_text="The user this handle belongs to (a member of the club), or null.",
    )

    class Meta:
        model = Player
        fields = ["id", "handle", "username", "created_at"]
        read_only_fields = ["id", "created_at"]

    def validate_username(self, user: Any) -> Any:
        club = self.context["club"]
        if user is not None and not club.memberships.filter(user=user).exists():
            raise serializers.ValidationError(_("not a member of this club"))
        others = club.players.filter(user=user)
        if self.instance is not None:
            others = others.exclude(pk=self.instance.pk)
        if user is not None and others.exists():
            raise serializers.ValidationError(_("already linked to another player of this club"))
        return user

    def validate_handle(self, handle: str) -> str:
        refuse_unsafe(handle)
        if self.instance is not None and handle != self.instance.handle:
            raise serializers.ValidationError(_("a handle is what the documents say; it is fixed"))
        club = self.context["club"]
        if self.instance is None and club.players.filter(handle=handle).exists():
            raise serializers.ValidationError(
                _("this club already has a player with this handle")
            )
        return handle


class SignInSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=4096, trim_whitespace=False)
    name = serializers.CharField(
        max_length=100, required=False, default="", help_text="A name for the token (the app)."
    )


class AccessTokenSerializer(serializers.ModelSerializer[AccessToken]):
    class Meta:
        model = AccessToken
        fields = ["id", "name", "prefix", "created_at", "expires_at", "last_used_at"]
        read_only_fields = fields


class IssuedTokenSerializer(serializers.Serializer[Any]):
    """A token just issued: the key, shown this once."""

    token = serializers.CharField(source="key", help_text="Send as 'Authorization: Token <key>'.")
    id = serializers.IntegerField(source="token.id")
    name = serializers.CharField(source="token.name")
    expires_at = serializers.DateTimeField(source="token.expires_at")


class InvitationSerializer(serializers.ModelSerializer[Invitation]):
    club_name = serializers.CharField(source="club.name", read_only=True)
    invited_by = serializers.CharField(
        source="invited_by.username", read_only=True, allow_null=True, default=None
    )
    link_token = serializers.CharField(
        read_only=True,
        allow_null=True,
        default=None,
        help_text="A link invitation's secret, in the answer that creates it only.",
    )

    class Meta:
        model = Invitation
        fields = [
            "id", "club", "club_name", "role", "username", "invited_by", "status",
            "created_at", "expires_at", "link_token",
        ]  # fmt: skip
        read_only_fields = fields


class InvitationCreateSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(
        max_length=150,
        required=False,
        allow_null=True,
        help_text="The user name to invite; leave it out for a link any one user may redeem.",
    )
    role = serializers.ChoiceField(choices=Membership.Role.choices, default="member")


class LinkRedeemSerializer(serializers.Serializer[Any]):
    token = serializers.CharField(max_length=100, help_text="The invitation link's secret.")


class SeatSerializer(serializers.ModelSerializer[Seat]):
    handle = serializers.CharField(source="player.handle", read_only=True)

    class Meta:
        model = Seat
        fields = ["seat", "player", "handle"]


class MatchSerializer(serializers.ModelSerializer[Match]):
    """A match as listed: its status and who sat where, not the document."""

    uploaded_by = serializers.CharField(
        source="uploaded_by.username", read_only=True, allow_null=True, default=None
    )
    seats = SeatSerializer(many=True, read_only=True)

    class Meta:
        model = Match
        fields = [
            "id",
            "club",
            "status",
            "source_match_id",
            "content_sha256",
            "ruleset_name",
            "played_at",
            "uploaded_at",
            "uploaded_by",
            "attempts",
            "last_error",
            "seats",
        ]
        read_only_fields = fields


def stored_match_data(match: Match) -> dict[str, Any]:
    """``MatchSerializer(match).data`` of a match just stored with its seats (prefetched,
    players attached), built by hand: DRF would build the two serializers' fields from the
    models' metadata again for each upload. tests/records/test_api.py holds the two equal."""
    uploaded_by = match.uploaded_by
    return {
        "id": match.pk,
        "club": match.club_id,
        "status": match.status,
        "source_match_id": match.source_match_id,
        "content_sha256": match.content_sha256,
        "ruleset_name": match.ruleset_name,
        "played_at": iso(match.played_at),
        "uploaded_at": iso(match.uploaded_at),
        "uploaded_by": None if uploaded_by is None else uploaded_by.username,
        "attempts": match.attempts,
        "last_error": match.last_error,
        "seats": [{"seat": s.seat, "player": s.player_id, "handle": s.player.handle}
                  for s in match.seats.all()],
    }


def iso(value: datetime | None) -> str | None:
    """DRF's DateTimeField output: ISO 8601 in the current time zone, UTC as ``Z``."""
    if value is None:
        return None
    text = timezone.localtime(value).isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


class UploadFileSerializer(serializers.Serializer[Any]):
    """A multipart upload: the document as a ``.json`` file."""

    file = serializers.FileField(help_text="The match document, UTF-8 JSON (docs/format.md).")


class ErrorItemSerializer(serializers.Serializer[Any]):
    path = serializers.CharField(help_text="JSON path of the problem, e.g. $.rounds[0].dealer")
    message = serializers.CharField()
    code = serializers.CharField(
        required=False, help_text="The engine's stable code, e.g. duplicate_key or schema"
    )


class DocumentErrorSerializer(serializers.Serializer[Any]):
    """The problem shape: the body of every 4xx and 5xx answer of the API."""

    type = serializers.CharField(
        help_text="A stable code: invalid_json, invalid_document, invalid_request, "
        "parse_error, conflict, not_authenticated, authentication_failed, "
        "permission_denied, not_found, method_not_allowed, not_acceptable, "
        "unsupported_media_type, payload_too_large, throttled, server_error, …"
    )
    detail = serializers.CharField(help_text="What went wrong, in a sentence.")
    # DRF's metaclass moves declared fields out of the class, so this does not hide .errors
    errors = ErrorItemSerializer(many=True)  # type: ignore[assignment]
    limit = serializers.IntegerField(required=False, help_text="The size limit, in bytes.")
    match = serializers.IntegerField(
        required=False, help_text="conflict: the id of the match that holds this match_id."
    )
    retry_after = serializers.IntegerField(
        required=False, help_text="throttled: seconds to wait (also the Retry-After header)."
    )
    formats = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="not_acceptable for an unknown ?format=: the formats the endpoint has.",
    )
