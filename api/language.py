"""The service speaks the reader's language: chosen per request, and the pages' templates and scripts told.

The language of a request (:func:`requested`): ``?lang=es`` (the pages' switch, remembered in a cookie),
then the cookie, then the browser's ``Accept-Language``, then English.  :class:`Language` speaks it for the
whole request (:mod:`tutepgn.i18n`), so pages, problems and validation findings come in it.  The templates
share one Jinja environment (:data:`PAGES`) with ``_``/``ngettext``, the language, and the table's words for
seats, suits, cards and dates (:mod:`tutepgn.words`: ``seat_words(seat)``, ``{{ date | date_words }}``); the
pages' scripts load
``/i18n/<lang>.js``, which hands them the catalogue (``api/static/i18n.js`` has their ``t()``).
"""

from __future__ import annotations

import json
import re
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import parse_qs, urlencode

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response
from fastapi.templating import Jinja2Templates
from starlette.types import ASGIApp, Receive, Scope, Send

from tutepgn import i18n, words
from tutepgn.errors import SettingError

from .guards import adding_headers

COOKIE = "tute_lang"
"""The cookie that remembers the language chosen with ``?lang=``."""
YEAR = 365 * 24 * 3600

PAGES = Jinja2Templates(directory=str(Path(__file__).resolve().parent / "templates"))
"""Every page's templates, with the messages of the language being spoken."""


def in_language(request: Request, lang: str) -> str:
    """The page being read, in ``lang``: its path and query, ``lang=`` set (the language switch's links)."""
    query = urlencode([*((k, v) for k, v in request.query_params.multi_items() if k != "lang"), ("lang", lang)])
    return f"{request.url.path}?{query}"


def number(n: int) -> str:
    """``n`` written as the language being spoken writes numbers (``1,234`` in English, ``12.345`` in Spanish)."""
    from babel.numbers import format_decimal

    return format_decimal(n, locale=i18n.language())


COMMAND = re.compile(r"\s*\[%[^\]]*\]")
COMMENT = re.compile(r" ?\{[^}]*\}")


def without_commands(text: str) -> str:
    """A record's text as the deal page shows it: the commands embedded in its comments for programs (PGN's
    ``[%dd 71]``, ``tute analyse --annotate``'s) left out, and a comment that held nothing else with them; the
    page says the analysis in words, and the downloaded record keeps them."""
    def plain(comment: re.Match[str]) -> str:
        kept = COMMAND.sub("", comment.group(0))
        return "" if kept.strip(" {}") == "" else kept

    return COMMENT.sub(plain, text)


PAGES.env.globals.update(_=i18n.gettext, ngettext=i18n.ngettext, language=i18n.language, languages=i18n.LANGUAGES,
                         in_language=in_language, number=number, seat_words=words.seat_words,
                         suit_words=words.suit_words, card_words=words.card_words)
PAGES.env.filters["date_words"] = words.date_words
PAGES.env.filters["without_commands"] = without_commands


def requested(scope: Scope) -> tuple[str, str | None]:
    """The language of a request, and the one its ``?lang=`` chose (to remember), if any."""
    chosen = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("lang", [""])[-1]
    headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", [])}
    for candidate, remember in ((chosen, True), (cookie(headers.get("cookie", "")), False)):
        if candidate:
            try:
                code = i18n.checked(candidate)
            except SettingError:
                continue
            return code, code if remember else None
    return i18n.negotiate(headers.get("accept-language")), None


def cookie(header: str) -> str:
    """The language cookie's value in a ``Cookie`` header ("" without one)."""
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(header)
    except Exception:  # a malformed Cookie header is the client's, not ours: no language from it
        return ""
    return jar[COOKIE].value if COOKIE in jar else ""


class Language:
    """Speak the request's language while it is answered; say which (``Content-Language``, ``Vary``)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        lang, remember = requested(scope)
        headers = [(b"content-language", lang.encode()), (b"vary", b"Accept-Language, Cookie")]
        if remember:
            headers.append((b"set-cookie", f"{COOKIE}={remember}; Path=/; Max-Age={YEAR}; SameSite=Lax".encode()))
        with i18n.speaking(lang):
            await self.app(scope, receive, adding_headers(send, headers))


def router() -> APIRouter:
    """``/i18n/<lang>.js``: the catalogue for the pages' scripts."""
    routes = APIRouter(include_in_schema=False)

    @routes.get("/i18n/{lang}.js")
    def catalogue_script(lang: str) -> Response:
        """The messages of ``lang`` for ``t()`` (api/static/i18n.js), and the seats' words
        (:data:`tutepgn.words.SEAT_WORDS`, for cards.js), cached a day: they change with a release."""
        try:
            code = i18n.checked(lang)
        except SettingError as exc:
            raise HTTPException(404, str(exc)) from exc
        messages = {} if code == i18n.SOURCE else dict(i18n.catalogue(code))
        seats = words.SEAT_WORDS.get(code, {})  # the seats' words, for cards.js: the library's one table
        body = (f"window.TUTE_LANG = {json.dumps(code)};\nwindow.TUTE_MESSAGES = {json.dumps(messages)};\n"
                f"window.TUTE_SEAT_WORDS = {json.dumps(seats, ensure_ascii=False)};\n")
        return Response(body, media_type="text/javascript; charset=utf-8",
                        headers={"Cache-Control": "public, max-age=86400"})

    return routes
