"""The validator: replay a record under its ruleset, find every illegality, settle the count.

:func:`validate` replays one record (in C first: :mod:`tutepgn.check.fastreplay`) and
returns a :class:`Report`: every illegal play or declaration with its line,
column, trick, seat and the rule it breaks (in words and by option), the
recomputed score sheet, and the comparison with the claimed Score and Result,
with an explanation of where a claimed count went wrong.  It never stops at the
first error: after an illegal event the replay goes on as the record wrote it.

:func:`validate_records` checks a stream of records, and consecutive records
of one match (same Match tag) as a match: first deal, dealer rotation,
MatchScore continuity, the end at the target, no deal after the end.

>>> from tutepgn.recording.simulate import deal_records
>>> from tutepgn.rules import preset
>>> record = next(deal_records(preset("torofun-4p"), 1, seed=3))
>>> report = validate(record)
>>> report.valid, report.score_ok, report.result_ok
(True, True, True)
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING

from ..cards import CODES, Mask, cards_in, mask_of, pack
from ..engine import Deal
from ..events import Action, Cante, Context, Play
from .explain import explain_score, result_reason
from .fastreplay import Verdict, check as fast_check
from ..words import cards_words, seat_words
from ..i18n import gettext as _, language, ngettext, speaking
from ..lazy import lazy_exports
from ..notation import (
    UNFINISHED, Header, NotationError, Record, Source, batch_records, format_side_values, iter_raw_records,
    parse_or_placeholder, result_text,
)
from ..rules import Ruleset
from ..workers import ordered_map
from .reconstruct import reconstruct
from .results_only import judge_result_only
from .replay import event_cards, replay
from .report import Finding, RefusedCante, Report, Summary

if TYPE_CHECKING:
    from .report_model import ReportModel

__getattr__, __dir__ = lazy_exports(__name__, {"tutepgn.check.report_model": ("ReportModel",)}, globals())
""":class:`ReportModel` (the report's JSON form) is imported on first use: validating loads no pydantic."""

__all__ = ["Finding", "RefusedCante", "Report", "ReportModel", "Summary", "explain_score",
           "validate", "validate_records", "validate_sources"]

# ---------------------------------------------------------------------------
# One record.


def validate(record: Record, ruleset: Ruleset | None = None, *, match_target: int | None = None) -> Report:
    """Replay ``record`` under its ruleset (or ``ruleset``) and report everything wrong with it."""
    report = Report(record, claimed_result=record.tags.get("Result"))
    for error in record.errors:
        report.findings.append(Finding("error", "syntax", error.message, line=error.line, column=error.column,
                                       event=error.text or None))
    try:
        header = record.header(ruleset, lenient=True)
    except NotationError as exc:
        # The reader already reported the Rules tag as a parse error: name it once, as a rules finding.
        same = [i for i, f in enumerate(report.findings)
                if f.code == "syntax" and (f.message, f.line) == (exc.message, exc.line)]
        if same:
            report.findings[same[0]] = replace(report.findings[same[0]], code="rules")
        else:
            report.findings.append(_tag_finding(exc, "rules"))
        return report
    report.rules = header.rules
    for name in ("DealNo", "Date"):  # read here only to be stored: an unreadable one is still an error of the record
        if name in header.errors:
            report.findings.append(_tag_finding(header.errors[name], "tag"))
    report.match_target = match_target if match_target is not None else _match_target(record, header, report)
    if header.result_only or "Play" in header.errors:
        if "Play" in header.errors:
            report.findings.append(_tag_finding(header.errors["Play"], "tag"))
        else:
            judge_result_only(record, header, report)
        return report
    deal = _starting_deal(record, header, report)
    if deal is None:
        return report
    unread = _first_unread(record, header.rules.players)
    verdict = fast_check(deal, record.events, report.match_target) if unread is None else None
    if verdict is None or verdict.sheet is None:  # the engine replays: to explain an illegal event, or alone
        stopped = _replay(record, deal, report, unread, _undealt(header))
        verdict = Verdict(None, deal.score(report.match_target), deal.over, sum(h.bit_count() for h in deal.hands))
        if stopped:
            return report
    if unread is None:
        _judge_score(record, header, verdict, report)
    return report


def _undealt(header: Header) -> Mask:
    """The cards of the pack the Deal and Stock tags give to nobody (reported with the tags), or 0 without them."""
    if header.hands is None or header.turned is None:
        return 0
    dealt = mask_of(header.stock) | 1 << header.turned
    for hand in header.hands:
        dealt |= hand
    return pack(header.rules.removed_ranks) & ~dealt


def _first_unread(record: Record, players: int) -> int | None:
    """The first event that stands where the reader found an error in the play, or after it: a card it could not
    read (kept as a stand-in so that the record could be read on), or the cards after a trick written wrong when
    a whole trick follows them (one card missing from a trick moves every later card to the next seat: judging
    them would report one error per card, all following from the one; a last trick written wrong is judged, as
    nothing follows from it).  None when the play was read without error."""
    if not record.errors or not record.entries or record.entries[0].line is None:
        return None
    first = record.entries[0].line
    play = [(e.line, e.column or 0) for e in record.errors  # a trick's own error stands at its number, before its cards
            if e.line is not None and e.line >= first]
    if not play:
        return None
    at = min(play)
    index = next((i for i, e in enumerate(record.entries) if e.line is not None and (e.line, e.column or 0) >= at),
                 None)
    if index is None:
        return None
    exact = (record.entries[index].line, record.entries[index].column or 0) == at  # the card itself is unreadable
    return index if exact or len(record.entries) - index > players else None


def _tag_finding(exc: NotationError, code: str) -> Finding:
    return Finding("error", code, exc.message, line=exc.line, column=exc.column, event=exc.text or None)


def _match_target(record: Record, header: Header, report: Report) -> int:
    """The match target: the MatchTarget tag, else the ruleset's."""
    rules = header.rules
    error = header.errors.get("MatchTarget")
    if error is not None:
        report.findings.append(Finding("error", "match_target", error.message,
                                       line=record.tag_lines.get("MatchTarget")))
    target = header.match_target
    if target is None:
        return rules.match_target
    if rules.match_target_choices and target not in rules.match_target_choices:
        report.findings.append(Finding(
            "warning", "match_target", _("MatchTarget {target} is not one the ruleset offers ({choices})",
                                         target=target, choices=", ".join(map(str, rules.match_target_choices))),
            option="match_target_choices",
            line=record.tag_lines.get("MatchTarget")))
    return target


def _starting_deal(record: Record, header: Header, report: Report) -> Deal | None:
    """The deal at its start from the tags, reconstructed from the play when the Deal tag is missing."""
    add = report.findings.append
    for name in ("Deal", "Dealer", "Trump", "Stock"):
        if name in header.errors:
            add(_tag_finding(header.errors[name], "tag"))
            return None
    hands: Sequence[Mask] | None
    rules, hands, turned = header.rules, header.hands, header.turned
    if header.dealer is None:
        add(Finding("error", "no_dealer", _("the record has no Dealer tag, so mano and the first lead are unknown"),
                    line=record.line))
        return None
    if turned is None:
        add(Finding("error", "no_trump", _("the record has no Trump tag: the turned card is unknown"),
                    line=record.line))
        return None
    if rules.trump_card == "stock_bottom" and (hands is None or not header.stock):
        return _reconstructed_deal(record, header, report)
    if hands is None:
        hands = [0] * rules.players
        for event in record.events:
            if type(event) is Play:
                hands[event.seat] |= 1 << event.card
        held = 0
        for hand in hands:
            held |= hand
        # A deal a tute ended early: the cards shown by a declaration and the turned card (the dealer's) are in
        # hand too, though never played.
        for event in record.events:
            shown = event_cards(event) & ~held if type(event) is not Play else 0
            hands[event.seat] |= shown
            held |= shown
        if not held >> turned & 1:
            hands[header.dealer] |= 1 << turned
        add(Finding("warning", "deal_reconstructed",
                    _("no Deal tag: the starting hands were reconstructed from the play"), line=record.line))
        if record.termination == UNFINISHED:
            add(Finding("info", "deal_unknown", _("an unfinished record without a Deal tag: cards never played are "
                        "unknown, so the play duties cannot be judged for certain"), line=record.line))
            return None
    else:
        _check_deal_tags(record, rules, list(hands), list(header.stock), turned, report)
    try:
        return header.deal(None if hands is None else list(hands))
    except NotationError as exc:  # the engine refused the cards: its own words say why
        add(Finding("error", "deal", str(exc.__cause__), line=record.tag_lines.get("Deal", record.line), column=1))
        return None


def _reconstructed_deal(record: Record, header: Header, report: Report) -> Deal | None:
    """A deal with a stock whose Stock tag (or Deal tag, or both) is missing: some dealing and stock order that makes
    every event possible (:func:`tutepgn.check.reconstruct.reconstruct`), or an error at the first event none does."""
    add = report.findings.append
    rules, turned = header.rules, header.turned
    assert turned is not None and header.dealer is not None
    hands = None if header.hands is None else list(header.hands)
    stock = list(header.stock) or None
    if hands is not None:
        _check_deal_tags(record, rules, hands, stock, turned, report)
    if any(f.severity == "error" and f.code in ("hand_size", "pack") for f in report.findings):
        return None
    try:
        found = reconstruct(rules, record.events, dealer=header.dealer, turned=turned, hands=hands, stock=stock,
                            first_of_match=header.first_of_match)
    except ValueError as exc:  # the known cards are not a deal's
        add(Finding("error", "deal", str(exc), line=record.tag_lines.get("Deal", record.line), column=1))
        return None
    names = rules.seat_names
    if found.impossible is not None:
        event = record.events[found.impossible]
        line, column = record.position(found.impossible) or (None, None)
        plays = sum(1 for e in record.events[:found.impossible] if type(e) is Play)
        text = CODES[event.card] if type(event) is Play else event.text(Context(names, header.trump))
        add(Finding("error", "impossible_event",
                    _("no dealing and stock order makes this possible: {reason}", reason=found.reason),
                    line=line, column=column, trick=plays // rules.players + 1, seat=names[event.seat], event=text))
        return None
    missing = (_("no Deal and Stock tags") if hands is None and stock is None
               else _("no Stock tag") if hands is not None else _("no Deal tag"))
    add(Finding("warning", "stock_reconstructed", _("{missing}: the deal was reconstructed from the play, as one "
                "dealing and stock order that makes every event possible", missing=missing), line=record.line))
    for index in found.undecidable:
        event = record.events[index]
        line, column = record.position(index) or (None, None)
        add(Finding("warning", "undecidable", _("the record does not determine whether this declaration uses the card "
                    "{seat} drew last, which the rules forbid: taken as allowed", seat=seat_words(names[event.seat])),
                    option="no_declare_with_last_drawn", line=line, column=column, seat=names[event.seat],
                    event=event.text(Context(names, header.trump))))
    if record.termination == UNFINISHED:
        add(Finding("info", "deal_unknown", _("an unfinished record without its Deal or Stock tag: cards never played "
                    "are unknown, so the play duties cannot be judged for certain"), line=record.line))
        return None
    assert found.hands is not None and found.stock is not None
    return header.deal(list(found.hands), list(found.stock))


def _check_deal_tags(record: Record, rules: Ruleset, hands: list[int], stock: list[int] | None, turned: int,
                     report: Report) -> None:
    """Hand sizes, the whole pack dealt, the turned card where it belongs (a stock of None: not known)."""
    names = rules.seat_names
    line = record.tag_lines.get("Deal", record.line)
    for seat, hand in enumerate(hands):
        if hand.bit_count() != rules.hand_size:
            report.findings.append(Finding("error", "hand_size", _(
                "{seat} is dealt {n} cards; {preset} deals {size}", seat=seat_words(names[seat]), n=hand.bit_count(),
                preset=rules.preset, size=rules.hand_size), option="hand_size",
                                           line=line, seat=names[seat]))
    dealt = mask_of(stock or ())
    for hand in hands:
        dealt |= hand
    missing = pack(rules.removed_ranks) & ~dealt
    short = [f for f in report.findings if f.code == "hand_size" and f.line == line]
    if missing and stock is not None and len(short) == 1 and sum(
            rules.hand_size - h.bit_count() for h in hands) == missing.bit_count() and not dealt & ~pack(
            rules.removed_ranks):
        # One hand short by the cards missing from the pack: one finding says both (a card left out of the tag).
        at = report.findings.index(short[0])
        report.findings[at] = replace(short[0], message=ngettext(
            "{finding}: {cards} is missing from it", "{finding}: {cards} are missing from it", missing.bit_count(),
            finding=short[0].message, cards=cards_words(cards_in(missing))))
    elif missing and stock is not None:
        cards = cards_words(cards_in(missing))
        report.findings.append(Finding("error", "pack", _("cards missing from the deal and stock: {cards}",
                                                          cards=cards), line=line))
    extra = dealt & ~pack(rules.removed_ranks)
    if extra:
        report.findings.append(Finding("error", "pack", _("cards not in this ruleset's pack: {cards}", cards=" ".join(
            CODES[c] for c in cards_in(extra))), option="removed_ranks",
                                       line=line))
    if stock and stock[-1] != turned:
        report.findings.append(Finding("error", "turned_card", _(
            "the Trump tag {card} is not the last card of the Stock ({last})", card=CODES[turned],
            last=CODES[stock[-1]]), line=record.tag_lines.get("Trump", line)))


SEQUENCE_RULES = frozenset({"not_your_turn", "not_held"})
"""Errors that may put the record's cards out of step with the table: past :data:`SEQUENCE_LIMIT` of them, what
follows only follows from them."""
SEQUENCE_LIMIT = 2
"""Cards out of turn or out of hand reported before the rest of the play is left unjudged: two, so that two cards
swapped within a trick (each out of its seat's hand) are both named and the deal still judged to its end."""


def _what(event: Action, deal: Deal) -> str:
    """An event for a finding: a card alone (the seat has a field of its own), a declaration in full."""
    return CODES[event.card] if type(event) is Play else event.text(Context.of(deal))


def _replay(record: Record, deal: Deal, report: Report, unread: int | None = None, undealt: Mask = 0) -> bool:
    """Replay every event up to the ``unread`` one; report each illegal one, which the replay forced as the
    record wrote it.  Past an event the reader could not read nothing is judged: what would be found there
    (a card still held, a card missing at the end) would only follow from the stand-in.  Nor past a third
    card out of turn or out of the seat's hand: the cards then no longer follow the table (a trick given to
    the wrong seat), and judging on would report one error per card, all following from the first.  True
    when the play was judged only up to such a point (then the count and the result are not judged either).  A card the tags dealt to nobody (``undealt``: already reported with them) is not reported
    again when it is played."""
    names = deal.rules.seat_names
    events = record.events if unread is None else record.events[:unread]
    out_of_sequence = 0
    for index, event, error, applied in replay(deal, events, only_illegal=True):
        assert error is not None  # only_illegal: every step is an illegal event
        line, column = record.position(index) or (None, None)
        text = _what(event, deal)
        if error.rule == "deal_over":
            report.findings.append(Finding(
                "error", "after_end", _("{event} comes after the end of the deal (a tute ended it)", event=text)
                if deal.tute_event else _("{event} comes after the end of the deal", event=text), line=line,
                column=column,
                seat=names[event.seat], event=text))
            break
        if error.rule == "not_held" and type(event) is Play and undealt >> event.card & 1:
            continue  # the Deal tag left it out: said once, with the tags
        # Read after the event was forced: a play is in the trick on the table, or completed the last one.
        played = applied and type(event) is Play
        trick = len(deal.tricks) + (1 if deal.trick or not played else 0)
        message = error.message
        if error.rule == "not_your_turn" and len(deal.trick) == 1:  # the lead of a trick
            leader = seat_words(names[deal.tricks[-1].winner] if deal.tricks else names[deal.first_leader])
            message = (_("trick {trick} is written as led by {seat}, but {leader}, who won trick {last}, leads it",
                         trick=trick, seat=seat_words(names[event.seat]), leader=leader, last=trick - 1)
                       if deal.tricks else
                       _("trick {trick} is written as led by {seat}, but {leader}, the first leader, leads it",
                         trick=trick, seat=seat_words(names[event.seat]), leader=leader))
        if error.rule in SEQUENCE_RULES:
            if out_of_sequence == SEQUENCE_LIMIT:
                report.findings.append(Finding("info", "unjudged_rest", _(
                    "from this card on the play is not judged: after the error above the cards no longer follow "
                    "the table's turns and hands, so every later card would be reported, following from it (and "
                    "the count and the result with them)"), line=line, column=column))
                return True
            out_of_sequence += 1
        report.findings.append(Finding("error", error.rule, message, option=error.option, line=line, column=column,
                                       trick=trick, seat=names[event.seat], event=text))
        if type(event) is Cante:
            r = deal.rules
            report.refused_cantes.append(RefusedCante(
                event.seat, r.side_of(event.seat), event.suit,
                r.cuarenta_points if event.suit == deal.trump else r.cante_points, error.rule))
    if unread is not None:
        line, column = record.position(unread) or (None, None)
        report.findings.append(Finding("info", "unread_play", _("the play is judged up to the card that cannot be "
                                       "read; from there on nothing is judged (the cards, the count, the result)"),
                                       line=line, column=column))
    return unread is not None


def _termination_line(record: Record) -> int | None:
    last = record.position(-1)
    return None if last is None else last[0] + 1


def _judge_score(record: Record, header: Header, verdict: Verdict, report: Report) -> None:
    """Compare the record's end with the deal's, the claimed Score and Result with the recomputed sheet; explain."""
    sheet, over, rules = verdict.sheet, verdict.over, header.rules
    assert sheet is not None  # the deal was replayed to its end or to the record's: the sheet is counted
    if not over and record.termination != UNFINISHED:
        words = ngettext("the record ends ({marker}) before the deal is over: {n} card was never played",
                         "the record ends ({marker}) before the deal is over: {n} cards were never played",
                         verdict.cards_left, marker=record.termination)
        report.findings.append(Finding("error", "incomplete", words, line=_termination_line(record)))
    if over and record.termination == UNFINISHED:
        report.findings.append(Finding("warning", "unfinished_marker", _("the record ends with * but the deal is over"),
                                       line=_termination_line(record)))
    report.sheet = sheet
    report.computed_result = result_text(sheet, rules) if over else UNFINISHED
    labels = rules.side_labels
    if "Score" in header.errors:
        report.findings.append(_tag_finding(header.errors["Score"], "score_tag"))
    report.claimed_score = header.claimed_score
    if record.termination == UNFINISHED or not over:
        report.findings.append(Finding("info", "unfinished", _("unfinished deal: the winner, the totals and the "
                                       "match points cannot be judged; the cards played so far were checked"),
                                       line=_termination_line(record)))
        return
    if report.score_ok is False:
        claimed = report.claimed_score or ()
        report.explanation = explain_score(sheet, claimed, report.refused_cantes, rules,
                                           play_errors=any(f.severity == "error" for f in report.findings))
        report.findings.append(Finding(
            "error", "score_mismatch", _("the Score tag says {claimed}, the deal counts {counted}",
                                         claimed=format_side_values(claimed, rules),
                                         counted=format_side_values(sheet.totals, rules)),
            line=record.tag_lines.get("Score"), column=1))
    if report.claimed_result is not None and report.result_ok is False:
        report.findings.append(Finding(
            "error", "result_mismatch", _("the Result tag says {claimed}, the deal gives {computed}{reason}",
                                          claimed=report.claimed_result, computed=report.computed_result,
                                          reason=result_reason(sheet, rules, labels)),
            line=record.tag_lines.get("Result"), column=1))
    if report.claimed_result is None and record.termination != report.computed_result:
        report.findings.append(Finding("error", "termination", _(
            "the marker {marker} should be {result}", marker=record.termination, result=report.computed_result),
                                       line=_termination_line(record)))


# ---------------------------------------------------------------------------
# Streams and matches.


@dataclass
class _MatchState:
    """What the validator remembers of a match between its records."""
    match_id: str
    rules: Ruleset
    target: int
    deal_no: int
    dealer: int | None
    standing: tuple[int, ...]
    over: bool


def validate_records(records: Iterable[Record], ruleset: Ruleset | None = None) -> Iterator[Report]:
    """Validate each record; consecutive records with the same Match tag are checked as one match."""
    state: _MatchState | None = None
    for record in records:
        match_id = record.tags.get("Match")
        if state is not None and state.match_id != match_id:
            state = None
        report = validate(record, ruleset)
        if match_id is not None and report.rules is not None:
            state = _check_match(record, report, state, match_id)
        yield report


def _check_match(record: Record, report: Report, state: _MatchState | None, match_id: str) -> _MatchState:
    """Check one record against the match so far; return the match state after it."""
    rules = report.rules
    assert rules is not None
    add = report.findings.append
    deal_no_text = record.tags.get("DealNo", "")
    line = record.tag_lines.get("DealNo", record.line)
    header = record.header(rules, lenient=True)
    deal_no = header.deal_no
    dealer, standing_before = header.dealer, header.match_score
    error = header.errors.get("Dealer") or header.errors.get("MatchScore")
    if error is not None:
        add(_tag_finding(error, "tag"))
        dealer, standing_before = None, None
    if state is None:
        if deal_no != 1:
            add(Finding("warning", "match_first_deal", _("match {match} starts here at DealNo {deal_no}: earlier deals "
                        "are not in this input, so the first-deal rules and the standing are taken as the record "
                        "gives them", match=match_id, deal_no=deal_no_text or "?"), line=line))
        standing = standing_before or tuple([0] * rules.sides)
        state = _MatchState(match_id, rules, report.match_target or rules.match_target, deal_no or 1, dealer,
                            standing, False)
        if deal_no == 1 and standing_before is not None and any(standing_before):
            add(Finding("error", "match_score", _("the first deal of a match starts from {standing}, not from nothing",
                                                  standing=format_side_values(standing_before, rules)),
                        line=record.tag_lines.get("MatchScore")))
    else:
        if state.over:
            add(Finding("error", "match_over", _("match {match} was already over: no deal after the end",
                                                 match=match_id),
                        line=record.line))
        if deal_no is not None and deal_no != state.deal_no + 1:
            add(Finding("error", "match_deal_no", _("DealNo {deal_no} follows DealNo {last}", deal_no=deal_no,
                                                    last=state.deal_no), line=line))
        n = rules.players
        if dealer is not None and state.dealer is not None and dealer != (state.dealer + 1) % n:
            names = rules.seat_names
            add(Finding("error", "dealer_rotation", _(
                "the dealer should be {expected}, on the right of the last dealer {last}, not {dealer}",
                expected=seat_words(names[(state.dealer + 1) % n]), last=seat_words(names[state.dealer]),
                dealer=seat_words(names[dealer])),
                        line=record.tag_lines.get("Dealer")))
        if standing_before is not None and tuple(standing_before) != tuple(state.standing):
            add(Finding("error", "match_score", _("MatchScore says {claimed}, but the match stood at {standing} after "
                                                  "the last deal", claimed=format_side_values(standing_before, rules),
                                                  standing=format_side_values(state.standing, rules)),
                        line=record.tag_lines.get("MatchScore")))
        state = replace(state, deal_no=deal_no or state.deal_no + 1, dealer=dealer)
    sheet = report.sheet
    points, wins = ((report.result_points, report.result_wins_match) if report.result_only
                    else (sheet.match_points, sheet.wins_match) if sheet is not None and (sheet.complete or sheet.tute)
                    else (None, False))
    if points is not None:
        state.standing = tuple(a + b for a, b in zip(state.standing, points))
        report.standing_after = state.standing
        if wins or max(state.standing) >= state.target:
            state.over = True
    return state


# ---------------------------------------------------------------------------
# Files, in one process or several.


_Batch = list[tuple[str | None, int, int, str]]
"""Records to validate in a worker: (source name, record index, first line, text)."""


def _validate_batch(batch: _Batch, spec: str | None, strict: bool, sheets: bool, lang: str) -> list[dict[str, object]]:
    """Parse and validate consecutive records (a worker's job, in the caller's language); matches stay whole."""
    ruleset = Ruleset.from_spec(spec) if spec else None
    records = (parse_or_placeholder(text, first_line=first_line, source=name, index=index, strict=strict)
               for name, index, first_line, text in batch)
    with speaking(lang):
        return [report.to_dict(sheets) for report in validate_records(records, ruleset)]


def validate_sources(sources: Iterable[Source], ruleset: Ruleset | None = None, *, strict: bool = False,
                     jobs: int = 1, sheets: bool = False, batch_size: int = 500,
                     mapper: Callable[..., Iterator[list[dict[str, object]]]] | None = None) -> Iterator[dict[str, object]]:
    """Validate every record of every source, in order, as report dicts; ``jobs`` > 1 uses processes, a
    ``mapper`` whatever it maps with, in order (a Dask cluster: :func:`tutepgn.archive.cluster.ordered`).

    Records of one match are kept in one batch, so matches are checked whole.
    With ``strict=True`` the first syntax error raises :class:`NotationError`.
    """
    spec = str(ruleset) if ruleset else None
    batches = batch_records(iter_raw_records(sources), batch_size)
    work = partial(_validate_batch, spec=spec, strict=strict, sheets=sheets, lang=language())
    for reports in (mapper(work, batches) if mapper else ordered_map(work, batches, jobs, ahead=jobs * 2)):
        yield from reports


def tally(reports: Iterable[dict[str, object]], summary: Summary) -> Iterator[dict[str, object]]:
    """Pass ``reports`` on, counting each in ``summary`` and the time so far in ``summary.seconds``, so that
    whoever streams the reports (``tute validate``, the API) has the summary when the last one is out."""
    start = time.perf_counter()
    for report in reports:
        summary.add(report)
        summary.seconds = time.perf_counter() - start
        yield report


# ---------------------------------------------------------------------------
# Posted text (the service's POST /validate).


def pasted_records(text: str, check: Callable[[], None] | None = None) -> list[Record]:
    """Every record of a text, each read on its own (one with syntax errors comes as its tags and its located
    errors: :func:`~tutepgn.notation.parse_or_placeholder`); ``check`` runs before each is parsed."""
    records: list[Record] = []
    for _name, index, line, chunk in iter_raw_records([io.StringIO(text)]):  # a stream: never a path
        if check is not None:
            check()
        records.append(parse_or_placeholder(chunk, first_line=line, index=index))
    return records


def validate_text(text: str, check: Callable[[], None] | None = None,
                  ) -> tuple[list[dict[str, object]], Summary, list[NotationError]]:
    """Validate every record of ``text`` on its own: the report dicts, their counts, and the errors that leave
    nothing to report (a text without a record).

    A record with syntax errors gets its report all the same, each of its
    errors located in ``parse_errors`` (and as ``syntax`` findings); the other
    records get their full reports.  ``check`` runs before each record is
    parsed and before each is validated: a service stops the work there when
    its time is up.
    """
    records = pasted_records(text, check)
    summary = Summary()
    if not records:
        return [], summary, [NotationError(_("no record found"), line=1, column=1)]
    reports = []
    for report in validate_records(records):
        if check is not None:
            check()
        data = report.to_dict()
        summary.add(data)
        reports.append(data)
    return reports, summary, []
