"""A match: a sequence of deals, the dealer moving one seat each deal, the standing growing to the target."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from .cards import Card
from .engine import Deal
from .i18n import gettext as _
from .rules import Ruleset
from .score import ScoreSheet


@dataclass
class Match:
    """A sequence of deals: the dealer moves right each deal, the standing grows to the target.

    >>> from tutepgn.rules import preset
    >>> m = Match(preset("playcard-2p"), seed=1)
    >>> deal = m.next_deal()
    >>> deal.dealer, m.deal_no
    (0, 1)
    """

    rules: Ruleset
    seed: int | None = None
    first_dealer: int = 0
    target: int | None = None
    standing: list[int] = field(default_factory=list)
    sheets: list[ScoreSheet] = field(default_factory=list)
    winner: int | None = None
    deal_no: int = 0
    _rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)
        if self.target is None:
            self.target = self.rules.match_target
        if not self.standing:
            self.standing = [0] * self.rules.sides

    @property
    def over(self) -> bool:
        """True once a side reached the target or a tute won the match."""
        return self.winner is not None

    @property
    def dealer(self) -> int:
        """The dealer of the next deal: each deal moves one seat in turn order."""
        return (self.first_dealer + self.deal_no) % self.rules.players

    def next_deal(self, deck: list[Card] | None = None) -> Deal:
        """Deal the next deal (from ``deck``, or shuffled from the match's seed)."""
        if self.over:
            raise ValueError(_("the match is over: no deal after the end"))
        first = self.deal_no == 0
        dealer = self.dealer
        self.deal_no += 1
        if deck is None:
            return Deal.shuffled(self.rules, self._rng, dealer, first_of_match=first)
        return Deal.from_deck(self.rules, deck, dealer, first_of_match=first)

    def record(self, deal: Deal) -> ScoreSheet:
        """Add a finished deal's match points to the standing; return its score sheet."""
        if not deal.over:
            raise ValueError(_("the deal is not over"))
        sheet = deal.score(self.target)
        self.sheets.append(sheet)
        for side, pts in enumerate(sheet.match_points):
            self.standing[side] += pts
        self.winner = match_winner(self.standing, self.target or 0, sheet.winner if sheet.wins_match else None)
        return sheet


def match_winner(standing: Sequence[int], target: int, outright: int | None = None) -> int | None:
    """The side that won the match with a deal (the standing after it), or None: ``outright``, the side whose
    tute won the match whatever the standing, else the side furthest past the target."""
    if outright is not None:
        return outright
    leaders = [s for s, points in enumerate(standing) if points >= target]
    return max(leaders, key=lambda s: standing[s]) if leaders else None
