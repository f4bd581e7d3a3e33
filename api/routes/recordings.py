"""Deals recorded live (:mod:`tutepgn.recording.live`): start one, post its entries, undo (with the write key),
start the next deal of its match, and follow it.

Writes need the API key and a writable service; undo needs the key that started the recording, or an admin
key.  Reading a recording's state and following its events is public, and names no card a spectator could not
have seen; the scorer's answers (and a state read with a valid key) add the legal declarations.  The events are
Server-Sent Events: the state after every change, held as one of the ``max_event_streams`` event streams (a
budget apart from downloads) and never cut by the request time limit (which bounds posted work only).

The start page (``/record``) may come from an event's table (``?event=NAME&round=N&table=T``, and ``&board=B``
in a duplicate event): :func:`start_form` fills it with the table's players, its tags and the board's cards
(:func:`tutepgn.tournament.table_start`).
"""

import json
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Response
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel, Field

from tutepgn.archive import Archive
from tutepgn.archive.events import load_event
from tutepgn.errors import ErrorItem, EventError, Problem, RecordingsFull, TuteError
from tutepgn.i18n import gettext as _
from tutepgn.recording.live import MAX_ENTRY_CHARS, Recording, updates
from tutepgn.notation import SEAT_TAGS
from tutepgn.recording.commands import is_undo
from tutepgn.recording.recorder import Reply
from tutepgn.rules import PRESETS, ruleset
from tutepgn.tournament import table_start

from ..deps import Service
from ..models import RecordingState

HEARTBEAT_SECONDS = 15.0
"""A comment line on an idle event stream this often, so that proxies and the client keep it open."""
STREAM_SECONDS = 600.0
"""An event stream ends after this long (an EventSource connects again), so an idle one gives its slot back."""


class RecordingStart(BaseModel):
    """How a recording starts: the rules, the players and tags, and how the cards are known."""

    rules: str = Field(description="A preset, with options (`tute rules`), e.g. `torofun-4p`.", max_length=200)
    players: dict[str, str] = Field(default_factory=dict, description="Names by seat letter, e.g. {\"N\": \"Ana\"}.")
    tags: dict[str, str] = Field(default_factory=dict, description="More tags, e.g. {\"Event\": \"Club night\"}.")
    seed: int | None = Field(None, ge=0, description="Shuffle the deal from this seed.")
    deal: str | None = Field(None, max_length=400, description="The hands in Deal tag form (`N:1O 3O ... S:...`).")
    stock: str | None = Field(None, max_length=400, description="For 2 players: the stock, the turned card last.")
    turned: str | None = Field(None, max_length=8, description="The turned card, which shows trump.")
    dealer: str = Field("N", max_length=1, description="The dealer's seat letter.")


class NextBody(BaseModel):
    """How the next deal's cards are known (its players, rules and dealer follow from the deal before)."""

    seed: int | None = Field(None, ge=0, description="Shuffle the deal from this seed.")
    deal: str | None = Field(None, max_length=400, description="The hands in Deal tag form.")
    stock: str | None = Field(None, max_length=400, description="For 2 players: the stock, the turned card last.")
    turned: str | None = Field(None, max_length=8, description="The turned card, which shows trump (the hands "
                                                               "unknown, as at the table).")


class EntryBody(BaseModel):
    entry: str = Field(min_length=1, max_length=MAX_ENTRY_CHARS,
                       description="A card (`1O`), a declaration (`N 40`, `E 20C`, `S tute 12`, `S x7B`) or `undo`.")


class Entered(BaseModel):
    """An accepted entry: what happened in words, and the recording's state after it."""

    message: str
    state: RecordingState


WRITE_ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"model": Problem, "description": "The key is not valid, or (undo) it did not start this recording and is "
                                           "no admin key."},
    404: {"model": Problem, "description": "No recording of that id."},
    409: {"model": Problem, "description": "The deal is over and in the archive: the recording is closed."},
    422: {"model": Problem, "description": "The entry is refused: `detail` says by which rule; the item's "
                                           "`expected` lists the legal choices."},
    503: {"model": Problem, "description": "The entry could not be saved (a disk that would not take it): it was "
                                           "not recorded; enter it again."}}


