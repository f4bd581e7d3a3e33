"""What a Spanish page must not hold (issue 35), for tests/test_browser_spanish.py: the English words of the
program's own messages and of its frameworks', a program's command text (``[%dd 71]``), the seats' and suits'
letters (and card codes, 12C), and the notation's dates (2025.03.15), in the text a person reads.

The English words are read from the catalogue, so that the list grows with the messages: a word of an English
message (a msgid) that no Spanish translation uses is English only.  The translations keep some English words on
purpose, as names (the record's tags, "la etiqueta Trump"; the commands, "`tute search`"; the option ids):
:data:`ENGLISH_KEPT` puts those back on the list.  The frameworks' words are click's own messages (read from its
sources as the catalogue's are) and HTTP's reason phrases (FastAPI's "Not Found").  Names that are the same in
both languages and never English prose stay off the list (:data:`NOT_ENGLISH`, each with its reason).
"""

from __future__ import annotations

import http
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tutepgn.i18n import LOCALE
from tutepgn.notation.tags import HEADER_TAGS

ENGLISH_KEPT = frozenset({
    # the record's tags, which the translations name as they are written ("la etiqueta Deal")
    "deal", "deals", "dealer", "event", "match", "result", "round", "rules", "score", "site", "stock", "table", "trump",
    "player", "play", "text", "lines", "names", "cards",
    # commands, options and values the translations quote as they are typed (`tute record`, --only, "it" style)
    "record", "serve", "import", "help", "undo", "only", "it", "analysed", "analyses", "address", "partnerships",
    "greedy", "heuristic", "random", "none",
})
"""English words that Spanish translations hold as names: still English in a Spanish page's running text."""

NOT_ENGLISH: dict[str, str] = {
    "bar": "a Spanish word too (the sample's site \"Bar El Mesón\")",
    "faq": "a source's name (Playcard's FAQ), cited as it is",
    "ok": "said in Spanish too",
    "http": "a protocol's name",
    "uuid": "a format's name",
    "bash": "a program's name",
    "stdin": "a stream's name, written as in code",
    "str": "a type's name in code",
    "int": "a type's name in code",
    "var": "a name in code",
    "env": "a name in code",
    "dir": "a name in code",
    "args": "a name in code",
    "ranking": "a Spanish word too (the RAE's)",
    "post": "HTTP's method, written POST in both languages",
    "tagalog": "a language's name, the same in Spanish",
}
"""Words of the English messages that are names or notation, never English prose on a Spanish page."""

SEAT_LETTERS = frozenset({"N", "S", "E", "W", "NS", "SN", "WE", "EW"})
SUIT_LETTERS = frozenset({"O", "C", "E", "B"})
CARD_CODE = re.compile(r"^(?:1[0-2]|[1-7])[OCEB]$")
RUN = re.compile(r"\S+")
WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
PUNCTUATION = ".,;:!?()[]{}\"'«»“”*¿¡…·|"
COMMANDS = "[%"
DATE = re.compile(r"\b\d{4}\.\d{2}\.\d{2}\b")
"""A date as the notation writes it (2025.03.15): in running text a date is written "15 de marzo de 2025" or
15/03/2025."""


def words(text: str) -> Iterator[tuple[int, str]]:
    """The words of ``text`` with where each starts: letters only (a hyphen splits, "Norte-Sur"); a run holding a
    digit, ``_``, ``/``, ``@``, ``=`` or ``--`` is a name, a path or a value (``match_target=6``), not words, and a
    span in backticks is code."""
    for run in RUN.finditer(re.sub(r"`[^`]*`|\{[^{}]*\}", lambda m: " " * len(m[0]), text)):
        token = run[0]
        if re.search(r"[\d_/@=]|--|\.\w", token.strip(PUNCTUATION)):
            continue
        for part in re.finditer(r"[^-–—]+", token):
            word = part[0].strip(PUNCTUATION)
            if WORD.fullmatch(word):
                yield run.start() + part.start() + part[0].index(word), word


def tokens(text: str) -> Iterator[tuple[int, str]]:
    """Every run of ``text`` without its punctuation, with where it starts: for the letters and card codes."""
    for run in RUN.finditer(text):
        for part in re.finditer(r"[^-–—:/(),.;]+", run[0]):
            token = part[0].strip(PUNCTUATION)
            if token:
                yield run.start() + part.start() + part[0].index(token), token


@cache
def english() -> frozenset[str]:
    """The English words (lower case) a Spanish page must not hold: see the module's docstring."""
    from babel.messages.pofile import read_po

    source: set[str] = set()
    spanish: set[str] = set()
    for po in sorted((LOCALE / "es").glob("*.po")):
        with po.open("rb") as f:
            for message in read_po(f, locale="es"):
                if not message.id:
                    continue
                ids = message.id if isinstance(message.id, tuple) else (message.id,)
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                source.update(w.lower() for text in ids for _at, w in words(text) if len(w) > 1)
                spanish.update(w.lower() for text in strings for _at, w in words(text or "") if len(w) > 1)
    return frozenset((source | framework()) - (spanish - ENGLISH_KEPT) - set(NOT_ENGLISH))


def framework() -> set[str]:
    """The words of click's messages and of HTTP's reason phrases."""
    import click
    from babel.messages.extract import extract_from_file

    found: set[str] = set()
    for path in sorted(Path(click.__file__).parent.glob("*.py")):
        for _line, message, _comments, _context in extract_from_file(
                "python", str(path), keywords={"_": None, "ngettext": (1, 2)}):
            for text in message if isinstance(message, tuple) else (message,):
                found.update(w.lower() for _at, w in words(text) if len(w) > 1)
    for status in http.HTTPStatus:
        found.update(w.lower() for _at, w in words(status.phrase) if len(w) > 1)
    return found


@dataclass(frozen=True)
class Finding:
    """One thing a Spanish page must not say: what (``english``, ``commands``, ``seat``, ``suit``, ``card``,
    ``date``), the text itself, and its context in the page."""

    kind: str
    what: str
    context: str

    @property
    def key(self) -> tuple[str, str]:
        return self.kind, self.what


def context(text: str, at: int, size: int) -> str:
    start, end = max(0, at - 40), min(len(text), at + size + 40)
    return ("…" if start else "") + " ".join(text[start:end].split()) + ("…" if end < len(text) else "")


def findings(text: str) -> list[Finding]:
    """What ``text`` (a page's running text) holds that a Spanish page must not."""
    found: list[Finding] = []
    english_words = english()
    tags = {*HEADER_TAGS}
    previous: list[str] = []
    for at, word in words(text):
        named_tag = word in tags and any(w.lower().startswith("etiqueta") for w in previous[-3:])
        if len(word) > 1 and word.lower() in english_words and not named_tag:
            found.append(Finding("english", word.lower(), context(text, at, len(word))))
        previous.append(word)
    for match in re.finditer(re.escape(COMMANDS), text):
        found.append(Finding("commands", COMMANDS, context(text, match.start(), 2)))
    for match in DATE.finditer(text):
        found.append(Finding("date", match[0], context(text, match.start(), len(match[0]))))
    for at, token in tokens(text):
        kind = ("seat" if token in SEAT_LETTERS else "suit" if token in SUIT_LETTERS else
                "card" if CARD_CODE.match(token) else None)
        if kind:
            found.append(Finding(kind, token, context(text, at, len(token))))
    return found
