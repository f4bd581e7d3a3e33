"""Spanish and English: the one place where a message meant for a person is put in the reader's language.

Every message is written in English where it is made, ``_("{seat} must follow suit", seat=...)``, and looked
up at that moment in the catalogue of the language being spoken: the PO files of
``tutepgn/locale/<lang>/*.po`` (gettext's format, read with Babel, merged; several files so that parts of the
program keep their messages apart).  English is the source language and needs no catalogue.

The language being spoken is a context variable: the service sets it for each request (``?lang=``, a cookie,
then ``Accept-Language``), the CLI once from ``--lang``, ``TUTEPGN_LANG`` or the locale (``LANG``...).  What
is stored (archive rows, exported records) is written in English whatever is spoken, so that an archive
reads the same for everyone: :func:`speaking` ``("en")`` around the writing.

Placeholders are named, in braces (``str.format``), in Python, the templates and the pages' scripts alike,
so that a translation may put them in another order.  ``tests/test_i18n.py`` checks that every message of
the sources has a Spanish translation with the same placeholders, and that no template, page script or
CLI message holds an untranslated literal.
"""

from __future__ import annotations

import gettext as stdlib_gettext
import marshal
import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

from .errors import SettingError

LOCALE = Path(__file__).resolve().parent / "locale"
"""The catalogues: ``LOCALE/<lang>/*.po``."""
SOURCE = "en"
"""The language the messages are written in."""
LANGUAGES = ("es", "en")
"""The languages spoken, Spanish first (the players' own)."""
ENVIRONMENT = ("TUTEPGN_LANG", "LC_ALL", "LC_MESSAGES", "LANG")
"""Where the CLI looks for its language when ``--lang`` is not given, in order (gettext's own order, after
the program's variable)."""

_spoken: ContextVar[str] = ContextVar("tutepgn_language", default=SOURCE)


def language() -> str:
    """The language being spoken here: a code of :data:`LANGUAGES`."""
    return _spoken.get()


def checked(lang: str) -> str:
    """``lang`` if a catalogue speaks it (``es``, ``es_ES.UTF-8`` and ``ES`` are all ``es``), else a SettingError."""
    code = lang.strip().replace("-", "_").split("_")[0].split(".")[0].lower()
    if code not in LANGUAGES:
        raise SettingError(gettext("no messages in {lang!r}: the languages are {languages}", lang=lang,
                                   languages=", ".join(LANGUAGES)))
    return code