def refused(exc: RecordingsFull | ValueError | TuteError | OSError) -> HTTPException:
    """Why a recording could not be started, as the answer says it: the cap (503, retry), bad cards or rules
    (422), or a disk that would not take it (503)."""
    if isinstance(exc, RecordingsFull):
        return HTTPException(503, str(exc), headers={"Retry-After": "60"})
    if isinstance(exc, OSError):
        return HTTPException(503, _("the recording could not be saved ({error})", error=type(exc).__name__))
    return HTTPException(422, str(exc))


def found(service: Service, recording_id: str) -> Recording:
    """The recording of that id; 404 if there is none (or the service is read-only)."""
    recording = service.recordings.get(recording_id) if service.recordings else None
    if recording is None:
        raise HTTPException(404, _("no recording {id} on this server", id=repr(recording_id)))
    return recording


def start_form(view: Archive, event: str | None = None, round_no: int | None = None, table: int | None = None,
               board: int | None = None) -> dict[str, Any]:
    """The start page's context: the presets, and from an event's table (``event``, ``round_no``, ``table``) its
    rules, players, tags and board (:class:`~tutepgn.tournament.TableStart`); an event alone fills the Event
    tag.  An event, round, table or board not found (or a round without its table): 404."""
    context: dict[str, Any] = {"presets": list(PRESETS), "start": None, "event": event}
    if event is None and (round_no, table, board) != (None, None, None):
        raise HTTPException(404, _("a round, table or board belongs to an event: give ?event= too"))
    if event is None or (round_no, table, board) == (None, None, None):
        return context
    if round_no is None or table is None:
        raise HTTPException(404, _("a table of an event is found by its round and its number: give ?round= and "
                                   "?table="))
    try:
        context["start"] = table_start(load_event(view, event), round_no, table, board)
    except EventError as exc:
        raise HTTPException(404, str(exc)) from None
    return context


