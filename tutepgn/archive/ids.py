"""A deal's id as the JSON answers write it: a string of digits.

A deal's id is the first 63 bits of the SHA-256 of its export text
(:func:`.columns.deal_id`), an ``int`` in the library.  JSON numbers past
2**53 do not survive JavaScript (``2283705266920107263`` reads back as
``...300``), so every JSON answer writes an id as a string, and its schema
says so; Python keeps the ``int``, and reading a model back accepts either.

>>> from pydantic import TypeAdapter
>>> ids = TypeAdapter(DealId)
>>> ids.dump_json(2283705266920107263), ids.dump_python(2283705266920107263)
(b'"2283705266920107263"', 2283705266920107263)
>>> ids.validate_json('"2283705266920107263"'), ids.validate_python(12)
(2283705266920107263, 12)
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, PlainSerializer, WithJsonSchema

ID_SCHEMA = {"type": "string", "pattern": "^[0-9]+$",
             "description": "A deal's id: the first 63 bits of the SHA-256 of its export text, as a string of digits "
                            "(JSON numbers that large do not survive JavaScript)."}
"""The JSON schema of a deal id in an answer."""
MAX_ID = 2**63 - 1
"""The largest deal id (63 bits)."""

DealId = Annotated[int, Field(ge=0, le=MAX_ID), PlainSerializer(str, return_type=str, when_used="json"),
                   WithJsonSchema(ID_SCHEMA)]
"""A deal's id: an ``int`` in Python, a string of digits in JSON (either is read back)."""
