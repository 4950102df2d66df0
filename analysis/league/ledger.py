"""Who owes whom: balances, the fewest transfers that settle them, and money per point.

Plain Python, no Django: the ledger views feed it player ids and point balances.

The fewest transfers. Settling ``n`` non-zero balances (summing to zero) takes at least
``n - g`` transfers, where ``g`` is the largest number of groups the balances can be split
into such that every group sums to zero: a group of ``k`` players settles among itself with
``k - 1`` transfers and no fewer (every transfer zeroes at most one more balance, the last
one two), and any settlement's transfers, seen as a graph, split the players into such
groups. So the problem is the partition, which is NP-hard in general; for up to
``EXACT_LIMIT`` non-zero balances it is solved exactly (see :func:`_max_zero_groups`).

Above that the ledger falls back to a greedy bound, documented here because a club can
check it: first every pair of opposite balances (+x, -x) settles with one transfer (that
never loses optimality: some best partition has the pair as a group), then the largest
debtor repeatedly pays the largest creditor. Each greedy transfer zeroes at least one
balance and the last zeroes two, so it never takes more than ``n - 1`` transfers.

Points are whole numbers and exact. Money is ``points × point value``, a Decimal, rounded
to the cent once, at the very end, and every rounded amount keeps its exact value beside it
so a page can show the rounding.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal

#: the largest number of non-zero balances settled with the exact minimum of transfers
EXACT_LIMIT = 20
CENT = Decimal("0.01")


@dataclass(frozen=True)
class Transfer:
    """``payer`` pays ``payee`` ``points`` (always > 0)."""

    payer: int
    payee: int
    points: int


@dataclass(frozen=True)
class Money:
    """An amount of money: exact (points × value), rounded to the quantum, and the difference."""

    exact: Decimal
    rounded: Decimal

    @property
    def rounding(self) -> Decimal:
        return self.rounded - self.exact


class UnbalancedLedger(ValueError):
    """The balances do not sum to zero: some payment is missing its other side."""


def balances(deltas: Iterable[tuple[int, int]]) -> dict[int, int]:
    """Each player's net from ``(player, delta)`` pairs; players at zero are kept."""
    totals: dict[int, int] = {}
    for player, delta in deltas:
        totals[player] = totals.get(player, 0) + delta
    return totals


def to_money(points: int, point_value: Decimal, quantum: Decimal = CENT) -> Money:
    """``points × point_value``, rounded half-to-even to ``quantum`` (banker's rounding:
    no bias towards payers or payees over many lines)."""
    exact = point_value * points
    return Money(exact=exact, rounded=exact.quantize(quantum, rounding=ROUND_HALF_EVEN))


def fewest_transfers(balance: Mapping[int, int], exact_limit: int = EXACT_LIMIT) -> list[Transfer]:
    """Transfers that bring every balance to zero: the fewest possible for up to
    ``exact_limit`` non-zero balances, the greedy bound above (module docstring).

    Deterministic: the same balances give the same transfers, in payer-then-payee order.

    :raises UnbalancedLedger: if the balances do not sum to zero.
    """
    if sum(balance.values()) != 0:
        raise UnbalancedLedger(f"balances sum to {sum(balance.values())}, not 0")
    rest = {player: amount for player, amount in sorted(balance.items()) if amount != 0}
    transfers = _opposite_pairs(rest)
    players = sorted(rest)
    if len(players) <= exact_limit:
        amounts = [rest[p] for p in players]
        for group in _max_zero_groups(amounts):
            transfers.extend(_settle_group({players[i]: amounts[i] for i in group}))
    else:
        transfers.extend(_settle_group(rest))
    return sorted(transfers, key=lambda t: (t.payer, t.payee))


def _opposite_pairs(rest: dict[int, int]) -> list[Transfer]:
    """Settle and remove every (+x, -x) pair: one transfer each, never worse than optimal."""
    transfers = []
    creditors: dict[int, list[int]] = {}
    for player, amount in rest.items():
        if amount > 0:
            creditors.setdefault(amount, []).append(player)
    for player, amount in list(rest.items()):
        waiting = creditors.get(-amount)
        if amount < 0 and waiting:
            payee = waiting.pop(0)
            transfers.append(Transfer(payer=player, payee=payee, points=-amount))
            del rest[player], rest[payee]
    return transfers


