"""The events of a deal: a card played, a cante, a tute, an exchange of the turned card.

Each event is a frozen record of what happened, with the seat as an int.  It
writes itself in the notation (:meth:`Play.text`: ``N 1O``, ``N 40``,
``E 20C``, ``S tute 12``, ``S x7B``) and as a JSON event object
(:meth:`Play.to_json`), and is read back from either given a small
:class:`Context`: the seat letters, the trump suit and the card style.  A new
kind of event is added here (its class, its text, its JSON, its place in
:func:`parse_declaration`) and in the engine's rules; readers and writers
only dispatch to it.

>>> ctx = Context(seats=("N", "S"), trump=0)
>>> [e.text(ctx) for e in (Play(0, 9), Cante(0, 0), Cante(1, 1), Tute(1, 12), Exchange(0, 4))]
['N 1O', 'N 40', 'S 20C', 'S tute 12', 'N x7O']
>>> parse_declaration(1, "tute R", ctx), parse_declaration(0, "40", ctx), Play(0, 9), Exchange(0, 4)
(Tute(1, 12), Cante(0, 'O'), Play(0, '1O'), Exchange(0, '7O'))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from .cards import CARD_STYLES, CODES, STYLE_SUITS, SUIT_LETTERS, SUIT_TEXT, Card, Suit, card_reader, suit_reader
from .errors import JsonRecordError, NotationError
from .i18n import gettext as _
from .rules import SEAT_NAMES

if TYPE_CHECKING:
    from .engine import Deal


@dataclass(frozen=True, slots=True)
class Context:
    """What an event needs to be written or read beyond itself.

    ``seats`` are the seat letters in seat order, ``trump`` the trump suit
    (None when unknown: a cante is then written ``20`` + suit), ``cards`` the
    card style of cards and suits.
    """

    seats: tuple[str, ...] = SEAT_NAMES[4]
    trump: Suit | None = None
    cards: str = "es"

    @classmethod
    def of(cls, deal: Deal, cards: str = "es") -> Context:
        """The context of an engine deal: its seats and its trump."""
        return cls(deal.rules.seat_names, deal.trump, cards)

    def seat_of(self, letter: str) -> int:
        """The seat index of a seat letter; ``ValueError`` when it is not a seat here."""
        if letter not in self.seats:
            raise ValueError(_("{letter!r} is not a seat at this table ({seats})", letter=letter,
                               seats=" ".join(self.seats)))
        return self.seats.index(letter)


def _json_seat(data: dict[str, Any], ctx: Context, at: str) -> int:
    try:
        return ctx.seat_of(data["seat"])
    except ValueError as exc:
        raise JsonRecordError(str(exc), path=f"{at}seat") from None


def _json_card(data: dict[str, Any], ctx: Context, at: str) -> Card:
    card = card_reader(ctx.cards).get(data["card"].upper())
    if card is None:
        raise JsonRecordError(_("{card!r} is not a card in style {style}", card=data["card"], style=ctx.cards),
                              path=f"{at}card")
    return card


JsonFields = tuple[tuple[str, Any, dict[str, Any]], ...]
"""An event's own fields in its JSON model, after ``type``: (name, type, the arguments of pydantic's ``Field``).
Arguments, not a ``Field``: the engine loads this module and never needs pydantic (:mod:`.notation.jsonmodel`
builds the models)."""
SeatLetter = Literal["N", "W", "S", "E"]
"""A seat as JSON and the filters write it: its letter."""


@dataclass(frozen=True, slots=True)
class _CardEvent:
    """An event that names a seat and a card; the notation writes the card after :attr:`mark`."""
    seat: int
    card: Card

    kind: ClassVar[str]
    mark: ClassVar[str]
    json_doc: ClassVar[str]
    json_fields: ClassVar[JsonFields]
    json_nags: ClassVar[str]

    def __repr__(self) -> str:
        """The seat and the card's code, as :meth:`Deal.play <tutepgn.engine.Deal.play>` and
        :meth:`~tutepgn.engine.Deal.exchange` take them: ``Play(0, '1O')``."""
        return f"{type(self).__name__}({self.seat}, {CODES[self.card]!r})"

    def text(self, ctx: Context) -> str:
        """The seat, then the card (``N 1O``, ``S x7B``)."""
        return f"{ctx.seats[self.seat]} {self.mark}{CARD_STYLES[ctx.cards][self.card]}"

    def to_json(self, ctx: Context) -> dict[str, Any]:
        """The event's own JSON fields (the record adds trick, position and notes)."""
        return {"type": self.kind, "seat": ctx.seats[self.seat], "card": CARD_STYLES[ctx.cards][self.card]}


