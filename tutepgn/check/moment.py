"""The position string: one moment of a deal on one line, like chess's FEN (docs/notation.md, "Position strings").

Nine fields separated by single spaces::

    torofun-2p S 4B 1O3O12E/2O1E*2 N:7C 1.14/0.0 N20E,Sx7B 12:1C3E...4B S

1. the ruleset (the Rules tag's value, its spaces written ``+``);
2. the dealer's seat letter;
3. the muestra: the turned card (``4B``), written ``O:4B`` when the trump is not the turned card's suit;
4. the hands in seat order, separated by ``/``: card codes one after the other, then ``*n`` for ``n`` cards
   not known (a seat's view), ``-`` for an empty hand;
5. the trick in progress: ``-``, or its leader's letter, ``:`` and the cards played so far in order;
6. per side (``/``-separated), tricks won ``.`` card points won;
7. the declarations made: ``-``, or comma-separated cantes (seat, points scored, suit: ``N40B``, ``S20E``)
   and exchanges (seat, ``x``, the card given: ``Sx7B``);
8. the stock (2 players): ``-`` without one, else the cards left (the muestra included) and, when the
   order is known, ``:`` and those cards, next to draw first;
9. the seat to play, ``-`` once the deal is over.

:meth:`Moment.of` writes a deal as it stands, :meth:`Moment.parse` reads the text back, :meth:`Moment.frame`
gives the :class:`~tutepgn.check.replay.Frame` a viewer shows.

>>> from tutepgn.recording.simulate import deal_records
>>> from tutepgn.rules import preset
>>> record = next(deal_records(preset("playcard-2p"), 1, seed=3))
>>> texts = positions(record)
>>> all(Moment.parse(t).text() == t for t in texts), texts[-1].endswith(" -")
(True, True)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..cards import CODES, SUIT_LETTERS, CardSet, card_from_code
from ..engine import Deal
from ..errors import NotationError, TuteError
from ..events import Cante, Context, Exchange
from ..i18n import N_, gettext as _
from ..notation import Record, rules_of
from ..rules import Ruleset
from .possible import impossible
from .replay import Frame, replay

CARD = r"(?:1[0-2]|[1-7])[OCEB]"
_CARDS = re.compile(f"({CARD})")
_HAND = re.compile(rf"((?:{CARD})*)(?:\*(\d{{1,2}}))?")
_DECLARATION = re.compile(rf"([A-Z])(?:(\d{{1,3}})([OCEB])|x({CARD}))")
FIELDS = ("rules", "dealer", "muestra", "hands", "trick", "won", "declarations", "stock", "turn")
"""The fields of a position string, in order."""


@dataclass(frozen=True, slots=True)
class Moment:
    """One moment of a deal: what a position string says, seats as numbers and cards as codes."""

    rules: Ruleset
    dealer: int
    trump: str
    turned: str
    hands: tuple[tuple[str, ...], ...]
    unknown: tuple[int, ...]
    leader: int
    trick: tuple[str, ...]
    tricks: tuple[int, ...]
    card_points: tuple[int, ...]
    cantes: tuple[tuple[int, int, str], ...]
    exchanges: tuple[tuple[int, str], ...]
    stock: int | None
    stock_cards: tuple[str, ...] | None
    turn: int | None

    @classmethod
    def of(cls, deal: Deal, seat: int | None = None) -> Moment:
        """The deal as it stands; with ``seat``, as that seat sees it (the other hands and the stock's order
        unknown)."""
        n = deal.rules.players
        hands = [tuple(CardSet(deal.hands[s]).codes()) for s in range(n)]
        unknown = [0] * n
        if seat is not None:
            for s in range(n):
                if s != seat:
                    unknown[s], hands[s] = len(hands[s]), ()
        stock = deal.stock_left if deal.initial_stock else None
        shown = None if stock is None or seat is not None else tuple(CODES[c] for c in deal.stock[deal.stock_pos:])
        return cls(
            rules=deal.rules, dealer=deal.dealer, trump=SUIT_LETTERS[deal.trump], turned=CODES[deal.turned],
            hands=tuple(hands), unknown=tuple(unknown), leader=deal.leader if deal.trick else 0,
            trick=tuple(CODES[c] for c in deal.trick), tricks=tuple(deal.wins), card_points=tuple(deal.won_points),
            cantes=tuple((c.seat, c.points, SUIT_LETTERS[c.suit]) for c in deal.cantes),
            exchanges=tuple((e.seat, CODES[e.card]) for e in deal.log if type(e) is Exchange),
            stock=stock, stock_cards=shown, turn=None if deal.over else deal.turn)

    def text(self) -> str:
        """The position string."""
        names = self.rules.seat_names
        muestra = self.turned if self.turned[-1] == self.trump else f"{self.trump}:{self.turned}"
        hands = "/".join(("".join(h) + (f"*{u}" if u else "")) or "-" for h, u in zip(self.hands, self.unknown))
        trick = f"{names[self.leader]}:{''.join(self.trick)}" if self.trick else "-"
        won = "/".join(f"{t}.{p}" for t, p in zip(self.tricks, self.card_points))
        said = [f"{names[s]}{p}{suit}" for s, p, suit in self.cantes] + [f"{names[s]}x{c}" for s, c in self.exchanges]
        stock = "-" if self.stock is None else str(self.stock) + (
            ":" + "".join(self.stock_cards) if self.stock_cards is not None else "")
        turn = "-" if self.turn is None else names[self.turn]
        return " ".join((self.rules.spec.replace(" ", "+"), names[self.dealer], muestra, hands, trick, won,
                         ",".join(said) or "-", stock, turn))

    __str__ = text

    def __repr__(self) -> str:
        """The call that reads it back: ``Moment.parse('...')`` with its position string."""
        return f"Moment.parse({self.text()!r})"

    @classmethod
    def parse(cls, text: str) -> Moment:
        """Read a position string; :class:`~tutepgn.errors.NotationError` (line 1, the column of the field)
        says what is wrong."""
        return _Reader(text).moment()

    def cante_points(self) -> tuple[int, ...]:
        """Points sung so far, per side."""
        points = [0] * self.rules.sides
        for seat, value, _suit in self.cantes:
            points[self.rules.side_of(seat)] += value
        return tuple(points)

    def frame(self) -> Frame:
        """What a viewer shows at this moment (a card not known is ``?``; the score sheet waits for the
        record: no totals)."""
        names = self.rules.seat_names
        ctx = Context(seats=names, trump=SUIT_LETTERS.index(self.trump))
        return Frame(
            index=0, event=None, text="", seats=names, sides=self.rules.side_labels,
            hands=tuple(h + ("?",) * u for h, u in zip(self.hands, self.unknown)),
            table=tuple((names[(self.leader + i) % len(names)], c) for i, c in enumerate(self.trick)),
            winner=None, trick_points=None, trick_no=sum(self.tricks) + (1 if self.trick else 0),
            to_move=None if self.turn is None else names[self.turn], trump=self.trump, turned=self.turned,
            stock=self.stock, card_points=self.card_points, cante_points=self.cante_points(),
            cantes=tuple(Cante(s, SUIT_LETTERS.index(suit)).text(ctx) for s, _p, suit in self.cantes),
            exchanges=tuple(Exchange(s, card_from_code(c)).text(ctx) for s, c in self.exchanges),
            over=self.turn is None)


def positions(record: Record, seat: int | None = None) -> list[str]:
    """The position string of each frame of a record (:func:`~tutepgn.check.replay.frames`' order: the start, then
    after each event)."""
    deal = record.header().deal()
    out = [Moment.of(deal, seat).text()]
    for _step in replay(deal, record.events):
        out.append(Moment.of(deal, seat).text())
    return out


class _Reader:
    """One position string read field by field, each error placed at its field's column."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.fields = text.split(" ")
        self.starts = [0]
        for field in self.fields[:-1]:
            self.starts.append(self.starts[-1] + len(field) + 1)

    def fail(self, index: int, message: str) -> NotationError:
        return NotationError(_("position string, field {n} ({field}): {message}", n=index + 1, field=FIELDS[index],
                               message=message), line=1,
                             column=self.starts[min(index, len(self.starts) - 1)] + 1, text=self.text[:200])

    def seat(self, index: int, letter: str, names: tuple[str, ...]) -> int:
        if letter not in names:
            raise self.fail(index, _("{letter!r} is not a seat here; seats are {seats}", letter=letter,
                                     seats=" ".join(names)))
        return names.index(letter)

    def cards(self, index: int, text: str) -> tuple[str, ...]:
        found = tuple(_CARDS.findall(text))
        if "".join(found) != text:
            raise self.fail(index, _("{text!r} is not a run of card codes (such as 1O3C12E)", text=text))
        return found

    def split(self, index: int, text: str, count: int, wrong: str) -> list[str]:
        """The field's ``count`` parts; ``wrong``: the message (marked ``N_``) when there are more or fewer."""
        parts = text.split("/")
        if len(parts) != count:
            raise self.fail(index, _(wrong, found=len(parts), count=count))
        return parts

    def moment(self) -> Moment:
        if len(self.fields) != len(FIELDS):
            raise self.fail(min(len(self.fields), len(FIELDS)) - 1,
                            _("a position string has {fields} fields separated by single spaces, this has {found}",
                              fields=len(FIELDS), found=len(self.fields)))
        spec, dealer, muestra, hands, trick, won, said, stock, turn = self.fields
        try:
            rules = rules_of(spec.replace("+", " "))
        except (TuteError, ValueError) as exc:
            raise self.fail(0, str(exc)) from None
        names, n = rules.seat_names, rules.players
        trump, _colon, turned = muestra.rpartition(":")
        if not re.fullmatch(CARD, turned) or trump not in ("", *SUIT_LETTERS) or muestra.startswith(":"):
            raise self.fail(2, _("{text!r}: write the turned card (4B), or the trump and the card (O:4B)",
                                 text=muestra))
        held, unknown = [], []
        for part in self.split(3, hands, n, N_("{found} hands for {count}: separate them with '/'")):
            m = _HAND.fullmatch("" if part == "-" else part)
            if not m or (not part):
                raise self.fail(3, _("{text!r}: write a hand as card codes, then *n for cards not known, or -",
                                     text=part))
            held.append(self.cards(3, m[1]))
            unknown.append(int(m[2] or 0))
        leader = 0
        table: tuple[str, ...] = ()
        if trick != "-":
            letter, colon, cards = trick.partition(":")
            if not colon or not cards:
                raise self.fail(4, _("{text!r}: write - or the leader, ':' and the cards played (N:1O3O)", text=trick))
            leader, table = self.seat(4, letter, names), self.cards(4, cards)
            if len(table) >= n:
                raise self.fail(4, _("{cards} cards in a trick of {n} players", cards=len(table), n=n))
        tricks, points = [], []
        for part in self.split(5, won, rules.sides, N_("{found} sides for {count}: separate them with '/'")):
            m = re.fullmatch(r"(\d{1,2})\.(\d{1,3})", part)
            if not m:
                raise self.fail(5, _("{text!r}: write tricks won, '.', card points won (3.42)", text=part))
            tricks.append(int(m[1]))
            points.append(int(m[2]))
        cantes, exchanges = [], []
        for part in ([] if said == "-" else said.split(",")):
            m = _DECLARATION.fullmatch(part)
            if not m:
                raise self.fail(6, _("{text!r}: write a cante as N20E or N40B, an exchange as Nx7B", text=part))
            seat = self.seat(6, m[1], names)
            if m[4]:
                exchanges.append((seat, m[4]))
            else:
                cantes.append((seat, int(m[2]), m[3]))
        count, stock_cards = None, None
        if stock != "-":
            left, colon, cards = stock.partition(":")
            if not left.isdigit() or len(left) > 2:
                raise self.fail(7, _("{text!r}: write -, the cards left (12), or the count, ':' and the cards",
                                     text=stock))
            count = int(left)
            if colon:
                stock_cards = self.cards(7, cards)
                if len(stock_cards) != count:
                    raise self.fail(7, _("{count} cards left but {written} written", count=count,
                                         written=len(stock_cards)))
        to_move = None if turn == "-" else self.seat(8, turn, names)
        seen = [c for h in held for c in h] + list(table) + list(stock_cards or ())
        if len(set(seen)) != len(seen):
            raise self.fail(3, _("{card} is written twice", card=next(c for c in seen if seen.count(c) > 1)))
        moment = Moment(rules=rules, dealer=self.seat(1, dealer, names), trump=trump or turned[-1], turned=turned,
                        hands=tuple(held), unknown=tuple(unknown), leader=leader, trick=table, tricks=tuple(tricks),
                        card_points=tuple(points), cantes=tuple(cantes), exchanges=tuple(exchanges), stock=count,
                        stock_cards=stock_cards, turn=to_move)
        problem = impossible(moment)  # each field reads; do they tell a moment a deal can reach?
        if problem is not None:
            raise self.fail(FIELDS.index(problem[0]), problem[1])
        return moment
