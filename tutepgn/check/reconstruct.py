"""A deal with a stock, rebuilt from its play: some dealing and stock order that makes every event possible.

A scorer at a table of two sees the cards played, the cantes shown and the
exchanges, never the face-down stock.  :func:`reconstruct` decides exactly
whether **some** dealing and stock order makes every event of a record
possible (each seat held the card when it played it or showed it in a cante,
tute or exchange; each seat draws one card per trick while the stock lasts,
the winner first; the turned card, or the card an exchange put in its place,
is drawn last), and gives one such order, or the first event no order makes
possible and why.

It is a bipartite matching, not a search over orders.  A card whose origin
is unknown goes into a *slot*: a place in a seat's dealt hand (time 0) or a
stock position, which the trick winners of the record give to one seat after
one trick (time *k*).  A card first seen in a seat's hand after *k* tricks
fits that seat's slots of time at most *k*; a card never seen fits any.  Each
card's slots are an interval of one seat's slots in time, so a matching
exists exactly when the earliest-deadline greedy (Glover's algorithm for
convex bipartite graphs) places every card, checked seat by seat as each
event shows a new card.  A card whose place is known (the turned card, a card
given in an exchange, a card of the ``Deal`` or ``Stock`` tag) is followed
event by event instead.  The order returned brings each card as late as the
play allows, so that no hand holds more than the record proves.

Rules that depend on the hidden order (``forty_first``, ``forfeit_unsung_cantes``
and torofun-2p's ``no_declare_with_last_drawn``) are then judged on the
engine's replay of the rebuilt deal: an event one of them refuses is accepted
when some order makes it legal (the decision ``hidden_cards_in_the_players_favour``),
and a cante or tute of the seat that drew last is reported in
:attr:`Reconstruction.undecidable` when the record does not determine whether
the card drawn last is one of its cards.

>>> from tutepgn.rules import preset
>>> from tutepgn.recording.simulate import deal_records
>>> record = next(deal_records(preset("torofun-2p"), 1, seed=4))
>>> header = record.header()
>>> found = reconstruct(header.rules, record.events, dealer=header.dealer, turned=header.turned)
>>> found.possible, len(found.stock), found.stock[-1] == header.turned
(True, 24, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from heapq import heappop, heappush

from ..cards import CABALLO, CARD_SUIT, REY, Card, Mask, card, card_from_code, cards_in, pack, suit_from_letter
from ..declarations import CANTE_PAIRS, FOURS
from ..engine import Deal
from ..events import Action, Cante, Play, Tute
from ..words import seat_words, card_words, cards_words
from ..i18n import N_, Later, gettext as _
from ..rules import Ruleset
from .replay import replay

__all__ = ["HIDDEN_RULES", "Reconstruction", "reconstruct"]

UNSEEN, GONE, STOCK, OUT = -1, -2, -3, -4
"""Where a card is during the scan (a seat number when in that seat's hand): not seen yet and of unknown origin,
played, in the stock at a known position, not in this ruleset's pack."""

HIDDEN_RULES = ("forty_first", "forfeit_unsung_cantes", "no_declare_with_last_drawn")
"""The engine's refusals that depend on cards no event shows: judged in the record's favour when some order allows."""


@dataclass(frozen=True)
class Reconstruction:
    """What :func:`reconstruct` found: a consistent deal, or the first impossible event.

    ``hands`` (one mask per seat) and ``stock`` (its last card the turned
    card) are None when no order makes the record possible: ``impossible`` is
    then the 0-based index of the first event no order allows, and ``reason``
    says why in words.  ``undecidable`` holds the indexes of the cantes and
    tutes that ``no_declare_with_last_drawn`` would judge on a card the record
    does not determine (taken as allowed).
    """

    rules: Ruleset
    dealer: int
    turned: Card
    first_of_match: bool
    hands: tuple[Mask, ...] | None
    stock: tuple[Card, ...] | None
    impossible: int | None = None
    reason: str = ""
    undecidable: tuple[int, ...] = ()

    @property
    def possible(self) -> bool:
        """True when some dealing and stock order makes every event possible."""
        return self.hands is not None

    def deal(self) -> Deal:
        """The engine deal at its start, with the rebuilt hands and stock (``ValueError`` when impossible)."""
        if self.hands is None or self.stock is None:
            raise ValueError(_("no dealing makes event {event} possible: {reason}", event=self.impossible,
                               reason=self.reason))
        return Deal(self.rules, list(self.hands), list(self.stock), self.turned, self.dealer,
                    first_of_match=self.first_of_match)


def reconstruct(rules: Ruleset, events: Sequence[Action], *, dealer: int, turned: Card,
                hands: Sequence[Mask] | None = None, stock: Sequence[Card] | None = None,
                first_of_match: bool = False) -> Reconstruction:
    """Find a dealing and stock order that make every event of a deal with a stock possible, or the first event
    none does.

    ``hands`` (the Deal tag) or ``stock`` (the Stock tag, its last card the
    turned card) may be given when known; the rest is rebuilt.  Works on a
    record cut short too: the events so far must be possible, cards never seen
    are placed anywhere.  Deterministic: the same events give the same order.
    Raises ``ValueError`` when the ruleset has no stock or the known cards
    cannot be a deal's (a hand of the wrong size, a card twice).
    """
    if rules.trump_card != "stock_bottom":
        raise ValueError(_("{preset} deals without a stock: every hand is known from the play", preset=rules.preset))
    scan = _Scan(rules, dealer, turned, hands, stock, first_of_match)
    for index, event in enumerate(events):
        if scan.tricks * rules.players >= rules.deck_size:
            break  # every card is played: what follows is after the end, which the engine reports
        reason = scan.step(event)
        if reason:
            return Reconstruction(rules, dealer, turned, first_of_match, None, None, index, reason)
    scan.time_of += [scan.tricks] * (len(events) - len(scan.time_of))
    found = scan.solution()
    found, undecidable = _judge_hidden(scan, found, events)
    return Reconstruction(rules, dealer, turned, first_of_match, found[0], found[1], undecidable=undecidable)


# ---------------------------------------------------------------------------
# The matching.


def _earliest_deadline(slots: Sequence[int], cards: Sequence[tuple[int, int, Card]]) -> list[int] | Card:
    """Give each card (lo, hi, card) a slot whose time is within [lo, hi]; slots are times in increasing order.

    Glover's greedy: each slot in turn takes, of the cards it may hold, the one
    whose deadline comes first.  Returns each card's slot index, or the first
    card left without one (no matching exists).
    """
    order = sorted(range(len(cards)), key=lambda i: cards[i][0])
    heap: list[tuple[int, Card, int]] = []
    placed = [-1] * len(cards)
    j = 0
    for s, time in enumerate(slots):
        while j < len(order) and cards[order[j]][0] <= time:
            i = order[j]
            heappush(heap, (cards[i][1], cards[i][2], i))
            j += 1
        if heap:
            if heap[0][0] < time:
                return heap[0][1]
            placed[heappop(heap)[2]] = s
    if heap:
        return heap[0][1]
    if j < len(order):
        return cards[order[j]][2]
    return placed


def _latest(slots: Sequence[int], cards: Sequence[tuple[int, int, Card]]) -> list[int] | Card:
    """The same matching with each card as late as it can come: the earliest-deadline greedy with time reversed."""
    last = len(slots) - 1
    placed = _earliest_deadline([-t for t in reversed(slots)], [(-hi, -lo, c) for lo, hi, c in cards])
    return placed if isinstance(placed, int) else [last - s for s in placed]


# ---------------------------------------------------------------------------
# The scan of the events.


def _after(tricks: int) -> Later:
    """When an event came, in words: the number of tricks played before it."""
    return Later(N_("after trick {trick}"), trick=tricks) if tricks else Later(N_("before the first trick"))


HOW = {"play": N_("play"), "show": N_("show"), "give": N_("give")}
"""What a seat does with a card, as a refusal says it cannot."""


@dataclass
class _Scan:
    """The events read in order: where each card is, what each seat must have held by when, the slots."""

    rules: Ruleset
    dealer: int
    turned: Card
    hands: Sequence[Mask] | None
    stock: Sequence[Card] | None
    first_of_match: bool
    loc: list[int] = field(default_factory=lambda: [OUT] * 40)
    why: list[Later | str] = field(default_factory=lambda: [""] * 40)
    lo: list[int] = field(default_factory=lambda: [0] * 40)
    hi: list[int] = field(default_factory=lambda: [0] * 40)
    needs: list[list[Card]] = field(default_factory=list)
    slots: list[list[int]] = field(default_factory=list)
    slot_places: list[list[int]] = field(default_factory=list)
    pile: list[Card | None] = field(default_factory=list)
    time_of: list[int] = field(default_factory=list)
    last_draw: dict[int, int] = field(default_factory=dict)
    last_draw_time: int = -1
    no_dealt_lead: Card | None = None
    led: bool = False
    """The first event is read: in a first deal with a leader card, its seat is the leader."""
    tricks: int = 0
    stock_pos: int = 0
    trick: list[tuple[int, Card]] = field(default_factory=list)
    trump: int = field(init=False)

    def __post_init__(self) -> None:
        r = self.rules
        n, size = r.players, r.hand_size
        names = r.seat_names
        self.trump = (suit_from_letter(r.first_deal_trump) if self.first_of_match and r.first_deal_trump
                      else CARD_SUIT[self.turned])
        length = r.deck_size - n * size
        in_pack = pack(r.removed_ranks)
        c: Card | None  # a card, then a place of the pile (None: not known)
        for c in cards_in(in_pack):
            self.loc[c] = UNSEEN
        self.needs = [[] for _ in range(n)]
        self.slots = [[] for _ in range(n)]
        self.slot_places = [[] for _ in range(n)]
        if self.stock is not None:
            if len(self.stock) != length or self.stock[-1] != self.turned:
                raise ValueError(_("the stock holds {n} cards, the turned card last", n=length))
            self.pile = list(self.stock)
        else:
            self.pile = [None] * (length - 1) + [self.turned]
        for p, c in enumerate(self.pile):
            if c is not None:
                self._known(c, STOCK, Later(N_("it is the turned card, under the stock until the last draw"))
                            if p == length - 1 else Later(N_("the Stock tag holds it at position {n}"), n=p + 1))
        for seat in range(n):
            if self.hands is None:
                self.slots[seat] = [0] * size
                self.slot_places[seat] = [-1] * size
                continue
            if self.hands[seat].bit_count() != size:
                raise ValueError(_("{seat} is dealt {n} cards, not {size}", seat=seat_words(names[seat]),
                                   n=self.hands[seat].bit_count(), size=size))
            for c in cards_in(self.hands[seat]):
                self._known(c, seat, Later(N_("the Deal tag deals it to {seat}"), seat=seat_words(names[seat])))
        if sum(len(s) for s in self.slots) + self.pile.count(None) != self.loc.count(UNSEEN):
            raise ValueError(_("the known cards and the cards to place do not make one pack"))

    def _known(self, c: Card, where: int, why: Later) -> None:
        if self.loc[c] == OUT:
            raise ValueError(_("{card} is not in the pack of {preset}", card=card_words(c), preset=self.rules.preset))
        if self.loc[c] != UNSEEN:
            raise ValueError(_("{card} is dealt twice: {why}, and {other}", card=card_words(c), why=self.why[c],
                               other=why))
        self.loc[c], self.why[c] = where, why

    # -- Events ----------------------------------------------------------------
    def step(self, event: Action) -> str | None:
        """Read one event; the reason no order makes it possible, or None."""
        self.time_of.append(self.tricks)
        seat = event.seat
        if not self.led and self.rules.first_deal_leader_card and self.first_of_match:
            # The first seat to act leads (a tute or an exchange before the first trick is the leader's too),
            # and a deal may end at such a tute before any card is played.
            self.led = True
            reason = self._first_leader(seat)
            if reason:
                return reason
        if isinstance(event, Play):
            reason = self._hold(event.card, seat, "play")
            if reason:
                return reason
            self.loc[event.card] = GONE
            self.why[event.card] = Later(N_("{seat} played it in trick {trick}"),
                                         seat=seat_words(self.rules.seat_names[seat]),
                                         trick=self.tricks + 1)
            self.trick.append((seat, event.card))
            if len(self.trick) == self.rules.players:
                self._finish_trick()
            return None
        if isinstance(event, Cante):
            return self._hold_all(CANTE_PAIRS[event.suit], seat, "show")
        if isinstance(event, Tute):
            return self._hold_all(FOURS.get(event.rank, 0), seat, "show")
        reason = self._hold(event.card, seat, "give")
        if reason is None and self.stock_pos < len(self.pile):
            self._exchange(seat, event.card)
        return reason

    def _hold_all(self, cards: Mask, seat: int, how: str) -> str | None:
        for c in cards_in(cards):
            reason = self._hold(c, seat, how)
            if reason:
                return reason
        return None

    def _hold(self, c: Card, seat: int, how: str) -> str | None:
        """``seat`` holds ``c`` now: a new need of a card not seen before, checked by the matching."""
        where = self.loc[c]
        if where == seat:
            return None
        names = self.rules.seat_names
        who = seat_words(names[seat])
        code = card_words(c)
        if where == UNSEEN:
            self.loc[c] = seat
            self.hi[c] = self.tricks
            # Mano led a first deal with a leader card: the other seat was not dealt it.
            self.lo[c] = int(c == self.no_dealt_lead and seat != (self.dealer + 1) % self.rules.players)
            self.needs[seat].append(c)
            self.why[c] = (Later(N_("{seat} played it {when}"), seat=who, when=_after(self.tricks)) if how == "play"
                           else Later(N_("{seat} showed it {when}"), seat=who, when=_after(self.tricks)))
            if self.fits(seat):
                return None
            return self._too_many(seat, c)
        if where == GONE:
            return _("{seat} cannot {how} {card}: {why}", seat=who, how=_(HOW[how]), card=code, why=self.why[c])
        if where == STOCK:
            return _("{seat} cannot {how} {card}: it is still in the stock ({why})", seat=who, how=_(HOW[how]),
                     card=code, why=self.why[c])
        if where == OUT:
            return _("{card} is not in the pack of {preset}", card=code, preset=self.rules.preset)
        return _("{seat} cannot {how} {card}: {holder} holds it ({why})", seat=who, how=_(HOW[how]), card=code,
                 holder=seat_words(names[where]), why=self.why[c])

    def _too_many(self, seat: int, c: Card) -> str:
        """Why a new need breaks the matching: more cards by some time than the seat can have received."""
        names = self.rules.seat_names
        slots = self.slots[seat]
        for time in sorted({self.hi[x] for x in self.needs[seat]}):
            shown = [x for x in self.needs[seat] if self.hi[x] <= time]
            room = sum(1 for t in slots if t <= time)
            if len(shown) > room and self.hands is not None:
                return _("{seat} cannot hold {card}: the Deal tag does not deal it to {seat}, which would have drawn "
                         "{n} cards {when} ({cards}) but drew only {room}", seat=seat_words(names[seat]),
                         card=card_words(c),
                         n=len(shown), when=_after(time), cards=cards_words(sorted(shown)), room=room)
            if len(shown) > room:
                dealt = sum(1 for t in slots if t == 0)
                return _("{seat} cannot hold {card}: it would have held {n} cards of unknown origin {when} ({cards}), "
                         "but received only {room} ({dealt} dealt, {drawn} drawn)", seat=seat_words(names[seat]),
                         card=card_words(c),
                         n=len(shown), when=_after(time), cards=cards_words(sorted(shown)), room=room,
                         dealt=dealt, drawn=room - dealt)
        return _("{seat} cannot hold {card} with the other cards it showed", seat=seat_words(names[seat]),
                 card=card_words(c))

    def _first_leader(self, seat: int) -> str | None:
        """In a first deal with a leader card, the first leader holds it, or the other seat does not when mano leads."""
        code = self.rules.first_deal_leader_card or ""
        lead = card_from_code(code)
        if seat == (self.dealer + 1) % self.rules.players:
            self.no_dealt_lead = lead
            return None
        reason = self._hold(lead, seat, "show")
        return reason and _("{seat} leads the first trick of the match, so it holds {card}: {reason}",
                            seat=seat_words(self.rules.seat_names[seat]), card=code, reason=reason)

    def _finish_trick(self) -> None:
        best = 0
        c: Card | None  # a card of the trick, then a place of the pile (None: not known)
        for i in range(1, len(self.trick)):
            c, w = self.trick[i][1], self.trick[best][1]
            if CARD_SUIT[c] == CARD_SUIT[w] and c > w or CARD_SUIT[c] == self.trump != CARD_SUIT[w]:
                best = i
        winner = self.trick[best][0]
        self.trick = []
        self.tricks += 1
        n = self.rules.players
        drawn: dict[int, int] = {}
        for i in range(n):
            if self.stock_pos >= len(self.pile):
                break
            seat = (winner + i) % n
            c = self.pile[self.stock_pos]
            if c is None:
                self.slots[seat].append(self.tricks)
                self.slot_places[seat].append(self.stock_pos)
            else:
                self.loc[c] = seat
                self.why[c] = Later(N_("{seat} drew it from the stock after trick {trick}"),
                                    seat=seat_words(self.rules.seat_names[seat]), trick=self.tricks)
            drawn[seat] = self.stock_pos
            self.stock_pos += 1
        if drawn and self.stock_pos == len(self.pile):
            self.last_draw, self.last_draw_time = drawn, self.tricks

    def _exchange(self, seat: int, c: Card) -> None:
        """The card given goes under the stock; the turned card comes to the seat's hand."""
        names = self.rules.seat_names
        bottom = self.pile[-1]
        assert bottom is not None
        self.loc[bottom] = seat
        self.why[bottom] = Later(N_("{seat} took it in exchange for {card} {when}"), seat=seat_words(names[seat]),
                                 card=card_words(c),
                                 when=_after(self.tricks))
        self.pile[-1] = c
        self.loc[c] = STOCK
        self.why[c] = Later(N_("{seat} gave it in an exchange {when}, to be drawn last"), seat=seat_words(names[seat]),
                            when=_after(self.tricks))

    # -- The matching over the slots -------------------------------------------
    def _cards(self, seat: int) -> list[tuple[int, int, Card]]:
        return [(self.lo[c], self.hi[c], c) for c in self.needs[seat]]

    def fits(self, seat: int) -> bool:
        """Every card the seat must have held fits one of its slots in time (a matching exists)."""
        return not isinstance(_earliest_deadline(self.slots[seat], self._cards(seat)), int)

    def solution(self) -> tuple[tuple[Mask, ...], tuple[Card, ...]]:
        """The hands and the stock: each seat's needed cards as late as they can come, the unseen cards in the
        slots left, lowest card first."""
        n = self.rules.players
        hands = [0] * n if self.hands is None else list(self.hands)
        pile = list(self.pile)
        pile[-1] = self.turned
        free_slots: list[tuple[int, int]] = []
        for seat in range(n):
            cards = self._cards(seat)
            placed = _latest(self.slots[seat], cards)
            assert not isinstance(placed, int), "solution() after an impossible event"
            taken = set(placed)
            for (_time, _kind, c), s in zip(cards, placed):
                self._put(hands, pile, seat, s, c)
            free_slots.extend((seat, s) for s in range(len(self.slots[seat])) if s not in taken)
        # The cards never seen fill the slots left and the stock positions no trick of the record drew yet.
        places = free_slots + [(-1, p) for p in range(self.stock_pos, len(pile)) if pile[p] is None]
        unseen = [c for c in range(40) if self.loc[c] == UNSEEN]
        lead = self.no_dealt_lead
        if lead in unseen:  # mano led a first deal with a leader card: the other seat was not dealt it
            other = (self.dealer + 2) % n
            places.sort(key=lambda place: place[0] == other and self.slots[other][place[1]] == 0)
            unseen.remove(lead)
            unseen.insert(0, lead)
        for (seat, s), c in zip(places, unseen):
            if seat < 0:
                pile[s] = c
            else:
                self._put(hands, pile, seat, s, c)
        stock = [c for c in pile if c is not None]
        assert len(stock) == len(pile)
        return tuple(hands), tuple(stock)

    def _put(self, hands: list[Mask], pile: list[Card | None], seat: int, s: int, c: Card) -> None:
        place = self.slot_places[seat][s]
        if place < 0:
            hands[seat] |= 1 << c
        else:
            pile[place] = c


# ---------------------------------------------------------------------------
# Rules on hidden cards.


def _judge_hidden(scan: _Scan, found: tuple[tuple[Mask, ...], tuple[Card, ...]], events: Sequence[Action]
                  ) -> tuple[tuple[tuple[Mask, ...], tuple[Card, ...]], tuple[int, ...]]:
    """Replay the rebuilt deal; lift each refusal that depends on hidden cards when some order allows the event.

    Each lift is one more constraint on when a card came (so later lifts keep
    earlier ones), added only when the matching still exists with it.  Then
    the undecidable last-draw judgements: a cante or tute the engine accepts,
    after the last draw, by a seat whose card drawn last the record does not fix.
    """
    if not any(getattr(scan.rules, option) for option in HIDDEN_RULES):
        return found, ()
    kept: set[int] = set()
    base = (list(scan.lo), list(scan.hi))
    while True:
        refusals = _refusals(scan, found, events)
        step = next(((i, rule, at) for i, rule, at in refusals if rule in HIDDEN_RULES and i not in kept), None)
        if step is None:
            break
        index, rule, lost_at = step
        if _lift(scan, events[index], rule, scan.time_of[index] if lost_at is None else lost_at):
            found = scan.solution()
        else:
            kept.add(index)
    refused = {i for i, _, _ in refusals}
    scan.lo, scan.hi = base  # what the record alone determines
    return found, tuple(i for i, e in enumerate(events) if i not in refused and _last_draw_open(scan, e, scan.time_of[i]))


def _refusals(scan: _Scan, found: tuple[tuple[Mask, ...], tuple[Card, ...]], events: Sequence[Action]
              ) -> list[tuple[int, str, int | None]]:
    """Every event the engine refuses on the rebuilt deal: its index, its rule, and for a forfeited cante the
    number of tricks after which the suit was lost."""
    deal = Deal(scan.rules, list(found[0]), list(found[1]), scan.turned, scan.dealer,
                first_of_match=scan.first_of_match)
    lost_at: dict[tuple[int, int], int] = {}
    out = []
    for step in replay(deal, events):
        if len(lost_at) < len(deal.lost_cantes):
            for key in deal.lost_cantes - lost_at.keys():
                lost_at[key] = len(deal.tricks)
        if step.error is not None:
            event = step.event
            at = lost_at.get((deal.side_of(event.seat), event.suit)) if type(event) is Cante else None
            out.append((step.index, step.error.rule, at))
    return out


def _shown(event: Cante | Tute) -> Mask:
    """The cards a cante or a tute shows."""
    return CANTE_PAIRS[event.suit] if isinstance(event, Cante) else FOURS.get(event.rank, 0)


def _lift(scan: _Scan, event: Action, rule: str, time: int) -> bool:
    """Add a constraint under which the event is no longer refused, if the matching still exists with it."""
    assert isinstance(event, (Cante, Tute)), "the hidden-card rules refuse declarations only"
    seat = event.seat
    if rule == "no_declare_with_last_drawn":  # none of the cards shown came in the last draw
        return seat in scan.last_draw and _try(scan, seat, [(c, None, scan.last_draw_time - 1)
                                                            for c in cards_in(_shown(event)) if c in scan.needs[seat]])
    if rule == "forty_first":
        suit = scan.trump
    else:
        assert isinstance(event, Cante), "forfeit_unsung_cantes refuses a cante only"
        suit = event.suit
    for c in (card(REY, suit), card(CABALLO, suit)):  # one of the pair came after that moment
        if c in scan.needs[seat] and _try(scan, seat, [(c, time + 1, None)]):
            return True
    return False


def _try(scan: _Scan, seat: int, changes: list[tuple[Card, int | None, int | None]], keep: bool = True) -> bool:
    """Tighten the intervals of some of the seat's cards; whether its matching still exists so.  The change is
    kept when it does and ``keep`` is true, else undone."""
    before = [(c, scan.lo[c], scan.hi[c]) for c, _, _ in changes]
    for c, lo, hi in changes:
        scan.lo[c] = scan.lo[c] if lo is None else max(scan.lo[c], lo)
        scan.hi[c] = scan.hi[c] if hi is None else min(scan.hi[c], hi)
    ok = bool(changes) and all(scan.lo[c] <= scan.hi[c] for c, _, _ in changes) and scan.fits(seat)
    if not (ok and keep):
        for c, lo, hi in before:
            scan.lo[c], scan.hi[c] = lo, hi
    return ok


def _last_draw_open(scan: _Scan, event: Action, time: int) -> bool:
    """Whether ``no_declare_with_last_drawn`` needs a card the record does not fix to judge this event: the seat
    drew a card of unknown origin last, and some order puts one of the event's cards there and some order none.
    Each is decided by the matching: a card forced into that slot, or every card kept out of it."""
    seat = event.seat
    if (not scan.rules.no_declare_with_last_drawn or not isinstance(event, (Cante, Tute)) or seat not in scan.last_draw
            or scan.pile[scan.last_draw[seat]] is not None or time < scan.last_draw_time):
        return False
    last = scan.last_draw_time
    candidates = [c for c in cards_in(_shown(event)) if c in scan.needs[seat] and scan.lo[c] <= last <= scan.hi[c]]
    inside = any(_try(scan, seat, [(c, last, last)], keep=False) for c in candidates)
    return inside and _try(scan, seat, [(c, None, last - 1) for c in candidates], keep=False)
