"""The answers to 7 Wonders Duel's open decisions, each continuing the turn that opened it:
a progress token (§8, The Great Library §12), a card to discard (§12), a building from the
discard pile (The Mausoleum §12), the next Age's start player (§9).
"""

from __future__ import annotations

from games.contract import Rejection
from games.seven_wonders_duel.catalog import CATALOG
from games.seven_wonders_duel.commands import BuildFromDiscard, ChooseProgressToken, ChooseStartPlayer, DestroyCard
from games.seven_wonders_duel.events import AgeStarted, CardBuilt, CardDestroyed, ProgressTokenTaken
from games.seven_wonders_duel.payment import SPEC, profile
from games.seven_wonders_duel.resolution import SCIENCE_SUPREMACY, Events, construction_effects, ended, income, turn_end
from games.seven_wonders_duel.state import State


TOKEN_COINS = {"agriculture": 6, "urbanism": 6}  # §13


def _pending(state: State, *kinds: str) -> Rejection | None:
    if state.pending is None or state.pending.kind not in kinds:
        return Rejection("no_pending_decision", f"there is no {' or '.join(kinds)} decision to answer now")
    return None


def choose_progress_token(state: State, seat: int, cmd: ChooseProgressToken) -> Events | Rejection:
    bad = _pending(state, "progress_token", "great_library")
    if bad is not None:
        return bad
    p = state.pending
    assert p is not None
    if cmd.token not in p.options:
        return Rejection("option_not_offered", f"{CATALOG.name(str(cmd.token))} is not one of the tokens offered")
    box = p.kind == "great_library"
    out: Events = [ProgressTokenTaken(seat=seat, token=cmd.token, source="box" if box else "board",
                                      gained=TOKEN_COINS.get(cmd.token, 0),
                                      returned=tuple(t for t in p.options if t != cmd.token) if box else ())]
    if cmd.token == "law":  # §8: Law counts toward six different symbols, never a pair (§15 #12)
        city = state.cities[seat]
        if len(set(profile(city.cards).symbols)) + 1 >= SCIENCE_SUPREMACY:
            out.append(ended(state, out, "science", (seat,)))
            return out
    return turn_end(state, seat, out, state.present, state.again, state.pawn)


def destroy_card(state: State, seat: int, cmd: DestroyCard) -> Events | Rejection:
    bad = _pending(state, "destroy")
    if bad is not None:
        return bad
    assert state.pending is not None
    if cmd.card not in state.pending.options:
        return Rejection("option_not_offered", f"{CATALOG.name(str(cmd.card))} is not a card you may discard")
    out: Events = [CardDestroyed(seat=seat, card=cmd.card)]
    return turn_end(state, seat, out, state.present, state.again, state.pawn)


def build_from_discard(state: State, seat: int, cmd: BuildFromDiscard) -> Events | Rejection:
    """The Mausoleum: free, no chain, so no Urbanism coins (§15 #7); every other effect."""
    bad = _pending(state, "mausoleum")
    if bad is not None:
        return bad
    assert state.pending is not None
    if cmd.card not in state.pending.options:
        return Rejection("option_not_offered", f"{CATALOG.name(str(cmd.card))} is not in the discard pile")
    city, opp = state.cities[seat], state.cities[1 - seat]
    spec = SPEC[cmd.card]
    out: Events = [CardBuilt(seat=seat, card=cmd.card, position=-1, via="discard_pile",
                             gained=income(spec, city, opp))]
    pawn = construction_effects(state, seat, spec, profile(city.cards).symbols, opp.coins, out)
    if pawn is None:
        return out
    return turn_end(state, seat, out, state.present, state.again, pawn)


def choose_start_player(state: State, seat: int, cmd: ChooseStartPlayer) -> Events | Rejection:
    bad = _pending(state, "choose_start")
    if bad is not None:
        return bad
    if cmd.start not in ("me", "opponent"):
        return Rejection("bad_choice", "choose 'me' or 'opponent'")
    return [AgeStarted(age=state.age + 1, seat=seat if cmd.start == "me" else 1 - seat, chosen_by=seat)]
