"""A recording session at the table: one file holding one deal, or the deals of a match as they are played.

The players and the event are given once; each deal of a match gets the
match tags (``Match``, ``DealNo``, ``MatchTarget``, ``MatchScore``: the
standing before it), the dealer moves one seat each deal and the first deal
follows the ruleset's first-deal rule (:class:`~tutepgn.match.Match` keeps
the standing and says when the target is reached).  Every deal is written to
the same file after every entry, so :meth:`Session.resume` can go on with an
interrupted session from the file alone.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "club.tpgn"
>>> session = Session.new("ludoteka-pairs", path, tags={"Event": "Club night"}, dealer="N")
>>> rec = session.next_deal("2B")
>>> rec.tags["DealNo"], rec.tags["MatchScore"], rec.prompt()
('1', 'NS:0 WE:0', '1. ? > ')
>>> Session.resume(path).current.tags["Match"] == rec.tags["Match"]
True
"""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass, field
from pathlib import Path

from collections.abc import Mapping

from ..check.replay import match_target
from ..engine import Deal
from ..words import seat_words, standing_words
from ..i18n import gettext as _
from ..limits import INT32_MAX
from ..match import Match
from ..notation import Record, format_side_values, iter_records, parse_side_values, read_number
from ..rules import Ruleset, ruleset
from .recorder import RESERVED_TAGS, Recorder

MATCH_TAGS = ("Match", "DealNo", "MatchTarget", "MatchScore")
"""Tags the session writes for each deal of a match."""


@dataclass
class Session:
    """The deals recorded into one file: one deal, or a match until its target."""

    rules: Ruleset
    path: Path
    tags: dict[str, str]
    first_dealer: int
    match: Match | None
    done: list[Record] = field(default_factory=list)
    current: Recorder | None = None

    @classmethod
    def new(cls, rules: Ruleset | str, path: str | os.PathLike[str], *, tags: dict[str, str] | None = None,
            dealer: str = "N", match: bool = True) -> Session:
        """A new session writing to ``path``, which must not exist yet; ``match=False`` records one deal."""
        r = ruleset(rules)
        path_ = Path(path)
        if path_.exists():
            raise FileExistsError(errno.EEXIST, _("the file exists, and a recording never overwrites one; choose "
                                                  "another name, or resume it with --resume"), str(path_))
        if dealer not in r.seat_names:
            raise ValueError(_("dealer {dealer!r} is not a seat; seats are {seats}", dealer=dealer,
                               seats=" ".join(r.seat_names)))
        tags = dict(tags or {})
        game = None
        if match:
            tags.setdefault("Match", path_.stem)
            game = Match(r, first_dealer=r.seat_names.index(dealer), target=match_target(Record(tags=tags)))
        return cls(r, path_, tags, r.seat_names.index(dealer), game)

    @classmethod
    def resume(cls, path: str | os.PathLike[str]) -> Session:
        """The session a file holds: its finished deals counted into the match, its unfinished deal (if any)
        ready to go on.  Raises ValueError when the file holds nothing the recorder can go on with."""
        path_ = Path(path)
        records = list(iter_records(path_))
        if not records:
            raise ValueError(_("{path} holds no record to resume", path=path_))
        for record in records:
            if record.errors:
                raise ValueError(_("cannot resume: {reason}", reason=record.errors[0].message))
        first = records[0]
        rules = first.header().rules
        names = rules.seat_names
        dealer = first.tags.get("Dealer", "N")
        tags = {k: v for k, v in first.tags.items() if k not in RESERVED_TAGS and k not in MATCH_TAGS}
        if "Match" in first.tags:
            tags["Match"] = first.tags["Match"]
        game = Match(rules, first_dealer=names.index(dealer) if dealer in names else 0,
                     target=match_target(first)) if "Match" in first.tags else None
        session = cls(rules, path_, tags, game.first_dealer if game else 0, game)
        for i, record in enumerate(records):
            finished = record.termination != "*"
            if not finished and i != len(records) - 1:
                raise ValueError(_("cannot resume: deal {n} of {count} is unfinished, and deals follow it", n=i + 1,
                                   count=len(records)))
            session.current = Recorder.resume(record, path_, before=session._texts())
            session._count_deal()
            if finished:
                session.finish()
        if session.over and session.current is None:
            raise ValueError(_("{path} is complete: its match is over", path=path_) if game else
                             _("{path} is complete: its deal is over", path=path_))
        return session

    # -- State -------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """True once the session's one deal is over, or its match."""
        if self.current is not None and not self.current.over:
            return False
        return self.match.over if self.match is not None else bool(self.done)

    @property
    def dealer(self) -> str:
        """The dealer of the next deal to start: each deal of a match moves one seat in turn order."""
        seat = self.match.dealer if self.match is not None else self.first_dealer
        return self.rules.seat_names[seat]

    def standing(self) -> str:
        """The match standing as the MatchScore tag writes it (``NS:2 WE:1``), or an empty text for one deal."""
        return format_side_values(self.match.standing, self.rules) if self.match is not None else ""

    def standing_words(self) -> str:
        """The match standing as a sentence says it (:func:`tutepgn.words.standing_words`)."""
        return standing_words(self.match.standing, self.rules.side_labels) if self.match is not None else ""

    def _texts(self) -> list[str]:
        return [record.tpgn() for record in self.done]

    def _count_deal(self) -> None:
        if self.match is not None:
            self.match.deal_no += 1  # a deal dealt at the table, not by Match.next_deal's shuffle

    # -- Deals -----------------------------------------------------------------
    def next_deal(self, turned: str) -> Recorder:
        """Begin the next deal from its turned card (hands unknown) and write it to the file."""
        if self.over:
            raise ValueError(_("the match is over: no deal after the end") if self.match else _("the deal is recorded"))
        if self.current is not None and not self.current.over:
            raise ValueError(_("finish the deal being recorded first"))
        tags = dict(self.tags)
        game = self.match
        if game is not None:
            tags.update(DealNo=str(game.deal_no + 1), MatchTarget=str(game.target), MatchScore=self.standing())
        recorder = Recorder.start(self.rules, turned=turned, dealer=self.dealer, tags=tags, path=self.path,
                                  before=self._texts())
        self._count_deal()
        self.current = recorder
        return recorder

    def finish(self) -> str:
        """Count the finished current deal into the session; say the result and the match standing."""
        recorder = self.current
        if recorder is None or not recorder.over:
            raise ValueError(_("the deal is not over"))
        record = recorder.record()
        self.done.append(record)
        self.current = None
        deal, result = len(self.done), record.tags.get("Result", "*")
        if self.match is None:
            return _("Deal {deal}: {result}", deal=deal, result=result)
        self.match.record(recorder.final_deal())
        if self.match.over:
            return _("Deal {deal}: {result}; match {standing}; the match is over: {side} wins", deal=deal, result=result,
                     standing=self.standing_words(), side=seat_words(self.rules.side_labels[self.match.winner or 0]))
        return _("Deal {deal}: {result}; match {standing}", deal=deal, result=result, standing=self.standing_words())


