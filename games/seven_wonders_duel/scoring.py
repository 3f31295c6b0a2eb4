"""Scoring (§10): the score sheet by category, military VP (§7), guilds at the end
(§11.4), and the result with its victory type and blue-card tie-breaker."""

from __future__ import annotations

from games.contract import Result
from games.seven_wonders_duel.catalog import (
    CATALOG,
    COLORS,
    GuildMajorityCards,
    GuildMajorityCoins,
    GuildMajorityWonders,
)
from games.seven_wonders_duel.payment import SPEC, profile
from games.seven_wonders_duel.state import City, State

CATEGORIES = ("blue", "green", "yellow", "purple", "wonders", "progress", "coins", "military")
TOKEN_POINTS = {"agriculture": 4, "philosophy": 7}  # §13
MATHEMATICS = 3  # VP per token owned, itself included (§13)


ZONE_POINTS = {p: z["vp_for_leader"] for z in CATALOG.military["zones"] if "vp_for_leader" in z
               for p in z["abs_positions"]}
"""Distance of the pawn from the centre -> VP for the favoured seat (§7): 0, 2, 5 or 10."""


def military_points(pawn: int, seat: int) -> int:
    """0/2/5/10 VP for the seat the pawn favours, by its zone (§7)."""
    ahead = pawn if seat == 0 else -pawn
    return ZONE_POINTS.get(ahead, 0) if ahead > 0 else 0


def count(city: City, colors: tuple[str, ...]) -> int:
    """Buildings of these colours in the city."""
    counts = profile(city.cards).counts
    return sum(counts[COLORS.index(c)] for c in colors)


def guild_points(card: str, cities: tuple[City, ...]) -> int:
    """End-of-game VP of a guild: counted in the city with the most (§11.4, §15 #20)."""
    total = 0
    for e in CATALOG.cards[card].effects:
        if isinstance(e, GuildMajorityCards):
            total += e.vp_per_card_at_end * max(count(c, e.colors) for c in cities)
        elif isinstance(e, GuildMajorityWonders):
            total += e.vp_per_wonder_at_end * max(len(c.built) for c in cities)
        elif isinstance(e, GuildMajorityCoins):
            total += e.vp_per_3_coins_at_end * (max(c.coins for c in cities) // 3)
    return total


def score_sheet(state: State, seat: int) -> tuple[int, ...]:
    """One seat's VP in CATEGORIES order (§10)."""
    city = state.cities[seat]
    by = dict.fromkeys(("blue", "green", "yellow"), 0)
    purple = 0
    for cid in city.cards:
        s = SPEC[cid]
        if s.color in by:
            by[s.color] += s.points
        elif s.color == "purple":
            purple += guild_points(cid, state.cities)
    wonders = sum(SPEC[w].points for w in city.built)
    progress = sum(TOKEN_POINTS.get(t, 0) for t in city.tokens)
    if "mathematics" in city.tokens:
        progress += MATHEMATICS * len(city.tokens)
    return (by["blue"], by["green"], by["yellow"], purple, wonders, progress, city.coins // 3,
            military_points(state.pawn, seat))


def scores(state: State) -> tuple[tuple[int, ...], ...]:
    return (score_sheet(state, 0), score_sheet(state, 1))


def civilian_winners(sheets: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """Most VP; tie: most blue-card VP; still tied: both (§10)."""
    keys = [(sum(s), s[0]) for s in sheets]
    best = max(keys)
    return tuple(i for i, k in enumerate(keys) if k == best)


def result(state: State) -> Result | None:
    """The final sheet and ranking. A supremacy victory ranks its winner first whatever
    the points (§7, §8); `tiebreak` holds the blue-card VP (§10)."""
    if state.phase != "over":
        return None
    totals = tuple(sum(s) for s in state.scores)
    ranks = tuple(1 if i in state.winners else 2 for i in range(2))
    return Result(categories=state.categories, scores=state.scores, totals=totals, ranks=ranks,
                  winners=state.winners, tiebreak=state.blue)


def facets(state: State) -> tuple[dict[str, str], ...]:
    """Statistics dimensions per seat: seat, first player or not, wonders, victory type."""
    return tuple(
        {"seat": str(i), "players": "2", "start": "first" if i == state.first else "second",
         "wonders": ",".join(sorted((*c.built, *c.wonders))), "victory": state.victory or ""}
        for i, c in enumerate(state.cities)
    )
