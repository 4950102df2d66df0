"""Table seating for a club night: who sits at which table, in which seat, each round.

Pure computation (no Django): ``seat(players, rounds, seed)`` seats N players (4 ≤ N ≤ 64)
for R rounds of 4-player tables and reports the seating's quality. In order of priority:

1. **Everyone present plays or sits out, once a round.** With N not a multiple of 4,
   ``N mod 4`` players sit out each round, in the order of one seeded shuffle of the players
   taken round after round: nobody sits out a second time before everyone has sat out once
   (a k-th time before everyone has sat out k − 1 times), so sit-outs differ by at most one.
2. **As few pairs as possible meet again.** ``repeated_pairs`` counts, over all pairs of
   players, their meetings beyond the first (a pair at the same table in three rounds adds
   2). It is reported with ``lower_bound``, a number no seating of N and R can beat
   (:func:`lower_bound`; docs/league.md explains it). Four players at one table meet every
   round; 16 players can play 5 rounds with nobody meeting twice, and 64 players 21.
3. **Seats balanced.** Each table lists its four players by wind: East (who deals first),
   South, West, North, in turn order (seat 0–3 of the log format). Every player has each
   wind ``g // 4`` or ``g // 4 + 1`` times in ``g`` rounds (an equitable edge colouring,
   :func:`_balance_winds`); ``seat_spread``, the largest difference over players between
   their most and least frequent wind, is therefore at most 1.

Deterministic: the same players (in any order), rounds and seed give the same seating.
How it searches (docs/league.md, "Seating"): for 16 and 64 players the affine plane and
space over GF(4) give seatings without a repeated pair for up to 5 and 21 rounds; otherwise
a greedy start, round by round (each table filled with the players who met its members
least), then a tabu search that swaps two players of one round between tables, aimed at a
pair that meets again, within a fixed budget of evaluated moves (so the time is bounded
and the result does not depend on the machine). It stops as soon as it reaches the bound.
The sit-outs are fixed first and the search never moves them, so their spread holds.

>>> s = seat(range(1, 17), rounds=5, seed=7)
>>> s.repeated_pairs, s.lower_bound, len(s.rounds), len(s.rounds[0])
(0, 0, 5, 4)
>>> s = seat([1, 2, 3, 4, 5], rounds=5)
>>> sorted(p for out in s.sitting_out for p in out)
[1, 2, 3, 4, 5]
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

MIN_PLAYERS = 4
MAX_PLAYERS = 64
MAX_ROUNDS = 24
TABLE = 4
#: the winds of a table's seats, in turn order (seat 0 deals the first hand)
WINDS = ("east", "south", "west", "north")
#: evaluated swaps the search may spend on one seating (about 0.3 s of CPU at most)
BUDGET = 120_000

Table = tuple[int, int, int, int]


class SeatingError(ValueError):
    """Players or rounds outside what a seating can be made for."""


@dataclass(frozen=True)
class Seating:
    """A night's seating: per round, each table's four players by seat (east first)."""

    rounds: tuple[tuple[Table, ...], ...]
    sitting_out: tuple[tuple[int, ...], ...]
    repeated_pairs: int
    lower_bound: int
    seat_spread: int
    seed: int

    def to_json(self) -> dict[str, object]:
        return {
            "rounds": [[list(t) for t in tables] for tables in self.rounds],
            "sitting_out": [list(out) for out in self.sitting_out],
            "repeated_pairs": self.repeated_pairs,
            "lower_bound": self.lower_bound,
            "seat_spread": self.seat_spread,
            "seed": self.seed,
        }


def seat(players: Iterable[int], rounds: int, seed: int = 0) -> Seating:
    """Seat ``players`` (distinct ids) for ``rounds`` rounds of 4-player tables.

    :raises SeatingError: for a repeated player, fewer than 4 or more than 64 players, or
        rounds outside 1–24.
    """
    given = list(players)
    ids = sorted(set(given))
    if len(ids) != len(given):
        raise SeatingError("a player is listed twice")
    if not MIN_PLAYERS <= len(ids) <= MAX_PLAYERS:
        raise SeatingError(f"{MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(ids)}")
    if not 1 <= rounds <= MAX_ROUNDS:
        raise SeatingError(f"1 to {MAX_ROUNDS} rounds, not {rounds}")
    n = len(ids)
    rng = random.Random(f"xuezhan-seating/{n}/{rounds}/{seed}")
    order = list(range(n))
    rng.shuffle(order)  # who sits out first, and the names the constructions give out
    out = _sit_outs(order, rounds, n % TABLE)
    bound = lower_bound(n, rounds)
    tables = _affine(n, rounds, order) if bound == 0 else None
    if tables is None:
        tables = _Search(n, out, rng).run(bound)
    seated = _balance_winds(n, tables)
    return Seating(
        rounds=tuple(tuple(tuple(ids[p] for p in t) for t in r) for r in seated),  # type: ignore[misc]
        sitting_out=tuple(tuple(sorted(ids[p] for p in o)) for o in out),
        repeated_pairs=repeated_pairs(seated),
        lower_bound=bound,
        seat_spread=seat_spread(seated),
        seed=seed,
    )


# -- what a seating is judged by ----------------------------------------------------------


def sit_out_counts(n: int, rounds: int) -> list[int]:
    """How often each of ``n`` players sits out over ``rounds`` (most first): spread evenly,
    ``n mod 4`` a round."""
    total = (n % TABLE) * rounds
    return [total // n + (1 if i < total % n else 0) for i in range(n)]


def lower_bound(n: int, rounds: int) -> int:
    """The fewest repeated pairs any seating of ``n`` players for ``rounds`` rounds can have:
    the larger of two counts (docs/league.md, "Seating", gives the reasoning).

    *By player*: a player who plays ``g`` rounds meets ``3g`` opponents, counted with
    repetition, among only ``n − 1`` others, so at least ``3g − (n − 1)`` of those meetings
    repeat; each repeated meeting is so counted by both its players. How many rounds each
    plays is fixed by the even spread of sit-outs (:func:`sit_out_counts`).

    *By pairs of rounds* (fewer than four tables): the ``4T − s`` players of any two rounds
    who play in both fall into ``T × T`` (table, table) cells; at best evenly, and each cell
    of ``k`` players is ``k(k − 1)/2`` pairs meeting in both rounds. A pair meeting ``m`` times
    is counted ``m(m − 1)/2`` times over pairs of rounds but repeats only ``m − 1`` times, at
    most ``rounds / 2`` times fewer.

    >>> lower_bound(16, 5), lower_bound(16, 6), lower_bound(4, 3), lower_bound(12, 3)
    (0, 24, 12, 6)
    """
    excess = sum(max(0, 3 * (rounds - out) - (n - 1)) for out in sit_out_counts(n, rounds))
    by_player = (excess + 1) // 2
    tables, cells = n // TABLE, (n // TABLE) ** 2
    both = max(0, TABLE * tables - n % TABLE)  # players of one round also in another, at least
    each, more = divmod(both, cells)
    twice = more * (each + 1) * each // 2 + (cells - more) * each * (each - 1) // 2
    pairs_of_rounds = rounds * (rounds - 1) // 2 * twice
    by_rounds = -(-2 * pairs_of_rounds // rounds)  # ceiling
    return max(by_player, by_rounds)


def meetings(tables: Sequence[Sequence[Sequence[int]]]) -> dict[tuple[int, int], int]:
    """How often each pair (smaller id first) sat at one table."""
    met: dict[tuple[int, int], int] = {}
    for round_ in tables:
        for table in round_:
            for a, b in itertools.combinations(sorted(table), 2):
                met[a, b] = met.get((a, b), 0) + 1
    return met


def repeated_pairs(tables: Sequence[Sequence[Sequence[int]]]) -> int:
    """Over all pairs, the meetings beyond each pair's first."""
    return sum(times - 1 for times in meetings(tables).values())


