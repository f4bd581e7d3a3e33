"""The OpenAPI document as the contract of what the service answers: made once, from the routes, then made true.

FastAPI documents a 422 as its own ``HTTPValidationError`` (application/json)
and knows nothing of the statuses the dependencies answer.  :func:`install`
replaces the app's ``openapi()``: every error status an operation can answer is
documented as one ``Problem`` (application/problem+json), found from what the
route takes (a path parameter: 404; a body: 413, and 400 if FastAPI reads it; a key: 401, 403, 405) and the
dependencies it runs (a reader of the archive: 503, 504); the key is a
security scheme (optional where it only adds to the answer); the operationIds
are the routes' function names (``route.name``); an answer's fields are all
required (every answer carries them, defaults too: a client's types need not
guess); ``info.version`` is the package's.  Descriptions a route gives for a status are kept.
"""

from collections.abc import Callable, Iterator
from importlib.metadata import version
from typing import Any, get_args

from fastapi import FastAPI, routing
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute

from tutepgn.cards import SUIT_LETTERS
from tutepgn.errors import Problem

from .deps import Service, Sort
from .routes.records import CardStyle

PROBLEM_MEDIA = "application/problem+json"
SCHEMAS = "#/components/schemas/"
PROBLEM_REF = {"$ref": SCHEMAS + "Problem"}

STATUS_TEXT = {
    400: "The JSON body cannot be read (not JSON, or not UTF-8).",
    401: "No API key: send one in the `X-API-Key` header (docs/security.md).",
    403: "The API key is not valid here.",
    404: "Nothing of that id or name.",
    405: "The service runs read-only: nothing can be written.",
    413: "The request body is over the service's limit (`TUTEPGN_MAX_BODY_BYTES`).",
    422: "A parameter or the body is wrong: `errors[]` locates each fault.",
    429: "Too many requests: try again after `Retry-After` seconds.",
    503: "The archive cannot be used now, or the service is at capacity: `detail` says which; try again after "
         "`Retry-After` seconds.",
    504: "The work ran over the service's time limit and was stopped (nothing was stored).",
}
"""What each error status means where the route says nothing more of it."""

HEADERS = {
    "429": {"Retry-After": "Seconds to wait before asking again."},
    "503": {"Retry-After": "Seconds to wait before asking again (where waiting helps)."},
    "202": {"Location": "The job to poll."},
    "201": {"Location": "What was made."},
}
"""Headers answers of a status carry (documented, not required: not every such answer has them)."""

DEPENDENCY_STATUSES: dict[Callable[..., Any], set[int]] = {
    Service.reader: {503, 504},  # the archive cannot be used; a query over the time limit
    Service.filters: {422},
    Service.require_key: {401, 403, 405},  # every write refuses on a read-only service
    Service.stream_slot: {503},
    Service.event_slot: {503},
}
"""The statuses a dependency may answer, whatever the route does after it."""


ENUM_NAMES = {"20": "veinte", "40": "cuarenta", "11": "caballos", "12": "reyes"}
"""Names for enum values that are no names (a cante's points, a tute's rank), for the clients' enum members."""


NAMED_ENUMS: dict[str, list[Any]] = {
    "Sort": list(get_args(Sort)), "Suit": list(SUIT_LETTERS), "CardStyle": list(get_args(CardStyle)),
    "Cante": ["any", "20", "40"]}
"""Enums that recur, made components of their own: a generated client has one ``Sort``, not one per operation."""


def share_enums(node: Any, schemas: dict[str, Any]) -> Any:
    """``node`` with each enum of :data:`NAMED_ENUMS` a reference to its component (kept beside it: its default,
    description and title)."""
    if isinstance(node, list):
        return [share_enums(child, schemas) for child in node]
    if not isinstance(node, dict):
        return node
    for name, values in NAMED_ENUMS.items():
        if node.get("enum") == values:
            schemas.setdefault(name, {"type": "string", "enum": values, "title": name})
            return {"$ref": SCHEMAS + name, **{k: v for k, v in node.items() if k in ("default", "description")}}
    return {key: share_enums(child, schemas) for key, child in node.items()}


def enum_name(value: str | int) -> str:
    """A client's name for an enum value (``x-enum-varnames``): ``-date`` is ``date_desc``, ``20`` is ``veinte``;
    without one, openapi-python-client would call them ``VALUE_1``."""
    text = str(value)
    if text in ENUM_NAMES:
        return ENUM_NAMES[text]
    if text.startswith("-"):
        return enum_name(text[1:]) + "_desc"
    return text if text[:1].isalpha() else f"n{text}"


def name_enums(node: Any) -> None:
    """Give every enum of ``node`` (a piece of the document) with a value that is no name ``x-enum-varnames``."""
    if isinstance(node, dict):
        values = node.get("enum")
        if isinstance(values, list) and any(not str(v)[:1].isalpha() for v in values):
            node["x-enum-varnames"] = [enum_name(v) for v in values]
        for child in node.values():
            name_enums(child)
    elif isinstance(node, list):
        for child in node:
            name_enums(child)


