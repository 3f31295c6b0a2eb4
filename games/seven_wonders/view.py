"""What a seat (or a spectator) may see, and a compact text rendering of it.

Public: boards, structures, stage counts, coins, conflict tokens, hand sizes, who has
chosen. Private to a seat: its hand and its own choice of this turn. Never shown: other
hands, other choices before the reveal, the cards tucked under wonder stages, the
discard pile's contents (except to Halicarnassus while it picks from it), future deals.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

import msgspec

from games.contract import Result
from games.seven_wonders.boards import BOARDS, EXTRA
from games.seven_wonders.catalog import CATALOG
from games.seven_wonders.edifice import EDIFICE
from games.seven_wonders.events import Play
from games.seven_wonders.commands import GiveUp, ReturnTokens
from games.seven_wonders.notation import format_command
from games.seven_wonders.rules import choosing_penalties, free_city, holder, owing, slot, to_act
from games.seven_wonders.scoring import result, shields
from games.seven_wonders.state import State
from games.words import count


class CityView(msgspec.Struct, frozen=True, kw_only=True):
    """A city as everybody sees it."""

    seat: int
    wonder: str
    side: str
    coins: int
    built: tuple[str, ...]
    stages: int
    stages_total: int
    tokens: tuple[int, ...]
    shields: int
    hand_size: int
    chosen: bool
    # Edifice only (unset, so absent, without it): the Ages whose edifice it holds a pawn
    # of, the completed edifices it holds (rewards), its debt tokens
    joined: tuple[int, ...] | msgspec.UnsetType = msgspec.UNSET
    rewards: tuple[str, ...] | msgspec.UnsetType = msgspec.UNSET
    debts: tuple[int, ...] | msgspec.UnsetType = msgspec.UNSET
    stage_options: tuple[int, ...] | msgspec.UnsetType = msgspec.UNSET  # Ur / Carthage: alternatives picked
    box_pawns: tuple[int, ...] | msgspec.UnsetType = msgspec.UNSET  # Ur: Ages of its box pawns


class EdificeView(msgspec.Struct, frozen=True, kw_only=True):
    """The three edifices, open information from the start (Edifice §3)."""

    cards: tuple[str, ...]  # [age-1] -> edifice id
    pawns: tuple[int, ...]  # pawns left on each card
    status: tuple[str, ...]  # project, completed or failed


class View(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's view of the game (`seat` None: a spectator)."""

    game: str = "seven_wonders"
    seat: int | None
    players: int
    phase: str
    age: int
    turn: int
    to_act: tuple[int, ...]
    cities: tuple[CityView, ...]
    discard_size: int
    hand: tuple[str, ...] | None = None
    choice: Play | None = None
    pending: str | None = None
    pending_city: int | None = None
    free_city: int | None = None  # the Free City's index in the 2-player variant (§12)
    holder: int | None = None  # who holds the Free City card this turn
    free_city_choice: Play | None = None  # shown to the holder only, until the reveal
    # Edifice: the seat's own penalty choice while others choose (B6); absent otherwise, so
    # that every other view document is byte for byte what it was (stored views verify)
    penalty_choice: str | msgspec.UnsetType = msgspec.UNSET
    discard: tuple[str, ...] | None = None
    result: Result | None = None
    choices: tuple[str, ...] = ()
    edifices: EdificeView | msgspec.UnsetType = msgspec.UNSET


def view(state: State, seat: int | None) -> View:
    """The view of `seat` (None = spectator); it never contains another seat's secrets."""
    return _seat_view(state, seat, _public(state))


def views(state: State, seats: Sequence[int | None]) -> list[View]:
    """`[view(state, s) for s in seats]`, the public part (cities, shields, the result)
    computed once for all of them: what the projector writes at every step."""
    public = _public(state)
    return [_seat_view(state, s, public) for s in seats]


class _Public(NamedTuple):
    """What every audience's view shares."""

    cities: tuple[CityView, ...]
    to_act: tuple[int, ...]
    free_city: int | None
    holder: int | None
    result: Result | None
    edifices: EdificeView | msgspec.UnsetType