def _settle_group(group: Mapping[int, int]) -> list[Transfer]:
    """The largest debtor pays the largest creditor until all are square: at most
    ``len(group) - 1`` transfers, exactly that for a group with no zero-sum subgroup."""
    debt = {p: -a for p, a in group.items() if a < 0}
    credit = {p: a for p, a in group.items() if a > 0}
    transfers = []
    while debt:
        payer = max(debt, key=lambda p: (debt[p], -p))
        payee = max(credit, key=lambda p: (credit[p], -p))
        points = min(debt[payer], credit[payee])
        transfers.append(Transfer(payer=payer, payee=payee, points=points))
        for book, player in ((debt, payer), (credit, payee)):
            book[player] -= points
            if book[player] == 0:
                del book[player]
    return transfers


def _max_zero_groups(amounts: list[int]) -> list[list[int]]:
    """Split indexes of ``amounts`` (non-zero, summing to zero) into the most zero-sum groups.

    Over subsets ``m`` of the players, let ``best(m)`` be the most zero-sum masks on a chain
    ``{} ⊂ … ⊂ m`` that adds one player at a time; ``best(all)`` is the answer, and the
    zero-sum masks on a best chain cut it into the groups. ``best(m) >= k`` exactly when
    some zero-sum ``z ⊆ m`` has ``best(z - {i}) >= k - 1`` for some ``i`` in ``z``, so the
    layers ``{m : best(m) >= k}`` are built one from the other. Each layer is a set of
    ``2**n`` masks held as the bits of one Python int, and "one more player" and "any
    superset" are ``n`` shift-and-or steps over it: 20 players take well under a second,
    where a loop over the ``n · 2**n`` (mask, player) pairs takes many.
    """
    n = len(amounts)
    if n == 0:
        return []
    size = 1 << n
    without = [_masks_without(i, size) for i in range(n)]  # masks not holding player i
    zero = _zero_sum_masks(amounts) & ~1  # the empty set is no group
    layers = [(1 << size) - 1]  # best(m) >= 0 for every m
    while True:
        prev = layers[-1]
        grown = 0
        for i in range(n):
            grown |= (prev & without[i]) << (1 << i)
        layer = grown & zero
        if not layer:
            break
        for i in range(n):
            layer |= (layer & without[i]) << (1 << i)
        layers.append(layer)
    return _groups_on_best_chain(amounts, layers)


def _groups_on_best_chain(amounts: list[int], layers: list[int]) -> list[list[int]]:
    """Walk down from all players along a best chain, cutting at its zero-sum masks."""
    mask = (1 << len(amounts)) - 1
    k = len(layers) - 1
    cuts = []
    while k > 0:
        is_zero = sum(amounts[i] for i in range(len(amounts)) if mask >> i & 1) == 0
        want = k - 1 if is_zero else k
        drop = next(
            i for i in range(len(amounts)) if mask >> i & 1 and layers[want] >> (mask ^ 1 << i) & 1
        )
        if is_zero:
            cuts.append(mask)
        mask ^= 1 << drop
        k = want
    groups = []
    for outer, inner in zip(cuts, [*cuts[1:], 0], strict=True):
        diff = outer & ~inner
        groups.append([i for i in range(len(amounts)) if diff >> i & 1])
    return groups


def _masks_without(i: int, size: int) -> int:
    """The set of masks (as bits of an int) that do not hold bit ``i``."""
    run = 1 << i
    return int(("0" * run + "1" * run) * (size // (2 * run)), 2)


def _zero_sum_masks(amounts: list[int]) -> int:
    """The set of masks whose amounts sum to zero (bit ``m`` set when mask ``m`` does)."""
    sums = [0]
    for amount in amounts:
        sums += [s + amount for s in sums]
    return int("".join("1" if s == 0 else "0" for s in reversed(sums)), 2)
