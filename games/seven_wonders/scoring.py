"""Scoring (§9, §10): the score-pad categories, science wildcards, Olympia's copied guild,
and the ranking with the coin tie-breaker."""

from __future__ import annotations

from itertools import product

from games.contract import Result
from games.seven_wonders.catalog import (
    CATALOG,
    CopyNeighborGuild,
    Points,
    PointsPer,
    Science,
    ScienceWildcard,
    Shields,
)
from games.seven_wonders.edifice import (
    EDIFICE,
    GainShields,
    RepeatOwnGuild,
    VpPerBrownGreyPair,
    VpPerDistinctAgeCardColour,
    VpPerOwnCardOfColour,
    VpPerOwnWonderStage,
)
from games.seven_wonders.payment import stage_effects
from games.seven_wonders.state import City, State

CATEGORIES = ("military", "treasury", "wonder", "civilian", "science", "commercial", "guilds")
EDIFICE_CATEGORIES = CATEGORIES + ("edifice",)
"""With the Edifice expansion: one more line, debt tokens plus the edifices' VP rewards (§7)."""
SYMBOLS = ("compass", "gear", "tablet")


def left_of(seat: int, n: int) -> int:
    """LEFT(i) = (i+1) mod N, clockwise (§0)."""
    return (seat + 1) % n


def right_of(seat: int, n: int) -> int:
    """RIGHT(i) = (i-1) mod N (§0)."""
    return (seat - 1) % n


def count(city: City, item: str) -> int:
    """How many `item` a city holds: structures of a colour, built stages or defeat tokens (§10)."""
    if item == "wonder_stages":
        return city.stages
    if item == "defeat_tokens":
        return sum(1 for t in city.tokens if t == -1)
    return sum(1 for cid in city.built if CATALOG.cards[cid].color == item)


def per(effect: PointsPer, cities: tuple[City, ...], seat: int, extra_purple: int = 0) -> int:
    """`amount` x the counted items of the listed cities, seen from `seat` (§10)."""
    n = len(cities)
    where = {"self": seat, "left": left_of(seat, n), "right": right_of(seat, n)}
    total = 0
    for c in effect.cities:
        city = cities[where[c]]
        total += sum(count(city, item) for item in effect.count)
        if c == "self" and "purple" in effect.count:
            total += extra_purple
    return effect.amount * total


def shields(city: City) -> int:
    """Military strength: shields of red cards and of wonder stages (§8), and of completed
    edifices (Edifice §9.1 gain_shields)."""
    total = sum(e.amount for cid in city.built for e in CATALOG.cards[cid].effects if isinstance(e, Shields))
    total += sum(r.amount for cid in city.rewards for r in EDIFICE.cards[cid].rewards if isinstance(r, GainShields))
    return total + sum(e.amount for e in stage_effects(city) if isinstance(e, Shields))


def edifice_points(city: City) -> int:
    """Edifice §7: debt tokens, and the VP rewards of the completed edifices the city holds
    a pawn of, on the city as it stands (Agora's repeated guild is chosen in score_city)."""
    total = sum(city.debts) + sum(EDIFICE.pawn_vp(a) for a in city.joined + city.box_pawns)  # 0 VP (Edifice §14 Q1)
    for cid in city.rewards:
        for r in EDIFICE.cards[cid].rewards:
            if isinstance(r, VpPerOwnWonderStage):
                total += r.vp * city.stages
            elif isinstance(r, VpPerOwnCardOfColour):
                total += r.vp * count(city, r.colour)
            elif isinstance(r, VpPerDistinctAgeCardColour):
                total += r.vp * len({CATALOG.cards[c].color for c in city.built})
            elif isinstance(r, VpPerBrownGreyPair):
                total += r.vp * min(count(city, "brown"), count(city, "grey"))
    return total


def science_points(symbols: tuple[int, int, int], wildcards: int) -> tuple[int, tuple[str, ...]]:
    """The best science score with `wildcards` symbols of free choice (§9), and the choice."""
    best = (-1, ())
    for pick in product(range(3), repeat=wildcards):
        c = list(symbols)
        for k in pick:
            c[k] += 1
        score = sum(x * x for x in c) + 7 * min(c)
        if score > best[0]:
            best = (score, tuple(SYMBOLS[k] for k in pick))
    return best  # type: ignore[return-value]


def _symbols(city: City) -> tuple[tuple[int, int, int], int]:
    sym = [0, 0, 0]
    wild = 0
    for cid in city.built:
        for e in CATALOG.cards[cid].effects:
            if isinstance(e, Science):
                sym[SYMBOLS.index(e.symbol)] += 1
            elif isinstance(e, ScienceWildcard):
                wild += 1
    wild += sum(1 for e in stage_effects(city) if isinstance(e, ScienceWildcard))
    return (sym[0], sym[1], sym[2]), wild


def _guild_points(card_id: str, cities: tuple[City, ...], seat: int, extra_purple: int = 0) -> int:
    return sum(
        per(e, cities, seat, extra_purple) for e in CATALOG.cards[card_id].effects if isinstance(e, PointsPer)
    )


