"""The Spanish 40-card pack: cards as small ints, card sets as int bitmasks.

The replay hot path works on plain ints; :class:`CardSet` and the code
functions are the readable edge.  A card's int is ``suit * 10 + strength``,
where strength 0 is the weakest card of a suit (the 2) and 9 the strongest
(the 1, the as).  So within a suit, a higher int always wins the trick, and
"the cards of this suit that beat card c" is one precomputed mask.

>>> card_code(card_from_code("1O")), card_points(card_from_code("3E"))
('1O', 10)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from typing import TypeAlias

from .i18n import gettext as _

Card: TypeAlias = int
"""A card, 0..39: ``suit * 10 + strength``."""
Suit: TypeAlias = int
"""A suit, 0..3 in the order oros, copas, espadas, bastos."""
Rank: TypeAlias = int
"""A printed rank: 1-7, 10 (sota), 11 (caballo), 12 (rey)."""
Mask: TypeAlias = int
"""A set of cards: bit ``c`` is set when card ``c`` is in the set."""

OROS, COPAS, ESPADAS, BASTOS = 0, 1, 2, 3
SUITS: tuple[Suit, ...] = (OROS, COPAS, ESPADAS, BASTOS)
SUIT_LETTERS = "OCEB"
SUIT_NAMES = ("oros", "copas", "espadas", "bastos")

RANKS_BY_STRENGTH: tuple[Rank, ...] = (2, 4, 5, 6, 7, 10, 11, 12, 3, 1)
"""Trick order, weakest first: 1 beats 3 beats 12 (rey) ... beats 2."""
RANKS: tuple[Rank, ...] = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
"""Printed order, used when listing a hand."""
RANK_POINTS: dict[Rank, int] = {1: 11, 3: 10, 12: 4, 11: 3, 10: 2}
"""Card points; every other rank is worth 0.  The pack holds 120."""
RANK_NAMES = {1: "as", 2: "dos", 3: "tres", 4: "cuatro", 5: "cinco", 6: "seis",
              7: "siete", 10: "sota", 11: "caballo", 12: "rey"}

CABALLO, REY = 11, 12

_STRENGTH = {rank: i for i, rank in enumerate(RANKS_BY_STRENGTH)}

ALL_CARDS: tuple[Card, ...] = tuple(range(40))
FULL_PACK: Mask = (1 << 40) - 1
SUIT_MASK: tuple[Mask, ...] = tuple(((1 << 10) - 1) << (10 * s) for s in SUITS)

CARD_SUIT: tuple[Suit, ...] = tuple(c // 10 for c in ALL_CARDS)
CARD_RANK: tuple[Rank, ...] = tuple(RANKS_BY_STRENGTH[c % 10] for c in ALL_CARDS)
CARD_POINTS: tuple[int, ...] = tuple(RANK_POINTS.get(r, 0) for r in CARD_RANK)
ABOVE: tuple[Mask, ...] = tuple(
    SUIT_MASK[c // 10] & ~((1 << (c + 1)) - 1) for c in ALL_CARDS
)
"""``ABOVE[c]``: the cards of c's suit that beat c."""
BIT: tuple[Mask, ...] = tuple(1 << c for c in ALL_CARDS)


def card(rank: Rank, suit: Suit) -> Card:
    """Return the card of a printed rank and a suit."""
    try:
        return suit * 10 + _STRENGTH[rank]
    except KeyError:
        raise ValueError(_("no rank {rank} in the Spanish pack (ranks are 1-7, 10, 11, 12)", rank=rank)) from None


def card_code(c: Card) -> str:
    """Write a card in canonical code: rank then suit letter, e.g. ``12O``."""
    return CODES[c]


CODES: tuple[str, ...] = tuple(f"{CARD_RANK[c]}{SUIT_LETTERS[CARD_SUIT[c]]}" for c in ALL_CARDS)
_BY_CODE = {code: c for c, code in enumerate(CODES)}


def card_from_code(code: str) -> Card:
    """Read a canonical card code such as ``1O`` or ``10C``."""
    try:
        return _BY_CODE[code]
    except KeyError:
        raise ValueError(_("{code!r} is not a card code (rank 1-7, 10, 11, 12 then suit O, C, E or B)",
                           code=code)) from None


def card_points(c: Card) -> int:
    """Points the card is worth in a won trick."""
    return CARD_POINTS[c]


def suit_from_letter(letter: str) -> Suit:
    """Read a suit letter O, C, E or B."""
    index = SUIT_LETTERS.find(letter)
    if len(letter) != 1 or index < 0:
        raise ValueError(_("{letter!r} is not a suit (O oros, C copas, E espadas, B bastos)", letter=letter))
    return index


def pack(removed_ranks: Iterable[Rank] = ()) -> Mask:
    """The pack as a mask, without the given ranks (3 players remove the 2s)."""
    mask = FULL_PACK
    for rank in removed_ranks:
        for s in SUITS:
            mask &= ~BIT[card(rank, s)]
    return mask


def mask_of(cards: Iterable[Card]) -> Mask:
    """The mask holding the given cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_in(mask: Mask) -> list[Card]:
    """The cards of a mask, weakest int first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def hand_order(c: Card) -> tuple[int, int]:
    """Sort key for showing a hand: by suit, then by printed rank."""
    return CARD_SUIT[c], RANKS.index(CARD_RANK[c])


DISPLAY_ORDER: tuple[Card, ...] = tuple(sorted(ALL_CARDS, key=hand_order))
"""Every card in the order a hand is shown: by suit O C E B, then by printed rank."""