def router(service: Service) -> APIRouter:
    api = APIRouter(prefix="/api/v1/recordings", tags=["recordings"])

    def writable() -> None:
        if service.recordings is None:
            raise HTTPException(405, _("this service runs read-only: nothing can be recorded"))

    Writer = [Depends(service.require_key), Depends(writable)]
    Key = Annotated[str | None, Depends(service.caller)]  # the key the request writes with (service.caller)

    def entered(recording: Recording, text: str, key: str | None) -> Entered:
        if recording.deal_id is not None:
            raise HTTPException(409, _("the deal is over and stored in the archive as deal {id}: the recording is "
                                       "closed", id=recording.deal_id))
        if is_undo(text) and not (key is not None and (recording.owned_by(key) or service.is_admin(key))):
            raise HTTPException(403, _("only the key that started this recording, or an admin key, may take its "
                                       "entries back"))
        try:
            reply: Reply = recording.enter(text)
        except OSError as exc:
            raise HTTPException(503, _("the entry could not be saved ({error}); it was not recorded: enter it again",
                                       error=type(exc).__name__)) from None
        service.import_recording(recording)  # once the deal is over (or, if that failed, at the next entry)
        if reply.refused:
            raise HTTPException(422, [ErrorItem(message=reply.message, text=text, expected=reply.legal)])
        return Entered(message=reply.message, state=RecordingState.model_validate(recording.state(writer=True)))

    @api.post("", status_code=201, response_model=RecordingState, dependencies=Writer, summary="Start recording a deal (needs an API key)",
              responses={422: {"model": Problem, "description": "The rules, the deal or a tag is wrong (a tag the "
                                                               "archive could not read back, or too long)."},
                         503: {"model": Problem, "description": "`max_recordings` recordings are under way."}})
    def start_recording(body: RecordingStart, response: Response, x_api_key: Key) -> dict[str, Any]:
        assert service.recordings is not None  # writable
        tags = dict(body.tags)
        try:
            seats = ruleset(body.rules).seat_names
            for seat, name in body.players.items():
                if seat not in seats:
                    raise ValueError(_("{seat} is not a seat of {rules}; its seats are {seats}", seat=repr(seat),
                                       rules=body.rules, seats=" ".join(seats)))
                tags[SEAT_TAGS[seat]] = name
            recording = service.recordings.create(body.rules, seed=body.seed, deal=body.deal, stock=body.stock,
                                                  turned=body.turned, dealer=body.dealer, tags=tags, key=x_api_key,
                                                  most=service.settings.max_recordings)
        except (RecordingsFull, ValueError, TuteError, OSError) as exc:
            raise refused(exc) from None
        response.headers["Location"] = f"/api/v1/recordings/{recording.id}"
        return recording.state(writer=True)

    @api.get("/{recording_id}", response_model=RecordingState, summary="A recording's state: the plays, tricks, declarations and score so far "
                                        "(with a valid key, the legal declarations too)",
             responses={403: WRITE_ERRORS[403], 404: WRITE_ERRORS[404]})  # reads: never 409, 422 or 503
    def get_recording(recording_id: str, x_api_key: Key) -> JSONResponse:
        if x_api_key is not None:
            service.check_key(x_api_key)
        writer = x_api_key is not None
        state = RecordingState.model_validate(found(service, recording_id).state(writer=writer))
        # a spectator's answer has no declarations at all, not a null: it is the scorer's to know
        return JSONResponse(state.model_dump(mode="json", exclude=None if writer else {"declarations"}))

    @api.post("/{recording_id}/entries", response_model=Entered, dependencies=Writer, responses=WRITE_ERRORS,
              summary="Enter a card or a declaration (needs an API key); saved before it is answered")
    def enter_entry(recording_id: str, body: EntryBody, x_api_key: Key) -> Entered:
        return entered(found(service, recording_id), body.entry, x_api_key)

    @api.post("/{recording_id}/undo", response_model=Entered, dependencies=Writer, responses=WRITE_ERRORS,
              summary="Take back the last entry (needs the key that started the recording, or an admin key)")
    def undo_entry(recording_id: str, x_api_key: Key) -> Entered:
        return entered(found(service, recording_id), "undo", x_api_key)

    @api.post("/{recording_id}/next", status_code=201, response_model=RecordingState, dependencies=Writer,
              summary="Start the next deal of the recording's match (needs an API key): the same players and "
                      "rules, the next dealer, the standing carried",
              responses={404: WRITE_ERRORS[404], 422: {"model": Problem, "description": "The deal is not over, "
                         "its match is, or the cards given are wrong."},
                         503: {"model": Problem, "description": "`max_recordings` recordings are under way."}})
    def start_next_deal(recording_id: str, body: NextBody, response: Response, x_api_key: Key) -> dict[str, Any]:
        assert service.recordings is not None  # writable
        try:
            recording = service.recordings.follow(found(service, recording_id), seed=body.seed, deal=body.deal,
                                                  stock=body.stock, turned=body.turned, key=x_api_key,
                                                  most=service.settings.max_recordings)
        except (RecordingsFull, ValueError, TuteError, OSError) as exc:
            raise refused(exc) from None
        response.headers["Location"] = f"/api/v1/recordings/{recording.id}"
        return recording.state(writer=True)

    @api.get("/{recording_id}/events", response_class=StreamingResponse,
             dependencies=[Depends(service.event_slot)],
             summary="Follow a recording: Server-Sent Events, a `state` event after every change",
             responses={200: {"content": {"text/event-stream": {}}}, 404: WRITE_ERRORS[404],
                        503: {"model": Problem, "description": "`max_event_streams` event streams are open."}})
    async def follow_recording(recording_id: str) -> StreamingResponse:
        recording = found(service, recording_id)

        async def stream() -> AsyncIterator[str]:
            yield "retry: 2000\n\n"
            async for state in updates(recording, heartbeat=HEARTBEAT_SECONDS, lifetime=STREAM_SECONDS):
                if state is None:
                    yield ": still here\n\n"
                    continue
                yield f"id: {state['entries']}\nevent: state\ndata: {json.dumps(state, ensure_ascii=False)}\n\n"
                if state["deal_id"] is not None:
                    yield "event: end\ndata: {}\n\n"

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    return api
