"""The simulator's players: simple, legal, fairly sensible policies for 血战到底.

A :class:`Bot` sees a :class:`~xuezhan.table.Table` and picks its next action among
the table's :meth:`~xuezhan.table.Table.legal_actions`; the simulator pushes it. What is
legal (过手胡, the last-four duty, kongs after a peng, void_first...) is the table's to
say, never the bot's. Each bot has a :class:`Style` (chosen per seat by the match seed)
that shades its choices, and a ``chaos`` share of decisions made at random among the
legal ones, to reach odd states. Bots use only the ``random.Random`` they are given.

The policy, in short:

- 换三张: give three tiles of the weakest suit (fewest tiles among suits with three).
- 定缺: void the suit with the fewest useful tiles.
- Discard: void-suit tiles first; then whatever leaves the lowest 向听 (shanten), ties
  broken by the number of unseen tiles that would lower it (有效牌); a bot chasing
  清一色 or 七对 measures the distance to that shape instead.
- Claims: peng or kong when it does not lengthen the road to a win; always win,
  except that a greedy bot sometimes passes a small win on a discard (过手胡 then binds
  it), and never when the last-four rule forces the win.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from xuezhan.actions import Action, Discard, Gang, Hu, Peng
from xuezhan.hand import KongKind
from xuezhan.table import Table
from xuezhan.tiles import NUM_KINDS, TILES, Tile


@dataclass(frozen=True, slots=True)
class Style:
    """How one seat plays; every field is a probability or a switch."""

    name: str
    pass_small_win: float = 0.0
    """Chance to pass a small win on a discard while the wall is long (过手胡 follows)."""
    chase_flush: float = 0.0
    """Chance, per round, to chase 清一色 when one suit dominates the hand."""
    chase_pairs: float = 0.0
    """Chance, per round, to chase 七对 when the hand holds many pairs."""
    peng_even: float = 0.0
    """Chance to peng even when it does not bring the hand closer (对对胡 lovers)."""
    kong: bool = True
    """Declare kongs that do not hurt the hand."""
    keep_void: float = 0.0
    """Chance, per round, to hold on to void-suit tiles (as safe discards) until the hand
    is nearly ready: such a player can end a drawn round as a flower pig (花猪)."""


#: the styles a seat can get; the match seed picks one per seat
STYLES: tuple[Style, ...] = (
    Style("steady"),
    Style("greedy", pass_small_win=0.6, chase_flush=0.7, chase_pairs=0.3),
    Style("pairs", chase_pairs=0.9, pass_small_win=0.2),
    Style("pungs", peng_even=0.8, chase_flush=0.3),
    Style("cautious", kong=False, chase_flush=0.2),
    Style("sloppy", keep_void=0.7, pass_small_win=0.3),
)

#: points (base 1) at or below which a greedy bot may pass a win on a discard
SMALL_WIN_POINTS = 2
#: tiles that must remain in the wall for a bot to pass a small win
PASS_WIN_MIN_WALL = 12


class Bot:
    """One seat's policy. ``chaos`` is the share of decisions made at random."""

    def __init__(self, seat: int, style: Style, rng: random.Random, chaos: float = 0.0) -> None:
        self.seat = seat
        self.style = style
        self.rng = rng
        self.chaos = chaos
        self.target: str | None = None
        """This round's chase: ``flush:<suit>``, ``pairs`` or None."""
        self.keep_void = False
        """This round: keep void-suit tiles until the hand is nearly ready."""

    def _random(self) -> bool:
        return self.chaos > 0 and self.rng.random() < self.chaos

    # -- before play ---------------------------------------------------------------

    def choose_exchange(self, hand: Sequence[int]) -> tuple[Tile, Tile, Tile]:
        """换三张: three tiles of one suit, from the weakest suit that has three."""
        suits = [s for s in range(3) if sum(hand[s * 9:s * 9 + 9]) >= 3]
        if self._random():
            suit = self.rng.choice(suits)
            tiles = [TILES[k] for k in range(suit * 9, suit * 9 + 9) for _ in range(hand[k])]
            picked = self.rng.sample(tiles, 3)
            return picked[0], picked[1], picked[2]
        suit = min(suits, key=lambda s: (sum(hand[s * 9:s * 9 + 9]), _usefulness(hand, s), s))
        chosen: list[Tile] = []
        counts = list(hand)
        for _ in range(3):
            kinds = [k for k in range(suit * 9, suit * 9 + 9) if counts[k]]
            worst = min(kinds, key=lambda k: (_connection(counts, k), k))
            counts[worst] -= 1
            chosen.append(TILES[worst])
        return chosen[0], chosen[1], chosen[2]

    def choose_void(self, hand: Sequence[int]) -> int:
        """定缺: the suit with the fewest useful tiles."""
        if self._random():
            return self.rng.randrange(3)
        return min(range(3), key=lambda s: (sum(hand[s * 9:s * 9 + 9]), _usefulness(hand, s), s))

    def start_round(self, hand: Sequence[int], void: int) -> None:
        """Pick this round's chase, if any, once the void suit is known."""
        self.target = None
        self.keep_void = self.rng.random() < self.style.keep_void
        sizes = [0 if s == void else sum(hand[s * 9:s * 9 + 9]) for s in range(3)]
        pairs = sum(n // 2 for k, n in enumerate(hand) if k // 9 != void)
        roll = self.rng.random()
        if max(sizes) >= 9 and roll < self.style.chase_flush:
            self.target = f"flush:{sizes.index(max(sizes))}"
        elif pairs >= 4 and roll < self.style.chase_pairs:
            self.target = "pairs"

    # -- own turn ------------------------------------------------------------------

    def turn(self, table: Table) -> Action:
        """The action on our own turn (holding 14 − 3·melds tiles): win, kong or discard."""
        seat = self.seat
        legal = table.legal_actions(seat)
        wins = [a for a in legal if isinstance(a, Hu)]
        if wins and (table.must_win == seat or not self._random()):
            return wins[0]
        kong = self._kong(table, [a for a in legal if isinstance(a, Gang)])
        if kong is not None:
            return kong
        held = [a.tile for a in legal if isinstance(a, Discard)]
        return Discard(seat, self._discard(table, table.hands[seat], held))

    def _kong(self, table: Table, legal: list[Gang]) -> Gang | None:
        seat, hand, void = self.seat, table.hands[self.seat], table.voids[self.seat]
        # policy: never kong a void-suit tile (it must go)
        options = [g for g in legal if g.kind is KongKind.ADDED or g.tile // 9 != void]
        if not options:
            return None
        if self._random():
            return self.rng.choice([*options, None])
        if not self.style.kong or self.target == "pairs":
            return None
        best = self._best_discard_distance(table, hand)
        n_melds = len(table.melds[seat])
        for g in options:
            counts = list(hand)
            counts[g.tile] -= 1 if g.kind is KongKind.ADDED else 4
            melds = n_melds + (0 if g.kind is KongKind.ADDED else 1)
            if self._distance(counts, melds, void) <= best:
                return g
        return None

    def _discard(self, table: Table, hand: list[int], legal: list[Tile]) -> Tile:
        """The tile to discard among ``legal`` (the table applies void_first)."""
        void = table.voids[self.seat]
        held: list[int] = list(legal)
        void_tiles = [k for k in held if k // 9 == void]
        if self._random():
            return TILES[self.rng.choice(held)]
        n_melds = len(table.melds[self.seat])
        if void_tiles and self.keep_void and len(void_tiles) < len(held) and \
                self._distance(hand, n_melds, void) > 1:
            held = [k for k in held if k // 9 != void]
        elif void_tiles:
            # the least connected void tile first: a pair of it might still be pengable
            return TILES[min(void_tiles, key=lambda k: (_connection(hand, k), k))]
        unseen = _unseen(table, self.seat)
        scored: list[tuple[int, int, int]] = []
        counts = list(hand)
        for k in held:
            counts[k] -= 1
            scored.append((self._distance(counts, n_melds, void), k, 0))
            counts[k] += 1
        low = min(d for d, _, _ in scored)
        ties = [k for d, k, _ in scored if d == low]
        if len(ties) == 1:
            return TILES[ties[0]]
        best = max(ties, key=lambda k: (self._useful(hand, k, n_melds, void, low, unseen),
                                        -_connection(hand, k), _edge(k), -k))
        return TILES[best]

    def _useful(self, hand: list[int], drop: int, n_melds: int, void: int | None,
                distance: int, unseen: list[int]) -> int:
        """有效牌: unseen tiles that would lower the distance after discarding ``drop``."""
        counts = list(hand)
        counts[drop] -= 1
        target = self.target
        if target == "pairs" and n_melds == 0:
            pairs = sum(n // 2 for k, n in enumerate(counts) if k // 9 != void)
            return sum(unseen[k] for k in range(NUM_KINDS)
                       if counts[k] % 2 and k // 9 != void and pairs < 7)
        if target is not None and target.startswith("flush:"):
            suits: tuple[int, ...] = (int(target[-1]),)
            distance -= sum(counts) - sum(counts[suits[0] * 9:suits[0] * 9 + 9])
        else:
            suits = tuple(s for s in range(3) if s != void)
        keys = {s: bytes(counts[s * 9:s * 9 + 9]) for s in suits}
        base = {s: _readings(keys[s]) for s in suits}
        pairs = sum(n // 2 for s in suits for n in keys[s])
        groups = 4 - n_melds
        total = 0
        for k in _candidates(counts, suits):
            if not unseen[k] or counts[k] >= 4:
                continue
            suit = k // 9
            changed = bytearray(keys[suit])
            changed[k % 9] += 1
            readings = [base[s] if s != suit else _readings(bytes(changed)) for s in suits]
            value = 2 * groups - _best(readings, groups)
            if n_melds == 0:
                value = min(value, 6 - min(pairs + counts[k] % 2, 7))
            if value < distance:
                total += unseen[k]
        return total

    def _best_discard_distance(self, table: Table, hand: list[int]) -> int:
        void, n_melds = table.voids[self.seat], len(table.melds[self.seat])
        counts = list(hand)
        best = 99
        for k in range(NUM_KINDS):
            if counts[k]:
                counts[k] -= 1
                best = min(best, self._distance(counts, n_melds, void))
                counts[k] += 1
        return best

    def _distance(self, counts: list[int], n_melds: int, void: int | None) -> int:
        """向听 to this bot's goal: any win, or the chased 清一色 / 七对."""
        target = self.target
        if target is not None and target.startswith("flush:"):
            keep = int(target[-1])
            off = sum(counts) - sum(counts[keep * 9:keep * 9 + 9])
            return distance(counts, n_melds, (keep,)) + off
        if target == "pairs" and n_melds == 0:
            pairs = sum(n // 2 for k, n in enumerate(counts) if k // 9 != void)
            return 6 - min(pairs, 7)
        return distance(counts, n_melds, tuple(s for s in range(3) if s != void))

    # -- other players' discards -----------------------------------------------------

    def wants_win(self, table: Table, points: int, forced: bool) -> bool:
        """Take a win on a discard (or a robbed kong)? ``forced``: the table offers no
        pass (the last-four rule)."""
        if forced:
            return True
        if self._random():
            return self.rng.random() < 0.5
        if (points <= SMALL_WIN_POINTS and table.wall_left >= PASS_WIN_MIN_WALL
                and self.rng.random() < self.style.pass_small_win):
            return False
        return not (self.target is not None and self.target.startswith("flush:")
                    and table.wall_left >= PASS_WIN_MIN_WALL and points <= SMALL_WIN_POINTS
                    and self.rng.random() < 0.5)

    def claim(self, table: Table, tile: Tile, options: Sequence[Peng | Gang]) -> Peng | Gang | None:
        """The peng or direct kong to make on another player's discard ``tile``, among the
        legal ``options``, or None."""
        if not options:
            return None
        seat, hand, void = self.seat, table.hands[self.seat], table.voids[self.seat]
        peng = next((a for a in options if isinstance(a, Peng)), None)
        gang = next((a for a in options if isinstance(a, Gang)), None)
        if tile // 9 == void and not self._random():
            return None
        if self._random():
            return self.rng.choice([peng, None] + ([gang] if gang is not None else []))
        if self.target == "pairs" and not len(table.melds[seat]):
            return None
        n_melds = len(table.melds[seat])
        counts = list(hand)
        now = self._distance(counts, n_melds, void)
        if gang is not None and self.style.kong:
            counts[tile] -= 3
            if self._distance(counts, n_melds + 1, void) <= now:
                return gang
            counts[tile] += 3
        counts[tile] -= 2
        after = 99
        for k in range(NUM_KINDS):
            if counts[k]:
                counts[k] -= 1
                after = min(after, self._distance(counts, n_melds + 1, void))
                counts[k] += 1
        if after < now or (after == now and self.rng.random() < self.style.peng_even):
            return peng
        return None


# -- tile heuristics -----------------------------------------------------------------


def _connection(counts: Sequence[int], k: int) -> int:
    """How well tile ``k`` connects with the rest of its suit (copies count most)."""
    rank, base = k % 9, k - k % 9
    score = 3 * (counts[k] - 1)
    for d, w in ((1, 2), (2, 1)):
        if rank - d >= 0:
            score += w * min(counts[base + rank - d], 1)
        if rank + d <= 8:
            score += w * min(counts[base + rank + d], 1)
    return score


def _usefulness(counts: Sequence[int], suit: int) -> int:
    return sum(_connection(counts, k) for k in range(suit * 9, suit * 9 + 9) if counts[k])


def _edge(k: int) -> int:
    """Prefer discarding terminals: 1 and 9 connect to fewer tiles."""
    return abs(k % 9 - 4)


def _candidates(counts: Sequence[int], suits: tuple[int, ...]) -> list[int]:
    """Kinds that could improve the hand: within two ranks of a held tile of ``suits``."""
    out: list[int] = []
    for s in suits:
        held = 0
        for r in range(9):
            if counts[s * 9 + r]:
                held |= 1 << r
        near = (held | held << 1 | held << 2 | held >> 1 | held >> 2) & 511
        out.extend(s * 9 + r for r in range(9) if near >> r & 1)
    return out


def _unseen(table: Table, seat: int) -> list[int]:
    """Copies of each kind that ``seat`` has not seen (its hand, rivers, melds, won hands)."""
    seen = list(table.hands[seat])
    for s in range(4):
        for t in table.discards[s]:
            seen[t] += 1
        for m in table.melds[s]:
            seen[m.tile] += m.size
        if s != seat and table.won[s]:
            for k, n in enumerate(table.hands[s]):
                seen[k] += n
    return [max(4 - n, 0) for n in seen]


# -- 向听 (shanten), fast and cached ---------------------------------------------------

#: one suit's 9 counts (as bytes) -> its Pareto-best (sets, partial sets, pair) readings
_SUIT_READINGS: dict[bytes, tuple[tuple[int, int, int], ...]] = {bytes(9): ((0, 0, 0),)}
_DISTANCES: dict[tuple[bytes, int, tuple[int, ...]], int] = {}
_BEST: dict[tuple[object, ...], int] = {}


def _readings(key: bytes) -> tuple[tuple[int, int, int], ...]:
    found = _SUIT_READINGS.get(key)
    if found is not None:
        return found
    c = bytearray(key)
    i = next(r for r in range(9) if c[r])
    cands: set[tuple[int, int, int]] = set()

    def take(removed: Sequence[int], ds: int, dp: int, dh: int) -> None:
        sub = bytearray(c)
        for r in removed:
            sub[r] -= 1
        for s, p, h in _readings(bytes(sub)):
            if h + dh <= 1:
                cands.add((s + ds, p + dp, h + dh))

    take((i,), 0, 0, 0)  # the lowest tile stays single
    if c[i] >= 2:
        take((i, i), 0, 1, 0)
        take((i, i), 0, 0, 1)
    if c[i] >= 3:
        take((i, i, i), 1, 0, 0)
    if i <= 7 and c[i + 1]:
        take((i, i + 1), 0, 1, 0)
        if i <= 6 and c[i + 2]:
            take((i, i + 1, i + 2), 1, 0, 0)
    if i <= 6 and c[i + 2]:
        take((i, i + 2), 0, 1, 0)
    # a reading that dominates another sorts before it, so one pass keeps the Pareto set
    kept: list[tuple[int, int, int]] = []
    for x in sorted(cands, reverse=True):
        if not any(o[0] >= x[0] and o[1] >= x[1] and o[2] >= x[2] for o in kept):
            kept.append(x)
    best = tuple(sorted(kept))
    _SUIT_READINGS[key] = best
    return best


def _best(readings: Sequence[tuple[tuple[int, int, int], ...]], groups: int) -> int:
    """The best 2·sets + partial sets + pair over one reading of each suit."""
    cache_key = (*readings, groups)
    found = _BEST.get(cache_key)
    if found is not None:
        return found
    best = 0
    if len(readings) == 1:
        combos: Iterable[tuple[int, int, int]] = readings[0]
    elif len(readings) == 2:
        combos = [(s1 + s2, p1 + p2, h1 + h2) for s1, p1, h1 in readings[0]
                  for s2, p2, h2 in readings[1] if h1 + h2 <= 1]
    else:
        combos = [(0, 0, 0)]
        for r in readings:
            combos = [(s + s2, p + p2, h + h2) for s, p, h in combos for s2, p2, h2 in r
                      if h + h2 <= 1]
    for s, p, h in combos:
        sets = s if s < groups else groups
        partial = p if p < groups - sets else groups - sets
        value = 2 * sets + partial + h
        if value > best:
            best = value
    if len(_BEST) > 500_000:
        _BEST.clear()
    _BEST[cache_key] = best
    return best


def distance(counts: Sequence[int], melds: int, suits: tuple[int, ...]) -> int:
    """向听 of the tiles of ``suits`` in ``counts`` (−1 complete, 0 ready): sets and a pair,
    or, with no melds, seven pairs. Tiles of other suits are dead weight.

    >>> from xuezhan.tiles import counts_of, parse_tiles
    >>> distance(counts_of(parse_tiles("123m456m789m234p55p")), 0, (0, 1))
    -1
    >>> distance(counts_of(parse_tiles("123m456m789m234p5p1s")), 0, (0, 1))
    0
    """
    keys = [bytes(counts[s * 9:s * 9 + 9]) for s in suits]
    cache_key = (b"".join(keys), melds, suits)
    found = _DISTANCES.get(cache_key)
    if found is not None:
        return found
    groups = 4 - melds
    result = 2 * groups - _best([_readings(key) for key in keys], groups)
    if melds == 0:
        pairs = sum(n // 2 for key in keys for n in key)
        result = min(result, 6 - min(pairs, 7))
    if len(_DISTANCES) > 500_000:
        _DISTANCES.clear()
    _DISTANCES[cache_key] = result
    return result
