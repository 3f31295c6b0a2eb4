"""The state of a 7 Wonders game: nothing but the fold of its events."""

from __future__ import annotations

from typing import Literal

import msgspec

from games.seven_wonders.events import Due, Options, Play


class City(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A seat's city (§0): board, structures, stages, coins and conflict tokens."""

    wonder: str
    side: str
    coins: int = 3
    built: tuple[str, ...] = ()  # card ids, in build order
    stages: int = 0
    stage_cards: tuple[str, ...] = ()  # the cards tucked under the board (hidden)
    tokens: tuple[int, ...] = ()
    free_build_age: int = 0  # the age in which Olympia A's free build was last used
    # Edifice (all empty without it)
    joined: tuple[int, ...] = ()  # the Ages whose edifice this city holds a pawn of
    rewards: tuple[str, ...] = ()  # completed edifices it holds a pawn of: their lasting
    # rewards (shields, production, end-game VP) are read from the catalog (Edifice §9.1)
    debts: tuple[int, ...] = ()  # debt tokens (negative VP, §11)
    box_pawns: tuple[int, ...] = ()  # Ur: Ages of the pawns taken from the box (Edifice §12.2, P)
    stage_options: tuple[int, ...] = ()  # Ur/Carthage: per built stage, the alternative picked (0: none offered)


Phase = Literal["new", "choose", "resolving", "over"]


class State(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Everything the rules need. Built only by `evolve`."""

    phase: Phase = "new"
    options: Options = Options()
    players: int = 0
    age: int = 0
    turn: int = 0
    deals: tuple[tuple[tuple[str, ...], ...], ...] = ()
    hands: tuple[tuple[str, ...], ...] = ()
    cities: tuple[City, ...] = ()
    discard: tuple[str, ...] = ()
    chosen: tuple[Play | None, ...] = ()
    due: tuple[Due, ...] = ()
    pending: Due | None = None
    picks: tuple[tuple[int, str | None, tuple[int, ...]], ...] = ()
    """Edifice penalties chosen so far (seat, card, tokens), hidden until all are in (B6)."""
    last_discarded: bool = False
    scores: tuple[tuple[int, ...], ...] = ()
    categories: tuple[str, ...] = ()
    final_coins: tuple[int, ...] = ()
    choices: tuple[str, ...] = ()
    edifices: tuple[str, ...] = ()  # Edifice: [age-1] -> edifice id (empty: not played)
    pawns: tuple[int, ...] = ()  # [age-1] -> pawns left on that card
    edifice_status: tuple[str, ...] = ()  # [age-1] -> "project", "completed" or "failed"


INITIAL = State()
