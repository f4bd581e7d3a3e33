"""Rulesets as data: one frozen dataclass of options, five named presets, custom overrides.

Every way in which the presets differ is an option here; the engine reads
options and never asks which preset it is playing.  A ruleset is written as
its preset name plus the options that differ from it, which is also how the
``Rules`` tag of a record spells it:

>>> r = Ruleset.from_spec("ludoteka-pairs match_target=6")
>>> r.match_target, str(r)
(6, 'ludoteka-pairs match_target=6')

:class:`Ruleset` is a stdlib dataclass, checked by hand (:meth:`Ruleset.__post_init__`), so that ``tute rules``
starts without pydantic; each option's meaning is in its field's metadata, where pydantic reads it too when the
service puts a ruleset in its answers and its OpenAPI schema (``__pydantic_config__``: no other field).  The
annotations are evaluated as the class is made (no ``from __future__ import annotations``): each option's type is
then at hand, :data:`OPTIONS`, with nothing to resolve at start-up.
"""

import dataclasses
import types
import typing
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar, Literal

from .cards import SUIT_LETTERS, card_from_code, pack
from .errors import UnknownRuleset, UnknownSeat
from .i18n import N_, gettext as _

SEAT_NAMES: dict[int, tuple[str, ...]] = {2: ("N", "S"), 3: ("N", "W", "E"), 4: ("N", "W", "S", "E")}
"""Seat letters in turn order (counter-clockwise: each seat plays after the one on its left)."""
SeatLike = int | str
"""A seat as its number in turn order or as its letter (``"N"``), as :meth:`Ruleset.seat` reads it."""


def option(default: Any = dataclasses.MISSING, *, description: str) -> Any:
    """A field of :class:`Ruleset`: its default (none when every preset sets it) and its meaning, kept in the
    field's metadata (``description``: the key pydantic reads for the API's schema)."""
    return dataclasses.field(default=default, metadata={"description": description})


