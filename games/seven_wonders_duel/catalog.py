"""The 7 Wonders Duel catalog: 73 cards, 12 wonders, 10 progress tokens, the three age
layouts and the military track.

Loaded once, at import, from `seeds/seven_wonders_duel/*.json` (the one permitted read
under `games/`: immutable, versioned data whose hash goes into every game's log). Every
row carries `ref`, the section and row of docs/rules/seven-wonders-duel.md it comes
from. A malformed row fails loudly with its file and row. Besides the validated rows the
catalog precomputes the flat tables the hot paths read (`Spec`), so the rules never walk
effect lists during play.
"""

from __future__ import annotations

import re
from typing import Literal, TypeVar

import msgspec

from games import seed_files
from games.seed_files import CatalogError

T = TypeVar("T")

RESOURCES = ("wood", "clay", "stone", "glass", "papyrus")
"""Resource order of every vector (W, C, S, G, P), §1."""
COLORS = ("brown", "grey", "blue", "green", "yellow", "red", "purple")
SYMBOLS = ("armillary", "wheel", "sundial", "mortar", "plumb", "quill", "law")
Vec = tuple[int, int, int, int, int]


class _Effect(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True):
    note: str = ""


class Produce(_Effect, tag="produce"):
    """Brown/grey production, counted in the opponent's trading price (§6.2)."""

    resource: str
    amount: int


class ProduceOneOf(_Effect, tag="produce_one_of"):
    """One unit of one option per payment; never raises the opponent's prices (§6.2)."""

    options: tuple[str, ...]
    counts_for_opponent_trade_price: bool


class FixedTradePrice(_Effect, tag="fixed_trade_price"):
    """Reserves and Customs House: these resources cost `price` per unit (§6.3)."""

    resources: tuple[str, ...]
    price: int


class GainCoins(_Effect, tag="gain_coins"):
    amount: int


class Shields(_Effect, tag="shields"):
    amount: int


class ScienceSymbol(_Effect, tag="science_symbol"):
    symbol: str


class VictoryPoints(_Effect, tag="victory_points"):
    amount: int


class GainCoinsPerOwnCard(_Effect, tag="gain_coins_per_own_card"):
    """Once, when built: coins per card of `colors` in the owner's city (§11, §15 #19)."""

    colors: tuple[str, ...]
    coins_per_card: int
    when: str


class GainCoinsPerOwnBuiltWonder(_Effect, tag="gain_coins_per_own_built_wonder"):
    coins_per_wonder: int
    when: str


class GuildMajorityCards(_Effect, tag="guild_majority_cards"):
    """Guilds counting cards in the city with the most of them (§11.4)."""

    colors: tuple[str, ...]
    coins_per_card_on_construction: int
    vp_per_card_at_end: int
    city: str


class GuildMajorityWonders(_Effect, tag="guild_majority_wonders"):
    vp_per_wonder_at_end: int
    city: str


class GuildMajorityCoins(_Effect, tag="guild_majority_coins"):
    vp_per_3_coins_at_end: int
    city: str


class ExtraTurn(_Effect, tag="extra_turn"):
    pass


class OpponentLosesCoins(_Effect, tag="opponent_loses_coins"):
    amount: int


class DiscardOpponentCard(_Effect, tag="discard_opponent_card"):
    color: Literal["brown", "grey"]


class ProgressTokenFromBox(_Effect, tag="progress_token_from_box"):
    draw: int
    keep: int


class BuildFromDiscard(_Effect, tag="build_from_discard"):
    pass


class CostReduction(_Effect, tag="cost_reduction"):
    applies_to: Literal["wonders", "blue_cards"]
    resource_units: int


class ReceiveOpponentTradePayments(_Effect, tag="receive_opponent_trade_payments"):
    pass


class VictoryPointsPerOwnProgressToken(_Effect, tag="victory_points_per_own_progress_token"):
    amount: int
    includes_itself: bool


class ExtraShieldOnFutureRedCards(_Effect, tag="extra_shield_on_future_red_cards"):
    amount: int


class FutureWondersGainExtraTurn(_Effect, tag="future_wonders_gain_extra_turn"):
    pass


class GainCoinsOnChainConstruction(_Effect, tag="gain_coins_on_chain_construction"):
    amount: int


Effect = (
    Produce | ProduceOneOf | FixedTradePrice | GainCoins | Shields | ScienceSymbol | VictoryPoints
    | GainCoinsPerOwnCard | GainCoinsPerOwnBuiltWonder | GuildMajorityCards | GuildMajorityWonders
    | GuildMajorityCoins | ExtraTurn | OpponentLosesCoins | DiscardOpponentCard | ProgressTokenFromBox
    | BuildFromDiscard | CostReduction | ReceiveOpponentTradePayments | VictoryPointsPerOwnProgressToken
    | ExtraShieldOnFutureRedCards | FutureWondersGainExtraTurn | GainCoinsOnChainConstruction
)


