"""Settlement sentences in the page language, from a payment's reason and params alone.

The engine words each payment in English (``xuezhan.settlement.describe``, documented
there reason by reason); this module says the same through gettext, so that the zh-Hans
catalogue gives the Chinese, tiles named as players read them (``6条``, not ``6s``). In
English it must say exactly what ``describe`` says:
tests/analysis/test_sentences.py checks that over simulated matches, so a change of the
engine's wording shows up here (and in the catalogue) instead of drifting apart.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from analysis.labels import tile_text
from analysis.models import Payment
from xuezhan.fan import add_on_text
from xuezhan.rules import PATTERN_NAMES

Seat = Callable[[int], str]

_KONGS = {
    "direct": gettext_lazy("direct kong (直杠)"),
    "added": gettext_lazy("added kong (补杠)"),
    "concealed": gettext_lazy("concealed kong (暗杠)"),
}


def _kong(kind: str) -> str:
    return str(_KONGS[kind])


def _tile(code: str) -> str:
    """``6s`` in English, as the engine writes it; ``6条`` in Chinese, as players read it."""
    return tile_text(code) if (get_language() or "").startswith("zh") else code


def _breakdown(parts: Mapping[str, Any]) -> str:
    shown = [f"{PATTERN_NAMES[p['name']]} {p['fan']}" for p in parts["patterns"]]
    shown += [add_on_text(a["name"], a["fan"], a["count"]) for a in parts["add_ons"]]
    text = _("%(parts)s = %(fan)s fan") % {"parts": " + ".join(shown), "fan": parts["fan"]}
    if parts["capped"]:
        text += _(" → capped at %(max)s") % {"max": parts["max_fan"]}
    if not parts.get("winning", True):
        text += _(": not a win (%(reason)s)") % {"reason": parts.get("reason")}
    return text


def _how(p: Mapping[str, Any]) -> str:
    """A win's value: ``清一色 2 = 2 fan → 4 × base 1 = 4``."""
    values = {"points": p["points"], "base": p["base"], "total": p["points"] * p["base"]}
    if p.get("score") and p["score"]["patterns"]:
        values["breakdown"] = _breakdown(p["score"])
    else:  # a hand-made record without a score: its own text, as the engine shows it
        text = (str(p["breakdown"]) if not p.get("score")
                else _("not a win: %(reason)s") % {"reason": p["score"].get("reason")})
        if text.endswith("× base"):
            return f"{text} {p['base']} = {values['total']}"
        values["breakdown"] = text
    return _("%(breakdown)s → %(points)s × base %(base)s = %(total)s") % values


def _kong_sentence(p: Mapping[str, Any], seat: Seat) -> str:
    kong = p["kong"]
    what = _("%(konger)s's %(kong)s of %(tile)s") % {
        "konger": seat(p["konger"]), "kong": _kong(kong["kind"]), "tile": _tile(kong["tile"])}
    values = {"payer": seat(p["payer"]), "what": what, "units": p["units"], "base": p["base"],
              "amount": p["amount"]}
    if kong["kind"] == "direct":
        return _("%(payer)s discarded the tile and pays %(what)s: "
                 "%(units)s × base %(base)s = %(amount)s.") % values
    return _("%(payer)s, still in the round, pays %(what)s: "
             "%(units)s × base %(base)s = %(amount)s.") % values


def _self_drawn(p: Mapping[str, Any], seat: Seat) -> str:
    bonus = p["self_draw_bonus"]
    extra = (_(" + 1 base (自摸加底) = %(total)s") % {"total": p["points"] * p["base"] + bonus}
             if bonus else "")
    return _("%(winner)s self-draws %(tile)s%(replacement)s; %(payer)s, still in the round, "
             "pays: %(how)s%(extra)s.") % {
        "winner": seat(p["winner"]), "tile": _tile(p["tile"]), "payer": seat(p["payer"]),
        "replacement": _(" on a kong replacement (杠上花)") if p["after_kong"] else "",
        "how": _how(p), "extra": extra}


def _discard(p: Mapping[str, Any], seat: Seat) -> str:
    values = {"winner": seat(p["winner"]), "payer": seat(p["payer"]), "tile": _tile(p["tile"]),
              "how": _how(p),
              "after": _(" right after their kong (杠上炮)") if p["kong_discard"] else ""}
    if p["dian_gang_hua"]:
        return _("%(winner)s wins on the replacement tile %(tile)s of a direct kong (点杠花); "
                 "%(payer)s discarded the kong tile and pays as for a discard: %(how)s.") % values
    return _("%(winner)s wins on %(payer)s's discard %(tile)s%(after)s; "
             "only the discarder pays: %(how)s.") % values


def _rob_kong(p: Mapping[str, Any], seat: Seat) -> str:
    return _("%(winner)s robs %(payer)s's added kong of %(tile)s (抢杠); "
             "the konger pays as the discarder: %(how)s.") % {
        "winner": seat(p["winner"]), "payer": seat(p["payer"]), "tile": _tile(p["tile"]),
        "how": _how(p)}