@dataclass(frozen=True, kw_only=True)
class Ruleset:
    """Every option a deal or a match of Tute depends on.

    Field descriptions are the documentation that ``tute rules NAME`` prints.
    """

    __pydantic_config__: ClassVar[dict[str, Any]] = {"extra": "forbid"}
    """How the service's models read a ruleset (pydantic's ``ConfigDict``): no field but the options."""

    preset: str = option(description=N_("The preset these options start from."))

    # -- The pack, the seats and the deal ---------------------------------
    players: Literal[2, 3, 4] = option(description=N_("Number of players."))
    partnerships: bool = option(False, description=N_("Partners sit opposite and score together (4 players only)."))
    removed_ranks: tuple[int, ...] = option((), description=N_("Ranks taken out of the 40-card pack."))
    hand_size: int = option(description=N_("Cards dealt to each player."))
    trump_card: Literal["dealer_last", "stock_bottom"] = option(
        description=N_("Which card shows trump: the dealer's last card, which stays in the dealer's hand, "
                    "or the card turned face up under the stock, which is drawn last."))
    first_deal_trump: str | None = option(
        None, description=N_("Trump suit of a match's first deal, whatever the turned card (None: the turned card's suit)."))
    first_deal_leader_card: str | None = option(
        None, description=N_("In a match's first deal, the holder of this card leads (None: mano leads)."))

    # -- Play duties -------------------------------------------------------
    free_play_while_stock: bool = option(
        True, description=N_("While the stock has cards any card may be played; the duties below apply once it is empty."))
    must_follow: bool = option(True, description=N_("A player holding the suit led must play that suit."))
    must_beat: bool = option(True, description=N_("Following suit, a player must beat the highest card of that suit in the trick if they can."))
    beat_waived_when_trumped: bool = option(
        True, description=N_("Once someone has trumped a non-trump lead, any card of the led suit will do."))
    must_trump: bool = option(True, description=N_("A player void in the suit led must play a trump."))
    must_overtrump: bool = option(
        True, description=N_("The trump duty asks for a trump that beats every trump in the trick; with none, any card may be played."))
    must_undertrump: bool = option(
        False, description=N_("A void player who cannot overtrump must still play a (losing) trump."))
    partner_winning_exempts: bool = option(
        False, description=N_("When the partner is winning the trick, only the duty to follow suit applies."))

    # -- Exchange of the 7 and the 2 of trump -------------------------------
    exchange_seven: bool = option(False, description=N_("The holder of the 7 of trump may exchange it for the turned card."))
    exchange_seven_for: tuple[int, ...] = option((), description=N_("Ranks of the turned card the 7 may be exchanged for."))
    exchange_two: bool = option(False, description=N_("The holder of the 2 of trump may exchange it for the turned card."))
    exchange_two_for: tuple[int, ...] = option((), description=N_("Ranks of the turned card the 2 may be exchanged for."))
    exchange_at_first_lead: bool = option(
        False, description=N_("An exchange may also be made before the first lead of the deal, not only after a won trick."))

    # -- Cantes (rey and caballo of one suit) -------------------------------
    cante_points: int = option(20, description=N_("Value of a cante in a plain suit."))
    cuarenta_points: int = option(40, description=N_("Value of a cante in trump, las cuarenta."))
    cantes_per_trick: int = option(1, description=N_("Most cantes a side may declare after one won trick."))
    forty_first: bool = option(True, description=N_("No 20 from a player who could sing the 40 at that moment."))
    cante_only_if_sung_at_first_win: bool = option(
        False, description=N_("A side that sings no cante right after its first won trick cannot sing in that deal."))
    forfeit_unsung_cantes: bool = option(
        False, description=N_("After a won trick in which the side sings no cante, every cante it could have sung "
                           "when the window closed is lost for the deal."))
    declare_only_after_draw: bool = option(
        False, description=N_("Cantes and tute only after a trick that was followed by a draw from the stock."))
    no_declare_with_last_drawn: bool = option(
        False, description=N_("No cante or tute with a rey or caballo received in the draw that emptied the stock."))

    # -- Tute (four reyes or four caballos) ----------------------------------
    tute_at_first_lead: bool = option(False, description=N_("Tute may also be announced by the leader before the first lead."))
    tute_blocked_by_earlier_cante: bool = option(
        False, description=N_("No tute once the side has declared a cante earlier in the deal."))
    tute_effect: Literal["win_deal", "win_match"] = option(description=N_("What a tute wins; the deal ends at once either way."))
    tute_match_points: int = option(1, description=N_("Match points a tute scores when it wins the deal."))
    tute_wins_match_below_target: int | None = option(
        None, description=N_("A tute wins the whole match when the match target is below this number."))

    # -- Deal result ---------------------------------------------------------
    last_trick_bonus: int = option(10, description=N_("Points for winning the last trick, the diez de ultimas."))
    deal_points: int = option(1, description=N_("Match points for winning a deal."))
    double_threshold: int | None = option(
        None, description=N_("A deal winner whose count is over this scores double_points instead (None: no doubles)."))
    double_basis: Literal["total", "cards_and_last"] = option(
        "total", description=N_("What the double threshold counts: the whole total, or card points plus last ten without declarations."))
    double_points: int = option(2, description=N_("Match points for a doubled deal."))

    # -- Match ---------------------------------------------------------------
    match_target: int = option(description=N_("Match points that end the match."))
    match_target_choices: tuple[int, ...] = option((), description=N_("Targets the source offers (empty: any)."))

    def __post_init__(self) -> None:
        """Refuse a value of the wrong type, naming the option, then a combination of options that cannot be
        dealt or played (:class:`UnknownRuleset` either way)."""
        for name, known in OPTIONS.items():
            value = getattr(self, name)
            if not of_type(value, known.annotation):
                raise UnknownRuleset(wrong_value(name, value))
        problem = self._impossible()
        if problem:
            raise UnknownRuleset(_("invalid ruleset: {problem}", problem=problem))

    def _impossible(self) -> str:
        """Why these options cannot be dealt or played together ("" when they can)."""
        try:
            deck = self.deck_size
            if self.first_deal_leader_card is not None:
                card_from_code(self.first_deal_leader_card)
        except ValueError as exc:  # a rank or a card the Spanish pack does not have
            return str(exc)
        dealt = self.players * self.hand_size
        if self.partnerships and self.players != 4:
            return _("partnerships needs 4 players")
        if self.trump_card == "dealer_last" and dealt != deck:
            return _("trump_card=dealer_last deals the whole pack: {players} x {hand_size} != {deck} cards",
                     players=self.players, hand_size=self.hand_size, deck=deck)
        if self.trump_card == "stock_bottom" and not dealt < deck:
            return _("trump_card=stock_bottom needs a stock: {players} x {hand_size} leaves no card of {deck}",
                     players=self.players, hand_size=self.hand_size, deck=deck)
        if self.first_deal_trump is not None and self.first_deal_trump not in SUIT_LETTERS:
            return _("first_deal_trump must be one of {suits}", suits=", ".join(SUIT_LETTERS))
        if self.match_target < 1:
            return _("match_target must be at least 1")
        return ""

    # -- Derived values ------------------------------------------------------
    @property
    def deck_size(self) -> int:
        """Cards in the pack after removed ranks."""
        return pack(self.removed_ranks).bit_count()

    @property
    def sides(self) -> int:
        """Number of scoring sides: pairs, or each player alone."""
        return 2 if self.partnerships else self.players

    def side_of(self, seat: int) -> int:
        """The side a seat scores for."""
        return seat % 2 if self.partnerships else seat

    @cached_property
    def silence_costs(self) -> bool:
        """Whether a side's silence after a won trick can cost it a cante; asked at every lead, so computed once."""
        return self.cante_only_if_sung_at_first_win or self.forfeit_unsung_cantes

    @cached_property
    def seating(self) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
        """Each seat's side, and each side's seats; the engine asks on every trick, so computed once."""
        side = tuple(self.side_of(s) for s in range(self.players))
        return side, tuple(tuple(s for s in range(self.players) if side[s] == k) for k in range(self.sides))

    @cached_property
    def side_labels(self) -> tuple[str, ...]:
        """Labels of the sides as records write them: ``NS``/``WE`` for pairs, else each seat's letter."""
        names = self.seat_names
        return tuple("".join(sorted((names[s] for s in group), key="NSWE".index)) for group in self.seating[1])

    @property
    def seat_names(self) -> tuple[str, ...]:
        """Seat letters in turn order."""
        return SEAT_NAMES[self.players]

    def seat(self, seat: SeatLike) -> int:
        """The number of a seat given by its letter (``"N"``) or its number; raise :class:`UnknownSeat` if none.

        >>> preset("playcard-2p").seat("S"), preset("torofun-4p").seat(2)
        (1, 2)
        """
        names = SEAT_NAMES[self.players]
        if type(seat) is int and 0 <= seat < len(names):
            return seat
        if isinstance(seat, str) and seat.upper() in names:
            return names.index(seat.upper())
        raise UnknownSeat(_("{seat} is not a seat of {players} players: seats are {seats} (or 0 to {last} in turn "
                            "order)", seat=repr(seat), players=self.players, seats=" ".join(names), last=len(names) - 1))

    # -- Notation ------------------------------------------------------------
    @classmethod
    def from_spec(cls, spec: str) -> "Ruleset":
        """Read ``PRESET [option=value ...]``, as written in a Rules tag (the preset by id, or by a name for
        players of one word or several: every word before the first ``option=value``)."""
        words = spec.split()
        if not words:
            raise UnknownRuleset(_("empty ruleset: give a preset name, e.g. ludoteka-pairs"))
        first = words[0].lower()
        named = 1 if ALIASES.get(first, first) in PRESETS else \
            next((i for i, word in enumerate(words) if "=" in word), len(words)) or 1
        base = preset(" ".join(words[:named]))  # a name for players may have several words: "tute a tres"
        overrides: dict[str, str] = {}
        for word in words[named:]:
            name, eq, value = word.partition("=")
            if not eq or not name:
                raise UnknownRuleset(_("{word} is not an override: write option=value", word=repr(word)))
            overrides[name] = value
        return base.with_options(**overrides)

    def with_options(self, **overrides: Any) -> "Ruleset":
        """A copy with some options changed; string values are read as in a Rules tag."""
        for name in overrides:
            if name not in OPTIONS or name == "preset":
                raise UnknownRuleset(_("unknown ruleset option {name}; `tute rules {preset}` lists them",
                                       name=repr(name), preset=self.preset))
        return dataclasses.replace(self, **{name: _parse_option(name, value) if isinstance(value, str) else value
                                            for name, value in overrides.items()})

    def overrides(self) -> dict[str, Any]:
        """The options whose values differ from the preset's."""
        base = PRESETS[self.preset]
        return {k: getattr(self, k) for k in OPTIONS if getattr(base, k) != getattr(self, k)}

    @cached_property
    def spec(self) -> str:
        """The ruleset as a Rules tag writes it: the preset, then each override as option=value."""
        return " ".join([self.preset] + [f"{k}={option_text(v)}" for k, v in self.overrides().items()])

    def __str__(self) -> str:
        return self.spec


