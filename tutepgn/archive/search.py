"""Search filters for the archive: one model, used by ``tute search``, ``tute stats``, ``tute export`` and the API.

Every filter becomes parameterised SQL: values travel as parameters, never
inside SQL text, so no filter value can change a query's meaning.

>>> where, params = SearchFilters(player="Ana", trump="O", cante="40").to_sql()
>>> params[:5]
['Ana', 'Ana', 'Ana', 'Ana', 'O']
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import re
from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ..cards import SUIT_LETTERS, card_reader
from ..events import SeatLetter
from ..notation import SEAT_TAGS
from .analysis import VERSION_KEY

SORT_KEYS: dict[str, tuple[str, bool, str]] = {
    "date": ("coalesce(date, DATE '9999-12-31')", False, "DATE"),
    "-date": ("coalesce(date, DATE '0001-01-01')", True, "DATE"),
    "points": ("coalesce(winner_points, -1)", False, "INTEGER"),
    "-points": ("coalesce(winner_points, -1)", True, "INTEGER"),
    "margin": ("coalesce(margin, -1)", False, "INTEGER"),
    "-margin": ("coalesce(margin, -1)", True, "INTEGER"),
    "id": ("id", False, "BIGINT"),
}
"""Sort keys a search accepts (a leading - means descending): the key expression, its direction, its type.
Every order ends on the id, so pages are stable and keyset pagination is exact."""
SORTS = {name: expr + (" DESC" if desc else "") + ("" if name == "id" else ", id")
         for name, (expr, desc, _) in SORT_KEYS.items()}
"""ORDER BY clause per sort key."""


def keyset(sort: str, cursor: str) -> tuple[str, list[object]]:
    """The condition that selects the rows after an opaque page cursor, and its parameters."""
    name, value, last_id = decode_cursor(cursor)
    if name != sort:
        raise ValueError("this cursor belongs to a search with another sort order")
    expr, desc, kind = SORT_KEYS[sort]
    if sort == "id":
        return "id > ?", [last_id]
    op = "<" if desc else ">"
    return f"({expr} {op} ?::{kind} OR ({expr} = ?::{kind} AND id > ?))", [value, value, last_id]


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
        raise ValueError("not a valid page cursor") from exc
    if sort not in SORT_KEYS or type(last_id) is not int or not isinstance(value, (int, str)):
        raise ValueError("not a valid page cursor")
    kind = SORT_KEYS[sort][2]  # the value must bind as the sort key's type, or the query would fail
    if not -2**63 <= last_id < 2**63 or (kind == "INTEGER" and not (type(value) is int and -2**31 <= value < 2**31)) \
            or (kind == "DATE" and not (isinstance(value, str) and _iso_date(value))):
        raise ValueError("not a valid page cursor")
    return sort, value, last_id


def _iso_date(text: str) -> bool:
    """Whether ``text`` is a date written YYYY-MM-DD, as cursors write them."""
    try:
        return dt.date.fromisoformat(text).isoformat() == text
    except ValueError:
        return False

ANALYSIS_FILTERS = ("analysis_cantes", "blunders", "mistakes", "max_cost", "min_cost", "par_diff_max")
"""The filters on a deal's stored analysis (table analyses)."""
_SEAT_COLUMN = {letter: tag.lower() for letter, tag in SEAT_TAGS.items()}
"""The column of table deals that names the player at each seat."""
_HELD = re.compile(r"^([NWSE]):(.+)$")


