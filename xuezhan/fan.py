"""Scoring a win (docs/rules.md §4, §7): the pattern, the add-ons, the fan and the points.

>>> from xuezhan.rules import Rules
>>> from xuezhan.tiles import counts_of, parse_tiles, Tile
>>> hand = counts_of(parse_tiles("11223345678999m"))
>>> score = score_win(hand, [], Tile.parse("9m"), 1, Rules.preset("chengdu"))
>>> score.breakdown()
'清一色 2 = 2 fan → 4 × base'

Two fan systems. ``table``: the single highest pattern that fits (patterns do not
add up), then the add-ons. ``additive``: every applicable atomic pattern adds
(清一色 + 对对胡 + 将对, 七对 + 龙七对, 幺九, 天胡/地胡), and 平胡 only when none does.
Of all readings of a hand (``111222333m`` as pungs or as chows, seven pairs or sets)
the one with the most fan is taken, as a player would claim it.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from xuezhan.errors import TileCountError
from xuezhan.hand import (
    PUNGS_ONLY,
    TERMINALS,
    Meld,
    MeldKind,
    readings,
    waits,
)
from xuezhan.rules import Rules
from xuezhan.sentences import add_on_name, add_on_text, breakdown
from xuezhan.tiles import Tile

_KONG_KIND = {MeldKind.MING: "direct", MeldKind.JIA: "added", MeldKind.AN: "concealed"}
#: tie-break among patterns of equal fan: the more specific first; 天胡/地胡 last,
#: since they take the place of the hand pattern only when strictly higher
_PRIORITY = ("qing_long_qi_dui", "qing_yao_jiu", "long_qi_dui", "qing_qi_dui", "jiang_dui",
             "qing_dui", "yao_jiu", "qi_dui", "qing_yi_se", "dui_dui_hu", "ping_hu",
             "tian_hu", "di_hu")
_RANK = {name: i for i, name in enumerate(_PRIORITY)}
_DRAGONS = ("long_qi_dui", "qing_long_qi_dui")


@dataclass(frozen=True, slots=True)
class WinContext:
    """How the winning tile came: the situational add-ons of §4."""

    self_drawn: bool = False
    """自摸 (a win on a kong's replacement tile is self-drawn too)."""
    after_kong: str | None = None
    """杠上花: the kind of the kong whose replacement tile won ("direct"|"added"|"concealed")."""
    kong_discard: bool = False
    """杠上炮: won on the discard right after the discarder's kong."""
    rob_kong: bool = False
    """抢杠: won on another player's added-kong tile."""
    heaven: bool = False
    """天胡 (the caller decides whether it applies)."""
    earth: bool = False
    """地胡 (the caller decides whether it applies)."""
    last_tile: bool = False
    """海底: the win is on the wall's last tile (self-drawn) or on its discard."""
    situational: bool = True
    """False for 查叫 values: no 杠上花/杠上炮/抢杠/天胡/地胡/海底."""


@dataclass(frozen=True, slots=True)
class AddOn:
    """One add-on of a score: ``count`` times ``fan`` (e.g. 根 ×2)."""

    name: str
    fan: int
    count: int = 1

    @property
    def zh(self) -> str:
        return add_on_zh(self.name)

    def to_json(self) -> dict[str, Any]:
        """``name``, ``count``, ``fan`` per unit and their product ``total``."""
        return {"name": self.name, "count": self.count, "fan": self.fan,
                "total": self.fan * self.count}

    def __str__(self) -> str:
        return add_on_text(self.name, self.fan, self.count)


def add_on_zh(name: str) -> str:
    """The 中文 name of an add-on identifier (kong add-ons are ``kong_<kind>``)."""
    return add_on_name(name)


def format_breakdown(parts: Mapping[str, Any]) -> str:
    """The breakdown sentence of a score from its language-independent
    :meth:`Score.parts` (``winning`` and ``reason`` default to a win): the template of
    :mod:`xuezhan.sentences`, which the site renders in its languages."""
    return breakdown(parts)


@dataclass(frozen=True, slots=True)
class Score:
    """The value of a win (or why it is not one)."""

    winning: bool
    """The shape wins, the void suit is met, and the fan reaches ``rules.min_fan``."""
    pattern: str | None
    """The pattern's identifier (additive: the highest component); None if not winning."""
    patterns: tuple[str, ...]
    """Every pattern counted (table: one; additive: all components)."""
    add_ons: tuple[AddOn, ...]
    fan: int
    """Total fan, before the cap."""
    capped: bool
    """``fan > max_fan``."""
    points: int
    """Per payer for base 1: ``rules.points(fan)``; 0 when not winning."""
    reason: str | None = None
    """Why not winning: "not_a_winning_hand" | "holds_void_suit" | "below_min_fan"."""
    pattern_fans: tuple[int, ...] = field(default=(), compare=False)
    """The fan of each entry of ``patterns``."""
    max_fan: int | None = field(default=None, compare=False, repr=False)
    unlisted: int = field(default=0, compare=False, repr=False)
    """A score sheet's fan beyond its listed pattern and add-ons (it gave the total only)."""

    def breakdown(self) -> str:
        """e.g. ``清一色 2 + 根 ×1 + 杠上花 1 = 4 fan → 16 × base``."""
        return format_breakdown({**self.parts(), "winning": self.winning, "reason": self.reason})

    def parts(self) -> dict[str, Any]:
        """What the score is made of, as data: every counted pattern with its fan, every
        add-on with ``count``, ``fan`` per unit and ``total``, the fan, the cap, the points."""
        return {
            "patterns": [{"name": p, "fan": f}
                         for p, f in zip(self.patterns, self.pattern_fans, strict=True)],
            "add_ons": [a.to_json() for a in self.add_ons],
            "fan": self.fan,
            "capped": self.capped,
            "max_fan": self.max_fan,
            "points": self.points,
            **({"unlisted": self.unlisted} if self.unlisted else {}),
        }

    def to_json(self) -> dict[str, Any]:
        """The :meth:`parts`, plus ``winning``, ``reason``, ``pattern`` (the highest
        pattern, kept for older readers) and the ``breakdown`` sentence."""
        return {"winning": self.winning, "reason": self.reason, "pattern": self.pattern,
                **self.parts(), "breakdown": self.breakdown()}


def _not_winning(reason: str) -> Score:
    return Score(False, None, (), (), 0, False, 0, reason)


def score_win(counts: Sequence[int], melds: Sequence[Meld], win_tile: int, void: int | None,
              rules: Rules, ctx: WinContext = WinContext(), *, strict: bool = True) -> Score:
    """Score a win: ``counts`` are the 27 concealed counts including ``win_tile``.

    An expected "no" is a result: a hand that does not win scores ``winning=False``
    with the ``reason``. The input is trusted (the caller checks tile supply).

    :raises TileCountError: when ``counts`` do not hold 14 − 3·melds tiles (相公): such a
        hand is no hand at all, not a hand that fails to win. ``strict=False`` (the replay,
        which has already reported how a corrupt log got there) scores it as no win.

    >>> from xuezhan.rules import Rules
    >>> from xuezhan.tiles import counts_of, parse_tiles, Tile
    >>> s = score_win(counts_of(parse_tiles("11222244m557788p")), [], Tile.parse("8p"), 2,
    ...               Rules.preset("online"))
    >>> s.pattern, s.fan, s.points
    ('long_qi_dui', 5, 16)
    """
    if strict:
        check_tile_count(counts, melds, winning=True)
    return _score(counts, melds, win_tile, void, rules, ctx, exclude_kong_fan=False)


def check_tile_count(counts: Sequence[int], melds: Sequence[Meld], *, winning: bool) -> None:
    """Refuse a 相公 hand: concealed tiles must number 13 − 3·melds while waiting, one more
    with the winning tile (docs/rules.md §3).

    :raises TileCountError: naming the count and the expected one.
    """
    expected = (14 if winning else 13) - 3 * len(melds)
    count = sum(counts)
    if count != expected:
        raise TileCountError(count, expected, len(melds))


def _score(counts: Sequence[int], melds: Sequence[Meld], win_tile: int, void: int | None,
           rules: Rules, ctx: WinContext, exclude_kong_fan: bool) -> Score:
    counts = list(counts)
    try:
        keys = _split(bytes(counts))
    except (ValueError, struct.error):  # no count a hand can hold (27 of 0-255)
        return _not_winning("not_a_winning_hand")
    # what each suit holds, looked up by its key: the tiles, whether all in pairs,
    # the fours, the ranks (a bit each)
    facts = [_SUIT_FACTS.get(k) or _suit_facts(k) for k in keys]
    total = facts[0][0] + facts[1][0] + facts[2][0]
    standard = readings(counts) if total == 14 - 3 * len(melds) else 0
    seven = (not melds and total == 14
             and facts[0][1] and facts[1][1] and facts[2][1])  # 七对
    if not standard and not seven:
        return _not_winning("not_a_winning_hand")
    if void is not None and (facts[void][0] or any(m.tile // 9 == void for m in melds)):
        return _not_winning("holds_void_suit")

    meld_features = PUNGS_ONLY | TERMINALS
    suits = {s for s in range(3) if facts[s][0]}
    ranks = facts[0][3] | facts[1][3] | facts[2][3]
    for m in melds:
        if m.tile % 9 not in (0, 8):
            meld_features &= ~TERMINALS
        suits.add(m.tile // 9)
        ranks |= 1 << m.tile % 9
    hand = _Hand(counts, melds, win_tile, rules, ctx, qing=len(suits) == 1,
                 all_258=not ranks & ~_RANKS_258, no_terminals=not ranks & _TERMINAL_RANKS,
                 fours=facts[0][2] + facts[1][2] + facts[2][2])

    best: tuple[tuple[int, int, int], Score] | None = None
    options = [f & meld_features for f in range(4) if standard >> f & 1]
    options += [-1] if seven else []
    if len(options) == 1:
        return hand.score(options[0], exclude_kong_fan)
    for features in options:
        score = hand.score(features, exclude_kong_fan)
        key = (score.fan, score.pattern_fans[0] if score.pattern_fans else 0,
               -_RANK[score.pattern or "ping_hu"])
        if best is None or key > best[0]:
            best = (key, score)
    assert best is not None
    return best[1]


#: one C call splits 27 counts (as bytes) into the three suits' 9-byte keys
_split = struct.Struct("9s9s9s").unpack
_RANKS_258 = 1 << 1 | 1 << 4 | 1 << 7
_TERMINAL_RANKS = 1 << 0 | 1 << 8
_SuitFacts = tuple[int, bool, int, int]
#: 9-byte suit key -> (its tiles, all in pairs (a four is two), its fours, the mask of
#: the ranks it holds), filled in as keys are met
_SUIT_FACTS: dict[bytes, _SuitFacts] = {}


def _suit_facts(key: bytes) -> _SuitFacts:
    facts = (sum(key), all(n % 2 == 0 for n in key), sum(1 for n in key if n >= 4),
             sum(1 << r for r, n in enumerate(key) if n))
    if len(_SUIT_FACTS) < 100_000:  # real suits number a few thousand: a bound all the same
        _SUIT_FACTS[key] = facts
    return facts


class _Hand:
    """One winning hand being scored; :meth:`score` values one reading of it."""

    def __init__(self, counts: list[int], melds: Sequence[Meld], win_tile: int, rules: Rules,
                 ctx: WinContext, *, qing: bool, all_258: bool, no_terminals: bool,
                 fours: int) -> None:
        self.counts = counts
        self.melds = melds
        self.win_tile = win_tile
        self.rules = rules
        self.ctx = ctx
        self.qing = qing
        self.all_258 = all_258
        self.no_terminals = no_terminals
        self.dragons = fours
        """Fours in the concealed hand: a dragon of seven pairs, or a 根."""
        self.plan = _plan_of(rules)

    def score(self, features: int, exclude_kong_fan: bool) -> Score:
        """Score one reading: ``features`` of a sets-and-pair reading, or −1 for seven pairs."""
        rules = self.rules
        fans = rules.patterns
        seven = features < 0
        if rules.fan_system == "additive":
            chosen = self._components(features)
            dragon = seven and "long_qi_dui" in chosen
        else:
            chosen = [self._table_pattern(features)]
            dragon = chosen[0] in _DRAGONS
        add_ons = self._add_ons(features, dragon, exclude_kong_fan)
        if rules.exclusions:
            chosen, add_ons = _exclude(rules.exclusions, chosen, add_ons)
        pattern_fans = tuple(fans[p] or 0 for p in chosen)
        fan = sum(pattern_fans) + sum(a.fan * a.count for a in add_ons)
        top = chosen[0] if len(chosen) == 1 else max(chosen,
                                                     key=lambda p: (fans[p] or 0, -_RANK[p]))
        capped = rules.max_fan is not None and fan > rules.max_fan
        if fan < rules.min_fan:
            return Score(False, None, tuple(chosen), add_ons, fan, capped, 0, "below_min_fan",
                         pattern_fans, rules.max_fan)
        return Score(True, top, tuple(chosen), add_ons, fan, capped, rules.points(fan), None,
                     pattern_fans, rules.max_fan)

    def _fits(self, features: int) -> list[str]:
        """The hand patterns of the table that fit this reading (not 天胡/地胡)."""
        if features < 0:
            names = ["ping_hu", "qi_dui"]
            if self.dragons:
                names.append("long_qi_dui")
            if self.qing:
                names += ["qing_qi_dui", "qing_long_qi_dui"] if self.dragons else ["qing_qi_dui"]
            return names
        pungs, terminals = bool(features & PUNGS_ONLY), bool(features & TERMINALS)
        names = ["ping_hu"]
        if pungs:
            names.append("dui_dui_hu")
            if self.all_258:
                names.append("jiang_dui")
        if terminals:
            names.append("yao_jiu")
        if self.qing:
            names.append("qing_yi_se")
            if pungs:
                names.append("qing_dui")
            if terminals:
                names.append("qing_yao_jiu")
        return names

    def _situational_patterns(self) -> list[str]:
        ctx = self.ctx
        if not (self.rules.heaven_earth and ctx.situational):
            return []
        return [name for name, on in (("tian_hu", ctx.heaven), ("di_hu", ctx.earth)) if on]

    def _table_pattern(self, features: int) -> str:
        fans = self.rules.patterns
        # the hand pattern depends on the reading's shape alone: worked out once per
        # ruleset and shape
        shape = (features, self.qing, self.all_258, self.dragons > 0)
        best = self.plan.table_best.get(shape)
        if best is None:
            names = [p for p in self._fits(features) if fans[p] is not None]
            if not names:
                names = ["ping_hu"]  # every pattern switched off: a plain win worth 0
            best = self.plan.table_best[shape] = max(
                names, key=lambda p: (fans[p] or 0, -_RANK[p]))
        for name in self._situational_patterns():
            # choice (docs/rules.md §4): 天胡/地胡 take the place of the hand pattern when higher
            if fans[name] is not None and (fans[name] or 0) > (fans[best] or 0):
                best = name
        return best

    def _components(self, features: int) -> list[str]:
        fans = self.rules.patterns
        if features < 0:
            atoms = ["qi_dui"] + (["long_qi_dui"] if self.dragons else [])
        else:
            atoms = []
            if features & PUNGS_ONLY:
                atoms += ["dui_dui_hu"] + (["jiang_dui"] if self.all_258 else [])
            if features & TERMINALS:
                atoms.append("yao_jiu")
        if self.qing:
            atoms.insert(0, "qing_yi_se")
        atoms += self._situational_patterns()
        chosen = [p for p in atoms if fans[p] is not None]
        return chosen or ["ping_hu"]

    def _add_ons(self, features: int, dragon: bool, exclude_kong_fan: bool) -> tuple[AddOn, ...]:
        rules, melds = self.rules, self.melds
        extra = rules.add_ons
        out: list[AddOn] = []
        roots = self._roots()
        if dragon and rules.dragon_root == "exclude_one":
            # choice (docs/rules.md §4): the four that makes the dragon is not a 根 again
            roots -= 1
        if extra["gen"] is not None and roots > 0:
            out.append(_add_on("gen", extra["gen"], roots))
        if not exclude_kong_fan and any(m.kind is not MeldKind.PENG for m in melds):
            kongs = dict.fromkeys(("direct", "added", "concealed"), 0)  # in this order
            for m in melds:
                if m.kind in _KONG_KIND:
                    kongs[_KONG_KIND[m.kind]] += 1
            for kind, n in kongs.items():
                if n and rules.kong_fan[kind]:
                    out.append(_add_on(f"kong_{kind}", rules.kong_fan[kind], n))
        for name, fan in self.plan.flagged:  # the add-ons the ruleset counts, in order
            if _FLAGS[name](self, features):
                out.append(_add_on(name, fan, 1))
        return tuple(out)

    def _yi_tiao_long(self, features: int) -> bool:
        """一条龙: 123, 456 and 789 of one suit as three sets of a sets-and-pair reading
        (the melds are pungs and kongs, so the straight is in the concealed hand)."""
        if features < 0 or features & PUNGS_ONLY:
            return False
        counts = self.counts
        for base in (0, 9, 18):
            if all(counts[base:base + 9]):
                rest = list(counts)
                for k in range(base, base + 9):
                    rest[k] -= 1
                if readings(rest):
                    return True
        return False

    def _jia_xin_wu(self, features: int) -> bool:
        """夹心五: won on a 5 that reads as the middle of a 4-5-6 (a sets-and-pair reading
        with that chow)."""
        win = self.win_tile
        if features < 0 or features & PUNGS_ONLY or win % 9 != 4:
            return False
        counts = self.counts
        if not (counts[win - 1] and counts[win + 1]):
            return False
        rest = list(counts)
        for k in (win - 1, win, win + 1):
            rest[k] -= 1
        return bool(readings(rest))

    def _self_drawn(self) -> bool:
        return self.ctx.self_drawn or self.ctx.after_kong is not None

    def _zi_mo(self, features: int) -> bool:
        rules, ctx = self.rules, self.ctx
        # 点杠花 under dian_gang_hua "discard" is a discard win (docs/rules.md §4): the
        # kong-tile discarder pays alone, so no 自摸加番 (as settlement adds no 自摸加底)
        return rules.self_draw_bonus == "plus_fan" and self._self_drawn() and not (
            rules.dian_gang_hua == "discard" and ctx.after_kong == "direct")

    def _roots(self) -> int:
        """根 by ``rules.root``: fours in the concealed hand; ``no_kongs`` adds a pung with
        its fourth in hand; ``all`` adds declared kongs too."""
        counts, root = self.counts, self.rules.root
        n = self.dragons
        if root in ("no_kongs", "all"):
            n += sum(1 for m in self.melds if m.kind is MeldKind.PENG and counts[m.tile])
        if root == "all":
            n += sum(1 for m in self.melds if m.is_kong)
        return n

    def _jin_gou_diao(self, features: int) -> bool:
        """金钩钓: ``melded_four`` — four melds and a single wait on the pair;
        ``pair_wait_all_pungs`` — every set a pung or kong, won on the pair's tile."""
        counts, win = self.counts, self.win_tile
        if features < 0 or counts[win] != 2:
            return False
        if self.rules.jin_gou_diao == "melded_four":
            return len(self.melds) == 4
        return bool(features & PUNGS_ONLY)


#: each flag add-on's test, in the order a score lists them
_FLAGS: dict[str, Callable[[_Hand, int], bool]] = {
    "gang_shang_hua": lambda h, f: h.ctx.situational and h.ctx.after_kong is not None,
    "gang_shang_pao": lambda h, f: h.ctx.situational and h.ctx.kong_discard,
    "qiang_gang": lambda h, f: h.ctx.situational and h.ctx.rob_kong,
    "zi_mo": _Hand._zi_mo,
    "jin_gou_diao": _Hand._jin_gou_diao,
    "hai_di_lao_yue": lambda h, f: h.ctx.situational and h.ctx.last_tile and h._self_drawn(),
    "hai_di_pao": lambda h, f: h.ctx.situational and h.ctx.last_tile and not h._self_drawn(),
    # choice: an added kong (补杠) grew from a peng, so it is not 门清 either
    "men_qing": lambda h, f: all(m.kind is MeldKind.AN for m in h.melds),
    "zhong_zhang": lambda h, f: h.no_terminals,
    "yi_tiao_long": _Hand._yi_tiao_long,
    "jia_xin_wu": _Hand._jia_xin_wu,
}


def _exclude(pairs: Sequence[tuple[str, str]], chosen: list[str],
             add_ons: tuple[AddOn, ...]) -> tuple[list[str], tuple[AddOn, ...]]:
    """Drop the second of each pair that applies together with the first (docs/rules.md
    §4, ``exclusions``); a reading left with no pattern counts as 平胡."""
    present = set(chosen) | {a.name for a in add_ons}
    for kept, dropped in pairs:
        if kept in present and dropped in present:
            present.discard(dropped)
    if len(present) == len(chosen) + len(add_ons):
        return chosen, add_ons
    left = [p for p in chosen if p in present] or ["ping_hu"]
    return left, tuple(a for a in add_ons if a.name in present)


class _Plan:
    """What scoring reads of one ruleset, worked out once for it: the flag add-ons it
    counts and their fan, and (filled in as met) the table system's hand pattern of each
    reading shape. A :class:`Rules` is never changed once built."""

    __slots__ = ("flagged", "rules", "table_best")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        extra = rules.add_ons
        self.flagged = tuple((name, extra[name] or 0) for name in _FLAGS
                             if extra[name] is not None)
        self.table_best: dict[tuple[int, bool, bool, bool], str] = {}


#: the plan of the ruleset scored last (a match scores every win under one ruleset)
_last_plan: _Plan | None = None


def _plan_of(rules: Rules) -> _Plan:
    global _last_plan
    plan = _last_plan
    if plan is None or plan.rules is not rules:
        plan = _last_plan = _Plan(rules)
    return plan


#: AddOn values are immutable and few: one object for each (name, fan, count) met
_ADD_ONS: dict[tuple[str, int, int], AddOn] = {}


def _add_on(name: str, fan: int, count: int) -> AddOn:
    key = (name, fan, count)
    found = _ADD_ONS.get(key)
    if found is None:
        found = AddOn(name, fan, count)
        if len(_ADD_ONS) < 4096:  # a ruleset sets the fans: keep the table small
            _ADD_ONS[key] = found
    return found


def ting_value(counts: Sequence[int], melds: Sequence[Meld], void: int | None, rules: Rules,
               exclude_kong_fan: bool = False, *, strict: bool = True,
               ) -> tuple[int, list[tuple[Tile, Score]]] | None:
    """查叫 value of a ready hand: the highest fan over its waits, each scored as a
    discard win with no situational add-ons, and the per-wait scores (only the waits
    that score a win). None when no wait reaches ``rules.min_fan`` (not ready).

    With ``rules.ting_check_waits == "live"`` a wait whose four copies are all in the
    player's own hand and melds is dropped. ``exclude_kong_fan`` leaves the winner's kong
    add-ons out (``ting_check == "max_no_kong_fan"``).

    :raises TileCountError: when ``counts`` do not hold 13 − 3·melds tiles (相公);
        ``strict=False`` (the replay) finds such a hand not ready.

    >>> from xuezhan.rules import Rules
    >>> from xuezhan.tiles import counts_of, parse_tiles
    >>> value, per_wait = ting_value(counts_of(parse_tiles("112233556677p9m")), [], 2,
    ...                              Rules.preset("chengdu"))
    >>> value, per_wait[0][1].pattern
    (2, 'qi_dui')
    """
    if strict:
        check_tile_count(counts, melds, winning=False)
    if void is not None and any(m.tile // 9 == void for m in melds):
        return None
    ctx = WinContext(situational=False)
    found: list[tuple[Tile, Score]] = []
    for tile in waits(counts, void):
        if rules.ting_check_waits == "live":
            held = counts[tile] + sum(m.size for m in melds if m.tile == tile)
            if held >= 4:
                continue
        grown = list(counts)
        grown[tile] += 1
        score = _score(grown, melds, tile, void, rules, ctx, exclude_kong_fan)
        if score.winning:
            found.append((tile, score))
    if not found:
        return None
    return max(s.fan for _, s in found), found


def best_wait(value: tuple[int, list[tuple[Tile, Score]]] | None) -> Tile | None:
    """The wait that gives a :func:`ting_value` its value (the first in tile order)."""
    if value is None:
        return None
    return next(tile for tile, score in value[1] if score.fan == value[0])