def _call_transfer(p: Mapping[str, Any], seat: Seat) -> str:
    kong = p["kong"]
    scope = (_("the income of their %(kong)s of %(tile)s") % {
        "kong": _kong(kong["kind"]), "tile": _tile(kong["tile"])}
        if p["scope"] == "transfer_last" else _("all their kong income so far"))
    return _("呼叫转移: %(konger)s kongs and then discards %(tile)s, which %(winner)s wins on "
             "(杠上炮); %(scope)s (%(amount)s) goes to the winner.") % {
        "konger": seat(p["konger"]), "tile": _tile(p["tile"]), "winner": seat(p["winner"]),
        "scope": scope, "amount": p["amount"]}


def _kong_refund(p: Mapping[str, Any], seat: Seat) -> str:
    kong = p["kong"]
    return _("%(konger)s discarded %(tile)s right after their %(kong)s of %(kong_tile)s and it "
             "was won (杠上炮): the kong money %(payer)s paid (%(amount)s) goes back.") % {
        "konger": seat(p["konger"]), "tile": _tile(p["tile"]), "kong": _kong(kong["kind"]),
        "kong_tile": _tile(kong["tile"]), "payer": seat(p["kong_payer"]), "amount": p["amount"]}


def _flower_pig(p: Mapping[str, Any], seat: Seat) -> str:
    return _("查花猪: %(pig)s is a flower pig at the draw and pays %(payee)s the penalty "
             "%(penalty)s × base %(base)s = %(amount)s.") % {
        "pig": seat(p["pig"]), "payee": seat(p["payee"]), "penalty": p["penalty"],
        "base": p["base"], "amount": p["amount"]}


def _ting_check(p: Mapping[str, Any], seat: Seat) -> str:
    if p["mode"] == "flat":
        how = _("a flat 1 point")
    elif p["mode"] == "max_no_kong_fan":
        how = _("%(fan)s fan (without kong add-ons)") % {"fan": p["fan"]}
    else:
        how = _("%(fan)s fan") % {"fan": p["fan"]}
    return _("查叫: %(payer)s is not ready at the draw and pays %(payee)s, ready for %(how)s "
             "→ %(value)s × base %(base)s = %(amount)s.") % {
        "payer": seat(p["payer"]), "payee": seat(p["payee"]), "how": how,
        "value": p["value"], "base": p["base"], "amount": p["amount"]}


def _price_difference(p: Mapping[str, Any], seat: Seat) -> str:
    low, high = p["payer_value"], p["payee_value"]
    return _("补差价: %(payer)s (ready, ×%(low)s) pays %(payee)s (ready, ×%(high)s) the "
             "difference %(difference)s × base %(base)s = %(amount)s.") % {
        "payer": seat(p["payer"]), "payee": seat(p["payee"]), "low": low, "high": high,
        "difference": high - low, "base": p["base"], "amount": p["amount"]}


def _tax_refund(p: Mapping[str, Any], seat: Seat) -> str:
    kong = p["kong"]
    return _("退税: %(konger)s is not ready at the draw and returns the %(amount)s %(payer)s "
             "paid for their %(kong)s of %(tile)s.") % {
        "konger": seat(p["konger"]), "amount": p["amount"], "payer": seat(p["kong_payer"]),
        "kong": _kong(kong["kind"]), "tile": _tile(kong["tile"])}


_SENTENCES: dict[str, Callable[[Mapping[str, Any], Seat], str]] = {
    "win_self_drawn": _self_drawn, "win_discard": _discard, "win_rob_kong": _rob_kong,
    "kong_direct": _kong_sentence, "kong_added": _kong_sentence,
    "kong_concealed": _kong_sentence, "call_transfer": _call_transfer,
    "kong_refund": _kong_refund, "flower_pig": _flower_pig, "ting_check": _ting_check,
    "price_difference": _price_difference, "tax_refund": _tax_refund,
}


def sentence(reason: str, params: Mapping[str, Any], seat: Seat) -> str:
    """The payment's sentence in the active language.

    :raises KeyError, TypeError, ValueError: for a reason or params this module does not
        know (a row of another engine version): the caller shows the stored line instead.
    """
    return _SENTENCES[reason](params, seat)


def line_sentence(payment: Payment, names: Mapping[int, str]) -> str:
    """A settlement line in the page language, through the catalogue in every language,
    naming the players (never a seat number). A row this module cannot render (written
    before payments carried params, or by another engine version) shows the engine's
    stored English line."""
    if not payment.params:
        return payment.detail
    try:
        return sentence(payment.reason, payment.params,
                        lambda n: names.get(n) or _("player %(n)d") % {"n": n + 1})
    except (KeyError, TypeError, ValueError):
        return payment.detail
