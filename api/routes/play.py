"""Play against the machine in the browser (``/play``): a table kept on the server by its id
(:class:`tutepgn.play.tables.Tables`, written to ``<archive>.tables`` after every change, so a page reload or
another worker process finds it), the bots' moves made on the server when it is their turn, and each finished
deal stored in the archive through the recorder's write path (:meth:`~api.deps.Service.import_raw`), then opened
in its replay page with the analysis.

Starting a table and playing on it write, so they need the write key, or this machine while it is trusted (as
the recorder's pages do); reading a table's state is public to whoever holds its id, and shows only the
person's hand.
"""

import logging
from typing import Any

import duckdb
from fastapi import APIRouter, Depends, HTTPException, Request, Response
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from tutepgn import i18n
from tutepgn.archive import deal_id
from tutepgn.errors import ArchiveError, ErrorItem, Problem, TuteError
from tutepgn.i18n import gettext as _
from tutepgn.play.bots import LEVELS, TOP_LEVEL
from tutepgn.play.tables import Sitting, Tables, level_words, partners
from tutepgn.rules import PRESETS, display_name, preset
from tutepgn.words import seat_words

from ..deps import Service
from ..language import PAGES

log = logging.getLogger("tutepgn.api")


class TableStart(BaseModel):
    """How a table starts: the rules, the person's seat, the bots' level, one deal or a match."""

    rules: str = Field(max_length=200, description="A preset, with options (`tute rules`), e.g. `ludoteka-pairs`.")
    seat: str = Field("S", max_length=1, description="The person's seat letter (in pairs, the partner sits "
                                                     "opposite).")
    level: int = Field(3, ge=1, le=TOP_LEVEL, description=f"The bots' level, 1 (random) to {TOP_LEVEL} (the "
                                                          "strongest).")
    seed: int | None = Field(None, ge=0, le=2**31 - 1, description="Shuffle from this seed (the same seed, the "
                                                                  "same cards); none: a random one.")
    match: bool = Field(False, description="A whole match (deal after deal to the target) rather than one deal.")
    name: str | None = Field(None, max_length=60, description="The person's name in the record.")


class EntryBody(BaseModel):
    entry: str = Field("", max_length=40, description="A card (`1O`), a declaration (`40`, `20C`, `tute 12`, "
                                                      "`x7B`), or empty to pass when asked out of turn.")


class Declaration(BaseModel):
    entry: str
    words: str


class TableState(BaseModel):
    """What the person sees: their hand, the trick, the muestra, the points, whose turn, what they may do."""

    id: str
    version: int = Field(description="Changes to the table so far.")
    rules: str
    level: int
    match: bool
    deal_no: int
    seat: str
    seats: list[str]
    players: list[str]
    partner: str | None
    trump: int
    turned: str = Field(description="The muestra, the card turned to show trump.")
    stock: int
    hand: list[str]
    trick: list[tuple[str, str]] = Field(description="The cards on the table, (seat, card) in play order.")
    last: list[tuple[str, str]]
    last_winner: str | None
    tricks: int
    points: list[tuple[str, int]]
    cantes: list[str]
    to_move: str | None
    options: list[str]
    cards: list[str] = Field(description="The cards the person may play now.")
    declarations: list[Declaration] = Field(description="The cantes, tute or exchange the person may make now.")
    may_pass: bool = Field(description="Asked to declare out of turn: an empty entry passes.")
    over: bool
    result: str
    deal_id: str | None = Field(description="The finished deal's id in the archive, once stored (digits, a string "
                                            "as in every JSON answer: 63 bits do not fit a JavaScript number).")
    standing: list[int] | None
    standing_words: str
    next_dealer: str | None
    winner: str | None = Field(description="The side that won the match, once it is over.")


class Played(BaseModel):
    """What happened (the person's entry and the bots' moves, in words) and the table after it."""

    said: list[str]
    state: TableState


def answer(state: dict[str, Any]) -> TableState:
    """A table's state as the API answers it (the deal's id as a string)."""
    deal = state["deal_id"]
    return TableState.model_validate({**state, "deal_id": None if deal is None else str(deal)})


ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": Problem, "description": "No table of that id."},
    409: {"model": Problem, "description": "The deal is over and stored."},
    503: {"model": Problem, "description": "The finished deal could not be stored yet: try again."},
    405: {"model": Problem, "description": "The service runs read-only."},
    422: {"model": Problem, "description": "The entry is refused: `detail` says why; nothing changed."}}


