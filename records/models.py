"""What was uploaded: facts as the clubs recorded them, never derived numbers."""
# ruff: noqa: RUF012  (Django and DRF declare options as mutable class attributes)

from __future__ import annotations

import hashlib
import json
import zoneinfo
from functools import cache, lru_cache
from typing import Any

import orjson
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from records.fields import CompressedBinaryField
from xuezhan.reader import read_document

#: where the players live unless a club says otherwise (Chengdu keeps China's time, UTC+8)
DEFAULT_TIME_ZONE = "Asia/Shanghai"


def validate_time_zone(value: str) -> None:
    """An IANA time zone name that this machine's zone database knows."""
    if value not in available_time_zones():
        raise ValidationError(_("an IANA time zone name, e.g. Asia/Shanghai"), code="invalid")


@cache
def available_time_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


class Club(models.Model):
    """A club: the unit of membership; every match belongs to one."""

    name = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)
    #: the zone every date of the club is shown, filtered and entered in (times are stored
    #: in UTC; the API speaks ISO 8601 with offsets)
    time_zone = models.CharField(
        max_length=64, default=DEFAULT_TIME_ZONE, validators=[validate_time_zone]
    )

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        return zoneinfo.ZoneInfo(self.time_zone)


class Membership(models.Model):
    """A user's role in a club. Roles are ordered: owner > admin > member."""

    class Role(models.TextChoices):
        OWNER = "owner", "Owner"
        ADMIN = "admin", "Admin"
        MEMBER = "member", "Member"

    RANK = {Role.MEMBER: 1, Role.ADMIN: 2, Role.OWNER: 3}

    # no index of its own: an index or key of Meta leads with it
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="memberships", db_index=False
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_unique_user"),
            models.CheckConstraint(
                condition=Q(role__in=["owner", "admin", "member"]), name="membership_role_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.role})"

    def has_role(self, role: str) -> bool:
        """At least ``role``: an owner is also an admin and a member."""
        return self.RANK[Membership.Role(self.role)] >= self.RANK[Membership.Role(role)]


class Player(models.Model):
    """A club-local handle as it appears in the documents, optionally linked to a user."""

    # no index of its own: an index or key of Meta leads with it
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="players", db_index=False
    )
    handle = models.CharField(max_length=64)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club_id", "handle"]
        constraints = [
            models.UniqueConstraint(fields=["club", "handle"], name="player_unique_handle"),
            models.UniqueConstraint(
                fields=["club", "user"], condition=Q(user__isnull=False), name="player_unique_user"
            ),
            models.CheckConstraint(condition=~Q(handle=""), name="player_handle_not_empty"),
        ]

    def __str__(self) -> str:
        return self.handle