def set_language(lang: str) -> None:
    """Speak ``lang`` from now on in this context (the CLI, once; the service, once a request)."""
    _spoken.set(checked(lang))


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Speak ``lang`` inside the block, then what was spoken before."""
    token = _spoken.set(checked(lang))
    try:
        yield
    finally:
        _spoken.reset(token)


def gettext(message: str, /, **params: object) -> str:
    """``message`` in the language being spoken, its ``{placeholders}`` filled from ``params``."""
    found = catalogue(_spoken.get()).get(message) if _spoken.get() != SOURCE else None
    text = found if isinstance(found, str) else message
    return text.format(**params) if params else text


_ = gettext


def N_(message: str) -> str:  # noqa: N802 (gettext's name for it)
    """Mark ``message`` for the catalogue where it is defined (a field's description, a table of titles) and
    leave it in English: it is translated where it is shown, ``_(text)``."""
    return message


class Later:
    """A message kept with its values and put in the language spoken only when shown (``str()``, or as a value of
    another message): for words made on a path that runs for every card (where a card was seen, why it is
    where it is) and read only when a refusal quotes them.  Mark the message itself: ``Later(N_("..."), x=1)``."""

    __slots__ = ("message", "params")

    def __init__(self, message: str, /, **params: object) -> None:
        self.message = message
        self.params = params

    def __str__(self) -> str:
        return gettext(self.message, **self.params)

    def __repr__(self) -> str:
        return f"Later({self.message!r}, **{self.params!r})"


def ngettext(singular: str, plural: str, n: int, /, **params: object) -> str:
    """The form of a message for ``n`` things (``n`` is a placeholder too), in the language being spoken."""
    lang = _spoken.get()
    forms = catalogue(lang).get(singular) if lang != SOURCE else None
    if isinstance(forms, tuple):
        text = forms[min(plural_index(lang)(n), len(forms) - 1)]
    else:
        text = singular if n == 1 else plural
    return text.format(n=n, **params)


CACHE_FORMAT = 1
"""Bumped when the cached catalogue's layout changes, so that an old cache is read as stale."""


@cache
def catalogue(lang: str) -> Mapping[str, str | tuple[str, ...]]:
    """Every translated message of ``lang``: the merged PO files (fuzzy and empty entries left out).

    Reading the PO files with Babel costs a tenth of a second, more than the rest of ``tute rules``; the
    merged result is kept beside them (``__pycache__/catalogue.marshal``, stamped with each file's name, size
    and modification time, as Python keeps its bytecode), so a start reads it in a millisecond.  Where that
    folder cannot be written the files are read every time, with the same result.
    """
    return _compiled(lang)[0]


@cache
def plural_index(lang: str) -> Callable[[int], int]:
    """Which plural form of ``lang`` a count takes (its ``Plural-Forms``, as gettext reads it)."""
    return stdlib_gettext.c2py(_compiled(lang)[1])


@cache
def _compiled(lang: str) -> tuple[dict[str, str | tuple[str, ...]], str]:
    """(messages, plural expression) of ``lang``: from the cache when its stamp matches the PO files, else
    read with Babel and cached."""
    sources = sorted((LOCALE / lang).glob("*.po"))
    stamp = (CACHE_FORMAT, tuple((p.name, *_size_and_time(p)) for p in sources))
    cached = LOCALE / lang / "__pycache__" / "catalogue.marshal"
    try:
        saved_stamp, entries, plural = marshal.loads(cached.read_bytes())
        if saved_stamp == stamp:
            return entries, plural
    except (OSError, EOFError, ValueError, TypeError):
        pass
    entries, plural = _read_po(lang, sources)
    try:
        cached.parent.mkdir(exist_ok=True)
        partial = cached.with_name(f"{cached.name}.{os.getpid()}")
        partial.write_bytes(marshal.dumps((stamp, entries, plural)))
        partial.replace(cached)  # whole or not at all, even with two processes starting at once
    except OSError:
        pass
    return entries, plural


def _size_and_time(path: Path) -> tuple[int, int]:
    status = path.stat()
    return status.st_size, status.st_mtime_ns


def _read_po(lang: str, sources: list[Path]) -> tuple[dict[str, str | tuple[str, ...]], str]:
    from babel.messages.plurals import get_plural
    from babel.messages.pofile import read_po

    entries: dict[str, str | tuple[str, ...]] = {}
    for path in sources:
        with path.open("rb") as po:
            for message in read_po(po, locale=lang):
                if not message.id or message.fuzzy:
                    continue
                if isinstance(message.id, tuple):
                    forms = tuple(message.string or ())
                    if forms and all(forms):
                        entries[message.id[0]] = forms
                elif isinstance(message.string, str) and message.string:
                    entries[str(message.id)] = message.string
    return entries, get_plural(lang).plural_expr


PYDANTIC_MESSAGES = {
    "missing": N_("Field required"),
    "extra_forbidden": N_("Extra inputs are not permitted"),
    "greater_than": N_("Input should be greater than {gt}"),
    "greater_than_equal": N_("Input should be greater than or equal to {ge}"),
    "less_than": N_("Input should be less than {lt}"),
    "less_than_equal": N_("Input should be less than or equal to {le}"),
    "string_type": N_("Input should be a valid string"),
    "string_pattern_mismatch": N_("String should match pattern '{pattern}'"),
    "bool_type": N_("Input should be a valid boolean"),
    "bool_parsing": N_("Input should be a valid boolean, unable to interpret input"),
    "int_type": N_("Input should be a valid integer"),
    "int_parsing": N_("Input should be a valid integer, unable to parse string as an integer"),
    "int_from_float": N_("Input should be a valid integer, got a number with a fractional part"),
    "literal_error": N_("Input should be {expected}"),
    "date_type": N_("Input should be a valid date"),
    "date_parsing": N_("Input should be a valid date in the format YYYY-MM-DD, {error}"),
    "date_from_datetime_parsing": N_("Input should be a valid date or datetime, {error}"),
    "json_invalid": N_("Invalid JSON: {error}"),
    "list_type": N_("Input should be a valid list"),
    "dict_type": N_("Input should be a valid dictionary"),
}
"""Pydantic's messages of the errors a request's parameters and bodies have, by type, worded as pydantic words
them (its templates), so that they are said in the reader's language: :func:`pydantic_message`."""


def pydantic_message(error: Mapping[str, Any]) -> str:
    """A pydantic error's message in the language being spoken (pydantic's own words in English, and for an
    error of a type not in :data:`PYDANTIC_MESSAGES`); without "Value error, " before the library's sentence.
    The service's parameters and bodies and the notation's JSON records say their field errors with it."""
    template = PYDANTIC_MESSAGES.get(error["type"])
    if template is None or language() == SOURCE:
        return str(error["msg"]).removeprefix("Value error, ")
    return gettext(template, **{name: str(value) for name, value in error.get("ctx", {}).items()})


def from_environment(environ: Mapping[str, str] = os.environ) -> str:
    """The CLI's language when ``--lang`` is not given: the first of :data:`ENVIRONMENT` set to a language we
    speak (``TUTEPGN_LANG`` must be one; a locale we do not speak, such as ``C.UTF-8``, means English)."""
    if environ.get("TUTEPGN_LANG"):
        return checked(environ["TUTEPGN_LANG"])
    for name in ENVIRONMENT[1:]:
        if environ.get(name):
            try:
                return checked(environ[name])
            except SettingError:
                return SOURCE
    return SOURCE


def negotiate(accept_language: str | None) -> str:
    """The language of :data:`LANGUAGES` a browser prefers most (RFC 9110 ``Accept-Language``: q-values
    honoured, the first listed among equals); English, the source, when it names none we speak."""
    best, best_q = SOURCE, 0.0
    for item in (accept_language or "").split(","):
        tag, _sep, q = item.strip().partition(";q=")
        try:
            code, weight = checked(tag), float(q or 1)
        except (SettingError, ValueError):
            continue
        if weight > best_q:
            best, best_q = code, weight
    return best