@dataclass(frozen=True, slots=True, repr=False)
class Play(_CardEvent):
    """A card played to the current trick."""

    kind: ClassVar[str] = "play"
    mark: ClassVar[str] = ""
    json_doc: ClassVar[str] = "A card played to the current trick."
    json_fields: ClassVar[JsonFields] = (
        ("seat", SeatLetter, dict(description="The seat that played the card.")),
        ("trick", int | None, dict(default=None, ge=1, description="Derived: the 1-based number of the trick. "
                                   "Ignored on input.", json_schema_extra={"readOnly": True})),
        ("card", str, dict(description="The card, in the record's card style (the `cards` field).")),
    )
    json_nags: ClassVar[str] = "Annotations as numbers: ! 1, ? 2, !! 3, ?? 4, !? 5, ?! 6, $n n."

    @classmethod
    def from_json(cls, data: dict[str, Any], ctx: Context, at: str = "") -> Play:
        """The play of a JSON event object; :class:`JsonRecordError` names the field at fault after ``at``."""
        return PLAYS[_json_seat(data, ctx, at)][_json_card(data, ctx, at)]


PLAYS: tuple[tuple[Play, ...], ...] = tuple(tuple(Play(seat, c) for c in range(40)) for seat in range(4))
"""Every possible play, made once: readers of millions of records share them (plays are immutable)."""


@dataclass(frozen=True, slots=True)
class Cante:
    """A declared rey and caballo of one suit: 20, or 40 in trump."""
    seat: int
    suit: Suit

    kind: ClassVar[str] = "cante"
    json_doc: ClassVar[str] = "A cante (declared rey and caballo of one suit): 40 when the suit is trump, else 20."
    json_fields: ClassVar[JsonFields] = (
        ("seat", SeatLetter, dict(description="The seat that declared.")),
        ("suit", str, dict(description="The suit, as the card style writes it (es: O C E B; en: coins cups swords "
                                        "clubs ...).")),
    )
    json_nags: ClassVar[str] = "Annotations as numbers."

    def __repr__(self) -> str:
        """The seat and the suit's letter, as :meth:`Deal.cante <tutepgn.engine.Deal.cante>` takes them:
        ``Cante(1, 'E')``."""
        return f"Cante({self.seat}, {SUIT_LETTERS[self.suit]!r})"

    def text(self, ctx: Context) -> str:
        """``N 40`` in trump, else ``E 20C``."""
        what = "40" if self.suit == ctx.trump else "20" + STYLE_SUITS.get(ctx.cards, STYLE_SUITS["es"])[self.suit]
        return f"{ctx.seats[self.seat]} {what}"

    def to_json(self, ctx: Context) -> dict[str, Any]:
        """The event's own JSON fields: the suit as the card style writes suits."""
        return {"type": "cante", "seat": ctx.seats[self.seat], "suit": SUIT_TEXT[ctx.cards][self.suit]}

    @classmethod
    def from_json(cls, data: dict[str, Any], ctx: Context, at: str = "") -> Cante:
        """The cante of a JSON event object."""
        seat = _json_seat(data, ctx, at)
        words = SUIT_TEXT[ctx.cards]
        suit = {w.upper(): s for s, w in enumerate(words)}.get(data["suit"].upper())
        if suit is None:
            raise JsonRecordError(_("{suit!r} is not a suit in style {style} ({suits})", suit=data["suit"],
                                    style=ctx.cards, suits=" ".join(words)), path=f"{at}suit")
        return cls(seat, suit)


@dataclass(frozen=True, slots=True)
class Tute:
    """A declared hand of all four reyes (rank 12) or all four caballos (rank 11)."""
    seat: int
    rank: int

    kind: ClassVar[str] = "tute"
    json_doc: ClassVar[str] = "A tute: all four reyes (12) or all four caballos (11) declared."
    json_fields: ClassVar[JsonFields] = (
        ("seat", SeatLetter, dict(description="The seat that declared.")),
        ("rank", Literal[12, 11], dict(description="12: reyes; 11: caballos.")),
    )
    json_nags: ClassVar[str] = "Annotations as numbers."

    def __repr__(self) -> str:
        """The seat and the rank, as :meth:`Deal.tute <tutepgn.engine.Deal.tute>` takes them: ``Tute(1, 12)``."""
        return f"Tute({self.seat}, {self.rank})"

    def text(self, ctx: Context) -> str:
        """``S tute 12``."""
        return f"{ctx.seats[self.seat]} tute {self.rank}"

    def to_json(self, ctx: Context) -> dict[str, Any]:
        """The event's own JSON fields."""
        return {"type": "tute", "seat": ctx.seats[self.seat], "rank": self.rank}

    @classmethod
    def from_json(cls, data: dict[str, Any], ctx: Context, at: str = "") -> Tute:
        """The tute of a JSON event object."""
        return cls(_json_seat(data, ctx, at), data["rank"])


