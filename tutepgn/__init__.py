"""tutepgn: the PGN of Tute.  A notation, a rules engine, a validator and an archive for Tute deals.

The public API in one import:

>>> from tutepgn import Deal, preset
>>> deal = Deal.shuffled(preset("playcard-2p"), seed=1)
>>> len(deal.hand(0)), deal.stock_left
(8, 24)
"""

from typing import TYPE_CHECKING

from .lazy import lazy_exports

if TYPE_CHECKING:  # what the lazy exports below give, seen by type checkers and editors
    from .cards import Card, CardSet, card_from_code, card_code
    from .duties import play_duty
    from .engine import Deal
    from .errors import (ArchiveError, ArchiveHeldError, ArchiveWriteError, ClusterError, ConvertError, EntryError, EventError,
        IllegalAction, IllegalDeclaration, IllegalPlay, JsonRecordError, LimitError, LinkError, NotationError,
        OutputError, SchemaVersionError, SettingError, TuteError, UnknownRuleset, UnknownSeat)
    from .errorshape import ErrorItem, Problem
    from .events import Action, Cante, Exchange, Play, Tute
    from .match import Match
    from .rules import PRESETS, Ruleset, preset, ruleset
    from .score import ScoreSheet, Trick

__getattr__, __dir__ = lazy_exports(__name__, {
    ".cards": ("Card", "CardSet", "card_from_code", "card_code"),
    ".duties": ("play_duty",),
    ".engine": ("Deal",),
    ".errors": (
        "ArchiveError", "ArchiveHeldError", "ArchiveWriteError", "ClusterError", "ConvertError", "EntryError", "EventError", "IllegalAction",
        "IllegalDeclaration", "IllegalPlay", "JsonRecordError", "LimitError", "LinkError", "NotationError", "OutputError", "SchemaVersionError", "SettingError",
        "TuteError", "UnknownRuleset", "UnknownSeat"),
    ".errorshape": ("ErrorItem", "Problem"),
    ".events": ("Action", "Cante", "Exchange", "Play", "Tute"),
    ".match": ("Match",),
    ".rules": ("PRESETS", "Ruleset", "preset", "ruleset"),
    ".score": ("ScoreSheet", "Trick"),
}, globals())
"""Every name below is imported on first use (:mod:`tutepgn.lazy`): ``tute --help`` loads none of them."""

__all__ = [
    "Action", "ArchiveError", "ArchiveHeldError", "ArchiveWriteError", "Cante", "ClusterError", "Card", "CardSet", "ConvertError", "Deal", "EventError",
    "EntryError", "ErrorItem", "Exchange", "IllegalAction", "IllegalDeclaration", "IllegalPlay", "JsonRecordError", "LimitError", "LinkError",
    "Match", "NotationError", "OutputError", "PRESETS", "Play", "Problem", "Ruleset", "SchemaVersionError", "ScoreSheet",
    "SettingError",
    "Trick", "Tute", "TuteError",
    "UnknownRuleset", "UnknownSeat", "card_code", "card_from_code", "play_duty", "preset", "ruleset",
]
__version__ = "0.1.0"
