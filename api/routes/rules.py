"""The rules presets: each option with the source sentence or decision behind its value (JSON), and the rules
page for players (``/rules``: the presets by name; ``/rules/{preset}``: one preset told in sentences, its
sources quoted with their translation, the option ids and raw values in a fold of technical details)."""

from functools import cache

from fastapi import APIRouter, HTTPException, Request, Response
from fastapi.responses import HTMLResponse
from pydantic import TypeAdapter

from tutepgn.citations import TEXTS
from tutepgn.errors import UnknownRuleset
from tutepgn.i18n import gettext as _
from tutepgn.i18n import language, speaking
from tutepgn.rules import OPTIONS, PRESETS, Ruleset, display_name, named, option_rows, preset
from tutepgn.rules_text import summary, told
from tutepgn.sources import decisions_for, source_of

from ..language import PAGES
from ..models import RulesetInfo


def ruleset_info(name: str) -> RulesetInfo:
    """A preset as the API describes it."""
    r = PRESETS[name]
    cited = {k: source_of(name, k) for k in OPTIONS if k != "preset"}
    return RulesetInfo(name=name, options=r, sources={k: str(c) for k, c in cited.items()},
                       citations={k: c.to_dict() for k, c in cited.items()},
                       decisions=[d.to_dict() for d in decisions_for(r)])


_PRESETS_JSON = TypeAdapter(list[RulesetInfo])


@cache
def presets_json(lang: str) -> bytes:
    """Every preset as the API describes it, as JSON in ``lang``: the presets never change while the service
    runs, so each language's answer is made once (building it, citations and all, takes milliseconds)."""
    with speaking(lang):
        return _PRESETS_JSON.dump_json([ruleset_info(name) for name in PRESETS])


def found(name: str) -> Ruleset:
    """A preset by id or name for players; 404 if none (the library's reason when several presets have the name)."""
    try:
        return preset(name)
    except UnknownRuleset as exc:
        raise HTTPException(404, str(exc) if named(name) else _("no preset {name}; presets are {presets}",
                                                                name=repr(name), presets=", ".join(PRESETS))) from None


def router() -> APIRouter:
    api = APIRouter(prefix="/api/v1", tags=["rules"])
    pages = APIRouter(include_in_schema=False)

    @api.get("/rules", response_model=list[RulesetInfo], summary="The rules presets")
    def list_rules() -> Response:
        return Response(presets_json(language()), media_type="application/json")

    @api.get("/rules/{name}", response_model=RulesetInfo, summary="One preset")
    def get_rules(name: str) -> RulesetInfo:
        return ruleset_info(found(name).preset)

    @pages.get("/rules", response_class=HTMLResponse)
    def rules_index(request: Request) -> HTMLResponse:
        """The presets by their names for players, a line each, each linking to its page."""
        return PAGES.TemplateResponse(request, "rules.html", {"presets": [
            {"id": key, "name": display_name(key), "summary": summary(r)} for key, r in PRESETS.items()]})

    @pages.get("/rules/{name}", response_class=HTMLResponse)
    def rules_page(request: Request, name: str) -> HTMLResponse:
        """One preset told to players, with the technical details folded."""
        r = found(name)
        return PAGES.TemplateResponse(request, "rules_preset.html", {
            "id": r.preset, "name": display_name(r.preset), "summary": summary(r), "sections": told(r),
            "decisions": decisions_for(r), "rows": option_rows(r), "texts": TEXTS,
            "others": [{"id": key, "name": display_name(key)} for key in PRESETS if key != r.preset]})

    both = APIRouter()
    both.include_router(api)
    both.include_router(pages)
    return both
