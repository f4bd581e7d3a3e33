"""The browser's tables (``/play``): a person's :class:`~tutepgn.play.table.Table` kept by the service under an
id, for one deal or a whole match, written down after every change so that any process can rebuild it.

A table's file (``<id>.json`` in the tables' folder) is its record so far: how it started (rules, seat, level,
seed, one deal or a match, the person's name, the language its players' names are written in) and, for each
deal, its dealer and tags, every action taken (the bots' and the person's, in the notation), the seats asked
to declare out of turn at each point (a pass leaves no action), and the deal's id in the archive once stored.
Rebuilding replays those actions on the same shuffle (the seed) and never asks a bot again: a PIMC bot's choice
depends on its time budget, so a bot is asked once and its action kept.  The file is written whole (a temporary
file renamed over it) after each change, with a version that each change adds one to; :meth:`Tables.get` reads
it at every request and rebuilds the table only when another process wrote a newer version, so a page reload,
a restart or a request answered by another worker of ``tute serve --workers N`` finds the table as it was left.
One person plays a table: changes to one table are taken one at a time within a process (its lock), not
across processes.

>>> import tempfile
>>> tables = Tables(tempfile.mkdtemp())
>>> sitting = tables.create("playcard-2p", "S", level=1, seed=3)
>>> said = sitting.enter(sitting.state()["cards"][0])
>>> Tables(tables.folder).get(sitting.id).state()["version"] == sitting.version
True
"""

from __future__ import annotations

import json
import os
import re
import secrets
import threading
from dataclasses import asdict
from datetime import date
from pathlib import Path
from typing import Any

from ..errors import EntryError
from ..events import Action, Cante, Context, Exchange, Play, Tute
from ..i18n import gettext as _
from ..i18n import ngettext, speaking
from ..notation import Record, format_side_values
from ..recording.session import following
from ..rules import Ruleset, ruleset
from ..words import card_words, standing_words, suit_words
from .bots import LEVELS, PIMC_NAME, TOP_LEVEL
from .table import Table

ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{8,32}")
"""What a table's id looks like (ids are made here, never taken from a request as a path)."""
MAX_TABLES = 200
"""Tables a process keeps in memory; past it the least recently used is dropped (its file stays)."""


