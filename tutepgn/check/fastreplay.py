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
from ..events import Action, Cante, Exchange, Play, Tute
from ..native import C_AVAILABLE as C_AVAILABLE, Backend, backend_from, ccore  # C_AVAILABLE: read here by the tests
from ..native.layout import REPLAY_OPTIONS, duty_bits
from ..rules import Ruleset
from ..score import CanteScore, ScoreSheet, Trick, tute_wins_match

KINDS = (Play, Cante, Tute, Exchange)
"""The event kinds in the order of their codes (:data:`~tutepgn.native.layout.EVENT_KINDS`)."""


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

_OPTIONS: dict[tuple[int, int | None], tuple[Ruleset, tuple[int, ...]]] = {}


def options(rules: Ruleset, match_target: int | None = None) -> tuple[int, ...]:
    """The ruleset's options as creplay.c reads them (:data:`~tutepgn.native.layout.REPLAY_OPTIONS`), with
    whether a tute wins the match under ``match_target`` (None: the ruleset's); made once per ruleset object
    and target."""
    key = (id(rules), match_target)
    known = _OPTIONS.get(key)
    if known is not None and known[0] is rules:
        return known[1]
    r = rules
    side = r.seating[0] + (0,) * (4 - r.players)
    named = {name: getattr(r, name) for name in REPLAY_OPTIONS if hasattr(r, name)}
    named.update(side0=side[0], side1=side[1], side2=side[2], side3=side[3], duties=duty_bits(r),
                 exchange_seven_for=_ranks(r.exchange_seven_for), exchange_two_for=_ranks(r.exchange_two_for),
                 double=r.double_threshold is not None, double_threshold=r.double_threshold or 0,
                 double_basis_total=r.double_basis == "total",
                 tute_wins_match=tute_wins_match(r, r.match_target if match_target is None else match_target))
    result = tuple(int(named[name]) for name in REPLAY_OPTIONS)
    if len(_OPTIONS) >= 1024:
        _OPTIONS.clear()
    _OPTIONS[key] = (rules, result)
    return result


def _ranks(ranks: tuple[int, ...]) -> int:
    """A tuple of printed ranks as a mask (bit r for rank r); ranks no card has cannot match a card anyway."""
    return sum(1 << r for r in set(ranks) if 0 <= r < 63)


def encode(events: Sequence[Action], players: int) -> bytes | None:
    """The events as :func:`check` hands them to C, 2 bytes each (kind << 2 | seat, then the card, suit or rank);
    None without the extension or for an event it cannot encode (the import's rows read the plays from them)."""
    return None if ccore is None else ccore.encode_events(events, KINDS, players)


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
