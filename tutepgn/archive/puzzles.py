"""Puzzles from a player's own mistakes: the positions of their archived deals where their card lost the most.

Built from the analyses the archive stores (table ``analyses``, filled by ``tute archive analyse``), never by
searching again: a puzzle is a play of the player whose loss, by what the player could know, is at least
:data:`THRESHOLDS`.  The loss is the analysis's ``loss`` (deal-win probability lost, analysis version 2), else
``pimc_cost`` (points lost over the worlds the player could not tell apart), else ``cost`` (points lost with
every hand visible, "a cartas vistas"): :data:`MEASURES`, in that order of trust.  A puzzle shows the
position as the player saw it (their hand, the trick on the table, the muestra; the other hands face down)
and its legal cards; its answer (the card played, the best cards, the best line) is kept apart, in
:attr:`Puzzle.answer`, and told by :func:`check_answer` only once a card is chosen.

A puzzle's id is ``"{deal}-{index}"`` (the play's index in the deal's events): it stays while the stored
analysis does.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field, PrivateAttr

from ..analysis.version import ANALYSIS_VERSION
from ..cards import card_from_code
from ..check.moment import Moment
from ..check.replay import frame_data
from ..errors import NotAnalysed, UnknownPlayer, UnknownPuzzle
from ..i18n import gettext as _
from ..notation import parse_record
from .analyses import VERSION_KEY
from .ids import DealId
from .names import SEAT_COLUMN, somewhere

if TYPE_CHECKING:
    from ..engine import Deal
    from .store import Archive

Measure = Literal["loss", "pimc_cost", "cost"]
MEASURES: tuple[Measure, ...] = ("loss", "pimc_cost", "cost")
"""The keys of a stored play that say what it lost, the most trusted first: ``loss`` (deal-win probability, 0..1,
under what the mover could know), ``pimc_cost`` (points, the same knowledge), ``cost`` (points, double dummy)."""
THRESHOLDS: dict[Measure, float] = {"loss": 0.05, "pimc_cost": 3.0, "cost": 3.0}
"""The least loss that makes a puzzle: an inaccuracy (``?!``) by each measure (5 points of deal-win probability;
3 card points), so that a near-equal choice is not asked."""
PUZZLES = 20
"""Puzzles listed by default."""
MAX_DEALS = 1000
"""The player's newest analysed deals read for puzzles (each stored analysis is read whole)."""
TIE = 1e-9
"""Values closer than this are equal (PIMC means are floats)."""
THIS_VERSION = "split_part(a.version, ':', 1) = ?"
"""SQL: a stored row of this version of the analysis, whatever its parameters (PIMC's worlds and seed, inference;
:class:`~tutepgn.archive.analyses.AnalysisKey`)."""
PREFERRED = "a.version = ? DESC, a.cantes DESC, a.version"
"""SQL: of a deal's rows, the one made with the library's defaults first, then one counting cantes."""


class Answer(BaseModel):
    """A puzzle's answer: the card played and the best cards by what the mover could know."""

    played: str = Field(description="The card the player played.")
    best: list[str] = Field(description="The best cards by what the mover could know (PIMC; double dummy when the "
                                        "mover could know every card or no PIMC value is stored).")
    by: Literal["pimc", "double_dummy"] = Field(description="What chose `best`.")
    best_line: list[str] | None = Field(description="The rest of the deal under best play after the best card, "
                                                    "as stored (null when the analysis has none).")
    measure: Measure
    loss: float


