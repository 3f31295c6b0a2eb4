"""Ora et Labora told in sentences from a spectator's log entry (games/narration.py).

The game has no hidden information once set up, but the narrator still reads only the
spectator's views before and after the entry: the buildings, settlements, clergymen and
landscapes it names are those the views show."""

from __future__ import annotations

from games.narration import Entry, Sentences, View, added, tell
from games.ora_et_labora.catalog import CATALOG


def _name(cid: str) -> str:
    b = CATALOG.buildings.get(cid) or CATALOG.settlements.get(cid)
    return b.name if b is not None else cid


def _owners(v: View | None) -> list[dict]:
    return list(v.get("owners") or ()) if v is not None else []


def _owner(e: Entry, o: dict) -> str:
    return e.who(o["seat"]) if o.get("seat") is not None else "the neutral player"


def _next(e: Entry) -> str:
    """Who acts after the entry (the view's `acting` seat)."""
    return e.who(e.after.get("acting")) if e.after.get("acting") is not None else "nobody"


def _pairs(e: Entry) -> list[tuple[dict, dict]]:
    return list(zip(_owners(e.before), _owners(e.after)))


def _built(e: Entry) -> list[str]:
    """Each owner's new buildings, read from its landscape."""
    def built(o: dict) -> list[str]:
        return [s["built"] for row in o["land"] for s in row["spaces"] if s["built"]]
    return [f"{_owner(e, new)} builds the {_name(b)}." for old, new in _pairs(e) for b in added(built(old), built(new))]


def _settled(e: Entry) -> list[str]:
    return [f"{_owner(e, new)} founds the {_name(s)}." for old, new in _pairs(e) for s in added(new["hand"], old["hand"])]


def _clergy(e: Entry) -> list[str]:
    out = []
    for old, new in _pairs(e):
        for c in added([c["where"] for c in old["clergy"]], [c["where"] for c in new["clergy"]]):
            if c != "supply":
                out.append(f"{_owner(e, new)}'s clergyman goes to the {_name(c[1])}.")
    return out or [f"{e.actor} places a clergyman."]


def _cleared(e: Entry) -> list[str]:
    out = []
    for old, new in _pairs(e):
        def cards(o: dict) -> list[str]:
            return [s["card"] for row in o["land"] for s in row["spaces"] if s["card"]]
        for c in added(cards(new), cards(old)):
            out.append(f"{_owner(e, new)} {'fells trees' if c == 'forest' else 'cuts peat'}.")
    return out or [f"{e.actor} clears land."]


def _bought(e: Entry) -> list[str]:
    out = []
    for old, new in _pairs(e):
        for field, what in (("districts", "a district"), ("coast_plots", "a coastal plot"),
                            ("mountain_plots", "a mountain plot")):
            if added(old[field], new[field]):
                out.append(f"{_owner(e, new)} buys {what}.")
    return out or [f"{e.actor} buys a landscape."]


SENTENCES: dict[str, Sentences] = {
    "game_set_up": lambda e: [f"The game is set up; {_next(e)} begins."],
    "round_started": lambda e: [f"Round {e.after.get('round')} begins."],
    "settlement_phase_started": lambda e: [f"Settlement phase {e.after.get('letter', '')} begins."],
    "settler_done": lambda e: [f"{e.actor} is done settling."],
    "settlement_phase_ended": lambda e: ["The settlement phase ends: new buildings join the display."],
    "landscape_bought": _bought,
    "goods_converted": lambda e: [f"{e.actor} converts goods."],
    "action_taken": lambda e: [f"{e.actor} takes an action."],
    "work_contracted": lambda e: [f"{e.actor} hires another player's clergyman (work contract)."],
    "clergyman_placed": _clergy,
    "decision_opened": lambda e: [f"{_next(e)} must decide."],
    "decision_closed": lambda e: [f"{e.actor} has decided."],
    "function_used": lambda e: [f"{e.actor} uses a building's function."],
    "land_cleared": _cleared,
    "building_built": lambda e: _built(e) or [f"{e.actor} builds."],
    "neutral_built": lambda e: _built(e) or ["The neutral player builds."],
    "neutral_set_aside": lambda e: ["The neutral player's building finds no place: it leaves the game."],
    "settlement_built": lambda e: _settled(e) or [f"{e.actor} founds a settlement."],
    "action_ended": lambda e: [f"{_next(e)} acts next."],
    "game_ended": lambda e: ["The game is over."],
}


def narrate(e: Entry) -> list[str]:
    return tell(SENTENCES, e)
