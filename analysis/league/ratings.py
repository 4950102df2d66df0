"""Player ratings from match results, with the Weng–Lin Plackett–Luce model of ``openskill``.

Plain Python, no Django. A match is a four-player free-for-all ranked by each player's
net over its complete rounds (equal nets share a rank). Ratings are computed from scratch
in match order, so the same matches in the same order always give the same numbers;
``MODEL_VERSION`` names the library, the model and every parameter, and is stored with
each rating so that a change of any of them is visible.

The displayed rating is the conservative ``ordinal = mu − 3·sigma`` (openskill's own):
a new player starts at 0 and climbs as the uncertainty ``sigma`` shrinks.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib.metadata import version

from openskill.models import PlackettLuce

MU = 25.0
SIGMA = MU / 3
BETA = SIGMA / 2
TAU = MU / 300  # the drift that keeps sigma from settling at zero over a long season
PARAMETERS = {"mu": MU, "sigma": SIGMA, "beta": BETA, "tau": TAU, "ordinal": "mu - 3*sigma"}
MODEL_NAME = "Weng–Lin Plackett–Luce"
MODEL_VERSION = (
    f"openskill {version('openskill')} PlackettLuce mu={MU:g} sigma={SIGMA:.4f} "
    f"beta={BETA:.4f} tau={TAU:.4f}"
)


@dataclass(frozen=True)
class MatchNet:
    """One match: ``nets`` maps each player to their net over its complete rounds."""

    match: int
    nets: dict[int, int]


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Step:
    """A player's rating right after a match."""

    match: int
    player: int
    rating: Rating


def ranks_by_net(nets: Sequence[int]) -> list[int]:
    """1 for the highest net; equal nets share the better rank ("1224")."""
    ordered = sorted(nets, reverse=True)
    return [ordered.index(n) + 1 for n in nets]


def rate_matches(matches: Iterable[MatchNet]) -> tuple[dict[int, Rating], list[Step]]:
    """Every player's final rating and the history of steps, from the matches in order.

    A match with fewer than two players (all its rounds incomplete) changes nothing.
    """
    model = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)
    current: dict[int, Rating] = {}
    history: list[Step] = []
    for match in matches:
        players = sorted(match.nets)
        if len(players) < 2:
            continue
        teams = [[model.rating(*_pair(current.get(p)))] for p in players]
        ranks = ranks_by_net([match.nets[p] for p in players])
        rated = model.rate(teams, ranks=[float(r) for r in ranks])
        for player, (new,) in zip(players, rated, strict=True):
            current[player] = Rating(mu=new.mu, sigma=new.sigma)
            history.append(Step(match=match.match, player=player, rating=current[player]))
    return current, history


def _pair(rating: Rating | None) -> tuple[float | None, float | None]:
    return (None, None) if rating is None else (rating.mu, rating.sigma)