def _public(state: State) -> _Public:
    fc = free_city(state)
    ed = bool(state.edifices)
    unset = msgspec.UNSET
    cities = tuple(
        CityView(
            seat=i, wonder=c.wonder, side=c.side, coins=c.coins, built=c.built, stages=c.stages,
            stages_total=len(BOARDS[c.wonder].sides[c.side].stages), tokens=c.tokens,
            shields=shields(c), hand_size=len(state.hands[i]) if state.hands else 0,
            chosen=bool(state.chosen) and state.chosen[i] is not None,
            joined=c.joined if ed else unset, rewards=c.rewards if ed else unset, debts=c.debts if ed else unset,
            stage_options=c.stage_options if c.wonder in EXTRA else unset,
            box_pawns=c.box_pawns if ed else unset,
        )
        for i, c in enumerate(state.cities)
    )
    return _Public(
        cities=cities, to_act=to_act(state), free_city=fc,
        holder=holder(state) if fc is not None and state.phase == "choose" else None,
        result=result(state),
        edifices=EdificeView(cards=state.edifices, pawns=state.pawns, status=state.edifice_status) if ed else unset)


def _seat_view(state: State, seat: int | None, public: _Public) -> View:
    mine = seat is not None and 0 <= seat < state.players
    own = mine and state.pending is not None and state.pending.seat == seat
    pending = state.pending.kind if own else None  # type: ignore[union-attr]
    if mine and choosing_penalties(state):
        # every seat owing a penalty chooses at once; what others chose stays hidden (B6)
        pending = "edifice_penalty" if seat in owing(state) else None
    fc, holds = public.free_city, public.holder
    unset = msgspec.UNSET
    return View(
        seat=seat if mine else None,
        players=state.players,
        phase=state.phase,
        age=state.age,
        turn=state.turn,
        to_act=public.to_act,
        cities=public.cities,
        discard_size=len(state.discard),
        # the cards the seat decides on: its hand, or the Free City's last card when the
        # controller plays it (Babylon B, §15 #16)
        hand=tuple(sorted(state.hands[slot(state, seat)[2] if own else seat])) if mine and state.hands else None,
        choice=state.chosen[seat] if mine and state.chosen else None,
        pending=pending,
        pending_city=(state.pending.city if own else None),  # type: ignore[union-attr]
        free_city=fc,
        holder=holds,
        free_city_choice=state.chosen[fc] if fc is not None and holds == seat and mine and state.chosen else None,
        penalty_choice=next((_penalty_text(card, tokens) for s, card, tokens in state.picks if s == seat), unset)
        if mine else unset,
        # Halicarnassus looks through the whole pile while it picks (§11.7)
        discard=tuple(sorted(state.discard)) if pending == "discard_build" else None,
        result=public.result,
        choices=state.choices,
        edifices=public.edifices,
    )


def _penalty_text(card: str | None, tokens: tuple[int, ...]) -> str:
    """A penalty choice in the notation the seat sent it in."""
    return format_command(GiveUp(card=CATALOG.key[card]) if card is not None else ReturnTokens(tokens=list(tokens)))


def facet_text(facet: str, value: str) -> str:
    """A statistics facet's value in `render`'s words: a wonder by its board's name
    ("alexandria" -> "Alexandria", board "alexandria_B" -> "Alexandria B")."""
    if facet == "wonder" and value in BOARDS:
        return BOARDS[value].name
    wonder, _, side = value.rpartition("_")
    if facet == "board" and wonder in BOARDS:
        return f"{BOARDS[wonder].name} {side}"
    return value


def _names(ids: tuple[str, ...]) -> str:
    return ", ".join(CATALOG.cards[c].name for c in ids) or "-"