class Puzzle(BaseModel):
    """One position of a player's deal to solve: what the player saw, not what they played (:attr:`answer`)."""

    id: str = Field(description="The puzzle's id: `{deal}-{index}`.")
    deal_id: DealId
    index: int = Field(description="The play's index in the deal's events (the replay's frame before it).")
    trick: int = Field(description="Its trick, from 1.")
    seat: str = Field(description="The mover's seat letter.")
    player: str
    players: dict[str, str | None] = Field(description="Player name per seat letter.")
    rules: str
    position: str = Field(description="The position string as the mover saw it (docs/notation.md).")
    frame: dict[str, Any] = Field(description="The replay frame of the position (`tutepgn.check.replay.frame_data`, "
                                              "the other hands as `?`).")
    hand: list[str] = Field(description="The mover's cards.")
    legal: list[str] = Field(description="The cards the mover may play, in display order.")
    table: list[tuple[str, str]] = Field(description="The trick on the table: (seat, card) in play order.")
    trump: str = Field(description="The trump suit's letter.")
    measure: Measure = Field(description="What the loss is: `loss` (deal-win probability, 0..1), `pimc_cost` or "
                                         "`cost` (points).")
    loss: float = Field(description="What the card played lost, by `measure`.")
    _answer: Answer = PrivateAttr()

    @property
    def answer(self) -> Answer:
        """The answer: kept out of the puzzle's JSON."""
        return self._answer


class Verdict(BaseModel):
    """A card chosen for a puzzle, judged."""

    puzzle: str
    card: str
    correct: bool = Field(description="The card is among the best cards.")
    best: list[str]
    by: Literal["pimc", "double_dummy"]
    played: str
    best_line: list[str] | None
    measure: Measure
    loss: float = Field(description="What the card played lost, by `measure`.")
    card_loss: float | None = Field(description="What the chosen card loses against the best, by `measure` "
                                                "(null when the stored analysis does not value it).")
    explanation: str


@dataclass(frozen=True)
class _Stored:
    """One deal's stored analysis read for a player: which seat they held."""

    deal_id: int
    seats: tuple[str, ...]
    players: dict[str, str | None]
    analysis: dict[str, Any]


def measured(play: dict[str, Any]) -> tuple[Measure, float] | None:
    """What a stored play lost and by which measure (:data:`MEASURES`), None when it was not valued."""
    for key in MEASURES:
        value = play.get(key)
        if value is not None:
            return key, float(value)
    return None


def best_cards(play: dict[str, Any], measure: Measure) -> tuple[list[str], Literal["pimc", "double_dummy"]]:
    """The best cards by what the mover could know: PIMC's (by deal-win probability when the loss is one, else by
    mean points) unless the position was exact or PIMC did not value it; then double dummy's ``best``."""
    pimc = play.get("pimc")
    if pimc and not play.get("exact"):
        key = "win" if measure == "loss" and all(v.get("win") is not None for v in pimc) else "mean"
        top = max(float(v[key]) for v in pimc)
        return [v["card"] for v in pimc if float(v[key]) >= top - TIE], "pimc"
    return list(play.get("best") or []), "double_dummy"


def card_loss(play: dict[str, Any], measure: Measure, card: str) -> float | None:
    """What ``card`` loses against the best legal card, in the measure's units, from the stored values: PIMC's
    deal-win probabilities (``loss``), PIMC's mean points (``pimc_cost``), double dummy's points (``cost``); None
    when they do not value it."""
    if measure == "cost":
        groups = play.get("values") or []
        values = {c: g.get("value") for g in groups for c in g["cards"]}
    else:
        key = "win" if measure == "loss" else "mean"
        values = {v["card"]: v.get(key) for v in play.get("pimc") or []}
    known = [float(v) for v in values.values() if v is not None]
    if values.get(card) is None:
        return None
    return max(0.0, max(known) - float(values[card]))


def _seat_analyses(archive: Archive, name: str) -> list[_Stored]:
    """The player's newest analysed deals (at most :data:`MAX_DEALS`), one stored analysis each (of this version:
    the library's default parameters first, else one counting cantes); :class:`UnknownPlayer` or
    :class:`NotAnalysed` when there are none."""
    where, params = somewhere([name])
    con = archive.con
    if con.execute(f"SELECT count(*) FROM deals WHERE {where}", params).fetchone()[0] == 0:  # type: ignore[index]
        raise UnknownPlayer(_("no player {name!r} in the archive", name=name))
    columns = ", ".join(f"d.{c}" for c in SEAT_COLUMN.values())
    cursor = con.execute(
        f"SELECT a.deal_id, {columns}, a.analysis FROM analyses a JOIN deals d ON d.id = a.deal_id "
        f"AND a.rules = coalesce(d.rules, '') WHERE {THIS_VERSION} AND a.error IS NULL AND {where} "
        f"ORDER BY d.date DESC NULLS LAST, a.deal_id, {PREFERRED} LIMIT ?",
        [str(ANALYSIS_VERSION), *params, VERSION_KEY, 4 * MAX_DEALS])
    found: dict[int, _Stored] = {}
    for deal_id, *names, text in cursor.fetchall():
        if deal_id in found or len(found) >= MAX_DEALS:
            continue
        players = dict(zip(SEAT_COLUMN, names))
        found[deal_id] = _Stored(deal_id, tuple(s for s, n in players.items() if n == name), players, json.loads(text))
    if not found:
        raise NotAnalysed(_("no deal of {name} has a stored analysis: run `tute archive analyse`", name=name))
    return list(found.values())