@dataclass(frozen=True, slots=True)
class Option:
    """One option of :class:`Ruleset` as ``tute rules``, the service and the docs' checks read it."""

    name: str
    annotation: Any
    """Its type, resolved: ``bool``, ``int``, ``tuple[int, ...]``, a ``Literal`` of its values, or one of
    these ``| None``."""
    description: str
    """What it means, in English: a message of the catalogue (``_(description)`` in the language spoken)."""


OPTIONS: dict[str, Option] = {f.name: Option(f.name, f.type, f.metadata["description"])
                               for f in dataclasses.fields(Ruleset)}
"""Every field of :class:`Ruleset` (``preset`` first), in the order ``tute rules`` lists them."""


def of_type(value: Any, annotation: Any) -> bool:
    """Whether ``value`` is of the option type ``annotation``, exactly: a bool is no whole number, a list no
    tuple, a Literal takes its own values only."""
    origin = typing.get_origin(annotation)
    if origin is Literal:
        return any(type(value) is type(choice) and value == choice for choice in typing.get_args(annotation))
    if origin in (typing.Union, types.UnionType):
        return any(of_type(value, part) for part in typing.get_args(annotation))
    if origin is tuple:
        return type(value) is tuple and all(of_type(item, int) for item in value)
    return isinstance(value, annotation) and (annotation is bool or not isinstance(value, bool))


