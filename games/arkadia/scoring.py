"""Seal values (§7.2), the final exchange and the ranking (§8): most gold wins, a tie for
the most gold is a shared victory (no tie-breaker)."""

from __future__ import annotations

from games.arkadia.catalog import CATALOG, SEALS
from games.arkadia.state import State
from games.contract import Result

CATEGORIES = ("gold", *SEALS)
"""Gold before the final exchange, then the gold each family's seals bring in it."""


def values(castle: tuple[tuple[str, ...], ...]) -> tuple[int, int, int, int]:
    """Each family's seal value: the castle squares showing its colour from above, i.e. the
    colour of the top piece, or the printed seal when a square has no piece (§7.2)."""
    shown = [s[-1] if s else p for s, p in zip(castle, CATALOG.printed)]
    return tuple(shown.count(c) for c in SEALS)  # type: ignore[return-value]


def final_scores(gold: tuple[int, ...], seals: tuple[tuple[int, ...], ...],
                 vals: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Per seat: gold held, then seals x value for each family (§8 final exchange)."""
    return tuple((g, *(k * v for k, v in zip(s, vals))) for g, s in zip(gold, seals))


def result(state: State) -> Result | None:
    """Scores by category and the ranking: most gold; equal gold shares the place (§8)."""
    if state.phase != "over":
        return None
    totals = tuple(sum(s) for s in state.scores)
    ranks = tuple(1 + sum(1 for o in totals if o > t) for t in totals)
    return Result(categories=state.categories, scores=state.scores, totals=totals, ranks=ranks,
                  winners=tuple(s for s, r in enumerate(ranks) if r == 1))


def facets(state: State) -> tuple[dict[str, str], ...]:
    """Statistics dimensions per seat: seat, colour, start seat or not, players, lot orientation."""
    return tuple(
        {"seat": str(i), "colour": CATALOG.colours[i], "first": str(i == state.start).lower(),
         "players": str(state.players), "lot": state.lot.orientation}
        for i in range(state.players)
    )


def summary(state: State) -> dict[str, object]:
    """Extra numbers of a game: turns, how it ended, buildings laid and completed, castle pieces."""
    return {
        "turns": state.turn,
        "end": state.reason,
        "buildings": len(state.buildings),
        "completed": sum(1 for b in state.buildings if b.completed),
        "castle_pieces": sum(len(s) for s in state.castle),
        "workers": len(state.workers),
    }
