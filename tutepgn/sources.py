"""Where each preset value comes from: a sentence of a source text, or a decision.

``tute rules NAME`` and ``docs/rules.md`` print these.  Source files are in
``shared/seeds`` beside the project: 000 is the French Ludoteka text, 001 the
Swedish Playcard FAQ, 002 the Tagalog rules page; rules.md is the product's
reference decision on each rule.
"""

from __future__ import annotations

SHARED = "rules.md §1: shared by every preset"
"""Citation for an option whose value every preset shares and no source contests."""

SOURCES: dict[str, dict[str, str]] = {}
"""Per preset, per option: the citation.  Options not listed fall back to :data:`SHARED`."""


def source_of(preset: str, option: str) -> str:
    """The citation behind one preset value."""
    return SOURCES.get(preset, {}).get(option, SHARED)
