"""The lean verifier: validate and replay a regular document in one pass, no reporting.

:func:`replay_document` is what ``verify_document`` tries first. It validates the
document as it replays it, and gives up on the whole document (the standard path then
runs the schema pass, so the rejection messages are its own) at the first structural
doubt, and on a round (the lenient walk then replays that one) at its first fault.

A round is mostly draws and discards that break no rule, then a few pengs, kongs and
wins. The replay keeps what those touch in local variables — the wall's two ends, whose
turn it is, the open discard, the kong a replacement tile is for, the peng whose turn
it is — and applies them straight from the event dicts: no action object, no problem
list. Each seat's waits are a 27-bit mask kept with its hand (worked out at its discard,
put back when it lets go the tile it drew): a discard asks whether anyone else waits on
it by one look-up, and the draw or claim that closes its window reads the answer; the
suit keys are built only when the table needs them. A peng or kong applies here when nobody
waits on the tile (otherwise the passes need scoring); a win on a discard applies here
when it is the first on it, a self-drawn win when it is on the tile just drawn; both are
scored as the table scores them. The draw that closes a discard's window scores the
wins let go on it (过手胡), as the table does; a draw in the last four tests the hand and,
when it wins, binds the seat to win (the lenient walk plays on from there). Every other
event (a second win on one discard, an added kong and its window) goes to
:meth:`Table.play`, the lenient walk, after the local state is written back;
exchanges and void declarations of the usual shape are read by hand and played there.
The moment anything reports a problem the round is given up (``None``): the caller
replays it from the start on the lenient walk, which is the specification and names
every fault with its locator (docs/format.md).

An event is applied here only when :meth:`Table.play` would accept it without a problem
and leave the same state, so a round replayed here to its end leaves exactly the lenient
walk's table; ``tests/xuezhan/test_fastpath.py`` holds both to byte-identical reports on
the whole corpus, legal and corrupted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from xuezhan.actions import Action, DingQue, Exchange, action_from_json
from xuezhan.errors import XuezhanError
from xuezhan.fan import WinContext
from xuezhan.hand import KongKind, Meld, MeldKind, is_winning, waits
from xuezhan.rules import Rules
from xuezhan.schema import integral_floats, lean_checks
from xuezhan.settlement import KongEvent, WinEvent
from xuezhan.table import CLAIM, DISCARD, DRAW, REPLACEMENT, Stage, Table
from xuezhan.tiles import TILES, Tile

_NAMED: dict[str, Tile] = {str(t): t for t in TILES}


class _Doubt(Exception):
    """Something the lean checks do not vouch for: the document goes the standard way."""


def replay_document(doc: object) -> tuple[Rules, list[Table | None]] | None:
    """The rules and, per round, its table after a lean replay (None for a round with a
    fault: the lenient walk reports it) — or None for the whole document when its
    structure is in any doubt or its ruleset is bad: :func:`validate_document` and the
    standard path then name the problems. Validation happens in the same pass as the
    replay: the document and the rounds by compiled checks with the tiles and events
    left open, the tiles by the look-up that reads them, the draws and discards by hand
    and the other events by their type's compiled check."""
    checks = lean_checks()
    try:
        if type(doc) is not dict or not checks.document(doc) or type(doc["rounds"]) is not list:
            return None
        rounds = doc["rounds"]
        if type(doc.get("base", 1)) is not int or type(doc["version"]) is not int:
            return None
        for r in rounds:
            if not (type(r) is dict and (_plain_round(r) or (
                    checks.round(r) and not integral_floats({"rounds": [{**r, "events": ()}]})))):
                return None
        rules = Rules.from_json(doc.get("ruleset", "chengdu"))
        base = doc.get("base", 1)
        return rules, [_replay_round(r, rules, base, checks.event) for r in rounds]
    except (_Doubt, XuezhanError, RecursionError):
        return None


def replay_regular(round_doc: dict[str, Any], rules: Rules, base: int = 1) -> Table | None:
    """The table after a schema-valid round, or None when the deal or any event breaks a
    rule (or the end of the log does): the lenient walk then reports it."""
    try:
        return _replay_round(round_doc, rules, base, lean_checks().event)
    except _Doubt:
        return None


