"""The facts of a 7 Wonders game.

These tags and fields are the storage format; change them only as the versioning policy
in `events/README.md` allows. Events carry their outcomes (payments, income, tokens,
scores), so `evolve` never re-applies a rule.
"""

from __future__ import annotations

from typing import ClassVar, Literal

import msgspec

from events.base import Event

Via = Literal["resources", "chain", "free_build", "discard_pile", ""]
Action = Literal["build", "stage", "discard"]
DueKind = Literal["seventh_card", "discard_build", "edifice_penalty"]


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Game options. `players`: 3-7, or 2 for the Free City variant (§12). `sides`: how
    boards are dealt: "random" per player, all "A" or all "B"."""

    players: int = 3
    sides: Literal["random", "A", "B"] = "random"
    # The Edifice expansion (3-7 players). Unset is omitted when encoded, so the games
    # without it keep their exact stored bytes.
    edifice: bool | msgspec.UnsetType = msgspec.UNSET
    # Also deal Edifice's Carthage (and, with `edifice`, Ur): placeholder boards (P)
    placeholder_boards: bool | msgspec.UnsetType = msgspec.UNSET

    @property
    def with_edifice(self) -> bool:
        return self.edifice is True


class WonderPick(msgspec.Struct, frozen=True, gc=False):
    """The board and side a seat plays (§2.4)."""

    wonder: str
    side: Literal["A", "B"]


class Play(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One seat's resolved action: which card, what for, and what it paid to whom."""

    seat: int  # the city that plays (in the 2-player variant, 2 is the Free City)
    card: str  # a card id
    action: Action
    left: int = 0  # coins sent to the left neighbour for purchases
    right: int = 0  # coins sent to the right neighbour
    bank: int = 0  # coins paid to the bank (a brown card's 1-coin cost)
    via: Via = ""
    hand: int | None = None  # whose hand the card came from, when not the city's own
    join: bool | msgspec.UnsetType = msgspec.UNSET  # Edifice: takes part in the Age's edifice (§4)
    option: int | msgspec.UnsetType = msgspec.UNSET  # Carthage: the alternative picked; Ur: its pawn's Age


class Due(msgspec.Struct, frozen=True, gc=False):
    """A decision the end of this turn owes a seat (§7 steps 6-7)."""

    seat: int  # who decides
    kind: DueKind
    city: int | None = None  # for which city, when not the seat's own (the Free City, §12)


class GameCreated(Event, tag="game_created"):
    """Setup (§2): boards and sides, and the full deal of every age, written out."""

    version: ClassVar[int] = 1
    options: Options
    wonders: tuple[WonderPick, ...]
    deals: tuple[tuple[tuple[str, ...], ...], ...]  # [age-1][city] -> 7 card ids (Free City: its pile, top first)
    rules_version: int
    catalog_hash: str
    rng: str


class AgeStarted(Event, tag="age_started"):
    """The age's deal goes to the hands (§3)."""

    version: ClassVar[int] = 1
    age: int


class CardChosen(Event, tag="card_chosen"):
    """A seat committed its card and action; hidden from the others until the reveal."""

    version: ClassVar[int] = 1
    play: Play


class TurnResolved(Event, tag="turn_resolved"):
    """All choices revealed and resolved together (§7 steps 3-5). `coins` is each seat's
    net change (payments out, purchases received, one-time income)."""

    version: ClassVar[int] = 1
    age: int
    turn: int
    plays: tuple[Play, ...]
    coins: tuple[int, ...]
    due: tuple[Due, ...] = ()


class LastCardsDiscarded(Event, tag="last_cards_discarded"):
    """Turn 6: the remaining card of each hand goes to the discard pile, no coins (§3).
    `cards[seat]` is None for a seat that keeps it (Babylon B stage 2)."""

    version: ClassVar[int] = 1
    cards: tuple[str | None, ...]


class DecisionOpened(Event, tag="decision_opened"):
    """A seat now owes the decision `kind` (Babylon B's 7th card, Halicarnassus)."""

    version: ClassVar[int] = 1
    seat: int
    kind: DueKind
    city: int | None = None


class FreeCityCardDrawn(Event, tag="free_city_card_drawn"):
    """2-player variant: the holder of the Free City card draws the top card of the Free
    City's pile into his hand (§12 "Choosing cards")."""

    version: ClassVar[int] = 1
    seat: int


class SeventhCardPlayed(Event, tag="seventh_card_played"):
    """Babylon B plays its last card of the age (§11.5), settled at once."""

    version: ClassVar[int] = 1
    play: Play
    coins: tuple[int, ...]


class DiscardBuilt(Event, tag="discard_built"):
    """Halicarnassus builds a card of the discard pile for free (§11.7)."""

    version: ClassVar[int] = 1
    seat: int
    card: str
    coins: tuple[int, ...]


