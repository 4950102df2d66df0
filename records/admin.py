# ruff: noqa: RUF012  (Django and DRF declare options as mutable class attributes)
from django.contrib import admin

from records.models import AccessToken, Club, Invitation, Match, Membership, Player, Round, Seat


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "created_at"]
    search_fields = ["name"]
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["club", "user", "role"]
    list_filter = ["role"]
    search_fields = ["club__name", "user__username"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["handle", "club", "user"]
    search_fields = ["handle", "club__name"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    readonly_fields = ["seat", "player"]
    can_delete = False


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    readonly_fields = ["index", "dealer", "event_count"]
    can_delete = False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["pk", "club", "status", "ruleset_name", "played_at", "uploaded_at", "attempts"]
    list_filter = ["status", "ruleset_name"]
    search_fields = ["source_match_id", "content_sha256"]
    exclude = ["raw", "stored_ruleset"]  # shown read: the document and the ruleset
    readonly_fields = [
        "club", "uploaded_by", "document", "raw_sha256", "content_sha256", "source_match_id",
        "ruleset", "ruleset_name", "played_at", "uploaded_at", "status_changed_at",
    ]  # fmt: skip
    inlines = [SeatInline, RoundInline]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["club", "username", "role", "status", "created_at", "expires_at"]
    list_filter = ["status", "role"]
    search_fields = ["club__name", "username"]
    readonly_fields = ["link_sha256"]


@admin.register(AccessToken)
class AccessTokenAdmin(admin.ModelAdmin):
    list_display = ["user", "name", "prefix", "created_at", "expires_at", "last_used_at"]
    search_fields = ["user__username", "name", "prefix"]
    readonly_fields = ["key_sha256", "prefix"]
