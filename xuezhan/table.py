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

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from xuezhan.actions import Action, DingQue, Discard, Draw, Exchange, Gang, Hu, Pass, Peng
from xuezhan.errors import IllegalActionError
from xuezhan.fan import Score, WinContext, best_wait, score_win, ting_value
from xuezhan.hand import KongKind, Meld, MeldKind, SuitKeys, holds_suits
from xuezhan.rules import Rules
from xuezhan.settlement import DrawCheck, FalseWin, KongEvent, RoundRecord, WinEvent
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
    "kong_after_peng": "a concealed or added kong straight after a peng, before its "
                       "discard, in a ruleset without kong_after_peng",
    "win_out_of_turn": "a win on a tile that cannot be won now",
    "win_wrong_tile": "a win that names a different tile from the one drawn or discarded",
    "win_not_winning_hand": "a win with a hand that is not a winning hand",
    "win_with_void_suit": "a win while holding or having melded a void-suit tile",
    "win_below_min_fan": "a win that scores less than the ruleset's min_fan",
    "passed_win": "a win on a discard after passing a win since the player's last draw",
    "last_four_not_won": "a winning tile in the last four not won (last_four)",
}



class Stage(StrEnum):
    """The part of the round the table is in (the values are plain strings)."""

    EXCHANGE = "exchange"
    """换三张: waiting for the one exchange event of all four seats."""
    DINGQUE = "dingque"
    """定缺: waiting for the one void declaration of all four seats."""
    PLAY = "play"
    OVER = "over"
    """Three players have won, or the wall ran out."""


class Expect(StrEnum):
    """What the table waits for during play, from :attr:`Table.current` or the others."""

    DRAW = "draw"
    """``current`` draws the wall's next tile."""
    REPLACEMENT = "replacement"
    """``current`` draws the replacement tile of its kong."""
    DISCARD = "discard"
    """``current`` wins, kongs or discards (its own turn)."""
    CLAIM = "claim"
    """The others may win on, peng or kong the last discard; any other event closes it."""
    ROB = "rob"
    """The others may rob ``current``'s added kong; any other event lets the kong stand."""


DISCARD, DRAW, REPLACEMENT, CLAIM, ROB = (Expect.DISCARD, Expect.DRAW, Expect.REPLACEMENT,
                                          Expect.CLAIM, Expect.ROB)
#: how many seats on (in turn order) each seat's exchange tiles come from, by direction
SOURCE_STEP: dict[str, int] = {"from_next": 1, "opposite": 2, "from_prev": 3}


@dataclass(frozen=True, slots=True)
class Problem:
    """One rule broken by one action: a stable ``code``, the seat, and a sentence."""

    code: str
    message: str
    seat: int | None = None


