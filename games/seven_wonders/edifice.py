"""The Edifice expansion's catalog: 15 edifice cards, pawns by player count, debt tokens,
and the Ur and Carthage boards (placeholders, disabled by default).

Loaded from `seeds/seven_wonders/edifice.json` and validated like the base catalog (a
malformed row fails naming the file and the row). Every row carries `ref`, the section of
docs/rules/seven-wonders-edifice.md it comes from, and `confirmation`, that
document's mark: C/C1 confirmed, X conflicting sources (the recommended value, with the
alternative beside it in `alternative`), P placeholder (Ur and Carthage: one unverified
fan data file, §12.2; dealt only when asked for until the printed boards are checked),
I this engine's reading where the rulebook is silent (§14, listed as a reading in §16.1).

The rules that use it are in rules.py, evolve.py and scoring.py (option `edifice`).
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from games import seed_files
from games.seven_wonders.catalog import (
    COLORS,
    RESOURCES,
    BuildFromDiscard,
    CatalogError,
    Coins,
    Points,
    ScienceWildcard,
    Shields,
    _Effect,
)

Mark = Literal["C", "C1", "X", "P", "I"]


class _Reward(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", forbid_unknown_fields=True):
    pass


class GainCoins(_Reward, tag="gain_coins"):
    """Take `amount` coins from the bank (§9.1)."""

    amount: int


class GainShields(_Reward, tag="gain_shields"):
    """Permanently add `amount` shields (§9.1)."""

    amount: int


class GainVictoryToken(_Reward, tag="gain_victory_token"):
    """One military victory token of `value` (§9.1)."""

    value: int


class DiscardOwnDefeatTokens(_Reward, tag="discard_own_defeat_tokens"):
    """Return every defeat token held at that moment (§9.1)."""


class ProduceOneOf(_Reward, tag="produce_one_of"):
    """From the next turn, one resource of `options` each turn; not sellable (§9.1)."""

    options: str


class VpPerOwnWonderStage(_Reward, tag="vp_per_own_wonder_stage"):
    """End of game: `vp` per wonder stage built (§9.1)."""

    vp: int


class VpPerOwnCardOfColour(_Reward, tag="vp_per_own_card_of_colour"):
    """End of game: `vp` per card of `colour` in the city (§9.1)."""

    colour: str
    vp: int


class VpPerDistinctAgeCardColour(_Reward, tag="vp_per_distinct_age_card_colour"):
    """End of game: `vp` per distinct colour among the city's Age cards (§9.1)."""

    vp: int


class VpPerBrownGreyPair(_Reward, tag="vp_per_brown_grey_pair"):
    """End of game: `vp` x min(brown, grey) cards in the city (§9.1)."""

    vp: int


class RepeatOwnGuild(_Reward, tag="repeat_own_guild"):
    """End of game: `count` purple card(s) of the city score a second time (§9.1)."""

    count: int


Reward = (GainCoins | GainShields | GainVictoryToken | DiscardOwnDefeatTokens | ProduceOneOf | VpPerOwnWonderStage
          | VpPerOwnCardOfColour | VpPerDistinctAgeCardColour | VpPerBrownGreyPair | RepeatOwnGuild)


