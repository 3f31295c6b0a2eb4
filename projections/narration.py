"""What happened at a log position, in sentences, for a chat room or any spectator: each
game's narrator (games/<game>/narrate.py) over the spectator's views before and after it.

`narrate(game_type, types, seat, before, after, names)` takes only what a spectator's log
entry shows (GET /games/{id}/log without a token: the event types, the acting seat and the
spectator's view document), so a sentence can never tell what the spectator may not see."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.arkadia.narrate import narrate as arkadia
from games.narration import Entry
from games.ora_et_labora.narrate import narrate as ora_et_labora
from games.seven_wonders.narrate import narrate as seven_wonders
from games.seven_wonders_duel.narrate import narrate as seven_wonders_duel

SHELL = {"ts.game_opened": "", "ts.seats_taken": "", "ts.clock_set": "", "ts.undo_allowed": "",
         "ts.host_named": "", "ts.undone": "{who} took back their last command.",
         "ts.seed_revealed": "The game's seed is revealed: anyone may now verify its deals.",
         "ts.timed_out": "{who}'s time ran out: a bot made this move.",
         "ts.seat_resigned": "{who} left the game: a bot plays on for them."}
"""The shell's own events (events/meta.py): the opening, its seats and its clock say nothing
(the game's setup and the chat's own "The game begins" do); `{who}` is the acting seat's name."""

NARRATORS: dict[str, Callable[[Entry], list[str]]] = {
    "seven_wonders": seven_wonders, "seven_wonders_duel": seven_wonders_duel,
    "arkadia": arkadia, "ora_et_labora": ora_et_labora,
}


def narrate(game_type: str, types: Sequence[str], seat: int, before: Mapping[str, Any] | None,
            after: Mapping[str, Any], names: Mapping[int, str]) -> list[str]:
    """The sentences of one log position; `before`/`after` are the spectator's views
    (the `view` of its view documents) around it, `names` the seats' names."""
    own = tuple(t for t in types if t not in SHELL)
    who = names.get(seat, f"seat {seat}")
    shell = [SHELL[t].format(who=who) for t in dict.fromkeys(types) if SHELL.get(t)]
    told = NARRATORS.get(game_type)
    if not own:
        return shell
    if told is None:  # a game without a narrator: its event types as words
        return [", ".join(t.replace("_", " ") for t in own).capitalize() + ".", *shell]
    return [*told(Entry(own, seat, before, after, names)), *shell]
