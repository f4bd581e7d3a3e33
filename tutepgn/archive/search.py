"""Search filters for the archive: one model, used by ``tute search``, ``tute stats``, ``tute export`` and the API.

Every filter becomes parameterised SQL: values travel as parameters, never
inside SQL text, so no filter value can change a query's meaning.

Names match by word, whatever the case and the accents: ``Ana`` finds "Ana
García" and "ana", ``garcia`` finds "Ana García".

>>> names = {("ana",): ["Ana", "Ana García"]}  # the archive's names that hold the words (SeatNames)
>>> where, params = SearchFilters(player="Ana", trump="O").to_sql(lambda words: names[tuple(words)])
>>> where
'(north IN (?, ?) OR west IN (?, ?) OR south IN (?, ?) OR east IN (?, ?)) AND trump = ?'
>>> params[:2], params[-1]
(['Ana', 'Ana García'], 'O')
>>> SearchFilters(rules="ludoteka", winner="ns").rules, SearchFilters(winner="ns").winner
('ludoteka-pairs', 'NS')
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from ..cards import SUIT_LETTERS, card_reader
from ..errors import UnknownRuleset
from ..events import SeatLetter
from ..i18n import N_, gettext as _
from ..rules import PRESETS, Ruleset
from .columns import SUMMARY_COLUMNS
from .ids import DealId
from .names import (SEAT_COLUMN, Names, all_of, among, any_of, name_words, named, on_side, seat_of_side, somewhere,
                    two_seats)
from .columns import DEAL_COLUMNS  # what tute export --sort may order by (order_of)


@dataclass(frozen=True)
class SortKey:
    """How a sort orders deals: a column, its direction, where deals without a value go, then the id.

    The ORDER BY names the plain column (not a ``coalesce``), so that DuckDB's top-N can skip whole row
    groups by their statistics: over a Parquet dataset sorted by date, a first page reads one or two of them
    instead of every row."""

    column: str
    desc: bool
    kind: str
    nulls_last: bool

    @property
    def order(self) -> str:
        """The ORDER BY clause."""
        if self.column == "id":
            return "id"
        return f"{self.column}{' DESC' if self.desc else ''} NULLS {'LAST' if self.nulls_last else 'FIRST'}, id"

    @property
    def reverse(self) -> str:
        """The ORDER BY backwards: a page before a cursor is read backwards, then turned round."""
        if self.column == "id":
            return "id DESC"
        return f"{self.column}{'' if self.desc else ' DESC'} NULLS {'FIRST' if self.nulls_last else 'LAST'}, id DESC"

    def after(self, value: object, last_id: int, *, before: bool = False) -> tuple[str, list[object]]:
        """The condition that selects the rows after (``before``: before) the row (``value``, ``last_id``)."""
        later = "<" if before else ">"
        if self.column == "id":
            return f"id {later} ?", [last_id]
        nulls_beyond = self.nulls_last != before  # the deals without a value lie this way
        if value is None:
            condition = f"({self.column} IS NULL AND id {later} ?)"
            params: list[object] = [last_id]
            return (condition if nulls_beyond else f"({condition} OR {self.column} IS NOT NULL)"), params
        op = ">" if self.desc == before else "<"
        condition = f"{self.column} {op} ?::{self.kind} OR ({self.column} = ?::{self.kind} AND id {later} ?)"
        return f"({condition}{f' OR {self.column} IS NULL' if nulls_beyond else ''})", [value, value, last_id]


SORT_KEYS: dict[str, SortKey] = {
    "date": SortKey("date", False, "DATE", nulls_last=True),
    "-date": SortKey("date", True, "DATE", nulls_last=True),
    "points": SortKey("winner_points", False, "INTEGER", nulls_last=False),
    "-points": SortKey("winner_points", True, "INTEGER", nulls_last=True),
    "margin": SortKey("margin", False, "INTEGER", nulls_last=False),
    "-margin": SortKey("margin", True, "INTEGER", nulls_last=True),
    "id": SortKey("id", False, "BIGINT", nulls_last=True),
}
"""Sort keys a search accepts (a leading - means descending).  A deal without the value (no known date, no
result) comes last by date either way, and as the smallest by points or margin.  Every order ends on the id,
so pages are stable and keyset pagination is exact."""
SORTS = {name: key.order for name, key in SORT_KEYS.items()}
"""ORDER BY clause per sort key."""


def order_of(sort: str) -> str:
    """The ORDER BY of a download's ``sort``: a sort key (:data:`SORTS`), or any column of table deals, ``-`` before
    it for descending (``-cantes``), deals without the value last, then by id (for ``tute export --sort``: no
    pages, so no cursor needs the key)."""
    if sort in SORTS:
        return SORTS[sort]
    name = sort.removeprefix("-")
    if name not in DEAL_COLUMNS or name == "text":
        raise ValueError(_("unknown sort {sort!r}; sorts are {sorts}, or a column of table deals (- before it: "
                           "descending)", sort=sort, sorts=", ".join(SORTS)))
    return f"{name} {'DESC' if sort.startswith('-') else 'ASC'} NULLS LAST, id"


@dataclass(frozen=True)
class Sample:
    """A reproducible sample of the deals a search matches: ``rows`` of them, chosen by ``seed``.  The deals
    are ordered by the MD5 of their hash and the seed, and the first ``rows`` taken: the same seed takes the same
    deals from the same matching deals, whatever order they were imported in, on any machine (DuckDB's
    ``hash()`` and ``USING SAMPLE`` promise neither)."""

    rows: int
    seed: int = 0

    def within(self, where: str, params: list[object]) -> tuple[str, list[object]]:
        """The WHERE clause of the sampled deals among those ``where`` matches, and its parameters."""
        return (f"id IN (SELECT id FROM deals WHERE {where} ORDER BY md5(hash || ?), id LIMIT ?)",
                [*params, str(self.seed), self.rows])


def keyset(sort: str, cursor: str, *, before: bool = False) -> tuple[str, list[object]]:
    """The condition that selects the rows after an opaque page cursor (``before``: the rows before it), and
    its parameters."""
    name, value, last_id = decode_cursor(cursor)
    if name != sort:
        raise ValueError(_("this cursor belongs to a search with another sort order"))
    return SORT_KEYS[sort].after(value, last_id, before=before)


def reverse_order(sort: str) -> str:
    """The ORDER BY of ``sort`` backwards."""
    return SORT_KEYS[sort].reverse


def encode_cursor(sort: str, value: object, last_id: int) -> str:
    """An opaque page cursor: the sort, the last row's key and id (URL-safe base64 of JSON)."""
    raw = json.dumps([sort, value.isoformat() if isinstance(value, dt.date) else value, last_id])
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[str, object, int]:
    """Read a page cursor; raise ValueError for anything that is not one of ours."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        sort, value, last_id = json.loads(raw)
    except (ValueError, TypeError) as exc:
        raise ValueError(_("not a valid page cursor")) from exc
    if sort not in SORT_KEYS or type(last_id) is not int or not isinstance(value, (int, str, type(None))):
        raise ValueError(_("not a valid page cursor"))
    kind = SORT_KEYS[sort].kind  # the value must bind as the sort key's type, or the query would fail
    if not -2**63 <= last_id < 2**63 or (value is None and kind == "BIGINT") \
            or (kind == "INTEGER" and value is not None and not (type(value) is int and -2**31 <= value < 2**31)) \
            or (kind == "DATE" and value is not None and not (isinstance(value, str) and _iso_date(value))):
        raise ValueError(_("not a valid page cursor"))
    return sort, value, last_id


def _iso_date(text: str) -> bool:
    """Whether ``text`` is a date written YYYY-MM-DD, as cursors write them."""
    try:
        return dt.date.fromisoformat(text).isoformat() == text
    except ValueError:
        return False

ANALYSIS_FILTERS = ("analysis_cantes", "blunders", "mistakes", "max_cost", "min_cost", "par_diff_max")
"""The filters on a deal's stored analysis (table analyses)."""
_HELD = re.compile(r"^([NWSE]):(.+)$")
_TAG = re.compile(r"^\s*[A-Za-z][A-Za-z0-9_]*\s*:")
"""A tag filter: a tag's name (as the notation writes names), a colon, the pattern."""
SIDE_LABELS = ("NS", "WE", "N", "W", "S", "E")
"""The side labels a winner or loser filter reads as a side (any case); anything else is a player's name."""