def type_words(annotation: Any) -> str:
    """What an option of type ``annotation`` takes, in words, as a Rules tag writes it."""
    origin = typing.get_origin(annotation)
    if origin is Literal:
        return _("one of {values}", values=", ".join(map(option_text, typing.get_args(annotation))))
    if origin in (typing.Union, types.UnionType):
        return _("{kind} or none", kind=" / ".join(type_words(part) for part in typing.get_args(annotation)
                                                  if part is not type(None)))
    if origin is tuple:
        return _("whole numbers separated by commas")
    return {bool: _("true or false"), int: _("a whole number")}.get(annotation, _("a word"))


def wrong_value(name: str, value: Any) -> str:
    """The refusal of ``value`` (as written, or as given) for option ``name``."""
    return _("option {name} takes {kind}, not {value}", name=name, kind=type_words(OPTIONS[name].annotation),
             value=repr(value))


def _parse_option(name: str, text: str) -> Any:
    """Read an override value: ``none``, ``true``/``false``, a number, or a comma list."""
    annotation = OPTIONS[name].annotation
    origin = typing.get_origin(annotation)
    if text.lower() in ("none", "null", "-"):
        return () if origin is tuple else None
    if origin is tuple:
        try:
            return tuple(int(x) for x in text.split(",") if x)
        except ValueError:
            raise UnknownRuleset(wrong_value(name, text)) from None
    if annotation is bool:
        if text.lower() not in ("true", "false", "yes", "no", "1", "0"):
            raise UnknownRuleset(wrong_value(name, text))
        return text.lower() in ("true", "yes", "1")
    if origin is Literal:  # players=4 is read as the number 4
        args = tuple({type(choice) for choice in typing.get_args(annotation)})
    else:
        args = typing.get_args(annotation) if origin in (typing.Union, types.UnionType) else (annotation,)
    if int in args:
        try:
            return int(text)
        except ValueError:
            raise UnknownRuleset(wrong_value(name, text)) from None
    return text