@dataclass(frozen=True)
class NextDeal:
    """What follows a finished deal of a match: the standing after it, the side that won the match with it
    (None: the match goes on), and the next deal's dealer and tags (the same players and event)."""

    standing: tuple[int, ...]
    winner: int | None
    dealer: str
    tags: dict[str, str]


def following(rules: Ruleset, tags: Mapping[str, str], dealer: str, finished: Deal, *, match: str) -> NextDeal:
    """The deal after ``finished``, dealt by ``dealer`` with ``tags``, in its match: the standing carried (from
    its ``MatchScore``, else nothing) with its match points added, the dealer moved one seat as
    :class:`~tutepgn.match.Match` moves it, ``DealNo`` one more (a deal without one is taken as the first), and
    the ``Match`` tag kept, else ``match``: the tags :meth:`Session.next_deal` writes, for the phone recorder's
    "next deal" (:meth:`~tutepgn.recording.live.Recordings.follow`), which has no session to keep the match in."""
    names = rules.seat_names
    target = match_target(Record(tags=dict(tags))) or rules.match_target
    before = parse_side_values(tags.get("MatchScore", ""), rules) or (0,) * rules.sides
    game = Match(rules, first_dealer=names.index(dealer), target=target, standing=list(before), deal_no=1)
    game.record(finished)
    deal_no = read_number(tags.get("DealNo", ""), 1, INT32_MAX - 1) or 1
    after = {k: v for k, v in tags.items() if k not in RESERVED_TAGS and k != "Date"}  # today's date, when dealt
    after.update(Match=tags.get("Match") or match, DealNo=str(deal_no + 1), MatchTarget=str(target),
                 MatchScore=format_side_values(game.standing, rules))
    return NextDeal(tuple(game.standing), game.winner, names[game.dealer], after)


__all__ = ["MATCH_TAGS", "NextDeal", "Session", "following"]