class Sitting:
    """One person's table: its start, the deals so far (each as what was played), the current deal's Table."""

    def __init__(self, folder: Path, tid: str, start: dict[str, Any], deals: list[dict[str, Any]],
                 version: int = 0) -> None:
        self.folder = folder
        self.id = tid
        # a table begun at a level no longer named (6 to 8, when there were 8) goes on at the top one
        self.start = {**start, "level": min(int(start["level"]), TOP_LEVEL)}
        self.rules: Ruleset = ruleset(start["rules"])
        self.deals = deals
        self.version = version
        self.lock = threading.RLock()
        """Held while the table changes (the bots thinking included) and while its state is read."""
        self.table = self.rebuilt()

    # -- Building -------------------------------------------------------------------------------------------
    def seed_of(self, k: int) -> int:
        """The seed of the match's deal ``k`` (0 the first): the table's seed, then one more a deal."""
        return int(self.start["seed"]) + k

    def rebuilt(self) -> Table:
        """The current deal's Table: dealt from its seed, its actions applied again, its passes restored."""
        d = self.deals[-1]
        with speaking(self.start["lang"]):  # the players' names and the Event tag, as the table began
            table = Table(self.rules, self.rules.seat_names.index(self.start["seat"]), int(self.start["level"]),
                          seed=self.seed_of(len(self.deals) - 1), name=self.start["name"],
                          dealer=None if d["dealer"] is None else self.rules.seat_names.index(d["dealer"]),
                          tags=d["tags"])
        d["dealer"] = self.rules.seat_names[table.deal.dealer]  # the first deal's, drawn from the seed
        for text in d["log"]:
            table.deal.apply(table.recorder.parse(text))
        table.asked = {(int(at), int(seat)) for at, seat in d["asked"]}
        return table

    def keep(self) -> None:
        """Write the current deal's actions and passes into the file, one version more (atomically)."""
        deal = self.table.deal
        ctx = Context.of(deal)
        self.deals[-1]["log"] = [a.text(ctx) for a in deal.log]
        self.deals[-1]["asked"] = sorted([at, seat] for at, seat in self.table.asked)
        self.version += 1
        write_whole(self.folder / f"{self.id}.json",
                    json.dumps({"id": self.id, "version": self.version, "start": self.start, "deals": self.deals},
                               ensure_ascii=False))

    # -- Play -----------------------------------------------------------------------------------------------
    def enter(self, line: str) -> list[str]:
        """The person's entry (a card, a declaration, or "" to pass when asked out of turn), then the bots'
        actions until the person must decide again: each in words.  A refused entry raises
        :class:`~tutepgn.errors.EntryError` or :class:`~tutepgn.errors.IllegalAction`, saying why, and changes
        nothing."""
        with self.lock:
            if self.table.deal.over:
                raise EntryError(_("the deal is over"))
            action = self.table.enter(line)
            said = [self.told(action)] if action is not None else [_("You pass.")]
            for bot in self.table.steps():
                said.append(self.told(bot))
            self.keep()
            return said

    def record(self) -> Record:
        """The current deal's record so far (its players named: the person and each bot with its level)."""
        return self.table.record()

    def stored(self, deal_id: int) -> None:
        """Note that the finished current deal is in the archive as ``deal_id``."""
        with self.lock:
            self.deals[-1]["stored"] = deal_id
            self.keep()

    def next_deal(self) -> list[str]:
        """Deal the match's next deal (the next dealer, the standing carried) and let the bots act until the
        person must decide.  Raises :class:`~tutepgn.errors.EntryError` when there is none to deal."""
        with self.lock:
            after = self.following()
            if after is None or "dealer" not in after:
                raise EntryError(_("this table plays one deal") if not self.start["match"] else
                                 _("finish the deal first") if not self.table.deal.over else
                                 _("the match is over"))
            self.deals.append({"dealer": after["dealer"], "tags": after["tags"], "log": [], "asked": [],
                               "stored": None})
            self.table = self.rebuilt()
            said = [self.told(a) for a in self.table.steps()]
            self.keep()
            return said

    def following(self) -> dict[str, Any] | None:
        """Once the current deal of a match is over: the match's standing after it, the side that won the
        match (or None) and the next deal's dealer and tags; None for one deal or a deal not over."""
        deal = self.table.deal
        if not self.start["match"] or not deal.over:
            return None
        d = self.deals[-1]
        nxt = following(self.rules, d["tags"], d["dealer"], deal, match=d["tags"]["Match"])
        tags = dict(nxt.tags, Date=date.today().strftime("%Y.%m.%d"))
        return {"standing": list(nxt.standing), "winner": nxt.winner, "dealer": nxt.dealer, "tags": tags} \
            if nxt.winner is None else {"standing": list(nxt.standing), "winner": nxt.winner}

    # -- What is shown --------------------------------------------------------------------------------------
    def told(self, action: Action) -> str:
        """An action just taken, in words (no notation: a page says cards as players do), with the trick it
        completed."""
        return self.table.said(action, done_words(action, self.table.deal.trump))

    def state(self) -> dict[str, Any]:
        """What the person's page shows: the scene (hand, trick, muestra, points, whose turn), the legal cards
        and the declarations offered (with their words), the match, and the deal's id once stored."""
        with self.lock:  # never a deal half way through the bots' moves
            return self.shown()

    def shown(self) -> dict[str, Any]:
        """:meth:`state`, its lock held."""
        table = self.table
        scene = table.scene()
        ctx = Context.of(table.deal)
        options = table.options()
        after = self.following()
        standing = None
        if self.start["match"]:
            tags = self.deals[-1]["tags"]
            standing = after["standing"] if after else [
                int(part.partition(":")[2]) for part in tags["MatchScore"].split()]
        return {
            "id": self.id, "version": self.version, "rules": self.start["rules"], "level": self.start["level"],
            "match": bool(self.start["match"]), "deal_no": len(self.deals), **asdict(scene),
            "partner": partners(self.rules)[table.seat][1],
            "cards": [a.text(ctx).split(" ", 1)[1] for a in options if type(a) is Play],
            "declarations": [{"entry": a.text(ctx).split(" ", 1)[1], "words": declaration_words(a, table.deal.trump)}
                             for a in options if type(a) is not Play],
            "deal_id": self.deals[-1]["stored"],
            "standing": standing,
            "standing_words": standing_words(standing, self.rules.side_labels) if standing is not None else "",
            "next_dealer": after.get("dealer") if after else None,
            "winner": self.rules.side_labels[after["winner"]] if after and after["winner"] is not None else None,
        }


def partners(rules: Ruleset) -> list[tuple[str, str | None]]:
    """Each seat a person may take, with the partner it brings in pairs (None without partners)."""
    names = rules.seat_names
    return [(s, names[(i + 2) % 4] if rules.players == 4 else None) for i, s in enumerate(names)]


