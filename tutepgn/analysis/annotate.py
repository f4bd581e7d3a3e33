"""Analysis of recorded deals: a record's deal analysed, many records in worker processes, and the
annotated copy of a record (NAG marks and machine comments, as PGN's ``[%eval]``).

The comment after a valued card reads ``{[%dd 71] [%best 1O 12O] [%win 0.63]}``:
the points the mover's side makes after this card under double dummy, when
the card was not the best double dummy the best cards, and the mover side's
probability of winning the deal after it as the mover could know it.  Its mark
(``?!``, ``?``, ``??``, by the loss of that probability) becomes the NAG a
Tute PGN reader already reads (``$6``, ``$2``, ``$4``).

>>> from tutepgn.notation import tpgn
>>> record = tpgn.loads(open("samples/torofun-2p-italian-cards.tpgn", encoding="utf-8").read())[0]
>>> analysed = analyse_record(record, pimc=2)
>>> copy = annotate(record, analysed)
>>> tpgn.loads(tpgn.dumps([copy]))[0].events == record.events
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

from ..cards import card_code
from ..engine import Deal
from ..errors import ErrorItem, IllegalAction, TuteError
from ..notation import NAG_GLYPHS, Note, Record
from ..notation.split import Source
from ..notation.tpgn import iter_records
from ..workers import ordered_map
from .deal_analysis import DEFAULT_WORLDS, STOCK_HORIZON, DealAnalysis, MatchContext, analyse

OUR_COMMENT = re.compile(r"^(\[%dd -?\d+\])?( ?\[%best [^\]]*\])?( ?\[%pimc [-\d.]+\])?( ?\[%win [\d.]+\])?$")
"""A comment :func:`annotate` writes (this version's and the first's, ``[%pimc]``): dropped when a record is
annotated again, so annotating is idempotent."""
MARK_NAGS = frozenset(NAG_GLYPHS[m] for m in ("?!", "?", "??"))
"""The NAGs of the marks: beside a machine comment they are an earlier annotation's, replaced."""


