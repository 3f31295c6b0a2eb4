"""The 7 Wonders catalog: 78 card rows (148 physical cards) and 7 double-sided boards.

Loaded once, at import, from `seeds/seven_wonders/*.json` (the one permitted read under
`games/`: immutable, versioned data whose hash goes into every game's log). Every row
carries `ref`, the section and row of docs/rules/seven-wonders.md it comes from.
A malformed row fails loudly with its file and row.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

import msgspec

from games import seed_files
from games.seed_files import CatalogError

RESOURCES = "WSCOGLP"
"""Resource codes in vector order (§0): wood, stone, clay, ore, glass, loom, papyrus."""
RAW = "WSCO"
MANUFACTURED = "GLP"
COLORS = ("brown", "grey", "blue", "green", "yellow", "red", "purple")
SYMBOLS = ("compass", "gear", "tablet")
COUNTABLE = COLORS + ("wonder_stages", "defeat_tokens")

Vec = tuple[int, int, int, int, int, int, int]


class _Effect(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", forbid_unknown_fields=True):
    pass


class Produce(_Effect, tag="produce"):
    """`amount` units of the one option, or one unit of one of several options (§5.2)."""

    options: str
    amount: int
    tradable: bool


class Points(_Effect, tag="points"):
    """Victory points at the end (blue cards, wonder stages)."""

    amount: int


class Shields(_Effect, tag="shields"):
    """Military strength (§8)."""

    amount: int


class Science(_Effect, tag="science"):
    """One science symbol (§9)."""

    symbol: Literal["compass", "gear", "tablet"]


class ScienceWildcard(_Effect, tag="science_wildcard"):
    """One symbol of the owner's choice, chosen at scoring (§9)."""


class Coins(_Effect, tag="coins"):
    """Coins from the bank once, when built."""

    amount: int


class TradeDiscount(_Effect, tag="trade_discount"):
    """Units of `resources` bought from the `sides` neighbours cost `price` (§6)."""

    resources: str
    sides: tuple[Literal["left", "right"], ...]
    price: int


class CoinsPer(_Effect, tag="coins_per"):
    """Once, when built: `amount` coins per counted item in the listed cities (§10)."""

    amount: int
    count: tuple[str, ...]
    cities: tuple[Literal["self", "left", "right"], ...]


class PointsPer(_Effect, tag="points_per"):
    """At the end: `amount` VP per counted item in the listed cities (§10)."""

    amount: int
    count: tuple[str, ...]
    cities: tuple[Literal["self", "left", "right"], ...]


class PlaySeventhCard(_Effect, tag="play_seventh_card"):
    """Babylon B stage 2 (§11.5)."""


class FreeBuildOncePerAge(_Effect, tag="free_build_once_per_age"):
    """Olympia A stage 2 (§11.6)."""


class CopyNeighborGuild(_Effect, tag="copy_neighbor_guild"):
    """Olympia B stage 3 (§11.6)."""


class BuildFromDiscard(_Effect, tag="build_from_discard"):
    """Halicarnassus A stage 2 and every B stage (§11.7)."""


Effect = (
    Produce | Points | Shields | Science | ScienceWildcard | Coins | TradeDiscount | CoinsPer
    | PointsPer | PlaySeventhCard | FreeBuildOncePerAge | CopyNeighborGuild | BuildFromDiscard
)