def ruleset_key(ruleset: Any) -> str:
    """A short stored key of a resolved ruleset: equal rulesets, equal keys (whatever the
    order of their options), so that matching a ruleset is an indexed equality."""
    text = json.dumps(ruleset, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class Ruleset(models.Model):
    """A resolved ruleset, stored once for every match and verification played under it (a
    club plays a handful: docs/scaling.md, "Storage"). Named by its content, so a row never
    changes; never deleted while a row refers to it."""

    key = models.CharField(max_length=16, primary_key=True, help_text="ruleset_key(rules)")
    rules = models.JSONField(help_text="The resolved ruleset: every option.")

    def __str__(self) -> str:
        return f"ruleset {self.key}"


def store_ruleset(rules: Any) -> str:
    """The key of ``rules``' row, written if it is new (:func:`_insert_new`)."""
    key = ruleset_key(rules)
    _insert_new({key: rules})
    return key


def store_rulesets(rulesets: list[Any]) -> list[str | None]:
    """The keys of these rulesets (None for None), their rows written where new."""
    keys = [None if rules is None else ruleset_key(rules) for rules in rulesets]
    _insert_new({key: rules for key, rules in zip(keys, rulesets, strict=True) if key})
    return keys


def _insert_new(rulesets: dict[str, Any]) -> None:
    """Write the rows of these rulesets (by key) that are not there, in the caller's
    transaction. Safe beside concurrent writers of the same rulesets: one ``INSERT … ON
    CONFLICT DO NOTHING`` (a second writer of a new row waits for the first's transaction,
    then finds the row), its rows in key order (writers wait on each other's new rows in
    one order, never in a circle)."""
    Ruleset.objects.bulk_create(
        [Ruleset(key=key, rules=rulesets[key]) for key in sorted(rulesets)],
        ignore_conflicts=True,
    )


def ruleset_rules(key: str | None) -> Any:
    """The rules of the ruleset ``key`` (None for none), a copy of their own for the
    caller: read from the database once per process, as a row never changes."""
    return None if key is None else orjson.loads(_ruleset_text(key))


@lru_cache(maxsize=1024)
def _ruleset_text(key: str) -> bytes:
    return orjson.dumps(Ruleset.objects.values_list("rules", flat=True).get(pk=key))


def referred_rules(instance: models.Model, name: str) -> Any:
    """The rules of an instance's ruleset reference ``name``: those ``select_related``
    read with it if it did, else :func:`ruleset_rules`."""
    loaded = instance._state.fields_cache.get(name)
    if loaded is not None:
        return loaded.rules
    return ruleset_rules(getattr(instance, f"{name}_id"))


def document_of(raw: bytes | memoryview) -> Any:
    """A stored upload's document: its bytes read as the upload read them (strict JSON)."""
    return read_document(bytes(raw), max_depth=settings.UPLOAD_MAX_DEPTH)


class Match(models.Model):
    """One uploaded document: the bytes kept verbatim (the parsed form is read from them), its
    state of verification.

    Status moves ``queued → verifying → verified | illegal | failed``; ``verified`` and
    ``illegal`` are the engine's verdicts, ``failed`` means the engine could not run.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        VERIFYING = "verifying", "Verifying"
        VERIFIED = "verified", "Verified"
        ILLEGAL = "illegal", "Illegal"
        FAILED = "failed", "Failed"

    TERMINAL = (Status.VERIFIED, Status.ILLEGAL, Status.FAILED)
    PENDING = (Status.QUEUED, Status.VERIFYING)

    # no index of its own: an index or key of Meta leads with it
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="matches", db_index=False
    )
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="uploaded_matches",
    )
    # compressed (zstd), and the only copy of the document: the parsed form is read from it
    # (:attr:`document`); the two were ~70 % of the database (docs/scaling.md, "Storage")
    raw = CompressedBinaryField(help_text="The uploaded bytes, verbatim.")
    raw_sha256 = models.CharField(max_length=64)
    content_sha256 = models.CharField(
        max_length=64, help_text="SHA-256 of the canonical form (sorted keys, compact, UTF-8)."
    )
    source_match_id = models.CharField(
        max_length=128, null=True, blank=True, help_text="The source's own match_id."
    )
    # a reference, not the rules: they were ~1.7 KB of jsonb a match, the same in nearly
    # every match of a club (read as :attr:`ruleset`). No index: rulesets are never
    # deleted, and every filter by it names the club's matches first
    stored_ruleset = models.ForeignKey(
        Ruleset, on_delete=models.PROTECT, related_name="+", db_index=False,
        help_text="The resolved ruleset: every option.",
    )
    ruleset_name = models.CharField(max_length=64, help_text="The preset the ruleset builds on.")
    played_at = models.DateTimeField(null=True, blank=True)
    uploaded_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    status_changed_at = models.DateTimeField(auto_now_add=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True, default="")
    # While ``verifying``: the worker's task (``lease_owner``) has the match until
    # ``lease_until``; past it, the match may be claimed again (docs/deploy.md, recovery).
    lease_until = models.DateTimeField(null=True, blank=True)
    lease_owner = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        ordering = ["-uploaded_at", "-id"]
        verbose_name_plural = "matches"
        constraints = [
            models.UniqueConstraint(
                fields=["club", "content_sha256"], name="match_unique_content_per_club"
            ),
            models.UniqueConstraint(
                fields=["club", "source_match_id"],
                condition=Q(source_match_id__isnull=False),
                name="match_unique_source_id_per_club",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["queued", "verifying", "verified", "illegal", "failed"]),
                name="match_status_valid",
            ),
        ]
        indexes = [
            models.Index(fields=["club", "played_at"], name="match_club_played"),
            # the match list, newest first, a page at a time (records.selectors.club_matches),
            # and its ruleset filter's names (club_rulesets): O(a page) at any size
            models.Index(fields=["club", "-uploaded_at", "-id"], name="match_club_uploaded"),
            models.Index(fields=["club", "ruleset_name"], name="match_club_ruleset"),
            models.Index(fields=["status", "status_changed_at"], name="match_status_changed"),
            # the queue in order, for a verification taking more matches into its batch
            # (analysis.leases.claim_batch): O(the batch), however long the history
            models.Index(fields=["id"], condition=Q(status="queued"), name="match_queued"),
        ]

    def __str__(self) -> str:
        return f"match {self.pk} ({self.status})"

    @property
    def is_terminal(self) -> bool:
        return self.status in self.TERMINAL

    @property
    def ruleset(self) -> Any:
        """The resolved ruleset: every option (stored once, :class:`Ruleset`)."""
        return referred_rules(self, "stored_ruleset")

    @property
    def document(self) -> Any:
        """The parsed document: the uploaded bytes read as the upload read them (strict JSON,
        ``xuezhan.reader``), once per value of :attr:`raw`."""
        raw = self.raw
        known = self.__dict__.get("_document")
        if known is None or known[0] is not raw:
            known = self.remember_document(document_of(raw))
        return known[1]

    def remember_document(self, document: Any) -> tuple[Any, Any]:
        """Take ``document`` as what :attr:`raw` reads as (the upload has just read it)."""
        known = self.__dict__["_document"] = (self.raw, document)
        return known


class Round(models.Model):
    """One round of a match, as recorded (index counts from 0 in document order)."""

    # no index of its own: round_unique_index leads with it
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="rounds", db_index=False
    )
    index = models.PositiveSmallIntegerField()
    dealer = models.PositiveSmallIntegerField()
    event_count = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["match_id", "index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="round_unique_index"),
            models.CheckConstraint(condition=Q(dealer__lte=3), name="round_dealer_is_seat"),
        ]

    def __str__(self) -> str:
        return f"round {self.index} of match {self.match_id}"


class Seat(models.Model):
    """Which player sat where in a match (seat 0–3 in turn order, fixed for the match)."""

    # no index of its own: seat_unique_seat leads with it
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats", db_index=False)
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="seats")

    class Meta:
        ordering = ["match_id", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="seat_unique_seat"),
            models.UniqueConstraint(fields=["match", "player"], name="seat_unique_player"),
            models.CheckConstraint(condition=Q(seat__lte=3), name="seat_in_range"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at seat {self.seat} of match {self.match_id}"


class AccessToken(models.Model):
    """An API token of a user: one per app or device, listed, revoked, and expiring.

    Only the SHA-256 of the key is stored; the key itself is shown once, when issued.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="access_tokens"
    )
    name = models.CharField(max_length=100, blank=True, default="")
    key_sha256 = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=8, help_text="The key's first characters, to tell it.")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["user_id", "-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.prefix}… of {self.user}"


class Invitation(models.Model):
    """An offer of a club role, which takes effect only when the invited user accepts it.

    Addressed to a user name (whether or not that user exists: the inviter is never told),
    or a link whose secret token any one signed-in user may redeem (only its SHA-256 is
    stored).
    """

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        REVOKED = "revoked", "Revoked"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(
        max_length=10, choices=Membership.Role.choices, default=Membership.Role.MEMBER
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    username = models.CharField(
        max_length=150, null=True, blank=True, help_text="The invited user name (or a link)."
    )
    link_sha256 = models.CharField(max_length=64, null=True, blank=True, unique=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    responded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    responded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["club_id", "-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(username__isnull=True) ^ Q(link_sha256__isnull=True),
                name="invitation_name_or_link",
            ),
            models.CheckConstraint(
                condition=Q(role__in=["owner", "admin", "member"]), name="invitation_role_valid"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["pending", "accepted", "declined", "revoked"]),
                name="invitation_status_valid",
            ),
        ]
        indexes = [models.Index(fields=["username", "status"], name="invitation_username")]

    def __str__(self) -> str:
        return f"invitation to {self.club} as {self.role} ({self.status})"


class WebhookEndpoint(models.Model):
    """An app's URL that the club's events are sent to (records/webhooks, docs/apps.md).

    Deliveries are signed with ``secret`` (Standard Webhooks: ``whsec_`` and base64); after a
    rotation the previous secret signs too, until ``previous_secret_until``. An endpoint that
    has failed without a success for WEBHOOK_DISABLE_AFTER_SECONDS is disabled
    (``disabled_reason`` says why) and the club's admins are told on its pages.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=2000)
    events = models.JSONField(help_text="The event types sent (records.webhooks.events).")
    description = models.CharField(max_length=200, blank=True, default="")
    enabled = models.BooleanField(default=True)
    secret = models.CharField(max_length=100)
    previous_secret = models.CharField(max_length=100, blank=True, default="")
    previous_secret_until = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    #: the first failure since the last success (None: the last delivery succeeded)
    failing_since = models.DateTimeField(null=True, blank=True)
    disabled_reason = models.CharField(max_length=200, blank=True, default="")

    class Meta:
        ordering = ["club_id", "id"]

    def __str__(self) -> str:
        return f"webhook {self.pk} of {self.club_id}: {self.url}"


class WebhookDelivery(models.Model):
    """One event sent to one endpoint: a message (``message_id`` is the ``webhook-id``, the
    same on every attempt), tried until it is delivered or given up on."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        DELIVERED = "delivered", "Delivered"
        FAILED = "failed", "Failed"

    endpoint = models.ForeignKey(
        WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries"
    )
    event = models.CharField(max_length=64)
    message_id = models.CharField(max_length=64, unique=True)
    body = models.TextField(help_text="The JSON body, the same bytes on every attempt.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempt_count = models.PositiveIntegerField(default=0)
    #: pending: when to try next (a worker holding it moves this forward: its lease)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "webhook deliveries"
        indexes = [
            models.Index(
                fields=["next_attempt_at"], condition=Q(status="pending"), name="webhook_due"
            )
        ]

    def __str__(self) -> str:
        return f"{self.event} {self.message_id} ({self.status})"


class WebhookAttempt(models.Model):
    """One try of a delivery: what the endpoint answered, or why nothing was."""

    # no index of its own: webhookattempt_unique leads with it
    delivery = models.ForeignKey(
        WebhookDelivery, on_delete=models.CASCADE, related_name="attempts", db_index=False
    )
    number = models.PositiveIntegerField()
    at = models.DateTimeField()
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    latency_ms = models.PositiveIntegerField(default=0)
    error = models.CharField(max_length=200, blank=True, default="")
    response = models.TextField(blank=True, default="", help_text="The answer's start.")
    by_hand = models.BooleanField(default=False, help_text="Sent again by an admin.")

    class Meta:
        ordering = ["-at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["delivery", "number"], name="webhookattempt_unique")
        ]

    @property
    def succeeded(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


class IdempotencyKey(models.Model):
    """An ``Idempotency-Key`` a user sent with a POST, and the first answer to it: the same
    key and body get that answer again; another body, 422 (records/idempotency.py). Kept
    IDEMPOTENCY_TTL_SECONDS (24 h)."""

    # no index of its own: idempotencykey_unique leads with it
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    key = models.CharField(max_length=255)
    #: the method and path the key was used on, and the SHA-256 of the body
    scope = models.CharField(max_length=300)
    fingerprint = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    response = models.BinaryField(null=True, blank=True)
    content_type = models.CharField(max_length=100, blank=True, default="")
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotencykey_unique")
        ]
        indexes = [models.Index(fields=["created_at"], name="idempotencykey_created")]
class UserSettings(models.Model):
    """A user's own choices for the pages: the time zone they read and enter times in
    (empty: each club's own; the pages outside a club then use ``DEFAULT_TIME_ZONE``)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="page_settings"
    )
    time_zone = models.CharField(max_length=64, blank=True, validators=[validate_time_zone])

    def __str__(self) -> str:
        return f"{self.user_id}: {self.time_zone or '-'}"
