"""The validator's fast path: a deal replayed and scored in C, answering "legal, with this score sheet" or
"illegal at event k".

The C core (``tutepgn/native/creplay.c``, in :mod:`tutepgn.native`'s extension)
takes a deal's start and its events as plain integers and the ruleset's
options as a tuple of ints (:func:`options`, laid out by
:data:`~tutepgn.native.layout.REPLAY_OPTIONS`: it reads options, never a
preset's name).  The engine stays the reference: the validator asks
:func:`check` first and replays in Python only when it names an illegal event
(to explain it, with the same findings as ever) or gives no answer (the
extension is not built, ``TUTEPGN_REPLAY=python`` switches it off, or an event
it cannot encode).  tests/test_fastreplay.py holds both to the same verdicts,
first illegal events and score sheets.

>>> from tutepgn.recording.simulate import simulate_deals
>>> from tutepgn.rules import preset
>>> done = next(simulate_deals(preset("torofun-4p"), 1, seed=3))
>>> verdict = check(done.restart(), done.log)
>>> verdict is None or (verdict.illegal is None and verdict.sheet == done.score())
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, cast

from ..engine import Deal
from ..events import Action, Tute
from ..native import C_AVAILABLE as C_AVAILABLE, Backend, backend_from, ccore  # C_AVAILABLE: read here by the tests
from ..native.replayinput import KINDS as KINDS, encode as encode, options as options  # exported here too
from ..score import CanteScore, ScoreSheet, Trick


def default_backend() -> Backend:
    """The C fast path if built, unless ``TUTEPGN_REPLAY=python`` asks for the engine alone."""
    return backend_from("TUTEPGN_REPLAY")


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
