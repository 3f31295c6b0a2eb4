"""Counted nouns for text a player reads ("1 coin", "3 coins"): one rule for every game's
board text and rejection messages (issue #29: "1 coins" read as a slip)."""

from __future__ import annotations


def count(n: int, noun: str, plural: str | None = None) -> str:
    """`n` and the noun, singular for 1 and -1, else `plural` (default: noun + "s")."""
    return f"{n} {noun if abs(n) == 1 else (plural or noun + 's')}"