class Card(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    """One card name of one age (§13). `marks` has one entry per physical copy."""

    id: str
    name: str
    age: int
    color: Literal["brown", "grey", "blue", "green", "yellow", "red", "purple"]
    guild: bool
    cost_coins: int
    cost: str
    marks: tuple[int, ...]
    chain_from: tuple[str, ...]
    chain_to: tuple[str, ...]
    effects: tuple[Effect, ...]
    text: str
    ref: str
    confirmation: str
    note: str = ""

    @property
    def key(self) -> str:
        """The card's name as a command names it (snake_case, shared by same-name cards)."""
        return slug(self.name)


class Stage(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    """One wonder stage: a resource cost (never coins, never chains) and its effects; or,
    on Edifice's Carthage, `options`: alternatives of which the builder picks one."""

    cost: str
    effects: tuple[Effect, ...]
    text: str
    ref: str
    options: tuple[tuple[Effect, ...], ...] = ()


class Side(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    starting_resource: str
    stages: tuple[Stage, ...]


class Wonder(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    """A double-sided board (§11)."""

    id: str
    name: str
    full_name: str
    starting_resource: str
    ref: str
    confirmation: str
    sides: dict[str, Side]


class _CardFile(msgspec.Struct, forbid_unknown_fields=True):
    source: str
    schema: str
    cards: list[Card]


class _WonderFile(msgspec.Struct, forbid_unknown_fields=True):
    source: str
    schema: str
    wonders: list[Wonder]


def slug(name: str) -> str:
    """'East Trading Post' -> 'east_trading_post'."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


@lru_cache(maxsize=1024)  # costs of cards and stages: a few dozen strings
def vec(cost: str) -> Vec:
    """'SSO' -> the resource vector (W, S, C, O, G, L, P)."""
    return tuple(cost.count(r) for r in RESOURCES)  # type: ignore[return-value]


class Catalog:
    """The validated catalog with the lookups the rules need."""

    def __init__(self, cards: list[Card], wonders: list[Wonder], digest: str) -> None:
        self.cards: dict[str, Card] = {c.id: c for c in cards}
        self.wonders: dict[str, Wonder] = {w.id: w for w in wonders}
        self.hash = digest
        self.key: dict[str, str] = {c.id: slug(c.name) for c in cards}
        """card id -> the card's key (its name in snake_case), precomputed for the hot paths."""
        self.by_key: dict[str, tuple[str, ...]] = {}
        for c in cards:
            self.by_key[c.key] = (*self.by_key.get(c.key, ()), c.id)
        self.need: dict[str, Vec] = {c.id: vec(c.cost) for c in cards}
        self.listing: dict[str, tuple[str, str, frozenset[str], Vec, int]] = {
            c.id: (slug(c.name), c.name, frozenset(c.chain_from), vec(c.cost), c.cost_coins) for c in cards}
        """card id -> (key, name, names it chains from, resources, coins): what
        `legal_commands` reads of each card of a hand, in one look-up."""
        if len({t[0] for t in self.listing.values()}) != len(set(self.listing.values())):
            raise ValueError("cards of one key must cost and chain alike (legal_commands lists a key once)")
        self.guilds: tuple[str, ...] = tuple(c.id for c in cards if c.guild)

    def deck(self, age: int, players: int) -> list[str]:
        """The non-guild cards of an age for `players` (one id per physical copy, §2.1)."""
        return [
            c.id for c in self.cards.values() if c.age == age and not c.guild for m in c.marks if m <= players
        ]


def _check(file: str, cards: list[Card], wonders: list[Wonder]) -> None:
    names = {c.name for c in cards}
    ids: set[str] = set()
    for i, c in enumerate(cards):
        where = f"{file}: cards[{i}] ({c.name})"
        if c.id in ids:
            raise CatalogError(f"{where}: duplicate id {c.id!r}")
        ids.add(c.id)
        if c.age not in (1, 2, 3):
            raise CatalogError(f"{where}: age must be 1, 2 or 3")
        if any(r not in RESOURCES for r in c.cost):
            raise CatalogError(f"{where}: unknown resource in cost {c.cost!r}")
        if c.guild != (c.color == "purple") or (c.guild and c.marks) or (not c.guild and not c.marks):
            raise CatalogError(f"{where}: guilds are purple and have no marks; others have marks")
        if any(m not in range(3, 8) for m in c.marks):
            raise CatalogError(f"{where}: player marks must be 3..7")
        for other in (*c.chain_from, *c.chain_to):
            if other not in names:
                raise CatalogError(f"{where}: chain names unknown card {other!r}")
        for e in c.effects:
            _check_effect(where, e)
    for n in range(3, 8):
        for age in (1, 2, 3):
            size = sum(1 for c in cards if c.age == age and not c.guild for m in c.marks if m <= n)
            want = 7 * n if age < 3 else 7 * n - (n + 2)
            if size != want:
                raise CatalogError(f"{file}: age {age} holds {size} cards for {n} players, expected {want} (§2.3)")
    if sum(1 for c in cards if c.guild) != 10:
        raise CatalogError(f"{file}: expected 10 guilds (§1)")
    for w in wonders:
        if set(w.sides) != {"A", "B"}:
            raise CatalogError(f"wonders.json: {w.id}: sides must be A and B")
        for s, side in w.sides.items():
            for k, st in enumerate(side.stages):
                if any(r not in RESOURCES for r in st.cost):
                    raise CatalogError(f"wonders.json: {w.id} {s} stage {k + 1}: unknown resource")
                for e in st.effects:
                    _check_effect(f"wonders.json: {w.id} {s} stage {k + 1}", e)


def _check_effect(where: str, e: Effect) -> None:
    if isinstance(e, Produce) and (any(r not in RESOURCES for r in e.options) or not e.options):
        raise CatalogError(f"{where}: bad produce options {e.options!r}")
    if isinstance(e, (CoinsPer, PointsPer)) and any(k not in COUNTABLE for k in e.count):
        raise CatalogError(f"{where}: cannot count {e.count!r}")


def load() -> Catalog:
    """Read and validate the seed files shipped in the `seeds` package."""
    raw = seed_files.read("seven_wonders", ("cards.json", "wonders.json"))
    cards = seed_files.decode("seeds/seven_wonders/cards.json", raw["cards.json"], _CardFile).cards
    wonders = seed_files.decode("seeds/seven_wonders/wonders.json", raw["wonders.json"], _WonderFile).wonders
    _check("seeds/seven_wonders/cards.json", cards, wonders)
    return Catalog(cards, wonders, seed_files.digest(raw))


CATALOG = load()
CATALOG_HASH = CATALOG.hash
# Hashes of earlier seed files with today's rules data (only documentation fields changed;
# 2026-12-02: the `source` fields point to docs/rules/), for `verify` of older games.
EARLIER_HASHES: dict[str, str] = {
    "97e547eb9cde8c24e25cac6a617f359aec6d5978a273baae4908edb059556953": CATALOG_HASH,
}