def seat_spread(tables: Sequence[Sequence[Sequence[int]]]) -> int:
    """The largest difference, over players, between their most and least frequent wind."""
    winds: dict[int, list[int]] = {}
    for round_ in tables:
        for table in round_:
            for wind, player in enumerate(table):
                winds.setdefault(player, [0] * TABLE)[wind] += 1
    return max((max(w) - min(w) for w in winds.values()), default=0)


# -- sit-outs ------------------------------------------------------------------------------


def _sit_outs(order: list[int], rounds: int, per_round: int) -> list[list[int]]:
    """``per_round`` players a round, taken from ``order`` over and over: each player's
    k-th sit-out comes after everyone's (k − 1)-th."""
    n = len(order)
    return [[order[(r * per_round + j) % n] for j in range(per_round)] for r in range(rounds)]


# -- seatings without a repeated pair, from finite geometry -------------------------------

# GF(4) = {0, 1, ω, ω²} as 0–3: addition is XOR, multiplication by this table
_GF4_MUL = ((0, 0, 0, 0), (0, 1, 2, 3), (0, 2, 3, 1), (0, 3, 1, 2))


def _affine(n: int, rounds: int, order: list[int]) -> list[list[list[int]]] | None:
    """For 16 (64) players: the parallel classes of lines of the affine plane (space) over
    GF(4), one class a round. Two points share exactly one line, and the lines of a class
    cover every point once, so no pair meets twice in up to 5 (21) rounds. None otherwise."""
    dims = {16: 2, 64: 3}.get(n)
    if dims is None or rounds > (n - 1) // 3:
        return None

    def scaled(t: int, d: int) -> int:  # t · d, coordinate by coordinate (2 bits each)
        return sum(_GF4_MUL[t][(d >> 2 * i) & 3] << 2 * i for i in range(dims))

    # one direction per class: the vectors whose first non-zero coordinate is 1
    directions = [d for d in range(1, n) if (d >> 2 * ((d.bit_length() - 1) // 2)) & 3 == 1]
    plan = []
    for d in directions[:rounds]:
        line = [scaled(t, d) for t in range(4)]
        seen: set[int] = set()
        tables = []
        for x in range(n):
            if x not in seen:
                points = [x ^ p for p in line]
                seen.update(points)
                tables.append([order[p] for p in points])  # the shuffle names the points
        plan.append(tables)
    return plan


# -- the search ----------------------------------------------------------------------------


class _Search:
    """Tables for every round: a greedy start, then a tabu search on the repeated pairs."""

    def __init__(self, n: int, out: list[list[int]], rng: random.Random) -> None:
        self.n = n
        self.rng = rng
        self.rounds = len(out)
        self.playing = [[p for p in range(n) if p not in set(o)] for o in out]
        self.met = [0] * (n * n)  # met[a * n + b]: how often a and b sat together
        self.tables: list[list[list[int]]] = []
        self.where: list[list[int]] = []  # where[r][p]: p's table in round r (-1: out)

    def run(self, bound: int) -> list[list[list[int]]]:
        for playing in self.playing:
            self._add_round(self._greedy(playing))
        if self.playing[0] and len(self.playing[0]) > TABLE:  # one table: nothing to swap
            self._tabu(bound)
        return self.tables

    # bookkeeping
    def _add_round(self, tables: list[list[int]]) -> None:
        where = [-1] * self.n
        for t, table in enumerate(tables):
            for p in table:
                where[p] = t
            self._count(table, 1)
        self.tables.append(tables)
        self.where.append(where)

    def _count(self, table: list[int], step: int) -> None:
        met, n = self.met, self.n
        for a, b in itertools.combinations(table, 2):
            met[a * n + b] += step
            met[b * n + a] += step

    def repeated(self) -> int:
        n, met = self.n, self.met
        return sum(met[a * n + b] - 1 for a in range(n) for b in range(a + 1, n)
                   if met[a * n + b] > 1)

    # the start: each table filled with whoever met its members least so far
    def _greedy(self, playing: list[int]) -> list[list[int]]:
        n, met = self.n, self.met
        rest = list(playing)
        self.rng.shuffle(rest)
        tables = []
        while rest:
            table = [rest.pop()]
            for _ in range(TABLE - 1):
                best = min(range(len(rest)),
                           key=lambda i: sum(met[rest[i] * n + q] for q in table))
                table.append(rest.pop(best))
            tables.append(table)
        return tables

    # the search proper
    def _tabu(self, bound: int) -> None:
        """Swap two players of one round between tables, the best swap among those that
        move a player who meets a table-mate again, avoiding players moved in the last
        few steps (unless the swap beats the best yet); a few random swaps after 60 steps
        without a better seating. The best seating found is kept."""
        n, met, rng = self.n, self.met, self.rng
        current = self.repeated()
        best, best_tables = current, [[list(t) for t in r] for r in self.tables]
        tabu: dict[tuple[int, int], int] = {}  # (round, player) -> first step allowed
        spent, step, stale = 0, 0, 0
        while current > bound and spent < BUDGET:
            step += 1
            spent += self.rounds * len(self.tables[0])
            troubled = [r for r, tables in enumerate(self.tables) if any(
                met[a * n + b] > 1 for t in tables for a, b in itertools.combinations(t, 2))]
            r = troubled[rng.randrange(len(troubled))]
            tables, where = self.tables[r], self.where[r]
            moving = [a for t in tables for a in t if any(met[a * n + b] > 1 for b in t)]
            choice: tuple[tuple[int, float], int, int] | None = None
            for a in moving:
                ta = where[a]
                for b in self.playing[r]:
                    tb = where[b]
                    if tb == ta:
                        continue
                    spent += 1
                    delta = self._delta(a, tables[ta], b, tables[tb])
                    allowed = tabu.get((r, a), 0) <= step and tabu.get((r, b), 0) <= step
                    if not allowed and current + delta >= best:
                        continue
                    key = (delta, rng.random())
                    if choice is None or key < choice[0]:
                        choice = (key, a, b)
            if choice is None:
                continue
            (delta, _tie), a, b = choice
            self._swap(r, a, b)
            current += delta
            tabu[r, a] = tabu[r, b] = step + rng.randint(3, 10)
            if current < best:
                best, stale = current, 0
                best_tables = [[list(t) for t in rr] for rr in self.tables]
            else:
                stale += 1
                if stale > 60:  # a jolt: a few random swaps off the plateau
                    stale = 0
                    for _ in range(3):
                        current += self._random_swap()
        self.tables = best_tables

    def _delta(self, a: int, table_a: list[int], b: int, table_b: list[int]) -> int:
        """The change in repeated pairs if ``a`` and ``b`` change tables."""
        n, met = self.n, self.met
        delta = 0
        for x in table_a:
            if x != a:
                delta -= met[a * n + x] > 1
                delta += met[b * n + x] > 0
        for y in table_b:
            if y != b:
                delta -= met[b * n + y] > 1
                delta += met[a * n + y] > 0
        return delta

    def _swap(self, r: int, a: int, b: int) -> None:
        where, tables = self.where[r], self.tables[r]
        ta, tb = where[a], where[b]
        self._count(tables[ta], -1)
        self._count(tables[tb], -1)
        tables[ta][tables[ta].index(a)] = b
        tables[tb][tables[tb].index(b)] = a
        where[a], where[b] = tb, ta
        self._count(tables[ta], 1)
        self._count(tables[tb], 1)

    def _random_swap(self) -> int:
        r = self.rng.randrange(self.rounds)
        a, b = self.rng.sample(self.playing[r], 2)
        ta, tb = self.where[r][a], self.where[r][b]
        if ta == tb:
            return 0
        delta = self._delta(a, self.tables[r][ta], b, self.tables[r][tb])
        self._swap(r, a, b)
        return delta


# -- winds ---------------------------------------------------------------------------------


def _balance_winds(n: int, plan: list[list[list[int]]]) -> list[list[Table]]:
    """Each table's players in seat order, every player's winds as even as their rounds
    allow: each wind ``g // 4`` or ``g // 4 + 1`` times in ``g`` rounds (spread at most 1).

    The winds are a proper edge colouring, in four colours, of the bipartite graph whose
    edges join each table to its players: a table's four edges take the four winds. Each
    player is split into one vertex per four of their rounds (in order), so every vertex
    has at most four edges, and a bipartite graph of such degrees can always be coloured in
    four (König); a full block of four rounds then gives the player each wind once, and the
    last, shorter one, distinct winds. Edges are coloured one by one; when the wind free at
    the player is taken at the table, the two winds are swapped along the path that
    alternates them from the table (it cannot come back to the player: the graph is
    bipartite), which frees it.
    """
    tables_per_round = len(plan[0]) if plan else 0
    blocks = (MAX_ROUNDS + TABLE - 1) // TABLE
    first_table = n * blocks  # vertex numbers: player blocks first, then tables
    at = [[-1] * TABLE for _ in range(first_table + len(plan) * tables_per_round)]
    played = [0] * n
    for r, tables in enumerate(plan):
        for ti, table in enumerate(tables):
            v = first_table + r * tables_per_round + ti
            for p in table:
                u = p * blocks + played[p] // TABLE
                played[p] += 1
                _colour(at, u, v)
    seated = []
    for r, tables in enumerate(plan):
        row = []
        for ti in range(len(tables)):
            winds = at[first_table + r * tables_per_round + ti]
            players = [u // blocks for u in winds]
            row.append((players[0], players[1], players[2], players[3]))
        seated.append(sorted(row, key=min))
    return seated


def _colour(at: list[list[int]], u: int, v: int) -> None:
    """Colour the edge u–v (``at[x][c]``: the vertex joined to x by the edge of colour c)."""
    a = at[u].index(-1)  # free at u (u has fewer than four edges so far)
    if at[v][a] != -1:
        b = at[v].index(-1)
        path, x, c = [], v, a  # the a/b path from v: edges x–y of colour c
        while at[x][c] != -1:
            y = at[x][c]
            path.append((x, y, c))
            x, c = y, (b if c == a else a)
        for x, y, c in path:
            at[x][c] = at[y][c] = -1
        for x, y, c in path:
            d = b if c == a else a
            at[x][d], at[y][d] = y, x
    at[u][a], at[v][a] = v, u
