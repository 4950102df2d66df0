"""The ledger: balances, the fewest transfers that settle them, money rounded once."""

from __future__ import annotations

import time
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.league.ledger import (
    Transfer,
    UnbalancedLedger,
    balances,
    fewest_transfers,
    to_money,
)


@st.composite
def zero_sum_balances(draw: st.DrawFn, max_players: int = 8) -> dict[int, int]:
    """Balances as a ledger sees them: each round's deltas sum to zero, so do the totals."""
    n = draw(st.integers(min_value=0, max_value=max_players))
    if n == 0:
        return {}
    amounts = draw(st.lists(st.integers(-40, 40), min_size=n - 1, max_size=n - 1))
    amounts.append(-sum(amounts))
    ids = draw(st.lists(st.integers(1, 10_000), min_size=n, max_size=n, unique=True))
    return dict(zip(ids, amounts, strict=True))


def brute_force_minimum(amounts: list[int]) -> int:
    """Fewest transfers by trying every partition into zero-sum groups (n - most groups)."""
    nonzero = [a for a in amounts if a != 0]

    def most_groups(rest: list[int]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        best = -1
        for pick in range(1 << len(others)):
            group = [first] + [others[i] for i in range(len(others)) if pick >> i & 1]
            if sum(group) == 0:
                left = [others[i] for i in range(len(others)) if not pick >> i & 1]
                sub = most_groups(left)
                if sub >= 0:
                    best = max(best, 1 + sub)
        return best

    return len(nonzero) - most_groups(nonzero) if nonzero else 0


def settled(balance: dict[int, int], transfers: list[Transfer]) -> dict[int, int]:
    after = dict(balance)
    for t in transfers:
        after[t.payer] += t.points
        after[t.payee] -= t.points
    return after


def test_balances_add_each_players_deltas() -> None:
    assert balances([(1, 5), (2, -5), (1, -2), (3, 2)]) == {1: 3, 2: -5, 3: 2}


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(-20, 20)), max_size=40))
def test_balances_of_zero_sum_rounds_sum_to_zero(pairs: list[tuple[int, int]]) -> None:
    deltas: list[tuple[int, int]] = []
    for player, amount in pairs:  # each "round": one player gains what the next loses
        deltas += [(player, amount), ((player + 1) % 4, -amount)]
    assert sum(balances(deltas).values()) == 0


@given(zero_sum_balances())
def test_transfers_settle_every_balance_exactly(balance: dict[int, int]) -> None:
    transfers = fewest_transfers(balance)
    assert all(v == 0 for v in settled(balance, transfers).values())
    assert all(t.points > 0 and t.payer != t.payee for t in transfers)
    assert all(t.payer in balance and t.payee in balance for t in transfers)


@settings(max_examples=300)
@given(zero_sum_balances(max_players=8))
def test_transfer_count_equals_the_brute_force_minimum(balance: dict[int, int]) -> None:
    assert len(fewest_transfers(balance)) == brute_force_minimum(list(balance.values()))


@given(zero_sum_balances(max_players=8))
def test_small_amounts_with_many_zero_sum_groups_still_reach_the_minimum(
    balance: dict[int, int],
) -> None:
    small = {p: a % 3 - 1 for p, a in balance.items()}  # -1, 0, 1: many ways to group
    small[max(small, default=0) + 1] = -sum(small.values())
    assert len(fewest_transfers(small)) == brute_force_minimum(list(small.values()))


@given(zero_sum_balances(max_players=30))
def test_greedy_above_the_exact_limit_never_takes_more_than_n_minus_one(
    balance: dict[int, int],
) -> None:
    transfers = fewest_transfers(balance, exact_limit=0)
    nonzero = sum(1 for a in balance.values() if a != 0)
    assert len(transfers) <= max(nonzero - 1, 0)
    assert all(v == 0 for v in settled(balance, transfers).values())


def test_two_hidden_zero_sum_triples_settle_with_four_transfers_where_greedy_needs_five() -> None:
    balance = {1: -2, 2: -5, 3: 7, 4: 3, 5: -9, 6: 6}  # {-2, -5, 7} and {3, -9, 6}
    assert len(fewest_transfers(balance, exact_limit=0)) == 5
    assert len(fewest_transfers(balance)) == 4 == brute_force_minimum(list(balance.values()))


def test_the_same_balances_always_give_the_same_transfers() -> None:
    balance = {4: 10, 9: -3, 2: -7, 7: 6, 1: -6}
    assert fewest_transfers(balance) == fewest_transfers(dict(reversed(balance.items())))


def test_twenty_players_are_settled_exactly_within_a_few_seconds() -> None:
    groups = [
        (5, 8, -13), (9, -2, -7), (-11, 4, 7), (14, -6, -8), (3, 6, -1, -8), (21, -5, -10, -6)
    ]  # fmt: skip
    amounts = [a for g in groups for a in g]
    balance = dict(enumerate(amounts, start=1))
    assert len(balance) == 20 and sum(amounts) == 0
    started = time.perf_counter()
    transfers = fewest_transfers(balance)
    assert time.perf_counter() - started < 10
    assert all(v == 0 for v in settled(balance, transfers).values())
    assert len(transfers) <= 20 - len(groups)


def test_unbalanced_books_are_refused() -> None:
    with pytest.raises(UnbalancedLedger):
        fewest_transfers({1: 5, 2: -4})


def test_money_is_rounded_half_to_even_once_with_the_rounding_kept() -> None:
    money = to_money(3, Decimal("0.125"))
    assert money.exact == Decimal("0.375") and money.rounded == Decimal("0.38")
    assert money.rounding == Decimal("0.005")
    assert to_money(1, Decimal("0.125")).rounded == Decimal("0.12")
    assert to_money(-40, Decimal("0.5")).rounded == Decimal("-20.00")
    assert to_money(-40, Decimal("0.5")).rounding == 0


def test_balances_that_paid_into_the_pot_settle_with_the_clubs_pot_as_its_own_line() -> None:
    from analysis.league.selectors import POT_PARTY, _transfers

    # two penalties of 8 went into the pot: the players' balances sum to −8
    transfers, pot = _transfers({1: 5, 2: -9, 3: -4}, {1: "ann", 2: "bo", 3: "cy"},
                                lambda points: None)
    assert pot == 8
    to_pot = [t for t in transfers if t.payee == POT_PARTY]
    assert sum(t.points for t in to_pot) == 8
    assert all(t.payer != POT_PARTY for t in transfers)  # the pot never pays a player
    assert {t.payee_handle for t in to_pot} == {"the club's pot"}
    net = {1: 5, 2: -9, 3: -4}
    for t in transfers:
        if t.payer in net:
            net[t.payer] += t.points
        if t.payee in net:
            net[t.payee] -= t.points
    assert set(net.values()) == {0}