LEFT_OUT = {"RecordingState": ("declarations",)}
"""Answers' fields left out of some answers rather than sent as null (a recording's declarations: the scorer's
only, absent for a spectator)."""
SPECS = {"Ruleset"}
"""Answers whose schema's ``required`` keeps its own meaning, what a spec must give (a ruleset's options without a
default: docs/rules.md), rather than what every answer carries."""


def referenced(paths: dict[str, Any], schemas: dict[str, Any], *parts: str) -> set[str]:
    """The component schemas the ``parts`` of the operations (``responses``, ``requestBody``...) refer to, at
    any depth."""
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith(SCHEMAS) and ref[len(SCHEMAS):] not in found:
                found.add(ref[len(SCHEMAS):])
                walk(schemas.get(ref[len(SCHEMAS):]))
            for child in node.values():
                walk(child)
        elif isinstance(node, list):
            for child in node:
                walk(child)

    walk([op.get(part) for ops in paths.values() for op in ops.values() for part in parts])
    return found


def operation_id(route: APIRoute) -> str:
    """An operation's id: its route's name (the function's, unless the route names itself)."""
    return route.name


def calls(dependant: Dependant) -> Iterator[Callable[..., Any]]:
    """Every dependency a route runs (as functions, bound methods unbound), sub-dependencies too."""
    for sub in dependant.dependencies:
        if sub.call is not None:
            yield getattr(sub.call, "__func__", sub.call)
        yield from calls(sub)


def statuses(route: APIRoute, operation: dict[str, Any]) -> set[int]:
    """The error statuses ``route`` can answer beyond those it documents itself."""
    found: set[int] = set()
    for call in calls(route.dependant):
        found |= DEPENDENCY_STATUSES.get(call, set())
    if route.dependant.path_params:
        found |= {404, 422}
    if operation.get("parameters"):
        found.add(422)
    if "requestBody" in operation:  # a body: too large, or wrong; posted records are worked on under a time limit
        found |= {413, 422}
        if "application/x-tute-pgn" in operation["requestBody"]["content"]:
            found.add(504)
        if route.body_field is not None:  # a JSON body FastAPI reads: 400 when it cannot
            found.add(400)
    return found


def refine(document: dict[str, Any], routes: list[APIRoute]) -> dict[str, Any]:
    """``document`` (FastAPI's) made true to what the routes answer, in place."""
    by_id = {operation_id(route): route for route in routes}
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    for name, schema in Problem.model_json_schema(ref_template="#/components/schemas/{model}").pop("$defs",
                                                                                                      {}).items():
        schemas.setdefault(name, schema)
    schemas.setdefault("Problem", Problem.model_json_schema(ref_template="#/components/schemas/{model}"))
    for name in ("HTTPValidationError", "ValidationError"):
        schemas.pop(name, None)
    document["paths"] = share_enums(document["paths"], schemas)
    for name in list(schemas):
        schemas[name] = share_enums(schemas[name], schemas) if name not in NAMED_ENUMS else schemas[name]
    name_enums(document)
    for operations in document["paths"].values():
        for operation in operations.values():
            route = by_id[operation["operationId"]]
            responses = operation["responses"]
            for status in statuses(route, operation):
                responses.setdefault(str(status), {})
            for status, response in responses.items():
                if status.isdigit() and int(status) >= 400:
                    if response.get("description") in (None, "", "Validation Error", "Successful Response"):
                        response["description"] = STATUS_TEXT.get(int(status), "An error.")
                    response["content"] = {PROBLEM_MEDIA: {"schema": PROBLEM_REF}}
                for header, description in HEADERS.get(status, {}).items():
                    response.setdefault("headers", {})[header] = {"description": description,
                                                                  "schema": {"type": "string"}}
            security = operation.get("security")
            if security and not any(call is Service.require_key for call in calls(route.dependant)):
                operation["security"] = [{}, *security]  # the key is optional here: it adds to the answer
    sent = referenced(document["paths"], schemas, "responses")
    for name in sent - referenced(document["paths"], schemas, "requestBody", "parameters") - SPECS:
        if "properties" in schemas[name]:  # an answer's model: every field is in every answer, defaults too
            schemas[name]["required"] = [field for field in schemas[name]["properties"]
                                         if field not in LEFT_OUT.get(name, ())]
    return document


def api_routes(app: FastAPI) -> Iterator[APIRoute]:
    """The app's API routes, those of included routers too (FastAPI 0.16x keeps those as routers of their own)."""
    contexts = getattr(routing, "iter_route_contexts", None)
    for route in app.routes if contexts is None else (c.original_route for c in contexts(app.routes)):
        if isinstance(route, APIRoute):
            yield route


def install(app: FastAPI) -> None:
    """Serve ``app``'s OpenAPI document refined (:func:`refine`), made once."""
    made = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = refine(made(), [r for r in api_routes(app) if r.include_in_schema])
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def package_version() -> str:
    """The installed package's version, which the document's ``info.version`` says."""
    return version("tutepgn")
