"""What a citation is: a quoted sentence of a named source text, our own words, and a section of docs/rules.md.

Users have the project and its docs, not the source texts, so a citation
names the text as a reader knows it (:data:`TEXTS`), quotes the sentence in
its own language with its translation into each language spoken (``Quote.english``
and ``Quote.spanish``, each made from the original, not one from the other),
and points at the section of ``docs/rules.md`` that states the rule in our
words.  :meth:`Quote.rendering` is the translation in the language being
spoken; the names of the texts and the words around the quotes are messages of
the catalogue.  The data (which value
cites what, and the decisions the engine makes where the texts are silent) is
in :mod:`tutepgn.sources`.

>>> c = Citation("ludoteka-pairs", (Quote("fr", "il devra chanter 40 avant 20", "he must sing 40 before 20",
...                                        "deberá cantar las cuarenta antes que las veinte"),))
>>> print(c)
Ludoteka rules (French): «il devra chanter 40 avant 20» — "he must sing 40 before 20" (see docs/rules.md#ludoteka-pairs)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .i18n import N_, gettext as _, language

if TYPE_CHECKING:
    from .rules import Ruleset

DOC = "docs/rules.md"
"""The page every citation points into."""


@dataclass(frozen=True, slots=True)
class SourceText:
    """A source text as a reader can find it: the name we cite it by, its title, language and what it is."""

    label: str
    title: str
    language: str
    about: str


TEXTS: dict[str, SourceText] = {
    "fr": SourceText(N_("Ludoteka rules (French)"), "the rules of Tute on Ludoteka.com («Tute», sections «Déroulement "
                     "du jeu», «Canticos», «Décompte des plis»)", "French",
                     "Ludoteka.com's rules of Tute in pairs, 4 players"),
    "sv": SourceText(N_("Playcard FAQ (Swedish)"), "«Tute: frågor och svar» (Tute: questions and answers), "
                     "Playcard games", "Swedish", "Playcard's short FAQ on the 2-player Tute its table deals"),
    "tl": SourceText(N_("Mga Patakaran ng Tute (Tagalog)"), "«Mga Patakaran ng Tute» (The rules of Tute)", "Tagalog",
                     "a rules page with 2, 3 and 4 player modes"),
}
"""The three source texts, keyed by language code (each ``label`` is shown in the language spoken)."""


@dataclass(frozen=True, slots=True)
class Quote:
    """A sentence (or part of one, ``…`` marking a cut) copied exactly from a source text, with its translation
    into each language spoken, each made from the original (:meth:`rendering` gives the one spoken)."""

    text: str
    original: str
    english: str
    spanish: str

    def rendering(self) -> str:
        """The translation of the sentence in the language being spoken."""
        return self.spanish if language() == "es" else self.english

    def __str__(self) -> str:
        return f'{_(TEXTS[self.text].label)}: «{self.original}» — "{self.rendering()}"'

    def to_dict(self) -> dict[str, str]:
        """The quote as JSON: the source's name and language, the original words, its English and Spanish
        translations and the one in the language asked (``rendering``)."""
        source = TEXTS[self.text]
        return {"source": source.label, "language": source.language, "original": self.original,
                "english": self.english, "spanish": self.spanish,
                "rendering": self.rendering()}


def anchor(heading: str) -> str:
    """The link anchor a markdown heading gets (GitHub's rule): lower case, no punctuation, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


@dataclass(frozen=True, slots=True)
class Citation:
    """Where a preset's value comes from: quotes, our words (``note``), and the section of docs/rules.md.

    ``decision`` marks a value the product chose where the texts are silent or ambiguous.  ``note`` is kept in
    English, as the quotes' translations are, and said in the language spoken in :attr:`text`.
    """

    section: str
    quotes: tuple[Quote, ...] = ()
    note: str = ""
    decision: bool = False

    @property
    def text(self) -> str:
        """The citation without its section, as the tables of docs/rules.md print it."""
        body = "; ".join(map(str, self.quotes))
        if self.note:  # our words, marked N_ in tutepgn/sources.py: said in the language spoken
            body = f"{body}: {_(self.note)}" if body else _(self.note)
        return _("decision: {citation}", citation=body) if self.decision else body

    @property
    def link(self) -> str:
        """The section of docs/rules.md that states the rule in our words."""
        return f"{DOC}#{self.section}"

    def __str__(self) -> str:
        return _("{citation} (see {link})", citation=self.text, link=self.link)

    def to_dict(self) -> dict[str, Any]:
        """The citation as JSON (``tute rules --json``, the API)."""
        return {"text": str(self), "section": self.link, "decision": self.decision,
                "quotes": [q.to_dict() for q in self.quotes], "note": self.note}


@dataclass(frozen=True, slots=True)
class Decision:
    """A rule the engine applies where the texts are silent, with no option of its own.

    docs/rules.md states it under a heading equal to ``title``; ``applies``
    says which rulesets it concerns, so ``tute rules NAME`` lists only those.  ``statement`` is exact, with
    the options it concerns named; ``plain`` says it for players.
    """

    key: str
    title: str
    statement: str
    quotes: tuple[Quote, ...]
    applies: Callable[[Ruleset], bool]
    plain: str
    """The decision told to players: what happens at the table, without option ids (the rules page)."""

    @property
    def link(self) -> str:
        """The section of docs/rules.md that states the decision."""
        return f"{DOC}#{anchor(self.title)}"

    def to_dict(self) -> dict[str, Any]:
        """The decision as JSON (``tute rules --json``, the API)."""
        return {"decision": self.key, "title": self.title, "statement": self.statement, "section": self.link,
                "quotes": [q.to_dict() for q in self.quotes]}
