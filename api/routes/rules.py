"""The rules presets, each option with the source sentence or decision behind its value."""

from functools import cache

from fastapi import APIRouter, HTTPException, Response
from pydantic import TypeAdapter

from tutepgn.i18n import gettext as _
from tutepgn.i18n import language, speaking
from tutepgn.rules import OPTIONS, PRESETS, preset
from tutepgn.sources import decisions_for, source_of

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


def router() -> APIRouter:
    api = APIRouter(prefix="/api/v1", tags=["rules"])

    @api.get("/rules", response_model=list[RulesetInfo], summary="The rules presets")
    def rules_list() -> Response:
        return Response(presets_json(language()), media_type="application/json")

    @api.get("/rules/{name}", response_model=RulesetInfo, summary="One preset")
    def rules_one(name: str) -> RulesetInfo:
        try:
            return ruleset_info(preset(name).preset)
        except ValueError:
            raise HTTPException(404, _("no preset {name}; presets are {presets}", name=repr(name),
                                       presets=", ".join(PRESETS))) from None

    return api
