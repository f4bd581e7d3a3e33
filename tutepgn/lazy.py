"""Package exports imported on first use (PEP 562), so that ``tute --help`` does not load DuckDB, Arrow or Lark.

A package lists what it exports, by the module that defines it; ``from tutepgn import Deal`` imports
``tutepgn.engine`` then, and only then.  Submodules import each other directly, as before.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def lazy_exports(package: str, exports: dict[str, tuple[str, ...]],
                 namespace: dict[str, Any]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``: ``exports`` maps a submodule (``.engine``) to the
    names it gives (``"."`` to submodules exported as themselves); a name is imported when first read and
    then kept in the package's ``namespace``."""
    where = {name: module for module, names in exports.items() for name in names}

    def getattr_(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        if module == ".":
            value = importlib.import_module(f".{name}", package)
        else:
            value = getattr(importlib.import_module(module, package), name)
        namespace[name] = value
        return value

    def dir_() -> list[str]:
        return sorted({*namespace, *where})

    return getattr_, dir_
