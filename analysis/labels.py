"""The engine's identifiers as people read them, in the page language.

One table per kind of identifier (patterns, add-ons, payment reasons, violation codes,
match statuses; the statistics' keys, decomposition parts and filters), keyed exactly as
the engine and the stats API write them (docs/glossary.md, docs/statistics.md).
The English names carry the Chinese term where players know the game by it; the
zh-Hans catalogue (locale/zh_Hans/LC_MESSAGES/django.po) gives the Chinese names.
An identifier missing here is shown as it is, never dropped.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from xuezhan.errors import XuezhanError
from xuezhan.rules import Rules

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
    "yi_tiao_long": _("Pure straight 1-9 (yi tiao long)"),
    "jia_xin_wu": _("Won on a 5 between 4 and 6 (jia xin wu)"),
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
    "false_win": _("False win (zha hu)"),
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
    # score sheets (xuezhan.sheet.CODES)
    "too_many_winners": _("A fourth win"),
    "winner_acts_again": _("A winner acts again"),
    "act_on_own_discard": _("Win or kong on one's own discard"),
    "unknown_pattern": _("Unknown pattern"),
    "unknown_add_on": _("Unknown add-on"),
    "implied_add_on": _("Add-on listed twice"),
    "fan_mismatch": _("Fan does not add up"),
    "below_min_fan": _("Win below the minimum fan"),
    "no_such_kong": _("No such kong"),
    "bad_group": _("Not the same discard"),
    "draw_check_of_winner": _("A winner checked at the draw"),
    "draw_check_not_drawn": _("Draw checks without a drawn round"),
    "not_a_draw": _("Not a drawn round"),
    "totals_mismatch": _("Totals differ"),
}

_SUIT_CHARS = {"m": "万", "p": "筒", "s": "条"}


def tile_text(tile: str) -> str:
    """A tile as players write it, ``5p`` → ``5筒`` (as the viewer shows it)."""
    return tile[0] + _SUIT_CHARS[tile[1]]


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

#: every statistic of the stats API (docs/statistics.md), nested ones as ``a.b``; the
#: decision-review ones are named before the API serves them, so the page is ready
STATS: dict[str, Promise] = {
    # the context keeps these apart from the same words on other pages (盘数, 净分)
    "matches": pgettext_lazy("statistic", "Matches"),
    "rounds": pgettext_lazy("statistic", "Rounds"),
    "net": pgettext_lazy("statistic", "Net"),
    "net_per_round": _("Net per round"),
    "wins": _("Rounds won"),
    "win_rate": _("Win rate"),
    "self_draw_wins": _("Self-drawn wins (zi mo)"),
    "self_draw_rate": _("Self-drawn share of wins"),
    "average_win": _("Average win (points)"),
    "average_fan": _("Average fan per win"),
    "deal_ins": _("Deal-ins (dian pao)"),
    "deal_in_rate": _("Deal-in rate per round"),
    "deal_in_rate_per_turn": _("Deal-in rate per active turn"),
    "average_deal_in": _("Average deal-in (points)"),
    "paid_for_self_draws": _("Paid for others' self-draws"),
    "paid_for_self_draw_rate_per_turn": _("Paid for self-draws per active turn"),
    "active_turns": _("Active turns"),
    "claim_rate": _("Rounds with a peng or direct kong"),
    "draw_rate": _("Drawn rounds, still in"),
    "ready_at_draw_rate": _("Ready (ting) at the draw"),
    "dealer_rounds": _("Rounds as dealer"),
    "first_win_rate": _("First-winner rate"),
    "win_order.1": _("Wins as 1st winner"),
    "win_order.2": _("Wins as 2nd winner"),
    "win_order.3": _("Wins as 3rd winner"),
    "last_standing_rate": _("Last one standing"),
    "roots_per_win": _("Roots (gen) per win"),
    "kong_bloom_rate": _("Win on a kong's replacement (gang shang hua)"),
    "kong_discard_win_rate": _("Win on the discard after a kong (gang shang pao)"),
    "rob_kong_win_rate": _("Robbing a kong (qiang gang)"),
    "last_tile_win_rate": _("Win on the last tile (hai di)"),
    "heaven_earth_win_rate": _("Heavenly or earthly win (tian hu, di hu)"),
    "capped_win_rate": _("Wins at the fan cap"),
    "kongs.direct": _("Direct kongs per round"),
    "kongs.added": _("Added kongs per round"),
    "kongs.concealed": _("Concealed kongs per round"),
    "kong_income.gross": _("Kong money received"),
    "kong_income.net": _("Kong money, net"),
    "tax_refunds": _("Tax refunds paid (tui shui)"),
    "call_transfer_in": _("Call transfers received (hu jiao zhuan yi)"),
    "call_transfer_out": _("Call transfers paid (hu jiao zhuan yi)"),
    "robbed_kongs": _("Own kongs robbed"),
    "flower_pig": _("Paid as flower pig (hua zhu)"),
    "ting_check_received": _("Ready check received (cha jiao)"),
    "ting_check_paid": _("Ready check paid (cha jiao)"),
    "big_deal_ins": _("Big deal-ins (3+ fan) per round"),
    "exchange_shortest_rate": _("Exchange from the shortest suit"),
    "void_is_given_rate": _("Void suit is the suit given away"),
    "void_fewest_rate": _("Void on the suit with fewest tiles"),
    "void_cleared_turn": _("Turn the void suit was cleared"),
    "starting_shanten": _("Starting shanten (xiang ting)"),
    "best_discard_rate": _("Best-discard match rate"),
    "ukeire_lost_per_discard": _("Tiles of 进张 lost per discard"),
}

#: the parts of the net decomposition (docs/statistics.md, "Net decomposition")
PARTS: dict[str, Promise] = {
    "wins": _("Own wins"),
    "paid_for_wins": _("Paid for others' wins"),
    "kongs": _("Kongs, after call transfers and tax refunds"),
    "ting_check": _("Ready check and price difference (cha jiao)"),
    "flower_pig": _("Flower pig (hua zhu)"),
    "net": pgettext_lazy("statistic", "Net"),
}

#: the statistics' filters, as the query parameters name them (an unknown name, such as
#: DRF's ``non_field_errors``, shows as it is)
FILTERS: dict[str, Promise] = {
    "from": pgettext_lazy("filter", "From"),
    "to": pgettext_lazy("filter", "To"),
    "ruleset": pgettext_lazy("filter", "Ruleset"),
    "with": pgettext_lazy("filter", "Only rounds with"),
    "include_illegal": pgettext_lazy("filter", "Include illegal matches"),
    "period": pgettext_lazy("filter", "Period"),
    "stat": pgettext_lazy("filter", "Statistic"),
    "min_rounds": pgettext_lazy("filter", "At least this many rounds"),
    "order": pgettext_lazy("filter", "Order"),
}

#: the fields a form or a history row names (a match's, a season's, the ledger's); an unknown
#: one (DRF's ``non_field_errors`` included) shows as it is
FIELDS: dict[str, Promise] = {
    "status": pgettext_lazy("field", "Status"),
    "ruleset": pgettext_lazy("field", "Ruleset"),
    "ruleset_name": pgettext_lazy("field", "Ruleset"),
    "played_at": pgettext_lazy("field", "Played at"),
    "source_match_id": pgettext_lazy("field", "Source match id"),
    "document": pgettext_lazy("field", "Match record"),
    "content_sha256": pgettext_lazy("field", "Match record"),
    "club": pgettext_lazy("field", "Club"),
    "uploaded_by": pgettext_lazy("field", "Uploaded by"),
    "uploaded_at": pgettext_lazy("field", "Uploaded"),
    "name": pgettext_lazy("field", "Name"),
    "starts_on": pgettext_lazy("field", "Starts on"),
    "ends_on": pgettext_lazy("field", "Ends on"),
    "point_value": pgettext_lazy("field", "Money per point"),
    "method": pgettext_lazy("field", "Standings by"),
    "placement_points": pgettext_lazy("field", "Placement points"),
    "tie_breaks": pgettext_lazy("field", "Tie-breaks"),
    "min_matches": pgettext_lazy("field", "Minimum matches"),
    "include_accepted": pgettext_lazy("field", "Count accepted matches"),
    "from": pgettext_lazy("field", "From"),
    "to": pgettext_lazy("field", "To"),
    "season": pgettext_lazy("field", "Season"),
    "payer": pgettext_lazy("field", "Payer"),
    "payee": pgettext_lazy("field", "Payee"),
    "points": pgettext_lazy("field", "Points"),
    "note": pgettext_lazy("field", "Note"),
    "reason": pgettext_lazy("field", "Reason"),
    "players": pgettext_lazy("field", "Players"),
    "match": pgettext_lazy("field", "Match"),
    "time_zone": pgettext_lazy("field", "Time zone"),
    "non_field_errors": pgettext_lazy("field", "Form"),
}

#: the rulesets' presets (a custom ruleset is a preset with changes: ``ruleset_text``)
RULESETS: dict[str, Promise] = {
    "chengdu": _("Chengdu rules"),
    "online": _("Online rules"),
}

#: the house-rule options of a ruleset (xuezhan.rules.Rules, docs/rules.md), as a custom
#: ruleset's description names them; an option missing here is counted, not named
OPTIONS: dict[str, Promise] = {
    "exchange": _("exchange (huan san zhang)"),
    "void_first": _("void suit discarded first"),
    "no_claim_void": _("no claims of the void suit"),
    "fan_offset": _("fan offset"),
    "max_fan": _("fan cap"),
    "self_draw_bonus": _("self-draw bonus"),
    "kong_payments": _("kong money"),
    "kong_fan": _("kong add-ons"),
    "fan_system": _("fan system"),
    "root": _("roots (gen)"),
    "kong_then_discard_won": _("a kong's discard won"),
    "dian_gang_hua": _("win on a direct kong's replacement"),
    "flower_pig": _("flower-pig penalty"),
    "flower_pig_rule": _("who is a flower pig"),
    "flower_pig_payees": _("flower pig pays"),
    "pig_pays_ting_check": _("flower pig pays the ready check"),
    "ting_check": _("ready check (cha jiao)"),
    "ting_check_waits": _("ready-check waits"),
    "price_difference": _("price difference (bu cha jia)"),
    "tax_refund": _("tax refund (tui shui)"),
    "passed_win": _("passed win (guo shou hu)"),
    "last_four": _("last four tiles"),
    "heaven_earth": _("heavenly and earthly wins"),
    "min_fan": _("minimum fan"),
    "jin_gou_diao": _("golden hook (jin gou diao)"),
    "kong_draw": _("kong replacement drawn from"),
    "kong_after_peng": _("kong straight after a pung"),
    "dragon_root": _("the dragon's root"),
    "last_discard_claims": _("claims on the last discard"),
    "added_kong_fresh_only": _("only an added kong of the tile just drawn pays"),
    "kong_payment_timing": _("kong money paid"),
    "exclusions": _("patterns that do not stack"),
    "false_win": _("false win (zha hu)"),
    "patterns": _("pattern fan"),
    "add_ons": _("add-on fan"),
}

#: the values of the options, by option (a value missing here reads "changed")
OPTION_VALUES: dict[str, Promise] = {
    "off": _("off"), "dice": _("by the dice"), "parity": _("by the dice's parity"),
    "from_next": _("from the next player"), "from_prev": _("from the previous player"),
    "opposite": _("from the opposite player"),
    "none": _("none"), "plus_fan": _("plus one fan"), "plus_base": _("plus one base"),
    "table": _("highest pattern"), "additive": _("patterns add up"),
    "concealed": _("concealed fours only"), "no_kongs": _("fours not konged"),
    "all": _("every four"),
    "keep": _("the konger keeps the money"), "transfer_last": _("that kong's money moves"),
    "transfer_all": _("all kong money moves"), "refund": _("the kong money goes back"),
    "self_draw": _("paid as a self-draw"), "discard": _("paid as a discard"),
    "cap": _("the cap"), "three_suits": _("holds three suits"),
    "holds_void": _("holds the void suit"), "all_non_pigs": _("every other player"),
    "non_pigs_in_round": _("players still in"),
    "max": _("the highest fan"), "max_no_kong_fan": _("the highest fan, kongs aside"),
    "flat": _("one point"), "theoretical": _("every wait"), "live": _("live waits only"),
    "until_next_draw": _("until the next draw"), "strict": _("strict"),
    "must_win_self_draw": _("must win a self-draw"), "must_win_all": _("must win"),
    "melded_four": _("four melds"), "pair_wait_all_pungs": _("pair wait, all pungs"),
    "front": _("the front of the wall"), "back": _("the back of the wall"),
    "exclude_one": _("not counted again"), "count_all": _("counted again"),
    "win_only": _("win only"), "peng": _("win or pung"),
    "immediate": _("at the kong"), "after_discard": _("after the declarer's discard"),
    "violation": _("a violation"), "pot": _("into the pot"),
}


def option_text(name: str, value: object) -> str:
    """One option of a ruleset and its value, in words: ``封顶：4`` (a value the tables
    do not name reads "changed")."""
    if isinstance(value, bool):
        shown = str(_("on") if value else _("off"))
    elif value is None:
        shown = str(_("none"))
    elif isinstance(value, int):
        shown = str(value)
    elif isinstance(value, str) and value in OPTION_VALUES:
        shown = str(OPTION_VALUES[value])
    else:
        shown = str(_("changed"))
    return _("%(option)s: %(value)s") % {"option": label("option", name), "value": shown}


#: how a season ranks its players (analysis.models.Season.Method)
METHODS: dict[str, Promise] = {
    "net": _("Net points"),
    "placement": _("Placement points"),
}

KINDS: dict[str, dict[str, Promise]] = {
    "pattern": PATTERNS,
    "add_on": ADD_ONS,
    "reason": REASONS,
    "violation": VIOLATIONS,
    "status": STATUSES,
    "role": ROLES,
    "suit": SUITS,
    "stat": STATS,
    "part": PARTS,
    "filter": FILTERS,
    "ruleset": RULESETS,
    "method": METHODS,
    "field": FIELDS,
    "option": OPTIONS,
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


def ruleset_text(ruleset: object, name: str = "") -> str:
    """A ruleset as players read it: its preset by name, and the options it sets otherwise
    in words (the first three; how many more after them). ``ruleset``: the stored, resolved
    JSON; ``name``: its preset."""
    preset = str(ruleset.get("preset") or name) if isinstance(ruleset, dict) else name
    text = label("ruleset", preset)
    try:
        base = Rules.preset(preset).to_json()
    except XuezhanError:
        return text
    if not isinstance(ruleset, dict):
        return text
    changed = [(key, value) for key, value in ruleset.items()
               if key in base and key != "preset" and base[key] != value]
    if not changed:
        return text
    named = [option_text(key, value) for key, value in changed if key in OPTIONS][:3]
    more = len(changed) - len(named)
    if more:
        named.append(ngettext("%(count)d more change", "%(count)d more changes", more)
                     % {"count": more})
    return _("%(ruleset)s (%(changes)s)") % {"ruleset": text,
                                               "changes": gettext("; ").join(named)}
