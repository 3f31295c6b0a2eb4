"""`GET /identities/{id}/stats`: an identity's games played, finished and won, by game type.

Public, as a player's record is on a game server (no token needed): it tells only what
the finished games' results and the lobbies already show, never a view or a move. It is
counted from records, never guessed: the identity's seats (`keys.identity_seats`, each
written after its event in `claims:{s}`), each game's opening envelope (its game type; a
lobby not started has none yet: `waiting`) and the statistics row the projector writes
when a game ends (`keys.stats`: its winners). A game archived out of Redis keeps only a
tombstone (`keys.archived`), so it is counted under `archived`, not guessed into a type.
A game in which the identity holds several seats counts once, won if any of them won.
"""

from __future__ import annotations

import asyncio

import msgspec
from litestar import Request, get
from litestar.params import FromPath

from events import keys
from projections.stats import decode_row
from services.gateway.context import Gateway, gw
from services.gateway.errors import ApiError


class Tally(msgspec.Struct, kw_only=True):
    played: int = 0
    """Games started with the identity in a seat (finished and in play)."""
    finished: int = 0
    won: int = 0
    """Finished games whose winners (ties included) hold one of the identity's seats."""
    in_play: int = 0


class IdentityStats(msgspec.Struct, frozen=True, kw_only=True):
    identity: str
    name: str
    kind: str
    games: Tally
    """Every game type together."""
    by_game_type: dict[str, Tally]
    waiting: int
    """Seats taken in lobbies whose game has not started."""
    archived: int
    """Games archived out of Redis (`tablestream archive`): neither typed nor counted above."""


async def _tally_game(g: Gateway, game_id: str, seats: set[int]) -> tuple[str, str | None, bool]:
    """(state, game type, won) of one game: state is waiting, archived, in_play or finished."""
    first = await g.store.first(game_id)
    if first is None:
        archived = await g.redis.hexists(keys.archived(g.store.shard(game_id)), game_id)
        return ("archived" if archived else "waiting"), None, False
    raw = await g.redis.hget(keys.stats(first.game_type), game_id)
    if not raw:
        return "in_play", first.game_type, False
    row = decode_row(raw)
    return "finished", first.game_type, bool(seats & set(row.winners))


@get("/identities/{identity_id:str}/stats",
     summary="An identity's games played, finished and won, by game type (public, from the recorded claims)")
async def identity_stats(request: Request, identity_id: FromPath[str]) -> IdentityStats:
    g = gw(request)
    fields = await g.redis.hgetall(keys.identity(identity_id)) if 0 < len(identity_id) <= 40 else {}
    if not fields:
        raise ApiError("unknown_identity", "no identity has this id")
    games: dict[str, set[int]] = {}
    for member in await g.redis.smembers(keys.identity_seats(identity_id)):
        seat, _, game_id = member.decode().partition(":")
        games.setdefault(game_id, set()).add(int(seat))
    found = await asyncio.gather(*(_tally_game(g, gid, seats) for gid, seats in sorted(games.items())))
    total, by_type, waiting, archived = Tally(), {}, 0, 0
    for state, game_type, won in found:
        if game_type is None:
            waiting += state == "waiting"
            archived += state == "archived"
            continue
        for t in (total, by_type.setdefault(game_type, Tally())):
            t.played += 1
            t.finished += state == "finished"
            t.in_play += state == "in_play"
            t.won += won
    return IdentityStats(identity=identity_id, name=fields[b"name"].decode(), kind=fields[b"kind"].decode(),
                         games=total, by_game_type=dict(sorted(by_type.items())), waiting=waiting, archived=archived)


ROUTES = [identity_stats]
