"""Cards, suits and seats as the table says them, in the language being spoken: the one place that names them.

A record writes ``12C``, ``B`` and ``N`` (notation, and what code and stored text keep); a sentence a person
reads in Spanish says "el rey de copas", "bastos" and "Norte" (issue 35: Spanish first, in the words of the
table).  Suits are named in English too, as the English documents name them ("the 2 of oros"); English
sentences keep the notation for cards and seats (``12C``, ``N``), which the English documents use.  Every
sentence that names a card, a suit or a seat passes it through these functions, so the two languages can
never drift.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from .cards import CARD_RANK, CARD_SUIT, CODES, RANK_NAMES, SUIT_LETTERS, SUIT_NAMES, Card, Suit
from .i18n import language

SEAT_WORDS: dict[str, dict[str, str]] = {"es": {"N": "Norte", "S": "Sur", "E": "Este", "W": "Oeste"}}
"""Each seat letter's word per language that speaks in words (English keeps the letter)."""
_FIGURES = (1, 10, 11, 12)
"""Ranks said by name (el as, la sota, el caballo, el rey); the others by number (el 7 de bastos)."""


def _in_words() -> bool:
    return language() in SEAT_WORDS


def suit_words(suit: Suit | str) -> str:
    """A suit (0..3 or its letter O C E B) as a sentence names it: "bastos", in both languages.  Text that is not
    a suit letter is returned as it is."""
    if isinstance(suit, str):
        return SUIT_NAMES[SUIT_LETTERS.index(suit)] if len(suit) == 1 and suit in SUIT_LETTERS else suit
    return SUIT_NAMES[suit]


def card_words(card: Card | str) -> str:
    """A card (an int or its code) as a sentence names it: "el caballo de copas", "la sota de oros", "el 7 de
    bastos" in Spanish; ``11C`` in English.  Text that is not a card code is returned as it is."""
    if isinstance(card, str):
        if card not in CODES:
            return card
        card = CODES.index(card)
    c = card
    if not _in_words():
        return CODES[c]
    rank = CARD_RANK[c]
    name = RANK_NAMES[rank] if rank in _FIGURES else str(rank)
    return f"{'la' if rank == 10 else 'el'} {name} de {SUIT_NAMES[CARD_SUIT[c]]}"


def cards_words(cards: Iterable[Card]) -> str:
    """Several cards in a sentence: "el as de oros, el 3 de oros y la sota de copas"; codes with spaces in
    English."""
    named = [card_words(c) for c in cards]
    if not _in_words():
        return " ".join(named)
    return named[0] if len(named) < 2 else ", ".join(named[:-1]) + " y " + named[-1]


def seat_words(seat: str) -> str:
    """A seat or a side as its letters (``N``, ``NS``) as a sentence names it: "Norte", "Norte-Sur" in Spanish;
    the letters in English.  Anything else (a player's name, ``?``) is returned as it is."""
    words = SEAT_WORDS.get(language())
    if words is None or not seat or any(ch not in words for ch in seat):
        return seat
    return "-".join(words[ch] for ch in seat)


def standing_words(values: Iterable[int], labels: Iterable[str]) -> str:
    """A value per side as a sentence says it: "Norte-Sur 0, Oeste-Este 2" in Spanish; ``NS:0 WE:2`` (the
    MatchScore tag's form) in English."""
    pairs = list(zip(labels, values))
    if not _in_words():
        return " ".join(f"{label}:{value}" for label, value in pairs)
    return ", ".join(f"{seat_words(label)} {value}" for label, value in pairs)


def date_words(text: str | date | None, *, short: bool = False) -> str:
    """A record's date (``2025.03.15``, notation; ``??`` where unknown; or the archive's date) as the language
    being spoken writes it: "15 de marzo de 2025" / "15 March 2025", or with ``short`` (a table's column) "15/03/2025" / "15 Mar 2025";
    a date known to the month or the year alone says only what is known; an unreadable one is returned as it is,
    and an unknown one is "?"."""
    from babel.dates import format_date  # here: only pages and sheets show dates, and Babel takes time to load

    if isinstance(text, date):  # the archive's date column
        text = text.isoformat()
    if not text or text.strip(" ?.") == "":
        return "?"
    parts = text.strip().replace("-", ".").split(".")
    if len(parts) != 3 or not parts[0].isdigit():
        return text
    year, month, day = parts
    lang = language()
    where = "en_GB" if lang == "en" else lang  # 15 March 2025, as the British write it
    try:
        if month.isdigit() and day.isdigit():
            when = date(int(year), int(month), int(day))
            pattern = ("dd/MM/yyyy" if lang == "es" else "d MMM yyyy") if short else "long"
        elif month.isdigit():
            when = date(int(year), int(month), 1)
            pattern = "MMMM 'de' yyyy" if lang == "es" else "MMMM yyyy"
        else:
            return year
    except ValueError:  # 2025.02.30: shown as written, the validator reports it
        return text
    return format_date(when, format=pattern, locale=where)
