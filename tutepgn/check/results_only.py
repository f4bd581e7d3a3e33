"""Results-only records (``[Play "result only"]``, *sin jugadas*): a deal whose cards were not noted.

There is no play to replay, so the validator checks what can be checked: the
record holds no play and gives a result; the Score tag's totals are a count
some deal under the ruleset ends with (the pack's points, the last ten and the
cantes: :func:`tutepgn.score.possible_outcomes`); the Result is one that count
gives (who wins, for how many match points, as :func:`tutepgn.score.decide`
decides).  The match checks (standing, dealer, end) then run on the match
points the Result gives, as for any deal.
"""

from __future__ import annotations

from ..i18n import gettext as _
from ..notation import UNFINISHED, Header, Record, format_side_values
from ..rules import Ruleset
from ..score import Outcome, cante_totals, pack_points, possible_outcomes
from .report import Finding, Report

__all__ = ["judge_result_only", "outcome_text"]


def outcome_text(outcome: Outcome, rules: Ruleset) -> str:
    """An outcome as a Result tag writes it: ``NS+1``, ``W+match``."""
    label = rules.side_labels[outcome.side]
    return f"{label}+match" if outcome.wins_match else f"{label}+{outcome.points}"


def _claimed(result: str, rules: Ruleset) -> Outcome | None:
    """The outcome a Result tag claims, or None when it names no side of the ruleset."""
    label, _plus, points = result.partition("+")
    if label not in rules.side_labels or not (points == "match" or points.isdigit()):
        return None
    side = rules.side_labels.index(label)
    return Outcome(side, 0, True) if points == "match" else Outcome(side, int(points))


def _line_of_end(record: Record) -> int | None:
    return record.tag_lines.get("Result", record.line)


def judge_result_only(record: Record, header: Header, report: Report) -> None:
    """Judge a results-only record: no play, a result, a possible Score, a Result that agrees with it."""
    add = report.findings.append
    rules = header.rules
    report.result_only = True
    if record.events:
        line, column = record.position(0) or (record.line, None)
        add(Finding("error", "result_only_play", _(
            "a results-only record ([Play \"result only\"]) holds no play, but play is written here: remove the "
            "Play tag to record the deal card by card, or the play to keep only the result"),
            line=line, column=column))
    if "Score" in header.errors:
        add(Finding("error", "score_tag", header.errors["Score"].message, line=header.errors["Score"].line, column=1))
    report.claimed_score = header.claimed_score
    claimed = report.claimed_result if report.claimed_result is not None else record.termination
    if claimed == UNFINISHED:
        add(Finding("error", "result_only_unfinished", _(
            "a results-only record gives the deal's result (e.g. {example}), not *", example=rules.side_labels[0] + "+1"),
            line=_line_of_end(record), column=1))
        return
    outcome = _claimed(claimed, rules)
    if outcome is None:
        add(Finding("error", "result_mismatch", _(
            "the Result tag {result} names no side of {preset} ({sides})", result=claimed, preset=rules.preset,
            sides=" ".join(rules.side_labels)), line=_line_of_end(record), column=1))
        return
    score = header.claimed_score
    allowed = possible_outcomes(rules, score, report.match_target)
    if score is not None and not allowed:
        add(Finding("error", "score_impossible", _score_reason(score, rules),
                    line=record.tag_lines.get("Score", record.line), column=1))
        return
    if outcome not in allowed:
        given = ", ".join(outcome_text(o, rules) for o in sorted(allowed, key=lambda o: (o.side, o.wins_match, o.points)))
        message = (_("the Result tag says {result}, but the Score {score} gives only {allowed} under {preset} (the "
                     "side with the most points wins, a double over its threshold; a tute's result whatever the "
                     "count)", result=claimed, score=format_side_values(score, rules), allowed=given,
                     preset=rules.preset) if score is not None
                   else _("the Result tag says {result}, but a deal under {preset} ends only as {allowed}",
                          result=claimed, preset=rules.preset, allowed=given))
        add(Finding("error", "result_mismatch", message, line=_line_of_end(record), column=1))
        return
    report.computed_result = claimed
    points = [0] * rules.sides
    points[outcome.side] = outcome.points
    report.result_points, report.result_wins_match = tuple(points), outcome.wins_match


def _score_reason(score: tuple[int, ...], rules: Ruleset) -> str:
    """Why no deal under the rules ends with these totals, in a sentence."""
    shown = format_side_values(score, rules)
    if min(score) < 0:
        return _("the Score {score} holds a negative count: no side loses points in a deal", score=shown)
    cards, bonus, cantes = pack_points(rules), rules.last_trick_bonus, cante_totals(rules)
    return _("the Score {score} is no deal's count under {preset}: the sides' totals add up to {total}, but a "
             "finished deal's add up to the pack's {cards} card points, the last ten ({bonus}) and the cantes sung "
             "(in steps of {step}, at most {cantes}), and a deal a tute ended to at most {most}",
             score=shown, preset=rules.preset, total=sum(score), cards=cards, bonus=bonus, step=rules.cante_points,
             cantes=cantes, most=cards + cantes)