def puzzles(archive: Archive, name: str, limit: int = PUZZLES) -> list[Puzzle]:
    """The player's puzzles, the costliest first: their plays that lost at least :data:`THRESHOLDS` (by the most
    trusted measure stored), ranked by measure (:data:`MEASURES`' order), then loss, then deal and play.

    ``name`` is the name the records give (exactly, as the player page takes it).  Raises
    :class:`UnknownPlayer` when no deal names them, :class:`NotAnalysed` when none of their deals has a
    stored analysis of this version (``tute archive analyse`` stores them).
    """
    candidates: list[tuple[int, float, int, int, _Stored, dict[str, Any]]] = []
    for stored in _seat_analyses(archive, name):
        letters = stored.analysis.get("seats") or []
        mine = {letters.index(s) for s in stored.seats if s in letters}
        for play in stored.analysis.get("plays") or []:
            lost = measured(play) if play.get("seat") in mine else None
            if lost is not None and lost[1] >= THRESHOLDS[lost[0]] and math.isfinite(lost[1]):
                candidates.append((MEASURES.index(lost[0]), -lost[1], stored.deal_id, play["index"], stored, play))
    candidates.sort(key=lambda c: c[:4])
    texts = _texts(archive, [c[2] for c in candidates[:limit]])
    return [_puzzle(stored, play, texts[stored.deal_id], name) for *_key, stored, play in candidates[:limit]]


def _texts(archive: Archive, ids: list[int]) -> dict[int, str]:
    """The records' texts of these deals."""
    if not ids:
        return {}
    return dict(archive.con.execute("SELECT id, text FROM deals WHERE id IN (SELECT unnest(?))", [ids]).fetchall())


def _puzzle(stored: _Stored, play: dict[str, Any], text: str, name: str) -> Puzzle:
    """The puzzle of one stored play: the deal replayed to the play, seen from the mover's seat."""
    index = int(play["index"])
    deal = position(text, index)
    seat = int(play["seat"])
    moment = Moment.of(deal, seat=seat)
    shown = moment.frame()
    frame = frame_data(shown)
    frame["position"] = moment.text()
    measure, loss = measured(play) or ("cost", 0.0)
    best, by = best_cards(play, measure)
    letter = deal.rules.seat_names[seat]
    puzzle = Puzzle(id=f"{stored.deal_id}-{index}", deal_id=stored.deal_id, index=index, trick=int(play["trick"]),
                    seat=letter, player=name, players=stored.players, rules=deal.rules.spec, position=moment.text(),
                    frame=frame, hand=list(moment.hands[seat]), legal=deal.legal_plays().codes(),
                    table=[(s, c) for s, c in shown.table], trump=moment.trump,
                    measure=measure, loss=round(loss, 4))
    puzzle._answer = Answer(played=play["card"], best=best, by=by, best_line=play.get("best_line"), measure=measure,
                            loss=round(loss, 4))
    return puzzle


def position(text: str, index: int) -> Deal:
    """A record's deal played through its first ``index`` events (the stored analysis played them legally)."""
    record = parse_record(text)
    deal = record.header().deal()
    for event in record.events[:index]:
        deal.apply(event)
    return deal


def puzzle(archive: Archive, puzzle_id: str) -> Puzzle:
    """One puzzle by its id (any player's); :class:`~tutepgn.errors.UnknownPuzzle` when no stored analysis makes
    it one."""
    return _found(archive, puzzle_id)[0]


