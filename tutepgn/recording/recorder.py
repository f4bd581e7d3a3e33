"""Recording a deal played at a real table, one entry at a time, safe on disk after every entry.

At a real table the hands are unknown (the default): the scorer gives the
turned card, then enters what the table sees, in order: each card as it is
played (several to a line, whole tricks as ``1. S 6B 7B 12B 4B``), each
declaration as it is shown (``N 40``, ``E 20C``, ``S tute 12``, ``S x7B``).
Each entry is judged from the cards seen so far (:mod:`tutepgn.recording.sighted`): a
card already played or held by another seat, a seat out of turn, a revoke
proved by a card seen later, a declaration the rules refuse.  A deal dealt by
the program (a seed) or entered in full (``N:1O 3O ... W:...``, the stock with
the turned card last) is judged on its real hands instead.  A refused entry
is not applied, and the reply names the rule.  After every accepted line the
record is written again in export format, atomically, so an interrupted
recording leaves a valid unfinished (``*``) record holding every entry made,
which :meth:`Recorder.resume` goes on with.

>>> rec = Recorder.start("playcard-2p", seed=1)
>>> rec.enter("12O").refused, rec.enter("?").legal.split(" may play ")[0]
(True, 'S')
>>> table = Recorder.start("torofun-3p", turned="11C", dealer="E")
>>> table.enter("1. N 4E 6E 12E").refused, table.prompt()
(False, '2. E > ')
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import NamedTuple

from ..cards import CODES, Card, CardSet, card_reader, mask_of, pack
from ..check.replay import Frame, match_target, replay, snapshot
from ..check.report import Report
from ..check.validate import validate
from ..engine import Deal
from ..errors import EntryError, IllegalAction, NotationError
from ..events import PLAYS, Action, Context, Play, parse_declaration
from ..words import card_words, cards_words, seat_words
from ..i18n import N_, gettext as _
from ..limits import max_line_bytes
from ..notation import TAG_NAME, Header, Record, format_side_values, result_text, tpgn
from ..notation.record import unreadable_start
from ..rules import Ruleset, ruleset
from .commands import END_WORDS, HELP_WORDS, UNDO
from .sighted import SeenDeal, Start, check, declarations, reconstructed_deal

ENTRIES = N_("cards as played (1O, or a whole trick: 1. S 6B 7B 12B 4B), a declaration (N 40, E 20C, S tute 12, "
           "S x7B), ? or help for the position, undo to take back the last entry (undo 3: the last three), end to "
           "stop (everything entered is kept)")
"""What the recorder reads, in words."""
RESERVED_TAGS = ("Rules", "Dealer", "Deal", "Stock", "Trump", "Score", "Result")
"""Tags the recorder writes itself, from the ruleset, the deal and the play."""

_TOKEN = re.compile(r"(?P<trick>\d+)\.|(?:tute|x)\s*[^\s.]+|[^\s.]+", re.I)
"""A word of an entry line: a trick number (``3.``), a seat, a card, or a declaration (``tute 12``, ``x 7B``
with or without the space)."""
_COMMENT = re.compile(r"\{[^}]*\}?|;.*")
_DECLARATION = re.compile(r"[24]0|tute|x", re.I)


@dataclass(frozen=True, slots=True)
class Reply:
    """The recorder's answer to one line: what happened in words, the legal choices when they help.

    ``refused`` is set when the line (or its rest, after the entries applied)
    was not applied (not understood, or illegal: then ``rule`` names the
    rule); ``frame`` is the position after the entries applied, and with the
    legal choices on ``?``.
    """

    message: str
    refused: bool = False
    legal: str = ""
    rule: str | None = None
    frame: Frame | None = None
    end: bool = False


def parse_tags(items: list[str] | tuple[str, ...]) -> dict[str, str]:
    """Read ``Name=value`` items into tags."""
    tags: dict[str, str] = {}
    for item in items:
        name, eq, value = item.partition("=")
        name = name.strip()
        if not eq or not TAG_NAME.fullmatch(name):
            raise ValueError(_("{item} is not a tag: write Name=value, e.g. Event=Club night", item=repr(item)))
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


def _check_twice(header: Header) -> None:
    """A card entered twice is named, with where it was given (a hand holding it twice reads as a short hand)."""
    reader = card_reader(header.tags.get("Cards", "es"))
    where: dict[Card, str] = {}
    for tag in ("Deal", "Stock"):
        place = "the stock"
        for word in header.tags.get(tag, "").split():
            seat, colon, code = word.rpartition(":")
            if colon:
                place = seat
            card = reader.get(code.upper())
            if card is None:
                continue
            if card in where:
                raise ValueError(_("[{tag}] {card} is given twice to {place}", tag=tag, card=CODES[card], place=place)
                                 if where[card] == place else
                                 _("[{tag}] {card} is given to {first} and to {place}", tag=tag, card=CODES[card],
                                   first=where[card], place=place))
            where[card] = place


def _check_shape(rules: Ruleset, header: Header) -> None:
    """An entered deal holds every card of the pack once: full hands, and the stock for 2 players."""
    names = rules.seat_names
    _check_twice(header)
    hands = header.hands or ()
    for seat, mask in enumerate(hands):
        if mask.bit_count() != rules.hand_size:
            raise ValueError(_("[Deal] {seat} holds {n} cards; a hand has {size}", seat=seat_words(names[seat]),
                               n=mask.bit_count(), size=rules.hand_size))
    held = 0
    for mask in hands:
        held |= mask
    for c in header.stock:
        held |= 1 << c
    full = pack(rules.removed_ranks)
    if held & ~full:
        raise ValueError(_("cards not in this pack: {cards}", cards=CardSet(held & ~full)))
    if full & ~held:
        raise ValueError(_("cards missing from the hands: {cards}", cards=CardSet(full & ~held))
                         if rules.trump_card == "dealer_last" else
                         _("cards missing from the hands and the stock: {cards}", cards=CardSet(full & ~held)))


class Item(NamedTuple):
    """One entry read from a line: the seat named (None: the seat to move), the word, the trick number written."""

    seat: int | None
    word: str
    trick: int | None


class Recorder:
    """A deal being recorded: entries in, the record out, written to ``path`` after every change.

    With the hands known (a deal shuffled by the program or entered) the
    engine judges each entry on the real hands.  With the hands unknown
    (``seen`` is set: what a scorer at a real table knows) each entry is
    judged by :func:`tutepgn.recording.sighted.check` from the cards seen so far, and
    ``deal`` is a :class:`~tutepgn.recording.sighted.SeenDeal`.  ``before`` holds the
    records the file holds before this one (the earlier deals of a match).
    """

    def __init__(self, deal: Deal, tags: dict[str, str] | None = None,
                 path: str | os.PathLike[str] | None = None, *, seen: Start | None = None,
                 before: Sequence[str] = ()) -> None:
        self.deal = deal
        self.seen = seen
        self.tags = dict(tags or {})
        self.path = Path(path) if path is not None else None
        self.before = list(before)
        self.saved = -1
        """Entries in the file as last written (-1: not written yet)."""
        self.report: Report | None = None
        """The validator's report of the finished deal (hands unknown: the deal as reconstructed)."""

    @classmethod
    def start(cls, rules: Ruleset | str, *, seed: int | None = None, deal: str | None = None,
              stock: str | None = None, turned: str | None = None, dealer: str = "N",
              tags: dict[str, str] | None = None, path: str | os.PathLike[str] | None = None,
              before: Sequence[str] = ()) -> Recorder:
        """Begin a recording and write the empty record.

        With neither ``seed`` nor ``deal`` the hands are unknown, as at a real
        table: only ``turned``, the card turned to show trump, is needed.
        Otherwise the deal is shuffled from ``seed`` or entered: ``deal`` in
        Deal tag format (``N:1O 3O ... S:...``), ``stock`` from top to bottom
        with the turned card last, ``turned`` (for 2 players, the stock's last
        by default).  A new file at ``path`` must not exist yet (a recording
        never overwrites); with ``before`` (the earlier deals of a match in
        the same file) the file is rewritten whole.  Raises ValueError (a
        :class:`~tutepgn.errors.TuteError` for a bad ruleset) with a message
        in words, or OSError.
        """
        r = ruleset(rules)
        tags = dict(tags or {})
        for name in RESERVED_TAGS:
            if name in tags:
                raise ValueError(_("the {name} tag is written from the ruleset, the deal and the play, not set by "
                                   "hand", name=name))
        tags.setdefault("Date", f"{date.today():%Y.%m.%d}")
        first = tags.get("DealNo") == "1"
        names = r.seat_names
        if dealer not in names:
            raise ValueError(_("dealer {dealer} is not a seat; seats are {seats}", dealer=repr(dealer),
                               seats=" ".join(names)))
        if seed is not None and (deal or stock):
            raise ValueError(_("give either a seed to shuffle from or the deal itself, not both"))
        seen = None
        if seed is not None:
            if turned:
                raise ValueError(_("give either a seed to shuffle from or the turned card, not both"))
            dealt: Deal = Deal.shuffled(r, seed, names.index(dealer), first_of_match=first)
        elif deal or stock:
            dealt = _entered_deal(r, deal or "", stock, turned, dealer, first)
        else:
            seen = Start(r, names.index(dealer), read_turned(r, turned), first)
            dealt = check(seen, [])
        path_ = Path(path) if path is not None else None
        if path_ is not None and not before and path_.exists():
            raise FileExistsError(errno.EEXIST, _("the file exists, and a recording never overwrites one; "
                                  "choose another name, or resume it with --resume"), str(path_))
        recorder = cls(dealt, tags, path_, seen=seen, before=before)
        problem = unreadable_start(recorder.record())  # else the archive would store the record unreadable
        if problem:
            raise ValueError(problem)
        recorder.save()
        return recorder

    @classmethod
    def resume(cls, record: Record, path: str | os.PathLike[str] | None = None, *,
               before: Sequence[str] = ()) -> Recorder:
        """Go on with a record from its file: its events are judged again, as if entered one by one.

        Raises ValueError naming what keeps the record from being resumed.
        """
        try:
            header = record.header()
            if header.dealer is None or header.turned is None:
                raise ValueError(_("the record has no Dealer or no Trump tag: it was not written by the recorder"))
            if header.hands is not None:
                deal = header.deal()
                seen = None
                for event in record.events:
                    deal.apply(event)
            else:
                seen = Start(header.rules, header.dealer, header.turned, header.first_of_match)
                deal = check(seen, record.events)
        except (NotationError, IllegalAction) as exc:
            raise ValueError(_("cannot resume: {reason}", reason=exc.message)) from None
        tags = {k: v for k, v in record.tags.items() if k not in RESERVED_TAGS}
        recorder = cls(deal, tags, path, seen=seen, before=before)
        recorder.saved = len(deal.log)
        return recorder

    # -- The record ------------------------------------------------------------
    @property
    def over(self) -> bool:
        """True once the deal is over: every card played, or a tute."""
        return self.deal.over

    def final_deal(self) -> Deal:
        """The deal as the record gives it: the engine's, or with the hands unknown the deal reconstructed
        (3 and 4 players, every card played) or else the deal as seen."""
        if self.seen is not None and self.deal.over:
            return reconstructed_deal(self.seen, self.deal.log) or self.deal
        return self.deal

    def record(self) -> Record:
        """The record so far: ``*`` until the deal is over, then its Score and Result.

        With the hands unknown, the Deal tag is written once the deal is
        reconstructed (3 and 4 players, every card played); until then, and
        for 2 players, the record has no Deal and no Stock tag.
        """
        deal = self.final_deal()
        record = Record.from_deal(deal, self.tags, match_target=self._target)
        if type(deal) is SeenDeal:
            record.tags.pop("Deal", None)
            record.tags.pop("Stock", None)
        return record

    @property
    def _target(self) -> int | None:
        """The MatchTarget tag, which decides a tute's worth in some rulesets."""
        return match_target(Record(tags=self.tags))

    def save(self) -> None:
        """Write the file (atomically), if there is one: the records before this one, then this one."""
        if self.path is not None:
            write_atomic(self.path, "".join(tpgn.join([*self.before, self.record().tpgn()])))
            self.saved = len(self.deal.log)

    def ensure_saved(self) -> None:
        """Write the record again if an interrupt cut the last save short, so no accepted entry is lost."""
        if self.saved != len(self.deal.log):
            self.save()

    def frame(self) -> Frame:
        """The position now, as a replay frame (with the hands unknown, each hand shows the cards known in it)."""
        log = self.deal.log
        return snapshot(self.deal, len(log), log[-1] if log else None, match_target=self._target)

    # -- Entries -----------------------------------------------------------------
    @property
    def leader_unknown(self) -> bool:
        """The first deal of a match whose leader holds a given card (2O): the scorer names the seat that leads."""
        seen = self.seen
        return (seen is not None and seen.first_of_match and bool(seen.rules.first_deal_leader_card)
                and not self.deal.log)

    def prompt(self) -> str:
        """The prompt before the next entry: the trick number and the seat to move, as a trick line starts."""
        deal = self.deal
        if deal.over:
            return "> "
        seat = "?" if self.leader_unknown else deal.rules.seat_names[deal.turn]
        return f"{len(deal.tricks) + 1}. {seat} > "

    def legal_text(self) -> str:
        """The legal choices now: the cards of the seat to move, then the declarations anyone may make.

        With the hands unknown: the seat to move, the cards not played yet, and who may declare now.
        """
        deal = self.deal
        r = deal.rules
        if deal.over:
            return _("the deal is over")
        if self.seen is not None:
            played = mask_of(e.card for e in deal.log if type(e) is Play)
            seat = (_("the holder of {card}", card=card_words(r.first_deal_leader_card or "")) if self.leader_unknown
                    else seat_words(r.seat_names[deal.turn]))
            text = _("{seat} plays next (hands unknown; not played yet: {cards})", seat=seat,
                     cards=CardSet(pack(r.removed_ranks) & ~played))
            if deal.window_side is not None and not deal.trick:
                text = _("{text}; {side} may declare (won the last trick)", text=text,
                         side=seat_words(r.side_labels[deal.window_side]))
            return text
        plays = deal.legal_plays().codes()
        offered = self.declarations()
        text = _("{seat} may play {cards}", seat=seat_words(r.seat_names[deal.turn]), cards=" ".join(plays))
        return _("{text}; or declare: {declarations}", text=text, declarations=", ".join(offered)) if offered else text

    def legal_if_short(self) -> str:
        """The legal choices to show with a refusal: with the hands known, the seat's legal cards; with them
        unknown nothing (they would be every card not played yet, up to 40: the refusal says why in a sentence,
        and ``?``/``ayuda`` lists them on request)."""
        return self.legal_text() if self.seen is None else ""

    def declarations(self) -> list[str]:
        """The declarations accepted now, as entries (``N 40``, ``S 20E``, ``S tute 12``, ``N x7B``): with the hands
        known the engine's legal ones; with them unknown every one the cards seen allow (the phone's buttons)."""
        deal = self.deal
        if self.seen is None:
            actions = [a for a in deal.legal_actions() if type(a) is not Play]
        else:
            actions = declarations(self.seen, deal.log)
        ctx = Context.of(deal)
        return [a.text(ctx) for a in actions]

    def items(self, text: str) -> list[Item]:
        """Read a line into entries: cards and declarations, several to a line, whole tricks with their number
        and leader (``1. S 6B 7B 12B 4B``), in any case, as the import format writes them.  Comments in braces
        or after ``;`` are skipped.  Raises :class:`EntryError`."""
        names = self.deal.rules.seat_names
        out: list[Item] = []
        seat: int | None = None
        trick: int | None = None
        for m in _TOKEN.finditer(_COMMENT.sub(" ", text)):
            word = m[0]
            if m["trick"]:
                trick, seat = int(m["trick"]), None
                continue
            if len(word) == 1 and word.upper() in "NWSE":
                if word.upper() not in names:
                    raise EntryError(_("{seat} is not a seat here; seats are {seats}", seat=word.upper(),
                                       seats=" ".join(names)))
                seat = names.index(word.upper())
                continue
            out.append(Item(seat, " ".join(word.split()), trick))
            seat = trick = None
        if seat is not None or trick is not None:
            raise EntryError(_("{text} names a seat or a trick but no card; enter {entries}", text=repr(text.strip()),
                               entries=_(ENTRIES)))
        if not out:
            raise EntryError(_("{text} is not an entry; enter {entries}", text=repr(text.strip()), entries=_(ENTRIES)))
        return out

    def parse(self, text: str) -> Action:
        """Read one entry into the action it names; raise :class:`EntryError` if it names none or several."""
        items = self.items(text)
        if len(items) != 1:
            raise EntryError(_("{text} holds {n} entries, not one", text=repr(text.strip()), n=len(items)))
        return self.action(items[0])

    def action(self, item: Item) -> Action:
        """The action an entry names now: a card for the seat named or the seat to move, or a declaration."""
        deal = self.deal
        if item.trick is not None and (item.trick != len(deal.tricks) + 1 or deal.trick):
            raise EntryError(_("{trick}. is not the trick to enter: trick {now} is in play", trick=item.trick,
                               now=len(deal.tricks) + 1) if deal.trick else
                             _("{trick}. is not the trick to enter: trick {now} comes next", trick=item.trick,
                               now=len(deal.tricks) + 1))
        if item.seat is None and self.leader_unknown:
            raise EntryError(_("name the seat that leads: in the first deal of a match the holder of {card} leads "
                               "(first_deal_leader_card), e.g. S 6B", card=deal.rules.first_deal_leader_card))
        seat = deal.turn if item.seat is None else item.seat
        if _DECLARATION.match(item.word):
            try:
                return parse_declaration(seat, item.word, Context.of(deal))
            except NotationError as exc:
                raise EntryError(_("{message} (expected {expected})", message=exc.message, expected=exc.expected)
                                 if exc.expected else exc.message) from None
        card = card_reader("es").get(item.word.upper())
        if card is None:
            raise EntryError(_("{word} is not a card (rank 1-7, 10, 11, 12 then suit O, C, E or B); enter {entries}",
                               word=repr(item.word), entries=_(ENTRIES)))
        return PLAYS[seat][card]

    def enter(self, line: str) -> Reply:
        """Take one line: entries to apply in order, ``?``/``help``, or ``undo`` (``undo 3``: the last three).

        Entries are applied one by one until one is refused (the ones before
        it stay); the file is saved after the line.  An accepted line's reply
        carries the position.
        """
        limit = max_line_bytes()
        if len(line) > limit or len(line.encode("utf-8", "surrogatepass")) > limit:  # refused unread, not shown
            return Reply(_("the line is longer than {limit:,} bytes (TUTEPGN_MAX_LINE_BYTES): it was not read",
                           limit=limit), refused=True)
        text = line.strip()
        if not _COMMENT.sub("", text).strip():
            return Reply("")  # an empty line, or a comment alone
        if text.lower() in HELP_WORDS:
            return Reply(_("enter {entries}", entries=_(ENTRIES)), legal=self.legal_text(), frame=self.frame())
        if text.lower() in END_WORDS:
            return Reply(_("every entry so far is saved; the deal can go on later from where it stopped"), end=True)
        undo = UNDO.fullmatch(text)
        if undo:
            if undo[1] is not None and int(undo[1]) == 0:
                return Reply(_("undo 0 takes nothing back: undo (or deshacer) takes back the last entry, undo 3 the "
                               "last three"),
                             refused=True)
            return self.undo(int(undo[1] or 1))
        if self.deal.over:
            return Reply(_("the deal is over: nothing more can be entered (undo takes back the last entry)"),
                         refused=True)
        done: list[str] = []
        refusal: Reply | None = None
        try:
            items = self.items(text)
        except EntryError as exc:
            return Reply(str(exc), refused=True, legal=self.legal_if_short())
        for item in items:
            if self.deal.over:
                refusal = Reply(_("the deal is over: the rest of the line was not entered"), refused=True)
                break
            try:
                action = self.action(item)
                self._apply(action)
            except EntryError as exc:
                refusal = Reply(str(exc), refused=True, legal=self.legal_if_short())
                break
            except IllegalAction as exc:
                refusal = Reply(_("refused: {refusal} (rule {rule})", refusal=exc.message, rule=exc.rule), refused=True,
                                legal=self.legal_if_short(), rule=exc.rule)
                break
            done.append(self._applied(action))
        if not done:
            assert refusal is not None
            return refusal
        self.save()
        message = "; ".join(done)
        if refusal is None:
            return Reply(message, frame=self.frame())
        return Reply(_("{done}; then {refusal}", done=message, refusal=refusal.message), refused=True,
                     legal=refusal.legal, rule=refusal.rule,
                     frame=self.frame())

    def _apply(self, action: Action) -> None:
        """Apply an entry: on the real hands, or judged from what the table has seen."""
        if self.seen is None:
            self.deal.apply(action)
        else:
            self.deal = check(self.seen, [*self.deal.log, action])

    def undo(self, count: int = 1) -> Reply:
        """Take back the last ``count`` entries, replaying the others from the deal's start."""
        old = self.deal
        if not old.log:
            return Reply(_("nothing to undo"), refused=True)
        count = min(max(count, 1), len(old.log))
        keep = old.log[:-count]
        if self.seen is not None:
            self.deal = check(self.seen, keep)
        else:
            fresh = old.restart()
            for _step in replay(fresh, keep):
                pass
            self.deal = fresh
        self.report = None
        self.save()
        ctx = Context.of(old)
        return Reply(_("took back {entries}", entries=", ".join(e.text(ctx) for e in old.log[-count:])),
                     frame=self.frame())

    def _applied(self, action: Action) -> str:
        """An accepted entry in words, with the trick it completed, the declarations now open, or the result."""
        deal = self.deal
        names = deal.rules.seat_names
        words = [action.text(Context.of(deal))]
        if type(action) is Play and not deal.trick:
            t = deal.tricks[-1]
            words.append(_("trick {trick}: {cards} won by {seat} ({points} points)", trick=len(deal.tricks),
                           cards=cards_words(t.cards), seat=seat_words(names[t.winner]), points=t.points))
        if deal.over:
            sheet = deal.score(self._target)
            words.append(_("deal over: Score {score}, Result {result}", result=result_text(sheet, deal.rules),
                           score=format_side_values(sheet.totals, deal.rules)))
            if self.seen is not None:
                words.append(self._judged())
        elif self.seen is None:
            declarations = [a.text(Context.of(deal)) for a in deal.legal_actions() if type(a) is not Play]
            if declarations:
                words.append(_("may declare: {declarations}", declarations=", ".join(declarations)))
        return "; ".join(words)

    def _judged(self) -> str:
        """The finished deal validated in full, in words.

        3 and 4 players: the hands are reconstructed (every card was played)
        and the record validated; when a tute ended the deal before every
        card was seen, the record has no Deal tag and the validator judges it
        on the cards seen.  2 players: the record has no Deal and no Stock
        tag, and the validator judges it as it is (reconstructing the stock).
        """
        record = self.record()
        self.report = validate(record)
        errors = self.report.errors
        found = "; ".join(f"{f.message} ({f.code})" for f in errors)
        verdict = _("the validator finds: {found}", found=found) if errors else _("the record validates")
        if "Deal" in record.tags:
            return _("hands reconstructed; {verdict}", verdict=verdict)
        if self.deal.rules.players > 2:
            return _("a tute ended the deal before every card was played: the hands are not all seen, so the "
                     "record has no Deal tag; {verdict}", verdict=verdict)
        return _("no Deal or Stock tag; {verdict}", verdict=verdict)


def read_turned(rules: Ruleset, text: str | None) -> Card:
    """The turned card as entered, checked to be a card of this pack."""
    if not text or not text.strip():
        raise ValueError(_("give the turned card, the card that shows trump (e.g. 4B)"))
    card = card_reader("es").get(text.strip().upper())
    if card is None or not pack(rules.removed_ranks) >> card & 1:
        raise ValueError(_("{text} is not a card of this pack (rank 1-7, 10, 11, 12 then suit O, C, E or B)",
                           text=repr(text.strip())))
    return card


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
            raise ValueError(_("give the turned card, which shows trump: one of the dealer's cards"))
        return header.deal()
    except NotationError as exc:
        raise ValueError(exc.message) from None
