"""Settling a round: who pays whom, and why (docs/rules.md §4 "Who pays a win", §5).

The replay turns a round log into a :class:`RoundRecord` — the kongs and wins in the
order they happened, plus the end-of-round checks of a drawn round — and
:func:`settle` turns that into a list of :class:`Payment` and the four seat totals::

    >>> from xuezhan.rules import Rules
    >>> win = WinEvent(index=40, seat=1, tile=4, discarder=3, fan=2, points=4,
    ...                detail="清一色 2 = 2 fan → 4 × base", pattern="qing_yi_se",
    ...                in_round=frozenset({0, 1, 2, 3}), group=40)
    >>> result = settle(RoundRecord(dealer=0, events=(win,), drawn=False), Rules.preset("chengdu"))
    >>> [(p.payer, p.payee, p.amount, p.reason) for p in result.payments]
    [(3, 1, 4, 'win_discard')]
    >>> result.deltas, result.next_dealer
    ((0, 4, 0, -4), 1)

The record is trusted: :func:`settle` does not re-check that a win is a winning hand
or that an in-round set is right (the replay does). It only refuses records it cannot
settle at all (a seat outside 0–3, a base below 1) with :class:`SettlementError`, and
it never emits a payment of 0 or from a seat to itself.

Decisions where docs/rules.md is silent are marked **choice** below.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from xuezhan.errors import XuezhanError
from xuezhan.fan import Score
from xuezhan.rules import Rules
from xuezhan.sentences import SENTENCES, self_drawn_sentences
from xuezhan.sentences import describe as _describe
from xuezhan.tiles import NUM_KINDS, TILES

SEATS: tuple[int, ...] = (0, 1, 2, 3)

#: the stable payment reason codes
REASONS: tuple[str, ...] = (
    "win_self_drawn", "win_discard", "win_rob_kong",
    "kong_direct", "kong_added", "kong_concealed",
    "call_transfer", "kong_refund",
    "flower_pig", "ting_check", "price_difference", "tax_refund", "false_win",
)

#: the payee of a payment into the pot (the club's kitty): no seat receives it
POT = -1


class SettlementError(XuezhanError, ValueError):
    """A round record that cannot be settled at all (a seat outside 0–3, a base below 1)."""


# -- the record ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class KongEvent:
    """A kong that happened (a robbed added kong is no KongEvent: it did not happen)."""

    index: int
    """Event index in the round's events (a locator)."""
    seat: int
    """The konger."""
    kind: str
    """``direct`` (直杠 on a discard), ``added`` (补杠) or ``concealed`` (暗杠)."""
    tile: int
    discarder: int | None
    """Direct kongs: who discarded the tile."""
    in_round: frozenset[int]
    """Seats not yet won at that moment (includes the konger)."""
    fresh: bool = True
    """An added kong of the tile just drawn (False: a 回头杠 of a tile held from before,
    which pays nothing under ``added_kong_fresh_only``)."""


@dataclass(frozen=True, slots=True)
class WinEvent:
    """One win (胡). Several wins on one discard share ``group`` (一炮多响)."""

    index: int
    seat: int
    tile: int
    discarder: int | None
    """None: self-drawn; for 抢杠 the robbed konger."""
    fan: int
    """Raw fan from the scorer (before the cap)."""
    points: int
    """Per payer for base 1 (already ``rules.points(fan)``)."""
    detail: str
    """Human-readable pattern + add-ons breakdown, for a win recorded without ``score``
    (a score sheet's); the replay leaves it empty: read :attr:`breakdown`."""
    pattern: str | None
    in_round: frozenset[int]
    """Seats not yet won just before this win (includes the winner; for several wins on one
    discard, the same set for each of them)."""
    group: int
    """Index of the discard/kong/draw this win is on."""
    rob_kong: bool = False
    after_kong: KongEvent | None = None
    """杠上花: the kong whose replacement tile this self-drawn win is."""
    kong_before_discard: KongEvent | None = None
    """杠上炮: the discarder's kong right before this won discard."""
    score: Score | None = field(default=None, compare=False)
    """The scorer's result, when the record comes from the replay: the payment lists its
    patterns and add-ons as data (without it, ``detail`` stands in as text)."""

    @property
    def breakdown(self) -> str:
        """The pattern + add-ons breakdown as text (built when asked: the replay scores
        thousands of wins whose text nobody reads)."""
        return self.score.breakdown() if self.score is not None else self.detail


