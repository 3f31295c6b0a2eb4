"""Raw-dict upcasters, (event tag, from version) -> function. None yet: every event is v1."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

UPCASTERS: dict[tuple[str, int], Callable[[dict[str, Any]], dict[str, Any]]] = {}
