"""The native core: one optional C extension (``ccore``) for the three layers that need speed, and the
Python mirrors of what it shares with Python (:mod:`.layout`).

``ccore`` holds the double-dummy search (``ccore.c``, for :mod:`tutepgn.analysis`), the validator's replay
fast path (``creplay.c``, for :mod:`tutepgn.check.fastreplay`), the reader's hot loops (``cscan.c``, for
:mod:`tutepgn.notation`) and the play model's play-outs and likelihoods for PIMC (``playout.c``, on
``creplay.c``'s deal: ``creplay.h``); ``tute.h`` is the game they share (masks, points, the play duties) and
``layout.h`` the layouts generated from :mod:`.layout`; :mod:`.replayinput` gives the replay its options and
events.  Importing this package loads nothing of
tutepgn but its messages (:mod:`tutepgn.i18n`), so a reader or a validator that uses the core never loads
the solver.

``ccore`` is None when the package was installed without a compiler: every caller then answers in Python.
"""

from __future__ import annotations

import os
from typing import Literal

from ..i18n import gettext as _

try:
    from . import ccore
except ImportError:  # built without a compiler: every caller answers in Python
    ccore = None  # type: ignore[assignment]

Backend = Literal["c", "python"]
C_AVAILABLE = ccore is not None
"""True when the C core was built with the package."""


def backend_from(variable: str) -> Backend:
    """The backend a switch in the environment asks for (``TUTEPGN_SOLVER``, ``TUTEPGN_REPLAY``): the C core
    if built, unless the variable says ``python``."""
    wanted = os.environ.get(variable, "").strip().lower()
    if wanted not in ("", "c", "python"):
        raise ValueError(_("{name}={value!r}: use c or python", name=variable, value=wanted))
    return "python" if wanted == "python" or not C_AVAILABLE else "c"