def _replay_round(round_doc: dict[str, Any], rules: Rules, base: int,
                  checks: dict[str, Callable[[object], bool]]) -> Table | None:
    wall = _tiles(round_doc["wall"]) if "wall" in round_doc else None
    table = Table(rules, round_doc["dealer"], [_tiles(h) for h in round_doc["hands"]],
                  wall=wall, base=base, dice=round_doc.get("dice"))
    events = round_doc["events"]
    if table.deal_problems:
        for event in events:  # not played, but the round's structure is still to check
            _check_event(event, checks)
        return None
    if not _play_events(table, events, checks) or table.finish():
        return None
    return table


_ROUND_KEYS = frozenset({"dealer", "hands", "events", "dice", "wall", "result"})


def _plain_round(r: dict[str, Any]) -> bool:
    """A round of the usual shape, valid apart from its tiles and events (which the
    replay checks where it reads them), by exact types: an int written as a float is no
    int here. False asks the compiled check and the float check instead, so it may be
    said of valid rounds; True only of rounds the schema passes (docs/format.md)."""
    dealer, hands, events = r.get("dealer"), r.get("hands"), r.get("events")
    if (type(dealer) is not int or not 0 <= dealer <= 3 or type(events) is not list
            or len(events) > 400 or type(hands) is not list or len(hands) != 4
            or not _ROUND_KEYS.issuperset(r)):
        return False
    for hand in hands:
        if type(hand) is not list or not 13 <= len(hand) <= 14:
            return False
    wall = r.get("wall", ())
    if (type(wall) is not list and "wall" in r) or len(wall) > 55:
        return False
    dice = r.get("dice", [1, 1])
    if type(dice) is not list or len(dice) != 2 or any(
            type(d) is not int or not 1 <= d <= 6 for d in dice):
        return False
    return "result" not in r or _plain_result(r["result"])


def _plain_result(result: object) -> bool:
    """A recorded result of deltas and payments as ``[payer, payee, amount, reason]``."""
    if type(result) is not dict or not {"deltas", "payments"}.issuperset(result):
        return False
    deltas = result.get("deltas", [0, 0, 0, 0])
    payments = result.get("payments", ())
    if (type(deltas) is not list or len(deltas) != 4 or any(type(d) is not int for d in deltas)
            or type(payments) is not list or len(payments) > 400):
        return False
    for p in payments:
        if type(p) is not list or len(p) != 4:
            return False
        payer, payee, amount, reason = p
        if (type(payer) is not int or type(payee) is not int or type(amount) is not int
                or type(reason) is not str or not 0 <= payer <= 3 or not 0 <= payee <= 3
                or amount < 0):
            return False
    return True


def _tiles(names: Sequence[Any]) -> list[Tile]:
    try:
        return [_NAMED[name] for name in names]
    except (KeyError, TypeError):
        raise _Doubt from None


def _check_event(event: object, checks: dict[str, Callable[[object], bool]]) -> None:
    """Raise _Doubt unless ``event`` is valid: its type's check, and no float at all
    (the integer fields of an event are its own: actor, target, die)."""
    if type(event) is not dict:
        raise _Doubt
    kind = event.get("type")
    check = checks.get(kind) if type(kind) is str else None
    if check is None or not check(event) or any(type(v) is float for v in event.values()):
        raise _Doubt


