"""Club events (torneos and ligas) as JSON and as pages: create one, register its entrants, pair its rounds, enter
the tables' results (by hand or from the deals recorded at the table) and read its standings.

One library call each (:mod:`tutepgn.archive.events`).  Writes go through the same guard as the recorder's (an
API key, or this machine while it is trusted: :mod:`..local`) and under the service's write lock, each one
transaction; a refusal is a problem: 404 for an event the archive does not hold, 422 for the rest, with the
part of the request at fault as the item's ``text``.
"""

from collections.abc import Callable
from typing import Annotated, Any, TypeVar
from urllib.parse import quote

from fastapi import APIRouter, Depends, HTTPException, Path, Request, Response
from fastapi.responses import HTMLResponse, RedirectResponse
from pydantic import BaseModel, Field, model_validator

from tutepgn.archive import Archive
from tutepgn.archive import events
from tutepgn.archive.event_tables import EventLine, TableDeal, event_lines, table_deals
from tutepgn.errors import ErrorItem, EventError, Problem, UnknownEvent, UnknownRuleset
from tutepgn.i18n import N_
from tutepgn.i18n import gettext as _
from tutepgn.rules import PRESETS
from tutepgn.tournament import (BoardResult, CrossRow, Encounter, Entrant, Event, Line, Result, Round, crosstable,
                                history, standings)
from tutepgn.tournament.event import FORMATS, KINDS

from ..deps import Service
from ..language import PAGES

T = TypeVar("T")

Count = Annotated[int, Field(ge=0, le=1_000_000)]
Pair = tuple[Count, Count]
"""Two figures, home first; none negative."""
Name = Annotated[str, Path(min_length=1, max_length=200, description="The event's name.")]
RoundNo = Annotated[int, Path(ge=1, le=1000, description="The round's number, from 1.")]
TableNo = Annotated[int, Path(ge=1, le=10_000, description="The table's number, from 1.")]


class EventBody(BaseModel):
    """A new event, as the organiser's form gives it."""

    name: str = Field(min_length=1, max_length=200)
    kind: str = Field("torneo", description="torneo or liga.")
    rules: str = Field("ludoteka-pairs", max_length=200, description="A preset (`tute rules`).")
    format: str = Field("swiss", description="swiss, round-robin, knockout or duplicate.")
    rounds: int = Field(3, ge=0, le=1000, description="The rounds planned (0: as many as the format gives).")
    seed: int = Field(0, ge=0, le=2**62, description="The pairing's seed (Swiss: the first round's draw).")
    boards: int = Field(1, ge=1, le=64, description="Duplicate: the boards each table plays a round.")


class EntrantsBody(BaseModel):
    entrants: list[Annotated[str, Field(min_length=1, max_length=410)]] = Field(
        min_length=1, max_length=1000, description="One entrant each: `Ana Pérez/Bea Gil` (a pair) or `Ana Pérez`.")


class RoundBody(BaseModel):
    ranking: list[int] | None = Field(None, max_length=10_000, description="A knockout's seeding: entrant numbers, "
                                                                            "best first (else the entrants' order).")


class ResultBody(BaseModel):
    """A table's result, home first; or ``from_deals``: worked out from the deals recorded at the table."""

    matches: Pair | None = Field(None, description="Matches won.")
    deals: Pair = Field((0, 0), description="Deals won.")
    points: Pair = Field((0, 0), description="Points made (card points and cantes).")
    from_deals: bool = Field(False, description="Work the result out from the archive's deals tagged Event, "
                                                "Round and Table for this table (the figures given are ignored).")

    @model_validator(mode="after")
    def given(self) -> "ResultBody":
        if self.matches is None and not self.from_deals:
            raise ValueError(_("give the matches won (home, away), or from_deals"))
        return self


class BoardBody(BaseModel):
    points: tuple[Annotated[int, Field(ge=-1_000_000, le=1_000_000)], Annotated[int, Field(ge=-1_000_000,
                                                                                          le=1_000_000)]] = Field(
        description="The points each side made on the board, home (NS) first.")


WORDS = {"torneo": N_("tournament"), "liga": N_("league"), "swiss": N_("Swiss"), "round-robin": N_("all-play-all"),
         "knockout": N_("knockout"), "duplicate": N_("duplicate")}
