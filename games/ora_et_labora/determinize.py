"""Ora et Labora's determinization (`GameDef.determinize`, for search bots): the state
itself. Nothing is hidden and nothing is drawn after setup (§1, §5; the settlements'
buildings come in a fixed order), so every seat's information set is the one state."""

from __future__ import annotations

from typing import Any


def determinize(state: Any, seat: int, rng: Any) -> Any:
    """`state`: there is nothing to draw anew."""
    del seat, rng
    return state
