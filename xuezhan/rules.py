"""Rulesets as data: the two presets of docs/rules.md and every house-rule option.

A :class:`Rules` is a preset plus named overrides. It is stored with every upload and
printed in every report, so it round-trips through plain JSON::

    >>> r = Rules.from_json({"preset": "chengdu", "max_fan": 4})
    >>> r.max_fan, r.fan_offset
    (4, 0)
    >>> Rules.from_json(r.to_json()) == r
    True

Option names and values are the contract of docs/rules.md §7; an unknown option or a bad
value raises :class:`~xuezhan.errors.RulesError` naming it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from xuezhan.errors import RulesError
from xuezhan.hand import KongKind
from xuezhan.reader import ReadError, read_json

DIRECTIONS: tuple[str, ...] = ("from_next", "from_prev", "opposite")
#: the keys of kong_payments and kong_fan: the values of KongKind
KONG_KINDS: tuple[str, ...] = tuple(kind.value for kind in KongKind)

#: every pattern of docs/rules.md §4 with its identifier; the value is the 中文 name
PATTERN_NAMES: dict[str, str] = {
    "ping_hu": "平胡",
    "dui_dui_hu": "对对胡",
    "qing_yi_se": "清一色",
    "qi_dui": "七对",
    "yao_jiu": "幺九",
    "qing_dui": "清对",
    "jiang_dui": "将对",
    "qing_qi_dui": "清七对",
    "long_qi_dui": "龙七对",
    "qing_yao_jiu": "清幺九",
    "qing_long_qi_dui": "清龙七对",
    "tian_hu": "天胡",
    "di_hu": "地胡",
}
#: add-ons of §4 and the extra patterns of §7 (the extras are off unless given a fan)
ADD_ON_NAMES: dict[str, str] = {
    "gen": "根",
    "gang_shang_hua": "杠上花",
    "gang_shang_pao": "杠上炮",
    "qiang_gang": "抢杠",
    "zi_mo": "自摸加番",
    "jin_gou_diao": "金钩钓",
    "hai_di_lao_yue": "海底捞月",
    "hai_di_pao": "海底炮",
    "men_qing": "门清",
    "zhong_zhang": "中张",
    "yi_tiao_long": "一条龙",
    "jia_xin_wu": "夹心五",
}
#: names of the winner's own kongs as add-ons, by kong kind
KONG_ADD_ON_NAMES: dict[str, str] = {"direct": "直杠", "added": "补杠", "concealed": "暗杠"}

_CHENGDU_PATTERNS = {
    "ping_hu": 0, "dui_dui_hu": 1, "qing_yi_se": 2, "qi_dui": 2, "yao_jiu": 2,
    "qing_dui": 3, "jiang_dui": 3, "qing_qi_dui": 4, "long_qi_dui": 4, "qing_yao_jiu": 4,
    "qing_long_qi_dui": 5, "tian_hu": 5, "di_hu": 5,
}
_BASE_ADD_ONS: dict[str, int | None] = {
    "gen": 1, "gang_shang_hua": 1, "gang_shang_pao": 1, "qiang_gang": 1, "zi_mo": 1,
    "jin_gou_diao": None, "hai_di_lao_yue": None, "hai_di_pao": None,
    "men_qing": None, "zhong_zhang": None, "yi_tiao_long": None, "jia_xin_wu": None,
}

_CHOICES: dict[str, tuple[str, ...]] = {
    "self_draw_bonus": ("none", "plus_fan", "plus_base"),
    "fan_system": ("table", "additive"),
    "root": ("concealed", "no_kongs", "all"),
    "kong_then_discard_won": ("keep", "transfer_last", "transfer_all", "refund"),
    "dian_gang_hua": ("self_draw", "discard"),
    "flower_pig_rule": ("three_suits", "holds_void"),
    "flower_pig_payees": ("all_non_pigs", "non_pigs_in_round", "pot"),
    "ting_check": ("max", "max_no_kong_fan", "flat", "off"),
    "ting_check_waits": ("theoretical", "live"),
    "passed_win": ("off", "until_next_draw", "strict"),
    "last_four": ("off", "must_win_self_draw", "must_win_all"),
    "jin_gou_diao": ("melded_four", "pair_wait_all_pungs"),
    "kong_draw": ("front", "back"),
    "dragon_root": ("exclude_one", "count_all"),
    "last_discard_claims": ("win_only", "peng"),
    "kong_payment_timing": ("immediate", "after_discard"),
}
_EXCHANGE_NAMES = ("off", "dice", "parity", *DIRECTIONS)
_BOOLS = ("void_first", "no_claim_void", "pig_pays_ting_check", "price_difference",
          "tax_refund", "heaven_earth", "kong_after_peng", "added_kong_fresh_only")


@dataclass(frozen=True)
class Rules:
    """One resolved ruleset. Build it with :meth:`preset` or :meth:`from_json`."""

    preset_name: str = "chengdu"
    exchange: str | dict[str, Any] = "dice"
    void_first: bool = False
    no_claim_void: bool = False
    fan_offset: int = 0
    max_fan: int | None = None
    self_draw_bonus: str = "none"
    kong_payments: dict[str, int] = field(
        default_factory=lambda: {"direct": 2, "added": 1, "concealed": 2})
    kong_fan: dict[str, int] = field(
        default_factory=lambda: {"direct": 1, "added": 1, "concealed": 2})
    fan_system: str = "table"
    root: str = "no_kongs"
    kong_then_discard_won: str = "keep"
    dian_gang_hua: str = "self_draw"
    flower_pig: int | str = 16
    flower_pig_rule: str = "three_suits"
    flower_pig_payees: str = "all_non_pigs"
    pig_pays_ting_check: bool = True
    ting_check: str = "max"
    ting_check_waits: str = "theoretical"
    price_difference: bool = True
    tax_refund: bool = True
    passed_win: str = "until_next_draw"
    last_four: str = "must_win_self_draw"
    heaven_earth: bool = True
    min_fan: int = 0
    jin_gou_diao: str = "melded_four"
    kong_draw: str = "front"
    #: after a peng, may the claimer declare a concealed or added kong before discarding?
    #: (docs/rules.md §2.5; false: only a discard is legal, code ``kong_after_peng``)
    kong_after_peng: bool = False
    #: choice (docs/rules.md §4): in 龙七对 the four that makes the dragon is not a 根 again
    dragon_root: str = "exclude_one"
    #: what the discard after the wall's last tile may be claimed for (docs/rules.md §2.5):
    #: ``win_only``, or ``peng`` too (never a kong: no replacement tile is left)
    last_discard_claims: str = "win_only"
    #: an added kong pays its kong money only when its tile is the one just drawn (回头杠
    #: pays nothing, docs/rules.md §5)
    added_kong_fresh_only: bool = False
    #: kong money is paid at once (``immediate``) or when the declarer next discards
    #: (``after_discard``: never, if its own win on the replacement tile comes first)
    kong_payment_timing: str = "immediate"
    #: a declared win with a hand that does not win (诈胡): ``violation``, or a penalty
    #: ``{"penalty": points or "cap", "to": "each_other_player" | "pot"}`` and play goes on
    false_win: str | dict[str, Any] = "violation"
    #: pairs ``(a, b)`` of patterns or add-ons that do not stack: when both apply, ``b``
    #: drops (docs/rules.md §4); in the order given, each against what is left
    exclusions: tuple[tuple[str, str], ...] = ()
    patterns: dict[str, int | None] = field(default_factory=lambda: dict(_CHENGDU_PATTERNS))
    add_ons: dict[str, int | None] = field(default_factory=lambda: dict(_BASE_ADD_ONS))

    # -- construction -------------------------------------------------------------

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The preset ``chengdu`` (the Chengdu rules) or ``online`` (the online rules)."""
        if name == "chengdu":
            return cls()
        if name == "online":
            return cls(
                preset_name="online", fan_offset=1, max_fan=7,
                kong_fan={"direct": 0, "added": 0, "concealed": 0},
                root="all", kong_then_discard_won="transfer_last", dian_gang_hua="discard",
                flower_pig="cap", pig_pays_ting_check=False, price_difference=False,
                last_four="must_win_all", min_fan=1,
                patterns={k: v + 1 for k, v in _CHENGDU_PATTERNS.items()},
            )
        raise RulesError("preset", f"unknown preset {name!r} (known: chengdu, online)")

    @classmethod
    def from_json(cls, obj: object) -> Rules:
        """Read a preset name, or ``{"preset": ..., option: value, ...}`` (preset defaults
        to ``chengdu``), or a JSON string of either.

        :raises RulesError: naming the unknown option or the bad value.
        """
        if isinstance(obj, Rules):
            return obj
        if isinstance(obj, str) and obj.lstrip().startswith("{"):
            try:
                obj = read_json(obj)
            except ReadError as exc:
                raise RulesError("ruleset", f"not readable JSON ({exc})") from None
        if isinstance(obj, str):
            return cls.preset(obj)
        if not isinstance(obj, Mapping):
            raise RulesError("ruleset", "must be a preset name or an object")
        preset = obj.get("preset", "chengdu")
        if not isinstance(preset, str):
            raise RulesError("preset", "must be a preset name")
        overrides = {k: v for k, v in obj.items() if k != "preset"}
        return cls.preset(preset).with_options(overrides)

    def with_options(self, overrides: Mapping[str, object]) -> Rules:
        """A copy with some options changed, each validated."""
        changes: dict[str, Any] = {}
        for name, value in overrides.items():
            if name not in _OPTION_FIELDS:
                raise RulesError(str(name), "unknown option")
            changes[name] = _validate(name, value, self)
        rules = dataclasses.replace(self, **changes)
        rules._check_consistent()
        return rules

    def to_json(self) -> dict[str, Any]:
        """Every option, resolved, as plain JSON (with ``preset`` first)."""
        out: dict[str, Any] = {"preset": self.preset_name}
        for name in _OPTION_FIELDS:
            value = getattr(self, name)
            out[name] = (dict(value) if isinstance(value, dict) else
                         [list(pair) for pair in value] if name == "exclusions" else value)
        return out

    def _check_consistent(self) -> None:
        if self.flower_pig == "cap" and self.max_fan is None:
            raise RulesError("flower_pig", "'cap' needs a max_fan")
        if isinstance(self.false_win, dict) and self.false_win["penalty"] == "cap" \
                and self.max_fan is None:
            raise RulesError("false_win.penalty", "'cap' needs a max_fan")

    # -- derived values ----------------------------------------------------------

    def points(self, fan: int) -> int:
        """Points one payer pays for ``fan`` (base 1): ``2^(min(fan, max_fan) − offset)``.

        An exponent below zero counts as zero: points are whole numbers.
        """
        return 1 << max(self.capped(fan) - self.fan_offset, 0)

    def capped(self, fan: int) -> int:
        return fan if self.max_fan is None else min(fan, self.max_fan)

    @property
    def false_win_penalty(self) -> int:
        """The 诈胡 penalty in points for base 1 (0: a false win is a violation)."""
        rule = self.false_win
        if not isinstance(rule, dict):
            return 0
        if rule["penalty"] == "cap":
            assert self.max_fan is not None
            return self.points(self.max_fan)
        return int(rule["penalty"])

    @property
    def pig_penalty(self) -> int:
        """The flower-pig penalty in points for base 1 (0: no check)."""
        if self.flower_pig == "cap":
            assert self.max_fan is not None
            return self.points(self.max_fan)
        return int(self.flower_pig)

    def exchange_direction(self, die: int, dice_sum: int | None) -> str | None:
        """Where each seat's three tiles come from for this die, or None when off."""
        rule = self.exchange
        if isinstance(rule, dict):
            key = die if rule["by"] == "die" else dice_sum
            return str(rule["map"].get(str(key))) if key is not None else None
        if rule == "off":
            return None
        if rule == "dice":
            return ("from_next", "opposite", "from_prev")[(die - 1) // 2]
        if rule == "parity":
            return "from_next" if die % 2 else "from_prev"
        return rule


_OPTION_FIELDS = tuple(f.name for f in dataclasses.fields(Rules) if f.name != "preset_name")


def _validate(name: str, value: object, base: Rules) -> object:
    if name in _BOOLS:
        if not isinstance(value, bool):
            raise RulesError(name, f"must be true or false, not {value!r}")
        return value
    if name in _CHOICES:
        if value not in _CHOICES[name]:
            raise RulesError(name, f"must be one of {', '.join(_CHOICES[name])}, not {value!r}")
        return value
    if name in ("fan_offset", "min_fan"):
        return _count(name, value)
    if name == "max_fan":
        return None if value is None else _count(name, value)
    if name == "flower_pig":
        return "cap" if value == "cap" else _count(name, value)
    if name in ("kong_payments", "kong_fan"):
        return _kong_map(name, value, getattr(base, name))
    if name in ("patterns", "add_ons"):
        known = PATTERN_NAMES if name == "patterns" else ADD_ON_NAMES
        return _fan_map(name, value, getattr(base, name), known)
    if name == "exchange":
        return _exchange(value)
    if name == "exclusions":
        return _exclusions(value)
    if name == "false_win":
        return _false_win(value)
    raise RulesError(name, "unknown option")  # pragma: no cover - guarded by the caller


#: the largest fan an option may give, and the largest amount (points) — far past any
#: house rule; beyond them 2^fan and the sentences that print it would blow up the verifier
MAX_FAN_OPTION = 64
MAX_AMOUNT_OPTION = 1_000_000


def _count(name: str, value: object) -> int:
    limit = (MAX_AMOUNT_OPTION if name.split(".")[0] in ("flower_pig", "kong_payments",
                                                         "false_win")
             else MAX_FAN_OPTION)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= limit:
        shown = ("a number out of range" if isinstance(value, int) and abs(value) > 10**12
                 else repr(value)[:60])  # the repr of a huge int itself raises
        raise RulesError(name, f"must be a whole number from 0 to {limit}, not {shown}")
    return value


def _kong_map(name: str, value: object, base: dict[str, int]) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise RulesError(name, "must be an object like {\"direct\": 2, \"added\": 1, ...}")
    out = dict(base)
    for kind, n in value.items():
        if kind not in KONG_KINDS:
            raise RulesError(f"{name}.{kind}", "unknown kong kind (direct, added, concealed)")
        out[kind] = _count(f"{name}.{kind}", n)
    return out


def _fan_map(name: str, value: object, base: dict[str, int | None],
             known: Mapping[str, str]) -> dict[str, int | None]:
    """Read ``{name: fan}``; a key is an identifier or its 中文 name (``清一色`` is
    ``qing_yi_se``), and the result is keyed by identifiers only."""
    if not isinstance(value, Mapping):
        raise RulesError(name, "must be an object of name: fan (or null to switch off)")
    by_zh = {zh: ident for ident, zh in known.items()}
    out = dict(base)
    given: dict[str, object] = {}
    for key, fan in value.items():
        ident = key if key in known else by_zh.get(key)
        if ident is None:
            raise RulesError(f"{name}.{key}", f"unknown name (known: {', '.join(known)}, "
                             f"or their 中文 names {', '.join(known.values())})")
        if ident in given:
            raise RulesError(f"{name}.{key}", f"names {ident} twice ({given[ident]!r} and {key!r})")
        given[ident] = key
        out[ident] = None if fan is None else _count(f"{name}.{ident}", fan)
    return out


#: what an exclusion may name: every pattern, add-on and the winner's own kongs
EXCLUDABLE: dict[str, str] = {**PATTERN_NAMES, **ADD_ON_NAMES,
                              **{f"kong_{k}": v for k, v in KONG_ADD_ON_NAMES.items()}}


def _exclusions(value: object) -> tuple[tuple[str, str], ...]:
    """Read ``[[a, b], ...]`` (identifiers or 中文 names): when both apply, ``b`` drops."""
    if not isinstance(value, (list, tuple)):
        raise RulesError("exclusions", "must be a list of [pattern_or_add_on, "
                         "pattern_or_add_on] pairs")
    if len(value) > 64:
        raise RulesError("exclusions", "at most 64 pairs")
    by_zh = {zh: ident for ident, zh in EXCLUDABLE.items()}
    out: list[tuple[str, str]] = []
    for i, pair in enumerate(value):
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise RulesError(f"exclusions.{i}", "must be a pair [kept, dropped]")
        names = []
        for name in pair:
            ident = name if name in EXCLUDABLE else by_zh.get(name) if isinstance(
                name, str) else None
            if ident is None:
                raise RulesError(f"exclusions.{i}", f"unknown pattern or add-on "
                                 f"{str(name)[:40]!r} (known: {', '.join(EXCLUDABLE)})")
            names.append(ident)
        if names[0] == names[1]:
            raise RulesError(f"exclusions.{i}", f"names {names[0]} twice")
        out.append((names[0], names[1]))
    return tuple(out)


FALSE_WIN_PAYEES: tuple[str, ...] = ("each_other_player", "pot")


def _false_win(value: object) -> str | dict[str, Any]:
    if value == "violation":
        return "violation"
    if not isinstance(value, Mapping) or set(value) != {"penalty", "to"}:
        raise RulesError("false_win", "must be 'violation' or {\"penalty\": points or "
                         "\"cap\", \"to\": \"each_other_player\" or \"pot\"}")
    penalty = "cap" if value["penalty"] == "cap" else _count("false_win.penalty",
                                                             value["penalty"])
    if value["to"] not in FALSE_WIN_PAYEES:
        raise RulesError("false_win.to", f"must be one of {', '.join(FALSE_WIN_PAYEES)}, "
                         f"not {str(value['to'])[:40]!r}")
    return {"penalty": penalty, "to": value["to"]}


def _exchange(value: object) -> str | dict[str, Any]:
    if isinstance(value, str):
        if value not in _EXCHANGE_NAMES:
            raise RulesError("exchange", f"must be one of {', '.join(_EXCHANGE_NAMES)} "
                             f"or a table, not {value!r}")
        return value
    if not isinstance(value, Mapping) or set(value) != {"by", "map"}:
        raise RulesError("exchange", "a table must be {\"by\": \"die\"|\"sum\", \"map\": {...}}")
    by, mapping = value["by"], value["map"]
    keys = [str(k) for k in (range(1, 7) if by == "die" else range(2, 13))]
    if by not in ("die", "sum"):
        raise RulesError("exchange.by", f"must be 'die' or 'sum', not {by!r}")
    if not isinstance(mapping, Mapping) or set(map(str, mapping)) != set(keys):
        raise RulesError("exchange.map", f"must map each of {', '.join(keys)} to a direction")
    for key, direction in mapping.items():
        if direction not in DIRECTIONS:
            raise RulesError(f"exchange.map.{key}",
                             f"must be one of {', '.join(DIRECTIONS)}, not {direction!r}")
    return {"by": by, "map": {str(k): v for k, v in mapping.items()}}


PRESETS: tuple[str, ...] = ("chengdu", "online")