@dataclass(frozen=True, slots=True)
class FalseWin:
    """A declared win with a hand that does not win (诈胡) under a ``false_win`` penalty:
    the declarer pays it and plays on (docs/rules.md §7)."""

    index: int
    seat: int
    tile: int
    discarder: int | None
    """None: declared on the tile the declarer drew."""
    reason: str
    """Why it is no win (``Score.reason``)."""
    in_round: frozenset[int]


@dataclass(frozen=True, slots=True)
class DrawCheck:
    """One seat not yet won when the wall ran out (流局)."""

    seat: int
    flower_pig: bool
    ready_fan: int | None
    """查叫 value in fan (max over waits), or None if not ready."""
    ready_fan_no_kong: int | None
    """The same without the kong add-ons (for ``ting_check == "max_no_kong_fan"``)."""
    ready_wait: int | None = None
    """The wait that gives ``ready_fan`` (the first in tile order), when known."""
    ready_wait_no_kong: int | None = None
    """The wait that gives ``ready_fan_no_kong``, when known."""


@dataclass(frozen=True, slots=True)
class RoundRecord:
    dealer: int
    events: tuple[KongEvent | WinEvent, ...]
    """In the order they happened."""
    drawn: bool
    """The wall ran out with two or more seats not yet won: run the §5 checks."""
    checks: tuple[DrawCheck, ...] = ()
    base: int = 1
    complete: bool = True
    """False: the log stopped early — settle what happened, no draw checks, no next dealer."""
    false_wins: tuple[FalseWin, ...] = ()
    """The 诈胡 penalties, by event index (``false_win``)."""
    kong_discards: Mapping[int, int] | None = None
    """Kong index → the index of the declarer's next discard, which pays the kong under
    ``kong_payment_timing: after_discard`` (a kong missing here is never paid: its declarer
    won before discarding). None: the record does not know (a score sheet's), kongs pay
    at once."""


# -- the result ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Payment:
    payer: int
    payee: int
    amount: int
    """Always > 0, already × base."""
    reason: str
    """One of :data:`REASONS`."""
    detail: str
    """A sentence a player can check: :func:`describe` of ``reason`` and ``params``."""
    event: int | None = None
    """Index of the event it comes from (None for end-of-round checks)."""
    params: Mapping[str, Any] = field(default_factory=dict, compare=False)
    """What explains the payment, as plain JSON data (see :func:`describe`)."""

    def to_json(self) -> dict[str, Any]:
        return {"payer": self.payer, "payee": "pot" if self.payee == POT else self.payee,
                "amount": self.amount, "reason": self.reason, "detail": self.detail,
                "params": dict(self.params)}


@dataclass(frozen=True, slots=True)
class Settlement:
    payments: tuple[Payment, ...]
    deltas: tuple[int, int, int, int]
    """Each seat's total; they sum to zero."""
    next_dealer: int | None
    """None when the round is incomplete."""
    pot_payments: tuple[Payment, ...] = ()
    """Payments into the pot (payee :data:`POT`): the deltas then sum to minus the pot."""

    @property
    def pot(self) -> int:
        """What the round paid into the pot (the club's, never a player's)."""
        return sum(p.amount for p in self.pot_payments)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"payments": [p.to_json() for p in self.payments],
                                  "deltas": list(self.deltas), "next_dealer": self.next_dealer}
        if self.pot_payments:  # only with a pot: other rounds keep their shape
            out["pot"] = self.pot
            out["pot_payments"] = [p.to_json() for p in self.pot_payments]
        return out


# -- settling -----------------------------------------------------------------------


