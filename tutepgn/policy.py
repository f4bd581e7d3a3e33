"""A play model of a decent club player: a score per legal action, its softmax, and the best action.

The model serves twice: as the ``heuristic`` bot of the simulator (:func:`choose`)
and as the likelihood of the plays already made, by which
:mod:`tutepgn.analysis.pimc` weights its sampled worlds (:func:`probabilities`).
For the second use it must be honest: an action is scored only from what its
actor sees (its own hand, the cards played, the trick on the table, the turned
card while it lies under the stock, the cantes sung), never from the other hands.

The scores are in card points, from the actor's side's point of view:

* Declarations come before any card: a tute (it ends the deal) above all, then
  the 40 before a 20 (:data:`DECLARE`), and the exchange of the trump 7 (or 2)
  for the turned card when the turned card is worth more in hand.
* A card is scored as ``p * T - (1 - p) * T - spend``: ``T`` the trick's points
  once it is played (the cards on the table, the card itself and what the
  players still to play are expected to add, :data:`FOLLOW_POINTS` each), ``p``
  the chance that the actor's side takes the trick, and ``spend`` what the card
  is worth for later tricks (its strength, more for a trump, more for half of
  a pair that may still be sung).  Winning also opens the cante window: a held,
  unsung pair adds most of its value to a card that takes the trick.
* ``p``: a card that beats the table and that no unseen card can beat is a sure
  win (the last to play always knows); a card that can be beaten keeps a chance
  that falls with each unseen card that beats it; a partner winning the trick
  with an unbeatable card is a sure win for the side (so points are given to
  him), a partner still to play keeps a small chance; a losing card, none.

So the last to play takes points cheaply when it can, nobody spends trumps or
high cards on a trick without points, a losing player throws its cheapest
card, and a lead from a master card (late, when few unseen cards can beat it)
scores well.  :func:`probabilities` is the softmax of the scores at a
temperature in points, mixed with a floor (:data:`FLOOR`) so that no legal
action is impossible under the model (a world must not be ruled out because a
player did what the model would not).

The model has a twin in C for PIMC's speed (``tutepgn/native/playout.c``: its rollouts and the likelihoods of
its worlds): a change here needs the same change there, and tests/test_rollout.py fails until both give the
same scores to the last bit.

>>> from tutepgn import Deal, preset
>>> deal = Deal.shuffled(preset("torofun-4p"), seed=3)
>>> p = probabilities(deal)
>>> abs(sum(p.values()) - 1) < 1e-9 and set(p) == set(deal.legal_actions()) and choose(deal) in p
True
"""

from __future__ import annotations

import math

from .cards import ABOVE, BIT, CARD_POINTS, CARD_SUIT, SUIT_MASK, Card, Mask
from .declarations import CANTE_PAIRS
from .duties import trick_state
from .engine import Deal
from .events import Action, Cante, Exchange, Play, Tute

TEMPERATURE = 3.0
"""The default softmax temperature, in points: two cards 3 points apart are e (2.7) times as likely."""
FLOOR = 1e-4
"""The share of probability spread evenly over every legal action: what the model cannot explain stays possible."""
DECLARE = 100.0
"""The score a declaration starts from, above any card's: one declares before playing."""
TUTE = 1000.0
"""A tute's score: it ends the deal, won."""
FOLLOW_POINTS = 2.0
"""The points each player still to play is expected to add to a trick."""
WINDOW_SHARE = 0.6
"""The share of an unsung pair's cante value that taking a trick is worth (the window to sing it opens)."""
PAIR_KEEP = 4.0
"""The cost of playing half of a pair that could still be sung."""


def scores(deal: Deal) -> dict[Action, float]:
    """Each legal action's score in points for its actor's side (higher is better), from what the actor sees."""
    out: dict[Action, float] = {}
    plays: list[Play] = []
    for action in deal.legal_actions():
        if type(action) is Play:
            plays.append(action)
        else:
            out[action] = _declaration_score(deal, action)
    if plays:
        view = _View(deal, plays[0].seat)
        for play in plays:
            out[play] = view.card_score(play.card)
    return out


def probabilities(deal: Deal, temperature: float = TEMPERATURE) -> dict[Action, float]:
    """The model's probability of each legal action: the softmax of :func:`scores`, every one above zero."""
    scored = scores(deal)
    if not scored:
        return {}
    top = max(scored.values())
    weights = {a: math.exp((s - top) / temperature) for a, s in scored.items()}
    total = sum(weights.values())
    even = FLOOR / len(weights)
    return {a: (1 - FLOOR) * w / total + even for a, w in weights.items()}