def option_text(value: Any) -> str:
    """Write an option value the way :func:`_parse_option` reads it."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    return str(value)


# ---------------------------------------------------------------------------
# Presets.  Each value's source is cited in docs/rules.md and by `tute rules NAME`
# (tutepgn.sources.SOURCES); values marked "decision" are the product's own choice.

_TOROFUN: dict[str, Any] = dict(
    cantes_per_trick=1, forty_first=True, forfeit_unsung_cantes=True,
    tute_blocked_by_earlier_cante=True, tute_effect="win_match",
    double_threshold=120, double_basis="cards_and_last", match_target=1,
)

PRESETS: dict[str, Ruleset] = {
    "ludoteka-pairs": Ruleset(
        preset="ludoteka-pairs", players=4, partnerships=True, hand_size=10, trump_card="dealer_last",
        first_deal_trump="O", first_deal_leader_card="2O",
        cantes_per_trick=2, cante_only_if_sung_at_first_win=True,
        tute_effect="win_deal", tute_match_points=2, tute_wins_match_below_target=5,
        double_threshold=100, double_basis="total", match_target=4, match_target_choices=(2, 4, 6, 8),
    ),
    "playcard-2p": Ruleset(
        preset="playcard-2p", players=2, hand_size=8, trump_card="stock_bottom",
        exchange_seven=True, exchange_seven_for=(1, 2, 3, 4, 5, 6, 10, 11, 12), exchange_at_first_lead=True,
        cantes_per_trick=1, tute_at_first_lead=True, tute_effect="win_deal", tute_match_points=1,
        match_target=3, match_target_choices=(3, 5, 7),
    ),
    "torofun-2p": Ruleset(
        preset="torofun-2p", players=2, hand_size=8, trump_card="stock_bottom",
        exchange_seven=True, exchange_seven_for=(1, 3, 12, 11, 10),
        exchange_two=True, exchange_two_for=(7, 6, 5, 4),
        declare_only_after_draw=True, no_declare_with_last_drawn=True, **_TOROFUN,
    ),
    "torofun-3p": Ruleset(
        preset="torofun-3p", players=3, removed_ranks=(2,), hand_size=12, trump_card="dealer_last", **_TOROFUN,
    ),
    "torofun-4p": Ruleset(
        preset="torofun-4p", players=4, partnerships=True, hand_size=10, trump_card="dealer_last", **_TOROFUN,
    ),
}

ALIASES = {"ludoteka": "ludoteka-pairs", "playcard": "playcard-2p", "torofun": "torofun-2p"}
"""Short names kept from before the presets had names for players."""

NAMES: dict[str, str] = {
    "ludoteka-pairs": N_("Tute in pairs (Ludoteka)"),
    "torofun-4p": N_("Tute in pairs (Torofun)"),
    "playcard-2p": N_("Tute for two (Playcard)"),
    "torofun-2p": N_("Tute for two (Torofun)"),
    "torofun-3p": N_("Tute for three"),
}
"""Each preset's name for players (``_(NAMES[id])`` in the language spoken); the ids stay what files write."""


def display_name(preset_id: str) -> str:
    """A preset's name for players in the language spoken ("Tute a tres")."""
    return _(NAMES[preset_id])


def _words(name: str) -> list[str]:
    """A name as the words it is matched by: lower case, no accents, no brackets or hyphens."""
    import unicodedata

    plain = unicodedata.normalize("NFKD", name.lower()).encode("ascii", "ignore").decode()
    return "".join(c if c.isalnum() else " " for c in plain).split()


def named(name: str) -> list[str]:
    """The presets whose name in some language holds every word of ``name`` (after "tute", which all share)."""
    from .i18n import LANGUAGES, speaking

    wanted = [w for w in _words(name) if w != "tute"]
    found = []
    for key, message in NAMES.items():
        names = [key, message]
        for lang in LANGUAGES:
            with speaking(lang):
                names.append(_(message))
        if wanted and any(set(wanted) <= set(_words(n)) for n in names):
            found.append(key)
    return found


def preset(name: str) -> Ruleset:
    """Find a preset by its id, an old alias, or its name for players in either language, case and accents
    ignored; a name's words are enough when one preset alone has them all ("tute a tres", "tres", "parejas
    ludoteka"), and several presets that have them are named in the refusal."""
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    if key in PRESETS:
        return PRESETS[key]
    found = named(name)
    if len(found) == 1:
        return PRESETS[found[0]]
    if found:
        raise UnknownRuleset(_("{name} may be {presets}: name one of them", name=repr(name),
                               presets=" / ".join(f"{display_name(k)} ({k})" for k in found)))
    raise UnknownRuleset(_("unknown ruleset {name}; presets are {presets}", name=repr(name),
                           presets=", ".join(PRESETS)))


def ruleset(spec: str | Ruleset) -> Ruleset:
    """Accept a ruleset or its spec string, so callers can take either."""
    return spec if isinstance(spec, Ruleset) else Ruleset.from_spec(spec)


def option_rows(ruleset: Ruleset) -> list[dict[str, Any]]:
    """Every option of ``ruleset`` but the preset, as ``tute rules NAME`` lists it: the option, its value,
    the value written as an override writes it (``text``), its meaning, and where the value comes from
    (``source``: ``override``, else the preset's citation in words; ``citation``: that citation as data,
    None for an override)."""
    from .sources import source_of  # the citations load when options are listed, not with every ruleset

    overridden = ruleset.overrides()
    rows = []
    for name, known in OPTIONS.items():
        if name == "preset":
            continue
        citation = None if name in overridden else source_of(ruleset.preset, name)
        rows.append({"option": name, "value": getattr(ruleset, name), "text": option_text(getattr(ruleset, name)),
                     "description": _(known.description),
                     "source": "override" if citation is None else str(citation),
                     "citation": None if citation is None else citation.to_dict()})
    return rows
