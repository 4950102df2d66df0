"""API shapes of the records."""
# ruff: noqa: RUF012  (Django and DRF declare options as mutable class attributes)

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from rest_framework import serializers

from records.models import Club, Match, Membership, Player, Seat

User = get_user_model()


class ClubSerializer(serializers.ModelSerializer[Club]):
    match_count = serializers.IntegerField(read_only=True, default=0)

    class Meta:
        model = Club
        fields = ["id", "name", "created_at", "match_count"]
        read_only_fields = ["id", "created_at", "match_count"]


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
            raise serializers.ValidationError("not a member of this club")
        return user

    def validate_handle(self, handle: str) -> str:
        if self.instance is not None and handle != self.instance.handle:
            raise serializers.ValidationError("a handle is what the documents say; it is fixed")
        club = self.context["club"]
        if self.instance is None and club.players.filter(handle=handle).exists():
            raise serializers.ValidationError("this club already has a player with this handle")
        return handle


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


class UploadFileSerializer(serializers.Serializer[Any]):
    """A multipart upload: the document as a ``.json`` file."""

    file = serializers.FileField(help_text="The match document, UTF-8 JSON (FORMAT.md).")


class ErrorItemSerializer(serializers.Serializer[Any]):
    path = serializers.CharField(help_text="JSON path of the problem, e.g. $.rounds[0].dealer")
    message = serializers.CharField()
    code = serializers.CharField(
        required=False, help_text="The engine's stable code, e.g. duplicate_key or schema"
    )


class DocumentErrorSerializer(serializers.Serializer[Any]):
    type = serializers.CharField(help_text="invalid_json, invalid_document or payload_too_large")
    detail = serializers.CharField()
    # DRF's metaclass moves declared fields out of the class, so this does not hide .errors
    errors = ErrorItemSerializer(many=True, required=False)  # type: ignore[assignment]
    limit = serializers.IntegerField(required=False, help_text="The size limit, in bytes.")
