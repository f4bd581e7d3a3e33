"""Why a claimed count or result differs from the recount, in sentences: the validator's explanation.

The claimed Score against the recomputed sheet, side by side (cards, last ten, cantes), with the likely
cause when one fits (a refused cante, the last ten counted twice or given to the other side, a trick
credited to the wrong side); and the clause that says why the result is what it is.
"""

from __future__ import annotations

from ..i18n import gettext as _, ngettext
from ..rules import Ruleset
from ..score import ScoreSheet
from ..words import seat_words, suit_words
from .report import RefusedCante

__all__ = ["explain_score", "result_reason"]


def result_reason(sheet: ScoreSheet, rules: Ruleset, labels: tuple[str, ...]) -> str:
    """Why the recomputed result is what it is, in a clause."""
    if sheet.winner is None:
        return ""
    who = seat_words(labels[sheet.winner])
    if sheet.tute is not None:
        return (_(" ({side} announced tute, which wins the match)", side=who) if sheet.wins_match
                else _(" ({side} announced tute)", side=who))
    reasons = [_("{side} has {points}", side=who, points=sheet.totals[sheet.winner])]
    if sheet.tie_break:
        reasons.append(_("a tie won by the side that won the last trick"))
    if sheet.doubled:
        basis = _("in all") if rules.double_basis == "total" else _("in cards and last ten")
        reasons.append(_("over {threshold} {basis}: double", threshold=rules.double_threshold, basis=basis))
    return _(" ({reasons})", reasons=", ".join(reasons))


def explain_score(sheet: ScoreSheet, claimed: tuple[int, ...], refused: list[RefusedCante],
                  rules: Ruleset, *, play_errors: bool = False) -> list[str]:
    """Sentences that say where a claimed count differs from the recomputed one, side by side.

    With ``play_errors`` (the play broke a rule: a revoke, a card out of turn) no trick is guessed to have been
    credited to the wrong side: the recount follows the record's cards as forced, so a difference of one
    trick's worth follows from the error already found, not from a second one."""
    labels = rules.side_labels
    out = []
    for side, label in enumerate(labels):
        got, said = sheet.totals[side], claimed[side] if side < len(claimed) else None
        if said is None or said == got:
            continue
        parts = [_("{points} in cards", points=sheet.card_points[side])]
        if sheet.last_trick_side == side:
            parts.append(_("{points} for the last trick", points=sheet.last_trick_bonus))
        cantes = sheet.cante_points(side)
        if cantes:
            parts.append(_("{points} in cantes", points=cantes))
        line = _("{side} claims {said} but counts {got} ({parts})", side=seat_words(label), said=said, got=got,
                 parts=" + ".join(parts))
        diff = said - got
        reasons = []
        refused_here = [c for c in refused if c.side == side]
        if refused_here and sum(c.points for c in refused_here) == diff:
            named = ", ".join(_("{points} in {suit} ({rule})", points=c.points, suit=suit_words(c.suit),
                                rule=c.reason) for c in refused_here)
            reasons.append(ngettext("the difference is the refused cante {cantes}",
                                    "the difference is the refused cantes {cantes}", len(refused_here), cantes=named))
        if abs(diff) == rules.last_trick_bonus:
            has_it = sheet.last_trick_side == side
            reasons.append(_("the last ten may have been counted twice") if diff > 0 and has_it
                           else _("the last ten went to the other side") if diff > 0
                           else _("the last ten may be missing from the claim"))
        tricks = [i + 1 for i, t in enumerate(sheet.tricks) if t.points == abs(diff) and t.points]
        if tricks and diff != 0 and not play_errors:
            reasons.append(_("a trick worth {points} may have been credited to the wrong side (trick {tricks})",
                             points=abs(diff), tricks=", ".join(map(str, tricks[:4]))))
        if not reasons:
            reasons.append(_("the claim is {points} more", points=abs(diff)) if diff > 0
                           else _("the claim is {points} less", points=abs(diff)))
        out.append(_("{line}: {reasons}.", line=line, reasons="; ".join(reasons)))
    return out
