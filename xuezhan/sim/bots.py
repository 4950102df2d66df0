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
- Discard: void-suit tiles first; then whatever leaves the lowest 向听
  (:func:`xuezhan.shanten.shanten`, a void-suit tile held counting as one to lose), ties
  broken by the number of unseen tiles that would lower it (有效牌, ``ukeire``); a bot
  chasing 清一色 or 七对 measures the distance to that shape instead.
- Claims: peng or kong when it does not lengthen the road to a win; always win,
  except that a greedy bot sometimes passes a small win on a discard (过手胡 then binds
  it), and never when the last-four rule forces the win.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from xuezhan.actions import Action, Discard, Gang, Hu, Peng
from xuezhan.hand import KongKind
from xuezhan.shanten import shanten, ukeire
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
        visible = _visible(table, self.seat)
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
        best = max(ties, key=lambda k: (self._useful(hand, k, n_melds, void, visible),
                                        -_connection(hand, k), _edge(k), -k))
        return TILES[best]

    def _useful(self, hand: list[int], drop: int, n_melds: int, void: int | None,
                visible: Sequence[int]) -> int:
        """有效牌: unseen tiles that would lower the distance after discarding ``drop``
        (``visible``: the tiles seen outside this hand; the discard joins them)."""
        counts = list(hand)
        counts[drop] -= 1
        seen = list(visible)
        seen[drop] += 1
        target = self.target
        if target == "pairs" and n_melds == 0:
            pairs = sum(n // 2 for k, n in enumerate(counts) if k // 9 != void)
            return sum(max(4 - counts[k] - seen[k], 0) for k in range(NUM_KINDS)
                       if counts[k] % 2 and k // 9 != void and pairs < 7)
        if target is not None and target.startswith("flush:"):
            suit = int(target[-1])
            base = self._distance(counts, n_melds, void)
            total = 0
            for k in range(suit * 9, suit * 9 + 9):
                unseen = max(4 - counts[k] - seen[k], 0)
                counts[k] += 1
                if unseen and self._distance(counts, n_melds, void) < base:
                    total += unseen
                counts[k] -= 1
            return total
        return sum(n for _, n in ukeire(counts, n_melds, void, seen))

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
            keep = int(target[-1]) * 9
            return shanten([0] * keep + counts[keep:keep + 9] + [0] * (18 - keep), n_melds)
        if target == "pairs" and n_melds == 0:
            pairs = sum(n // 2 for k, n in enumerate(counts) if k // 9 != void)
            return 6 - min(pairs, 7)
        return shanten(counts, n_melds, void)

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


def _visible(table: Table, seat: int) -> list[int]:
    """Copies of each kind that ``seat`` sees outside its own hand: rivers, every meld,
    the hands of players who have won."""
    seen = [0] * NUM_KINDS
    for s in range(4):
        for t in table.discards[s]:
            seen[t] += 1
        for m in table.melds[s]:
            seen[m.tile] += m.size
        if s != seat and table.won[s]:
            for k, n in enumerate(table.hands[s]):
                seen[k] += n
    return seen