def settle(record: RoundRecord, rules: Rules) -> Settlement:
    """All payments of one round under ``rules``, in the order they arise.

    Wins and kongs pay at the moment they happen, from players still in the round;
    a drawn, complete round then runs 查花猪, 查叫 (with 补差价) and 退税, in that order.

    :raises SettlementError: for a seat outside 0–3 or a base below 1.
    """
    _check_record(record)
    run = _Run(record, rules)
    # after_discard (docs/rules.md §5): a kong's money waits for its declarer's discard
    released = record.kong_discards if rules.kong_payment_timing == "after_discard" else None
    waiting: list[tuple[int, KongEvent]] = []
    false_wins = list(record.false_wins)
    for event in record.events:
        while waiting and waiting[0][0] < event.index:
            run.kong(waiting.pop(0)[1])
        while false_wins and false_wins[0].index < event.index:
            run.false_win(false_wins.pop(0))
        if isinstance(event, KongEvent):
            if released is None:
                run.kong(event)
            else:
                run.kongs[event.index] = event
                run.held[event.index] = []
                if event.index in released:
                    waiting.append((released[event.index], event))
                    waiting.sort(key=lambda pair: pair[0])
        else:
            run.win(event)
    for _, kong in waiting:
        run.kong(kong)
    for false_win in false_wins:
        run.false_win(false_win)
    if record.drawn and record.complete:
        run.draw_checks()
    deltas = [0, 0, 0, 0]
    for p in run.payments:
        deltas[p.payer] -= p.amount
        deltas[p.payee] += p.amount
    for p in run.pot_payments:
        deltas[p.payer] -= p.amount
    return Settlement(payments=tuple(run.payments),
                      deltas=(deltas[0], deltas[1], deltas[2], deltas[3]),
                      next_dealer=next_dealer(record), pot_payments=tuple(run.pot_payments))


def next_dealer(record: RoundRecord) -> int | None:
    """Who deals next (docs/rules.md §2.1): the first winner; if that first win
    was one of several on one discard (一炮多响, 抢杠 by two included), the discarder; no win:
    the same dealer (荒庄不下庄); an incomplete round: None."""
    if not record.complete:
        return None
    wins = [e for e in record.events if isinstance(e, WinEvent)]
    if not wins:
        return record.dealer
    first = wins[0]
    if first.discarder is not None and sum(w.group == first.group for w in wins) > 1:
        return first.discarder
    return first.seat


# -- internals ----------------------------------------------------------------------


