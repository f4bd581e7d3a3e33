"""The ruleset's options and the events as the C core's replay reads them (``creplay.c``): shared by the
validator's fast path (:mod:`tutepgn.check.fastreplay`) and the PIMC rollout's play-out in C
(``playout.c``, :mod:`tutepgn.analysis.pimc`), which replays a world's deal with it.

Loaded only by those callers: importing :mod:`tutepgn.native` alone still loads nothing of the game.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..events import Action, Cante, Exchange, Play, Tute
from ..rules import Ruleset
from ..score import tute_wins_match
from . import ccore
from .layout import REPLAY_OPTIONS, duty_bits

KINDS = (Play, Cante, Tute, Exchange)
"""The event kinds in the order of their codes (:data:`~tutepgn.native.layout.EVENT_KINDS`)."""

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
    """The events as the C replay takes them, 2 bytes each (kind << 2 | seat, then the card, suit or rank);
    None without the extension or for an event it cannot encode (the import's rows read the plays from them)."""
    return None if ccore is None else ccore.encode_events(events, KINDS, players)
