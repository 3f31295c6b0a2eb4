"""7 Wonders Duel told in sentences from a spectator's log entry (games/narration.py).

Everything a Duel turn does happens face up (the structure's accessible cards, the
discard pile, the cities), so the sentences name the cards; what they name they read from
the spectator's views before and after the entry."""

from __future__ import annotations

from games.narration import Entry, Sentences, View, added, roman, tell
from games.seven_wonders_duel.catalog import CATALOG


def _cities(v: View | None) -> list[dict]:
    return list(v.get("cities") or ()) if v is not None else []


def _the(x: str) -> str:
    """A card's, wonder's or token's name after "the" ("The Colossus" has its own)."""
    name = CATALOG.name(x)
    return name if name.startswith("The ") else f"the {name}"


def _gained(e: Entry, field: str, verb: str, suffix: str = "") -> list[str]:
    """A sentence per id each city's `field` gained in the entry."""
    return [f"{e.who(new['seat'])} {verb} {_the(x)}{suffix}."
            for old, new in zip(_cities(e.before), _cities(e.after)) for x in added(old[field], new[field])]


def _discarded(e: Entry) -> list[str]:
    lost = {x for old, new in zip(_cities(e.before), _cities(e.after)) for x in added(new["cards"], old["cards"])}
    new = [c for c in added(e.old("discard", ()), e.after.get("discard") or ()) if c not in lost]
    return [f"{e.actor} discarded {_the(c)} for coins." for c in new] or [f"{e.actor} discarded a card."]


def _destroyed(e: Entry) -> list[str]:
    return [f"{e.actor} destroyed {e.who(new['seat'])}'s {CATALOG.name(c)}."
            for old, new in zip(_cities(e.before), _cities(e.after)) for c in added(new["cards"], old["cards"])]


def _removed(e: Entry) -> list[str]:
    out = [f"{_the(w)[0].upper()}{_the(w)[1:]} leaves the game: seven wonders stand."
           for old, new in zip(_cities(e.before), _cities(e.after))
           for w in added(new["wonders"] + new["built"], old["wonders"] + old["built"])]
    return out or ["The last unbuilt wonder leaves the game."]


def _pawn(e: Entry) -> list[str]:
    pawn = e.after.get("pawn", 0)
    if pawn == 0:
        return ["The conflict pawn is back in the middle."]
    toward = e.who(1 if pawn > 0 else 0)
    return [f"The conflict pawn moves {abs(pawn)} toward {toward}'s capital."]


def _ended(e: Entry) -> list[str]:
    victory = e.after.get("victory")
    return [f"The game is over ({victory} victory)." if victory else "The game is over."]


SENTENCES: dict[str, Sentences] = {
    "game_created": lambda e: ["The game is set up: the wonder draft begins."],
    "wonder_drafted": lambda e: _gained(e, "wonders", "takes") or [f"{e.actor} takes a wonder."],
    "age_started": lambda e: [f"Age {roman(e.after['age'])} begins; {e.to_act()} plays first."],
    "card_built": lambda e: _gained(e, "cards", "built") or [f"{e.actor} built a card."],
    "card_discarded": _discarded,
    "wonder_built": lambda e: _gained(e, "built", "built") or [f"{e.actor} built a wonder."],
    "wonder_removed": _removed,
    "cards_revealed": lambda e: ["New cards of the structure are turned face up."],
    "pawn_moved": _pawn,
    "decision_opened": lambda e: [f"{e.to_act()} must decide."],
    "progress_token_taken": lambda e: _gained(e, "tokens", "takes", " progress token")
                                       or [f"{e.actor} takes a progress token."],
    "card_destroyed": lambda e: _destroyed(e) or [f"{e.actor} destroyed a card."],
    "turn_started": lambda e: [f"{e.to_act()} plays next."],
    "game_ended": _ended,
}


def narrate(e: Entry) -> list[str]:
    return tell(SENTENCES, e)