@dataclass
class _Run:
    """The running state of one settlement: payments so far and the kong money each konger
    still holds (kong index → [(payer, amount)], emptied by 呼叫转移 / refund)."""

    record: RoundRecord
    rules: Rules
    payments: list[Payment] = field(default_factory=list)
    pot_payments: list[Payment] = field(default_factory=list)
    held: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    kongs: dict[int, KongEvent] = field(default_factory=dict)
    #: 杠上炮 transfers already worked out for a group of wins: group → (amount each winner
    #: gets, the kongs whose income it is)
    transfers: dict[int, tuple[int, list[dict[str, Any]]]] = field(default_factory=dict)

    @property
    def base(self) -> int:
        return self.record.base

    def pay(self, payer: int, payee: int, amount: int, reason: str, params: dict[str, Any],
            event: int | None) -> None:
        if amount > 0 and payer != payee:
            params["amount"] = amount
            payment = Payment(payer, payee, amount, reason, describe(reason, params), event,
                              params)
            (self.pot_payments if payee == POT else self.payments).append(payment)

    def false_win(self, f: FalseWin) -> None:
        """诈胡: the declarer pays the penalty to each other player still in the round, or
        once into the pot (docs/rules.md §7 ``false_win``)."""
        rule = self.rules.false_win
        if not isinstance(rule, dict):
            return
        penalty = self.rules.false_win_penalty
        payees = [POT] if rule["to"] == "pot" else sorted(f.in_round - {f.seat})
        for payee in payees:
            self.pay(f.seat, payee, penalty * self.base, "false_win",
                     {"payer": f.seat, "payee": "pot" if payee == POT else payee,
                      "tile": _tile(f.tile), "discarder": f.discarder, "why": f.reason,
                      "penalty": penalty, "base": self.base}, f.index)

    # kongs ----------------------------------------------------------------------

    def kong(self, k: KongEvent) -> None:
        units = self.rules.kong_payments.get(k.kind, 0)
        if k.kind == "added" and not k.fresh and self.rules.added_kong_fresh_only:
            units = 0  # 回头杠: an added kong of a tile held from before pays nothing
        unit = units * self.base
        if k.kind == "direct":
            payers: list[int] = [k.discarder] if k.discarder is not None else []
        else:
            payers = sorted(k.in_round - {k.seat})
        # Players who already won pay nothing (the Chengdu rules): only seats in the round pay.
        payers = [s for s in payers if s in k.in_round and s != k.seat]
        self.kongs[k.index] = k
        self.held[k.index] = []
        if unit <= 0:
            return
        for payer in payers:
            self.pay(payer, k.seat, unit, f"kong_{k.kind}",
                     {"konger": k.seat, "payer": payer, "kong": _kong_ref(k),
                      "units": units, "base": self.base}, k.index)
            self.held[k.index].append((payer, unit))

    # wins -----------------------------------------------------------------------

    def win(self, w: WinEvent) -> None:
        gang_hua_payer = self._dian_gang_hua_payer(w)
        if w.discarder is None and gang_hua_payer is None:
            bonus = self.base if self.rules.self_draw_bonus == "plus_base" else 0
            # built once for the win: the payers' params share the score parts (read-only)
            shared = {**self._win_params(w, -1), "self_draw_bonus": bonus,
                      "after_kong": _kong_ref(w.after_kong) if w.after_kong else None}
            amount = w.points * self.base + bonus
            if amount <= 0:
                return
            shared["amount"] = amount
            payers = sorted(w.in_round - {w.seat})
            # the win's value is worked out once: the same sentence part for every payer
            for payer, text in zip(payers, self_drawn_sentences(shared, payers), strict=True):
                self.payments.append(Payment(payer, w.seat, amount, "win_self_drawn", text,
                                             w.index, {**shared, "payer": payer}))
            return
        if gang_hua_payer is not None:
            # 点杠花 (dian_gang_hua = discard, the online rules): a discard win, so no 自摸加底.
            assert w.after_kong is not None
            self.pay(gang_hua_payer, w.seat, w.points * self.base, "win_discard",
                     {**self._win_params(w, gang_hua_payer), "dian_gang_hua": True,
                      "kong_discard": None, "after_kong": _kong_ref(w.after_kong)}, w.index)
            return
        discarder = w.discarder
        assert discarder is not None
        if discarder not in w.in_round:
            return  # the record says the discarder already won: nobody can pay (trusted input)
        if w.rob_kong:
            self.pay(discarder, w.seat, w.points * self.base, "win_rob_kong",
                     self._win_params(w, discarder), w.index)
            # choice: robbing a kong is no 杠上炮 — no 呼叫转移 of the robbed konger's earlier
            # kongs (the online rules speaks only of 杠後點炮); the robbed kong itself
            # did not happen, so it earned nothing (docs/rules.md §4).
            return
        k = w.kong_before_discard
        self.pay(discarder, w.seat, w.points * self.base, "win_discard",
                 {**self._win_params(w, discarder), "dian_gang_hua": False,
                  "kong_discard": _kong_ref(k) if k else None}, w.index)
        if k is not None and k.seat == discarder:
            self._kong_then_discard_won(w, k)

    def _win_params(self, w: WinEvent, payer: int) -> dict[str, Any]:
        """What every win payment states: who, on what, and the score as data."""
        return {"winner": w.seat, "payer": payer, "tile": _tile(w.tile), **_score_params(w),
                "points": w.points, "base": self.base}

    def _dian_gang_hua_payer(self, w: WinEvent) -> int | None:
        k = w.after_kong
        if (self.rules.dian_gang_hua != "discard" or w.discarder is not None or k is None
                or k.kind != "direct" or k.discarder is None):
            return None
        # choice: if the kong-tile discarder has somehow left the round, it is an ordinary
        # self-drawn win (a player who won pays for nothing later, the Chengdu rules).
        return k.discarder if k.discarder in w.in_round and k.discarder != w.seat else None

    def _kong_then_discard_won(self, w: WinEvent, k: KongEvent) -> None:
        """杠上炮 money: ``kong_then_discard_won`` keep / transfer_last / transfer_all / refund."""
        policy = self.rules.kong_then_discard_won
        konger = k.seat
        if policy == "keep":
            return
        if policy == "refund":
            # Once per kong, however many win on the discard: the income goes back to its
            # payers (the winner gets back its own share too).
            for payer, amount in self.held.get(k.index, []):
                self.pay(konger, payer, amount, "kong_refund",
                         {"konger": konger, "kong_payer": payer, "winner": w.seat,
                          "tile": _tile(w.tile), "kong": _kong_ref(k)}, w.index)
            self.held[k.index] = []
            return
        if w.group not in self.transfers:
            # Worked out at the group's first win, from the money the konger still holds:
            # transfer_last that kong's whole income, transfer_all every kong's income so far.
            # Each winner of the group then receives the amount (the online rules: "若杠後點炮
            # 超過一響，點炮者要另賠出開杠所得的點數給所有被點者").
            ids = [k.index] if policy == "transfer_last" else [
                i for i, kk in self.kongs.items() if kk.seat == konger]
            amount = sum(a for i in ids for _, a in self.held.get(i, []))
            self.transfers[w.group] = (amount, [_kong_ref(self.kongs[i]) for i in ids
                                                if self.held.get(i)])
            for i in ids:
                self.held[i] = []
        # choice: a kong that earned nothing (e.g. kong_payments 0) transfers nothing; no
        # payment of 0 is listed.
        amount, transferred = self.transfers[w.group]
        self.pay(konger, w.seat, amount, "call_transfer",
                 {"konger": konger, "winner": w.seat, "tile": _tile(w.tile),
                  "kong": _kong_ref(k), "scope": policy, "transferred": transferred}, w.index)

    # end-of-round checks ----------------------------------------------------------

    def draw_checks(self) -> None:
        rules = self.rules
        checks = _unique(self.record.checks)
        penalty = rules.pig_penalty * self.base
        # choice: with the flower-pig check off (penalty 0) nobody is a pig, so a seat the
        # replay flagged as holding three suits is an ordinary unready seat in 查叫 — otherwise
        # an `online`-style table with the pig check off would let a pig pay nothing at all.
        pigs = {c.seat for c in checks if c.flower_pig} if penalty > 0 else set()
        # A pig holds all three suits (or its void suit), so it cannot be ready; a ready_fan
        # the record gives a flagged pig is ignored.
        ready = {c.seat: self._ting_value(c) for c in checks
                 if c.ready_fan is not None and c.seat not in pigs}
        unready = [c.seat for c in checks if c.seat not in ready]
        self._flower_pigs(checks, pigs)
        if rules.ting_check != "off":
            self._ting_check(unready, pigs, ready)
        # 退税 (the Chengdu rules, the online rules): every unready seat (pigs included) gives back
        # the kong money it still holds. choice: it goes back to every seat that paid it, even
        # one that has won since — the kong is void ("刮风下雨无效"), and it was paid while the
        # payer was still in the round. choice: 退税 is its own option, so it runs even with
        # the ting check off (readiness still comes from the record).
        if rules.tax_refund:
            for konger in unready:
                self._tax_refund(konger)

    def _flower_pigs(self, checks: list[DrawCheck], pigs: set[int]) -> None:
        """查花猪: each pig pays every non-pig (all_non_pigs: winners too, docs/rules.md §5)."""
        rules = self.rules
        if rules.flower_pig_payees == "all_non_pigs":
            payees = [s for s in SEATS if s not in pigs]
        elif rules.flower_pig_payees == "pot":
            payees = [POT]  # choice (docs/rules.md §8): each pig pays the penalty once
        else:
            payees = [c.seat for c in checks if c.seat not in pigs]
        for pig in sorted(pigs):
            for payee in payees:
                self.pay(pig, payee, rules.pig_penalty * self.base, "flower_pig",
                         {"pig": pig, "payee": "pot" if payee == POT else payee,
                          "penalty": rules.pig_penalty, "base": self.base}, None)

    def _ting_check(self, unready: list[int], pigs: set[int],
                    ready: dict[int, dict[str, Any]]) -> None:
        """查叫: each unready seat pays each ready seat that seat's value; then 补差价."""
        rules, base = self.rules, self.base
        payers = [s for s in unready if s not in pigs or rules.pig_pays_ting_check]
        for payer in payers:
            for payee, value in sorted(ready.items()):
                self.pay(payer, payee, value["value"] * base, "ting_check",
                         {"payer": payer, "payee": payee, **value, "base": base}, None)
        # 补差价 (the Chengdu rules): part of the ting check.
        if rules.price_difference:
            for low, low_value in sorted(ready.items()):
                for high, high_value in sorted(ready.items()):
                    diff = (high_value["value"] - low_value["value"]) * base
                    self.pay(low, high, diff, "price_difference",
                             {"payer": low, "payee": high, "payer_value": low_value["value"],
                              "payee_value": high_value["value"], "base": base}, None)

    def _tax_refund(self, konger: int) -> None:
        for i, k in self.kongs.items():
            if k.seat != konger:
                continue
            for payer, amount in self.held[i]:
                self.pay(konger, payer, amount, "tax_refund",
                         {"konger": konger, "kong_payer": payer, "kong": _kong_ref(k)}, None)
            self.held[i] = []

    def _ting_value(self, c: DrawCheck) -> dict[str, Any]:
        """A ready seat's 查叫 value in points (base 1) and what it comes from."""
        mode = self.rules.ting_check
        if mode == "flat":
            return {"value": 1, "mode": "flat", "fan": None, "wait": None}
        if mode == "max_no_kong_fan" and c.ready_fan_no_kong is not None:
            fan, wait = c.ready_fan_no_kong, c.ready_wait_no_kong
        else:
            assert c.ready_fan is not None
            fan, wait, mode = c.ready_fan, c.ready_wait, "max"
        return {"value": self.rules.points(fan), "mode": mode, "fan": fan,
                "wait": None if wait is None else _tile(wait)}


