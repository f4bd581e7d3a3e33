"""The table as the scorer sees it: a deal whose hands are unknown, judged from the cards seen.

At a real table nobody knows the hands.  The scorer sees the turned card,
each card as it is played and each declaration as it is shown.  :func:`check`
replays those events on a :class:`SeenDeal`: the engine's own deal, whose
hands hold only the cards a seat is *known* to hold.  With 3 and 4 players
every card is dealt at the start, so a card a seat plays at trick 7 or shows
in a cante was in its hand from the first trick on; with 2 players, while the
stock lasts, a card is known held from the moment it is played or shown, and
once the stock is exhausted every card a seat plays later was in its hand.

The engine then judges every event with its own rules (duties, declaration
windows, limits, forfeits).  A card the known part of a hand makes illegal
stays illegal whatever else the hand holds (holding more cards never lifts a
duty), so an event refused here is illegal in every deal the table could have
had: a revoke (*renuncio*) at trick 3 is found as soon as the seat is shown
to have held a card that kept it, and the message names that card and where
it was seen.  Which cards were seen where (a card played twice, a card
another seat showed, the turned card still under the stock) is the one thing
judged here; every rule of play stays in the engine.

>>> from tutepgn.rules import preset
>>> from tutepgn.cards import card_from_code as c
>>> from tutepgn.events import Play
>>> start = Start(preset("torofun-3p"), dealer=2, turned=c("11C"))
>>> plays = [Play(0, c("4E")), Play(1, c("6E")), Play(2, c("12E")), Play(2, c("6C")), Play(0, c("4C"))]
>>> check(start, plays).turn  # after E 6C and N 4C, W plays
1
>>> try:
...     check(start, plays + [Play(1, c("1C")), Play(1, c("11B")), Play(2, c("12B")), Play(0, c("7C"))])
... except IllegalAction as exc:
...     print(exc.rule, "|", exc.message)
must_beat | revoke (renuncio) at trick 2, proved by the cards seen since: \
N must beat the highest copas in the trick (6C) when following suit; \
4C breaks it (may play 7C); N held 7C: played at trick 3
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..cards import BIT, CODES, SUITS, Card, Mask, card as card_of, cards_in, pack
from ..check.replay import event_cards
from ..declarations import FOURS
from ..engine import Deal
from ..errors import IllegalAction, IllegalDeclaration, IllegalPlay
from ..events import Action, Cante, Context, Exchange, Play, Tute
from ..words import card_words, seat_words
from ..i18n import N_, Later, gettext as _
from ..rules import Ruleset


@dataclass(frozen=True, slots=True)
class Start:
    """What the table knows before the first card: the rules, the dealer, the turned card, a match's first deal."""

    rules: Ruleset
    dealer: int
    turned: Card
    first_of_match: bool = False


class Sighting(NamedTuple):
    """Where a card was seen with a seat: the event's index (-1: before the play), and in words."""

    index: int  # type: ignore[assignment]  # shadows tuple.index() on purpose: read by name, never called
    seat: int
    words: Later