@dataclass(frozen=True, slots=True, repr=False)
class Exchange(_CardEvent):
    """The 7 (or 2) of trump given for the turned card under the stock."""

    kind: ClassVar[str] = "exchange"
    mark: ClassVar[str] = "x"
    json_doc: ClassVar[str] = "The 7 (or 2) of trump given for the turned card."
    json_fields: ClassVar[JsonFields] = (
        ("seat", SeatLetter, dict(description="The seat that exchanged.")),
        ("card", str, dict(description="The card given (the 7 or 2 of trump), in the record's card style.")),
    )
    json_nags: ClassVar[str] = "Annotations as numbers."

    @classmethod
    def from_json(cls, data: dict[str, Any], ctx: Context, at: str = "") -> Exchange:
        """The exchange of a JSON event object."""
        return cls(_json_seat(data, ctx, at), _json_card(data, ctx, at))


Action = Play | Cante | Tute | Exchange
"""Any event of the play."""
Declaration = Cante | Tute | Exchange
"""An event written on a line of its own, between tricks."""

EVENT_TYPES: dict[str, type[Play] | type[Cante] | type[Tute] | type[Exchange]] = {
    cls.kind: cls for cls in (Play, Cante, Tute, Exchange)}
"""Each event class by its JSON ``type``."""


def event_from_json(data: dict[str, Any], ctx: Context, at: str = "") -> Action:
    """The event of a JSON event object (its ``type`` picks the class); errors name the field after ``at``."""
    return EVENT_TYPES[data["type"]].from_json(data, ctx, at)


_TUTE_RANKS = {"12": 12, "11": 11, "R": 12, "C": 11}


def parse_declaration(seat: int, text: str, ctx: Context) -> Declaration:
    """Read a declaration after its seat: ``40``, ``40O``, ``20C``, ``tute 12`` (11, R, C), ``x7B``.

    Case and the space after ``tute`` and ``x`` do not matter.  Raises
    :class:`NotationError` (at line 1, column 1: the caller places it) saying
    what is wrong and what was expected.
    """
    word = text.strip()
    upper = word.upper()

    def wrong(message: str, expected: str = "") -> NotationError:
        return NotationError(message, line=1, column=1, text=word, expected=expected)

    if upper[:1] in ("2", "4") and upper[1:2] == "0":
        suits = STYLE_SUITS.get(ctx.cards, STYLE_SUITS["es"])
        named = suit_reader(ctx.cards).get(upper[2:]) if len(upper) > 2 else None
        if len(upper) > 2 and named is None:
            raise wrong(_("{suit} is not a suit in style {style}", suit=word[2:], style=ctx.cards),
                        expected=_("one of {suits}", suits=suits))
        if upper[0] == "2":
            if named is None:
                raise wrong(_("a cante of 20 names its suit"), expected=_("20 then one of {suits}", suits=suits))
            return Cante(seat, named)
        suit = ctx.trump if named is None else named
        if suit is None:
            raise wrong(_("40 is the cante in trump, but the record has no Trump tag"),
                        expected=_("a Trump tag, or 40 with its suit ({suits})", suits=suits))
        if ctx.trump is not None and named is not None and named != ctx.trump:
            raise wrong(_("40 is the cante in trump ({trump}); {word} names another suit", trump=suits[ctx.trump],
                          word=word), expected=f"40 or 20{suits[named]}")
        return Cante(seat, suit)
    if upper.startswith("TUTE"):
        rank = _TUTE_RANKS.get(upper[4:].strip())
        if rank is None:
            raise wrong(_("a tute names its rank"), expected=_("tute 12 (reyes) or tute 11 (caballos)"))
        return Tute(seat, rank)
    if upper[:1] == "X":
        given = upper[1:].strip()
        card = card_reader(ctx.cards).get(given)
        if card is None:
            raise wrong(_("{card} is not a card in style {style}", card=word[1:].strip(), style=ctx.cards),
                        expected=_("the 7 or 2 of trump, e.g. x7B"))
        return Exchange(seat, card)
    raise wrong(_("not a declaration"), expected=_("40, 20 and a suit, tute 12, tute 11, or x and a card"))


__all__ = ["EVENT_TYPES", "PLAYS", "Action", "Cante", "Context", "Declaration", "Exchange", "Play", "Tute",
           "event_from_json", "parse_declaration"]
