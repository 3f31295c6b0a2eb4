"""Ratings of players (openskill's Plackett-Luce model), per game type: a pure fold.

A player is who the log says held a seat (`events.meta.SeatsTaken`, carried by each
statistics row as `seated`, and by the game's `Result`, which the projector keeps in
`keys.rated(game_type)` for good: archiving a game does not take it out of the ratings),
keyed `kind:id`: `bot:greedy` (a bot kind the service plays),
`identity:id-…` (a gateway identity), `chat:discord:1234` (a chat user), `name:Ada` (a
name given in a lobby). Games whose log names no players are not rated; nothing is
guessed from names in views.

`fold` applies finished games in `order` (end time, then game id): the same rows always
give the same ratings, so the projector's incremental ratings equal a rebuild's. Each
seat is a team of one ranked by the game's ranks (shared ranks tie); a player holding
several seats of one game gets the mean of those seats' new mu and sigma; a game in which
one player holds every seat teaches nothing and is skipped.

Interface for readers (the CLI's `stats --ratings`, the dashboard): `decode_ratings` of
the projector's hash `keys.ratings(game_type)` (fields: player key -> `Rating` JSON, plus
`FOLDED`), then `leaderboard` (best ordinal first).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import msgspec
from openskill.models import PlackettLuce

from events.meta import SeatPlayer
from projections.stats import GameRow

FOLDED = "~folded"
"""The ratings hash's field holding the `Folded` position (never a player key: those
start with a kind)."""

_model = PlackettLuce()


class Rating(msgspec.Struct, frozen=True, kw_only=True):
    """A player's rating in one game type: openskill's mu and sigma, the games rated, the
    name last seen."""

    mu: float
    sigma: float
    games: int
    name: str

    @property
    def ordinal(self) -> float:
        """The conservative skill estimate leaderboards sort by: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


class Result(msgspec.Struct, frozen=True, kw_only=True):
    """What rating needs of a finished game: its order, its ranks and who held each seat."""

    game_id: str
    ended_ms: int
    ranks: list[int]
    seated: list[SeatPlayer]


class Folded(msgspec.Struct, frozen=True, kw_only=True):
    """Where a fold stands: the `order` key of the last game folded, and how many."""

    ended_ms: int = 0
    game_id: str = ""
    games: int = 0


def player_key(p: SeatPlayer) -> str:
    """The key a player is rated by: `kind:id`."""
    return f"{p.kind}:{p.id}"


def result(r: GameRow) -> Result | None:
    """The result of a finished game's row, if it can be rated: its players are named and
    not all one."""
    if not len(r.seated) == len(r.seats) > 0 or len({player_key(p) for p in r.seated}) < 2:
        return None
    return Result(game_id=r.game_id, ended_ms=r.ended_ms, ranks=[s.rank for s in r.seats], seated=list(r.seated))


def order(r: Result) -> tuple[int, str]:
    """The order games are folded in: end time (the log's last envelope), then game id."""
    return (r.ended_ms, r.game_id)


def fold(ratings: Mapping[str, Rating], results: Iterable[Result]) -> dict[str, Rating]:
    """`ratings` after `results`, taken in the order given (the caller sorts by `order`;
    `rebuild` does)."""
    out = dict(ratings)
    for r in results:
        keys = [player_key(p) for p in r.seated]
        teams = [[_model.rating(mu=out[k].mu, sigma=out[k].sigma) if k in out else _model.rating()] for k in keys]
        new = _model.rate(teams, ranks=[float(x) for x in r.ranks])
        got: dict[str, list[tuple[float, float]]] = {}
        for k, team in zip(keys, new):
            got.setdefault(k, []).append((team[0].mu, team[0].sigma))
        for k, p in zip(keys, r.seated):
            if k in got:
                vals = got.pop(k)
                out[k] = Rating(mu=sum(m for m, _ in vals) / len(vals), sigma=sum(s for _, s in vals) / len(vals),
                                games=(out[k].games if k in out else 0) + 1, name=p.name)
    return out


def rebuild(results: Iterable[Result]) -> tuple[dict[str, Rating], Folded]:
    """The ratings of `results`, folded from nothing in `order`, and where the fold stands."""
    chosen = sorted(results, key=order)
    last = chosen[-1] if chosen else None
    return fold({}, chosen), Folded(ended_ms=last.ended_ms if last else 0, game_id=last.game_id if last else "",
                                    games=len(chosen))


def extend(ratings: Mapping[str, Rating], at: Folded, results: Iterable[Result]) -> tuple[dict[str, Rating], Folded] | None:
    """`ratings` (folded up to `at`) after `results`, if every one of them comes after `at`
    in `order`: then the result equals `rebuild` of all the games. None if one comes
    before (another projector folded a later game first): rebuild."""
    chosen = sorted(results, key=order)
    if not chosen:
        return dict(ratings), at
    if order(chosen[0]) <= (at.ended_ms, at.game_id):
        return None
    last = chosen[-1]
    return fold(ratings, chosen), Folded(ended_ms=last.ended_ms, game_id=last.game_id, games=at.games + len(chosen))


_enc = msgspec.json.Encoder()
_rating = msgspec.json.Decoder(Rating)
_folded = msgspec.json.Decoder(Folded)
_result = msgspec.json.Decoder(Result)


def encode_result(r: Result) -> bytes:
    return _enc.encode(r)


def decode_result(data: bytes) -> Result:
    return _result.decode(data)


def encode_ratings(ratings: Mapping[str, Rating], at: Folded) -> dict[str, bytes]:
    """The ratings hash's fields."""
    return {**{k: _enc.encode(v) for k, v in ratings.items()}, FOLDED: _enc.encode(at)}


def decode_ratings(fields: Mapping[bytes, bytes]) -> tuple[dict[str, Rating], Folded]:
    """The ratings and fold position of a ratings hash (as HGETALL returns it)."""
    ratings = {k.decode(): _rating.decode(v) for k, v in fields.items() if k.decode() != FOLDED}
    at = _folded.decode(fields[FOLDED.encode()]) if FOLDED.encode() in fields else Folded()
    return ratings, at


def leaderboard(ratings: Mapping[str, Rating]) -> list[dict[str, object]]:
    """Players best first (ordinal, then mu, then key): key, name, mu, sigma, ordinal, games."""
    rows = [{"player": k, "name": r.name, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal, "games": r.games}
            for k, r in ratings.items()]
    return sorted(rows, key=lambda x: (-x["ordinal"], -x["mu"], x["player"]))  # type: ignore[operator]
