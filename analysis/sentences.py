"""The engine's sentences in the page language: payments, fan breakdowns, violations and
schema errors, rendered from codes and parameters, never from the engine's English text.

Payments and breakdowns: the templates are the engine's own (``xuezhan/sentences.py``, one
table for the command line and the site); this module renders them through the catalogue,
names the players, and writes tiles as players read them in Chinese (``6条``, not ``6s``).
In English a payment reads exactly as the engine's ``describe`` without its lead
(tests/analysis/test_sentences.py holds the two to each other over simulated matches).

Violations (the log verifier's and the score sheet's): a sentence per code from the facts the
violation carries — the player by name, rounds counted from 1 as everywhere on the site.
Schema errors are worded by records/wording.py (uploads are the records' business).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import get_language, gettext_lazy, pgettext
from django.utils.translation import gettext as _

from analysis.labels import label, tile_text
from analysis.models import Payment
from records.wording import schema_text, where
from xuezhan import sentences as engine
from xuezhan.schema import SchemaIssue
from xuezhan.sheet import schema_issues as sheet_schema_issues

Seat = Callable[[int], str]


def _same(text: str) -> str:
    return text


def _not_a_win(reason: str) -> str:
    template = engine.NOT_A_WIN.get(reason)
    return _(template) if template else reason


def words(seat: Seat) -> engine.Words:
    """The engine's :class:`~xuezhan.sentences.Words` of the page language: its catalogue,
    ``seat`` for the players' names, Chinese tiles in Chinese."""
    chinese = (get_language() or "").startswith("zh")
    return engine.Words(translate=_, seat=seat, tile=tile_text if chinese else _same,
                        not_a_win=_not_a_win)


def _player(n: int) -> str:
    return _("player %(n)d") % {"n": n + 1}


def sentence(reason: str, params: Mapping[str, Any], seat: Seat) -> str:
    """The payment's sentence in the active language (without the reason's name, which the
    page shows as its label).

    :raises KeyError, TypeError, ValueError: for a reason or params this module does not
        know (a row of another engine version): the caller shows the stored line instead.
    """
    return engine.sentence(reason, params, words(seat))


def breakdown(parts: Mapping[str, Any]) -> str:
    """A score's breakdown in the active language: ``清一色 2 = 2 番 → 4 × 底分``."""
    return engine.breakdown(parts, words(_player))


def line_sentence(payment: Payment, names: Mapping[int, str]) -> str:
    """A settlement line in the page language, through the catalogue in every language,
    naming the players (never a seat number). A row this module cannot render (written
    before payments carried params, or by another engine version) shows the engine's
    stored English line."""
    if not payment.params:
        return payment.detail
    try:
        return sentence(payment.reason, payment.params, lambda n: names.get(n) or _player(n))
    except (KeyError, TypeError, ValueError):
        return payment.detail


# -- violations -----------------------------------------------------------------------

#: a violation as a sentence, from its code and the facts it carries: the player (its seat,
#: by name) and the first tile its English message names. Codes of the log verifier
#: (xuezhan.replay.CODES) and of score sheets (xuezhan.sheet.CODES); a code missing here, or
#: a fact missing from a violation, shows the code's name instead.
VIOLATION_SENTENCES: dict[str, Promise] = {
    "bad_deal": gettext_lazy("%(player)s was dealt the wrong number of tiles."),
    "fifth_copy": gettext_lazy("%(tile)s appears more than four times."),
    "exchange_mixed_suits": gettext_lazy("%(player)s passes tiles of more than one suit."),
    "exchange_receive_mismatch": gettext_lazy(
        "%(player)s records receiving tiles the die does not give."),
    "event_after_end": gettext_lazy("%(player)s acts after the round has ended."),
    "action_by_winner": gettext_lazy("%(player)s acts after having won."),
    "draw_out_of_turn": gettext_lazy("%(player)s draws out of turn."),
    "draw_not_wall_tile": gettext_lazy(
        "%(player)s draws %(tile)s, which is not the wall's next tile."),
    "draw_from_empty_wall": gettext_lazy("%(player)s draws from an empty wall."),
    "discard_out_of_turn": gettext_lazy("%(player)s discards out of turn."),
    "tile_not_in_hand": gettext_lazy("%(player)s plays %(tile)s without holding it."),
    "void_first": gettext_lazy(
        "%(player)s discards %(tile)s while still holding the void suit."),
    "claim_not_last_discard": gettext_lazy(
        "%(player)s claims %(tile)s, which is not the last discard."),
    "claim_own_discard": gettext_lazy("%(player)s claims their own discard."),
    "claim_on_won_discard": gettext_lazy("%(player)s claims %(tile)s, which was already won."),
    "claim_void_tile": gettext_lazy("%(player)s claims %(tile)s of their void suit."),
    "claim_after_wall_empty": gettext_lazy(
        "%(player)s claims the last discard, which can only be won."),
    "kong_out_of_turn": gettext_lazy("%(player)s declares a kong out of turn."),
    "kong_with_empty_wall": gettext_lazy("%(player)s declares a kong with the wall empty."),
    "kong_without_peng": gettext_lazy(
        "%(player)s adds %(tile)s to a kong without a pung of it."),
    "kong_after_peng": gettext_lazy("%(player)s declares a kong straight after a pung."),
    "win_out_of_turn": gettext_lazy("%(player)s declares a win out of turn."),
    "win_wrong_tile": gettext_lazy(
        "%(player)s wins on %(tile)s, which is not the tile in play."),
    "win_not_winning_hand": gettext_lazy("%(player)s declares a win without a winning hand."),
    "win_with_void_suit": gettext_lazy(
        "%(player)s declares a win while holding the void suit."),
    "win_below_min_fan": gettext_lazy("%(player)s declares a win below the minimum fan."),
    "passed_win": gettext_lazy(
        "%(player)s wins on a discard after passing a win since their last draw."),
    "last_four_not_won": gettext_lazy(
        "%(player)s does not take a win the last four tiles require."),
    "result_mismatch": gettext_lazy(
        "The recorded result of %(player)s differs from the replay."),
    "result_payment_mismatch": gettext_lazy(
        "A recorded payment of %(player)s differs from the settlement."),
    "wrong_dealer": gettext_lazy(
        "Round %(round)s is dealt by %(player)s, not by the dealer the round before names."),
    "result_on_incomplete_round": gettext_lazy(
        "Round %(round)s records a result although it did not end."),
    "too_many_violations": gettext_lazy(
        "Round %(round)s has so many faults that the replay stopped."),
    # score sheets
    "too_many_winners": gettext_lazy(
        "%(player)s wins a fourth time in round %(round)s, which ended at the third win."),
    "winner_acts_again": gettext_lazy("%(player)s has already won this round."),
    "act_on_own_discard": gettext_lazy("%(player)s cannot take from themselves."),
    "unknown_pattern": gettext_lazy(
        "%(player)s's win names a pattern this ruleset does not have."),
    "unknown_add_on": gettext_lazy(
        "%(player)s's win names an add-on this ruleset does not have."),
    "implied_add_on": gettext_lazy(
        "%(player)s's win lists an add-on its flags already give: leave it out."),
    "fan_mismatch": gettext_lazy(
        "The fan of %(player)s's win is not what its pattern and add-ons make."),
    "below_min_fan": gettext_lazy("%(player)s's win is below the ruleset's minimum fan."),
    "no_such_kong": gettext_lazy("%(player)s declared no kong before this win."),
    "bad_group": gettext_lazy(
        "%(player)s's win is marked as on the same discard as the win before, which it is "
        "not."),
    "draw_check_not_drawn": gettext_lazy(
        "Ready players and flower pigs are listed only for a drawn round."),
    "draw_check_of_winner": gettext_lazy(
        "%(player)s has already won, so is not checked at the draw."),
    "not_a_draw": gettext_lazy(
        "Round %(round)s is marked as drawn, but fewer than two players were still in."),
    "totals_mismatch": gettext_lazy(
        "The totals written on the sheet differ from the settlement."),
}