class Table:
    """The state of one round of 血战到底.

    >>> from xuezhan.tiles import parse_tiles
    >>> hands = [parse_tiles(h) for h in ("11122233344455m", "1234567p123s999p",
    ...                                   "2345678p456789s", "112233p667788s9s")]
    >>> t = Table(Rules.from_json({"exchange": "off"}), dealer=0, hands=hands)
    >>> t.play(DingQue((2, 0, 0, 0)))
    []
    >>> t.play(Hu(0, Tile.parse("5m"))), t.scores[0].pattern
    ([], 'tian_hu')
    >>> t.play(Discard(1, Tile.parse("9p")))[0].code  # seat 0 won: seat 1 draws first
    'discard_out_of_turn'
    >>> Table(Rules(), 0, [hands[0]] * 4).deal_problems[-1].code
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
        #: each seat's suit keys (:attr:`keys`), None until asked for since the counts
        #: last moved without them (the lean replay moves the counts alone)
        self._keys: list[SuitKeys | None] = [None] * 4
        self.melds: list[list[Meld]] = [[], [], [], []]
        self.discards: list[list[Tile]] = [[], [], [], []]
        self.voids: list[int | None] = [None] * 4
        self.won = [False] * 4
        self.win_order: list[int] = []
        self.wall = list(wall) if wall is not None else None
        self.wall_front = 0
        self.wall_back = len(self.wall) if self.wall is not None else 0
        self.wall_left = LIVE_WALL
        self.seen = (list(map(sum, zip(*self.hands, strict=True))) if hands
                     else [0] * NUM_KINDS)
        self.stage = Stage.EXCHANGE if rules.exchange != "off" else Stage.DINGQUE
        self.expect = DISCARD
        self.current = dealer
        self.last_draw: Tile | None = None
        self.last_discard: tuple[int, Tile] | None = None
        self.claim_winners: list[int] = []
        self.pending_kong: tuple[int, Tile, int] | None = None
        self.replacement_of: KongEvent | None = None
        self.kong_before_discard: KongEvent | None = None
        #: kongs whose declarer has not discarded since (kong_payment_timing), and the
        #: discard that released each one: kong index → discard index
        self.unreleased: list[KongEvent] = []
        self.kong_discards: dict[int, int] = {}
        #: 诈胡 declared under a false_win penalty
        self.false_wins: list[FalseWin] = []
        #: the pending added kong's tile is the one just drawn (added_kong_fresh_only)
        self.added_fresh = True
        #: the seat that has just claimed a peng and not yet discarded
        self.after_peng: int | None = None
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
        self.deal_problems = self._check_deal(hands)

    # -- public API ------------------------------------------------------------------

    @property
    def keys(self) -> list[SuitKeys]:
        """Each seat's suit keys, moved with the counts: the win test and the waits are
        look-ups by them. Built when first asked for."""
        keys = self._keys
        if None in keys:
            for seat, k in enumerate(keys):
                if k is None:
                    keys[seat] = SuitKeys(self.hands[seat])
        return keys  # type: ignore[return-value]  # no None left

    def forget_keys(self, seat: int) -> None:
        """The seat's counts moved without its keys: they are built again when asked for."""
        self._keys[seat] = None

    @property
    def peng_last_discard(self) -> bool:
        """A discard made with the wall empty may be punged (``last_discard_claims: peng``)."""
        return self.rules.last_discard_claims == "peng"

    @property
    def over(self) -> bool:
        return self.stage is Stage.OVER

    def play(self, action: Action | Pass, index: int | None = None) -> list[Problem]:
        """Apply ``action`` leniently and return every rule it broke (empty when legal)."""
        previous = self.event_index
        self.event_index = previous + 1 if index is None else index
        problems: list[Problem] = []
        stage = self.stage
        if stage is Stage.OVER:
            return [Problem("event_after_end", "the round had already ended", action.actor)]
        handler = _HANDLERS.get(type(action))
        if handler is None:
            if isinstance(action, Exchange):
                self._exchange(action, problems)
            elif isinstance(action, DingQue):
                self._dingque(action, problems)
            else:  # a pass is no event of the log: it changes nothing, not even the index
                self.event_index = previous
            return problems
        if stage is not Stage.PLAY:
            self._enter_play(problems)
        if self.expect is CLAIM or self.expect is ROB:
            self._close_windows(action, problems)
        seat = action.actor
        assert seat is not None  # only exchange and void declarations have no actor
        if self.stage is Stage.OVER:
            problems.append(Problem("event_after_end", "the round had already ended", seat))
        elif self.won[seat]:
            problems.append(Problem("action_by_winner", f"seat {seat} has already won", seat))
        else:
            if self.must_win is not None:
                self._check_must_win(action, problems)
            handler(self, action, problems)
        return problems

    def push(self, action: Action | Pass) -> None:
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
        if self.stage is Stage.PLAY and self.expect in (CLAIM, ROB):
            self._close_windows(None, problems)
        self.must_win = None
        return problems if self.over else []

    def outcome(self) -> RoundRecord:
        """What happened, for the settlement; draw checks run only when the wall ran out."""
        not_won = [s for s in range(4) if not self.won[s]]
        drawn = self.over and len(not_won) >= 2
        checks = tuple(self._draw_check(s) for s in not_won) if drawn else ()
        return RoundRecord(dealer=self.dealer, events=tuple(self.record), drawn=drawn,
                           checks=checks, base=self.base, complete=self.over,
                           kong_discards=dict(self.kong_discards),
                           false_wins=tuple(self.false_wins))

    def release_kongs(self, seat: int, index: int) -> None:
        """``seat`` discards at event ``index``: its kongs since its last discard are paid
        there under ``kong_payment_timing: after_discard``."""
        waiting = []
        for kong in self.unreleased:
            if kong.seat == seat:
                self.kong_discards[kong.index] = index
            else:  # a declarer who won on its replacement tile: never released
                waiting.append(kong)
        self.unreleased = waiting

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

    def exchange_direction(self, die: int) -> str | None:
        """Where each seat's three tiles come from with this die and the round's dice
        (``from_next``, ``opposite``, ``from_prev``), or None when the ruleset has no
        exchange or needs a dice sum the round does not record."""
        return self.rules.exchange_direction(die, sum(self.dice) if self.dice else None)

    def exchange_received(self, die: int, give: Sequence[Sequence[Tile]]
                          ) -> tuple[tuple[Tile, ...], ...] | None:
        """What each seat receives when the seats give ``give`` with this die.

        >>> from xuezhan.tiles import parse_tiles
        >>> t = Table(Rules.preset("chengdu"), 0, [], dice=(1, 1))
        >>> give = [parse_tiles(g) for g in ("123m", "456m", "789m", "111p")]
        >>> [format_tiles(r) for r in t.exchange_received(1, give)]  # die 1: from 下家
        ['456m', '789m', '111p', '123m']
        """
        direction = self.exchange_direction(die)
        if direction is None:
            return None
        step = SOURCE_STEP[direction]
        return tuple(tuple(give[(seat + step) % 4]) for seat in range(4))

    def copy(self) -> Table:
        """An independent copy of the state, to try an action on (the rules, the recorded
        wall and the frozen records are shared; everything that changes is copied).

        >>> from xuezhan.tiles import parse_tiles
        >>> hands = [parse_tiles("123456789m1234p5s")] + [parse_tiles("123456789p1234s")] * 3
        >>> t = Table(Rules.from_json({"exchange": "off"}), dealer=0, hands=hands)
        >>> t.play(DingQue((2, 0, 0, 0)))
        []
        >>> trial = t.copy()
        >>> trial.play(Discard(0, Tile.parse("5s"))), t.hands[0] == trial.hands[0]
        ([], False)
        """
        new = Table.__new__(Table)
        new.__dict__.update(self.__dict__)
        new.hands = [list(h) for h in self.hands]
        new._keys = [None if k is None else k.copy() for k in self._keys]
        new.melds = [list(m) for m in self.melds]
        new.discards = [list(d) for d in self.discards]
        new.voids = list(self.voids)
        new.won = list(self.won)
        new.win_order = list(self.win_order)
        new.seen = list(self.seen)
        new.claim_winners = list(self.claim_winners)
        new.passed = list(self.passed)
        new.draws = list(self.draws)
        new.record = list(self.record)
        new.unreleased = list(self.unreleased)
        new.kong_discards = dict(self.kong_discards)
        new.false_wins = list(self.false_wins)
        new.scores = dict(self.scores)
        new.deal_problems = list(self.deal_problems)
        new._waits = list(self._waits)
        return new

    # -- decisions -------------------------------------------------------------------

    def legal_actions(self, seat: int) -> list[Action | Pass]:
        """Every action ``seat`` may take now; :meth:`play` accepts each without a problem.

        On its own turn: the self-drawn win, concealed and added kongs, and a discard of
        each tile kind held (only the win when the last-four rule binds it; only void-suit
        tiles under ``void_first``; no kong straight after a peng unless
        ``kong_after_peng``). In an open window (a discard, or an added kong that may be
        robbed): a win, peng or direct kong, and a :class:`~xuezhan.actions.Pass` for a seat
        that has one of those and is not bound to win. The draw of whoever draws next
        (the wall's next tile when the wall is recorded, else any tile not yet seen four
        times). Empty before play (the exchange and the void declaration are events of
        all four seats at once), after the round and for a seat that has won. Computed
        only when asked: it costs the replay nothing.

        >>> from xuezhan.tiles import parse_tiles
        >>> hands = [parse_tiles("1112345678999m5s"), parse_tiles("55m134567p123s99p"),
        ...          parse_tiles("2345678p456789s"), parse_tiles("112233p667788s9s")]
        >>> t = Table(Rules.from_json({"exchange": "off"}), 0, hands)
        >>> t.play(DingQue((2, 2, 0, 0)))
        []
        >>> [str(a.tile) for a in t.legal_actions(0)][:3], t.legal_actions(1)
        (['1m', '2m', '3m'], [])
        >>> t.play(Discard(0, Tile.parse("5m")))
        []
        >>> t.legal_actions(1)[:2]
        [Peng(actor=1, target=0, tile=Tile.parse('5m')), Pass(actor=1)]
        """
        if self.stage is not Stage.PLAY or self.won[seat]:
            return []
        expect = self.expect
        if expect is DISCARD:
            return self._turn_actions(seat) if seat == self.current else []
        if expect is DRAW or expect is REPLACEMENT:
            return list(self._draws(seat, expect is REPLACEMENT)) if seat == self.current else []
        return self._window_actions(seat)

    def next_draw(self) -> tuple[int, bool] | None:
        """Who draws when the open window closes with no claim, and whether it is a kong's
        replacement tile; None when the round ends there instead.

        After a win play passes to the next seat still in the round after the winner —
        after several wins on one tile, after the winner furthest from the discarder in
        turn order (docs/rules.md §2.6); an added kong nobody robs stands, and the konger draws.
        """
        if self.expect is ROB and self.pending_kong is not None and not self.claim_winners:
            return self.pending_kong[0], True
        if sum(self.won) >= 3 or self.wall_left == 0:
            return None
        origin = self.last_discard[0] if self.expect is CLAIM and self.last_discard else (
            self.pending_kong[0] if self.pending_kong else self.current)
        return self.next_live(self._furthest(origin, self.claim_winners)), False

    def score_of(self, hu: Hu) -> Score:
        """The score of ``hu`` now, with the context the table would give it."""
        seat = hu.actor
        if hu.target is None:
            return self.win_score(seat, hu.tile, self._self_draw_ctx(seat),
                                  in_hand=self.hands[seat][hu.tile] > 0)
        return self.win_score(seat, hu.tile, self._window_ctx(self.expect is ROB),
                              in_hand=False)

    def _turn_actions(self, seat: int) -> list[Action | Pass]:
        hand = self.hands[seat]
        out: list[Action | Pass] = [Hu(seat, t) for t in self._self_draw_wins(seat)]
        if self.must_win == seat:
            return out
        if self.wall_left > 0 and (self.after_peng != seat or self.rules.kong_after_peng):
            out += [Gang(seat, KongKind.ADDED, m.tile) for m in self.melds[seat]
                    if m.kind is MeldKind.PENG and hand[m.tile]]
            out += [Gang(seat, KongKind.CONCEALED, TILES[k]) for k in range(NUM_KINDS)
                    if hand[k] == COPIES]
        kinds = [k for k in range(NUM_KINDS) if hand[k]]
        void = self.voids[seat]
        if self.rules.void_first and void is not None:
            kinds = [k for k in kinds if k // 9 == void] or kinds
        out += [Discard(seat, TILES[k]) for k in kinds]
        return out

    def _self_draw_wins(self, seat: int) -> list[Tile]:
        if self.last_draw is not None:
            candidates = [self.last_draw]
        elif self._heaven(seat):
            candidates = [TILES[k] for k in range(NUM_KINDS) if self.hands[seat][k]]
        else:
            return []
        if not self.keys[seat].is_winning(self.voids[seat]):
            return []
        ctx = self._self_draw_ctx(seat)
        return [t for t in candidates if self.win_score(seat, t, ctx, in_hand=True).winning]

    def _draws(self, seat: int, replacement: bool) -> list[Draw]:
        if self.wall_left <= 0:
            return []
        tile = self._peek_wall(replacement)
        if tile is not None:
            return [Draw(seat, tile)]
        if self.wall is not None:
            return []
        return [Draw(seat, TILES[k]) for k in range(NUM_KINDS) if self.seen[k] < COPIES]

    def _window_actions(self, seat: int) -> list[Action | Pass]:
        rob = self.expect is ROB
        if rob and self.pending_kong is not None:
            origin, tile, _ = self.pending_kong
        elif not rob and self.last_discard is not None:
            origin, tile = self.last_discard
        else:
            return []
        bound = self._bound_to_win(origin, tile, rob)
        out: list[Action | Pass] = []
        if seat != origin and seat not in self.claim_winners:
            if self._may_win_on(seat, tile, rob, seat in bound):
                out.append(Hu(seat, tile, origin))
            empty = self.wall_left == 0
            if not (rob or self.claim_winners or bound or (empty and not self.peng_last_discard)
                    or (self.rules.no_claim_void and tile // 9 == self.voids[seat])):
                held = self.hands[seat][tile]
                if held >= 2:
                    out.append(Peng(seat, origin, tile))
                if held >= 3 and not empty:  # no replacement tile is left for a kong
                    out.append(Gang(seat, KongKind.DIRECT, tile, origin))
            if out and seat not in bound:
                out.append(Pass(seat))
        after = None if bound else self.next_draw()
        if after is not None and after[0] == seat:
            out += self._draws(seat, after[1])
        return out

    def _may_win_on(self, seat: int, tile: Tile, rob: bool, bound: bool) -> bool:
        """A win by ``seat`` on another's ``tile`` in the open window is allowed."""
        if tile not in self.waits_of(seat):
            return False
        score = self.win_score(seat, tile, self._window_ctx(rob), in_hand=False)
        return score.winning and (bound or self._passed_allows(seat, score.fan))

    def _bound_to_win(self, origin: int, tile: Tile, rob: bool) -> frozenset[int]:
        """Seats that must win the open window's tile: the last four under must_win_all
        (a robbable kong counts as the konger's discard, docs/rules.md §3)."""
        if not (self.rules.last_four == "must_win_all" and self.last_four):
            return frozenset()
        ctx = self._window_ctx(rob)
        return frozenset(
            s for s in range(4)
            if not self.won[s] and s != origin and s not in self.claim_winners
            and tile in self.waits_of(s)
            and self.win_score(s, tile, ctx, in_hand=False).winning)

    def _window_ctx(self, rob: bool) -> WinContext:
        if rob:
            return WinContext(rob_kong=True, last_tile=self.wall_left == 0)
        return WinContext(kong_discard=self.kong_before_discard is not None,
                          last_tile=self.wall_left == 0)

    def _passed_allows(self, seat: int, fan: int) -> bool:
        """过手胡: may ``seat`` win a discard worth ``fan`` after the wins it passed?"""
        passed, mode = self.passed[seat], self.rules.passed_win
        if passed is None or mode == "off":
            return True
        # in the last four under must_win_all the win is compulsory: the last-four rule wins
        # the collision with a strict 过手胡 (docs/rules.md §6), or no legal play would be left
        forced = self.rules.last_four == "must_win_all" and self.last_four
        return forced or (mode == "until_next_draw" and (fan > passed or self.wall_left < 4))

    def live_seats(self) -> list[int]:
        return [s for s in range(4) if not self.won[s]]

    def next_live(self, seat: int) -> int:
        for step in range(1, 5):
            candidate = (seat + step) % 4
            if not self.won[candidate]:
                return candidate
        return seat

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
        if max(totals) > COPIES:  # rare: one pass in C rules it out for the usual deal
            for kind, n in enumerate(totals):
                if n > COPIES:
                    problems.append(Problem("fifth_copy", f"{TILES[kind]} appears {n} times in "
                                            "the deal" + (" and wall" if self.wall else "")))
        return problems

    def _exchange(self, ex: Exchange, problems: list[Problem]) -> None:
        if self.stage is not Stage.EXCHANGE:
            problems.append(Problem("exchange_not_allowed", "this ruleset has no exchange"
                                    if self.rules.exchange == "off" else "the exchange is over"))
            if self.rules.exchange != "off" or self.stage is not Stage.DINGQUE:
                return
        direction = self.exchange_direction(ex.die)
        if direction is None and ex.receive is None and self.rules.exchange != "off":
            problems.append(Problem("dice_missing", "the ruleset picks the exchange direction "
                                    "by the dice sum, but the round records no dice"))
        source = SOURCE_STEP[direction or "from_next"]
        if problems or not self._exchange_plainly(ex, direction, source):
            self._exchange_checked(ex, direction, source, problems)
        # the tiles moved on the counts alone: each seat's keys are built again when asked
        self._keys = [None] * 4
        self._waits = [None] * 4
        self.stage = Stage.DINGQUE

    def _exchange_plainly(self, ex: Exchange, direction: str | None, source: int) -> bool:
        """Apply an exchange with nothing wrong in it, the usual case, and say so (False:
        nothing is applied, the checked way names what is wrong)."""
        give, receive, hands = ex.give, ex.receive, self.hands
        if len(give) != 4 or (receive is not None and len(receive) != 4):
            return False
        for seat in range(4):
            group = give[seat]
            if len(group) != 3:
                return False
            a, b, c = group
            have = hands[seat]
            if not a // 9 == b // 9 == c // 9:
                return False
            if a in (b, c) or b == c:  # a tile given twice: count it
                if any(have[t] < group.count(t) for t in group):
                    return False
            elif not (have[a] and have[b] and have[c]):
                return False
        got = [give[(seat + source) % 4] for seat in range(4)]
        if receive is not None:
            if direction is None:
                got = list(receive)  # no dice to check it by: the record stands
            elif any(receive[s] != got[s] and sorted(receive[s]) != sorted(got[s])
                     for s in range(4)):
                return False
        for seat in range(4):
            have = hands[seat]
            for t in give[seat]:
                have[t] -= 1
        for seat in range(4):
            have = hands[seat]
            for t in got[seat]:
                have[t] += 1
        return True

    def _exchange_checked(self, ex: Exchange, direction: str | None, source: int,
                          problems: list[Problem]) -> None:
        hands = self.hands
        for seat, give in enumerate(ex.give):
            if len({t // 9 for t in give}) > 1:
                problems.append(Problem("exchange_mixed_suits", f"seat {seat} gives "
                                        f"{_fmt(give)}, not three tiles of one suit", seat))
            have = hands[seat]
            for t in dict.fromkeys(give):
                if have[t] < give.count(t):
                    problems.append(Problem("tile_not_in_hand",
                                            f"seat {seat} gives {TILES[t]} but holds {have[t]}",
                                            seat))
        for seat, give in enumerate(ex.give):
            have = hands[seat]
            for t in give:
                if have[t]:
                    have[t] -= 1
        for seat in range(4):
            got = ex.give[(seat + source) % 4]
            if direction is None and ex.receive is not None:
                got = ex.receive[seat]  # no dice to check it by: the record stands
            elif ex.receive is not None and sorted(ex.receive[seat]) != sorted(got):
                problems.append(Problem("exchange_receive_mismatch", f"seat {seat} records "
                                        f"receiving {_fmt(ex.receive[seat])}; with die {ex.die} "
                                        f"({direction}) it gets {_fmt(got)}", seat))
            have = hands[seat]
            for t in got:
                have[t] += 1

    def _dingque(self, dq: DingQue, problems: list[Problem]) -> None:
        if self.stage is Stage.EXCHANGE:
            problems.append(Problem("exchange_missing", "the void suits were declared before "
                                    "the exchange"))
        elif self.stage is not Stage.DINGQUE:
            problems.append(Problem("out_of_order", "the void suits were already declared"))
            return
        self.voids = list(dq.suits)
        self._waits = [None] * 4
        self.stage = Stage.PLAY

    def _enter_play(self, problems: list[Problem]) -> None:
        if self.stage is Stage.EXCHANGE:
            problems.append(Problem("exchange_missing", "play started without the exchange"))
            self.stage = Stage.DINGQUE
        if self.stage is Stage.DINGQUE:
            problems.append(Problem("dingque_missing", "play started before the void suits "
                                    "were declared"))
            self.stage = Stage.PLAY

    # -- play ------------------------------------------------------------------------

    def _check_must_win(self, action: Action | Pass, problems: list[Problem]) -> None:
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
        self.after_peng = None
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
        if self.unreleased:
            self.release_kongs(seat, self.event_index)
        self.after_peng = None
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
        if self.wall_left == 0 and not (what == "peng" and self.peng_last_discard):
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
        self.after_peng = p.actor

    def _gang(self, g: Gang, problems: list[Problem]) -> None:
        seat, tile = g.actor, g.tile
        if self.wall_left == 0:
            problems.append(Problem("kong_with_empty_wall", f"seat {seat} kongs with the wall "
                                    "empty", seat))
        kind = g.kind
        if kind is not KongKind.DIRECT and (self.expect != DISCARD or seat != self.current):
            problems.append(Problem("kong_out_of_turn", f"seat {seat} declares a kong, but "
                                    f"seat {self.current} is to {self.expect}", seat))
            self.current = seat
        elif kind is not KongKind.DIRECT and self.after_peng == seat and \
                not self.rules.kong_after_peng:
            problems.append(Problem("kong_after_peng", f"seat {seat} declares a {kind} kong "
                                    "straight after its peng; only a discard is legal "
                                    "(kong_after_peng is off)", seat))
        self.after_peng = None
        if kind is KongKind.DIRECT:
            ok = g.target is not None and self._check_claim(seat, g.target, tile, "kong",
                                                            problems)
            if g.target is None:
                problems.append(Problem("claim_not_last_discard", "a direct kong names no "
                                        "discarder", seat))
            self._need(seat, tile, 3, "kongs", problems)
            if ok and g.target is not None:
                self._take_discard(g.target, tile, problems)
            self.melds[seat].append(Meld(MeldKind.MING, tile, g.target))
            self._record_kong(KongKind.DIRECT, seat, tile, g.target)
        elif kind is KongKind.CONCEALED:
            self._need(seat, tile, 4, "kongs", problems)
            self.melds[seat].append(Meld(MeldKind.AN, tile))
            self._record_kong(KongKind.CONCEALED, seat, tile, None)
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
        # a 回头杠 adds a tile held from before (added_kong_fresh_only pays it nothing)
        self.added_fresh = self.last_draw == tile
        self.pending_kong = (seat, tile, self.event_index)
        self.claim_winners = []
        self.current, self.expect, self.last_draw = seat, ROB, None

    def _need(self, seat: int, tile: Tile, n: int, verb: str, problems: list[Problem]) -> None:
        hand = self.hands[seat]
        if hand[tile] < n:
            problems.append(Problem("tile_not_in_hand", f"seat {seat} {verb} {tile} holding "
                                    f"{hand[tile]} of it", seat))
        self._take(seat, tile, min(hand[tile], n))

    def _record_kong(self, kind: KongKind, seat: int, tile: Tile, discarder: int | None,
                     fresh: bool = True) -> None:
        kong = KongEvent(index=self.event_index, seat=seat, kind=kind, tile=tile,
                         discarder=discarder, in_round=frozenset(self.live_seats()),
                         fresh=fresh)
        self.record.append(kong)
        self.unreleased.append(kong)
        self.replacement_of = kong

    # -- wins ------------------------------------------------------------------------

    def _hu(self, h: Hu, problems: list[Problem]) -> None:
        seat = h.actor
        start = len(problems)
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
        if not score.winning and len(problems) == start and self.rules.false_win != "violation":
            self._false_win(h, score)
            return
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
                fan=score.fan, points=score.points, detail="",
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

    def _false_win(self, h: Hu, score: Score) -> None:
        """诈胡 under a ``false_win`` penalty (docs/rules.md §7): recorded for the settlement,
        and nothing else changes — the declarer keeps its tiles (a drawn tile stays in its
        hand, a discard stays the discarder's and its window open) and plays on."""
        self.false_wins.append(FalseWin(
            index=self.event_index, seat=h.actor, tile=h.tile, discarder=h.target,
            reason=score.reason or "not_a_winning_hand",
            in_round=frozenset(self.live_seats())))

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
        passed = self.passed[seat]
        if not self._passed_allows(seat, score.fan):
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

    def _close_windows(self, action: Action | Pass | None, problems: list[Problem]) -> None:
        """A discard or an added kong stays open to wins until an event that is not one."""
        if self.expect == CLAIM and self.last_discard is not None:
            if isinstance(action, Hu) and action.target is not None:
                return
            if isinstance(action, Peng) or (isinstance(action, Gang)
                                            and action.kind is KongKind.DIRECT):
                return
            discarder, tile = self.last_discard
            self._register_passes(target=discarder, tile=tile, problems=problems)
            self._after_turn(self._furthest(discarder, self.claim_winners))
        elif self.expect == ROB and self.pending_kong is not None:
            if isinstance(action, Hu) and action.target is not None:
                return
            konger, tile, index = self.pending_kong
            # robbing a kong is a win on the konger's tile (docs/rules.md §3): letting
            # it go is a passed win, and in the last four under must_win_all a fault
            self._register_passes(target=konger, tile=tile, problems=problems, rob=True)
            self.pending_kong = None
            if self.claim_winners:
                self._undo_added_kong(konger, tile)
                self._after_turn(self._furthest(konger, self.claim_winners))
            else:
                saved, self.event_index = self.event_index, index
                self._record_kong(KongKind.ADDED, konger, tile, None, self.added_fresh)
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
            self.stage = Stage.OVER
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
            score = self.win_score(seat, tile, self._window_ctx(rob), in_hand=False)
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
        tile = self._peek_wall(replacement)
        if tile is not None:
            if replacement and self.rules.kong_draw == "back":
                self.wall_back -= 1
            else:
                self.wall_front += 1
        return tile

    def _peek_wall(self, replacement: bool) -> Tile | None:
        """The recorded wall's next tile (a kong's replacement: from the back with
        ``kong_draw: back``), or None with no wall or none left."""
        wall = self.wall
        if wall is None or self.wall_front >= self.wall_back:
            return None
        if replacement and self.rules.kong_draw == "back":
            return TILES[wall[self.wall_back - 1]]
        return TILES[wall[self.wall_front]]

    def _give(self, seat: int, tile: int) -> None:
        self.hands[seat][tile] += 1
        keys = self._keys[seat]
        if keys is not None:
            keys.add(tile)
        self._waits[seat] = None

    def _take(self, seat: int, tile: int, n: int = 1) -> None:
        if n:
            self.hands[seat][tile] -= n
            keys = self._keys[seat]
            if keys is not None:
                keys.remove(tile, n)
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
        # ruling (docs/rules.md §7 min_fan): a wait counts only when its full fan, kong add-ons
        # included, reaches min_fan; max_no_kong_fan then changes the value, not readiness
        value = ting_value(hand, melds, void, self.rules, strict=False)
        no_kong = no_kong_wait = None
        if value is not None and self.rules.ting_check == "max_no_kong_fan":  # only it asks
            fans = [(score.fan - _kong_fan(score), tile) for tile, score in value[1]]
            no_kong = max(fan for fan, _ in fans)
            no_kong_wait = next(tile for fan, tile in fans if fan == no_kong)
        return DrawCheck(seat=seat, flower_pig=pig,
                         ready_fan=None if value is None else value[0],
                         ready_fan_no_kong=no_kong, ready_wait=best_wait(value),
                         ready_wait_no_kong=no_kong_wait)


def _kong_fan(score: Score) -> int:
    """The fan of the winner's own kongs in a score (the same in every reading)."""
    return sum(a.fan * a.count for a in score.add_ons if a.name.startswith("kong_"))


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


#: the handler of each play action, as plain functions: a table holding bound methods of
#: itself would be a reference cycle, freed only by the garbage collector
_HANDLERS: dict[type, Callable[[Table, Any, list[Problem]], None]] = {
    Draw: Table._draw, Discard: Table._discard, Peng: Table._peng, Gang: Table._gang,
    Hu: Table._hu}
