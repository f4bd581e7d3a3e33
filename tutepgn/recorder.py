"""Recording a deal played at a real table, one entry at a time, safe on disk after every entry.

The deal is entered as a record's tags say it (``N:1O 3O ... W:...``, the
stock with the turned card last) or shuffled from a seed.  Then each card and
declaration is typed as it happens, in notation: ``1O`` plays that card for
the seat to move (``N 1O`` names the seat too), ``N 40``, ``E 20C``,
``S tute 12``, ``S x7B`` declare.  The engine judges every entry: an illegal
one is refused with the rule that forbids it and the legal choices, and
nothing is applied.  After every accepted entry the record is written again
in export format, atomically, so an interrupted recording leaves a valid
unfinished (``*``) record holding every entry made.

>>> rec = Recorder.start("playcard-2p", seed=1)
>>> rec.enter("12O").refused, rec.enter("?").legal.split(" may play ")[0]
(True, 'S')
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import tempfile
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path

from .cards import CODES, CardSet, card_reader, pack
from .engine import Deal
from .errors import EntryError, IllegalAction, NotationError
from .events import PLAYS, Action, Context, Play, parse_declaration
from .notation import TAG_NAME, Header, Record, format_side_values, result_text
from .replay import Frame, match_target, replay, snapshot
from .rules import Ruleset, ruleset

ENTRIES = "a card (1O), a declaration (N 40, E 20C, S tute 12, S x7B), ? or help for the legal choices, undo"
"""What the recorder reads, in words."""
RESERVED_TAGS = ("Rules", "Dealer", "Deal", "Stock", "Trump", "Score", "Result")
"""Tags the recorder writes itself, from the ruleset, the deal and the play."""

_ENTRY = re.compile(r"(?:(?P<seat>[NWSE])\s+)?(?P<what>(?:tute|x)\s*\w+|\w+)", re.I)
"""An entry: an optional seat, then a card or a declaration (read by :func:`~tutepgn.events.parse_declaration`)."""
_DECLARATION = re.compile(r"[24]0|tute|x", re.I)


@dataclass(frozen=True, slots=True)
class Reply:
    """The recorder's answer to one line: what happened in words, the legal choices when they help.

    ``refused`` is set when the line was not applied (not understood, or
    illegal: then ``rule`` names the rule); ``frame`` is the position, given
    with the legal choices on ``?``.
    """

    message: str
    refused: bool = False
    legal: str = ""
    rule: str | None = None
    frame: Frame | None = None


def parse_tags(items: list[str] | tuple[str, ...]) -> dict[str, str]:
    """Read ``Name=value`` items into tags."""
    tags: dict[str, str] = {}
    for item in items:
        name, eq, value = item.partition("=")
        name = name.strip()
        if not eq or not TAG_NAME.fullmatch(name):
            raise ValueError(f"{item!r} is not a tag: write Name=value, e.g. Event=Club night")
        tags[name] = value.strip()
    return tags


def default_path(now: datetime | None = None) -> Path:
    """A new file name in the current directory, from the time: ``tute-20260314-201502.tpgn``."""
    return Path(f"tute-{(now or datetime.now()):%Y%m%d-%H%M%S}.tpgn")


def write_atomic(path: Path, text: str) -> None:
    """Write a file so that it always holds either its old or its new text, even if interrupted."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):  # gone once replaced: an interrupt may come just after
            os.unlink(tmp)
        raise


def _check_shape(rules: Ruleset, header: Header) -> None:
    """An entered deal holds every card of the pack once: full hands, and the stock for 2 players."""
    names = rules.seat_names
    hands = header.hands or ()
    for seat, mask in enumerate(hands):
        if mask.bit_count() != rules.hand_size:
            raise ValueError(f"[Deal] {names[seat]} holds {mask.bit_count()} cards; a hand has {rules.hand_size}")
    held = 0
    for mask in hands:
        held |= mask
    for c in header.stock:
        held |= 1 << c
    full = pack(rules.removed_ranks)
    if held & ~full:
        raise ValueError(f"cards not in this pack: {CardSet(held & ~full)}")
    if full & ~held:
        where = "the hands" if rules.trump_card == "dealer_last" else "the hands and the stock"
        raise ValueError(f"cards missing from {where}: {CardSet(full & ~held)}")


