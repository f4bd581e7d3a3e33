"""tutepgn: the PGN of Tute.  A notation, a rules engine, a validator and an archive for Tute deals.

The public API in one import:

>>> from tutepgn import Deal, preset
>>> deal = Deal.shuffled(preset("playcard-2p"), seed=1)
>>> len(deal.hand(0)), deal.stock_left
(8, 24)
"""

from .cards import Card, CardSet, card_from_code, card_code
from .duties import play_duty
from .engine import Deal
from .errors import (
    ArchiveError, ArchiveWriteError, ConvertError, EntryError, ErrorItem, IllegalAction, IllegalDeclaration, IllegalPlay,
    JsonRecordError, LimitError, NotationError, OutputError, Problem, SettingError, TuteError, UnknownRuleset,
    UnknownSeat,
)
from .events import Action, Cante, Exchange, Play, Tute
from .match import Match
from .rules import PRESETS, Ruleset, preset, ruleset
from .score import ScoreSheet, Trick

__all__ = [
    "Action", "ArchiveError", "ArchiveWriteError", "Cante", "Card", "CardSet", "ConvertError", "Deal", "EntryError",
    "ErrorItem", "Exchange", "IllegalAction", "IllegalDeclaration", "IllegalPlay", "JsonRecordError", "LimitError",
    "Match", "NotationError", "OutputError", "PRESETS", "Play", "Problem", "Ruleset", "ScoreSheet", "SettingError",
    "Trick", "Tute", "TuteError",
    "UnknownRuleset", "UnknownSeat", "card_code", "card_from_code", "play_duty", "preset", "ruleset",
]
__version__ = "0.1.0"