def render(v: View) -> str:
    """A few lines for a terminal or a chat message."""
    who = "spectator" if v.seat is None else f"seat {v.seat}"
    head = f"7 Wonders · {v.players} players · " + (
        "game over" if v.phase == "over" else f"Age {'I' * v.age if v.age < 4 else v.age} turn {v.turn}"
    ) + f" · {who}"
    lines = [head.replace("Age III", "Age III").replace("Age IIII", "Age IV")]
    lines += _cities_text(v.cities, v.free_city, v.to_act, v.edifices)
    lines.append(f"discard pile: {count(v.discard_size, 'card')}")
    if v.hand is not None:
        lines.append(f"your hand: {_names(v.hand)}")
    if v.choice is not None:
        lines.append(f"your choice: {v.choice.action} {CATALOG.cards[v.choice.card].name}"
                     + (f", option {v.choice.option}" if isinstance(v.choice.option, int) else "")
                     + (", joining the edifice" if v.choice.join is True else ""))
    if v.holder is not None and v.holder == v.seat:
        lines.append("you hold the Free City card: choose your card, then one for the Free City")
    if v.free_city_choice is not None:
        lines.append(f"Free City's choice: {v.free_city_choice.action} {CATALOG.cards[v.free_city_choice.card].name}")
    if v.pending == "seventh_card":
        lines.append("you may play the Free City's last card (Babylon)" if v.pending_city is not None
                     else "you may play your last card (Babylon)")
    if v.discard is not None:
        lines.append(f"you may build one card of the discard pile for free: {_names(v.discard)}")
    if v.pending == "edifice_penalty":
        lines.append("the edifice failed: give up a card of its colour, or return victory tokens (see legal commands)")
    if v.penalty_choice is not msgspec.UNSET:
        lines.append(f"your penalty choice: {v.penalty_choice} (paid once every penalised city has chosen)")
    if v.result is not None:
        lines += _scores_text(v.result)
    return "\n".join(lines)


# Every audience's view of a step shares its cities and result (`views`): their lines are
# made once and remembered for the few views rendered next (a memo of a pure function).
@lru_cache(maxsize=16)
def _cities_text(cities: tuple[CityView, ...], free_city: int | None, acting: tuple[int, ...],
                 edifices: EdificeView | msgspec.UnsetType) -> tuple[str, ...]:
    """The lines of the cities (and of the edifices, with Edifice)."""
    lines = []
    for c in cities:
        if c.seat == free_city:
            lines.append(f"Free City (not a player; its pile holds {count(c.hand_size, 'card')}):")
        toks = " ".join(f"{t:+d}" for t in c.tokens) or "-"
        mark = " ✓chosen" if c.chosen else (" …to act" if c.seat in acting else "")
        lines.append(
            f"[{c.seat}] {BOARDS[c.wonder].name} {c.side}: {count(c.coins, 'coin')}, stages {c.stages}/{c.stages_total}, "
            f"shields {c.shields}, tokens {toks}{mark}"
        )
        lines.append(f"    {_names(c.built)}")
        if edifices:
            parts = []
            if c.joined or c.box_pawns:
                parts.append("pawns of Age " + ", ".join(str(a) for a in c.joined)
                             + ("" if not c.box_pawns else (" " if c.joined else "") + "(box: "
                                + ", ".join(str(a) for a in c.box_pawns) + ")"))
            if c.rewards:
                parts.append("rewards " + ", ".join(EDIFICE.cards[r].name for r in c.rewards))
            if c.debts:
                parts.append("debts " + " ".join(str(d) for d in c.debts))
            if parts:
                lines.append("    " + "; ".join(parts))
    if edifices:
        parts = [f"{EDIFICE.cards[e].name} ({'I' * a}: " + (f"{count(p, 'pawn')} left" if st == "project" else st) + ")"
                 for a, (e, p, st) in enumerate(zip(edifices.cards, edifices.pawns, edifices.status), 1)]
        lines.append("edifices: " + ", ".join(parts))
    return tuple(lines)


@lru_cache(maxsize=16)
def _scores_text(res: Result) -> tuple[str, ...]:
    cats = " ".join(c[:4] for c in res.categories)
    lines = [f"scores ({cats}):"]
    for s, (row, tot) in enumerate(zip(res.scores, res.totals)):
        win = " winner" if s in res.winners else ""
        lines.append(f"  [{s}] {' '.join(str(x) for x in row)} = {tot}{win}")
    return tuple(lines)