class DiscardBuildSkipped(Event, tag="discard_build_skipped"):
    """Halicarnassus takes nothing: declined, or nothing in the pile it may build (§15 #7)."""

    version: ClassVar[int] = 1
    seat: int  # the city
    reason: Literal["declined", "nothing_eligible"]


class HandsPassed(Event, tag="hands_passed"):
    """Hands go to the neighbour: Age I and III left, Age II right (§3); in the 2-player
    variant the two players swap their hands and the Free City's pile stays (§12)."""

    version: ClassVar[int] = 1
    direction: Literal["left", "right", "swap"]


class MilitaryResolved(Event, tag="military_resolved"):
    """Conflicts at the end of an age (§8): tokens won or lost by each seat."""

    version: ClassVar[int] = 1
    age: int
    shields: tuple[int, ...]
    tokens: tuple[tuple[int, ...], ...]


class GameEnded(Event, tag="game_ended"):
    """Final scoring (§9) of every city (the Free City last) with the choices made for them
    (wildcards, Olympia copy)."""

    version: ClassVar[int] = 1
    categories: tuple[str, ...]
    scores: tuple[tuple[int, ...], ...]
    coins: tuple[int, ...]
    choices: tuple[str, ...]  # per seat, e.g. "wildcards: compass, tablet; copied: spies_guild"


class EdificesDrawn(Event, tag="edifices_drawn"):
    """Edifice setup (§3 steps 3-4): one edifice per Age, `pawns` pawns on each card (§10)."""

    version: ClassVar[int] = 1
    cards: tuple[str, ...]  # [age-1] -> edifice id
    pawns: int
    catalog_hash: str  # of seeds/seven_wonders/edifice.json


class EdificeJoined(Event, tag="edifice_joined"):
    """The seats that took part this turn, each with one pawn (§4 A5: from the card while
    any is left, then from the box); the card's pawns afterwards."""

    version: ClassVar[int] = 1
    age: int
    seats: tuple[int, ...]
    pawns_left: int


class EdificeCompleted(Event, tag="edifice_completed"):
    """The last pawn left the card (§5.1): every holder gets the reward once, at the end of
    the turn. `coins`, `tokens` (victory tokens gained) and `defeats_returned` per seat."""

    version: ClassVar[int] = 1
    age: int
    card: str
    holders: tuple[int, ...]
    coins: tuple[int, ...]
    tokens: tuple[tuple[int, ...], ...]
    defeats_returned: tuple[int, ...]


class EdificeFailed(Event, tag="edifice_failed"):
    """End of the Age with pawns left on the card (§5.2, B1-B6): what each non-holder paid
    at once (`coins`, negative; the card it had to `discard`; the victory `tokens_lost`),
    the debt token each took (`debts`: its value, 0 for none), and who still owes a choice
    (`owed`: which of several cards of the colour, or which victory tokens)."""

    version: ClassVar[int] = 1
    age: int
    card: str
    coins: tuple[int, ...]
    discard: tuple[str | None, ...]
    tokens_lost: tuple[tuple[int, ...], ...]
    debts: tuple[int, ...]
    owed: tuple[int, ...]


class EdificePawnTaken(Event, tag="edifice_pawn_taken"):
    """Ur (placeholder, Edifice §12.2): a stage gave the city a pawn of that Age's edifice from the
    box (a holder from now on; not a participation, no pawn off the card)."""

    version: ClassVar[int] = 1
    seat: int
    age: int


class EdificePenaltyChosen(Event, tag="edifice_penalty_chosen"):
    """A penalised seat's choice while others still owe theirs (§5.2 B6: the penalties are
    resolved simultaneously): kept hidden until every penalised seat has chosen, then paid
    by one `EdificePenaltyPaid` per seat."""

    version: ClassVar[int] = 1
    seat: int
    card: str | None = None
    tokens: tuple[int, ...] = ()


class EdificePenaltyPaid(Event, tag="edifice_penalty_paid"):
    """A penalised seat's choice (§5.2), paid: the card it discarded, or the tokens it
    returned. (Logs of rules version 1 open a decision per seat and pay each at once.)"""

    version: ClassVar[int] = 1
    seat: int
    card: str | None = None
    tokens: tuple[int, ...] = ()


SevenWondersEvent = (
    GameCreated | AgeStarted | CardChosen | TurnResolved | LastCardsDiscarded | DecisionOpened
    | SeventhCardPlayed | DiscardBuilt | DiscardBuildSkipped | HandsPassed | MilitaryResolved | GameEnded
    | FreeCityCardDrawn | EdificesDrawn | EdificeJoined | EdificeCompleted | EdificeFailed | EdificePenaltyPaid
    | EdificePawnTaken | EdificePenaltyChosen
)
