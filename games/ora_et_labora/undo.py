"""Which events may be taken back (`GameDef.quiet`, README "Undo"): every one. Nothing in
Ora et Labora is hidden and nothing is drawn after setup (§1, §5: the buildings, goods,
wheel and stacks are open; the settlements' buildings come in a fixed order), so a
command can be taken back until another seat acts."""

from __future__ import annotations

from typing import Any


def quiet(state: Any, event: Any) -> bool:
    """Always True: no event shows anything hidden."""
    del state, event
    return True
