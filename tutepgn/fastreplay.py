"""The validator's fast path: a deal replayed and scored in C, answering "legal, with this score sheet" or
"illegal at event k".

The C core (``tutepgn/solver/creplay.c``, built into the solver's extension)
takes a deal's start and its events as plain integers and the ruleset's
options as a tuple of ints (:func:`options`: it reads options, never a
preset's name).  The engine stays the reference: the validator asks
:func:`check` first and replays in Python only when it names an illegal event
(to explain it, with the same findings as ever) or gives no answer (the
extension is not built, ``TUTEPGN_REPLAY=python`` switches it off, or an event
it cannot encode).  tests/test_fastreplay.py holds both to the same verdicts,
first illegal events and score sheets.

>>> from tutepgn.simulate import simulate_deals
>>> from tutepgn.rules import preset
>>> done = next(simulate_deals(preset("torofun-4p"), 1, seed=3))
>>> verdict = check(done.restart(), done.log)
>>> verdict is None or (verdict.illegal is None and verdict.sheet == done.score())
True
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Literal, NamedTuple, cast

from .engine import Deal
from .events import Action, Cante, Exchange, Play, Tute
from .i18n import gettext as _
from .rules import Ruleset
from .score import CanteScore, ScoreSheet, Trick, tute_wins_match
from .solver.position import DUTY_OPTIONS

try:
    from .solver import ccore
except ImportError:  # built without a compiler: the engine replays every deal
    ccore = None  # type: ignore[assignment]  # C_AVAILABLE says so: BACKEND is never "c" then

Backend = Literal["c", "python"]
C_AVAILABLE = ccore is not None
"""True when the C core was built with the package."""
KINDS = (Play, Cante, Tute, Exchange)
"""The event kinds in the order of their codes in creplay.c."""


def default_backend() -> Backend:
    """The C fast path if built, unless ``TUTEPGN_REPLAY=python`` asks for the engine alone."""
    wanted = os.environ.get("TUTEPGN_REPLAY", "").strip().lower()
    if wanted not in ("", "c", "python"):
        raise ValueError(_("{name}={value!r}: use c or python", name="TUTEPGN_REPLAY", value=wanted))
    return "python" if wanted == "python" or not C_AVAILABLE else "c"


BACKEND: Backend = default_backend()
"""The backend :func:`check` uses, read from the environment once, at import."""


class Verdict(NamedTuple):
    """What the fast path found: the first illegal event (None: every event is legal) and, when all are legal,
    the score sheet, whether the deal is over, and the cards never played."""

    illegal: int | None
    sheet: ScoreSheet | None = None
    over: bool = False
    cards_left: int = 0


NOT_REPLAYED = frozenset({"preset", "removed_ranks", "hand_size", "trump_card", "first_deal_trump",
                          "first_deal_leader_card", "match_target_choices"})
"""Ruleset options the fast path does not read: they shape the deal's start (the engine's ``Deal`` builds it)
or the match.  Every other option is in :func:`options` (a test checks that none is left out)."""

_OPTIONS: dict[tuple[int, int | None], tuple[Ruleset, tuple[int, ...]]] = {}


def options(rules: Ruleset, match_target: int | None = None) -> tuple[int, ...]:
    """The ruleset's options as creplay.c reads them (its ``O_*`` layout), with whether a tute wins the match
    under ``match_target`` (None: the ruleset's); made once per ruleset object and target."""
    key = (id(rules), match_target)
    known = _OPTIONS.get(key)
    if known is not None and known[0] is rules:
        return known[1]
    r = rules
    side = r.seating[0] + (0,) * (4 - r.players)
    packed = (r.players, r.sides, *side, r.free_play_while_stock,
              sum(1 << i for i, name in enumerate(DUTY_OPTIONS) if getattr(r, name)),
              r.exchange_seven, _ranks(r.exchange_seven_for), r.exchange_two, _ranks(r.exchange_two_for),
              r.exchange_at_first_lead, r.cante_points, r.cuarenta_points, r.cantes_per_trick, r.forty_first,
              r.cante_only_if_sung_at_first_win, r.forfeit_unsung_cantes, r.declare_only_after_draw,
              r.no_declare_with_last_drawn, r.tute_at_first_lead, r.tute_blocked_by_earlier_cante,
              r.tute_match_points, r.last_trick_bonus, r.deal_points, r.double_threshold is not None,
              r.double_threshold or 0, r.double_basis == "total", r.double_points,
              tute_wins_match(r, r.match_target if match_target is None else match_target))
    result = tuple(int(v) for v in packed)
    if len(_OPTIONS) >= 1024:
        _OPTIONS.clear()
    _OPTIONS[key] = (rules, result)
    return result


def _ranks(ranks: tuple[int, ...]) -> int:
    """A tuple of printed ranks as a mask (bit r for rank r); ranks no card has cannot match a card anyway."""
    return sum(1 << r for r in set(ranks) if 0 <= r < 63)


def check(deal: Deal, events: Sequence[Action], match_target: int | None = None) -> Verdict | None:
    """Replay ``events`` from the start of ``deal`` (left untouched) in C: the first illegal event, or the score
    sheet (as ``deal.score(match_target)`` would give it after the engine's replay); None when the fast path
    has no answer and the engine must replay."""
    if BACKEND != "c":
        return None
    rules = deal.rules
    codes = ccore.encode_events(events, KINDS, rules.players)
    if codes is None:
        return None
    found = ccore.replay(options(rules, match_target), deal.hands, deal.stock, deal.turn, deal.trump, codes, Trick)
    if found is None or isinstance(found, int):
        return None if found is None else Verdict(found)
    over, left, tute, (tricks, card_points, last_side, bonus, cantes, totals, winner, tie_break, points,
                       doubled, wins_match, complete) = found
    sheet = ScoreSheet(rules.sides, tricks, card_points, last_side, bonus,
                       tuple([CanteScore(*c) for c in cantes]) if cantes else (), totals, winner, tie_break,
                       points, doubled, cast(Tute, events[tute]) if tute >= 0 else None, wins_match, complete)
    return Verdict(None, sheet, over, left)
