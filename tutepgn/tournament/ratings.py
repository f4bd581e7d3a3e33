"""Ratings of players and pairs from finished matches, by OpenSkill's Plackett-Luce model (Weng-Lin).

Pure: a list of :class:`Outcome` in, :class:`Ratings` out; no archive, no clock, no randomness.  The matches are
rated in one fixed order (:func:`order`: date, then match id, then the id of the match's first deal), whatever
order they come in, so the same matches always give the same numbers (docs/ratings.md).

* A player has one rating from every match they played: two players and three players as sides of one, four
  players as a team of two (the library rates a team by the sum of its players' skills).  One number per person,
  since the play is the same game and a club's matches are too few to split three ways.
* A pair (the same two people on one side of a four-player match) has its own rating besides, reckoned from its
  matches as a unit (a pair is one side, the other pair the other), and its strength as a team of its two players'
  individual ratings (:attr:`PairRating.team_mu`, :attr:`PairRating.team_sigma`): the first says how the two play
  together, the second how good they are each.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce, PlackettLuceRating

MODEL = "openskill-plackett-luce-1"
"""The model and its settings (the library's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300): stored with
the ratings, so that a change here recomputes them."""
Z = 3.0
"""The ordinal shown is mu - Z * sigma: a skill the player is 99.7% sure to have at least."""


@dataclass(frozen=True)
class Outcome:
    """One finished match: its sides (each the names of its players) and each side's place (0 won; equal places
    for sides that tied behind the winner)."""

    match: str
    date: str | None
    """ISO date (``2026-03-17``), None when unknown (rated first)."""
    first_deal: int
    """The id of the match's first deal: the last key of the order (a hash of the record, so the same however the
    files were imported)."""
    sides: tuple[tuple[str, ...], ...]
    places: tuple[int, ...]

    def names(self) -> list[str]:
        """Every player of the match, side by side."""
        return [name for side in self.sides for name in side]

    def key(self) -> tuple[str, str, int]:
        """Where the match falls in the order the ratings are reckoned in."""
        return (self.date or "", self.match, self.first_deal)


@dataclass(frozen=True)
class Point:
    """A player's rating just after one of their matches: a point of their history chart."""

    date: str | None
    match: str
    first_deal: int
    """With the match id, names the match (two matches may share an id)."""
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - Z * self.sigma


@dataclass(frozen=True)
class PlayerRating:
    """A player's rating now: mu (the skill believed), sigma (how unsure), over how many matches."""

    name: str
    mu: float
    sigma: float
    matches: int
    wins: int

    @property
    def ordinal(self) -> float:
        """The number ranked and shown: mu less three sigmas."""
        return self.mu - Z * self.sigma


@dataclass(frozen=True)
class PairRating:
    """A pair's own rating (its matches as a unit) and its strength as a team of its two players' ratings, on the
    same scale as one player's (:func:`team_strength`)."""

    players: tuple[str, str]
    mu: float
    sigma: float
    matches: int
    wins: int
    team_mu: float
    """The mean of its two players' mus."""
    team_sigma: float
    """The root mean square of their sigmas."""

    @property
    def name(self) -> str:
        return " & ".join(self.players)

    @property
    def ordinal(self) -> float:
        return self.mu - Z * self.sigma

    @property
    def team_ordinal(self) -> float:
        return self.team_mu - Z * self.team_sigma


@dataclass
class Ratings:
    """Every player's and pair's rating, best first (by ordinal, then name), and each player's history."""

    players: list[PlayerRating]
    pairs: list[PairRating]
    history: dict[str, list[Point]] = field(default_factory=dict)
    matches: int = 0
    """The matches rated."""

    def player(self, name: str) -> PlayerRating | None:
        """One player's rating, or None if no rated match names them."""
        return next((p for p in self.players if p.name == name), None)


def order(outcomes: Iterable[Outcome]) -> list[Outcome]:
    """The matches in the order they are rated: date (unknown first), match id, first deal's id."""
    return sorted(outcomes, key=Outcome.key)


def team_strength(ratings: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """A team's (mu, sigma) on one player's scale: the mean of its players' mus, and the root mean square of their
    sigmas (two new players make a team rated 0, as a new pair is)."""
    n = len(ratings)
    return (sum(mu for mu, _ in ratings) / n, math.sqrt(sum(s * s for _, s in ratings) / n))


def rate(outcomes: Iterable[Outcome]) -> Ratings:
    """Rate every player and pair over ``outcomes``, taken in :func:`order`."""
    model = PlackettLuce()
    people: dict[str, PlackettLuceRating] = {}
    pairs: dict[tuple[str, ...], PlackettLuceRating] = {}
    played: dict[str | tuple[str, ...], list[int]] = {}  # matches, wins per player or pair
    history: dict[str, list[Point]] = {}
    ordered = order(outcomes)
    for outcome in ordered:
        places = list(map(float, outcome.places))
        for name in outcome.names():
            if name not in people:
                people[name] = model.rating()
        teams = [[people[name] for name in side] for side in outcome.sides]
        for side, team in zip(outcome.sides, model.rate(teams, ranks=places)):
            for name, new in zip(side, team):
                people[name] = new
                history.setdefault(name, []).append(
                    Point(outcome.date, outcome.match, outcome.first_deal, new.mu, new.sigma))
        by_pairs = all(len(side) == 2 for side in outcome.sides)
        if by_pairs:
            keys = [tuple(sorted(side)) for side in outcome.sides]
            for key in keys:
                if key not in pairs:
                    pairs[key] = model.rating()
            new_pairs = model.rate([[pairs[k]] for k in keys], ranks=places)
            pairs.update((k, team[0]) for k, team in zip(keys, new_pairs))
        for side, place in zip(outcome.sides, outcome.places):
            units: list[str | tuple[str, ...]] = [*side, tuple(sorted(side))] if by_pairs else list(side)
            for unit in units:
                count = played.setdefault(unit, [0, 0])
                count[0] += 1
                count[1] += place == 0
    players = [PlayerRating(name, r.mu, r.sigma, played[name][0], played[name][1]) for name, r in people.items()]
    players.sort(key=lambda p: (-p.ordinal, p.name))
    pair_rows = []
    for (one, two), r in pairs.items():
        team_mu, team_sigma = team_strength([(people[n].mu, people[n].sigma) for n in (one, two)])
        matches, wins = played[(one, two)]
        pair_rows.append(PairRating((one, two), r.mu, r.sigma, matches, wins, team_mu, team_sigma))
    pair_rows.sort(key=lambda p: (-p.ordinal, p.players))
    return Ratings(players, pair_rows, history, len(ordered))
