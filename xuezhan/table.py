"""Table: the state of one round, and what is legal in it.

``Table`` plays the part of ``chess.Board``: it holds the hands, melds, discards,
the wall and who has won, and takes one action at a time. ``play(action)`` is lenient:
it returns the problems it found (stable codes, see ``CODES``) and still applies the
action as far as the state allows, so that a replay can go on after a fault.
``push(action)`` is the strict form for trusted callers such as the simulator.

The table only records what happened; ``outcome()`` turns that into the
:class:`~xuezhan.settlement.RoundRecord` that ``settle`` prices.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from xuezhan.actions import Action, DingQue, Discard, Draw, Exchange, Gang, Hu, Peng
from xuezhan.errors import IllegalActionError
from xuezhan.fan import Score, WinContext, best_wait, score_win, ting_value
from xuezhan.hand import Meld, MeldKind, SuitKeys, holds_suits
from xuezhan.rules import Rules
from xuezhan.settlement import DrawCheck, KongEvent, RoundRecord, WinEvent
from xuezhan.tiles import COPIES, NUM_KINDS, TILES, Tile, counts_of, format_tiles

LIVE_WALL = 55  # 108 tiles less 13 × 4 + 1 dealt

#: every violation code the table reports, with what it means
CODES: dict[str, str] = {
    "bad_deal": "a dealt hand has the wrong number of tiles",
    "bad_wall": "the recorded wall is not the 55 tiles left after the deal",
    "fifth_copy": "a tile kind appears more than four times",
    "exchange_missing": "the ruleset exchanges three tiles but the round has no exchange",
    "exchange_not_allowed": "an exchange in a ruleset without one, or twice",
    "exchange_mixed_suits": "an exchange of three tiles that are not of one suit",
    "exchange_receive_mismatch": "the recorded received tiles do not follow the die",
    "dice_missing": "the exchange goes by the dice sum, but the round records neither the "
                    "dice nor what each seat received",
    "dingque_missing": "play started before every seat declared a void suit",
    "out_of_order": "an event that cannot happen at this stage of the round",
    "event_after_end": "an event after the round ended",
    "action_by_winner": "an action by a player who already won",
    "draw_out_of_turn": "a draw by a player whose turn it is not",
    "draw_not_wall_tile": "a draw that is not the wall's next tile",
    "draw_from_empty_wall": "a draw when the wall is empty",
    "discard_out_of_turn": "a discard by a player whose turn it is not",
    "tile_not_in_hand": "a tile the player does not hold",
    "void_first": "a discard of another suit while holding a void-suit tile (void_first)",
    "claim_not_last_discard": "a claim that does not name the last discard",
    "claim_own_discard": "a claim of one's own discard",
    "claim_on_won_discard": "a peng or kong on a discard that was won",
    "claim_void_tile": "a peng or kong of a void-suit tile (no_claim_void)",
    "claim_after_wall_empty": "a peng or kong on the last discard",
    "kong_out_of_turn": "a concealed or added kong when it is not the player's turn",
    "kong_with_empty_wall": "a kong when the wall is empty",
    "kong_without_peng": "an added kong without the matching peng",
    "win_out_of_turn": "a win on a tile that cannot be won now",
    "win_wrong_tile": "a win that names a different tile from the one drawn or discarded",
    "win_not_winning_hand": "a win with a hand that is not a winning hand",
    "win_with_void_suit": "a win while holding or having melded a void-suit tile",
    "win_below_min_fan": "a win that scores less than the ruleset's min_fan",
    "passed_win": "a win on a discard after passing a win since the player's last draw",
    "last_four_not_won": "a winning tile in the last four not won (last_four)",
}

DISCARD, DRAW, REPLACEMENT, CLAIM, ROB = "discard", "draw", "replacement", "claim", "rob"


@dataclass(frozen=True, slots=True)
class Problem:
    """One rule broken by one action: a stable ``code``, the seat, and a sentence."""

    code: str
    message: str
    seat: int | None = None


class Table:
    """The state of one round of 血战到底.

    >>> from xuezhan.tiles import parse_tiles
    >>> hands = [parse_tiles("11122233344455m")] + [parse_tiles("1112223334445p")] * 3
    >>> t = Table(Rules.from_json({"exchange": "off"}), dealer=0, hands=hands)
    >>> t.play(DingQue((2, 2, 2, 2)))
    []
    >>> t.play(Hu(0, Tile.parse("5m")))[0].code
    'fifth_copy'
    """

    def __init__(self, rules: Rules, dealer: int, hands: Sequence[Sequence[int]],
                 wall: Sequence[int] | None = None, base: int = 1,
                 dice: Sequence[int] | None = None) -> None:
        self.rules = rules
        self.dealer = dealer
        self.base = base
        self.dice = tuple(dice) if dice else None
        self.hands = [counts_of(h) for h in hands]
        #: each seat's suit keys, moved with the counts: the waits are look-ups by them
        self.keys = [SuitKeys(h) for h in self.hands]
        self.melds: list[list[Meld]] = [[], [], [], []]
        self.discards: list[list[Tile]] = [[], [], [], []]
        self.voids: list[int | None] = [None] * 4
        self.won = [False] * 4
        self.win_order: list[int] = []
        self.wall = list(wall) if wall is not None else None
        self.wall_front = 0
        self.wall_back = len(self.wall) if self.wall is not None else 0
        self.wall_left = LIVE_WALL
        self.seen = ([sum(kind) for kind in zip(*self.hands, strict=True)] if hands
                     else [0] * NUM_KINDS)
        self.stage = "exchange" if rules.exchange != "off" else "dingque"
        self.expect = DISCARD
        self.current = dealer
        self.last_draw: Tile | None = None
        self.last_discard: tuple[int, Tile] | None = None
        self.claim_winners: list[int] = []
        self.pending_kong: tuple[int, Tile, int] | None = None
        self.replacement_of: KongEvent | None = None
        self.kong_before_discard: KongEvent | None = None
        self.passed: list[int | None] = [None] * 4
        self.draws = [0] * 4
        self.claimed_or_won = False
        self.last_four = False
        self.must_win: int | None = None
        self.record: list[KongEvent | WinEvent] = []
        self.scores: dict[int, Score] = {}
        self.event_index = -1
        self._claim_group = -1
        self._claim_round: frozenset[int] = frozenset()
        self._waits: list[frozenset[Tile] | None] = [None] * 4
        self._handlers: dict[type, Any] = {Draw: self._draw, Discard: self._discard,
                                           Peng: self._peng, Gang: self._gang, Hu: self._hu}
        self.deal_problems = self._check_deal(hands)

    # -- public API ------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.stage == "over"

    def play(self, action: Action, index: int | None = None) -> list[Problem]:
        """Apply ``action`` leniently and return every rule it broke (empty when legal)."""
        self.event_index = self.event_index + 1 if index is None else index
        problems: list[Problem] = []
        stage = self.stage
        if stage == "over":
            return [Problem("event_after_end", "the round had already ended", action.actor)]
        handler = self._handlers.get(type(action))
        if handler is None:  # exchange or void declaration
            if isinstance(action, Exchange):
                self._exchange(action, problems)
            elif isinstance(action, DingQue):
                self._dingque(action, problems)
            return problems
        if stage != "play":
            self._enter_play(problems)
        if self.expect is CLAIM or self.expect is ROB:
            self._close_windows(action, problems)
        seat = action.actor
        assert seat is not None  # only exchange and void declarations have no actor
        if self.stage == "over":
            problems.append(Problem("event_after_end", "the round had already ended", seat))
        elif self.won[seat]:
            problems.append(Problem("action_by_winner", f"seat {seat} has already won", seat))
        else:
            if self.must_win is not None:
                self._check_must_win(action, problems)
            handler(action, problems)
        return problems

    def push(self, action: Action) -> None:
        """Apply a trusted action; raise on the first rule it breaks.

        :raises IllegalActionError: the table is then in an undefined state.
        """
        problems = self.play(action)
        if problems:
            p = problems[0]
            raise IllegalActionError(p.code, p.message, p.seat)

    def finish(self) -> list[Problem]:
        """Close any open claim window at the end of the log (no more events).

        A log that stops while someone still had to act is an abandoned table: the
        round is incomplete, not illegal, so a must-win that the log never reached
        (the last-four rule) is not a fault; a last discard that ends the round is.
        """
        problems: list[Problem] = []
        if self.stage == "play" and self.expect in (CLAIM, ROB):
            self._close_windows(None, problems)
        self.must_win = None
        return problems if self.over else []

    def outcome(self) -> RoundRecord:
        """What happened, for the settlement; draw checks run only when the wall ran out."""
        not_won = [s for s in range(4) if not self.won[s]]
        drawn = self.over and len(not_won) >= 2
        checks = tuple(self._draw_check(s) for s in not_won) if drawn else ()
        return RoundRecord(dealer=self.dealer, events=tuple(self.record), drawn=drawn,
                           checks=checks, base=self.base, complete=self.over)

    def waits_of(self, seat: int) -> frozenset[Tile]:
        """The shape waits of a seat's concealed hand (cached until the hand changes)."""
        cached = self._waits[seat]
        if cached is None:
            cached = frozenset(self.keys[seat].waits(self.voids[seat]))
            self._waits[seat] = cached
        return cached

    def win_score(self, seat: int, tile: Tile, ctx: WinContext, in_hand: bool) -> Score:
        """Score ``seat`` winning on ``tile`` (already in the hand when ``in_hand``)."""
        counts = self.hands[seat] if in_hand else _plus(self.hands[seat], tile)
        return score_win(counts, self.melds[seat], tile, self.voids[seat],
                         self.rules, ctx, strict=False)

    def live_seats(self) -> list[int]:
        return [s for s in range(4) if not self.won[s]]

    def next_live(self, seat: int) -> int:
        for step in range(1, 5):
            candidate = (seat + step) % 4
            if not self.won[candidate]:
                return candidate
        return seat

    def snapshot(self) -> dict[str, Any]:
        """The visible state, as plain JSON, for a step-through viewer."""
        return {
            "hands": [[str(t) for t in _tiles(h)] for h in self.hands],
            "melds": [[{"kind": m.kind.value, "tile": str(m.tile), "from": m.source}
                       for m in ms] for ms in self.melds],
            "discards": [[str(t) for t in d] for d in self.discards],
            "voids": ["mps"[v] if v is not None else None for v in self.voids],
            "wall_remaining": self.wall_left,
            "won": list(self.won),
            "to_act": None if self.over else self.current,
        }

    # -- deal, exchange, void --------------------------------------------------------

    def _check_deal(self, hands: Sequence[Sequence[int]]) -> list[Problem]:
        problems = []
        for seat, hand in enumerate(hands):
            want = 14 if seat == self.dealer else 13
            if len(hand) != want:
                problems.append(Problem("bad_deal", f"seat {seat} was dealt {len(hand)} tiles, "
                                        f"not {want}", seat))
        totals = list(self.seen)
        if self.wall is not None:
            if len(self.wall) != LIVE_WALL:
                tiles = "tile" if len(self.wall) == 1 else "tiles"
                problems.append(Problem("bad_wall", f"the wall has {len(self.wall)} {tiles}, "
                                        f"not {LIVE_WALL}"))
            for t in self.wall:
                totals[t] += 1
        for kind, n in enumerate(totals):
            if n > COPIES:
                problems.append(Problem("fifth_copy", f"{TILES[kind]} appears {n} times in the "
                                        "deal" + (" and wall" if self.wall else "")))
        return problems

    def _exchange(self, ex: Exchange, problems: list[Problem]) -> None:
        if self.stage != "exchange":
            problems.append(Problem("exchange_not_allowed", "this ruleset has no exchange"
                                    if self.rules.exchange == "off" else "the exchange is over"))
            if self.rules.exchange != "off" or self.stage != "dingque":
                return
        dice_sum = sum(self.dice) if self.dice else None
        direction = self.rules.exchange_direction(ex.die, dice_sum)
        if direction is None and ex.receive is None and self.rules.exchange != "off":
            problems.append(Problem("dice_missing", "the ruleset picks the exchange direction "
                                    "by the dice sum, but the round records no dice"))
        source = {"from_next": 1, "opposite": 2, "from_prev": 3}[direction or "from_next"]
        for seat, give in enumerate(ex.give):
            if len({t // 9 for t in give}) > 1:
                problems.append(Problem("exchange_mixed_suits", f"seat {seat} gives "
                                        f"{_fmt(give)}, not three tiles of one suit", seat))
            have = self.hands[seat]
            for t, n in Counter(give).items():
                if have[t] < n:
                    problems.append(Problem("tile_not_in_hand",
                                            f"seat {seat} gives {TILES[t]} but holds {have[t]}",
                                            seat))
        for seat, give in enumerate(ex.give):
            for t in give:
                self._take(seat, t, min(1, self.hands[seat][t]))
        for seat in range(4):
            got = ex.give[(seat + source) % 4]
            if direction is None and ex.receive is not None:
                got = ex.receive[seat]  # no dice to check it by: the record stands
            elif ex.receive is not None and sorted(ex.receive[seat]) != sorted(got):
                problems.append(Problem("exchange_receive_mismatch", f"seat {seat} records "
                                        f"receiving {_fmt(ex.receive[seat])}; with die {ex.die} "
                                        f"({direction}) it gets {_fmt(got)}", seat))
            for t in got:
                self._give(seat, t)
        self.stage = "dingque"

    def _dingque(self, dq: DingQue, problems: list[Problem]) -> None:
        if self.stage == "exchange":
            problems.append(Problem("exchange_missing", "the void suits were declared before "
                                    "the exchange"))
        elif self.stage != "dingque":
            problems.append(Problem("out_of_order", "the void suits were already declared"))
            return
        self.voids = list(dq.suits)
        self._waits = [None] * 4
        self.stage = "play"

    def _enter_play(self, problems: list[Problem]) -> None:
        if self.stage == "exchange":
            problems.append(Problem("exchange_missing", "play started without the exchange"))
            self.stage = "dingque"
        if self.stage == "dingque":
            problems.append(Problem("dingque_missing", "play started before the void suits "
                                    "were declared"))
            self.stage = "play"

    # -- play ------------------------------------------------------------------------

    def _check_must_win(self, action: Action, problems: list[Problem]) -> None:
        if not (isinstance(action, Hu) and action.target is None
                and action.actor == self.must_win):
            problems.append(self._last_four_problem(self.must_win))  # type: ignore[arg-type]
            self.must_win = None

    def _draw(self, d: Draw, problems: list[Problem]) -> None:
        seat = d.actor
        if self.expect not in (DRAW, REPLACEMENT) or seat != self.current:
            who = self.current if self.expect in (DRAW, REPLACEMENT) else None
            problems.append(Problem("draw_out_of_turn", f"seat {seat} draws, but " + (
                f"seat {who} is to draw" if who is not None else
                f"seat {self.current} must {self.expect} first"), seat))
        replacement = self.expect == REPLACEMENT and seat == self.current
        if self.wall_left <= 0:
            problems.append(Problem("draw_from_empty_wall", "the wall is empty", seat))
        expected = self._next_wall_tile(replacement)
        if expected is not None and expected != d.tile:
            problems.append(Problem("draw_not_wall_tile", f"seat {seat} draws {d.tile}, but the "
                                    f"wall's next tile is {expected}", seat))
        elif self.wall is None:
            self._see(d.tile, seat, problems)
        self.last_four = self.last_four or self.wall_left <= 4
        self.wall_left = max(self.wall_left - 1, 0)
        self._give(seat, d.tile)
        self.draws[seat] += 1
        self.passed[seat] = None
        self.current, self.expect, self.last_draw = seat, DISCARD, d.tile
        if not replacement:
            self.replacement_of = None
        if (self.rules.last_four != "off" and self.last_four
                and self.keys[seat].is_winning(self.voids[seat])):
            score = self.win_score(seat, d.tile, self._self_draw_ctx(seat), in_hand=True)
            if score.winning:
                self.must_win = seat

    def _discard(self, d: Discard, problems: list[Problem]) -> None:
        seat = d.actor
        if self.expect != DISCARD or seat != self.current:
            problems.append(Problem("discard_out_of_turn", f"seat {seat} discards, but "
                                    f"seat {self.current} is to {self.expect}", seat))
        hand = self.hands[seat]
        void = self.voids[seat]
        if hand[d.tile] == 0:
            problems.append(Problem("tile_not_in_hand", f"seat {seat} discards {d.tile} but "
                                    "does not hold it", seat))
        else:
            self._take(seat, d.tile)
        if (self.rules.void_first and void is not None and d.tile // 9 != void
                and any(hand[void * 9:void * 9 + 9])):
            problems.append(Problem("void_first", f"seat {seat} discards {d.tile} while still "
                                    f"holding {'mps'[void]} tiles", seat))
        self.discards[seat].append(d.tile)
        self.kong_before_discard = self.replacement_of if seat == self.current else None
        self.replacement_of = None
        self.current, self.expect = seat, CLAIM
        self.last_discard = (seat, d.tile)
        self.claim_winners = []
        self.last_draw = None

    def _check_claim(self, seat: int, target: int | None, tile: Tile, what: str,
                     problems: list[Problem]) -> bool:
        if self.expect != CLAIM or self.last_discard != (target, tile):
            last = self.last_discard
            problems.append(Problem("claim_not_last_discard", f"seat {seat} claims {tile} from "
                                    f"seat {target}, which is not the last discard" +
                                    (f" ({last[1]} by seat {last[0]})" if last else ""), seat))
            return False
        if seat == target:
            problems.append(Problem("claim_own_discard", f"seat {seat} claims its own discard",
                                    seat))
            return False
        if self.claim_winners:
            problems.append(Problem("claim_on_won_discard", f"seat {seat} claims {what} on "
                                    f"{tile}, which was already won", seat))
            return False
        if self.wall_left == 0:
            problems.append(Problem("claim_after_wall_empty", f"seat {seat} claims {what} on "
                                    "the last discard; it can only be won", seat))
        if self.rules.no_claim_void and tile // 9 == self.voids[seat]:
            problems.append(Problem("claim_void_tile", f"seat {seat} claims {what} on {tile} "
                                    "of its void suit", seat))
        return True

    def _take_discard(self, target: int, tile: Tile, problems: list[Problem]) -> None:
        # the claimer too passes the win it could have taken
        self._register_passes(target=target, tile=tile, problems=problems)
        river = self.discards[target]
        if river and river[-1] == tile:
            river.pop()
        self.claimed_or_won = True
        self.replacement_of = self.kong_before_discard = None

    def _peng(self, p: Peng, problems: list[Problem]) -> None:
        ok = self._check_claim(p.actor, p.target, p.tile, "peng", problems)
        hand = self.hands[p.actor]
        if hand[p.tile] < 2:
            problems.append(Problem("tile_not_in_hand", f"seat {p.actor} pengs {p.tile} holding "
                                    f"{hand[p.tile]}", p.actor))
        if ok:
            self._take_discard(p.target, p.tile, problems)
        self._take(p.actor, p.tile, min(hand[p.tile], 2))
        self.melds[p.actor].append(Meld(MeldKind.PENG, p.tile, p.target))
        self.current, self.expect, self.last_draw = p.actor, DISCARD, None

    def _gang(self, g: Gang, problems: list[Problem]) -> None:
        seat, tile = g.actor, g.tile
        if self.wall_left == 0:
            problems.append(Problem("kong_with_empty_wall", f"seat {seat} kongs with the wall "
                                    "empty", seat))
        if g.kind != "ming" and (self.expect != DISCARD or seat != self.current):
            problems.append(Problem("kong_out_of_turn", f"seat {seat} declares a kong, but "
                                    f"seat {self.current} is to {self.expect}", seat))
            self.current = seat
        if g.kind == "ming":
            ok = g.target is not None and self._check_claim(seat, g.target, tile, "kong",
                                                            problems)
            if g.target is None:
                problems.append(Problem("claim_not_last_discard", "a direct kong names no "
                                        "discarder", seat))
            self._need(seat, tile, 3, "kongs", problems)
            if ok and g.target is not None:
                self._take_discard(g.target, tile, problems)
            self.melds[seat].append(Meld(MeldKind.MING, tile, g.target))
            self._record_kong("direct", seat, tile, g.target)
        elif g.kind == "an":
            self._need(seat, tile, 4, "kongs", problems)
            self.melds[seat].append(Meld(MeldKind.AN, tile))
            self._record_kong("concealed", seat, tile, None)
        else:
            self._added_kong(seat, tile, problems)
            return
        self.claimed_or_won = True
        self.current, self.expect, self.last_draw = seat, REPLACEMENT, None

    def _added_kong(self, seat: int, tile: Tile, problems: list[Problem]) -> None:
        melds = self.melds[seat]
        peng = next((i for i, m in enumerate(melds)
                     if m.kind is MeldKind.PENG and m.tile == tile), None)
        if peng is None:
            problems.append(Problem("kong_without_peng", f"seat {seat} adds {tile} to a kong "
                                    "but has no peng of it", seat))
            melds.append(Meld(MeldKind.JIA, tile))
        else:
            melds[peng] = Meld(MeldKind.JIA, tile, melds[peng].source)
        self._need(seat, tile, 1, "adds", problems)
        self.claimed_or_won = True
        self.pending_kong = (seat, tile, self.event_index)
        self.claim_winners = []
        self.current, self.expect, self.last_draw = seat, ROB, None

    def _need(self, seat: int, tile: Tile, n: int, verb: str, problems: list[Problem]) -> None:
        hand = self.hands[seat]
        if hand[tile] < n:
            problems.append(Problem("tile_not_in_hand", f"seat {seat} {verb} {tile} holding "
                                    f"{hand[tile]} of it", seat))
        self._take(seat, tile, min(hand[tile], n))

    def _record_kong(self, kind: str, seat: int, tile: Tile, discarder: int | None) -> None:
        kong = KongEvent(index=self.event_index, seat=seat, kind=kind, tile=tile,
                         discarder=discarder, in_round=frozenset(self.live_seats()))
        self.record.append(kong)
        self.replacement_of = kong

    # -- wins ------------------------------------------------------------------------

    def _hu(self, h: Hu, problems: list[Problem]) -> None:
        seat = h.actor
        if h.target is None:
            ctx = self._self_draw_ctx(seat)
            self._check_self_draw(h, problems)
            in_hand = self.hands[seat][h.tile] > 0
            group = self.event_index
        else:
            ctx = self._claim_ctx(h, problems)
            in_hand = False
            group = self.pending_kong[2] if ctx.rob_kong and self.pending_kong else (
                self.event_index if not self.claim_winners else self._claim_group)
        if not in_hand and h.target is None:
            problems.append(Problem("tile_not_in_hand", f"seat {seat} wins on {h.tile} but "
                                    "does not hold it", seat))
        score = self.win_score(seat, h.tile, ctx, in_hand=in_hand)
        valid = self._check_score(seat, score, problems)
        if h.target is not None and valid:
            self._check_passed(seat, score, problems)
        in_round = frozenset(self.live_seats()) if not self.claim_winners else self._claim_round
        if not in_hand:
            self._give(seat, h.tile)
        if h.target is not None and ctx.rob_kong is False and not self.claim_winners:
            river = self.discards[h.target]
            if river and river[-1] == h.tile:
                river.pop()
        if ctx.rob_kong and self.pending_kong is not None:
            # a robbed added kong did not happen: the meld is a peng again from this event on
            self._undo_added_kong(self.pending_kong[0], self.pending_kong[1])
        if h.target is not None and self.expect in (CLAIM, ROB):
            # only inside an open window: a late claim must not make later wins share its
            # group and in-round set (a seat counted as won would pay again)
            self.claim_winners.append(seat)
            self._claim_group, self._claim_round = group, in_round
        if valid:
            self.scores[seat] = score
            self.record.append(WinEvent(
                index=self.event_index, seat=seat, tile=h.tile, discarder=h.target,
                fan=score.fan, points=score.points, detail=score.breakdown(),
                pattern=score.pattern, in_round=in_round, group=group, rob_kong=ctx.rob_kong,
                after_kong=self.replacement_of if ctx.after_kong else None,
                kong_before_discard=self.kong_before_discard if ctx.kong_discard else None,
                score=score))
        self.won[seat] = True
        self.win_order.append(seat)
        self.claimed_or_won = True
        self._waits[seat] = None
        if h.target is None:
            self.must_win = None
            self._after_turn(seat)

    def _check_self_draw(self, h: Hu, problems: list[Problem]) -> None:
        seat = h.actor
        if self.expect != DISCARD or seat != self.current:
            problems.append(Problem("win_out_of_turn", f"seat {seat} claims a self-drawn win, "
                                    f"but seat {self.current} is to {self.expect}", seat))
        elif self.last_draw is None and not self._heaven(seat):
            problems.append(Problem("win_out_of_turn", f"seat {seat} claims a self-drawn win "
                                    "without drawing", seat))
        elif self.last_draw is not None and self.last_draw != h.tile:
            problems.append(Problem("win_wrong_tile", f"seat {seat} wins on {h.tile} but drew "
                                    f"{self.last_draw}", seat))

    def _claim_ctx(self, h: Hu, problems: list[Problem]) -> WinContext:
        seat, last_tile = h.actor, self.wall_left == 0
        if self.expect == ROB and self.pending_kong is not None:
            konger, tile, _ = self.pending_kong
            if (h.target, h.tile) != (konger, tile) or seat == konger:
                problems.append(Problem("win_wrong_tile", f"seat {seat} robs {h.tile} from "
                                        f"seat {h.target}, but seat {konger} added {tile}", seat))
            return WinContext(rob_kong=True, last_tile=last_tile)
        if self.expect != CLAIM or self.last_discard is None:
            problems.append(Problem("win_out_of_turn", f"seat {seat} wins on a discard by seat "
                                    f"{h.target}, but there is no discard to win", seat))
            return WinContext(last_tile=last_tile)
        discarder, tile = self.last_discard
        if (h.target, h.tile) != (discarder, tile) or seat == discarder:
            problems.append(Problem("win_wrong_tile", f"seat {seat} wins on {h.tile} from seat "
                                    f"{h.target}, but the last discard is {tile} by seat "
                                    f"{discarder}", seat))
        return WinContext(kong_discard=self.kong_before_discard is not None, last_tile=last_tile)

    def _check_score(self, seat: int, score: Score, problems: list[Problem]) -> bool:
        if score.winning:
            return True
        code = {"holds_void_suit": "win_with_void_suit",
                "below_min_fan": "win_below_min_fan"}.get(score.reason or "",
                                                          "win_not_winning_hand")
        hand = _fmt(_tiles(self.hands[seat]))
        problems.append(Problem(code, f"seat {seat} declares a win with {hand}"
                                f"{_meld_text(self.melds[seat])}: {CODES[code]}", seat))
        return False

    def _check_passed(self, seat: int, score: Score, problems: list[Problem]) -> None:
        passed, mode = self.passed[seat], self.rules.passed_win
        if passed is None or mode == "off":
            return
        # in the last four under must_win_all the win is compulsory: the last-four rule wins
        # the collision with a strict 过手胡 (RULES.md §6), or no legal play would be left
        forced = self.rules.last_four == "must_win_all" and self.last_four
        allowed = forced or (mode == "until_next_draw"
                             and (score.fan > passed or self.wall_left < 4))
        if not allowed:
            problems.append(Problem("passed_win", f"seat {seat} passed a {passed}-fan win since "
                                    f"its last draw and may not win on a discard until it draws "
                                    f"again (this win: {score.fan} fan)", seat))

    def _self_draw_ctx(self, seat: int) -> WinContext:
        heaven = self.rules.heaven_earth and self._heaven(seat)
        earth = (self.rules.heaven_earth and seat != self.dealer and self.draws[seat] == 1
                 and not self.claimed_or_won)
        return WinContext(self_drawn=True, heaven=heaven, earth=earth,
                          after_kong=self.replacement_of.kind if self.replacement_of else None,
                          last_tile=self.wall_left == 0)

    def _heaven(self, seat: int) -> bool:
        return (seat == self.dealer and self.draws[seat] == 0 and not self.claimed_or_won
                and not any(self.discards))

    # -- claim windows ---------------------------------------------------------------

    def _close_windows(self, action: Action | None, problems: list[Problem]) -> None:
        """A discard or an added kong stays open to wins until an event that is not one."""
        if self.expect == CLAIM and self.last_discard is not None:
            if isinstance(action, Hu) and action.target is not None:
                return
            if isinstance(action, Peng) or (isinstance(action, Gang) and action.kind == "ming"):
                return
            discarder, tile = self.last_discard
            self._register_passes(target=discarder, tile=tile, problems=problems)
            self._after_turn(self._furthest(discarder, self.claim_winners))
        elif self.expect == ROB and self.pending_kong is not None:
            if isinstance(action, Hu) and action.target is not None:
                return
            konger, tile, index = self.pending_kong
            # robbing a kong is a win on the konger's tile (seed 004: 搶杠可視為…點炮): letting
            # it go is a passed win, and in the last four under must_win_all a fault
            self._register_passes(target=konger, tile=tile, problems=problems, rob=True)
            self.pending_kong = None
            if self.claim_winners:
                self._undo_added_kong(konger, tile)
                self._after_turn(self._furthest(konger, self.claim_winners))
            else:
                saved, self.event_index = self.event_index, index
                self._record_kong("added", konger, tile, None)
                self.event_index = saved
                self.current, self.expect = konger, REPLACEMENT
        self.claim_winners = []

    def _undo_added_kong(self, konger: int, tile: Tile) -> None:
        melds = self.melds[konger]
        for i, m in enumerate(melds):
            if m.kind is MeldKind.JIA and m.tile == tile:
                melds[i] = Meld(MeldKind.PENG, tile, m.source)
                break

    def _furthest(self, origin: int, winners: list[int]) -> int:
        return max(winners, key=lambda s: (s - origin) % 4) if winners else origin

    def _after_turn(self, seat: int) -> None:
        """Play passes to the next player still in the round, or the round ends."""
        if sum(self.won) >= 3 or self.wall_left == 0:
            self.stage = "over"
            return
        self.current, self.expect = self.next_live(seat), DRAW
        self.last_discard = None
        self.kong_before_discard = None

    def _register_passes(self, target: int, tile: Tile, problems: list[Problem],
                         rob: bool = False) -> None:
        """Seats that could have won on a discard (or robbed a kong, ``rob``) and did not:
        过手胡 and the last-four rule."""
        for seat in range(4):
            if self.won[seat] or seat == target or seat in self.claim_winners:
                continue
            waits_now = self._waits[seat]
            if waits_now is None:
                waits_now = self.waits_of(seat)
            if tile not in waits_now:
                continue
            ctx = (WinContext(rob_kong=True, last_tile=self.wall_left == 0) if rob else
                   WinContext(kong_discard=self.kong_before_discard is not None,
                              last_tile=self.wall_left == 0))
            score = self.win_score(seat, tile, ctx, in_hand=False)
            if not score.winning:
                continue
            prior = self.passed[seat]
            self.passed[seat] = score.fan if prior is None else max(prior, score.fan)
            if self.rules.last_four == "must_win_all" and self.last_four:
                problems.append(self._last_four_problem(seat, tile))

    def _last_four_problem(self, seat: int, tile: Tile | None = None) -> Problem:
        what = "draws a winning tile" if tile is None else f"could win on the discard {tile}"
        return Problem("last_four_not_won", f"seat {seat} {what} in the last four tiles and "
                       f"must win ({self.rules.last_four})", seat)

    # -- helpers ---------------------------------------------------------------------

    def _next_wall_tile(self, replacement: bool) -> Tile | None:
        if self.wall is None:
            return None
        if replacement and self.rules.kong_draw == "back":
            if self.wall_back <= self.wall_front:
                return None
            self.wall_back -= 1
            return TILES[self.wall[self.wall_back]]
        if self.wall_front >= self.wall_back:
            return None
        self.wall_front += 1
        return TILES[self.wall[self.wall_front - 1]]

    def _give(self, seat: int, tile: int) -> None:
        self.hands[seat][tile] += 1
        self.keys[seat].add(tile)
        self._waits[seat] = None

    def _take(self, seat: int, tile: int, n: int = 1) -> None:
        if n:
            self.hands[seat][tile] -= n
            self.keys[seat].remove(tile, n)
            self._waits[seat] = None

    def _see(self, tile: Tile, seat: int, problems: list[Problem]) -> None:
        self.seen[tile] += 1
        if self.seen[tile] > COPIES:
            problems.append(Problem("fifth_copy", f"seat {seat} takes a fifth {tile}", seat))

    def _draw_check(self, seat: int) -> DrawCheck:
        hand, melds, void = self.hands[seat], self.melds[seat], self.voids[seat]
        if self.rules.flower_pig_rule == "three_suits":
            pig = holds_suits(hand, melds) == 3
        else:
            pig = void is not None and (any(hand[void * 9:void * 9 + 9])
                                        or any(m.tile // 9 == void for m in melds))
        value = ting_value(hand, melds, void, self.rules, strict=False)
        no_kong = (ting_value(hand, melds, void, self.rules, exclude_kong_fan=True,
                              strict=False)
                   if self.rules.ting_check == "max_no_kong_fan" else None)  # only it asks
        return DrawCheck(seat=seat, flower_pig=pig,
                         ready_fan=None if value is None else value[0],
                         ready_fan_no_kong=None if no_kong is None else no_kong[0],
                         ready_wait=best_wait(value), ready_wait_no_kong=best_wait(no_kong))


def _plus(counts: list[int], tile: int) -> list[int]:
    out = list(counts)
    out[tile] += 1
    return out


def _tiles(counts: Sequence[int]) -> list[Tile]:
    return [TILES[k] for k, n in enumerate(counts) for _ in range(n)]


def _fmt(tiles: Sequence[int]) -> str:
    return format_tiles(tiles) or "nothing"


def _meld_text(melds: Sequence[Meld]) -> str:
    return "".join(f" + {m.kind.value} {m.tile}" for m in melds)