def _play_events(table: Table, events: Sequence[Any],
                 checks: dict[str, Callable[[object], bool]]) -> bool:
    """Validate and play the events on ``table``; False at the first problem. One loop on
    purpose: the common events' state lives in locals, written back only around the rest.
    A draw or discard of exactly ``type``, ``actor`` (an int seat) and a tile name is
    valid as it stands; any other event passes its type's check first."""
    rules = table.rules
    from_back = rules.kong_draw == "back"
    last_four_rule = rules.last_four != "off"
    void_first, no_claim_void = rules.void_first, rules.no_claim_void
    kong_after_peng, passed_win = rules.kong_after_peng, rules.passed_win
    must_win_all = rules.last_four == "must_win_all"
    heaven_earth = rules.heaven_earth
    hands, won, voids = table.hands, table.won, table.voids
    # each seat's waits as a 27-bit mask, kept up to date as its hand moves: worked out at
    # its discard (a hand of 13 is what others' discards meet), 0 once it has won, -1
    # while not known (the deal, and after an event the table played)
    masks = [-1, -1, -1, -1]
    draws, passed, discards, melds = table.draws, table.passed, table.discards, table.melds
    wall = table.wall
    stale = 0  # seats whose suit keys lag their counts
    index = -1
    state = _load(table)
    waited: bool | None = None  # someone else waits on the open discard (None: not known)
    drawn_mask = -1  # the drawer's waits before its lean draw
    (regular, front, back, left, last_four, current, expect, last_discard, last_draw,
     replacement_of, kong_before_discard, claimers, after_peng) = state
    for index, event in enumerate(events):
        # subscripts, not .get: nearly every event has the three fields (a miss raises,
        # which costs nothing until it happens)
        try:
            tile: Tile | None = _NAMED[event["tile"]]
            seat: int = event["actor"]
            kind = event["type"]
        except (KeyError, TypeError):  # not a dict, or no tile event of the format's names
            tile, seat, kind = None, -1, None
        else:
            if type(seat) is not int or not 0 <= seat <= 3 or type(kind) is not str:
                kind = None
            elif len(event) != 3:
                kind = _kind_of(event)
        if regular and tile is not None and kind is not None:
            if kind == "discard":
                hand = hands[seat]
                void = voids[seat]
                if (expect is DISCARD and seat == current and hand[tile] and not won[seat]
                        and not (void_first and void is not None and tile // 9 != void
                                 and any(hand[void * 9:void * 9 + 9]))):
                    hand[tile] -= 1
                    # the tile just drawn, let go: the hand is the one before the draw
                    masks[seat] = drawn_mask if tile == last_draw else _wait_mask(hand, void)
                    stale |= 1 << seat
                    discards[seat].append(tile)
                    if table.unreleased:
                        table.release_kongs(seat, index)
                    kong_before_discard, replacement_of = replacement_of, None
                    expect, last_discard, last_draw, after_peng = CLAIM, (seat, tile), None, None
                    if claimers:
                        claimers = []
                    # asked once here: the draw or the claim that closes the window reads it
                    a, b, c = _OTHERS[seat]
                    waited = bool((masks[a] | masks[b] | masks[c]) >> tile & 1) and _waited_on(
                        seat, tile, hands, voids, masks)
                    continue
            elif kind == "draw" and wall is not None and left > 0 and front < back:
                replacement = expect is REPLACEMENT
                passes: list[tuple[int, int]] | None = None
                if expect is CLAIM and waited is False and not claimers and last_discard:
                    # nobody could take the discard: the next seat still in draws (with
                    # three won the round is over, and the loop is not regular)
                    for turn in _OTHERS[last_discard[0]]:
                        if not won[turn]:
                            break
                elif expect is CLAIM:
                    closed = _window_closes(table, masks, last_discard, claimers, left, waited,
                                            kong_before_discard is not None,
                                            must_win_all and last_four)
                    turn, passes = closed if closed is not None else (None, None)
                elif expect is DRAW or replacement:
                    turn = current
                else:
                    turn = None
                position = back - 1 if replacement and from_back else front
                if seat == turn and wall[position] == tile:
                    if expect is CLAIM:
                        last_discard = kong_before_discard = None
                        if claimers:
                            claimers = []
                        if passes:
                            for passer, fan in passes:  # 过手胡: the wins let go
                                prior = passed[passer]
                                passed[passer] = fan if prior is None else max(prior, fan)
                    if position == front:
                        front += 1
                    else:
                        back = position
                    last_four = last_four or left <= 4
                    left -= 1
                    hands[seat][tile] += 1
                    drawn_mask, masks[seat] = masks[seat], -1
                    stale |= 1 << seat
                    draws[seat] += 1
                    passed[seat] = None
                    current, expect, last_draw, after_peng = seat, DISCARD, tile, None
                    if not replacement:
                        replacement_of = None
                    if last_four_rule and last_four and is_winning(hands[seat], voids[seat]):
                        # a winning tile drawn in the last four binds the seat to win it
                        # (the lenient walk plays on from here, as it checks that)
                        earth = (heaven_earth and seat != table.dealer and draws[seat] == 1
                                 and not table.claimed_or_won)
                        if table.win_score(seat, tile, _self_drawn_ctx(
                                earth, left == 0, replacement_of.kind if replacement_of else None),
                                in_hand=True).winning:
                            table.must_win, regular = seat, False
                    continue
            elif kind == "peng+target" or kind == "gang:ming+target":
                # a claim: the table's checks in its order, and nobody (the claimer neither)
                # waits on the tile, or the passes need scoring (the table's to do)
                target = event["target"]
                need = 2 if kind == "peng+target" else 3
                hand = hands[seat]
                if (expect is CLAIM and last_discard == (target, tile) and seat != target
                        and not claimers and left > 0 and not won[seat] and hand[tile] >= need
                        and not (no_claim_void and tile // 9 == voids[seat])
                        and not (_waited_on(target, tile, hands, voids, masks)
                                 if waited is None else waited)):
                    hand[tile] -= need
                    masks[seat] = -1
                    stale |= 1 << seat
                    river = discards[target]
                    if river and river[-1] == tile:
                        river.pop()
                    table.claimed_or_won = True
                    kong_before_discard = None
                    if need == 2:
                        melds[seat].append(Meld(MeldKind.PENG, tile, target))
                        replacement_of = None
                        current, expect, last_draw, after_peng = seat, DISCARD, None, seat
                    else:
                        melds[seat].append(Meld(MeldKind.MING, tile, target))
                        replacement_of = _kong(table, index, KongKind.DIRECT, seat, tile, target)
                        current, expect, last_draw, after_peng = seat, REPLACEMENT, None, None
                    continue
            elif kind == "hu+target":
                target = event["target"]
                if (expect is CLAIM and last_discard == (target, tile) and seat != target
                        and not claimers and not won[seat]):
                    # the first win on a discard: scored as the table scores it, and
                    # applied here only when the table would find nothing wrong with it
                    score = table.win_score(seat, tile, _DISCARD_CTX[
                        kong_before_discard is not None, left == 0], in_hand=False)
                    prior = passed[seat]
                    if score.winning and (prior is None or passed_win == "off" or (
                            must_win_all and last_four) or (passed_win == "until_next_draw" and (
                                score.fan > prior or left < 4))):
                        in_round = frozenset(s for s in range(4) if not won[s])
                        hands[seat][tile] += 1
                        masks[seat] = 0
                        stale |= 1 << seat
                        river = discards[target]
                        if river and river[-1] == tile:
                            river.pop()
                        claimers = [seat]
                        table._claim_group, table._claim_round = index, in_round
                        table.scores[seat] = score
                        table.record.append(WinEvent(
                            index=index, seat=seat, tile=tile, discarder=target, fan=score.fan,
                            points=score.points, detail="", pattern=score.pattern,
                            in_round=in_round, group=index, rob_kong=False, after_kong=None,
                            kong_before_discard=kong_before_discard, score=score))
                        won[seat] = True
                        table.win_order.append(seat)
                        table.claimed_or_won = True
                        continue
            elif kind == "hu":
                if (expect is DISCARD and seat == current and last_draw == tile
                        and hands[seat][tile] and not won[seat] and not claimers):
                    # a self-drawn win on the tile just drawn (天胡 is the table's)
                    earth = (heaven_earth and seat != table.dealer and draws[seat] == 1
                             and not table.claimed_or_won)
                    score = table.win_score(seat, tile, _self_drawn_ctx(
                        earth, left == 0, replacement_of.kind if replacement_of else None),
                        in_hand=True)
                    if score.winning:
                        in_round = frozenset(s for s in range(4) if not won[s])
                        table.scores[seat] = score
                        table.record.append(WinEvent(
                            index=index, seat=seat, tile=tile, discarder=None, fan=score.fan,
                            points=score.points, detail="", pattern=score.pattern,
                            in_round=in_round, group=index, rob_kong=False,
                            after_kong=replacement_of, kong_before_discard=None, score=score))
                        won[seat] = True
                        table.win_order.append(seat)
                        table.claimed_or_won = True
                        masks[seat] = 0
                        stale |= 1 << seat  # the table's wait cache of a winner goes too
                        if won.count(True) >= 3 or left == 0:
                            table.stage, regular = Stage.OVER, False
                        else:
                            current = next(s for s in _OTHERS[seat] if not won[s])
                            expect, last_discard, kong_before_discard = DRAW, None, None
                        continue
            elif kind == "gang:an":
                hand = hands[seat]
                if (expect is DISCARD and seat == current and left > 0 and not won[seat]
                        and hand[tile] >= 4 and (after_peng != seat or kong_after_peng)):
                    hand[tile] -= 4
                    masks[seat] = -1
                    stale |= 1 << seat
                    melds[seat].append(Meld(MeldKind.AN, tile))
                    replacement_of = _kong(table, index, KongKind.CONCEALED, seat, tile, None)
                    table.claimed_or_won = True
                    expect, last_draw, after_peng = REPLACEMENT, None, None
                    continue
        _store(table, (regular, front, back, left, last_four, current, expect, last_discard,
                       last_draw, replacement_of, kong_before_discard, claimers, after_peng), stale)
        stale = 0
        action: Action | None
        if kind in _VALID_AS_READ:
            action = action_from_json(event)
        else:
            action = _opening(event) if kind is None and type(event) is dict else None
            if action is None:
                _check_event(event, checks)
                action = action_from_json(event)
        if table.play(action, index):
            for rest in events[index + 1:]:
                _check_event(rest, checks)
            return False
        voids = table.voids  # the void declaration sets a new list
        masks = [-1, -1, -1, -1]
        (regular, front, back, left, last_four, current, expect, last_discard, last_draw,
         replacement_of, kong_before_discard, claimers, after_peng) = _load(table)
        waited, drawn_mask = None, -1
    _store(table, (regular, front, back, left, last_four, current, expect, last_discard,
                   last_draw, replacement_of, kong_before_discard, claimers, after_peng), stale)
    table.event_index = index
    return True


#: events valid as the loop reads them (docs/format.md): a draw, discard or self-drawn win of
#: exactly type, an int seat and a tile name; a peng or a win on a discard with an int
#: target as well, a concealed kong with its kind, a direct one with kind and target
#: (:func:`_kind_of`). Anything else passes its type's compiled check.
_VALID_AS_READ = frozenset({"draw", "discard", "hu", "peng+target", "hu+target", "gang:an",
                            "gang:ming+target"})


def _opening(event: dict[str, Any]) -> Exchange | DingQue | None:
    """An exchange or void declaration of exactly the format's fields, read as its action
    (None: the event's type check and the standard reading decide)."""
    kind = event.get("type")
    if kind == "dingque":
        suits = event.get("suits")
        if len(event) == 2 and type(suits) is list and len(suits) == 4:
            try:
                return DingQue(tuple(_SUITS[s] for s in suits))
            except (KeyError, TypeError):
                return None
    elif kind == "exchange":
        die = event.get("die")
        if type(die) is int and 1 <= die <= 6 and _EXCHANGE_KEYS.issuperset(event):
            give = _threes(event.get("give"))
            receive = _threes(event["receive"]) if "receive" in event else ()
            if give and receive is not None:
                return Exchange(die, give, receive or None)
    return None


_SUITS = {"m": 0, "p": 1, "s": 2}
_EXCHANGE_KEYS = frozenset({"type", "die", "give", "receive"})


def _threes(groups: object) -> tuple[tuple[Tile, ...], ...] | None:
    """Four groups of three tile names, as tiles (None if they are anything else)."""
    if type(groups) is not list or len(groups) != 4:
        return None
    out = []
    for group in groups:
        if type(group) is not list or len(group) != 3:
            return None
        try:
            out.append((_NAMED[group[0]], _NAMED[group[1]], _NAMED[group[2]]))
        except (KeyError, TypeError):
            return None
    return tuple(out)


def _kind_of(event: dict[str, Any]) -> str | None:
    """The kind of an event of more than three fields: ``+target`` with an int seat
    ``target``, and a kong's ``kind`` named (``gang:an``, ``gang:ming+target``)."""
    kind, target, n = event.get("type"), event.get("target"), len(event)
    seat_target = type(target) is int and 0 <= target <= 3
    if kind == "gang":
        named = event.get("kind")
        if n == 4 and named == "an":
            return "gang:an"
        return "gang:ming+target" if n == 5 and named == "ming" and seat_target else None
    return f"{kind}+target" if n == 4 and seat_target else None


def _kong(table: Table, index: int, kind: KongKind, seat: int, tile: Tile,
          discarder: int | None) -> KongEvent:
    """Record a kong as the table does, with the seats still in the round."""
    won = table.won
    kong = KongEvent(index=index, seat=seat, kind=kind, tile=tile, discarder=discarder,
                     in_round=frozenset(s for s in range(4) if not won[s]))
    table.record.append(kong)
    table.unreleased.append(kong)
    return kong


def _waited_on(discarder: int, tile: Tile, hands: list[list[int]],
               voids: list[int | None], masks: list[int]) -> bool:
    """Some seat other than the discarder waits on ``tile`` (a won seat's mask is 0),
    working out the masks not known yet."""
    for seat in _OTHERS[discarder]:
        mask = masks[seat]
        if mask < 0:
            mask = masks[seat] = _wait_mask(hands[seat], voids[seat])
        if mask >> tile & 1:
            return True
    return False


def _wait_mask(hand: list[int], void: int | None) -> int:
    """The waits of a hand as a 27-bit mask."""
    mask = 0
    for tile in waits(hand, void):
        mask |= 1 << tile
    return mask


def _window_closes(table: Table, masks: list[int], last_discard: tuple[int, Tile] | None,
                   claimers: list[int], left: int, waited: bool | None, kong_discard: bool,
                   bound: bool) -> tuple[int, list[tuple[int, int]]] | None:
    """Who draws next when a discard's window closes (the discard unclaimed, or won by
    ``claimers``), and the wins let go on it as ``(seat, fan)`` — or None when the
    lenient walk decides: the round ends there, or a seat ``bound`` to win (the last four
    under must_win_all) lets one go. ``waited`` is what :func:`_waited_on` said at the
    discard, if it was asked. The table's own order: the passes are scored as it scores
    them, then play goes to the seat after the furthest winner."""
    won = table.won
    if last_discard is None or left == 0 or won.count(True) >= 3:
        return None
    discarder, tile = last_discard
    hands, voids = table.hands, table.voids
    if waited is None:
        waited = _waited_on(discarder, tile, hands, voids, masks)
    passes: list[tuple[int, int]] = []
    if waited:
        ctx = _DISCARD_CTX[kong_discard, False]  # last_tile: the wall is not empty
        for seat in _OTHERS[discarder]:
            if won[seat]:  # a claimer has won
                continue
            mask = masks[seat]
            if mask < 0:
                mask = masks[seat] = _wait_mask(hands[seat], voids[seat])
            if mask >> tile & 1:
                score = table.win_score(seat, tile, ctx, in_hand=False)
                if score.winning:
                    if bound:
                        return None
                    passes.append((seat, score.fan))
    origin = max(claimers, key=lambda s: (s - discarder) % 4) if claimers else discarder
    for seat in _OTHERS[origin]:
        if not won[seat]:
            return seat, passes
    return None  # not reached: three seats have not won


#: the contexts of a win on a discard, by (after the discarder's kong, on the last tile):
#: immutable, and a handful, so made once (a frozen dataclass costs ~1 µs to make)
_DISCARD_CTX = {(kong, last): WinContext(kong_discard=kong, last_tile=last)
                for kong in (False, True) for last in (False, True)}
_SELF_DRAWN_CTX: dict[tuple[bool, bool, str | None], WinContext] = {}


def _self_drawn_ctx(earth: bool, last_tile: bool, after_kong: str | None) -> WinContext:
    """The context of a self-drawn win (not 天胡: the table's), one object each."""
    key = (earth, last_tile, after_kong)
    ctx = _SELF_DRAWN_CTX.get(key)
    if ctx is None:  # after_kong is a kong kind: the table stays small
        ctx = _SELF_DRAWN_CTX[key] = WinContext(self_drawn=True, earth=earth,
                                                last_tile=last_tile, after_kong=after_kong)
    return ctx


#: the other seats in turn order after each seat
_OTHERS = tuple(tuple((seat + step) % 4 for step in (1, 2, 3)) for seat in range(4))

_State = tuple[Any, ...]


def _load(table: Table) -> _State:
    regular = table.stage == "play" and table.must_win is None
    return (regular, table.wall_front, table.wall_back, table.wall_left, table.last_four,
            table.current, table.expect, table.last_discard, table.last_draw,
            table.replacement_of, table.kong_before_discard, table.claim_winners,
            table.after_peng)


def _store(table: Table, state: _State, stale: int) -> None:
    (_, table.wall_front, table.wall_back, table.wall_left, table.last_four, table.current,
     table.expect, table.last_discard, table.last_draw, table.replacement_of,
     table.kong_before_discard, table.claim_winners, table.after_peng) = state
    seat = 0
    while stale:
        if stale & 1:
            table.forget_keys(seat)
            table._waits[seat] = None
        stale >>= 1
        seat += 1
