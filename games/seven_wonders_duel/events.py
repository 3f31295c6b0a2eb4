"""The facts of a 7 Wonders Duel game.

These tags and fields are the storage format; change them only as the versioning policy
in `events/README.md` allows. Events carry their outcomes (payments, coins gained and
lost, reveals, the pawn's new position, tokens drawn, scores), so `evolve` never
re-applies a rule. Seats are 0 and 1; `GameCreated.first` is the seat of P1 (§1).
"""

from __future__ import annotations

from typing import ClassVar, Literal

import msgspec

from events.base import Event

Kind = Literal["progress_token", "great_library", "destroy", "mausoleum", "choose_start"]
Victory = Literal["military", "science", "civilian"]


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Game options: the wonder draft (§3 step 7) or the first-game fixed wonders."""

    players: int = 2
    wonders: Literal["draft", "first_game"] = "draft"


class GameCreated(Event, tag="game_created", gc=False):
    """Setup (§3): every random outcome written out.

    `draft`: the 8 wonders in reveal order (round 1 = the first 4); `board_tokens`: the 5
    progress tokens on the board; `box_tokens`: the other 5 in the order The Great
    Library would draw them; `structures[age-1][position]`: the card dealt to each of the
    20 positions of §4; `removed[age-1]`: the 3 cards returned to the box unseen;
    `guilds`: the 3 guilds shuffled into Age III."""

    version: ClassVar[int] = 1
    options: Options
    first: int
    draft: tuple[str, ...]
    board_tokens: tuple[str, ...]
    box_tokens: tuple[str, ...]
    structures: tuple[tuple[str, ...], ...]
    removed: tuple[tuple[str, ...], ...]
    guilds: tuple[str, ...]
    rules_version: int
    catalog_hash: str
    rng: str


class WonderDrafted(Event, tag="wonder_drafted", gc=False):
    """A seat took a wonder in the draft (or was dealt it in a first game)."""

    version: ClassVar[int] = 1
    seat: int
    wonder: str


class AgeStarted(Event, tag="age_started", gc=False):
    """The age's structure is laid out; `seat` takes the first turn (§9). `chosen_by` is
    the seat that chose it (None for Age I)."""

    version: ClassVar[int] = 1
    age: int
    seat: int
    chosen_by: int | None = None


class CardBuilt(Event, tag="card_built", gc=False):
    """A building was constructed (§5 A; The Mausoleum: `via` "discard_pile", `position`
    -1). `paid`: coins the seat paid in total; `to_opponent`: the part of it that went to
    the opponent (Economy, §6.6); `gained`: coins the seat received (card effects,
    Urbanism)."""

    version: ClassVar[int] = 1
    seat: int
    card: str
    position: int
    via: Literal["cost", "chain", "discard_pile"]
    paid: int = 0
    to_opponent: int = 0
    gained: int = 0


class CardDiscarded(Event, tag="card_discarded", gc=False):
    """A card went to the discard pile for `gained` coins (§5 B)."""

    version: ClassVar[int] = 1
    seat: int
    card: str
    position: int
    gained: int


class WonderBuilt(Event, tag="wonder_built", gc=False):
    """A wonder was constructed with `card` tucked under it (§5 C). `opponent_lost`: the
    coins the opponent actually lost (The Appian Way)."""

    version: ClassVar[int] = 1
    seat: int
    wonder: str
    card: str
    position: int
    paid: int = 0
    to_opponent: int = 0
    gained: int = 0
    opponent_lost: int = 0
    extra_turn: bool = False  # the wonder grants an extra turn (its own effect or Theology)


class WonderRemoved(Event, tag="wonder_removed", gc=False):
    """The 7th wonder was built: the last unbuilt one leaves the game (§5, §15 #22)."""

    version: ClassVar[int] = 1
    seat: int
    wonder: str


class CardsRevealed(Event, tag="cards_revealed", gc=False):
    """Face-down cards that became accessible are turned face up (§4)."""

    version: ClassVar[int] = 1
    age: int
    positions: tuple[int, ...]
    cards: tuple[str, ...]


class PawnMoved(Event, tag="pawn_moved", gc=False):
    """`seat` gained `shields`: the pawn is now at `position` (+ toward seat 1's capital);
    `tokens` are the military tokens it took (their signed zone start), for which the
    opponent lost `lost` coins (§7)."""

    version: ClassVar[int] = 1
    seat: int
    shields: int
    position: int
    tokens: tuple[int, ...] = ()
    lost: int = 0


class DecisionOpened(Event, tag="decision_opened", gc=False):
    """`seat` owes a decision among `options` (§8, §9, §12). For "great_library" the
    options are the 3 tokens drawn from the box."""

    version: ClassVar[int] = 1
    seat: int
    kind: Kind
    options: tuple[str, ...] = ()


class ProgressTokenTaken(Event, tag="progress_token_taken", gc=False):
    """A progress token joined `seat`'s city from the board or the box (§8, §13), with the
    coins it gave; `returned`: the drawn tokens that go back to the box for good."""

    version: ClassVar[int] = 1
    seat: int
    token: str
    source: Literal["board", "box"]
    gained: int = 0
    returned: tuple[str, ...] = ()


class CardDestroyed(Event, tag="card_destroyed", gc=False):
    """`seat` discarded `card` from the opponent's city (Circus Maximus, Statue of Zeus)."""

    version: ClassVar[int] = 1
    seat: int
    card: str


class TurnStarted(Event, tag="turn_started", gc=False):
    """`seat` takes the next turn; `extra` when it is an extra turn (§5)."""

    version: ClassVar[int] = 1
    seat: int
    extra: bool = False


class GameEnded(Event, tag="game_ended", gc=False):
    """The game is over (§7, §8, §10): how, who won, and the score sheet at that moment
    (`scores[seat]` in `categories` order; `blue` is the tie-breaker)."""

    version: ClassVar[int] = 1
    victory: Victory
    winners: tuple[int, ...]
    categories: tuple[str, ...]
    scores: tuple[tuple[int, ...], ...]
    blue: tuple[int, ...]


SevenWondersDuelEvent = (
    GameCreated | WonderDrafted | AgeStarted | CardBuilt | CardDiscarded | WonderBuilt | WonderRemoved
    | CardsRevealed | PawnMoved | DecisionOpened | ProgressTokenTaken | CardDestroyed | TurnStarted | GameEnded
)