_TILE = re.compile(r"\b([1-9][mps])\b")


def violation_sentence(code: str, message: str, player: str | None,
                       round_index: int | None = None) -> str:
    """A violation in the page language (the English ``message`` is read for its tile only);
    without a sentence for the code, or the facts it needs, the code's name."""
    template = VIOLATION_SENTENCES.get(code)
    if template is None:
        return label("violation", code)
    found = _TILE.search(message or "")
    facts = {"player": player, "tile": tile_text(found[1]) if found else None,
             "round": None if round_index is None else round_index + 1}
    text = str(template)
    if any(f"%({key})s" in text and value is None for key, value in facts.items()):
        return label("violation", code)
    return text % facts


def engine_detail(english: str, sentence: str) -> str:
    """The engine's English message as a violation's detail on an English page; on a page in
    another language the sentence again (no English sentence of the engine reaches it)."""
    return english if (get_language() or "en").startswith("en") else sentence


def report_violations(violations: list[dict[str, Any]], names: list[str],
                      schema: Sequence[SchemaIssue] = ()) -> list[dict[str, Any]]:
    """A report's violations (``Violation.to_json``) for a page or the site's API, in the page
    language: each keeps its locators and ``code``, and gains ``label`` (the code's name),
    ``where`` (round and event counted from 1, the player by name) and ``message`` (the
    sentence, which replaces the engine's English). ``schema``: the document's schema issues,
    which word the ``schema`` violations (one each, in the same order)."""
    issues = iter(schema)
    out = []
    for v in violations:
        seat, round_index, event = v.get("seat"), v.get("round"), v.get("event")
        player = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else None
        if v["code"] == "schema":
            issue = next(issues, None)
            text = (f"{where(issue.path)}{pgettext('before a detail', ': ')}{schema_text(issue)}"
                    if issue is not None
                    else label("violation", "schema"))
        else:
            text = violation_sentence(v["code"], v.get("message", ""), player, round_index)
        parts = []
        if round_index is not None:
            parts.append(_("round %(number)s") % {"number": round_index + 1})
        if event is not None:
            parts.append(_("event %(number)s") % {"number": event + 1})
        if player is not None:
            parts.append(player)
        out.append({**v, "label": label("violation", v["code"]),
                    "where": _(" · ").join(parts), "message": text})
    return out


def sheet_report(report: dict[str, Any], doc: object) -> dict[str, Any]:
    """A score sheet's report (``settle_sheet(...).to_dict()``) in the page language for the site:
    its violations worded (:func:`report_violations`), each payment's ``detail`` the sentence
    of the page, and the players as the sheet names them."""
    players = doc.get("players") if isinstance(doc, dict) else None
    names = ([str(p) for p in players] if isinstance(players, list) and len(players) == 4
             else [_player(n) for n in range(4)])
    schema = (sheet_schema_issues(doc)
              if any(v["code"] == "schema" for v in report["violations"]) else [])
    rounds = [{**r, "payments": [{**p, "detail": _payment_text(p, names)}
                                 for p in r.get("payments", [])]}
              for r in report.get("rounds", [])]
    return {**report, "violations": report_violations(report["violations"], names, schema),
            "rounds": rounds}


def _payment_text(payment: Mapping[str, Any], names: list[str]) -> str:
    try:
        return sentence(payment["reason"], payment["params"], lambda n: names[n])
    except (KeyError, TypeError, ValueError, IndexError):
        return str(payment.get("detail", ""))
