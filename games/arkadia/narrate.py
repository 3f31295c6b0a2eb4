"""Arkadia told in sentences from a spectator's log entry (games/narration.py).

Hands and seal tokens are hidden: a card taken from the draw pile is "a card"; a card
taken from the open display, a building laid on the board, workers and castle pieces are
public and named, read from the spectator's views before and after the entry."""

from __future__ import annotations

from games.arkadia.view import card_name
from games.narration import Entry, Sentences, added, joined, tell


def _form(b: dict) -> str:
    return b["form"].replace("_", " ")


def _placed(e: Entry) -> list[str]:
    new = added(e.old("buildings", ()), e.after.get("buildings") or ())
    return [f"{e.actor} builds a {_form(b)} ({b['seal']} seal)." for b in new] or [f"{e.actor} builds."]


def _workers(e: Entry) -> list[str]:
    n = len(added(e.old("workers", ()), e.after.get("workers") or ()))
    return [f"{e.actor} places {n} worker{'s' * (n != 1)}." if n else f"{e.actor} places workers."]


def _completed(e: Entry) -> list[str]:
    done = {b["id"] for b in e.old("buildings", ()) if b["completed"]}
    new = [b for b in e.after.get("buildings") or () if b["completed"] and b["id"] not in done]
    return [f"The {_form(b)} is enclosed: its workers' owners take seals." for b in new] or ["A building is enclosed."]


def _castle(e: Entry) -> list[str]:
    before = [c for square in e.old("castle", ()) for c in square]
    new = added(before, [c for square in e.after.get("castle") or () for c in square])
    return [f"{e.actor} adds a {c} piece to the castle." for c in new] or [f"{e.actor} adds to the castle."]


def _taken(e: Entry) -> list[str]:
    gone = added(e.after.get("display") or (), e.old("display", ()))
    if gone:
        return [f"{e.actor} takes the {card_name(c)} from the open cards." for c in gone]
    return [f"{e.actor} draws a card from the pile."]


def _banner(e: Entry) -> list[str]:
    return [f"{e.actor} returns a banner."]


def _ended(e: Entry) -> list[str]:
    res = e.after.get("result") or {}
    winners = joined(e.who(w) for w in res.get("winners") or ())
    return [f"The game is over: {winners} won." if winners else "The game is over."]


SENTENCES: dict[str, Sentences] = {
    "game_created": lambda e: [f"The game is set up; {e.to_act()} begins."],
    "building_placed": _placed,
    "workers_placed": _workers,
    "building_completed": _completed,
    "castle_piece_placed": _castle,
    "floor_completed": lambda e: [f"Castle floor {e.old('floor', 1)} is complete."],
    "final_round_started": lambda e: ["The final round begins."],
    "card_taken": _taken,
    "banner_used": _banner,
    "action_skipped": lambda e: [f"{e.actor} has no action to take."],
    "turn_ended": lambda e: [f"{e.to_act()} plays next." if e.after.get("to_act") else f"{e.actor}'s turn ends."],
    "game_ended": _ended,
}


def narrate(e: Entry) -> list[str]:
    return tell(SENTENCES, e)
