# ruff: noqa: RUF012  (Django and DRF declare options as mutable class attributes)
from django.contrib import admin

from analysis.models import RoundSettlement, Verification, Violation


class ViolationInline(admin.TabularInline):
    model = Violation
    extra = 0
    can_delete = False


@admin.register(Verification)
class VerificationAdmin(admin.ModelAdmin):
    list_display = ["match", "legal", "engine_version", "verified_at"]
    list_filter = ["legal", "engine_version"]
    exclude = ["stored_ruleset"]  # shown read, as its rules
    readonly_fields = ["ruleset", "review"]  # derived: the verification rewrites them
    inlines = [ViolationInline]


@admin.register(RoundSettlement)
class RoundSettlementAdmin(admin.ModelAdmin):
    list_display = ["round", "incomplete", "next_dealer"]
    exclude = ["lines"]  # packed: shown line by line instead
    readonly_fields = ["payment_lines"]

    @admin.display(description="payment lines")
    def payment_lines(self, settlement: RoundSettlement) -> str:
        return "\n".join(f"{p.ordinal}: {p} — {p.detail}" for p in settlement.payments)


# SeatResult is not here: Django 5.2's admin refuses a model keyed by (round, seat) (its
# composite primary key); the seat facts are the API's and the match page's
