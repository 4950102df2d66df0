"""The engine's identifiers as people read them, in the page language.

One table per kind of identifier (patterns, add-ons, payment reasons, violation codes,
match statuses), keyed exactly as the engine writes them (docs: README's glossary).
The English names carry the Chinese term where players know the game by it; the
zh-Hans catalogue (locale/zh_Hans/LC_MESSAGES/django.po) gives the Chinese names.
An identifier missing here is shown as it is, never dropped.
"""

from __future__ import annotations

import re

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

PATTERNS: dict[str, Promise] = {
    "ping_hu": _("All sequences (ping hu)"),
    "dui_dui_hu": _("All pungs (dui dui hu)"),
    "qing_yi_se": _("Pure suit (qing yi se)"),
    "qi_dui": _("Seven pairs (qi dui)"),
    "yao_jiu": _("Terminals in every set (yao jiu)"),
    "qing_dui": _("Pure all pungs (qing dui)"),
    "jiang_dui": _("All 2-5-8 pungs (jiang dui)"),
    "qing_qi_dui": _("Pure seven pairs (qing qi dui)"),
    "long_qi_dui": _("Dragon seven pairs (long qi dui)"),
    "qing_yao_jiu": _("Pure terminals (qing yao jiu)"),
    "qing_long_qi_dui": _("Pure dragon seven pairs (qing long qi dui)"),
    "tian_hu": _("Heavenly win (tian hu)"),
    "di_hu": _("Earthly win (di hu)"),
}

ADD_ONS: dict[str, Promise] = {
    "gen": _("Root (gen)"),
    "gang_shang_hua": _("Win on a kong's replacement (gang shang hua)"),
    "gang_shang_pao": _("Win on the discard after a kong (gang shang pao)"),
    "qiang_gang": _("Robbing a kong (qiang gang)"),
    "zi_mo": _("Self-drawn bonus (zi mo)"),
    "jin_gou_diao": _("Golden hook (jin gou diao)"),
    "hai_di_lao_yue": _("Last tile of the wall (hai di lao yue)"),
    "hai_di_pao": _("Last discard (hai di pao)"),
    "men_qing": _("Concealed hand (men qing)"),
    "zhong_zhang": _("No terminals (zhong zhang)"),
    "kong_direct": _("Own direct kong"),
    "kong_added": _("Own added kong"),
    "kong_concealed": _("Own concealed kong"),
}

REASONS: dict[str, Promise] = {
    "win_self_drawn": _("Self-drawn win (zi mo)"),
    "win_discard": _("Win on a discard (dian pao)"),
    "win_rob_kong": _("Win robbing a kong (qiang gang)"),
    "kong_direct": _("Direct kong money"),
    "kong_added": _("Added kong money"),
    "kong_concealed": _("Concealed kong money"),
    "call_transfer": _("Call transfer (hu jiao zhuan yi)"),
    "kong_refund": _("Kong money refunded"),
    "flower_pig": _("Flower pig (hua zhu)"),
    "ting_check": _("Ready check (cha jiao)"),
    "price_difference": _("Price difference (bu cha jia)"),
    "tax_refund": _("Tax refund (tui shui)"),
}

VIOLATIONS: dict[str, Promise] = {
    "schema": _("Not in the log format"),
    "bad_ruleset": _("Bad ruleset"),
    "wrong_dealer": _("Wrong dealer"),
    "bad_deal": _("Wrong number of tiles dealt"),
    "bad_wall": _("Wall is not the 55 tiles left"),
    "fifth_copy": _("A fifth copy of a tile"),
    "exchange_missing": _("Exchange missing"),
    "exchange_not_allowed": _("Exchange not allowed"),
    "exchange_mixed_suits": _("Exchange of mixed suits"),
    "exchange_receive_mismatch": _("Exchange against the die"),
    "dice_missing": _("Dice missing"),
    "dingque_missing": _("Void suit not declared"),
    "out_of_order": _("Event out of order"),
    "event_after_end": _("Event after the end"),
    "action_by_winner": _("Action by a player who has won"),
    "draw_out_of_turn": _("Draw out of turn"),
    "draw_not_wall_tile": _("Draw not the wall's next tile"),
    "draw_from_empty_wall": _("Draw from an empty wall"),
    "discard_out_of_turn": _("Discard out of turn"),
    "tile_not_in_hand": _("Tile not in hand"),
    "void_first": _("Void suit not discarded first"),
    "claim_not_last_discard": _("Claim of a tile that is not the last discard"),
    "claim_own_discard": _("Claim of one's own discard"),
    "claim_on_won_discard": _("Claim of a discard that was won"),
    "claim_void_tile": _("Claim of a void-suit tile"),
    "claim_after_wall_empty": _("Claim of the last discard"),
    "kong_out_of_turn": _("Kong out of turn"),
    "kong_with_empty_wall": _("Kong with an empty wall"),
    "kong_without_peng": _("Added kong without a pung"),
    "kong_after_peng": _("Kong straight after a pung"),
    "win_out_of_turn": _("Win out of turn"),
    "win_wrong_tile": _("Win on the wrong tile"),
    "win_not_winning_hand": _("Win without a winning hand"),
    "win_with_void_suit": _("Win holding the void suit"),
    "win_below_min_fan": _("Win below the minimum fan"),
    "passed_win": _("Passed win (guo shou hu)"),
    "last_four_not_won": _("Must-win in the last four ignored"),
    "too_many_violations": _("Too many violations"),
    "result_on_incomplete_round": _("Result on an unfinished round"),
    "result_mismatch": _("Recorded result differs"),
    "result_payment_mismatch": _("Recorded payment differs"),
}