class SearchFilters(BaseModel):
    """What to look for.  Every field is optional; given fields must all match (AND)."""

    model_config = ConfigDict(extra="forbid")

    player: str | None = Field(None, description=N_("A player's name, at any seat (or at `seat`)."))
    seat: SeatLetter | None = Field(None, description=N_("With `player`: the seat the player sat at."))
    partner: str | None = Field(None, description=N_("With `player`: the player's partner (4 players)."))
    opponent: str | None = Field(None, description=N_("With `player`: a player on another side."))
    since: dt.date | None = Field(None, description=N_("Deals on or after this date (YYYY-MM-DD)."))
    until: dt.date | None = Field(None, description=N_("Deals on or before this date."))
    event: str | None = Field(None, description=N_("Text in the Event tag (case-insensitive)."))
    site: str | None = Field(None, description=N_("Text in the Site tag (case-insensitive)."))
    rules: str | None = Field(None, description=N_("A preset name, or a whole Rules spec."))
    trump: str | None = Field(None, description=N_("Trump suit: O, C, E or B."))
    winner: str | None = Field(None, description=N_("The deal winner: a side label (NS, WE, N ...) or a player's "
                                                    "name."))
    loser: str | None = Field(None, description=N_("A player (or side label) who did not win the deal."))
    min_points: int | None = Field(None, description=N_("The winner's total at least this."))
    max_points: int | None = Field(None, description=N_("The winner's total at most this."))
    min_margin: int | None = Field(None, description=N_("The winner's lead over the next side at least this."))
    max_margin: int | None = Field(None, description=N_("The winner's lead at most this."))
    cante: Literal["any", "20", "40"] | None = Field(
        None, description=N_("A cante was sung: any, a 20, or las cuarenta."))
    cante_suit: str | None = Field(None, description=N_("A cante was sung in this suit (O, C, E, B)."))
    cante_by: str | None = Field(None, description=N_("The cante was sung by this player."))
    unsung: Literal["any", "40"] | None = Field(
        None, description=N_("A seat was dealt rey and caballo of one suit (40: of trump) and never sang it."))
    tute: bool | None = Field(None, description=N_("A tute ended the deal (or not)."))
    tute_rank: Literal[11, 12] | None = Field(None, description=N_("A tute of caballos (11) or reyes (12)."))
    exchange: bool | None = Field(None, description=N_("An exchange of the 7 or 2 was made (or not)."))
    doubled: bool | None = Field(None, description=N_("The deal was worth double (or not)."))
    tie_break: bool | None = Field(None, description=N_("The deal was a tie decided by the last trick (or not)."))
    valid: bool | None = Field(None, description=N_("The record validated (or not)."))
    issue: str | None = Field(None, description=N_("The validator reported this finding code (e.g. must_follow)."))
    held: list[str] = Field(default_factory=list,
                            description=N_("Starting holdings, each SEAT:CARDS, e.g. 'S:1O,3O' (South held 1O and "
                                           "3O)."))
    tag: list[str] = Field(default_factory=list,
                           description=N_("A tag's value, NAME:PATTERN, e.g. 'Event:Liga*' (* any text, ? one "
                                          "character, any case); repeated, all must match."))
    comment: str | None = Field(None, description=N_("Text in the record's comments (case-insensitive)."))
    match: str | None = Field(None, description=N_("The Match id."))
    analysed: bool | None = Field(None, description=N_("The deal has a stored double-dummy analysis (`tute archive "
                                  "analyse`), or not. The filters below match deals analysed so."))
    analysis_cantes: bool | None = Field(None, description=N_("Match analyses that counted cantes (or that did not)."))
    blunders: bool | None = Field(None, description=N_("Some play was a blunder (??: it gave away 20 points or more), "
                                  "or none was."))
    mistakes: bool | None = Field(None, description=N_("Some play was a mistake or worse (? or ??), or none was."))
    cost_seat: SeatLetter | None = Field(None, description=N_("With `max_cost`/`min_cost`: the seat whose summed cost "
                                         "counts (without it: every seat for `max_cost`, some seat for `min_cost`)."))
    max_cost: int | None = Field(None, description=N_("A seat's summed cost in points (its accuracy: 0 is perfect "
                                 "play) at most this."))
    min_cost: int | None = Field(None, description=N_("A seat's summed cost at least this."))
    par_diff_max: int | None = Field(None, description=N_("Some side made at most this many points more than its "
                                     "par (actual - par <= this, e.g. -20)."))

    @field_validator("player", "partner", "opponent", "cante_by")
    @classmethod
    def _name(cls, value: str | None) -> str | None:
        if value is not None and not name_words(value):
            raise ValueError(_("{value!r} is not a name: a name has letters or digits", value=value))
        return value

    @field_validator("winner", "loser")
    @classmethod
    def _side_or_name(cls, value: str | None) -> str | None:
        if value is None or value.strip().upper() not in SIDE_LABELS:
            return cls._name(value)
        return value.strip().upper()

    @field_validator("rules")
    @classmethod
    def _rules(cls, value: str | None) -> str | None:
        """A preset's name or alias (any case), or a whole spec, written as the archive stores it."""
        if value is None:
            return None
        try:
            return str(Ruleset.from_spec(value))
        except (UnknownRuleset, ValueError) as exc:
            raise ValueError(str(exc).splitlines()[0]) from None

    @field_validator("seat", "cost_seat", mode="before")
    @classmethod
    def _seat(cls, value: object) -> object:
        return value.strip().upper() if isinstance(value, str) else value

    @field_validator("trump", "cante_suit")
    @classmethod
    def _suit(cls, value: str | None) -> str | None:
        if value is not None and (len(value) != 1 or value.upper() not in SUIT_LETTERS):
            raise ValueError(_("a suit is one of O, C, E, B"))
        return value.upper() if value else value

    @field_validator("held")
    @classmethod
    def _held(cls, value: list[str]) -> list[str]:
        for item in value:
            m = _HELD.match(item.strip())
            if not m:
                raise ValueError(_("{item!r}: write SEAT:CARDS, e.g. S:1O,3O", item=item))
            table = card_reader("es")
            for code in re.split(r"[ ,]+", m.group(2).strip()):
                if code.upper() not in table:
                    raise ValueError(_("{code!r} is not a card", code=code))
        return value

    @field_validator("tag")
    @classmethod
    def _tag(cls, value: list[str]) -> list[str]:
        for item in value:
            if not _TAG.match(item):
                raise ValueError(_("{item!r}: write NAME:PATTERN, e.g. Event:Liga* (* any text, ? one character)",
                                   item=item))
        return value

    @model_validator(mode="after")
    def _needs_player(self) -> SearchFilters:
        for name in ("seat", "partner", "opponent"):
            if getattr(self, name) is not None and self.player is None:
                raise ValueError(_("{name} needs player", name=name))
        if self.player is not None and self.player in (self.partner, self.opponent):
            raise ValueError(_("a player is neither their own partner nor their own opponent"))
        if self.cost_seat is not None and self.max_cost is None and self.min_cost is None:
            raise ValueError(_("cost_seat needs max_cost or min_cost"))
        if self.analysed is False and any(getattr(self, n) is not None for n in ANALYSIS_FILTERS):
            raise ValueError(_("the analysis filters match analysed deals: leave analysed out or true"))
        return self

    def given(self) -> dict[str, Any]:
        """The filters set, by field, in the order of the fields."""
        return {name: value for name, value in self.model_dump().items()
                if value is not None and value != [] and name in self.model_fields_set}

    def steps(self) -> Iterator[tuple[str, SearchFilters | None, SearchFilters | None]]:
        """Each filter set, in order: its name, it alone, and it with the filters before it (None where a
        filter needs another, as ``seat`` needs ``player``): the steps by which a search narrows."""
        given = self.given()
        before: dict[str, Any] = {}
        for name, value in given.items():
            before[name] = value
            yield name, _valid({name: value}), _valid(dict(before))

    def to_sql(self, names: Names) -> tuple[str, list[object]]:
        """The WHERE clause over table ``deals`` and its parameters; ``names`` resolves the words of each name
        filter to the archive's names (:class:`SeatNames`), once a filter."""
        where: list[str] = []
        params: list[object] = []
        resolved: dict[str, list[str]] = {}

        def add(sql: str, *values: object) -> None:
            where.append(sql)
            params.extend(values)

        def add_with(part: tuple[str, list[object]]) -> None:
            add(part[0], *part[1])

        def who(name: str) -> list[str]:
            if name not in resolved:
                resolved[name] = names(name_words(name))
            return resolved[name]

        if self.player is not None:
            player = who(self.player)
            add_with(named(SEAT_COLUMN[self.seat], player) if self.seat else somewhere(player))
        if self.partner is not None:
            if self.player is None:
                raise ValueError(_("{name} needs player", name="partner"))
            pairs = (("north", "south"), ("south", "north"), ("west", "east"), ("east", "west"))
            add("players = 4")
            add_with(any_of(all_of(named(a, who(self.player)), named(b, who(self.partner))) for a, b in pairs))
        if self.opponent is not None:
            if self.player is None:
                raise ValueError(_("{name} needs player", name="opponent"))
            # On the deal's own columns, without a join of hands (several times faster).  With partners (NS and
            # WE, the only sides of two seats) the two sit on different sides; else each seat is a side, and
            # any seats of the two differ, unless a name is both the player's and the opponent's: then two
            # seats of the deal must hold their names.
            mine, theirs = who(self.player), who(self.opponent)
            across = any_of([all_of(on_side("NS", mine), on_side("WE", theirs)),
                             all_of(on_side("WE", mine), on_side("NS", theirs))])
            shared = set(mine) & set(theirs)
            add_with(all_of(somewhere(theirs), any_of([
                across, all_of("NOT list_contains(sides, 'NS')",
                               two_seats(sorted(set(mine) | set(theirs))) if shared else "TRUE")])))
        if self.since is not None:
            add("date >= ?", self.since)
        if self.until is not None:
            add("date <= ?", self.until)
        if self.event is not None:
            add("event ILIKE ? ESCAPE '\\'", f"%{_like(self.event)}%")
        if self.site is not None:
            add("site ILIKE ? ESCAPE '\\'", f"%{_like(self.site)}%")
        if self.rules is not None:  # a preset's name: its deals, overrides or not (a spec starts with its preset)
            add("preset = ?" if self.rules in PRESETS else "rules = ?", self.rules)  # one column: a Parquet scan's filter
        if self.trump is not None:
            add("trump = ?", self.trump)
        if self.winner is not None:
            if self.winner in SIDE_LABELS:
                add("winner = ?", self.winner)
            else:
                add_with(among("winner_players", who(self.winner)))
        if self.loser is not None:
            if self.loser in SIDE_LABELS:
                add("winner IS NOT NULL AND winner <> ? AND list_contains(sides, ?)", self.loser, self.loser)
            else:
                found = who(self.loser)
                sql, values = any_of(all_of(named(c, found), f"NOT {seat_of_side('winner', s)}")
                                       for s, c in SEAT_COLUMN.items())
                add(f"winner IS NOT NULL AND {sql}", *values)
        for column, op, value in (("winner_points", ">=", self.min_points), ("winner_points", "<=", self.max_points),
                                  ("margin", ">=", self.min_margin), ("margin", "<=", self.max_margin)):
            if value is not None:
                add(f"{column} {op} ?", value)
        if self.cante is not None or self.cante_suit is not None or self.cante_by is not None:
            # The cantes each seat sang are stored per deal as suit masks: no join needed.
            allowed = "15"
            if self.cante_suit is not None:
                allowed += f" & {1 << SUIT_LETTERS.index(self.cante_suit)}"
            trump_bit = "(1 << (strpos('OCEB', trump) - 1))"
            if self.cante == "40":
                allowed += f" & {trump_bit}"
            elif self.cante == "20":
                allowed += f" & ~{trump_bit}"
            if self.cante_by is None:
                sung = " | ".join(f"coalesce(sung_{seat}, 0)" for seat in "nwse")
                add(f"(({sung}) & ({allowed})) <> 0")
            else:
                found = who(self.cante_by)
                add_with(any_of(all_of(named(column, found), f"(coalesce(sung_{letter.lower()}, 0) & ({allowed})) <> 0")
                                for letter, column in SEAT_COLUMN.items()))
        if self.unsung is not None:
            add(_unsung_sql(self.unsung))
        for column, value in (("tute", self.tute), ("doubled", self.doubled), ("tie_break", self.tie_break),
                              ("valid", self.valid)):
            if value is not None:
                add(f"{column} = ?", value)
        if self.tute_rank is not None:
            add("tute_rank = ?", self.tute_rank)
        if self.exchange is not None:
            add("exchanges > 0" if self.exchange else "exchanges = 0")
        if self.issue is not None:
            add("EXISTS (SELECT 1 FROM issues i WHERE i.deal_id = deals.id AND i.code = ?)", self.issue)
        for item in self.held:
            m = _HELD.match(item.strip())
            assert m is not None
            table = card_reader("es")
            mask = 0
            for code in re.split(r"[ ,]+", m.group(2).strip()):
                mask |= 1 << table[code.upper()]
            add(f"(hand_{m.group(1).lower()} & ?) = ?", mask, mask)
        for item in self.tag:  # a tag the record lacks matches no pattern
            name, _colon, pattern = item.partition(":")
            add("map_extract_value(tags, ?) ILIKE ? ESCAPE '\\'", name.strip(), glob_like(pattern))
        if self.comment is not None:
            add("comments ILIKE ? ESCAPE '\\'", f"%{_like(self.comment)}%")
        if self.match is not None:
            add("match_id = ?", self.match)
        self._analysis_sql(add)
        return (" AND ".join(where) if where else "TRUE"), params


    def _analysis_sql(self, add: Callable[..., None]) -> None:
        """The analysis filters: one stored analysis of the current version (any parameters) must match them all."""
        found: list[str] = []
        values: list[object] = []
        if self.analysis_cantes is not None:
            found.append("a.cantes = ?")
            values.append(self.analysis_cantes)
        for column, wanted in (("blunders", self.blunders), ("blunders + mistakes", self.mistakes)):
            if wanted is not None:
                found.append(f"({column}) {'>' if wanted else '='} 0")
        costs = [f"cost_{self.cost_seat.lower()}"] if self.cost_seat else [f"cost_{s}" for s in "nwse"]
        if self.max_cost is not None:
            found.append("(" + " AND ".join(f"coalesce({c}, 0) <= ?" for c in costs) + ")")
            values.extend([self.max_cost] * len(costs))
        if self.min_cost is not None:
            found.append("(" + " OR ".join(f"{c} >= ?" for c in costs) + ")")
            values.extend([self.min_cost] * len(costs))
        if self.par_diff_max is not None:
            found.append("list_min(par_diff) <= ?")
            values.append(self.par_diff_max)
        if found or self.analysed is not None:
            from .analyses import CURRENT_VERSIONS  # here, so that the filters alone load no DuckDB
            exists = ("EXISTS (SELECT 1 FROM analyses a WHERE a.deal_id = deals.id AND a.rules = coalesce(deals.rules,"
                      " '') AND a.version LIKE ? AND a.error IS NULL" + "".join(f" AND {f}" for f in found) + ")")
            add(exists if self.analysed is not False else "NOT " + exists, CURRENT_VERSIONS, *values)


