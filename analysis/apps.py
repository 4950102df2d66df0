from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    """What we computed from the records: verifications, settlements, per-seat facts."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "analysis"

    def ready(self) -> None:
        from django.db.models.signals import post_delete, pre_delete, pre_save

        from analysis import books
        from analysis.events import announce_verdicts
        from analysis.league import signals as league
        from analysis.league.events import (
            announce_correction,
            announce_night_closed,
            announce_settle_up,
            announce_standings,
        )
        from analysis.league.tasks import (
            attach_after_verdicts,
            rate_after_verdicts,
            rate_again_after_delete,
        )
        from analysis.services import follow_zone_change
        from analysis.signals import verdict_stored
        from analysis.stats.aggregates import forget_match
        from analysis.tasks import queue_review, queue_verification
        from records.models import Club, Match
        from records.signals import match_needs_verifying

        match_needs_verifying.connect(queue_verification, dispatch_uid="analysis.verify")
        # a club's statistics' and books' days are its zone's: a new zone sums them again
        pre_save.connect(follow_zone_change, sender=Club, dispatch_uid="analysis.zone")
        verdict_stored.connect(queue_review, dispatch_uid="analysis.review")
        # the club books follow the verdicts (the verification does not call them)
        verdict_stored.connect(rate_after_verdicts, dispatch_uid="analysis.league.rate")
        verdict_stored.connect(attach_after_verdicts, dispatch_uid="analysis.league.nights")
        # apps are told through webhooks (records/webhooks): receivers, never the core
        verdict_stored.connect(announce_verdicts, dispatch_uid="analysis.events.verdicts")
        verdict_stored.connect(announce_standings, dispatch_uid="analysis.events.standings")
        league.counted_matches_changed.connect(
            announce_standings, dispatch_uid="analysis.events.standings.counted"
        )
        league.match_corrected.connect(announce_correction, dispatch_uid="analysis.events.fix")
        league.settle_up_recorded.connect(announce_settle_up, dispatch_uid="analysis.events.paid")
        league.night_closed.connect(announce_night_closed, dispatch_uid="analysis.events.night")
        # however a match goes (API, page, admin), the ratings that counted it are redone
        post_delete.connect(rate_again_after_delete, sender=Match, dispatch_uid="analysis.rate")
        # and the materialised statistics stop counting it (analysis.stats.aggregates)
        pre_delete.connect(forget_match, sender=Match, dispatch_uid="analysis.stats.aggregates")
        # and the club's books too (analysis.books)
        pre_delete.connect(books.forget_match, sender=Match, dispatch_uid="analysis.books")
