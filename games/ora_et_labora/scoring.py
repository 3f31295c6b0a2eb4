"""Final scoring (§10): A goods points + B economic values + C settlement scores."""

from __future__ import annotations

from games.contract import Result
from games.ora_et_labora.catalog import CATALOG
from games.ora_et_labora.goods import goods_points
from games.ora_et_labora.landscape import Landscape, Space, neighbours
from games.ora_et_labora.state import State

CATEGORIES = ("goods", "economic", "settlements")
"""A, B and C of §10, in that order."""
WATER = CATALOG.game.landscapes.water_dwelling_value  # 3: an unbuilt water space (§10 C)


def _card(built: str):  # a building or a settlement row
    return CATALOG.settlements[built] if built in CATALOG.settlements else CATALOG.buildings[built]


def is_settlement(built: str) -> bool:
    return built in CATALOG.settlements


def dwelling(space: Space) -> int:
    """What a space adds to a neighbouring settlement's score (§10 C): the dwelling value of
    its building or settlement, 3 for an unbuilt water space, else 0 (empty, forest, moor)."""
    if space.built:
        return _card(space.built).dwelling_value
    return WATER if space.terrain == "water" else 0


def economic(land: Landscape) -> int:
    """B: economic values of every building and settlement in the landscape (§10 B)."""
    return sum(_card(s.built).economic_value for s in land.spaces if s.built)


def settlement_score(land: Landscape, space: Space) -> int:
    """One settlement's score (§10 C): its own dwelling value plus each neighbour's."""
    return _card(space.built).dwelling_value + sum(dwelling(n) for n in neighbours(land, space.cell))


def settlements(land: Landscape) -> int:
    """C: the sum of every settlement's score (§10 C)."""
    return sum(settlement_score(land, s) for s in land.spaces if s.built and is_settlement(s.built))


def score(land: Landscape, goods: tuple[int, ...]) -> tuple[int, int, int]:
    """(A, B, C) of one player (§10); the total is their sum."""
    return goods_points(goods), economic(land), settlements(land)


def standing(state: State) -> tuple[int, ...]:
    """Each seat's points if the game were scored now (§10: A + B + C), for search bots."""
    return tuple(sum(score(state.owners[s].land, state.owners[s].goods)) for s in range(state.players))


def result(state: State) -> Result | None:
    """Scores and ranks once the game is over (§10: highest total wins, ties are shared)."""
    if state.phase != "over":
        return None
    totals = tuple(sum(s) for s in state.scores)
    ranks = tuple(1 + sum(1 for u in totals if u > t) for t in totals)
    return Result(categories=state.categories, scores=state.scores, totals=totals, ranks=ranks,
                  winners=tuple(s for s, r in enumerate(ranks) if r == 1))


ORDINALS = ("1st", "2nd", "3rd", "4th")
"""A seat's place in the first round's order (1st = the first start player)."""
SOLO_TARGET = 500
"""The solo game's goal (§13.4): the result ranks the lone seat first either way; the
statistics facet `target` says whether it was reached."""


def facets(state: State) -> list[dict[str, str]]:
    """Statistics dimensions per seat: seat, place in the first round's order ("1st" = the
    start player), mode, variant, players; in a finished solo game, `target` reached or missed."""
    n = state.players
    rows = [{"seat": str(s), "order": ORDINALS[(s - state.first) % n], "mode": state.mode,
             "variant": state.options.variant, "players": str(n)} for s in range(n)]
    if state.mode == "solo" and state.scores:
        rows[0]["target"] = "reached" if sum(state.scores[0]) >= SOLO_TARGET else "missed"
    return rows


def summary(state: State) -> dict[str, int]:
    """Extra numbers of a finished game: rounds played, buildings built, settlements built."""
    built = [s.built for o in state.owners[:state.players] for s in o.land.spaces if s.built]
    return {"rounds": state.round, "buildings": sum(1 for b in built if b in CATALOG.buildings and not b.startswith("H")),
            "settlements": sum(1 for b in built if is_settlement(b))}
