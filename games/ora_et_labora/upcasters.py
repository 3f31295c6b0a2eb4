"""Ora et Labora has had one storage format so far: no upcasters."""

from __future__ import annotations

from games.contract import Upcaster

UPCASTERS: dict[tuple[str, int], Upcaster] = {}