def _valid(values: dict[str, Any]) -> SearchFilters | None:
    """These filters, or None if they do not stand on their own (``seat`` without ``player``)."""
    try:
        return SearchFilters(**values)
    except ValidationError:
        return None


class Emptied(BaseModel):
    """Why a search found no deal: the filter that left none."""

    model_config = ConfigDict(frozen=True)

    filter: str = Field(description="The filter that left no deal (a search field: player, cante_by ...).")
    value: str = Field(description="Its value.")
    alone: bool = Field(description="True: no deal of the archive matches this filter, whatever the others. "
                                    "False: some do, but none of the deals the filters before it matched.")
    before: int = Field(description="How many deals the filters before it matched (the whole archive for "
                                    "the first filter).")

    def text(self, name: str | None = None) -> str:
        """In words (in the language spoken), the filter written as ``name`` (``--cante-by``; else ``cante_by=``)."""
        given = f"{name} {self.value}" if name else f"{self.filter}={self.value}"
        if self.alone:
            return _("no deal matches {filter} (of {n:,} deals)", filter=given, n=self.before)
        return _("no deal matches {filter} among the {n:,} deals the filters before it matched", filter=given,
                 n=self.before)


def glob_like(pattern: str) -> str:
    """A tag filter's pattern (``*`` any text, ``?`` one character, the rest itself) as a LIKE pattern.

    >>> glob_like("Liga*_2?")
    'Liga%\\\\_2_'
    """
    return _like(pattern).replace("*", "%").replace("?", "_")