class _Penalty(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", forbid_unknown_fields=True):
    pass


class PayCoins(_Penalty, tag="pay_coins"):
    """Pay `amount` coins to the bank; payable in full iff coins >= amount (§5.2)."""

    amount: int


class DiscardOwnCard(_Penalty, tag="discard_own_card"):
    """Discard one card of `colour` (the player's choice); payable iff there is one (§5.2)."""

    colour: str


class LoseVictoryTokens(_Penalty, tag="lose_victory_tokens"):
    """Return `count` victory tokens (the player's choice); payable iff held (§5.2)."""

    count: int


Penalty = PayCoins | DiscardOwnCard | LoseVictoryTokens


class Alternative(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An X row's rejected value (§9.3), kept beside the recommended one."""

    field: str
    value: Any


class EdificeCard(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: str
    name: str
    age: int
    cost_coins: int  # the participation cost, always coins (§9.2), paid to the bank (A4)
    rewards: list[Reward]
    penalty: Penalty
    ref: str
    confirmation: Mark
    alternative: Alternative | None = None
    note: str = ""


class TakePawn(_Effect, tag="take_pawn"):
    """Take one participation pawn of Age `age` (0: the player's choice) from the box (§12.2)."""

    age: int


# The placeholder boards' other stage effects are the base catalog's own.
StageEffect = Points | Coins | Shields | BuildFromDiscard | ScienceWildcard | TakePawn


class Stage(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    cost: str
    options: list[list[StageEffect]]  # one alternative: a normal stage; two: pick one when built
    ref: str


class Side(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    stages: list[Stage]


class EdificeWonder(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: str
    name: str
    requires_edifice: bool
    enabled_by_default: bool
    starting_resource: str
    sides: dict[str, Side]
    ref: str
    confirmation: Mark
    note: str = ""


class _Table(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    ref: str
    confirmation: Mark


class Players(_Table, frozen=True, kw_only=True):
    min: int
    max: int


class Pawns(_Table, frozen=True, kw_only=True):
    by_players: dict[int, int]


class Debt(_Table, frozen=True, kw_only=True):
    by_age: dict[int, int]


class PawnVp(_Table, frozen=True, kw_only=True):
    by_age: dict[int, int]
    note: str = ""


class PawnFromBox(_Table, frozen=True, kw_only=True):
    advances_completion: bool
    uses_once_per_age_participation: bool
    costs_coins: bool
    grants_penalty_immunity_for_that_edifice: bool
    grants_reward_if_edifice_completed_later: bool
    effect_if_edifice_already_completed_or_resolved: str


class _File(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    source: str
    players: Players
    pawns_per_edifice: Pawns
    debt_tokens: Debt
    pawn_intrinsic_vp: PawnVp
    ur_pawn_from_box: PawnFromBox
    edifices: list[EdificeCard]
    wonders: list[EdificeWonder]


FILE = "seeds/seven_wonders/edifice.json"


class EdificeCatalog:
    """The validated Edifice data with the lookups a game needs."""

    def __init__(self, data: _File, digest: str) -> None:
        self.data = data
        self.hash = digest
        self.cards: dict[str, EdificeCard] = {c.id: c for c in data.edifices}
        self.players = (data.players.min, data.players.max)
        self.wonders: dict[str, EdificeWonder] = {w.id: w for w in data.wonders}
        self.ur_pawn_from_box = data.ur_pawn_from_box

    def of_age(self, age: int) -> list[str]:
        """The ids of the five edifices of an age, in catalog order (§3 step 2)."""
        return [c.id for c in self.data.edifices if c.age == age]

    def pawns(self, players: int) -> int:
        """Pawns put on each of the three edifice cards at setup (§10)."""
        return self.data.pawns_per_edifice.by_players[players]

    def pawn_vp(self, age: int) -> int:
        """VP a pawn of that Age is worth by itself at the end (§14 Q1: 0, kept as data)."""
        return self.data.pawn_intrinsic_vp.by_age[age]

    def debt(self, age: int) -> int:
        """The value (negative VP) of that Age's debt token (§11)."""
        return self.data.debt_tokens.by_age[age]


def _check(data: _File) -> None:
    ids: set[str] = set()
    for i, c in enumerate(data.edifices):
        where = f"{FILE}: edifices[{i}] ({c.name})"
        if c.id in ids:
            raise CatalogError(f"{where}: duplicate id {c.id!r}")
        ids.add(c.id)
        if c.age not in (1, 2, 3):
            raise CatalogError(f"{where}: age must be 1, 2 or 3")
        if c.cost_coins < 1 or not c.rewards:
            raise CatalogError(f"{where}: every edifice has a coin cost and a reward (§9.2)")
        if (c.confirmation == "X") != (c.alternative is not None):
            raise CatalogError(f"{where}: an X row, and only an X row, keeps its alternative (§9.3)")
        for r in c.rewards:
            if isinstance(r, ProduceOneOf) and (not r.options or any(x not in RESOURCES for x in r.options)):
                raise CatalogError(f"{where}: bad produce options {r.options!r}")
            if isinstance(r, VpPerOwnCardOfColour) and r.colour not in COLORS:
                raise CatalogError(f"{where}: unknown colour {r.colour!r}")
        if isinstance(c.penalty, DiscardOwnCard) and c.penalty.colour not in COLORS:
            raise CatalogError(f"{where}: unknown colour {c.penalty.colour!r}")
    for age in (1, 2, 3):
        if sum(1 for c in data.edifices if c.age == age) != 5:
            raise CatalogError(f"{FILE}: expected five edifices of age {age} (§2)")
    lo, hi = data.players.min, data.players.max
    if set(data.pawns_per_edifice.by_players) != set(range(lo, hi + 1)):
        raise CatalogError(f"{FILE}: pawns_per_edifice must cover {lo}..{hi} players (§10)")
    if set(data.debt_tokens.by_age) != {1, 2, 3} or any(v >= 0 for v in data.debt_tokens.by_age.values()):
        raise CatalogError(f"{FILE}: one negative debt value per age (§11)")
    if set(data.pawn_intrinsic_vp.by_age) != {1, 2, 3}:
        raise CatalogError(f"{FILE}: pawn_intrinsic_vp needs a value per age (§14 Q1)")
    box = data.ur_pawn_from_box
    if box.advances_completion or box.costs_coins or box.effect_if_edifice_already_completed_or_resolved != "none":
        # the rules read the other three flags; these readings are the only ones they implement
        raise CatalogError(f"{FILE}: ur_pawn_from_box: the engine implements a free box pawn that takes no "
                           "pawn off the card and does nothing for a completed or resolved edifice (§12.2)")
    for w in data.wonders:
        where = f"{FILE}: wonders ({w.id})"
        if set(w.sides) != {"A", "B"} or w.starting_resource not in RESOURCES:
            raise CatalogError(f"{where}: sides A and B and a starting resource")
        if w.confirmation == "P" and w.enabled_by_default:
            raise CatalogError(f"{where}: a placeholder board stays disabled by default (§0)")
        for s, side in w.sides.items():
            for k, st in enumerate(side.stages):
                if any(r not in RESOURCES for r in st.cost) or not 1 <= len(st.options) <= 2:
                    raise CatalogError(f"{where} {s} stage {k + 1}: bad cost or options")


def load() -> EdificeCatalog:
    """Read and validate the Edifice seed file shipped in the `seeds` package."""
    raw = seed_files.read("seven_wonders", ("edifice.json",))
    data = seed_files.decode(FILE, raw["edifice.json"], _File)
    _check(data)
    return EdificeCatalog(data, seed_files.digest(raw))


EDIFICE = load()
"""The catalog the rules use."""
# Hashes of earlier versions of edifice.json with today's rules data (only documentation
# fields changed), for `verify` of older games: the first (2026-11-29) had Q1's pawn worth
# marked X, not I; the second (2026-12-02) had `source` naming the rules beside the repository.
EARLIER_HASHES: dict[str, str] = {
    "cf7d8694bbecfce3292fb0a1539383659ada854e2668c76f594569ef735bf1e1": EDIFICE.hash,
    "9d5d25596af91ac03f66bffcfff17e3c4dd4c04497a9c2bb64102eadd8ae1867": EDIFICE.hash,
}
