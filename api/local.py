"""Writes from the machine the service runs on, with no setting: the local keys and the trust of this machine.

``make run`` must let the person at the machine record and import at once.  So
at its first start with no key configured, ``tute serve`` makes a **local
admin key** (and, with ``--table-keys N``, a write key per table), kept in
``<archive>.keys`` beside the archive, readable by its owner alone (mode
0600): :func:`local_keys`.  A request **from this machine**
(:func:`from_this_machine`) brings no key and writes as the local admin;
every other needs a key, as before.  The check of keys stays in one place,
:meth:`api.deps.Service.caller`, which asks this module.

"From this machine" is judged strictly, since a browser on the machine also runs other sites' pages and a
proxy on the machine makes every client look local: the connection comes from a loopback address, no proxy
header came with it (``Forwarded``, ``X-Forwarded-For``, ``X-Real-IP``, ``X-Forwarded-Host``), the ``Host`` it
asked for is a loopback name (so a site whose name resolves to 127.0.0.1, DNS rebinding, is not trusted), and a
browser's ``Origin`` and ``Sec-Fetch-Site``, when sent, say the request comes from the service's own pages (so a
page of another site cannot post to it: no cross-site request forgery).  docs/security.md says why each holds.
"""

from __future__ import annotations

import ipaddress
import json
import os
import secrets
import socket
from dataclasses import dataclass
from pathlib import Path

from starlette.requests import HTTPConnection

from tutepgn.i18n import gettext as _

from .settings import Settings

KEYS_SUFFIX = ".keys"
"""The local keys' file: ``<archive>.keys``, beside the archive."""
FORWARDING = ("forwarded", "x-forwarded-for", "x-real-ip", "x-forwarded-host")
"""Headers a proxy adds: a request that holds one came through a proxy, and is never taken as this machine's."""
LOOPBACK_NAMES = frozenset({"localhost", "localhost.", "[::1]"})
"""Host names of this machine besides the loopback IPv4 addresses (127.0.0.0/8)."""
SAME_SITE = frozenset({"same-origin", "none"})
"""``Sec-Fetch-Site`` values of a request from the service's own pages, or typed in the address bar."""


@dataclass(frozen=True)
class LocalKeys:
    """The keys the service made itself: the local admin key, and the write keys of the tables (table 1 first)."""

    path: Path
    admin: str
    tables: tuple[str, ...]


def keys_file(db: Path) -> Path:
    """Where the local keys of the archive ``db`` are kept."""
    return db.with_name(db.name + KEYS_SUFFIX)


def new_key() -> str:
    """A fresh key: 24 random bytes, URL-safe (it goes in a join URL's fragment, never sent to the server)."""
    return secrets.token_urlsafe(24)


def local_keys(db: Path, tables: int = 0) -> LocalKeys:
    """The local keys of the archive ``db``, made at the first start (mode 0600, beside the archive), with at
    least ``tables`` table keys (missing ones are added, none is taken away or changed: a phone keeps its key
    from one evening to the next).  A file others may read is made private again.  Raises OSError when the file
    cannot be read or written, ValueError when it is not a keys file."""
    path = keys_file(db)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        data = {"admin": new_key(), "tables": []}
    except (json.JSONDecodeError, UnicodeDecodeError):
        data = None
    else:
        if os.stat(path).st_mode & 0o077:
            os.chmod(path, 0o600)
    admin, table_keys = (data.get("admin"), data.get("tables")) if isinstance(data, dict) else (None, None)
    if not (isinstance(admin, str) and admin and isinstance(table_keys, list)
            and all(isinstance(k, str) and k for k in table_keys)):
        raise ValueError(_("{path} is not a keys file (an admin key and a list of table keys in JSON); remove it, "
                           "and the service makes new keys", path=path))
    if not path.exists() or len(table_keys) < tables:
        table_keys = table_keys + [new_key() for _ in range(tables - len(table_keys))]
        write_private(path, json.dumps({"admin": admin, "tables": table_keys}, indent=1) + "\n")
    return LocalKeys(path, admin, tuple(table_keys))


def write_private(path: Path, text: str) -> None:
    """Write ``path`` whole (a new file renamed over it), readable and writable by its owner alone from the
    first byte on."""
    path.parent.mkdir(parents=True, exist_ok=True)
    new = path.with_name(path.name + ".new")
    fd = os.open(new, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)  # an older .new left by a crash keeps its mode: made private here
        os.write(fd, text.encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(new, path)


def loopback(host: str) -> bool:
    """Whether ``host`` (an address as a client's, maybe IPv4 in IPv6) is a loopback address."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback


def host_name(host: str) -> str:
    """The name of a ``Host`` header, without its port (an IPv6 address keeps its brackets)."""
    if host.startswith("["):
        return host[:host.find("]") + 1].lower()
    return host.rpartition(":")[0].lower() if ":" in host else host.lower()


def from_this_machine(request: HTTPConnection) -> bool:
    """Whether a request comes from this machine itself, not through a proxy nor from another site's page
    (the module's docstring says why each test)."""
    client = request.client
    if client is None or not loopback(client.host):
        return False
    headers = request.headers
    if any(name in headers for name in FORWARDING):
        return False
    host = headers.get("host", "")
    name = host_name(host)
    if name not in LOOPBACK_NAMES and not (name[:1].isdigit() and loopback(name)):
        return False
    origin = headers.get("origin")
    if origin is not None and origin != f"{request.url.scheme}://{host}":
        return False
    return headers.get("sec-fetch-site", "none") in SAME_SITE


def lan_address() -> str:
    """This machine's address on its network, the one phones reach it by: the local end of a route to a
    documentation address (a UDP socket's connect sends nothing), or 127.0.0.1 without a network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: routed like any address outside, never reached
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def with_local_keys(settings: Settings, *, tables: int = 0, trust: bool = True) -> tuple[Settings, LocalKeys | None]:
    """The settings ``tute serve`` runs with: while no key is configured, the local keys (:func:`local_keys`,
    made at the first start) and, if ``trust``, this machine's requests writing with no key; the settings as
    they are otherwise (read-only, a dataset, or keys configured: whoever configures keys, for a proxy in front
    say, hands them out).  Raises ValueError for table keys asked beside configured keys, and what
    :func:`local_keys` raises."""
    if settings.read_only or settings.dataset is not None:
        return settings, None
    if settings.api_keys or settings.admin_keys:
        if tables:
            raise ValueError(_("--table-keys makes keys of the service's own, and keys are configured "
                               "(TUTEPGN_API_KEYS, TUTEPGN_ADMIN_KEYS): hand those out to the tables instead"))
        return settings, None
    keys = local_keys(settings.db, tables)
    return settings.model_copy(update={"local_key": keys.admin, "table_keys": frozenset(keys.tables),
                                       "trust_local": trust}), keys