#: a violation as a sentence in the page language, from its code and the facts it carries:
#: the player (its seat, by name) and the first tile its English message names. A code
#: missing here, or a fact missing from a violation, shows the code's title instead.
VIOLATION_SENTENCES: dict[str, Promise] = {
    "bad_deal": _("%(player)s was dealt the wrong number of tiles."),
    "fifth_copy": _("%(tile)s appears more than four times."),
    "exchange_mixed_suits": _("%(player)s passes tiles of more than one suit."),
    "exchange_receive_mismatch": _("%(player)s records receiving tiles the die does not give."),
    "event_after_end": _("%(player)s acts after the round has ended."),
    "action_by_winner": _("%(player)s acts after having won."),
    "draw_out_of_turn": _("%(player)s draws out of turn."),
    "draw_not_wall_tile": _("%(player)s draws %(tile)s, which is not the wall's next tile."),
    "draw_from_empty_wall": _("%(player)s draws from an empty wall."),
    "discard_out_of_turn": _("%(player)s discards out of turn."),
    "tile_not_in_hand": _("%(player)s plays %(tile)s without holding it."),
    "void_first": _("%(player)s discards %(tile)s while still holding the void suit."),
    "claim_not_last_discard": _("%(player)s claims %(tile)s, which is not the last discard."),
    "claim_own_discard": _("%(player)s claims their own discard."),
    "claim_on_won_discard": _("%(player)s claims %(tile)s, which was already won."),
    "claim_void_tile": _("%(player)s claims %(tile)s of their void suit."),
    "claim_after_wall_empty": _("%(player)s claims the last discard, which can only be won."),
    "kong_out_of_turn": _("%(player)s declares a kong out of turn."),
    "kong_with_empty_wall": _("%(player)s declares a kong with the wall empty."),
    "kong_without_peng": _("%(player)s adds %(tile)s to a kong without a pung of it."),
    "kong_after_peng": _("%(player)s declares a kong straight after a pung."),
    "win_out_of_turn": _("%(player)s declares a win out of turn."),
    "win_wrong_tile": _("%(player)s wins on %(tile)s, which is not the tile in play."),
    "win_not_winning_hand": _("%(player)s declares a win without a winning hand."),
    "win_with_void_suit": _("%(player)s declares a win while holding the void suit."),
    "win_below_min_fan": _("%(player)s declares a win below the minimum fan."),
    "passed_win": _("%(player)s wins on a discard after passing a win since their last draw."),
    "last_four_not_won": _("%(player)s does not take a win the last four tiles require."),
    "result_mismatch": _("The recorded result of %(player)s differs from the replay."),
    "result_payment_mismatch": _("A recorded payment of %(player)s differs from the settlement."),
}

_TILE = re.compile(r"\b([1-9][mps])\b")
_SUIT_CHARS = {"m": "万", "p": "筒", "s": "条"}


def tile_text(tile: str) -> str:
    """A tile as players write it, ``5p`` → ``5筒`` (as the viewer shows it)."""
    return tile[0] + _SUIT_CHARS[tile[1]]


def violation_sentence(code: str, message: str, player: str | None) -> str:
    """The violation in the page language (the English ``message`` is only read for its tile);
    without a sentence for the code, or the facts it needs, the code's title."""
    template = VIOLATION_SENTENCES.get(code)
    found = _TILE.search(message or "")
    facts = {"player": player, "tile": tile_text(found[1]) if found else None}
    if template is None:
        return label("violation", code)
    text = str(template)
    if any(f"%({key})s" in text and not value for key, value in facts.items()):
        return label("violation", code)
    return text % facts


STATUSES: dict[str, Promise] = {
    "queued": pgettext_lazy("match status", "queued"),
    "verifying": pgettext_lazy("match status", "verifying"),
    "verified": pgettext_lazy("match status", "verified"),
    "illegal": pgettext_lazy("match status", "illegal"),
    "failed": pgettext_lazy("match status", "failed"),
}

ROLES: dict[str, Promise] = {
    "owner": pgettext_lazy("club role", "owner"),
    "admin": pgettext_lazy("club role", "admin"),
    "member": pgettext_lazy("club role", "member"),
}

SUITS: dict[str, Promise] = {
    "m": pgettext_lazy("suit", "Characters"),
    "p": pgettext_lazy("suit", "Dots"),
    "s": pgettext_lazy("suit", "Bamboo"),
}

KINDS: dict[str, dict[str, Promise]] = {
    "pattern": PATTERNS,
    "add_on": ADD_ONS,
    "reason": REASONS,
    "violation": VIOLATIONS,
    "status": STATUSES,
    "role": ROLES,
    "suit": SUITS,
}


def label(kind: str, identifier: str | None) -> str:
    """``identifier`` of ``kind`` by name in the active language; unknown ones as they are."""
    if identifier is None:
        return ""
    name = KINDS[kind].get(identifier)
    return identifier if name is None else str(name)


def table(kind: str) -> dict[str, str]:
    """The whole table of ``kind`` in the active language (for the viewer's script)."""
    return {key: str(name) for key, name in KINDS[kind].items()}