@cache
def suit_display() -> tuple[tuple[tuple[Card, ...], ...], ...]:
    """For each suit, its cards in display order for each of the 1024 masks of its 10 bits: built by adding the
    suit's cards in display order to every set made so far (1024 steps, not 10 per mask), when a hand is first
    shown (not at import: ``tute --help`` shows none)."""
    tables = []
    for s in SUITS:
        shown: dict[Mask, tuple[Card, ...]] = {0: ()}
        for c in DISPLAY_ORDER[10 * s:10 * s + 10]:
            bit = 1 << (c - 10 * s)
            shown.update({sub | bit: cards + (c,) for sub, cards in shown.items()})
        tables.append(tuple(shown[sub] for sub in range(1024)))
    return tuple(tables)


def display_cards(mask: Mask) -> list[Card]:
    """The cards of a mask in display order, by table look-up per suit (hands are shown often)."""
    o, c, e, b = suit_display()
    return [*o[mask & 1023], *c[mask >> 10 & 1023], *e[mask >> 20 & 1023], *b[mask >> 30 & 1023]]


class CardSet:
    """A readable, set-like view of a card mask.

    >>> CardSet.from_codes("12O 11O 1E")
    CardSet('11O 12O 1E')
    >>> CardSet.from_codes("12O 11O") <= CardSet.from_codes("12O 11O 1E")
    True
    """

    __slots__ = ("mask",)

    def __init__(self, mask: Mask = 0) -> None:
        self.mask = mask

    @classmethod
    def from_codes(cls, codes: str | Iterable[str]) -> CardSet:
        """Build a set from card codes, given as one space-separated string or a list."""
        if isinstance(codes, str):
            codes = codes.split()
        return cls(mask_of(card_from_code(code) for code in codes))

    def __iter__(self) -> Iterator[Card]:
        return iter(cards_in(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, c: object) -> bool:
        return isinstance(c, int) and 0 <= c < 40 and bool(self.mask >> c & 1)

    def __le__(self, other: CardSet) -> bool:
        return self.mask & ~other.mask == 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and self.mask == other.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def codes(self) -> list[str]:
        """Card codes in display order (by suit O C E B, then rank)."""
        return [CODES[c] for c in display_cards(self.mask)]

    def __str__(self) -> str:
        return " ".join(self.codes())

    def __repr__(self) -> str:
        return f"CardSet({str(self)!r})"


# ---------------------------------------------------------------------------
# Card styles: the ways a card can be written.  ``es`` is canonical; the others
# are for reading and writing other traditions' notations.  The grammar's CARD
# terminal admits the union of the token styles; a style gives it meaning.

_ES_LETTER_RANKS = {1: "A", 10: "S", 11: "C", 12: "R"}
_IT_RANKS = {10: 8, 11: 9, 12: 10}
_FR_RANKS = {1: "A", 10: "J", 11: "Q", 12: "K"}
_EN_SUITS = ("coins", "cups", "swords", "clubs")
_EN_RANKS = {1: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
             10: "jack", 11: "knight", 12: "king"}


def _style_codes(rank_of: Mapping[int, object], suits: str) -> tuple[str, ...]:
    return tuple(f"{rank_of.get(CARD_RANK[c], CARD_RANK[c])}{suits[CARD_SUIT[c]]}" for c in ALL_CARDS)


CARD_STYLES: dict[str, tuple[str, ...]] = {
    "es": CODES,
    "es-letters": _style_codes(_ES_LETTER_RANKS, SUIT_LETTERS),
    "it": _style_codes(_IT_RANKS, "DCSB"),
    "fr": _style_codes(_FR_RANKS, "DHSC"),
    "en": tuple(f"{_EN_RANKS[CARD_RANK[c]]} of {_EN_SUITS[CARD_SUIT[c]]}" for c in ALL_CARDS),
    "names": tuple(f"{RANK_NAMES[CARD_RANK[c]]} de {SUIT_NAMES[CARD_SUIT[c]]}" for c in ALL_CARDS),
}
"""Per style, each card's text.  ``en`` and ``names`` contain spaces: JSON and display only."""
TOKEN_STYLES = ("es", "es-letters", "it", "fr")
"""Styles whose cards are single tokens, so they can be written in a .tpgn record."""
STYLE_SUITS = {"es": SUIT_LETTERS, "es-letters": SUIT_LETTERS, "it": "DCSB", "fr": "DHSC"}
"""Suit letters per token style, as a cante of 20 names its suit."""
SUIT_TEXT: dict[str, tuple[str, ...]] = {
    **{style: tuple(letters) for style, letters in STYLE_SUITS.items()},
    "en": _EN_SUITS,
    "names": SUIT_NAMES,
}
"""How each card style writes a suit (a cante's JSON ``suit``, a record's trump suit), oros copas espadas bastos."""

_READ: dict[str, dict[str, Card]] = {}


def card_reader(style: str) -> dict[str, Card]:
    """The table from text to card for reading a style (case-insensitive keys, upper-cased).

    Reading ``es`` also accepts the ``es-letters`` aliases: they never clash.
    """
    if style not in CARD_STYLES:
        raise ValueError(_("unknown card style {style!r}; styles are {styles}", style=style,
                           styles=", ".join(CARD_STYLES)))
    table = _READ.get(style)
    if table is None:
        table = {text.upper(): c for c, text in enumerate(CARD_STYLES[style])}
        if style in ("es", "es-letters"):
            table.update({text.upper(): c for c, text in enumerate(CARD_STYLES["es"])})
            table.update({text.upper(): c for c, text in enumerate(CARD_STYLES["es-letters"])})
        _READ[style] = table
    return table


def suit_reader(style: str) -> dict[str, Suit]:
    """The table from suit letter (upper case) to suit for a token style."""
    return {letter: s for s, letter in enumerate(STYLE_SUITS.get(style, SUIT_LETTERS))}
