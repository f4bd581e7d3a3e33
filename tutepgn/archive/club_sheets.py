"""The club's pages as files: the statistics, a match's score sheet and a player's deals, as CSV, XLSX or PDF.

Each page's figures become :class:`~.printing.Table`s with headings in the reader's language (the pages' own
words), numbers kept as numbers, and go out through :func:`.printing.document`: the CSV holds the page's main
table (the players, the match's deals, the player's deals), the XLSX and the PDF every table of the page.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date
from typing import Any

from ..cards import SUIT_NAMES
from ..i18n import gettext as _
from ..words import seat_words
from ..i18n import ngettext, speaking
from .club import MatchView, PlayerView
from .printing import Cell, Download, Table, document

SUITS = dict(zip("OCEB", SUIT_NAMES))
"""A trump letter as the sheets write it (oros, copas, espadas, bastos: the same in both languages)."""


def file_name(*words: str) -> str:
    """A file name made of ``words``: letters (accented too), digits, ``-`` and ``_`` only (a name or an id may
    hold anything, a slash or a quote included)."""
    return "-".join(re.sub(r"[^\w-]+", "_", w).strip("_") or "_" for w in words)


def percent(rate: float | None) -> float | None:
    """A rate of 0..1 as a percentage to one decimal, as the pages show it."""
    return None if rate is None else round(rate * 100, 1)


def stats_download(stats: dict[str, Any], given: dict[str, Any], fmt: str, lang: str, *,
                   printed: date | None = None) -> Download:
    """:meth:`~.store.Archive.stats` (over the deals ``given`` filters match) as ``tute-stats.fmt``: the players
    first (the CSV's table), then the totals, the rules, the trumps and the winner's points."""
    with speaking(lang):
        subtitle = (_("Over the deals where: {filters}.", filters="; ".join(f"{k} = {v}" for k, v in given.items()))
                    if given else _("Over every deal in the archive."))
        return document(fmt, "tute-stats", _("Statistics"), subtitle, stats_tables(stats), lang, printed=printed)


def stats_tables(stats: dict[str, Any]) -> list[Table]:
    """The statistics page's tables, in the language spoken."""
    whole, sung, dealt, mano = stats["totals"], stats["cuarenta_sung"], stats["cuarenta_dealt"], stats["mano"]
    totals: list[tuple[Cell, ...]] = [
        (_("deals"), whole["deals"]), (_("finished"), whole["finished"]), (_("invalid"), whole["invalid"]),
        (_("the winner's points, on average"), whole["avg_winner_points"]), (_("tutes"), whole["tutes"]),
        (_("deals worth double"), whole["doubles"]), (_("ties decided by the last trick"), whole["tie_breaks"]),
        (_("won by the side that sang las cuarenta (%)"), percent(sung["rate"])),
        (_("won by the side dealt las cuarenta, sung or not (%)"), percent(dealt["rate"])),
        (_("won by the side of mano (%)"), percent(mano["rate"])),
        (_("mano's even chance (%)"), percent(mano["even_chance"]))]
    return [
        Table(_("Players"), (_("player"), _("deals"), _("deals won"), _("won (%)"), _("points, on average"), _("cantes"),
                             _("tutes")),
              [(p["player"], p["deals"], p["wins"], percent(p["win_rate"]), p["avg_points"], p["cantes"], p["tutes"])
               for p in stats["players"]]),
        Table(_("Totals"), (_("figure"), _("value")), totals),
        Table(_("Rules"), (_("rules"), _("deals"), _("the winner's points, on average"), _("tutes"),
                           _("deals worth double"), _("ties decided by the last trick")),
              [(r["preset"], r["deals"], r["avg_winner_points"], r["tutes"], r["doubles"], r["tie_breaks"])
               for r in stats["rulesets"]]),
        Table(_("Trumps"), (_("trump"), _("deals"), _("the winner's points, on average"),
                            _("the winner's lead, on average")),
              [(SUITS.get(r["trump"], r["trump"]), r["deals"], r["avg_winner_points"], r["avg_margin"])
               for r in stats["trumps"]]),
        Table(_("The winner's points"), (_("points"), _("deals")),
              [(f"{r['points_from']}–{r['points_from'] + 9}", r["deals"]) for r in stats["points"]]),
    ]


def match_download(told: Sequence[MatchView], match_id: str, fmt: str, lang: str, *,
                   printed: date | None = None) -> Download:
    """The score sheet of the match(es) stored under ``match_id`` as ``tute-match-ID.fmt``: each deal's points
    and the standing after it, a table per match (the CSV: the first match)."""
    with speaking(lang):
        lines = [f"{_players(m.seats)} — {_outcome(m)}" for m in told]
        if len(told) > 1:
            lines.insert(0, _("{n} matches are stored under this id: each is shown on its own, told apart by its "
                              "rules and its players.", n=len(told)))
        return document(fmt, file_name("tute-match", match_id), _("Match {match}", match=match_id),
                        "\n".join(lines), [match_table(m) for m in told], lang, printed=printed)


def match_table(m: MatchView) -> Table:
    """A match's score sheet: a row per deal with its date, dealer and trump, each side's points in the deal,
    the result, the match points it gave and the standing after it."""
    sides = m.sides
    columns = (_("deal"), _("date"), _("dealer"), _("trump"), *(_("points {side}", side=s) for s in sides),
               _("result"), *(_("match points {side}", side=s) for s in sides),
               *(_("standing {side}", side=s) for s in sides))
    rows = []
    blank: list[Cell] = [None] * len(sides)
    for number, d in enumerate(m.deals, start=1):
        s = d.summary
        scores = s.score if s.score and len(s.score) == len(sides) else blank
        points = d.match_points if d.match_points and len(d.match_points) == len(sides) else blank
        rows.append((s.deal_no or number, s.date, s.dealer, SUITS.get(s.trump or "", s.trump), *scores, s.result,
                     *points, *(d.standing or blank)))
    return Table(" · ".join(x for x in (m.event or _("(no event)"), m.rules) if x), columns, rows)


def _players(seats: dict[str, str | None]) -> str:
    """The players by seat, as the match page lists them ("N Ana · S Luis"; in Spanish "Norte Ana · Sur Luis")."""
    return " · ".join(f"{seat_words(seat)} {name}" for seat, name in seats.items() if name)


def _outcome(m: MatchView) -> str:
    """Who won the match, or where it stands, in the match page's words."""
    standing = " · ".join(f"{seat_words(side)} {value}" for side, value in zip(m.sides, m.standing or [])) or "—"
    if m.winner:
        return _("{side} wins the match {standing} ({players})", side=seat_words(m.winner), standing=standing,
                 players=", ".join(m.winner_players))
    return _("The match goes on: {standing}, to {target} points.", standing=standing, target=m.target)


def player_download(p: PlayerView, fmt: str, lang: str, *, printed: date | None = None) -> Download:
    """A player's page as ``tute-player-NAME.fmt``: their newest deals (the CSV's table), partners and
    opponents, under their totals."""
    with speaking(lang):
        subtitle = "\n".join((
            ngettext("{n} deal", "{n} deals", p.deals) + ": " + _(
                "{wins} won, {losses} lost, {unfinished} unfinished", wins=p.wins, losses=p.losses,
                unfinished=p.unfinished) + ".",
            _("Cantes sung: {twenties} of 20, {forties} of 40 (las cuarenta); tutes: {tutes}.",
              twenties=p.cantes.get("20", 0), forties=p.cantes.get("40", 0), tutes=p.tutes)))
        return document(fmt, file_name("tute-player", p.name), p.name, subtitle, player_tables(p), lang,
                        printed=printed)


def player_tables(p: PlayerView) -> list[Table]:
    """The player page's tables, in the language spoken: their deals, partners and opponents."""
    deals = []
    for d in p.recent:
        s = d.summary
        own = s.score[s.sides.index(d.side)] if s.score and d.side in s.sides else None
        shown = " · ".join(f"{side} {v}" for side, v in zip(s.sides, s.score or []))
        others = ", ".join(name for seat, name in s.seats.items() if name and name != p.name)
        deals.append((s.date, s.event, s.match, s.deal_no, d.seat, others, own, shown, s.result,
                      _("unfinished") if d.won is None else _("won") if d.won else _("lost")))
    companions = (_("player"), _("deals together"), _("won by {name}", name=p.name))
    return [
        Table(_("Deals"), (_("date"), _("event"), _("match"), _("deal"), _("seat"), _("players"),
                           _("their side's points"), _("score"), _("result"), _("outcome")), deals),
        Table(_("Partners"), companions, [(c.name, c.deals, c.wins) for c in p.partners]),
        Table(_("Opponents"), companions, [(c.name, c.deals, c.wins) for c in p.opponents]),
    ]