def trick_numbers(events: Sequence[Action], players: int) -> list[int]:
    """Per event, the trick it belongs to (a play) or follows (a declaration: 0 before the first trick)."""
    out = []
    plays = 0
    for event in events:
        if type(event) is Play:
            out.append(plays // players + 1)
            plays += 1
        else:
            out.append(plays // players)
    return out


def sighting_words(event: Action, trick: int, ctx: Context) -> Later:
    """Where an event shows its cards, in words: ``played at trick 7``, ``shown in N 20O after trick 4`` (put in
    the language spoken when a refusal quotes them)."""
    if type(event) is Play:
        return Later(N_("played at trick {trick}"), trick=trick)
    when = Later(N_("after trick {trick}"), trick=trick) if trick else Later(N_("before the first trick"))
    if type(event) is Exchange:
        return Later(N_("given in {event} {when}"), event=event.text(ctx), when=when)
    return Later(N_("shown in {event} {when}"), event=event.text(ctx), when=when)


class SeenDeal(Deal):
    """The engine's deal with hands known only as far as seen.

    Two things differ from a dealt deal: no card is drawn from the stock
    (its order is unknown: only the turned card, drawn last, is known, and
    :attr:`last_drawer` says who drew it), and the deal ends when every card
    is played or a tute ends it, not when the known part of the hands runs out.
    """

    last_drawer: int | None = None

    def _draw(self, winner: int) -> None:
        """Count the draws, the winner first; only the last card drawn, the turned one, is known."""
        n = self.rules.players
        size = len(self.stock)
        for i in range(n):
            if self.stock_pos >= size:
                break
            self.stock_pos += 1
            if self.stock_pos == size:
                seat = (winner + i) % n
                self.hands[seat] |= BIT[self.turned]
                self.last_draw = {seat: self.turned}
                self.last_drawer = seat

    def _finish_trick(self) -> None:
        """As the engine, but a trick after which the known hands are empty does not end the deal."""
        super()._finish_trick()
        if self.turn < 0 and len(self.tricks) * self.rules.players < self.rules.deck_size:
            winner = self.tricks[-1].winner
            self.leader = self.turn = winner
            self.window_side = self.side_of(winner)
            self.window_cantes = 0
            self.window_after_draw = False


def _stock_of(rules: Ruleset, turned: Card) -> list[Card]:
    """A stock of the right size with the turned card last; the other cards stand for unseen ones, never drawn."""
    size = rules.deck_size - rules.players * rules.hand_size
    if rules.trump_card == "dealer_last" or size <= 0:
        return []
    others = [c for c in cards_in(pack(rules.removed_ranks)) if c != turned]
    return others[:size - 1] + [turned]


class _Seen:
    """Who was seen holding which card so far, and the refusal when an event contradicts it."""

    def __init__(self, start: Start, events: Sequence[Action]) -> None:
        r = start.rules
        self.start = start
        self.names = r.seat_names
        self.events = events
        self.tricks = trick_numbers(events, r.players)
        self.played: dict[Card, Sighting] = {}
        self.holder: dict[Card, Sighting] = {}
        self.pack = pack(r.removed_ranks)
        self.stocked = bool(_stock_of(r, start.turned))
        if not self.stocked:
            self.holder[start.turned] = Sighting(-1, start.dealer, Later(N_("the turned card, the dealer's")))
            lead = r.first_deal_leader_card
            if start.first_of_match and lead and events:
                card = CODES.index(lead)
                self.holder.setdefault(card, Sighting(-1, events[0].seat, Later(N_(
                    "{seat} led the first deal of the match, which the holder of {card} leads "
                    "(first_deal_leader_card)"), seat=seat_words(self.names[events[0].seat]), card=lead)))

    def first_hands(self) -> list[Mask]:
        """3 and 4 players: each seat holds from the start every card it is first seen with."""
        owner = {card: s.seat for card, s in self.holder.items()}
        for event in self.events:
            for card in cards_in(event_cards(event)):
                owner.setdefault(card, event.seat)
        hands = [0] * self.start.rules.players
        for card, seat in owner.items():
            hands[seat] |= BIT[card]
        return hands

    def later_cards(self, after: int) -> list[Mask]:
        """2 players, at the last draw: the cards each seat is seen with from event ``after`` on, if not another's."""
        hands = [0] * self.start.rules.players
        taken: set[Card] = set(self.played)
        for event in self.events[after:]:
            for card in cards_in(event_cards(event)):
                if card in taken:
                    continue
                taken.add(card)
                held = self.holder.get(card)
                if held is None or held.seat == event.seat:
                    hands[event.seat] |= BIT[card]
        return hands

    def conflict(self, index: int, event: Action, deal: SeenDeal) -> IllegalAction | None:
        """The refusal of an event that uses a card seen elsewhere, or None."""
        seat = event.seat
        for card in cards_in(event_cards(event)):
            code = card_words(card)
            why = None
            if not self.pack >> card & 1:
                why = _("{card} is not in this pack (rule removed_ranks: {ranks})", card=code,
                        ranks=self.start.rules.removed_ranks)
            elif card in self.played:
                seen = self.played[card]
                why = _("{card} was already played, by {seat} at trick {trick}", card=code,
                        seat=seat_words(self.names[seen.seat]), trick=self.tricks[seen.index])
            elif card == deal.turned and self.stocked and deal.stock_pos < len(deal.stock):
                why = _("{card} is the turned card, under the stock until the last draw", card=code)
            else:
                held = self.holder.get(card)
                if held is not None and held.seat != seat:
                    why = _("{seat} holds {card}: {where}", seat=seat_words(self.names[held.seat]), card=code,
                            where=held.words)
            if why is not None:
                kind = IllegalPlay if type(event) is Play else IllegalDeclaration
                return kind(_("{seat} cannot have {card}: {why}", seat=seat_words(self.names[seat]), card=code,
                              why=why),
                            rule="not_held", seat=seat)
        return None

    def add(self, index: int, event: Action, deal: SeenDeal, turned: Card) -> None:
        """Record what an applied event showed: a card played, cards shown, an exchange (which took ``turned``),
        the last draw."""
        ctx = Context(self.names, deal.trump)
        words = sighting_words(event, self.tricks[index], ctx)
        if type(event) is Play:
            self.played[event.card] = Sighting(index, event.seat, words)
            self.holder.pop(event.card, None)
        elif type(event) is Exchange:
            self.holder.pop(event.card, None)  # under the stock now, as the turned card
            self.holder[turned] = Sighting(index, event.seat, Later(N_("taken in {event} {when}"), **words.params))
        else:
            for card in cards_in(event_cards(event)):
                self.holder[card] = Sighting(index, event.seat, words)
        drawer = deal.last_drawer
        if drawer is not None and deal.turned not in self.holder and deal.turned not in self.played:
            self.holder[deal.turned] = Sighting(index, drawer, Later(N_("the turned card, drawn last, after trick "
                                                                        "{trick}"), trick=len(deal.tricks)))

    def proof(self, index: int, error: IllegalAction, deal: SeenDeal) -> IllegalAction:
        """An event found illegal, with the cards that prove it and where they were seen."""
        event = self.events[index]
        last = index == len(self.events) - 1
        ctx = Context(self.names, deal.trump)
        if type(event) is not Play:
            if last:
                return error
            trick = self.tricks[index]
            message = (_("{event} after trick {trick} broke a rule, as the cards seen since prove: {refusal}",
                         event=event.text(ctx), trick=trick, refusal=error.message) if trick else
                       _("{event} before the first trick broke a rule, as the cards seen since prove: {refusal}",
                         event=event.text(ctx), refusal=error.message))
            return IllegalDeclaration(message, rule=error.rule, option=error.option, seat=error.seat)
        seat = event.seat
        if error.rule in ("not_your_turn", "not_held", "deal_over"):
            return error
        evidence = []
        for card in cards_in(deal.hands[seat] & ~BIT[event.card]):
            if deal.can_play(seat, card):
                evidence.append(f"{CODES[card]}: {self._seen_with(card, seat, ctx)}")
        message = error.message
        if evidence:
            message = _("{refusal}; {seat} held {evidence}", refusal=message, seat=seat_words(self.names[seat]),
                        evidence="; ".join(evidence))
        if not last:
            message = _("revoke (renuncio) at trick {trick}, proved by the cards seen since: {refusal}",
                        trick=self.tricks[index], refusal=message)
        return IllegalPlay(message, rule=error.rule, option=error.option, seat=seat)

    def _seen_with(self, card: Card, seat: int, ctx: Context) -> Later | str:
        """Where a seat was seen with a card: its play or declaration, or what the table knew before."""
        held = self.holder.get(card)
        if held is not None and held.seat == seat:
            return held.words
        for i, event in enumerate(self.events):
            if event.seat == seat and event_cards(event) >> card & 1:
                return sighting_words(event, self.tricks[i], ctx)
        return _("known")


def check(start: Start, events: Sequence[Action]) -> SeenDeal:
    """Replay what the table saw; return the deal as it stands, or raise :class:`IllegalAction` at the first
    event that no deal of these rules allows, with the rule and the cards (and tricks) that prove it."""
    r = start.rules
    seen = _Seen(start, events)
    stock = _stock_of(r, start.turned)
    hands = [0] * r.players if stock else seen.first_hands()
    deal = SeenDeal(r, hands, stock, start.turned, start.dealer, first_of_match=start.first_of_match)
    for index, event in enumerate(events):
        refusal = seen.conflict(index, event, deal)
        if refusal is not None:
            raise refusal
        drawing = deal.stock_pos < len(deal.stock)
        if drawing:
            deal.hands[event.seat] |= event_cards(event)
        turned = deal.turned
        try:
            deal.apply(event)
        except IllegalAction as exc:
            raise seen.proof(index, exc, deal) from None
        seen.add(index, event, deal, turned)
        if drawing and deal.stock_pos == len(deal.stock):
            for seat, cards in enumerate(seen.later_cards(index + 1)):
                deal.hands[seat] |= cards
    return deal


def declarations(start: Start, events: Sequence[Action]) -> list[Action]:
    """Every declaration :func:`check` accepts after ``events``: what the table may see declared next (a tute
    or cante of any seat, an exchange by the seat to lead), judged from the cards seen, so that a scorer is
    offered each one at the moment the rules open it."""
    deal = check(start, events)
    if deal.over or deal.trick:
        return []
    r = start.rules
    candidates: list[Action] = []
    for seat in range(r.players):
        candidates.extend(Tute(seat, rank) for rank in FOURS)
        if deal.tricks:
            candidates.extend(Cante(seat, suit) for suit in SUITS)
    if r.exchange_seven or r.exchange_two:
        candidates.extend(Exchange(deal.turn, card_of(rank, deal.trump)) for rank in (7, 2))
    accepted = []
    for action in candidates:
        try:
            check(start, [*events, action])
        except IllegalAction:
            continue
        accepted.append(action)
    return accepted


def reconstructed_deal(start: Start, events: Sequence[Action]) -> Deal | None:
    """3 and 4 players, every card played: the deal as dealt (each hand is the cards its seat played), with the
    events applied; None while a card is unplayed (a tute, an unfinished deal) or with a stock (2 players)."""
    seen = check(start, events)
    r = start.rules
    if seen.initial_stock or sum(type(e) is Play for e in events) != r.deck_size:
        return None
    deal = Deal(r, list(seen.initial_hands), [], start.turned, start.dealer, first_of_match=start.first_of_match)
    for event in events:
        deal.apply(event)
    return deal


__all__ = ["SeenDeal", "Sighting", "Start", "check", "declarations", "reconstructed_deal",
           "sighting_words", "trick_numbers"]