class Cost(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    coins: int
    resources: dict[str, int]


class Card(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    """One card (§11). `deck` is age1/age2/age3 or guild."""

    id: str
    name: str
    age: int
    deck: Literal["age1", "age2", "age3", "guild"]
    color: Literal["brown", "grey", "blue", "green", "yellow", "red", "purple"]
    cost: Cost
    chain_symbol_provided: str | None
    free_if_owner_has_chain_symbol: str | None
    effects: tuple[Effect, ...]
    ref: str
    confirmation: str
    ruling: str = ""


class Wonder(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    """One wonder card (§12)."""

    id: str
    name: str
    cost: Cost
    effects: tuple[Effect, ...]
    ref: str
    confirmation: str
    ruling: str = ""


class Token(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    """One progress token (§13)."""

    id: str
    name: str
    effects: tuple[Effect, ...]
    ref: str
    confirmation: str
    ruling: str = ""


class Position(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True):
    """One slot of an age structure (§4)."""

    index: int
    row: int
    col: int
    face_up_at_setup: bool
    covered_by: tuple[int, ...]
    covers: tuple[int, ...]


class _CardFile(msgspec.Struct, forbid_unknown_fields=True):
    source: str
    schema: str
    cards: list[Card]


class _WonderFile(msgspec.Struct, forbid_unknown_fields=True):
    source: str
    schema: str
    wonders: list[Wonder]


class _TokenFile(msgspec.Struct, forbid_unknown_fields=True):
    source: str
    schema: str
    progress_tokens: list[Token]


class _BoardFile(msgspec.Struct):
    source: str
    schema: str
    setup: dict
    rules: dict
    military_track: dict
    military_track_ruling: str
    layouts: dict[str, list[Position]]


class Spec(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """The flat, precomputed facts of one card or wonder that the hot paths read."""

    id: str
    name: str
    color: str  # "wonder" for wonders
    coins: int  # coin part of the cost
    need: Vec  # resource units of the cost
    units: tuple[tuple[int, int], ...]  # the same, as (resource index, units) for the resources it names
    provides: str | None  # chain symbol printed on the card
    chain: str | None  # chain symbol that makes it free
    produce: Vec  # brown/grey production (counted for the opponent's prices)
    one_of: tuple[int, ...]  # resource indexes of a "one of" production, () if none
    fixed: tuple[int, ...]  # resource indexes traded at 1 coin
    shields: int
    symbol: str | None
    points: int
    gain: int  # flat coins when built
    extra_turn: bool
    opponent_loses: int
    destroy: str | None  # colour of the opponent card to discard
    from_box: bool
    from_discard: bool


def slug(name: str) -> str:
    """'The Great Library' -> 'the_great_library'."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def vec(resources_: dict[str, int]) -> Vec:
    return tuple(resources_.get(r, 0) for r in RESOURCES)  # type: ignore[return-value]


def _spec(x: Card | Wonder) -> Spec:
    produce = [0] * 5
    one_of: tuple[int, ...] = ()
    fixed: list[int] = []
    shields = points = gain = lose = 0
    symbol = destroy = None
    extra = box = pile = False
    for e in x.effects:
        if isinstance(e, Produce):
            produce[RESOURCES.index(e.resource)] += e.amount
        elif isinstance(e, ProduceOneOf):
            one_of = tuple(RESOURCES.index(r) for r in e.options)
        elif isinstance(e, FixedTradePrice):
            fixed += [RESOURCES.index(r) for r in e.resources]
        elif isinstance(e, Shields):
            shields += e.amount
        elif isinstance(e, ScienceSymbol):
            symbol = e.symbol
        elif isinstance(e, VictoryPoints):
            points += e.amount
        elif isinstance(e, GainCoins):
            gain += e.amount
        elif isinstance(e, ExtraTurn):
            extra = True
        elif isinstance(e, OpponentLosesCoins):
            lose += e.amount
        elif isinstance(e, DiscardOpponentCard):
            destroy = e.color
        elif isinstance(e, ProgressTokenFromBox):
            box = True
        elif isinstance(e, BuildFromDiscard):
            pile = True
    card = isinstance(x, Card)
    return Spec(
        id=x.id, name=x.name, color=x.color if card else "wonder", coins=x.cost.coins, need=vec(x.cost.resources),
        units=tuple((r, n) for r, n in enumerate(vec(x.cost.resources)) if n),
        provides=x.chain_symbol_provided if card else None, chain=x.free_if_owner_has_chain_symbol if card else None,
        produce=tuple(produce), one_of=one_of, fixed=tuple(sorted(fixed)),  # type: ignore[arg-type]
        shields=shields, symbol=symbol,
        points=points, gain=gain, extra_turn=extra, opponent_loses=lose, destroy=destroy, from_box=box,
        from_discard=pile,
    )


class Catalog:
    """The validated catalog with the lookups the rules need."""

    def __init__(self, cards: list[Card], wonders: list[Wonder], tokens: list[Token], board: _BoardFile,
                 digest: str) -> None:
        self.cards: dict[str, Card] = {c.id: c for c in cards}
        self.wonders: dict[str, Wonder] = {w.id: w for w in wonders}
        self.tokens: dict[str, Token] = {t.id: t for t in tokens}
        self.hash = digest
        self.spec: dict[str, Spec] = {x.id: _spec(x) for x in (*cards, *wonders)}
        """card or wonder id -> its precomputed facts."""
        self.decks: dict[str, tuple[str, ...]] = {
            d: tuple(sorted(c.id for c in cards if c.deck == d)) for d in ("age1", "age2", "age3", "guild")
        }
        self.layouts: tuple[tuple[Position, ...], ...] = tuple(
            tuple(board.layouts[f"age{a}"]) for a in (1, 2, 3)
        )
        self.setup = board.setup
        self.rules = board.rules
        self.military = board.military_track
        self.by_slug: dict[str, str] = {}
        """snake_case of a name or id -> the id of that card, wonder or token."""
        for x in (*cards, *wonders, *tokens):
            self.by_slug[x.id] = x.id
            self.by_slug[slug(x.name)] = x.id
            if x.name.startswith("The "):
                self.by_slug[slug(x.name[4:])] = x.id  # "Pyramids" for "The Pyramids"
        self.names: dict[str, str] = {}
        """card, wonder or token id -> its printed name (a card's before a wonder's or token's)."""
        for x in (*tokens, *wonders, *cards):
            self.names[x.id] = x.name

    def name(self, any_id: str) -> str:
        """The printed name of a card, wonder or token id (the id itself if unknown)."""
        return self.names.get(any_id, any_id)


def _check(cards: list[Card], wonders: list[Wonder], tokens: list[Token], board: _BoardFile) -> None:
    ids: set[str] = set()
    for file, rows in (("cards.json", cards), ("wonders.json", wonders), ("progress_tokens.json", tokens)):
        for i, x in enumerate(rows):
            where = f"seeds/seven_wonders_duel/{file}: row {i} ({x.name})"
            if x.id in ids or x.id != slug(x.name):
                raise CatalogError(f"{where}: id must be unique and the snake_case of the name")
            ids.add(x.id)
            cost = getattr(x, "cost", None)
            if cost is not None and any(r not in RESOURCES or n < 1 for r, n in cost.resources.items()):
                raise CatalogError(f"{where}: bad resource cost {cost.resources}")
            for e in x.effects:
                for r in (*getattr(e, "options", ()), *getattr(e, "resources", ()), getattr(e, "resource", "wood")):
                    if r not in RESOURCES:
                        raise CatalogError(f"{where}: unknown resource {r!r}")
                if isinstance(e, ScienceSymbol) and e.symbol not in SYMBOLS:
                    raise CatalogError(f"{where}: unknown science symbol {e.symbol!r}")
    sizes = {d: sum(1 for c in cards if c.deck == d) for d in ("age1", "age2", "age3", "guild")}
    if sizes != {"age1": 23, "age2": 23, "age3": 20, "guild": 7}:
        raise CatalogError(f"cards.json: deck sizes {sizes}, expected 23/23/20/7 (§2)")
    provided = [c.chain_symbol_provided for c in cards if c.chain_symbol_provided]
    wanted = [c.free_if_owner_has_chain_symbol for c in cards if c.free_if_owner_has_chain_symbol]
    if len(provided) != 17 or sorted(provided) != sorted(wanted):
        raise CatalogError("cards.json: the 17 chain links do not pair up (§11.5)")
    if len(wonders) != 12 or len(tokens) != 10:
        raise CatalogError("expected 12 wonders and 10 progress tokens (§2)")
    for a in (1, 2, 3):
        layout = board.layouts[f"age{a}"]
        if [p.index for p in layout] != list(range(20)):
            raise CatalogError(f"board.json: layout age{a} must list positions 0-19 (§4)")
        for p in layout:
            for q in p.covered_by:
                if p.index not in layout[q].covers:
                    raise CatalogError(f"board.json: age{a} position {p.index}: covered_by/covers disagree")


def load() -> Catalog:
    """Read and validate the seed files shipped in the `seeds` package."""
    raw = seed_files.read("seven_wonders_duel", ("cards.json", "wonders.json", "progress_tokens.json", "board.json"))

    def decode(name: str, kind: type[T]) -> T:
        return seed_files.decode(f"seeds/seven_wonders_duel/{name}", raw[name], kind)

    cards = decode("cards.json", _CardFile).cards
    wonders = decode("wonders.json", _WonderFile).wonders
    tokens = decode("progress_tokens.json", _TokenFile).progress_tokens
    board = decode("board.json", _BoardFile)
    _check(cards, wonders, tokens, board)
    return Catalog(cards, wonders, tokens, board, seed_files.digest(raw))


CATALOG = load()
CATALOG_HASH = CATALOG.hash
# Hashes of earlier seed files with today's rules data (only documentation fields changed;
# 2026-12-02: the `source` fields point to docs/rules/), for `verify` of older games.
EARLIER_HASHES: dict[str, str] = {
    "90bc782c4218b5bdccdf0e3602c3001628f9dcd39846967b67b5d853df7d91f9": CATALOG_HASH,
}
