"""Narration of public events: one log position told in sentences ("Alice built the
Aqueduct", "Age II begins") for a chat room or any spectator.

A game's narrator (games/<game>/narrate.py) sees only what a spectator's log entry shows:
the entry's event types, the seat that sent the command, and the SPECTATOR's view before
and after it (the JSON documents the gateway serves, as plain dicts). It never sees the
events themselves, so it cannot tell what the spectator may not know: a card chosen face
down stays "a card". Each event type has a sentence function; what it names it reads from
the difference between the two views. Pure: no I/O, clock or random state.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

View = Mapping[str, Any]


@dataclass(frozen=True)
class Entry:
    """One log position as a spectator saw it. `before` is None at the game's opening."""

    types: tuple[str, ...]
    seat: int  # the seat that sent the command; -1: the service (e.g. the opening)
    before: View | None
    after: View
    names: Mapping[int, str]

    def who(self, seat: int | None) -> str:
        if seat is None or seat < 0:
            return "the game"
        return self.names.get(seat, f"seat {seat}")

    @property
    def actor(self) -> str:
        return self.who(self.seat)

    def old(self, key: str, default: Any = None) -> Any:
        """A field of the view before the entry (of the view after when there is none)."""
        return (self.before if self.before is not None else self.after).get(key, default)

    def to_act(self) -> str:
        """The seats that must act after the entry, by name ("Alice and Bob")."""
        return joined(self.who(s) for s in self.after.get("to_act") or ()) or "nobody"


Sentences = Callable[[Entry], list[str]]


def joined(words: Iterable[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    w = list(words)
    return w[0] if len(w) == 1 else f"{', '.join(w[:-1])} and {w[-1]}" if w else ""


def added(before: Iterable[Any], after: Iterable[Any]) -> list[Any]:
    """What `after` holds beyond `before`, counted as multisets, in `after`'s order."""
    left = Counter(_key(x) for x in before)
    out = []
    for x in after:
        k = _key(x)
        if left[k] > 0:
            left[k] -= 1
        else:
            out.append(x)
    return out


def _key(x: Any) -> Any:
    return repr(x) if isinstance(x, (dict, list)) else x


def roman(n: int) -> str:
    return {1: "I", 2: "II", 3: "III"}.get(n, str(n))


def tell(table: Mapping[str, Sentences], entry: Entry) -> list[str]:
    """The entry's sentences: each type's, in the log's order, each sentence once. A type
    without a sentence function is told by its name (tests require every type to have one)."""
    out: list[str] = []
    for t in dict.fromkeys(entry.types):
        f = table.get(t)
        for s in f(entry) if f is not None else [t.replace("_", " ").capitalize() + "."]:
            if s and s not in out:
                out.append(s)
    return out


def every_type(union: Any) -> set[str]:
    """The tags of an event union (`A | B | ...`)."""
    from typing import get_args

    return {c.__struct_config__.tag for c in get_args(union)}