@dataclass(frozen=True, slots=True)
class RecordAnalysis:
    """A record's place in its source and its analysis, or the error that stopped it."""
    index: int
    """The record's number in its source, from 1."""
    analysis: DealAnalysis | None
    error: ErrorItem | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON data: the record number, and the analysis (:meth:`DealAnalysis.to_dict`) or the error."""
        return {"record": self.index, "analysis": None if self.analysis is None else self.analysis.to_dict(),
                "error": None if self.error is None else self.error.model_dump()}


def deal_of(record: Record, *, up_to_illegal: bool = False) -> Deal:
    """The record's deal, played through its events (raises the first error: a bad tag, an illegal event).

    With ``up_to_illegal`` the deal is played through the events before the
    first illegal one instead (the archive analyses what was legally played).
    The deal's log is then the record's events, one for one, so a play's index
    in the log is its event's index in the record.
    """
    if record.errors:
        raise record.errors[0]
    header = record.header()
    deal = header.deal()
    for index, event in enumerate(record.events):
        try:
            deal.apply(event)
        except IllegalAction:
            if not up_to_illegal:
                raise
            deal = header.deal()  # a refused event may have left its trace: play the legal ones again
            for legal in record.events[:index]:
                deal.apply(legal)
            break
    return deal


def analyse_record(record: Record, *, cantes: bool = True, pimc: int = DEFAULT_WORLDS, seed: int = 0,
                   inference: bool = False, up_to_illegal: bool = False,
                   stock_horizon: int = STOCK_HORIZON) -> DealAnalysis:
    """The analysis of a record's deal (see :func:`deal_of` and :func:`tutepgn.analysis.analyse`), with the match
    chances when its tags give the standing before the deal (``MatchScore``; the target from ``MatchTarget``, else
    the ruleset's)."""
    deal = deal_of(record, up_to_illegal=up_to_illegal)
    return analyse(deal, cantes=cantes, pimc=pimc, seed=seed, inference=inference, stock_horizon=stock_horizon,
                   match=match_context(record))


def match_context(record: Record) -> MatchContext | None:
    """The match a record's deal belongs to, from its tags (None without a ``MatchScore`` tag)."""
    header = record.header()
    if header.match_score is None:
        return None
    return MatchContext(header.match_target or header.rules.match_target, tuple(header.match_score))


def annotate(record: Record, analysis: DealAnalysis) -> Record:
    """A copy of ``record`` with each valued card's mark as a NAG and its ``[%dd]`` comment.

    The record's own notes are kept (its comments first); comments an earlier
    annotation wrote are replaced, with the mark beside them (a mark the
    record wrote alone is kept, and not repeated).
    """
    copy = Record(tags=dict(record.tags), intro=list(record.intro), termination=record.termination,
                  source=record.source, index=record.index, line=record.line)
    by_index = {p.index: p for p in analysis.plays}
    for index, event in enumerate(record.events):
        old = record.note(index)
        ours = [c for c in (old.comments if old else []) if OUR_COMMENT.match(c.strip())]
        nags = [n for n in (old.nags if old else []) if not (ours and n in MARK_NAGS)]  # an earlier annotation's mark
        comments = [c for c in (old.comments if old else []) if c not in ours]
        play = by_index.get(index)
        if play is not None:
            words = []
            if play.values is not None and play.best is not None:
                words.append(f"[%dd {next(v.value for v in play.values if play.card in v.cards)}]")
                if play.card not in play.best:
                    words.append("[%best " + " ".join(card_code(c) for c in play.best) + "]")
            if play.win_after is not None:
                words.append(f"[%win {play.win_after:.2f}]")
            if words:
                comments.append(" ".join(words))
            if play.mark and NAG_GLYPHS[play.mark] not in nags:
                nags.append(NAG_GLYPHS[play.mark])
        copy.add(event, note=Note(nags, comments) if nags or comments else None)
    return copy


def _analyse_one(options: tuple[bool, int, int, bool, int], item: tuple[int, Record]
                 ) -> tuple[RecordAnalysis, Record | None]:
    """One record's analysis and its annotated copy, an error kept as an item: a worker's task."""
    cantes, pimc, seed, inference, stock_horizon = options
    number, record = item
    try:
        analysis = analyse_record(record, cantes=cantes, pimc=pimc, seed=seed, inference=inference,
                                  stock_horizon=stock_horizon)
    except (TuteError, ValueError) as exc:
        found = exc.item() if isinstance(exc, TuteError) else ErrorItem(message=str(exc))
        return RecordAnalysis(number, None, found.model_copy(update={"record": found.record or number})), None
    return RecordAnalysis(number, analysis), annotate(record, analysis)


AHEAD = 16
"""Records out at once per worker process: a deal's analysis takes from a tenth of a second to tens of seconds,
and the answers come back in order, so a worker left with few records queued would wait on a slow one (2 a
worker kept 2 jobs at about 1.5 times one)."""

Mapper = Callable[[Callable[[Any], Any], Iterator[Any]], Iterator[Any]]
"""A map in order, elsewhere than in this process: ``mapper(work, items)`` yields ``work(item)`` for each item."""


def analyse_records(source: Source, *, number: int | None = None, cantes: bool = True, pimc: int = DEFAULT_WORLDS,
                    seed: int = 0, inference: bool = False, jobs: int = 1, stock_horizon: int = STOCK_HORIZON,
                    mapper: Mapper | None = None) -> Iterator[tuple[RecordAnalysis, Record | None]]:
    """Each record of ``source`` (or only record ``number``, from 1) analysed, with its annotated copy, in order.

    A record that cannot be analysed (unreadable, illegal, no starting
    position) yields its error and no copy; ``jobs`` > 1 spreads records over
    worker processes, a ``mapper`` over whatever it maps with, in order (a Dask
    cluster: :func:`tutepgn.archive.cluster.ordered`).  ``cantes``, ``pimc``, ``seed``,
    ``inference`` and ``stock_horizon``: see :func:`tutepgn.analysis.analyse`.
    """
    records = ((i, r) for i, r in enumerate(iter_records(source), 1) if number is None or i == number)
    work = partial(_analyse_one, (cantes, pimc, seed, inference, stock_horizon))
    if mapper is not None:
        yield from mapper(work, records)
        return
    yield from ordered_map(work, records, jobs, ahead=AHEAD * max(jobs, 1))
