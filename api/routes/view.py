"""A deal without an archive: ``/view?d=`` shows the deal a link carries, ``/view?p=`` one moment given by its
position string (docs/notation.md); both on the deal page's board.  :func:`deal_context` is what the deal page
shows of a record, archived (``/deals/{id}``) or carried by a link."""

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse

from tutepgn.errors import LinkError, NotationError
from tutepgn.check.moment import Moment, positions
from tutepgn.i18n import gettext as _
from tutepgn.notation import SEAT_TAGS
from tutepgn.check.replay import frame_data, frames
from tutepgn.check.report import result_sentence
from tutepgn.check.validate import validate
from tutepgn.notation.share import deal_link, decode_deal, link_position

from ..deps import Service
from ..guards import Deadline
from ..language import PAGES
from .deals import stored_record


def deal_context(text: str, deal_id: int | None = None) -> dict[str, Any]:
    """The deal page's values for a record's text: its frames (each with its position string), the report,
    the lines with their findings, and the link that shares it."""
    record = stored_record(text)
    checked = validate(record)
    model = checked.model()
    report = model.model_dump()
    steps: list[dict[str, object]] = []
    share = None
    if not record.errors:  # a record with syntax errors is shown as its text with the errors marked
        try:
            steps = [frame_data(f) for f in frames(record)]
            for step, position in zip(steps, positions(record)):
                step["position"] = position
            cut = checked.unjudged_from()
            for step in steps[cut + 1:] if cut is not None else ():  # step 0 is the deal as dealt
                step["illegal"] = step["rule"] = None  # what only follows from the errors reported is not flagged
            share = deal_link(record.tpgn())
        except NotationError as exc:
            report["explanation"] = [*report["explanation"], str(exc)]
    marks: dict[int, list[dict[str, object]]] = {}
    for finding in report["findings"]:
        if finding["line"]:
            marks.setdefault(finding["line"], []).append(finding)
    return {"deal_id": deal_id, "tags": record.tags, "seat_tags": SEAT_TAGS, "frames": steps, "report": report,
            "text": text, "lines": text.rstrip("\n").split("\n"), "marks": marks, "unreadable": bool(record.errors),
            "sentence": result_sentence(model) if model.sheet else None, "share": share}


def moment_context(text: str) -> dict[str, Any]:
    """The deal page's values for one moment: its one frame, no report nor record."""
    moment = Moment.parse(text)
    step = frame_data(moment.frame())
    step["position"] = moment.text()
    return {"deal_id": None, "tags": {"Rules": moment.rules.spec, "Dealer": moment.rules.seat_names[moment.dealer]}, "seat_tags": SEAT_TAGS, "frames": [step],
            "report": {"valid": True, "findings": [], "sides": list(moment.rules.side_labels), "sheet": None,
                       "explanation": []},
            "text": "", "lines": [], "marks": {}, "unreadable": False, "sentence": None, "share": None,
            "position": moment.text()}


def router(service: Service) -> APIRouter:
    pages = APIRouter(include_in_schema=False)

    @pages.get("/view", response_class=HTMLResponse)
    async def view_page(request: Request, d: str | None = None, p: str | None = None) -> HTMLResponse:
        """A deal carried by its link (``d``) or a moment by its position string (``p``), on the board.

        Anyone may send any link: what it carries is bounded (``TUTEPGN_MAX_LINK_BYTES``), and the page is
        made on a thread for posted work under the request time limit, never on the threads of the reads."""
        if d is None and p is None:
            raise HTTPException(422, _("give d= (a deal's link) or p= (a position string)"))

        def page(deadline: Deadline) -> HTMLResponse:
            try:
                context = deal_context(decode_deal(d)) if d is not None else moment_context(link_position(p or ""))
            except (LinkError, NotationError) as exc:
                raise HTTPException(422, str(exc)) from None
            deadline.check()
            return PAGES.TemplateResponse(request, "deal.html", context)  # rendered here, off the event loop

        return await service.off_loop(page)

    return pages
