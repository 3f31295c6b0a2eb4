"""7 Wonders told in sentences from a spectator's log entry (games/narration.py).

Choices are face down until the turn resolves: a chosen card is "a card"; at the reveal
each city's new building is named (it now stands in the city, for all to see), a new
wonder stage is "a wonder stage" (its card goes under the board face down) and a city
that gained neither discarded "a card" (the discard pile is face down)."""

from __future__ import annotations

from games.narration import Entry, Sentences, View, added, joined, roman, tell
from games.seven_wonders.boards import BOARDS
from games.seven_wonders.catalog import CATALOG


def _who(e: Entry, city: int) -> str:
    return "the Free City" if city >= e.after.get("players", city + 1) else e.who(city)


def _cities(v: View | None) -> list[dict]:
    return list(v.get("cities") or ()) if v is not None else []


def _builds(e: Entry, discards: bool) -> list[str]:
    """What each city added since the view before: its new buildings by name, new stages;
    with `discards`, a city that gained nothing at a reveal discarded a card."""
    out = []
    for old, new in zip(_cities(e.before), _cities(e.after)):
        who = _who(e, new["seat"])
        cards = added(old["built"], new["built"])
        for c in cards:
            out.append(f"{who} built the {CATALOG.cards[c].name}.")
        if new["stages"] > old["stages"]:
            out.append(f"{who} built a wonder stage.")
        elif discards and not cards:
            out.append(f"{who} discarded a card.")
    return out


def _opening(e: Entry) -> list[str]:
    cities = [f"{_who(e, c['seat'])}: {BOARDS[c['wonder']].name} {c['side']}" for c in _cities(e.after)]
    return [f"The game is set up ({'; '.join(cities)})."]


def _military(e: Entry) -> list[str]:
    out = []
    for old, new in zip(_cities(e.before), _cities(e.after)):
        got = added(old["tokens"], new["tokens"])
        if got:
            out.append(f"{_who(e, new['seat'])} {' '.join(f'{t:+d}' for t in got)}")
    return [f"War at the end of Age {roman(e.old('age', 1))}: {'; '.join(out) or 'no tokens'}."]


def _decision(e: Entry) -> list[str]:
    return [f"{e.to_act()} must decide."]


def _edifice_joined(e: Entry) -> list[str]:
    who = [_who(e, n["seat"]) for o, n in zip(_cities(e.before), _cities(e.after))
           if len(n.get("joined") or ()) > len(o.get("joined") or ())]
    return [f"{joined(who) or 'Nobody'} joined the edifice project."]


SENTENCES: dict[str, Sentences] = {
    "game_created": _opening,
    "age_started": lambda e: [f"Age {roman(e.after['age'])} begins."],
    "card_chosen": lambda e: [f"{e.actor} has chosen a card."],
    "turn_resolved": lambda e: ["The cards are revealed.", *_builds(e, discards=True)],
    "last_cards_discarded": lambda e: ["The last cards of the age are discarded."],
    "decision_opened": _decision,
    "free_city_card_drawn": lambda e: ["The Free City draws its next card."],
    "seventh_card_played": lambda e: [f"{e.actor} plays the last card of the age.", *_builds(e, discards=True)],
    "discard_built": lambda e: [f"{e.actor} builds from the discard pile.", *_builds(e, discards=False)],
    "discard_build_skipped": lambda e: ["Nothing is built from the discard pile."],
    "hands_passed": lambda e: ["The hands are passed on."],
    "military_resolved": _military,
    "game_ended": lambda e: ["The game is over."],
    "edifices_drawn": lambda e: ["The edifices of the three ages are drawn."],
    "edifice_joined": _edifice_joined,
    "edifice_completed": lambda e: ["The edifice is completed: its holders are rewarded."],
    "edifice_failed": lambda e: ["The edifice failed: the cities that stayed out pay the penalty."],
    "edifice_pawn_taken": lambda e: [f"{e.actor} takes an edifice pawn."],
    "edifice_penalty_chosen": lambda e: [f"{e.actor} has chosen how to pay the edifice penalty."],
    "edifice_penalty_paid": lambda e: [f"{e.actor} pays the edifice penalty."],
}


def narrate(e: Entry) -> list[str]:
    return tell(SENTENCES, e)