# -- the sentences ------------------------------------------------------------------


def describe(reason: str, params: Mapping[str, Any],
             seat: Callable[[int], str] | None = None) -> str:
    """The English sentence of a payment, rendered from its ``reason`` and ``params`` alone
    by :mod:`xuezhan.sentences` (the one table of the sentences, which the site renders in
    its languages too; ``Payment.detail`` is this with ``seat N``).

    ``seat`` names a seat (default ``"seat N"``): a page passes the players' names. Every
    ``params`` holds ``amount``; seats are 0–3, tiles are names like ``"5m"``; a ``kong``
    is ``{event, seat, kind, tile}`` (``kind``: direct | added | concealed). By reason:

    ==================  ======================================================================
    reason              params
    ==================  ======================================================================
    kong_direct,        ``konger``, ``payer``, ``kong``, ``units`` (the ``kong_payments`` of the
    kong_added,         kind), ``base``. A direct kong is paid by the discarder of its tile,
    kong_concealed      the others by each seat still in the round.
    win_self_drawn      ``winner``, ``payer``, ``tile``, ``score``, ``points`` (per payer, base 1),
                        ``base``, ``self_draw_bonus`` (the 自摸加底 added, × base; 0 if none),
                        ``after_kong`` (杠上花: the kong, or null).
    win_discard         ``winner``, ``payer`` (the discarder), ``tile``, ``score``, ``points``,
                        ``base``, ``dian_gang_hua`` (true: 点杠花 paid by the kong-tile
                        discarder, ``after_kong`` is that direct kong), ``kong_discard``
                        (杠上炮: the kong made just before the discard, or null).
    win_rob_kong        ``winner``, ``payer`` (the robbed konger), ``tile``, ``score``,
                        ``points``, ``base``.
    call_transfer       ``konger``, ``winner``, ``tile`` (the won discard), ``kong`` (the
                        kong before it), ``scope``: ``transfer_last`` (that kong's income) or
                        ``transfer_all`` (all the konger's kong income so far),
                        ``transferred`` (the kongs whose income it is, a list).
    kong_refund         ``konger``, ``kong_payer`` (who gets the money back), ``winner``,
                        ``tile`` (the won discard), ``kong``.
    flower_pig          ``pig``, ``payee`` (a seat, or ``"pot"``), ``penalty`` (points,
                        base 1), ``base``.
    ting_check          ``payer`` (not ready), ``payee`` (ready), ``value`` (points, base 1),
                        ``mode``: ``max`` | ``max_no_kong_fan`` | ``flat``; ``fan`` and
                        ``wait`` (the tile that gives it; null when not known) — both null
                        under ``flat``; ``base``.
    price_difference    ``payer`` / ``payee`` (both ready), ``payer_value`` / ``payee_value``
                        (points, base 1), ``base``.
    tax_refund          ``konger`` (not ready), ``kong_payer`` (who gets the money back),
                        ``kong``.
    false_win           ``payer`` (who declared it), ``payee`` (a seat, or ``"pot"``),
                        ``tile``, ``discarder`` (null: on the tile drawn), ``why`` (the
                        score's reason), ``penalty`` (points, base 1), ``base``.
    ==================  ======================================================================

    A win's ``score`` is :meth:`xuezhan.fan.Score.parts`: ``patterns`` [{name, fan}],
    ``add_ons`` [{name, count, fan, total}], ``fan``, ``capped``, ``max_fan``, ``points``;
    it is null for a hand-made record without a score, which gives ``breakdown`` (text).

    >>> describe("flower_pig", {"pig": 2, "payee": 0, "penalty": 16, "base": 1, "amount": 16})
    '查花猪: seat 2 is a flower pig at the draw and pays seat 0 the penalty 16 × base 1 = 16.'
    """
    if reason not in SENTENCES:
        raise SettlementError(f"unknown payment reason {reason!r}")
    return _describe(reason, params, seat)


