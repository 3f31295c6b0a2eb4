"""What a seat can ask for in Arkadia (§5, §7.1, §11.1).

A turn is a short sequence of commands by the active seat: the mandatory action
(`PlaceBuilding` or `PlaceWorkers`), one `PlaceCastlePiece` per completed building, the
hand refill after a building (`TakeCard` from the display or `DrawCard`), then the
optional banner (`UseBanner`, with its exchange) or `EndTurn`. Cards are named by form and
seal (cards with both equal are interchangeable); cells are `(x, y)` (board.py).
"""

from __future__ import annotations

from events.base import Command

Cell = tuple[int, int]


class PlaceBuilding(Command, tag="place_building"):
    """Action A (§5.1): play a card of this form and seal and lay its tile with its anchor
    (first covered cell in reading order) on `anchor`, turned `rotation` quarter turns
    clockwise (0..3; 4..7 mirrored first, only when mirroring is allowed)."""

    form: str
    seal: str
    anchor: Cell
    rotation: int = 0


class PlaceWorkers(Command, tag="place_workers"):
    """Action B (§5.2): own and neutral workers from behind the screen, on vacant cells
    next to the one building `building` (its number, in order of placement from 0)."""

    building: int
    own: tuple[Cell, ...] = ()
    neutral: tuple[Cell, ...] = ()


class PlaceCastlePiece(Command, tag="place_castle_piece"):
    """One castle piece owed for a completed building (§7.1): a piece of `colour` from the
    pool of the floor being built, on castle square `square` (0..9)."""

    colour: str
    square: int


class TakeCard(Command, tag="take_card"):
    """Refill the hand (§5.1 step 7) with an open card of this form and seal."""

    form: str
    seal: str


class DrawCard(Command, tag="draw_card"):
    """Refill the hand (§5.1 step 7) with the top card of the draw pile."""


class UseBanner(Command, tag="use_banner"):
    """Return an architect banner, take 2 own workers and exchange the named numbers of
    seals for gold at the current values (§5.3). All zero: the banner without an exchange."""

    red: int = 0
    olive: int = 0
    black: int = 0
    silver: int = 0


class EndTurn(Command, tag="end_turn"):
    """End the turn without using a banner (§5.3 is optional)."""


Command_ = PlaceBuilding | PlaceWorkers | PlaceCastlePiece | TakeCard | DrawCard | UseBanner | EndTurn
ArkadiaCommand = Command_
