"""What one seat may see of a deal, and a deal rebuilt from that alone for a bot to think on.

A bot must play from its seat's view: its own hand, the cards played, the
turned card (the muestra), the declarations, the stock's size, never the
others' hands nor the stock's order.  :class:`SeatView` holds that view.  A bot
that needs a whole deal to reason on (the engine's legal actions, the play
model, PIMC) gets :attr:`SeatView.stand_in`: a deal with the same log in which
every card the seat has not seen is placed at random among the places it may
be (:func:`tutepgn.analysis.worlds.knowledge`), seeded by the view, and its
history rebuilt from what the seat saw (:func:`tutepgn.analysis.worlds.starting_deal`
with every other seat's hand marked unknown, so no seat keeps its true draws).
Two deals that look the same from the seat give the same stand-in, so a bot
given either plays the same (``tests/test_play_bots.py`` checks it).  Once the
seat knows where every card is (2 players, the stock empty) the stand-in is the
deal itself: only the order of the other seat's past draws stays unseen then.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field

from ..cards import BIT, Card, Mask
from ..engine import Deal
from ..errors import IllegalAction
from ..events import Action, Play
from ..i18n import gettext as _
from ..rules import Ruleset
from ..analysis.worlds import Knowledge, World, deal_unseen, knowledge, world_deal

TRIES = 200
"""Dealings of the unseen cards tried for a stand-in before giving up (the constraints are rarely that tight)."""


@dataclass(frozen=True)
class SeatView:
    """One seat's view of a deal in play: everything public, its own hand, and where the unseen cards may be."""

    rules: Ruleset
    seat: int
    dealer: int
    turned: Card
    """The card turned to show trump (the muestra) at the deal's start."""
    hand: Mask
    """The seat's cards now."""
    log: tuple[Action, ...]
    """Every action so far: plays and declarations are made in sight of the table."""
    stock_left: int
    """Cards still in the stock, the turned card included (0 without a stock)."""
    known: Knowledge
    """What the seat knows of the others' hands: the unseen cards, each seat's count and exclusions."""
    stand_in: Deal = field(compare=False, repr=False)
    """A deal that agrees with this view, its hidden cards made up from the view alone: what bots think on."""

    @classmethod
    def of(cls, deal: Deal, seat: int | None = None) -> SeatView:
        """``seat``'s view of ``deal`` now (default: the seat to move)."""
        me = deal.turn if seat is None else seat
        info = knowledge(deal, me)
        return cls(deal.rules, me, deal.dealer, deal.initial_turned, deal.hands[me], tuple(deal.log),
                   deal.stock_left, info, _stand_in(deal, me, info))

    @property
    def to_move(self) -> bool:
        """Whether it is this seat's turn to play a card (it may also declare when a window is open)."""
        return not self.stand_in.over and self.stand_in.turn == self.seat

    def legal_actions(self) -> list[Action]:
        """What the seat may do now: the engine's legal actions (its own cards and declarations decide them)."""
        return [a for a in self.stand_in.legal_actions() if a.seat == self.seat]


def _stand_in(deal: Deal, seat: int, info: Knowledge) -> Deal:
    """A deal with ``deal``'s log whose unseen cards are dealt at random (seeded by the view), its start rebuilt
    from what ``seat`` saw."""
    if not info.unseen:  # the seat knows every card now (2 players, the stock empty): the deal as it is
        rebuilt = _replayed(deal, deal, World(tuple(deal.hands), tuple(deal.stock[deal.stock_pos:])))
        assert rebuilt is not None  # the deal's own log replays from its own start
        return rebuilt
    rng = random.Random(f"stand-in:{seat}:{len(deal.log)}:{info.unseen}")
    blind = _blind(deal, seat)
    for _try in range(TRIES):
        world = deal_unseen(info, rng)
        if world is None:
            continue
        rebuilt = _replayed(deal, blind, world)
        if rebuilt is not None:
            return rebuilt
    raise ValueError(_("no deal found in {tries} tries that agrees with what the seat saw", tries=TRIES))


def _blind(deal: Deal, seat: int) -> Deal:
    """A shallow copy of ``deal`` whose other seats' hands match no world, so that :func:`starting_deal` rebuilds
    every other seat's dealt hand and draws from the log instead of keeping the true ones."""
    blind = copy.copy(deal)
    blind.hands = [h if s == seat else -1 for s, h in enumerate(deal.hands)]
    return blind


def _replayed(deal: Deal, blind: Deal, world: World) -> Deal | None:
    """The deal's log replayed from a start that leads to ``world``, or None when none does."""
    if deal.initial_stock:
        return world_deal(blind, world)  # its draws rebuilt, in each order of their ties it tries
    played = [0] * deal.rules.players
    for action in deal.log:
        if type(action) is Play:
            played[action.seat] |= BIT[action.card]
    try:
        start = Deal(deal.rules, [h | p for h, p in zip(world.hands, played)], [], deal.initial_turned,
                     deal.dealer, first_of_match=deal.first_of_match)
        for action in deal.log:
            start.apply(action)
    except (IllegalAction, ValueError):
        return None
    if tuple(start.hands) != world.hands:
        return None
    return start