# -- helpers ------------------------------------------------------------------------


def _kong_ref(k: KongEvent) -> dict[str, Any]:
    return {"event": k.index, "seat": k.seat, "kind": k.kind, "tile": _tile(k.tile)}


def _score_params(w: WinEvent) -> dict[str, Any]:
    if w.score is not None:
        return {"score": w.score.parts()}
    return {"score": None, "breakdown": w.detail}


def _unique(checks: Iterable[DrawCheck]) -> list[DrawCheck]:
    """One check per seat (the first), so that no seat can be both payer and payee."""
    seen: dict[int, DrawCheck] = {}
    for c in checks:
        seen.setdefault(c.seat, c)
    return list(seen.values())


def _check_record(record: RoundRecord) -> None:
    if isinstance(record.base, bool) or not isinstance(record.base, int) or record.base < 1:
        raise SettlementError(f"base must be a whole number ≥ 1, not {record.base!r}")
    seats: list[int] = [record.dealer]
    for e in record.events:
        seats.append(e.seat)
        seats.extend(e.in_round)
        if e.discarder is not None:
            seats.append(e.discarder)
        if isinstance(e, WinEvent):
            seats.extend(k.seat for k in (e.after_kong, e.kong_before_discard) if k is not None)
            if e.after_kong is not None and e.after_kong.discarder is not None:
                seats.append(e.after_kong.discarder)
    seats.extend(c.seat for c in record.checks)
    for f in record.false_wins:
        seats.append(f.seat)
        seats.extend(f.in_round)
    if set(map(type, seats)) == {int} and min(seats) >= 0 and max(seats) <= 3:
        return  # every seat a plain int of 0-3: the usual record, checked without a loop
    bad = [s for s in seats if isinstance(s, bool) or not isinstance(s, int) or s not in SEATS]
    if bad:
        raise SettlementError(f"seat must be 0-3, not {bad[0]!r}")


def _tile(tile: int) -> str:
    return str(TILES[tile]) if 0 <= tile < NUM_KINDS else f"tile {tile}"

