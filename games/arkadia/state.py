"""The state of an Arkadia game: nothing but the fold of its events."""

from __future__ import annotations

from typing import Literal

import msgspec

from games.arkadia.events import Lot, Options

Cell = tuple[int, int]
Vec4 = tuple[int, int, int, int]


class Building(msgspec.Struct, frozen=True, kw_only=True):
    """A tile on the board (§3): its number, card, form, family, cells, who laid it and
    whether it is completed (then its seal token is gone)."""

    id: int
    card: str
    form: str
    seal: str
    cells: tuple[Cell, ...]
    seat: int
    completed: bool = False


class Worker(msgspec.Struct, frozen=True):
    """A worker on the board: its cell and its owner (a seat, or -1 for neutral)."""

    cell: Cell
    owner: int


class Screen(msgspec.Struct, frozen=True, kw_only=True):
    """What a seat holds behind its screen (hidden, §10), and its public banners."""

    hand: tuple[str, ...] = ()
    workers: int = 0
    neutral: int = 0
    seals: Vec4 = (0, 0, 0, 0)
    gold: int = 0
    banners: int = 0


Phase = Literal["new", "play", "over"]
Acted = Literal["", "build", "workers", "skip"]


class State(msgspec.Struct, frozen=True, kw_only=True):
    """Everything the rules need. Built only by `evolve`."""

    phase: Phase = "new"
    options: Options = Options()
    players: int = 0
    lot: Lot = Lot(x=0, y=0, orientation="landscape")
    start: int = 0
    active: int = 0
    turn: int = 0
    screens: tuple[Screen, ...] = ()
    pool: tuple[int, ...] = ()  # own workers of each seat's colour in the general pool
    pool_neutral: int = 0
    display: tuple[str, ...] = ()
    pile: tuple[str, ...] = ()  # top first
    discard: tuple[str, ...] = ()
    buildings: tuple[Building, ...] = ()
    workers: tuple[Worker, ...] = ()
    castle: tuple[tuple[str, ...], ...] = ()  # per castle square, the colours of its pieces, bottom up
    pools: tuple[Vec4, ...] = ()  # castle pools of floors 1..3
    # the turn in progress
    acted: Acted = ""
    owed: int = 0  # castle pieces still to place this turn
    skips: int = 0  # consecutive turns without a mandatory action
    trigger: int = -1  # the seat that placed the 10th floor-2 piece
    final_turns: int = 0  # turn ends left in the final round (when trigger >= 0)
    # the end
    reason: str = ""
    values: Vec4 = (0, 0, 0, 0)
    categories: tuple[str, ...] = ()
    scores: tuple[tuple[int, ...], ...] = ()


INITIAL = State()
