# ruff: noqa: RUF012  (Django and DRF declare options as mutable class attributes)
from django.contrib import admin

from analysis.models import Payment, RoundSettlement, Verification, Violation


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


@admin.register(Payment)
class PaymentAdmin(admin.ModelAdmin):
    list_display = ["round", "ordinal", "payer", "payee", "amount", "reason"]
    list_filter = ["reason"]


# SeatResult is not here: Django 5.2's admin refuses a model keyed by (round, seat) (its
# composite primary key); the seat facts are the API's and the match page's
