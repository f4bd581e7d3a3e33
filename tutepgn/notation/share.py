"""Links that carry a whole deal, so it can be shown without an archive (docs/notation.md, "Shared deals").

A deal's link is ``/view?d=TOKEN``: the TOKEN is the record's export text (:meth:`~tutepgn.notation.Record.tpgn`)
compressed with raw DEFLATE (zlib, level 9, no header) and written in base64url without padding.  A moment
is ``/view?p=POSITION`` (:mod:`tutepgn.check.moment`, spaces as ``+``), and ``#t5`` or ``&frame=20`` open the
deal at trick 5 or at frame 20.  A deal's link is about 500 characters (800 at most over the samples), well under the 2,000 that
every browser and server takes (``bench/share_sizes.py`` prints the sizes over the samples).

>>> token = encode_deal('[Event "x"]\\n')
>>> decode_deal(token)
'[Event "x"]\\n'
>>> deal_link('[Event "x"]\\n', "https://tute.example")
'https://tute.example/view?d=i3YtS80rUVCqUIrlAgA'
"""

from __future__ import annotations

import base64
import binascii
import re
import zlib
from urllib.parse import quote_plus

from ..errors import LinkError
from ..i18n import gettext as _
from ..limits import max_link_bytes

_TOKEN = re.compile(r"[A-Za-z0-9_-]*")
VIEW = "/view"
"""The service's page that shows a shared deal or position."""


def encode_deal(text: str) -> str:
    """A record's text as a link's token: raw DEFLATE, then base64url without padding."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = packer.compress(text.encode("utf-8")) + packer.flush()
    return base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def decode_deal(token: str) -> str:
    """The record's text a token carries; :class:`~tutepgn.errors.LinkError` when it is not one, or would
    unpack to more than a link may carry (``TUTEPGN_MAX_LINK_BYTES``, far less than a record may hold: a small
    token cannot become a huge text, nor a page that takes seconds to make)."""
    limit = max_link_bytes()
    if not _TOKEN.fullmatch(token) or len(token) % 4 == 1:
        raise LinkError(_("the link is damaged: it holds characters a deal's link never has (only letters, digits, "
                          "- and _); copy the whole link again"))
    if len(token) > limit:
        raise LinkError(_("the link's deal is longer than a link may carry ({limit} bytes, "
                          "TUTEPGN_MAX_LINK_BYTES)", limit=limit))
    try:
        packed = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        unpacker = zlib.decompressobj(-15)
        data = unpacker.decompress(packed, limit + 1)
    except (binascii.Error, zlib.error):  # the library's words ("Error -3 while decompressing") say nothing to a player
        raise LinkError(_("the link is damaged: part of it was changed or lost on the way; copy the whole link "
                          "again")) from None
    if len(data) > limit or unpacker.unconsumed_tail:
        raise LinkError(_("the link's deal unpacks to more than a link may carry ({limit} bytes, "
                          "TUTEPGN_MAX_LINK_BYTES)", limit=limit))
    if not unpacker.eof:
        raise LinkError(_("the link's deal is cut short: copy the whole link"))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise LinkError(_("the link is damaged: what it carries is not a record's text; copy the whole link "
                          "again")) from None


def link_position(position: str) -> str:
    """A position string a link gives, refused (:class:`~tutepgn.errors.LinkError`) when it is longer than a
    link may carry (``TUTEPGN_MAX_LINK_BYTES``; a real one is under 200 characters)."""
    limit = max_link_bytes()
    if len(position.encode("utf-8")) > limit:
        raise LinkError(_("the link's position is longer than a link may carry ({limit} bytes, "
                          "TUTEPGN_MAX_LINK_BYTES)", limit=limit))
    return position


def deal_link(text: str, base: str = "", frame: int | None = None) -> str:
    """The link that shows a record's deal: ``base`` (the service's address, none for a path) + ``/view?d=``,
    and ``&frame=N`` to open it at a frame."""
    return f"{base.rstrip('/')}{VIEW}?d={encode_deal(text)}" + ("" if frame is None else f"&frame={frame}")


def position_link(position: str, base: str = "") -> str:
    """The link that shows one moment given by its position string."""
    return f"{base.rstrip('/')}{VIEW}?p={quote_plus(position, safe=':/,*')}"