def router(service: Service) -> APIRouter:
    api = APIRouter(prefix="/api/v1/tables", tags=["play"])
    pages = APIRouter(include_in_schema=False)
    db = service.settings.db
    tables = None if service.settings.read_only else Tables(db.with_name(db.name + ".tables"))

    def writable() -> Tables:
        if tables is None:
            raise HTTPException(405, _("this service runs read-only: nothing can be played"))
        return tables

    def found(table_id: str) -> Sitting:
        sitting = tables.get(table_id) if tables else None
        if sitting is None:
            raise HTTPException(404, _("no table {id} on this server", id=repr(table_id)))
        return sitting

    def stored(sitting: Sitting) -> TableState:
        """The table's state, its finished deal stored in the archive first (once; tried again at the next
        request if the archive could not be written)."""
        state = sitting.state()
        if state["over"] and state["deal_id"] is None:
            text = sitting.record().tpgn()
            try:
                service.import_raw([(f"<play {sitting.id}>", 0, 1, text)], names=[f"<play {sitting.id}>"])
                sitting.stored(deal_id(text)[0])
                state = sitting.state()
            except (HTTPException, duckdb.Error, ArchiveError, OSError) as exc:
                log.error("the played deal %s could not be stored yet: %s", sitting.id, exc)
        return answer(state)

    Writer = [Depends(service.require_key)]

    @api.post("", status_code=201, response_model=TableState, dependencies=Writer,
              summary="Sit at a table against the bots (needs an API key); the bots play up to your first turn",
              responses={405: ERRORS[405], 422: {"model": Problem, "description": "Unknown rules, seat or level."}})
    def start_table(body: TableStart, response: Response) -> TableState:
        try:
            sitting = writable().create(body.rules, body.seat, level=body.level, seed=body.seed, match=body.match,
                                        name=body.name, lang=i18n.language())
        except (ValueError, TuteError) as exc:
            raise HTTPException(422, str(exc)) from None
        response.headers["Location"] = f"/api/v1/tables/{sitting.id}"
        return stored(sitting)

    @api.get("/{table_id}", response_model=TableState, summary="A table as its person sees it",
             responses={404: ERRORS[404]})
    def get_table(table_id: str) -> TableState:
        return answer(found(table_id).state())

    @api.post("/{table_id}/entries", response_model=Played, dependencies=Writer, responses=ERRORS,
              summary="Play a card, declare, or pass (needs an API key); the bots then play up to your next turn")
    def enter_on_table(table_id: str, body: EntryBody) -> Played:
        sitting = found(table_id)
        if sitting.table.deal.over:  # nothing to enter: the deal is stored (tried again now if it was not)
            state = stored(sitting)
            if state.deal_id is None:
                raise HTTPException(503, _("the deal could not be stored in the archive yet: try again shortly"),
                                    headers={"Retry-After": "5"})
            raise HTTPException(409, _("the deal is over and stored in the archive as deal {id}", id=state.deal_id))
        try:
            said = sitting.enter(body.entry)
        except TuteError as exc:
            raise HTTPException(422, [ErrorItem(message=str(exc), text=body.entry,
                                                expected=" ".join(sitting.state()["options"]))]) from None
        return Played(said=said, state=stored(sitting))

    @api.post("/{table_id}/next", response_model=Played, dependencies=Writer, responses=ERRORS,
              summary="Deal the match's next deal (needs an API key)")
    def next_on_table(table_id: str) -> Played:
        sitting = found(table_id)
        try:
            said = sitting.next_deal()
        except TuteError as exc:
            raise HTTPException(422, str(exc)) from None
        return Played(said=said, state=stored(sitting))

    @pages.get("/play", response_class=HTMLResponse)
    def play_start_page(request: Request) -> HTMLResponse:
        seats = {name: [[s, _("{seat} (partner {partner})", seat=seat_words(s), partner=seat_words(partner))]
                        if partner else [s, seat_words(s)] for s, partner in partners(preset(name))] for name in PRESETS}
        return PAGES.TemplateResponse(request, "play_start.html", {
            "presets": {name: display_name(name) for name in PRESETS}, "seats": seats,
            "levels": {n: level_words(n) for n in LEVELS}})

    @pages.get("/play/{table_id}", response_class=HTMLResponse)
    def play_page(request: Request, table_id: str) -> HTMLResponse:
        return PAGES.TemplateResponse(request, "play.html",
                                      {"state": answer(found(table_id).state()).model_dump()})

    combined = APIRouter()
    combined.include_router(api)
    combined.include_router(pages)
    return combined