def _found(archive: Archive, puzzle_id: str) -> tuple[Puzzle, dict[str, Any]]:
    """A puzzle by its id, and the stored play it was made from."""
    deal_text, dash, index_text = puzzle_id.partition("-")
    if not (dash and deal_text.isdigit() and index_text.isdigit() and len(puzzle_id) <= 40):
        raise UnknownPuzzle(_("{id!r} is not a puzzle id (deal-index, such as 123-17)", id=puzzle_id[:40]))
    deal_id, index = int(deal_text), int(index_text)
    columns = ", ".join(f"d.{c}" for c in SEAT_COLUMN.values())
    row = None if deal_id >= 2**63 else archive.con.execute(
        f"SELECT {columns}, a.analysis, d.text FROM analyses a JOIN deals d ON d.id = a.deal_id "
        f"AND a.rules = coalesce(d.rules, '') WHERE a.deal_id = ? AND {THIS_VERSION} AND a.error IS NULL "
        f"ORDER BY {PREFERRED} LIMIT 1", [deal_id, str(ANALYSIS_VERSION), VERSION_KEY]).fetchone()
    if row is not None:
        *names, analysis_text, text = row
        analysis = json.loads(analysis_text)
        play = next((p for p in analysis.get("plays") or [] if p.get("index") == index), None)
        lost = measured(play) if play is not None else None
        if play is not None and lost is not None and lost[1] >= THRESHOLDS[lost[0]]:
            players = dict(zip(SEAT_COLUMN, names))
            letter = analysis["seats"][play["seat"]]
            stored = _Stored(deal_id, (letter,), players, analysis)
            return _puzzle(stored, play, text, players.get(letter) or "?"), play | {"text": text}
    raise UnknownPuzzle(_("no puzzle {id} in the archive", id=puzzle_id))


def check_answer(archive: Archive, puzzle_id: str, card: str) -> Verdict:
    """Judge ``card`` (a card code such as ``12C``) for a puzzle: right when it is among the best cards by what
    the player could know; with the card played, the best line and what the chosen card loses.  ValueError for a
    card code that is not one; :class:`~tutepgn.errors.IllegalPlay` (the engine's, naming the rule) for a card the
    mover may not play there."""
    found, play = _found(archive, puzzle_id)
    code = card.strip().upper()
    position(play["text"], found.index).verify_play(card_from_code(code))  # the engine says why a card is not legal
    answer = found.answer
    correct = code in answer.best
    lost = card_loss(play, answer.measure, code)
    return Verdict(puzzle=found.id, card=code, correct=correct, best=answer.best, by=answer.by, played=answer.played,
                   best_line=answer.best_line, measure=answer.measure, loss=answer.loss,
                   card_loss=None if lost is None else round(lost, 4),
                   explanation=explain(code, correct, answer, lost))


def amount(measure: Measure, value: float) -> str:
    """A loss in words: deal-win probability in percentage points, else points."""
    if measure == "loss":
        return _("{n:.0f} points of probability of winning the deal", n=100 * value)
    return _("{n:.1f} points", n=value) if value != int(value) else _("{n:.0f} points", n=value)


def explain(card: str, correct: bool, answer: Answer, lost: float | None) -> str:
    """The verdict in a sentence: why the chosen card is right or what it gives away, and what the card played
    cost."""
    best = " ".join(answer.best)
    where = _("over the deals you could not tell apart") if answer.by == "pimc" else _("with every hand visible")
    played = _("In the deal, {played} lost {amount}.", played=answer.played, amount=amount(answer.measure, answer.loss))
    if correct:
        return _("Right: {card} is among the best cards ({best}), valued {where}.", card=card, best=best,
                 where=where) + " " + played
    if lost is None:
        return _("Not the best: the best cards were {best}, valued {where}.", best=best, where=where) + " " + played
    return _("Not the best: {card} gives away {amount} against {best}, valued {where}.", card=card,
             amount=amount(answer.measure, lost), best=best, where=where) + " " + played


__all__ = ["MAX_DEALS", "MEASURES", "PUZZLES", "THRESHOLDS", "Answer", "Puzzle", "Verdict", "best_cards",
           "card_loss", "check_answer", "measured", "puzzle", "puzzles"]
