"""Who acts in 7 Wonders now, and for which city (§7 step 2, §12 Free City, Edifice B6).

to_act, decide and the views share these predicates: every seat yet to choose its card, the
Free City's holder, the owner of a pending decision, or the seats owing an edifice penalty.
"""

from __future__ import annotations

from games.seven_wonders.state import State


FREE_CITY = 2
"""The Free City's city index in the 2-player variant: the cycle is (P1, P2, Free City), so
P1 = LEFT(Free City) and P2 = RIGHT(Free City) (§12 engine notes)."""


def free_city(state: State) -> int | None:
    """The Free City's index, or None outside the 2-player variant."""
    return FREE_CITY if state.players == 2 else None


def holder(state: State) -> int:
    """2-player variant: who holds the Free City card this turn. Age I and III start with
    the player on the Free City's left (seat 0), Age II with the one on its right; it
    changes hands every turn (§12, §15 #15)."""
    start = 0 if state.age in (1, 3) else 1
    return start if state.turn % 2 == 1 else 1 - start


def to_act(state: State) -> tuple[int, ...]:
    """Seats that must act: every seat yet to choose (the Free City's controller until it
    has chosen for both cities), the owner of a pending decision, or every seat that still
    owes its choice of a failed edifice's penalty (they choose at once, Edifice B6)."""
    if state.pending is not None:
        return (state.pending.seat,)
    if choosing_penalties(state):
        return owing(state)
    if state.phase == "choose":
        seats = [i for i in range(state.players) if state.chosen[i] is None]
        fc = free_city(state)
        if fc is not None and state.chosen[fc] is None and holder(state) not in seats:
            seats = sorted([*seats, holder(state)])
        return tuple(seats)
    return ()


def choosing_penalties(state: State) -> bool:
    """Are the seats a failed edifice penalised choosing how to pay (B6, all at once)?"""
    return state.pending is None and bool(state.due) and state.due[0].kind == "edifice_penalty"


def owing(state: State) -> tuple[int, ...]:
    """The seats that owe a failed edifice's penalty choice and have not made it (B6)."""
    picked = {p[0] for p in state.picks}
    return tuple(sorted(d.seat for d in state.due if d.kind == "edifice_penalty" and d.seat not in picked))


def slot(state: State, seat: int) -> tuple[int, tuple[str, ...], int]:
    """What `seat` decides now: (the city it acts for, the cards it may use, whose hand
    they are in). The Free City's card is chosen after the controller's own (§12)."""
    if state.pending is not None:
        city = state.pending.seat if state.pending.city is None else state.pending.city
        return city, state.hands[city], city
    if state.chosen[seat] is None:
        return seat, state.hands[seat], seat
    hand = list(state.hands[seat])
    hand.remove(state.chosen[seat].card)  # type: ignore[union-attr]
    return FREE_CITY, tuple(hand), seat
