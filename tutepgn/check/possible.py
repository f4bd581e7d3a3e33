"""Whether a position string can happen: what its fields must agree on, with each other and with the ruleset.

:meth:`~tutepgn.check.moment.Moment.parse` reads each field on its own; :func:`impossible` then checks what a deal
played under the ruleset makes true at every moment (docs/notation.md, "What a position string must agree
on"): every card of the ruleset's pack once, in a hand, on the table, in the stock or in a won pile; each hand
and the stock as many cards as the tricks played leave them; the seat to play after the trick's cards; the card
points won within what the cards out of play can hold; cantes of the value the ruleset gives, one a suit, by a
side that won a trick, their rey and caballo nowhere but with the singer; exchanges the ruleset allows.  Only
what the string says is checked: the order of the tricks, who won which, and the cards in them are not in it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import (
    CABALLO, CARD_POINTS, CARD_RANK, CARD_SUIT, REY, SUIT_LETTERS, card, card_from_code, cards_in, pack,
)
from ..words import seat_words, card_words
from ..i18n import gettext as _, ngettext

if TYPE_CHECKING:
    from .moment import Moment

Problem = tuple[str, str]
"""The field at fault (a name of :data:`tutepgn.check.moment.FIELDS`) and why, in the language spoken."""


def impossible(moment: Moment) -> Problem | None:
    """Why no deal under the moment's ruleset reaches this moment (the first reason found), or None."""
    state = _State(moment)
    for check in (state.cards, state.muestra, state.won_tricks, state.stock, state.hands, state.turn,
                  state.won_points, state.cantes, state.exchanges):
        problem = check()
        if problem is not None:
            return problem
    return None