def score_city(cities: tuple[City, ...], seat: int, edifice: bool = False) -> tuple[tuple[int, ...], str]:
    """The seven categories of one seat (§9), the eighth (`edifice`, §7 of the Edifice
    reference) when the expansion is played, and a note of the choices made for it."""
    n = len(cities)
    city = cities[seat]
    military = sum(city.tokens)
    treasury = city.coins // 3
    wonder = sum(e.amount for e in stage_effects(city) if isinstance(e, Points))
    civilian = commercial = guilds = 0
    for cid in city.built:
        card = CATALOG.cards[cid]
        for e in card.effects:
            if isinstance(e, Points) and card.color == "blue":
                civilian += e.amount
            elif isinstance(e, PointsPer) and card.color == "yellow":
                commercial += per(e, cities, seat)
            elif isinstance(e, PointsPer) and card.color == "purple":
                guilds += per(e, cities, seat)
    symbols, wild = _symbols(city)
    # Olympia B stage 3 (§11.6, §15 #12, #26): the copy and the wildcards are chosen
    # together to maximise the owner's total; the copy counts from Olympia's seat and,
    # for Shipowners-type counting, as one more purple card of Olympia's city.
    copies: list[str | None] = [None]
    if any(isinstance(e, CopyNeighborGuild) for e in stage_effects(city)):
        theirs = set()
        for nb in (left_of(seat, n), right_of(seat, n)):
            theirs.update(cid for cid in cities[nb].built if CATALOG.cards[cid].guild)
        copies += sorted(theirs)
    # Edifice Agora (§9.1 repeat_own_guild): one purple card of the city applies again,
    # chosen together with the rest to maximise the total; its points go to the edifice line.
    repeats: list[str | None] = [None]
    if any(isinstance(r, RepeatOwnGuild) for cid in city.rewards for r in EDIFICE.cards[cid].rewards):
        repeats += sorted({cid for cid in city.built if CATALOG.cards[cid].guild})
    best: tuple[int, int, int, tuple[str, ...], str | None, int, str | None] | None = None
    for copy, repeat in product(copies, repeats):
        extra_wild = 0
        extra_guild = 0
        again = 0
        if repeat is not None:
            extra_wild += sum(1 for e in CATALOG.cards[repeat].effects if isinstance(e, ScienceWildcard))
            again = _guild_points(repeat, cities, seat, extra_purple=1 if copy is not None else 0)
        if copy is not None:
            extra_wild += sum(1 for e in CATALOG.cards[copy].effects if isinstance(e, ScienceWildcard))
            extra_guild = _guild_points(copy, cities, seat, extra_purple=1)
            # our own guilds that count our purple cards see the copy too
            extra_guild += sum(
                e.amount
                for cid in city.built
                if CATALOG.cards[cid].color == "purple"
                for e in CATALOG.cards[cid].effects
                if isinstance(e, PointsPer) and "purple" in e.count and "self" in e.cities
            )
        sci, pick = science_points(symbols, wild + extra_wild)
        key = sci + extra_guild + again
        if best is None or key > best[0]:
            best = (key, sci, extra_guild, pick, copy, again, repeat)
    assert best is not None
    _, science, extra_guild, pick, copy, again, repeat = best
    guilds += extra_guild
    notes = []
    if pick:
        notes.append("wildcards: " + ", ".join(pick))
    if copy is not None:
        notes.append("copied: " + copy)
    if repeat is not None:
        notes.append("repeated: " + repeat)
    row = (military, treasury, wonder, civilian, science, commercial, guilds)
    if edifice:
        row += (edifice_points(city) + again,)
    return row, "; ".join(notes)


def final_scores(cities: tuple[City, ...], edifice: bool = False) -> tuple[tuple[tuple[int, ...], ...], tuple[str, ...]]:
    """Every seat's categories and choice notes."""
    out = [score_city(cities, s, edifice) for s in range(len(cities))]
    return tuple(o[0] for o in out), tuple(o[1] for o in out)


def result(state: State) -> Result | None:
    """Scores by category and ranking: most VP, then most coins; still tied = shared (§9)."""
    if state.phase != "over":
        return None
    # the Free City (§12) is scored but is not a player and cannot win
    scores, coins = state.scores[: state.players], state.final_coins[: state.players]
    totals = tuple(sum(s) for s in scores)
    keys = [(t, c) for t, c in zip(totals, coins)]
    ranks = tuple(1 + sum(1 for other in keys if other > k) for k in keys)
    return Result(
        categories=state.categories,
        scores=scores,
        totals=totals,
        ranks=ranks,
        winners=tuple(s for s, r in enumerate(ranks) if r == 1),
        tiebreak=coins,
    )


def facets(state: State) -> tuple[dict[str, str], ...]:
    """Statistics dimensions per seat: wonder, side, board (wonder+side), seat, players."""
    return tuple(
        {"wonder": c.wonder, "side": c.side, "board": f"{c.wonder}_{c.side}", "seat": str(i),
         "players": str(state.players)}
        for i, c in enumerate(state.cities[: state.players])
    )
