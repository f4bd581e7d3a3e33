"""The recorder's commands, in both languages: what a scorer types besides cards and declarations.

A table that speaks Spanish types ``ayuda``, ``deshacer`` and ``fin``; one that speaks English ``help``,
``undo`` and ``end``.  Both are understood whatever language the program speaks, in the terminal
(``tute record``) and on the phone, so that a scorer never has to guess which one this program expects.
"""

from __future__ import annotations

import re

UNDO = re.compile(r"(?:undo|deshacer)(?:\s+(\d+))?", re.I)
"""Take back the last entry, or the last n: ``undo``, ``undo 3``, ``deshacer 3``."""
HELP_WORDS = ("?", "help", "ayuda")
"""Entries that ask for the position."""
END_WORDS = ("end", "fin")
"""Entries that stop recording, keeping every entry (``tute record``: like the end of input)."""

__all__ = ["END_WORDS", "HELP_WORDS", "UNDO", "asks", "is_undo"]


def is_undo(text: str) -> bool:
    """Whether an entry takes entries back, which some callers allow to fewer people (the key that started a
    live recording)."""
    return UNDO.fullmatch(text.strip()) is not None


def asks(text: str) -> bool:
    """Whether an entry only asks or stops (``?``, ``help``/``ayuda``, ``end``/``fin``): it changes no deal."""
    return text.strip().lower() in HELP_WORDS + END_WORDS
