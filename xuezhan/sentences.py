"""The sentences of a settlement: one table of templates and one renderer, for every language.

The engine keeps a payment as data — its ``reason`` and ``params`` (settlement.py) — and a
win's value as the parts of its score (:meth:`xuezhan.fan.Score.parts`). This module words
them, once: every sentence is a template below, an English gettext message id with named
``%(…)s`` fields, and one renderer fills them in. The command line renders the templates as
they are (:func:`describe`, :func:`breakdown`); the site renders the very same templates
through its catalogue (``analysis/sentences.py`` hands :class:`Words` its ``gettext``, the
players' names and its way of writing tiles), so a sentence is never written twice.
``gettext_noop`` marks each template for the catalogue's extraction (xgettext knows the
name) and returns it unchanged: this module imports no translation machinery.

>>> describe("flower_pig", {"pig": 2, "payee": 0, "penalty": 16, "base": 1, "amount": 16})
'查花猪: seat 2 is a flower pig at the draw and pays seat 0 the penalty 16 × base 1 = 16.'
>>> breakdown({"patterns": [{"name": "qing_yi_se", "fan": 2}], "add_ons": [], "fan": 2,
...            "capped": False, "max_fan": None, "points": 4})
'清一色 2 = 2 fan → 4 × base'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from xuezhan.rules import ADD_ON_NAMES, KONG_ADD_ON_NAMES, PATTERN_NAMES


def gettext_noop(message: str) -> str:
    """Marks ``message`` as a template to translate; returns it as it is."""
    return message


def _same(text: str) -> str:
    return text


def _seat(seat: int) -> str:
    return f"seat {seat}"


@dataclass(frozen=True)
class Words:
    """How a renderer says things: ``translate`` a template (the site: its catalogue),
    name a ``seat`` (the site: the player), write a ``tile`` (``"5p"``; the site in Chinese:
    ``5筒``), and say why a hand is ``not_a_win`` (the engine's reason code)."""

    translate: Callable[[str], str] = _same
    seat: Callable[[int], str] = _seat
    tile: Callable[[str], str] = _same
    not_a_win: Callable[[str], str] = _same


ENGLISH = Words()

#: the kinds of kong, as a sentence names them
KONGS: dict[str, str] = {
    "direct": gettext_noop("direct kong (直杠)"),
    "added": gettext_noop("added kong (补杠)"),
    "concealed": gettext_noop("concealed kong (暗杠)"),
}

#: why a hand is not a win (``Score.reason``), for a page; the command line prints the code
NOT_A_WIN: dict[str, str] = {
    "not_a_winning_hand": gettext_noop("not a winning hand"),
    "holds_void_suit": gettext_noop("holds the void suit"),
    "below_min_fan": gettext_noop("below the minimum fan"),
}

#: the name the command line puts before the sentences of the drawn-round checks and of
#: 呼叫转移; a page shows the reason's own label there instead (analysis/labels.py)
LEADS: dict[str, str] = {
    "call_transfer": "呼叫转移", "flower_pig": "查花猪", "ting_check": "查叫",
    "price_difference": "补差价", "tax_refund": "退税", "false_win": "诈胡",
}

# -- the templates --------------------------------------------------------------------

# a win's value
_SUM = gettext_noop("%(parts)s = %(fan)s fan")
_A_WIN = gettext_noop("a win")
_UNLISTED = gettext_noop("add-ons %(fan)s")
_CAPPED = gettext_noop("%(text)s → capped at %(max)s")
_NOT_WIN = gettext_noop("%(text)s: not a win (%(reason)s)")
_NO_PATTERN = gettext_noop("not a win: %(reason)s")
_POINTS = gettext_noop("%(text)s → %(points)s × base")
_HOW = gettext_noop("%(breakdown)s → %(points)s × base %(base)s = %(total)s")
_HOW_BASE = gettext_noop("%(breakdown)s %(base)s = %(total)s")

# kongs
_KONG_WHAT = gettext_noop("%(konger)s's %(kong)s of %(tile)s")
_KONG_DIRECT = gettext_noop(
    "%(payer)s discarded the tile and pays %(what)s: %(units)s × base %(base)s = %(amount)s.")
_KONG_OTHER = gettext_noop(
    "%(payer)s, still in the round, pays %(what)s: %(units)s × base %(base)s = %(amount)s.")

# wins
_BONUS = gettext_noop(" + 1 base (自摸加底) = %(total)s")
_REPLACEMENT = gettext_noop(" on a kong replacement (杠上花)")
_SELF_DRAWN = gettext_noop(
    "%(winner)s self-draws %(tile)s%(replacement)s; %(payer)s, still in the round, "
    "pays: %(how)s%(extra)s.")
_AFTER_KONG = gettext_noop(" right after their kong (杠上炮)")
_DIAN_GANG_HUA = gettext_noop(
    "%(winner)s wins on the replacement tile %(tile)s of a direct kong (点杠花); "
    "%(payer)s discarded the kong tile and pays as for a discard: %(how)s.")
_DISCARD = gettext_noop(
    "%(winner)s wins on %(payer)s's discard %(tile)s%(after)s; "
    "only the discarder pays: %(how)s.")
_ROB_KONG = gettext_noop(
    "%(winner)s robs %(payer)s's added kong of %(tile)s (抢杠); "
    "the konger pays as the discarder: %(how)s.")

# what follows a won discard after a kong
_SCOPE_LAST = gettext_noop("the income of their %(kong)s of %(tile)s")
_SCOPE_ALL = gettext_noop("all their kong income so far")
_CALL_TRANSFER = gettext_noop(
    "%(konger)s kongs and then discards %(tile)s, which %(winner)s wins on (杠上炮); "
    "%(scope)s (%(amount)s) goes to the winner.")
_KONG_REFUND = gettext_noop(
    "%(konger)s discarded %(tile)s right after their %(kong)s of %(kong_tile)s and it was "
    "won (杠上炮): the kong money %(payer)s paid (%(amount)s) goes back.")

# the checks of a drawn round
_FLOWER_PIG = gettext_noop(
    "%(pig)s is a flower pig at the draw and pays %(payee)s the penalty "
    "%(penalty)s × base %(base)s = %(amount)s.")
_FLAT = gettext_noop("a flat 1 point")
_FAN_NO_KONG = gettext_noop("%(fan)s fan (without kong add-ons)")
_FAN = gettext_noop("%(fan)s fan")
_TING_CHECK = gettext_noop(
    "%(payer)s is not ready at the draw and pays %(payee)s, ready for %(how)s "
    "→ %(value)s × base %(base)s = %(amount)s.")
_PRICE_DIFFERENCE = gettext_noop(
    "%(payer)s (ready, ×%(low)s) pays %(payee)s (ready, ×%(high)s) the difference "
    "%(difference)s × base %(base)s = %(amount)s.")
_FALSE_WIN = gettext_noop(
    "%(payer)s declares a win on %(tile)s with a hand that does not win (%(why)s) and "
    "pays %(payee)s the penalty %(penalty)s × base %(base)s = %(amount)s; play goes on.")
_POT = gettext_noop("the pot")
_TAX_REFUND = gettext_noop(
    "%(konger)s is not ready at the draw and returns the %(amount)s %(payer)s paid for "
    "their %(kong)s of %(tile)s.")


# -- a win's value --------------------------------------------------------------------


def add_on_name(name: str) -> str:
    """The 中文 name of an add-on identifier (kong add-ons are ``kong_<kind>``)."""
    if name.startswith("kong_"):
        return KONG_ADD_ON_NAMES[name[5:]]
    return ADD_ON_NAMES[name]


_COUNTED = ("gen", "kong_direct", "kong_added", "kong_concealed")


def add_on_text(name: str, fan: int, count: int) -> str:
    """One add-on as the breakdown shows it: ``根 ×2``, ``暗杠 2 ×1``, ``杠上花 1``."""
    if name in _COUNTED:
        each = "" if fan == 1 else f" {fan}"
        return f"{add_on_name(name)}{each} ×{count}"
    return f"{add_on_name(name)} {fan}"


def _fan_sum(parts: Mapping[str, Any], w: Words) -> str:
    """``清一色 2 + 根 ×1 = 3 fan`` (capped, or not a win, said after it)."""
    t = w.translate
    shown = [f"{PATTERN_NAMES.get(p['name'], p['name'])} {p['fan']}" for p in parts["patterns"]]
    shown += [add_on_text(a["name"], a["fan"], a["count"]) for a in parts["add_ons"]]
    if parts.get("unlisted"):  # a score sheet that gave the fan without every add-on
        shown.append(t(_UNLISTED) % {"fan": parts["unlisted"]})
    text = t(_SUM) % {"parts": " + ".join(shown) or t(_A_WIN), "fan": parts["fan"]}
    if parts["capped"]:
        text = t(_CAPPED) % {"text": text, "max": parts["max_fan"]}
    return text


def breakdown(parts: Mapping[str, Any], w: Words = ENGLISH) -> str:
    """The breakdown sentence of a score from its language-independent parts
    (:meth:`xuezhan.fan.Score.parts`; ``winning`` and ``reason`` default to a win, and
    a score sheet's ``unlisted`` fan is the part it gave without naming it)."""
    t = w.translate
    if not parts["patterns"] and parts.get("winning") is False:
        return t(_NO_PATTERN) % {"reason": w.not_a_win(str(parts.get("reason")))}
    text = _fan_sum(parts, w)
    if parts.get("winning") is False:
        return t(_NOT_WIN) % {"text": text, "reason": w.not_a_win(str(parts.get("reason")))}
    return t(_POINTS) % {"text": text, "points": parts["points"]}


def _how(p: Mapping[str, Any], w: Words) -> str:
    """The win's value, then × base: ``清一色 2 = 2 fan → 4 × base 1 = 4``."""
    t = w.translate
    points, base = p["points"], p["base"]
    score = p.get("score")
    if not score:  # a record without a score (stored before sheets had one): its own text
        text = str(p["breakdown"])
        if text.endswith("× base"):
            return t(_HOW_BASE) % {"breakdown": text, "base": base, "total": points * base}
        return t(_HOW) % {"breakdown": text, "points": points, "base": base,
                          "total": points * base}
    # a not-winning score says so; a win shows its fan sum (the points follow here)
    text = breakdown(score, w) if score.get("winning") is False else _fan_sum(score, w)
    return t(_HOW) % {"breakdown": text, "points": points, "base": base, "total": points * base}


# -- the payments ---------------------------------------------------------------------

_Render = Callable[[Mapping[str, Any], Words], str]


def _kong(kind: str, w: Words) -> str:
    template = KONGS.get(kind)
    return w.translate(template) if template else f"{kind} kong ({kind})"


def _kong_payment(p: Mapping[str, Any], w: Words) -> str:
    t, kong = w.translate, p["kong"]
    what = t(_KONG_WHAT) % {"konger": w.seat(p["konger"]), "kong": _kong(kong["kind"], w),
                            "tile": w.tile(kong["tile"])}
    template = _KONG_DIRECT if kong["kind"] == "direct" else _KONG_OTHER
    return t(template) % {"payer": w.seat(p["payer"]), "what": what, "units": p["units"],
                          "base": p["base"], "amount": p["amount"]}


def _self_drawn(p: Mapping[str, Any], w: Words, how: str | None = None) -> str:
    t, bonus = w.translate, p["self_draw_bonus"]
    extra = t(_BONUS) % {"total": p["points"] * p["base"] + bonus} if bonus else ""
    return t(_SELF_DRAWN) % {
        "winner": w.seat(p["winner"]), "tile": w.tile(p["tile"]), "payer": w.seat(p["payer"]),
        "replacement": t(_REPLACEMENT) if p["after_kong"] else "",
        "how": how if how is not None else _how(p, w), "extra": extra}


def _discard(p: Mapping[str, Any], w: Words) -> str:
    t = w.translate
    values = {"winner": w.seat(p["winner"]), "payer": w.seat(p["payer"]),
              "tile": w.tile(p["tile"]), "how": _how(p, w),
              "after": t(_AFTER_KONG) if p.get("kong_discard") else ""}
    return t(_DIAN_GANG_HUA if p.get("dian_gang_hua") else _DISCARD) % values


def _rob_kong(p: Mapping[str, Any], w: Words) -> str:
    return w.translate(_ROB_KONG) % {"winner": w.seat(p["winner"]), "payer": w.seat(p["payer"]),
                                     "tile": w.tile(p["tile"]), "how": _how(p, w)}


def _call_transfer(p: Mapping[str, Any], w: Words) -> str:
    t, kong = w.translate, p["kong"]
    scope = (t(_SCOPE_LAST) % {"kong": _kong(kong["kind"], w), "tile": w.tile(kong["tile"])}
             if p["scope"] == "transfer_last" else t(_SCOPE_ALL))
    return t(_CALL_TRANSFER) % {"konger": w.seat(p["konger"]), "tile": w.tile(p["tile"]),
                                "winner": w.seat(p["winner"]), "scope": scope,
                                "amount": p["amount"]}


def _kong_refund(p: Mapping[str, Any], w: Words) -> str:
    kong = p["kong"]
    return w.translate(_KONG_REFUND) % {
        "konger": w.seat(p["konger"]), "tile": w.tile(p["tile"]),
        "kong": _kong(kong["kind"], w), "kong_tile": w.tile(kong["tile"]),
        "payer": w.seat(p["kong_payer"]), "amount": p["amount"]}


def _payee(p: Mapping[str, Any], w: Words) -> str:
    """A payee: a seat, or the pot (the club's kitty)."""
    return w.translate(_POT) if p["payee"] == "pot" else w.seat(p["payee"])


def _flower_pig(p: Mapping[str, Any], w: Words) -> str:
    return w.translate(_FLOWER_PIG) % {
        "pig": w.seat(p["pig"]), "payee": _payee(p, w), "penalty": p["penalty"],
        "base": p["base"], "amount": p["amount"]}


def _false_win(p: Mapping[str, Any], w: Words) -> str:
    return w.translate(_FALSE_WIN) % {
        "payer": w.seat(p["payer"]), "tile": w.tile(p["tile"]),
        "why": w.not_a_win(p["why"]), "payee": _payee(p, w), "penalty": p["penalty"],
        "base": p["base"], "amount": p["amount"]}


def _ting_check(p: Mapping[str, Any], w: Words) -> str:
    t = w.translate
    if p["mode"] == "flat":
        how = t(_FLAT)
    else:
        how = t(_FAN_NO_KONG if p["mode"] == "max_no_kong_fan" else _FAN) % {"fan": p["fan"]}
    return t(_TING_CHECK) % {"payer": w.seat(p["payer"]), "payee": w.seat(p["payee"]),
                             "how": how, "value": p["value"], "base": p["base"],
                             "amount": p["amount"]}


def _price_difference(p: Mapping[str, Any], w: Words) -> str:
    low, high = p["payer_value"], p["payee_value"]
    return w.translate(_PRICE_DIFFERENCE) % {
        "payer": w.seat(p["payer"]), "payee": w.seat(p["payee"]), "low": low, "high": high,
        "difference": high - low, "base": p["base"], "amount": p["amount"]}


def _tax_refund(p: Mapping[str, Any], w: Words) -> str:
    kong = p["kong"]
    return w.translate(_TAX_REFUND) % {
        "konger": w.seat(p["konger"]), "amount": p["amount"], "payer": w.seat(p["kong_payer"]),
        "kong": _kong(kong["kind"], w), "tile": w.tile(kong["tile"])}


#: each payment reason's sentence (settlement.REASONS, the same keys)
SENTENCES: dict[str, _Render] = {
    "win_self_drawn": _self_drawn, "win_discard": _discard, "win_rob_kong": _rob_kong,
    "kong_direct": _kong_payment, "kong_added": _kong_payment, "kong_concealed": _kong_payment,
    "call_transfer": _call_transfer, "kong_refund": _kong_refund,
    "flower_pig": _flower_pig, "ting_check": _ting_check,
    "price_difference": _price_difference, "tax_refund": _tax_refund,
    "false_win": _false_win,
}


def sentence(reason: str, params: Mapping[str, Any], w: Words = ENGLISH) -> str:
    """The sentence of a payment, from its ``reason`` and ``params`` alone, in the words of
    ``w`` — without the lead (:data:`LEADS`) a page shows as the reason's label.

    :raises KeyError: for a reason this table does not have (or params missing a field).
    """
    return SENTENCES[reason](params, w)


def describe(reason: str, params: Mapping[str, Any],
             seat: Callable[[int], str] | None = None) -> str:
    """The English sentence of a payment for the command line and ``Payment.detail``: its
    lead (``查花猪: ``) when it has one, then :func:`sentence`. ``seat`` names a seat
    (default ``"seat N"``)."""
    text = sentence(reason, params, Words(seat=seat) if seat is not None else ENGLISH)
    lead = LEADS.get(reason)
    return f"{lead}: {text}" if lead else text


def self_drawn_sentences(shared: Mapping[str, Any], payers: list[int]) -> list[str]:
    """The English sentences of one self-drawn win, one per payer, the win's value worked
    out once (it is the same for every payer)."""
    how = _how(shared, ENGLISH)
    return [_self_drawn({**shared, "payer": payer}, ENGLISH, how) for payer in payers]