class SearchFilters(BaseModel):
    """What to look for.  Every field is optional; given fields must all match (AND)."""

    model_config = ConfigDict(extra="forbid")

    player: str | None = Field(None, description="A player's name, at any seat (or at `seat`).")
    seat: SeatLetter | None = Field(None, description="With `player`: the seat the player sat at.")
    partner: str | None = Field(None, description="With `player`: the player's partner (4 players).")
    opponent: str | None = Field(None, description="With `player`: a player on another side.")
    since: dt.date | None = Field(None, description="Deals on or after this date (YYYY-MM-DD).")
    until: dt.date | None = Field(None, description="Deals on or before this date.")
    event: str | None = Field(None, description="Text in the Event tag (case-insensitive).")
    site: str | None = Field(None, description="Text in the Site tag (case-insensitive).")
    rules: str | None = Field(None, description="A preset name, or a whole Rules spec.")
    trump: str | None = Field(None, description="Trump suit: O, C, E or B.")
    winner: str | None = Field(None, description="The deal winner: a side label (NS, WE, N ...) or a player's name.")
    loser: str | None = Field(None, description="A player (or side label) who did not win the deal.")
    min_points: int | None = Field(None, description="The winner's total at least this.")
    max_points: int | None = Field(None, description="The winner's total at most this.")
    min_margin: int | None = Field(None, description="The winner's lead over the next side at least this.")
    max_margin: int | None = Field(None, description="The winner's lead at most this.")
    cante: Literal["any", "20", "40"] | None = Field(None, description="A cante was sung: any, a 20, or las cuarenta.")
    cante_suit: str | None = Field(None, description="A cante was sung in this suit (O, C, E, B).")
    cante_by: str | None = Field(None, description="The cante was sung by this player.")
    unsung: Literal["any", "40"] | None = Field(
        None, description="A seat was dealt rey and caballo of one suit (40: of trump) and never sang it.")
    tute: bool | None = Field(None, description="A tute ended the deal (or not).")
    tute_rank: Literal[11, 12] | None = Field(None, description="A tute of caballos (11) or reyes (12).")
    exchange: bool | None = Field(None, description="An exchange of the 7 or 2 was made (or not).")
    doubled: bool | None = Field(None, description="The deal was worth double (or not).")
    tie_break: bool | None = Field(None, description="The deal was a tie decided by the last trick (or not).")
    valid: bool | None = Field(None, description="The record validated (or not).")
    issue: str | None = Field(None, description="The validator reported this finding code (e.g. must_follow).")
    held: list[str] = Field(default_factory=list,
                            description="Starting holdings, each SEAT:CARDS, e.g. 'S:1O,3O' (South held 1O and 3O).")
    comment: str | None = Field(None, description="Text in the record's comments (case-insensitive).")
    match: str | None = Field(None, description="The Match id.")
    analysed: bool | None = Field(None, description="The deal has a stored double-dummy analysis (`tute archive "
                                  "analyse`), or not. The filters below match deals analysed so.")
    analysis_cantes: bool | None = Field(None, description="Match analyses that counted cantes (or that did not).")
    blunders: bool | None = Field(None, description="Some play was a blunder (??: it gave away 20 points or more), "
                                  "or none was.")
    mistakes: bool | None = Field(None, description="Some play was a mistake or worse (? or ??), or none was.")
    cost_seat: SeatLetter | None = Field(None, description="With `max_cost`/`min_cost`: the seat whose summed cost "
                                         "counts (without it: every seat for `max_cost`, some seat for `min_cost`).")
    max_cost: int | None = Field(None, description="A seat's summed cost in points (its accuracy: 0 is perfect "
                                 "play) at most this.")
    min_cost: int | None = Field(None, description="A seat's summed cost at least this.")
    par_diff_max: int | None = Field(None, description="Some side made at most this many points more than its "
                                     "par (actual - par <= this, e.g. -20).")

    @field_validator("trump", "cante_suit")
    @classmethod
    def _suit(cls, value: str | None) -> str | None:
        if value is not None and (len(value) != 1 or value.upper() not in SUIT_LETTERS):
            raise ValueError("a suit is one of O, C, E, B")
        return value.upper() if value else value

    @field_validator("held")
    @classmethod
    def _held(cls, value: list[str]) -> list[str]:
        for item in value:
            m = _HELD.match(item.strip())
            if not m:
                raise ValueError(f"{item!r}: write SEAT:CARDS, e.g. S:1O,3O")
            table = card_reader("es")
            for code in re.split(r"[ ,]+", m.group(2).strip()):
                if code.upper() not in table:
                    raise ValueError(f"{code!r} is not a card")
        return value

    @model_validator(mode="after")
    def _needs_player(self) -> SearchFilters:
        for name in ("seat", "partner", "opponent"):
            if getattr(self, name) is not None and self.player is None:
                raise ValueError(f"{name} needs player")
        if self.player is not None and self.player in (self.partner, self.opponent):
            raise ValueError("a player is neither their own partner nor their own opponent")
        if self.cost_seat is not None and self.max_cost is None and self.min_cost is None:
            raise ValueError("cost_seat needs max_cost or min_cost")
        if self.analysed is False and any(getattr(self, n) is not None for n in ANALYSIS_FILTERS):
            raise ValueError("the analysis filters match analysed deals: leave analysed out or true")
        return self

    def to_sql(self) -> tuple[str, list[object]]:
        """The WHERE clause over table ``deals`` and its parameters."""
        where: list[str] = []
        params: list[object] = []

        def add(sql: str, *values: object) -> None:
            where.append(sql)
            params.extend(values)

        if self.player is not None:
            if self.seat:
                add(f"{_SEAT_COLUMN[self.seat]} = ?", self.player)
            else:
                add("(north = ? OR west = ? OR south = ? OR east = ?)", *[self.player] * 4)
        if self.partner is not None:
            if self.player is None:
                raise ValueError("partner needs player")
            add("players = 4 AND ((north = ? AND south = ?) OR (south = ? AND north = ?) "
                "OR (west = ? AND east = ?) OR (east = ? AND west = ?))", *[self.player, self.partner] * 4)
        if self.opponent is not None:
            if self.player is None:
                raise ValueError("opponent needs player")
            # On the deal's own columns, without a join of hands (several times faster): both sit at the
            # table, and not as partners (NS and WE are the only sides of two seats).
            add("? IN (north, west, south, east) AND NOT (list_contains(sides, 'NS') AND ("
                "(north = ? AND south = ?) OR (south = ? AND north = ?) OR (west = ? AND east = ?) "
                "OR (east = ? AND west = ?)))", self.opponent, *[self.player, self.opponent] * 4)
        if self.since is not None:
            add("date >= ?", self.since)
        if self.until is not None:
            add("date <= ?", self.until)
        if self.event is not None:
            add("event ILIKE ? ESCAPE '\\'", f"%{_like(self.event)}%")
        if self.site is not None:
            add("site ILIKE ? ESCAPE '\\'", f"%{_like(self.site)}%")
        if self.rules is not None:
            add("(preset = ? OR rules = ?)", self.rules, self.rules)
        if self.trump is not None:
            add("trump = ?", self.trump)
        if self.winner is not None:
            add("(winner = ? OR list_contains(winner_players, ?))", self.winner, self.winner)
        if self.loser is not None:
            add("winner IS NOT NULL AND winner <> ? AND NOT list_contains(winner_players, ?) "
                "AND (? IN (north, west, south, east) OR list_contains(sides, ?))", *[self.loser] * 4)
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
                seats = [f"({column} = ? AND (coalesce(sung_{letter.lower()}, 0) & ({allowed})) <> 0)"
                         for letter, column in _SEAT_COLUMN.items()]
                add("(" + " OR ".join(seats) + ")", *[self.cante_by] * 4)
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
        if self.comment is not None:
            add("comments ILIKE ? ESCAPE '\\'", f"%{_like(self.comment)}%")
        if self.match is not None:
            add("match_id = ?", self.match)
        self._analysis_sql(add)
        return (" AND ".join(where) if where else "TRUE"), params


    def _analysis_sql(self, add: Callable[..., None]) -> None:
        """The analysis filters: one stored analysis of the current version must match them all."""
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
            exists = ("EXISTS (SELECT 1 FROM analyses a WHERE a.deal_id = deals.id AND a.rules = coalesce(deals.rules,"
                      " '') AND a.version = ? AND a.error IS NULL" + "".join(f" AND {f}" for f in found) + ")")
            add(exists if self.analysed is not False else "NOT " + exists, VERSION_KEY, *values)


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

    model_config = ConfigDict(frozen=True)  # a service's page cache shares them

    id: int = Field(description="The deal's id: the first 63 bits of the SHA-256 of its export text.")
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
    valid: bool

    @classmethod
    def from_row(cls, row: dict[str, object]) -> DealSummary:
        """From an archive row with the summary columns."""
        seats = {letter: row.get(column) for letter, column in _SEAT_COLUMN.items()
                 if row.get(column) is not None}
        return cls(id=row["id"], date=row.get("date_text"), event=row.get("event"), site=row.get("site"),
                   rules=row.get("rules"), seats=seats, dealer=row.get("dealer"), trump=row.get("trump"),
                   sides=row.get("sides") or [], score=row.get("score"), result=row.get("result"),
                   valid=bool(row.get("valid")))


class DealPage(BaseModel):
    """One page of a search, and the cursor of the next page."""

    model_config = ConfigDict(frozen=True)  # a service's page cache shares them

    items: list[DealSummary]
    next: str | None = Field(None, description="Opaque cursor: pass it as `cursor` for the next page; null on the last.")
