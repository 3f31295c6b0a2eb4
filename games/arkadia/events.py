"""The facts of an Arkadia game.

These tags and fields are the storage format; change them only as the versioning policy
in `events/README.md` allows. Events carry their outcomes (cells covered, neutral workers
gained, payouts per seat, castle pieces owed, leftover moves, exchanges with the values
used, final scores), so `evolve` never re-applies a rule. Seals and pools are vectors in
the family order red, olive, black, silver (catalog.SEALS).
"""

from __future__ import annotations

from typing import ClassVar, Literal

import msgspec

from events.base import Event
from games.arkadia.catalog import CATALOG

Cell = tuple[int, int]
Vec4 = tuple[int, int, int, int]


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Game options (§11.1). `lot`: "default" (the default, §3 and §15: the rules'
    recommended [6, 4] landscape) or "random" (drawn from the seed within the data's central
    area; a variation one review mentions, §3 [S]).
    `mirror_allowed`: may tiles be mirrored (§2.1, default from the data: no)."""

    players: int = 2
    lot: Literal["random", "default"] = "default"
    mirror_allowed: bool = CATALOG.mirror_allowed


class Lot(msgspec.Struct, frozen=True, kw_only=True):
    """Where the castle lot lies: its top-left cell and its orientation (§3)."""

    x: int
    y: int
    orientation: Literal["landscape", "portrait"]


class GameCreated(Event, tag="game_created"):
    """Setup (§4): lot position, start seat, hands, the three open cards and the draw pile
    (top first), all written out."""

    version: ClassVar[int] = 1
    options: Options
    lot: Lot
    start: int
    hands: tuple[tuple[str, ...], ...]
    display: tuple[str, ...]
    pile: tuple[str, ...]
    rules_version: int
    catalog_hash: str
    rng: str


class BuildingPlaced(Event, tag="building_placed"):
    """Action A (§5.1): `card` played, its tile laid on `cells` with a `seal` token on it;
    `neutral` neutral workers taken for the `tents` tent camps it covers."""

    version: ClassVar[int] = 1
    seat: int
    building: int
    card: str
    form: str
    seal: str
    rotation: int
    anchor: Cell
    cells: tuple[Cell, ...]
    tents: int
    neutral: int


class WorkersPlaced(Event, tag="workers_placed"):
    """Action B (§5.2): workers put next to building `building`."""

    version: ClassVar[int] = 1
    seat: int
    building: int
    own: tuple[Cell, ...]
    neutral: tuple[Cell, ...]


class BuildingCompleted(Event, tag="building_completed"):
    """A building is enclosed (§6): `payouts[seat]` seals of `seal` for its workers next to
    it, the token to `token` (the active seat); `piece`: a castle piece is owed for it."""

    version: ClassVar[int] = 1
    building: int
    seal: str
    payouts: tuple[int, ...]
    token: int
    piece: bool


class CastlePiecePlaced(Event, tag="castle_piece_placed"):
    """A castle piece of `colour` from the floor-`floor` pool put on castle square `square` (§7.1)."""

    version: ClassVar[int] = 1
    seat: int
    colour: str
    square: int
    floor: int


class FloorCompleted(Event, tag="floor_completed"):
    """Floor `floor` holds 10 pieces: its `leftovers` move to the floor-3 pool (§7.1)."""

    version: ClassVar[int] = 1
    floor: int
    leftovers: tuple[str, ...]


class FinalRoundStarted(Event, tag="final_round_started"):
    """The 10th floor-2 piece is placed by `seat` (§8): `turns` more turn ends, this one
    included, before the final exchange (every seat one more turn, `seat` last)."""

    version: ClassVar[int] = 1
    seat: int
    turns: int


class CardTaken(Event, tag="card_taken"):
    """Hand refill (§5.1 step 7): `card` from the display or the deck; `revealed` is the
    card turned face up from the pile into the display (None if none)."""

    version: ClassVar[int] = 1
    seat: int
    card: str
    source: Literal["display", "deck"]
    revealed: str | None = None


class BannerUsed(Event, tag="banner_used"):
    """A banner returned (§5.3): `workers` own workers taken from the pool, `exchanged`
    seals per family returned for `gold` at `values`."""

    version: ClassVar[int] = 1
    seat: int
    workers: int
    exchanged: Vec4
    values: Vec4
    gold: int


class ActionSkipped(Event, tag="action_skipped"):
    """`seat` has no legal action A or B and skips part 1 of its turn (§8 [R])."""

    version: ClassVar[int] = 1
    seat: int


class TurnEnded(Event, tag="turn_ended"):
    """`seat`'s turn is over; `next` is to act (clockwise, §4)."""

    version: ClassVar[int] = 1
    seat: int
    next: int


class GameEnded(Event, tag="game_ended"):
    """The final exchange (§8): every seat's seals at the final `values`; scores per
    category (gold before the exchange, then one per family). `reason`: "castle" (the
    final round is over) or "stalemate" (a full round without a mandatory action, §8 [R])."""

    version: ClassVar[int] = 1
    reason: Literal["castle", "stalemate"]
    values: Vec4
    exchanged: tuple[Vec4, ...]
    categories: tuple[str, ...]
    scores: tuple[tuple[int, ...], ...]


ArkadiaEvent = (
    GameCreated | BuildingPlaced | WorkersPlaced | BuildingCompleted | CastlePiecePlaced | FloorCompleted
    | FinalRoundStarted | CardTaken | BannerUsed | ActionSkipped | TurnEnded | GameEnded
)