"""The events' kinds and formats as the pages say them (the API's values are the library's)."""
NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"model": Problem, "description": "No event of that name."}}
REFUSED: dict[int | str, dict[str, Any]] = {
    **NOT_FOUND, 401: {"model": Problem, "description": "No API key (and the request is not from this machine)."},
    403: {"model": Problem, "description": "The key is not valid."},
    405: {"model": Problem, "description": "The service runs read-only."},
    422: {"model": Problem, "description": "The event refuses it: `detail` says why (a table not in the round, a "
                                           "round paired before the last one's results are in...)."}}


def refused(exc: EventError | UnknownRuleset, where: str) -> HTTPException:
    """A refusal as a problem: 404 for an unknown event, else 422; ``where`` names what was asked."""
    return HTTPException(404 if isinstance(exc, UnknownEvent) else 422, [ErrorItem(message=str(exc), text=where)])


def router(service: Service) -> APIRouter:
    Reader = Annotated[Archive, Depends(service.reader)]
    api = APIRouter(prefix="/api/v1/events", tags=["events"])
    pages = APIRouter(include_in_schema=False)

    def writable() -> None:
        if service.settings.read_only:
            raise HTTPException(405, _("this service runs read-only: nothing can be written"))

    Writer = [Depends(service.require_key), Depends(writable)]

    def write(where: str, work: Callable[[Archive], T]) -> T:
        """``work`` on the archive under the write lock (one transaction: :mod:`tutepgn.archive.events`)."""
        with service.write_lock:
            service.usable()
            try:
                return work(service.archive)
            except (EventError, UnknownRuleset) as exc:
                raise refused(exc, where) from None
            finally:
                service.written()  # the write counted in the archive's generation (api/caching.py)

    def read(view: Archive, where: str, work: Callable[[], T]) -> T:
        """``work`` on a reader under the query time limit; any refusal is a 404 (what was asked is not there)."""
        try:
            return service.timed(view, work)
        except EventError as exc:
            raise HTTPException(404, [ErrorItem(message=str(exc), text=where)]) from None

    @api.get("", response_model=list[EventLine], summary="The stored events, newest first: name, kind, rules, "
                                                         "format, rounds planned and paired, entrants")
    def list_events(view: Reader) -> list[EventLine]:
        return service.timed(view, lambda: event_lines(view))

    @api.post("", status_code=201, response_model=Event, dependencies=Writer, responses=REFUSED,
              summary="Create an event (needs an API key, or this machine)")
    def create_event(body: EventBody, response: Response) -> Event:
        def work(archive: Archive) -> Event:
            return events.create_event(archive, Event.new(body.name, kind=body.kind, rules=body.rules,
                                                          format=body.format, planned_rounds=body.rounds,
                                                          seed=body.seed, boards_per_round=body.boards))
        event = write("body", work)
        response.headers["Location"] = f"/api/v1/events/{quote(event.name, safe='')}"
        return event

    @api.get("/{name}", response_model=Event, responses=NOT_FOUND,
             summary="An event: its entrants, and its rounds with their tables and results")
    def get_event(name: Name, view: Reader) -> Event:
        return read(view, "path.name", lambda: events.load_event(view, name))

    @api.post("/{name}/entrants", status_code=201, response_model=list[Entrant], dependencies=Writer,
              responses=REFUSED, summary="Register entrants, all or none (needs an API key, or this machine)")
    def add_entrants(name: Name, body: EntrantsBody) -> list[Entrant]:
        return write("body.entrants", lambda a: events.add_entrants(a, name, body.entrants))

    @api.post("/{name}/rounds", status_code=201, response_model=Round, dependencies=Writer, responses=REFUSED,
              summary="Pair the event's next round (needs an API key, or this machine)")
    def pair_round(name: Name, body: RoundBody) -> Round:
        return write("body", lambda a: events.pair_round(a, name, body.ranking))

    @api.put("/{name}/rounds/{n}/tables/{t}/result", response_model=Result, dependencies=Writer, responses=REFUSED,
             summary="Enter a table's result, or work it out from the deals recorded at the table (needs an API "
                     "key, or this machine); again for the same table: a correction")
    def set_result(name: Name, n: RoundNo, t: TableNo, body: ResultBody) -> Result:
        def work(archive: Archive) -> Result:
            entered = (events.result_from_deals(archive, name, n, t) if body.from_deals else
                       Result(table=t, matches=body.matches or (0, 0), deals=body.deals, points=body.points))
            return events.enter_result(archive, name, n, entered)
        return write(f"rounds/{n}/tables/{t}", work)

    @api.put("/{name}/rounds/{n}/tables/{t}/boards/{b}", response_model=BoardResult, dependencies=Writer,
             responses=REFUSED, summary="Enter a duplicate board's points at a table (needs an API key, or this "
                                        "machine); again: a correction")
    def set_board(name: Name, n: RoundNo, t: TableNo, b: Annotated[int, Path(ge=1, le=64)], body: BoardBody
              ) -> BoardResult:
        entry = BoardResult(table=t, board=b, points=body.points)
        return write(f"rounds/{n}/tables/{t}/boards/{b}", lambda a: events.enter_board(a, name, n, entry))

    @api.get("/{name}/standings", response_model=list[Line], responses=NOT_FOUND,
             summary="The standings, best first: matches won, then deals and points difference, head to head, "
                     "name (docs/club.md)")
    def get_standings(name: Name, view: Reader) -> list[Line]:
        return read(view, "path.name", lambda: standings(events.load_event(view, name)))

    @api.get("/{name}/crosstable", response_model=list[CrossRow], responses=NOT_FOUND,
             summary="The cross-table: a row per entrant in the standings' order, its matches won first in each cell")
    def get_crosstable(name: Name, view: Reader) -> list[CrossRow]:
        return read(view, "path.name", lambda: crosstable(events.load_event(view, name)))

    @api.get("/{name}/entrants/{number}/history", response_model=list[Encounter], responses=NOT_FOUND,
             summary="An entrant's rounds: table, opponent and result, its own side first")
    def get_entrant_history(name: Name, number: Annotated[int, Path(ge=1, le=100_000)], view: Reader) -> list[Encounter]:
        event = read(view, "path.name", lambda: events.load_event(view, name))
        return read(view, "path.number", lambda: history(event, number))

    # -- Pages ------------------------------------------------------------------------------------------------
    def page(request: Request, template: str, context: dict[str, Any]) -> HTMLResponse:
        return PAGES.TemplateResponse(request, template, {**context, "words": {k: _(v) for k, v in WORDS.items()}})

    def loaded(view: Archive, name: str) -> Event:
        return read(view, "path.name", lambda: events.load_event(view, name))

    @pages.get("/events", response_class=HTMLResponse)
    def list_page(request: Request, view: Reader) -> HTMLResponse:
        """The events, and the organiser's form for a new one."""
        return page(request, "events.html", {"events": service.timed(view, lambda: event_lines(view)),
                                             "presets": PRESETS, "kinds": KINDS, "formats": FORMATS})

    @pages.get("/events/{name}", response_class=HTMLResponse)
    def event_page(request: Request, name: Name, view: Reader) -> HTMLResponse:
        """An event: its entrants (and the form to add more), its rounds, the button that pairs the next one."""
        return page(request, "event.html", {"event": loaded(view, name)})

    @pages.get("/events/{name}/rounds/{n}", response_class=HTMLResponse)
    def round_page(request: Request, name: Name, n: RoundNo, view: Reader) -> HTMLResponse:
        """A round's tables: the pairs, the result or pending, a link to each table's page."""
        event = loaded(view, name)
        return page(request, "event_round.html", {"event": event,
                                                  "round": read(view, "path.n", lambda: event.round(n))})

    @pages.get("/events/{name}/rounds/{n}/tables/{t}", response_class=HTMLResponse)
    def table_page(request: Request, name: Name, n: RoundNo, t: TableNo, view: Reader) -> HTMLResponse:
        """A table, for the phone on it: the two pairs, the result form, the deals recorded at it."""
        event = loaded(view, name)
        rnd = read(view, "path.n", lambda: event.round(n))
        table = read(view, "path.t", lambda: rnd.table(t))
        deals: list[TableDeal] = service.timed(view, lambda: table_deals(view, name, n, t))
        return page(request, "event_table.html", {"event": event, "round": rnd, "table": table, "deals": deals,
                                                  "result": rnd.results.get(t)})

    @pages.get("/events/{name}/standings", response_class=HTMLResponse)
    def standings_page(request: Request, name: Name, view: Reader) -> HTMLResponse:
        """The standings with their tie-breaks explained, the cross-table under them, and the downloads."""
        event = loaded(view, name)
        return page(request, "event_standings.html", {"event": event, "lines": standings(event),
                                                      "cross": crosstable(event)})

    @pages.get("/events/{name}/crosstable", response_class=RedirectResponse)
    def crosstable_page(name: Name, view: Reader) -> RedirectResponse:
        """The cross-table is on the standings page, under the standings."""
        loaded(view, name)
        return RedirectResponse(f"/events/{quote(name, safe='')}/standings#crosstable", status_code=303)

    both = APIRouter()
    both.include_router(api)
    both.include_router(pages)
    return both
