"""The state of a 7 Wonders Duel game: nothing but the fold of its events."""

from __future__ import annotations

from typing import ClassVar, Literal

import msgspec

from games.seven_wonders_duel.events import Kind, Options, Victory


class City(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A seat's city (§1): coins, buildings, wonders and progress tokens."""

    coins: int = 7
    cards: tuple[str, ...] = ()  # buildings, in construction order
    wonders: tuple[str, ...] = ()  # drafted and not built (yet)
    built: tuple[str, ...] = ()  # wonders built, in order
    tucked: tuple[str, ...] = ()  # the cards under the built wonders
    tokens: tuple[str, ...] = ()  # progress tokens


class Pending(msgspec.Struct, frozen=True, gc=False):
    """An open decision that interrupts play: its owner, kind and options (§8, §9, §12)."""

    seat: int
    kind: Kind
    options: tuple[str, ...] = ()


Phase = Literal["new", "draft", "play", "over"]


class State(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Everything the rules need. Built only by `evolve`."""

    players: ClassVar[int] = 2  # the contract's guards read it (games.contract.guarded)
    phase: Phase = "new"
    options: Options = Options()
    first: int = 0
    draft: tuple[str, ...] = ()
    picks: int = 0  # wonders drafted so far
    age: int = 0
    structures: tuple[tuple[str, ...], ...] = ()
    removed: tuple[tuple[str, ...], ...] = ()
    guilds: tuple[str, ...] = ()
    present: int = 0  # bit p: position p of the current structure still holds its card
    face_up: int = 0  # bit p: position p is face up
    current: int = -1  # the seat whose turn it is
    cities: tuple[City, ...] = ()
    pawn: int = 0  # §1: + toward seat 1's capital
    military_tokens: tuple[int, ...] = (-6, -3, 3, 6)
    board_tokens: tuple[str, ...] = ()
    box_tokens: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    pending: Pending | None = None
    again: bool = False  # the action being resolved grants an extra turn
    last: int = -1  # the seat that took the last card taken
    wonders_out: tuple[str, ...] = ()
    victory: Victory | None = None
    winners: tuple[int, ...] = ()
    categories: tuple[str, ...] = ()
    scores: tuple[tuple[int, ...], ...] = ()
    blue: tuple[int, ...] = ()
    rules_version: int = 1  # of the game's log (GameCreated): how its facts are applied


INITIAL = State()