class _State:
    """What the checks share: the moment, its ruleset's numbers, and where each written card is."""

    def __init__(self, m: Moment) -> None:
        self.m, self.r = m, m.rules
        self.n, self.names, self.spec = m.rules.players, m.rules.seat_names, m.rules.spec
        self.deck = pack(m.rules.removed_ranks)
        self.size = self.deck.bit_count()
        self.played = sum(m.tricks)
        self.table = {card_from_code(c): (m.leader + i) % self.n for i, c in enumerate(m.trick)}
        """Each card on the table and the seat that played it."""
        self.held = [{card_from_code(c) for c in hand} for hand in m.hands]
        self.sizes = [len(hand) + unknown for hand, unknown in zip(m.hands, m.unknown)]
        self.stocked = {card_from_code(c) for c in m.stock_cards or ()}
        self.turned = card_from_code(m.turned)
        self.trump = SUIT_LETTERS.index(m.trump)
        self.first_stock = self.size - self.n * self.r.hand_size if self.r.trump_card == "stock_bottom" else None
        """The stock as dealt (the muestra included), None for a ruleset that deals the whole pack."""
        self.in_stock = self.first_stock is not None and bool(m.stock)
        """Whether the muestra lies under the stock now (it is drawn last)."""

    def seat_of(self, c: int) -> int | None:
        """The seat whose written hand holds ``c``, or None."""
        return next((s for s, hand in enumerate(self.held) if c in hand), None)

    def side_won(self, seat: int) -> bool:
        """Whether the seat's side has won a trick."""
        return self.m.tricks[self.r.side_of(seat)] > 0

    # -- The cards -------------------------------------------------------------
    def cards(self) -> Problem | None:
        """Every card written is in the ruleset's pack (3 players take out the 2s)."""
        m = self.m
        for field, codes in (("muestra", (m.turned,)), ("hands", [c for h in m.hands for c in h]),
                             ("trick", m.trick), ("declarations", [c for _s, c in m.exchanges]),
                             ("stock", m.stock_cards or ())):
            for code in codes:
                if not self.deck >> card_from_code(code) & 1:
                    return field, _("{card} is not in the pack of {rules}", card=code, rules=self.spec)
        return None

    def muestra(self) -> Problem | None:
        """The trump is the muestra's suit (or the first deal's, where the ruleset fixes one); the muestra lies
        under the stock while it has cards, else it stays in the dealer's hand until the dealer plays it."""
        m, r = self.m, self.r
        if m.trump != m.turned[-1] and m.trump != r.first_deal_trump:
            return "muestra", (_("the trump is the muestra's suit, {suit}: {rules} fixes no other", suit=m.turned[-1],
                                 rules=self.spec) if r.first_deal_trump is None else
                               _("the trump is the muestra's suit, {suit}, or in a match's first deal {fixed}",
                                 suit=m.turned[-1], fixed=r.first_deal_trump))
        holder = self.seat_of(self.turned)
        if self.in_stock:
            if holder is not None:
                return "hands", _("{card} is the muestra, under the stock while it has cards: it cannot be in "
                                  "{seat}'s hand", card=m.turned, seat=seat_words(self.names[holder]))
            if self.turned in self.table:
                return "trick", _("{card} is the muestra, under the stock while it has cards: it cannot be on the "
                                  "table", card=m.turned)
            if m.stock_cards is not None and m.stock_cards[-1] != m.turned:
                return "stock", _("the muestra {card} is the stock's last card, not {last}", card=m.turned,
                                  last=m.stock_cards[-1])
        elif self.first_stock is None and not m.exchanges:
            dealer = self.names[m.dealer]
            if holder not in (None, m.dealer):
                return "hands", _("{card} is the muestra, the dealer's last card: it stays in {dealer}'s hand until "
                                  "{dealer} plays it", card=m.turned, dealer=dealer)
            if self.table.get(self.turned, m.dealer) != m.dealer:
                return "trick", _("{card} is the muestra, the dealer's last card: only {dealer} can play it",
                                  card=m.turned, dealer=dealer)
        return None

    # -- The counts ------------------------------------------------------------
    def won_tricks(self) -> Problem | None:
        """No more tricks than the pack makes."""
        most = self.size // self.n
        if self.played > most:
            return "won", _("{tricks} tricks won, where a deal of {rules} has {most}", tricks=self.played,
                            rules=self.spec, most=most)
        return None

    def stock(self) -> Problem | None:
        """A stock exactly where the ruleset has one, of the cards the tricks played leave in it."""
        m = self.m
        if self.first_stock is None:
            if m.stock is not None:
                return "stock", _("{rules} deals the whole pack: there is no stock, write -", rules=self.spec)
            return None
        left = max(self.first_stock - self.n * self.played, 0)
        if m.stock is None:
            return "stock", _("{rules} has a stock: write the cards left in it ({count})", rules=self.spec,
                              count=left)
        if m.stock != left:
            return "stock", ngettext("{count} cards in the stock, where {n} trick played leaves {expected} in the "
                                     "stock of {rules}",
                                     "{count} cards in the stock, where {n} tricks played leave {expected} in the "
                                     "stock of {rules}", self.played, count=m.stock, expected=left, rules=self.spec)
        return None

    def hands(self) -> Problem | None:
        """Each hand: the cards dealt, plus those drawn from the stock, less one a trick played and one if it has
        played to the trick on the table."""
        m, n = self.m, self.n
        low = self.r.hand_size - self.played
        extra = 0
        if self.first_stock is not None:
            rounds = self.first_stock // n  # draws of a card each
            low += min(self.played, rounds)
            extra = int(self.played > rounds and self.first_stock % n > 0)  # the last cards go to some seats only
        for seat, count in enumerate(self.sizes):
            fewest = low - (seat in self.table.values())
            if not fewest <= count <= fewest + extra:
                expected = str(fewest) if not extra else _("{low} or {high}", low=fewest, high=fewest + 1)
                return "hands", ngettext("{seat} holds {count} cards, where after {n} trick played {seat} holds "
                                         "{expected}",
                                         "{seat} holds {count} cards, where after {n} tricks played {seat} holds "
                                         "{expected}", self.played, seat=seat_words(self.names[seat]), count=count,
                                         expected=expected)
        out = self.size - n * self.played - len(m.trick) - (m.stock or 0)
        if sum(self.sizes) != out:
            return "hands", _("the hands hold {count} cards, where {expected} are left to play", count=sum(self.sizes),
                              expected=out)
        return None

    def turn(self) -> Problem | None:
        """The seat to play follows the trick's cards; a trick is led by mano at first, else by a seat of the side
        that won the last trick; a deal is over once every card is played, or at a tute."""
        m, names = self.m, self.names
        if m.turn is None:
            if m.trick:
                return "turn", _("the deal cannot be over with a trick on the table: write the seat to play")
            return self.ended()
        if not sum(self.sizes):
            return "turn", _("every card is played: the deal is over, write -")
        field, leader = ("trick", m.leader) if m.trick else ("turn", m.turn)
        if m.trick and m.turn != (m.leader + len(m.trick)) % self.n:
            return "turn", ngettext("{seat} plays next, after the card {leader} led",
                                    "{seat} plays next, after the {n} cards {leader} led",
                                    len(m.trick), seat=seat_words(names[(m.leader + len(m.trick)) % self.n]),
                                   leader=seat_words(names[m.leader]))
        mano = (m.dealer + 1) % self.n
        if not self.played and leader != mano and self.r.first_deal_leader_card is None:
            return field, _("{seat} cannot lead the first trick: {mano}, the seat after the dealer, leads it",
                            seat=seat_words(names[leader]), mano=seat_words(names[mano]))
        if self.played and not self.side_won(leader):
            return field, _("{seat} leads, so {side} won the last trick, yet it has won none",
                            seat=seat_words(names[leader]),
                            side=seat_words(self.r.side_labels[self.r.side_of(leader)]))
        return None

    def ended(self) -> Problem | None:
        """A deal over with cards in hand ended at a tute: some hand can hold four reyes or four caballos."""
        if not sum(self.sizes):
            return None
        if not self.played and not self.r.tute_at_first_lead:
            return "turn", _("no trick is played: the deal is not over, write the seat to play")
        seen = set(self.table) | self.stocked | ({self.turned} if self.in_stock else set())
        for seat, hand in enumerate(self.held):
            others = seen.union(*(h for s, h in enumerate(self.held) if s != seat))
            for rank in (REY, CABALLO):
                four = {card(rank, suit) for suit in range(4)}
                if not four & others and len(four - hand) <= self.m.unknown[seat]:
                    return None
        return "turn", _("the deal is over with cards in hand, which only a tute does, and no hand can hold four "
                         "reyes or four caballos")

    def won_points(self) -> Problem | None:
        """The card points of each side's tricks, and of all of them, within what the cards out of play hold."""
        m = self.m
        placed = set(self.table) | self.stocked | set().union(*self.held) | ({self.turned} if self.in_stock else set())
        loose = sorted(CARD_POINTS[c] for c in cards_in(self.deck) if c not in placed)
        """Points of the cards not written anywhere: in the won piles, or in a hand or the stock unseen."""

        def bounds(count: int) -> tuple[int, int]:
            """The fewest and the most points ``count`` of those cards hold."""
            return sum(loose[:count]), sum(loose[len(loose) - count:]) if count else 0

        for side, (tricks, points) in enumerate(zip(m.tricks, m.card_points)):
            low, high = bounds(tricks * self.n)
            if not low <= points <= high:
                return "won", ngettext("{side} won {points} card points in {n} trick, where the cards out of play "
                                       "allow {low} to {high}",
                                       "{side} won {points} card points in {n} tricks, where the cards out of play "
                                       "allow {low} to {high}", tricks, side=seat_words(self.r.side_labels[side]),
                                       points=points,
                                       low=low, high=high)
        low, high = bounds(self.played * self.n)
        if not low <= sum(m.card_points) <= high:
            return "won", _("the sides won {points} card points in all, where the cards out of play hold {low} to "
                            "{high}", points=sum(m.card_points), low=low, high=high)
        return None

    # -- The declarations ------------------------------------------------------
    def cantes(self) -> Problem | None:
        """A cante scores what the ruleset gives (the 40 in trump), once a suit, by a side that won a trick, at
        most ``cantes_per_trick`` after each; its rey and caballo stay with the singer until played."""
        m, r, names = self.m, self.r, self.names
        sung: set[str] = set()
        per_side = [0] * r.sides
        for seat, points, suit in m.cantes:
            value = r.cuarenta_points if suit == m.trump else r.cante_points
            if points != value:
                return "declarations", _("a cante in {suit} scores {value} under {rules}, not {points}", suit=suit,
                                         value=value, rules=self.spec, points=points)
            if suit in sung:
                return "declarations", _("{suit} is sung twice: a suit is sung once a deal", suit=suit)
            sung.add(suit)
            side = r.side_of(seat)
            if not m.tricks[side]:
                return "declarations", _("{seat} sings, yet {side} has won no trick: a cante follows a won trick",
                                         seat=seat_words(names[seat]), side=seat_words(r.side_labels[side]))
            per_side[side] += 1
            if per_side[side] > m.tricks[side] * r.cantes_per_trick:
                return "declarations", _("{side} sang {count} cantes, more than {most}: {rules} allows {per} after "
                                         "each won trick", side=seat_words(r.side_labels[side]), count=per_side[side],
                                         most=m.tricks[side] * r.cantes_per_trick, rules=self.spec,
                                         per=r.cantes_per_trick)
            for shown in (card(REY, SUIT_LETTERS.index(suit)), card(CABALLO, SUIT_LETTERS.index(suit))):
                holder, player = self.seat_of(shown), self.table.get(shown, seat)
                if not self.deck >> shown & 1:
                    return "declarations", _("{rules} has no rey and caballo of {suit} to sing", rules=self.spec,
                                             suit=suit)
                if holder not in (None, seat) or player != seat:
                    return "declarations", _("{card} was shown in {seat}'s cante: only {seat} can hold or play it",
                                             card=card_words(shown), seat=seat_words(names[seat]))
                if shown in self.stocked:
                    return "declarations", _("{card} was shown in {seat}'s cante: it cannot be in the stock",
                                             card=card_words(shown), seat=seat_words(names[seat]))
        return None

    def exchanges(self) -> Problem | None:
        """An exchange gives the 7 or the 2 of trump the ruleset lets go, once each, for a muestra of a rank it
        allows, from the seat leading after its side won a trick (or mano, where the first lead allows it); the
        card given is the muestra then."""
        m, r, names = self.m, self.r, self.names
        allowed = {7: r.exchange_seven_for if r.exchange_seven else None,
                   2: r.exchange_two_for if r.exchange_two else None}
        given: list[int] = []
        for seat, code in m.exchanges:
            c = card_from_code(code)
            ranks = allowed.get(CARD_RANK[c])
            if self.first_stock is None or ranks is None or CARD_SUIT[c] != self.trump:
                return "declarations", _("{card} cannot be exchanged under {rules}", card=code, rules=self.spec)
            if c in given:
                return "declarations", _("{card} is exchanged twice", card=code)
            if given and CARD_RANK[given[-1]] not in ranks:
                return "declarations", _("{card} cannot be exchanged for the muestra {turned} under {rules}",
                                         card=code, turned=card_words(given[-1]), rules=self.spec)
            first_lead = r.exchange_at_first_lead and (seat == (m.dealer + 1) % self.n
                                                       or r.first_deal_leader_card is not None)
            if not self.side_won(seat) and not first_lead:
                return "declarations", _("{seat} exchanges, yet {side} has won no trick: an exchange is made on "
                                         "leading after a won trick", seat=seat_words(names[seat]),
                                         side=seat_words(r.side_labels[r.side_of(seat)]))
            given.append(c)
        if m.exchanges and m.exchanges[-1][1] != m.turned:
            return "muestra", _("after the exchange of {card} the muestra is {card}, not {turned}",
                                card=m.exchanges[-1][1], turned=m.turned)
        return None