def _like(text: str) -> str:
    """Escape LIKE wildcards in user text, so % and _ match themselves."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _unsung_sql(which: str) -> str:
    """A seat dealt rey and caballo of a suit (of trump, for 40) that never sang it: stored at import as a mask."""
    if which == "40":
        return "(unsung >> (strpos('OCEB', trump) - 1)) & 1 = 1"
    return "unsung > 0"


class DealSummary(BaseModel):
    """One deal as a search lists it."""

    model_config = ConfigDict(frozen=True)  # a value: hashable, and the same wherever it is passed

    id: DealId = Field(description="The deal's id: the first 63 bits of the SHA-256 of its export text (a string in "
                                  "JSON).")
    date: str | None = Field(None, description="The Date tag, as written (YYYY.MM.DD, ?? for unknown parts).")
    event: str | None = None
    site: str | None = None
    rules: str | None = Field(None, description="The Rules tag, canonical.")
    seats: dict[str, str | None] = Field(description="Player name per seat letter.")
    dealer: str | None = None
    trump: str | None = Field(None, description="Trump suit letter.")
    sides: list[str] = Field(description="Side labels, in the order of `score`.")
    score: list[int] | None = Field(None, description="Recomputed totals per side.")
    result: str | None = Field(None, description="Recomputed result, e.g. NS+1, or * if unfinished.")
    valid: bool = Field(description="The play replays legally and the count agrees; false for a results-only deal.")
    result_only: bool = Field(False, description="A results-only deal (sin jugadas): its cards were not noted, "
                              "score and result are its Score and Result tags as checked.")
    match: str | None = Field(None, description="The Match tag: the deal is one of that match.")
    deal_no: int | None = Field(None, description="The DealNo tag: its place in the match.")

    @classmethod
    def from_row(cls, row: dict[str, object]) -> DealSummary:
        """From an archive row with the summary columns (:data:`SUMMARY_FIELDS`)."""
        values: dict[str, Any] = {field: row.get(column) for field, column in SUMMARY_FIELDS}
        values.update(seats={letter: row.get(column) for letter, column in SEAT_COLUMN.items()
                             if row.get(column) is not None},
                      sides=values["sides"] or [], valid=bool(values["valid"]),
                      result_only=bool(values["result_only"]))
        return cls(**values)

    def to_row(self) -> dict[str, object]:
        """The archive's row of the summary columns, in their order: what :meth:`from_row` reads (a service's
        summaries are rows again for :class:`~.remote.ServiceArchive`)."""
        row: dict[str, object] = {column: getattr(self, field) for field, column in SUMMARY_FIELDS}
        row.update((column, self.seats.get(letter)) for letter, column in SEAT_COLUMN.items())
        return {column: row[column] for column in SUMMARY_COLUMNS}


SUMMARY_FIELDS: tuple[tuple[str, str], ...] = (
    ("id", "id"), ("date", "date_text"), ("event", "event"), ("site", "site"), ("rules", "rules"),
    ("dealer", "dealer"), ("trump", "trump"), ("sides", "sides"), ("score", "score"), ("result", "result"),
    ("valid", "valid"), ("result_only", "result_only"), ("match", "match_id"), ("deal_no", "deal_no"))
"""Each field of :class:`DealSummary` and the summary column it is, but ``seats`` (a name per seat column,
:data:`~.names.SEAT_COLUMN`): the one mapping between a summary and its row, both ways."""


class DealPage(BaseModel):
    """One page of a search, and the cursor of the next page."""

    model_config = ConfigDict(frozen=True)  # a value: hashable, and the same wherever it is passed

    items: list[DealSummary]
    next: str | None = Field(None, description="Opaque cursor: pass it as `cursor` for the next page; null on the last.")
    previous: str | None = Field(None, description="Opaque cursor: pass it as `before` for the page before; null on "
                                                   "the first.")
    emptied: Emptied | None = Field(None, description="When a search finds no deal: the filter that left none.")