class Recorder:
    """A deal being recorded: entries in, the record out, written to ``path`` after every change."""

    def __init__(self, deal: Deal, tags: dict[str, str] | None = None,
                 path: str | os.PathLike[str] | None = None) -> None:
        self.deal = deal
        self.tags = dict(tags or {})
        self.path = Path(path) if path is not None else None
        self.saved = -1
        """Entries in the file as last written (-1: not written yet)."""

    @classmethod
    def start(cls, rules: Ruleset | str, *, seed: int | None = None, deal: str | None = None,
              stock: str | None = None, turned: str | None = None, dealer: str = "N",
              tags: dict[str, str] | None = None, path: str | os.PathLike[str] | None = None) -> Recorder:
        """Begin a recording from an entered deal or a seeded shuffle, and write the empty record.

        ``deal`` is in Deal tag format (``N:1O 3O ... S:...``), ``stock`` from
        top to bottom with the turned card last, ``turned`` the card showing
        trump (for 2 players, the stock's last by default).  The file at
        ``path`` must not exist yet: a recording never overwrites.  Raises
        ValueError (a :class:`~tutepgn.errors.TuteError` for a bad ruleset)
        with a message in words, or OSError.
        """
        r = ruleset(rules)
        tags = dict(tags or {})
        for name in RESERVED_TAGS:
            if name in tags:
                raise ValueError(f"the {name} tag is written from the ruleset, the deal and the play, not set by hand")
        tags.setdefault("Date", f"{date.today():%Y.%m.%d}")
        first = tags.get("DealNo") == "1"
        names = r.seat_names
        if dealer not in names:
            raise ValueError(f"dealer {dealer!r} is not a seat; seats are {' '.join(names)}")
        if seed is not None and (deal or stock or turned):
            raise ValueError("give either a seed to shuffle from or the deal itself, not both")
        if seed is not None:
            dealt = Deal.shuffled(r, seed, names.index(dealer), first_of_match=first)
        elif deal:
            dealt = _entered_deal(r, deal, stock, turned, dealer, first)
        else:
            raise ValueError("give the deal (and for 2 players the stock, turned card last) or a seed to shuffle from")
        path_ = Path(path) if path is not None else None
        if path_ is not None and path_.exists():
            raise FileExistsError(errno.EEXIST, "the file exists, and a recording never overwrites one; "
                                  "choose another name", str(path_))
        recorder = cls(dealt, tags, path_)
        recorder.save()
        return recorder

    # -- The record ------------------------------------------------------------
    def record(self) -> Record:
        """The record so far: ``*`` until the deal is over, then its Score and Result."""
        return Record.from_deal(self.deal, self.tags, match_target=self._target)

    @property
    def _target(self) -> int | None:
        """The MatchTarget tag, which decides a tute's worth in some rulesets."""
        return match_target(Record(tags=self.tags))

    def save(self) -> None:
        """Write the record to the file (atomically), if there is one."""
        if self.path is not None:
            write_atomic(self.path, self.record().tpgn())
            self.saved = len(self.deal.log)

    def ensure_saved(self) -> None:
        """Write the record again if an interrupt cut the last save short, so no accepted entry is lost."""
        if self.saved != len(self.deal.log):
            self.save()

    def frame(self) -> Frame:
        """The position now, as a replay frame."""
        log = self.deal.log
        return snapshot(self.deal, len(log), log[-1] if log else None, match_target=self._target)

    # -- Entries -----------------------------------------------------------------
    def prompt(self) -> str:
        """The prompt before the next entry: the trick number and the seat to move, as a trick line starts."""
        deal = self.deal
        if deal.over:
            return "> "
        return f"{len(deal.tricks) + 1}. {deal.rules.seat_names[deal.turn]} > "

    def legal_text(self) -> str:
        """The legal choices now: the cards of the seat to move, then the declarations anyone may make."""
        deal = self.deal
        if deal.over:
            return "the deal is over"
        plays = deal.legal_plays().codes()
        declarations = [a.text(Context.of(deal)) for a in deal.legal_actions() if type(a) is not Play]
        text = f"{deal.rules.seat_names[deal.turn]} may play {' '.join(plays)}"
        return text + (f"; or declare: {', '.join(declarations)}" if declarations else "")

    def parse(self, text: str) -> Action:
        """Read one entry into the action it names; raise :class:`EntryError` if it names none."""
        deal = self.deal
        names = deal.rules.seat_names
        m = _ENTRY.fullmatch(text.strip())
        if m is None:
            raise EntryError(f"{text.strip()!r} is not an entry; enter {ENTRIES}")
        letter = (m["seat"] or "").upper()
        if letter and letter not in names:
            raise EntryError(f"{letter} is not a seat here; seats are {' '.join(names)}")
        seat = names.index(letter) if letter else deal.turn
        if _DECLARATION.match(m["what"]):
            try:
                return parse_declaration(seat, m["what"], Context.of(deal))
            except NotationError as exc:
                raise EntryError(exc.message + (f" (expected {exc.expected})" if exc.expected else "")) from None
        card = card_reader("es").get(m["what"].upper())
        if card is None:
            raise EntryError(f"{m['what']!r} is not a card (rank 1-7, 10, 11, 12 then suit O, C, E or B); "
                             f"enter {ENTRIES}")
        return PLAYS[seat][card]

    def enter(self, line: str) -> Reply:
        """Take one line: an entry to apply, ``?``/``help``, or ``undo``.  Saves after every change."""
        text = line.strip()
        if not text:
            return Reply("")
        if text.lower() in ("?", "help"):
            return Reply(f"enter {ENTRIES}", legal=self.legal_text(), frame=self.frame())
        if text.lower() == "undo":
            return self.undo()
        if self.deal.over:
            return Reply("the deal is over: nothing more can be entered (undo takes back the last entry)",
                         refused=True)
        try:
            action = self.parse(text)
            self.deal.apply(action)
        except EntryError as exc:
            return Reply(str(exc), refused=True, legal=self.legal_text())
        except IllegalAction as exc:
            return Reply(f"refused: {exc.message} (rule {exc.rule})", refused=True, legal=self.legal_text(),
                         rule=exc.rule)
        self.save()
        return Reply(self._applied(action))

    def undo(self) -> Reply:
        """Take back the last entry, replaying the others from the deal's start."""
        old = self.deal
        if not old.log:
            return Reply("nothing to undo", refused=True)
        fresh = old.restart()
        for _ in replay(fresh, old.log[:-1]):
            pass
        self.deal = fresh
        self.save()
        return Reply(f"took back {old.log[-1].text(Context.of(old))}")

    def _applied(self, action: Action) -> str:
        """An accepted entry in words, with the trick it completed, the declarations now open, or the result."""
        deal = self.deal
        names = deal.rules.seat_names
        words = [action.text(Context.of(deal))]
        if type(action) is Play and not deal.trick:
            t = deal.tricks[-1]
            words.append(f"trick {len(deal.tricks)}: {' '.join(CODES[c] for c in t.cards)} "
                         f"won by {names[t.winner]} ({t.points} points)")
        if deal.over:
            sheet = deal.score(self._target)
            words.append(f"deal over: Score {format_side_values(sheet.totals, deal.rules)}, "
                         f"Result {result_text(sheet, deal.rules)}")
        else:
            declarations = [a.text(Context.of(deal)) for a in deal.legal_actions() if type(a) is not Play]
            if declarations:
                words.append(f"may declare: {', '.join(declarations)}")
        return "; ".join(words)


def _entered_deal(r: Ruleset, deal: str, stock: str | None, turned: str | None, dealer: str,
                  first: bool) -> Deal:
    """The deal as entered in tag format, checked to hold every card of the pack once."""
    tags = {"Rules": str(r), "Dealer": dealer, "Deal": deal}
    if stock:
        tags["Stock"] = stock
    if turned:
        tags["Trump"] = turned
    elif stock and stock.split():
        tags["Trump"] = stock.split()[-1]
    if first:
        tags["DealNo"] = "1"
    try:
        header = Record(tags=tags).header()
        _check_shape(r, header)
        if "Trump" not in tags:
            raise ValueError("give the turned card, which shows trump: one of the dealer's cards")
        return header.deal()
    except NotationError as exc:
        raise ValueError(exc.message) from None
