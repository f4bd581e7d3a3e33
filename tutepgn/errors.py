"""Errors by kind under one root, so callers can catch exactly what they mean.

Bad input is a ``ValueError``: :class:`IllegalAction` for a play or a
declaration the rules forbid.  Every illegal action names the rule it breaks,
both in words (``str(error)``) and as a stable code (``error.rule``), and the
ruleset option the rule comes from (``error.option``), so that a validator can
report it and a user can look the option up in ``tute rules``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lazy import lazy_exports

if TYPE_CHECKING:
    from .errorshape import ErrorItem as ErrorItem, Problem as Problem  # re-exported: tutepgn.errors.Problem

__getattr__, __dir__ = lazy_exports(__name__, {"tutepgn.errorshape": ("ErrorItem", "Problem")}, globals())
""":class:`ErrorItem` and :class:`Problem` are imported on first use (:mod:`tutepgn.errorshape`)."""


class TuteError(Exception):
    """Root of every error this library raises on purpose."""

    def item(self) -> ErrorItem:
        """The error as one :class:`ErrorItem` (no position: subclasses that know one add it)."""
        from .errorshape import ErrorItem
        return ErrorItem(message=str(self))


class IllegalAction(TuteError, ValueError):
    """A play or declaration that the ruleset forbids at this moment.

    ``rule`` is a stable code (``must_follow``, ``cante_not_held`` ...);
    ``option`` the ruleset option behind it, or ``None`` for a rule every
    preset shares (such as playing a card you do not hold).
    """

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


class UnknownSeat(TuteError, ValueError):
    """A seat that the ruleset does not have: a letter it does not name, or a number out of range."""


class NotationError(TuteError, ValueError):
    """A record that does not follow the notation: where, what, and what was expected.

    ``line`` and ``column`` are 1-based positions in the source file;
    ``index`` is the record's 0-based position in its source.
    """

    def __init__(self, message: str, *, line: int, column: int, text: str = "", expected: str = "",
                 source: str | None = None, index: int | None = None) -> None:
        self.message = message
        self.line = line
        self.column = column
        self.text = text
        self.expected = expected
        self.source = source
        self.index = index
        super().__init__(str(self))

    def __str__(self) -> str:
        from .i18n import gettext as _  # errors.py is imported by i18n.py

        where = f"{self.source or '<text>'}:{self.line}:{self.column}"
        record = _(" (record {record})", record=self.index + 1) if self.index is not None else ""
        found = _("; found {text}", text=repr(self.text)) if self.text else ""
        expected = _("; expected {expected}", expected=self.expected) if self.expected else ""
        return f"{where}{record}: {self.message}{found}{expected}"

    def item(self) -> ErrorItem:
        """The error located: source, record, line, column, message, text, expected."""
        from .errorshape import ErrorItem
        return ErrorItem(source=self.source, record=self.index, line=self.line, column=self.column,
                         message=self.message, text=self.text, expected=self.expected)

    def to_dict(self) -> dict[str, object]:
        """The error as JSON data (a report's ``parse_errors`` item)."""
        return self.item().model_dump()


class JsonRecordError(NotationError):
    """A JSON record that cannot be read: where (line of the JSON or JSONL source), which field, and what."""

    def __init__(self, message: str, *, line: int = 1, column: int = 1, path: str = "", source: str | None = None,
                 index: int | None = None) -> None:
        self.path = path
        super().__init__(f"{path}: {message}" if path else message, line=line, column=column, source=source,
                         index=index)


class ConvertError(TuteError, ValueError):
    """A conversion that cannot be done as asked: an unknown form or style, or a target that cannot say it."""


class EntryError(TuteError, ValueError):
    """A line that is not an entry the recorder reads."""


class ArchiveError(TuteError):
    """An archive file that cannot be used as it is."""


class SchemaVersionError(ArchiveError):
    """An archive file or Parquet dataset of another version of the archive's schema (``found``; None: written
    before the version was stored) than this tutepgn's (``expected``): the message names the way out
    (``tute archive rebuild`` for a file)."""

    def __init__(self, message: str, *, path: str, found: int | None, expected: int) -> None:
        super().__init__(message)
        self.path, self.found, self.expected = path, found, expected


class ArchiveHeldError(ArchiveError):
    """An archive file another process holds (DuckDB lets one process write a file, or many read it): a running
    service (``url`` and ``pid`` from the file it writes beside the archive) or another process (``pid``)."""

    def __init__(self, message: str, *, db: str, pid: int | None = None, url: str | None = None,
                 read_only: bool = False) -> None:
        super().__init__(message)
        self.db, self.pid, self.url, self.read_only = db, pid, url, read_only


class ArchiveWriteError(ArchiveError):
    """An import the archive could not write (a full disk, an I/O error): the batch in flight was rolled back,
    the batches committed before it stay (``committed`` records), so importing again finishes the work."""

    def __init__(self, message: str, *, source: str | None = None, committed: int = 0) -> None:
        super().__init__(message)
        self.source, self.committed = source, committed

    def item(self) -> ErrorItem:
        """The error, located in the archive file."""
        from .errorshape import ErrorItem
        return ErrorItem(source=self.source, message=str(self))


class OutputError(TuteError, OSError):
    """Output that cannot be written: a full disk, a device such as /dev/full, no permission."""


class LimitError(TuteError):
    """Work stopped at a limit set to protect the process: a query's time or memory (``tute sql``), a request's
    time (the service), a line of typed input too long to read (``tute record``)."""


class RecordingsFull(LimitError):
    """A live recording refused because the service holds as many under way as it may (``TUTEPGN_MAX_RECORDINGS``):
    each costs memory and start-up time until its deal is over."""


class SettingError(TuteError, ValueError):
    """A ``TUTEPGN_*`` environment variable with a value the library cannot use: named, with what to give."""


class LinkError(TuteError, ValueError):
    """A shared deal's link that cannot be read: not base64url, not a compressed record, or larger than a record
    may be."""


class ClusterError(TuteError):
    """A Dask cluster that cannot be used: Dask not installed (with how to install it), no scheduler at the
    address given."""


class UnknownPlayer(TuteError, LookupError):
    """A player no archived deal names (names are matched exactly, as the records give them)."""


class UnknownPuzzle(TuteError, LookupError):
    """A puzzle id that no stored analysis makes a puzzle: not ``deal-index``, or no such mistake stored."""


class NotAnalysed(ArchiveError):
    """Deals with no stored analysis of this version, where one is needed (puzzles): ``tute archive analyse``
    stores them."""


class EventError(TuteError, ValueError):
    """A club event's request that its state refuses: an unknown event, entrant, round or table, a round paired
    before the last one's results are in, more rounds than the format allows, a result that does not fit."""


class UnknownEvent(EventError):
    """An event name the archive does not hold (the service answers 404, where other refusals are 422)."""


class UnknownBot(TuteError, ValueError):
    """A bot name or level that no bot answers to (``tute simulate --bot``, ``tute play --level``)."""
