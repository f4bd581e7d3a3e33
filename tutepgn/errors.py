"""Errors by kind under one root, so callers can catch exactly what they mean.

Bad input is a ``ValueError``: :class:`IllegalAction` for a play or a
declaration the rules forbid.  Every illegal action names the rule it breaks,
both in words (``str(error)``) and as a stable code (``error.rule``), and the
ruleset option the rule comes from (``error.option``), so that a validator can
report it and a user can look the option up in ``tute rules``.
"""

from __future__ import annotations


class TuteError(Exception):
    """Root of every error this library raises on purpose."""


class IllegalAction(TuteError, ValueError):
    """A play or declaration that the ruleset forbids at this moment.

    ``rule`` is a stable code (``must_follow``, ``cante_not_held`` ...);
    ``option`` the ruleset option behind it, or ``None`` for a rule every
    preset shares (such as playing a card you do not hold).
    """

    kind = "illegal"

    def __init__(self, message: str, *, rule: str, option: str | None = None,
                 seat: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.option = option
        self.seat = seat

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r}, rule={self.rule!r}, option={self.option!r})"


class IllegalPlay(IllegalAction):
    """A card that may not be played now: not held, out of turn, or against a play duty."""


class IllegalDeclaration(IllegalAction):
    """A cante, tute or exchange that may not be made now."""


class UnknownRuleset(TuteError, ValueError):
    """A preset name or an override that does not exist or does not fit."""