def level_words(level: int) -> str:
    """A bots' level as the start page offers it: its number and how its bot plays, in words."""
    name = LEVELS[level]
    pimc = PIMC_NAME.fullmatch(name)
    if pimc is not None:
        worlds = int(pimc[1])
        how = (ngettext("PIMC, {n} world weighted by the play so far", "PIMC, {n} worlds weighted by the play so far",
                        worlds) if pimc[2] else ngettext("PIMC, {n} world", "PIMC, {n} worlds", worlds))
    else:
        how = {"random": _("random cards"), "greedy": _("sings whenever it may"),
               "heuristic": _("plays like a club player")}.get(name, name)
    return _("Level {level}: {how}", level=level, how=how)


def done_words(action: Action, trump: int) -> str:
    """An action as the page tells it once taken: the card in words, or what was declared."""
    if type(action) is Play:
        return card_words(action.card)
    if type(action) is Cante:
        return _("sings the forty") if action.suit == trump else _("sings twenty in {suit}",
                                                                   suit=suit_words(action.suit))
    if type(action) is Tute:
        return _("sings tute of reyes") if action.rank == 12 else _("sings tute of caballos")
    assert type(action) is Exchange
    return _("exchanges {card} for the muestra", card=card_words(action.card))


def declaration_words(action: Action, trump: int) -> str:
    """A declaration offered to the person, as its button says it."""
    if type(action) is Cante:
        return _("Sing the forty") if action.suit == trump else _("Sing twenty in {suit}", suit=suit_words(action.suit))
    if type(action) is Tute:
        return _("Sing tute of reyes") if action.rank == 12 else _("Sing tute of caballos")
    if type(action) is Exchange:
        return _("Exchange {card} for the muestra", card=card_words(action.card))
    return str(action)


def write_whole(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: a temporary file beside it, flushed, renamed over it."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
    with open(temporary, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(temporary, path)


class Tables:
    """The tables of one service: their files in ``folder``, the ones this process served kept in memory."""

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder)
        self.kept: dict[str, Sitting] = {}
        self.lock = threading.Lock()

    def create(self, rules: str, seat: str, *, level: int = 3, seed: int | None = None, match: bool = False,
               name: str | None = None, lang: str = "en") -> Sitting:
        """A new table, the bots already played up to the person's first decision; ``seed`` None: a random one.
        Raises ValueError (or a :class:`~tutepgn.errors.TuteError`) for rules, a seat or a level that is not."""
        r = ruleset(rules)
        letter = seat.strip().upper()
        if letter not in r.seat_names:
            raise ValueError(_("{seat} is not a seat here; seats are {seats}", seat=seat,
                               seats=" ".join(r.seat_names)))
        if level not in LEVELS:
            raise ValueError(_("the level is 1 to {top}, not {level}", level=level, top=TOP_LEVEL))
        tid = secrets.token_urlsafe(9)
        start = {"rules": rules, "seat": letter, "level": level, "seed": secrets.randbelow(2**31) if seed is None
                 else seed, "match": match, "name": name or None, "lang": lang}
        tags = {"Site": "/play", "Date": date.today().strftime("%Y.%m.%d")}
        if match:
            tags.update(Match=f"play-{tid}", DealNo="1", MatchTarget=str(r.match_target),
                        MatchScore=format_side_values([0] * r.sides, r))
        self.folder.mkdir(parents=True, exist_ok=True)
        sitting = Sitting(self.folder, tid, start, [{"dealer": None, "tags": tags, "log": [], "asked": [],
                                                     "stored": None}])
        with sitting.lock:
            sitting.table.advance()
            sitting.keep()
        self.remember(sitting)
        return sitting

    def get(self, tid: str) -> Sitting | None:
        """The table of that id as its file last left it (None: no such table)."""
        if not ID_PATTERN.fullmatch(tid):
            return None
        try:
            saved = json.loads((self.folder / f"{tid}.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        with self.lock:
            sitting = self.kept.get(tid)
        if sitting is not None and sitting.version >= int(saved["version"]):
            return sitting
        sitting = Sitting(self.folder, tid, saved["start"], saved["deals"], int(saved["version"]))
        self.remember(sitting)
        return sitting

    def remember(self, sitting: Sitting) -> None:
        with self.lock:
            self.kept.pop(sitting.id, None)
            self.kept[sitting.id] = sitting
            while len(self.kept) > MAX_TABLES:
                self.kept.pop(next(iter(self.kept)))


__all__ = ["Sitting", "Tables", "declaration_words", "done_words", "level_words", "partners"]