def choose(deal: Deal) -> Action:
    """The best-scored legal action; ties go to the first in :meth:`Deal.legal_actions`'s order (deterministic)."""
    scored = scores(deal)
    return max(scored, key=scored.__getitem__)  # max keeps the first of equals


def _declaration_score(deal: Deal, action: Action) -> float:
    if type(action) is Tute:
        return TUTE
    if type(action) is Cante:
        r = deal.rules
        return DECLARE + (r.cuarenta_points if action.suit == deal.trump else r.cante_points)
    assert type(action) is Exchange
    gain = _worth(deal.turned, deal.trump) - _worth(action.card, deal.trump)
    return DECLARE + gain if gain > 0 else gain


def _worth(c: Card, trump: int) -> float:
    """What a card in hand is worth for the tricks to come: its points, its strength, more for a trump."""
    return CARD_POINTS[c] + 0.4 * (c % 10) + (4.0 if CARD_SUIT[c] == trump else 0.0)


class _View:
    """The trick and the cards as the actor sees them, read once for all its legal cards."""

    def __init__(self, deal: Deal, seat: int) -> None:
        r = deal.rules
        self.deal = deal
        self.seat = seat
        self.trump = deal.trump
        self.hand: Mask = deal.hands[seat]
        played = sum(BIT[c] for t in deal.tricks for c in t.cards) + sum(BIT[c] for c in deal.trick)
        seen = played | self.hand
        if deal.stock_left:
            seen |= BIT[deal.turned]
        self.unseen: Mask = ((1 << 40) - 1) & ~seen
        self.trick = deal.trick
        self.to_come = r.players - 1 - len(deal.trick)
        self.on_table = sum(CARD_POINTS[c] for c in deal.trick)
        self.led, self.high_led, self.high_trump, self.winning = trick_state(deal.trick, deal.leader, self.trump, deal.rules.players)
        side = r.side_of(seat)
        self.partner_winning = self.winning >= 0 and r.side_of(self.winning) == side
        self.partner_to_come = any(r.side_of((seat + k) % r.players) == side for k in range(1, self.to_come + 1))
        sung = deal.sung_suits
        singable = [s for s in range(4) if s not in sung and self.hand & CANTE_PAIRS[s] == CANTE_PAIRS[s]]
        self.window = WINDOW_SHARE * max(
            (r.cuarenta_points if s == self.trump else r.cante_points for s in singable), default=0)
        self.keep = sum(CANTE_PAIRS[s] for s in range(4) if s not in sung and self.hand & CANTE_PAIRS[s]
                        and not played & CANTE_PAIRS[s])
        last_ten = r.last_trick_bonus if self.hand.bit_count() == 1 else 0
        self.expected = self.on_table + FOLLOW_POINTS * self.to_come + last_ten

    def threats(self, c: Card, led: int) -> float:
        """How many unseen cards may still beat ``c`` once played (trumps over a plain card count less)."""
        if not self.to_come:
            return 0.0
        if CARD_SUIT[c] == self.trump:
            return float((self.unseen & ABOVE[c]).bit_count())
        higher = (self.unseen & ABOVE[c]).bit_count() if CARD_SUIT[c] == led else 0
        trumps = (self.unseen & SUIT_MASK[self.trump]).bit_count()
        gone = 10 - (self.unseen & SUIT_MASK[led]).bit_count()  # cards of the led suit not in unseen hands
        return higher + (trumps * 0.15 * gone / 10 if trumps else 0.0)

    def card_score(self, c: Card) -> float:
        led = CARD_SUIT[c] if self.led < 0 else self.led
        if self.led < 0:
            beats = True
        elif CARD_SUIT[c] == self.trump:
            beats = c > self.high_trump
        else:
            beats = CARD_SUIT[c] == led and self.high_trump < 0 and c > self.high_led
        if beats and not (self.partner_winning and self._partner_sure()):
            threats = self.threats(c, led)
            p = max(0.05, 0.85 - 0.3 * threats) if threats else 1.0
        elif self.partner_winning:
            p = 1.0 if self._partner_sure() else 0.6
        else:
            p = 0.3 if self.partner_to_come else 0.0
        trick = self.expected + CARD_POINTS[c]
        spend = 0.4 * (c % 10) + (3.0 if CARD_SUIT[c] == self.trump else 0.0)
        if self.keep >> c & 1:
            spend += PAIR_KEEP
        return p * trick - (1 - p) * trick - spend + p * self.window

    def _partner_sure(self) -> bool:
        """Whether the partner's winning card can no longer be beaten by any unseen card."""
        top = self.high_trump if self.high_trump >= 0 else self.high_led
        return not self.to_come or self.threats(top, self.led) == 0



__all__ = ["TEMPERATURE", "choose", "probabilities", "scores"]
