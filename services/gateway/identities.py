"""Identities: a bot or player registers once and gets an identity token (issue #30).

`POST /identities {name, kind}` answers an id and a token `<id>.<secret>`; the token's
SHA-256 is all that is kept. Its creation is an event of the append-only `identities`
stream (`keys.identities`), written before the identity's hash (`keys.identity`) that
requests are checked against; each seat an identity claims (`POST /lobbies/{id}/seats`
with `Authorization: Bearer <identity token>`) or is offered by a lobby's host (`POST
/lobbies/{id}/offers`) is an event of its shard's `claims:{s}` stream, written before the
seat joins the identity's seat set (`keys.identity_seats`), which its event stream
(`services.gateway.identity_events`) watches. Statistics and ratings are kept by these
records, never guessed from names.

Tokens are compared in constant time (`hmac.compare_digest` of SHA-256 hex digests); an
unknown id is compared against a dummy digest so that timing does not tell ids apart.
"""

from __future__ import annotations

import hmac
import time

import msgspec
from litestar import Request, post
from litestar.params import JSONBody

from events import keys
from services import protocol
from services.gateway import auth
from services.gateway.context import Gateway, gw
from services.gateway.errors import ApiError

MAX_NAME_CHARS = 40
KINDS = ("bot", "player")
_DUMMY = protocol.token_hash("no identity")


class NewIdentity(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: str
    kind: str = "player"
    """bot or player."""


class Identity(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    kind: str


class CreatedIdentity(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    kind: str
    token: str
    """`Authorization: Bearer <token>` for lobby claims and the event stream: keep it secret."""


def check_name(name: str, game_id: str | None = None) -> str:
    name = name.strip()
    if not 0 < len(name) <= MAX_NAME_CHARS or not name.isprintable():
        raise ApiError("malformed", f"a display name is 1-{MAX_NAME_CHARS} printable characters", game_id=game_id)
    return name


@post("/identities", status_code=201, summary="Register a bot or player once; returns its id and identity token")
async def create_identity(request: Request, data: JSONBody[NewIdentity]) -> CreatedIdentity:
    g = gw(request)
    auth.refuse_token_in_url(request)
    name = check_name(data.name)
    if data.kind not in KINDS:
        raise ApiError("malformed", f"kind is one of {', '.join(KINDS)}")
    ident = f"id-{protocol.new_token()[:16]}"
    token = f"{ident}.{protocol.new_token()}"
    digest = protocol.token_hash(token)
    await g.redis.xadd(keys.identities(), {"type": "identity_created", "id": ident, "name": name,
                                           "kind": data.kind, "hash": digest, "at": str(int(time.time() * 1000))})
    await g.redis.hset(keys.identity(ident), mapping={"name": name, "kind": data.kind, "hash": digest})
    return CreatedIdentity(id=ident, name=name, kind=data.kind, token=token)


async def identity_of(g: Gateway, token: str) -> Identity | None:
    """The identity whose token this is, or None (compared in constant time)."""
    ident, dot, _ = token.partition(".")
    fields = await g.redis.hgetall(keys.identity(ident)) if dot and 0 < len(ident) <= 40 else {}
    stored = fields.get(b"hash", _DUMMY.encode())
    if not hmac.compare_digest(protocol.token_hash(token).encode(), stored) or not fields:
        return None
    return Identity(id=ident, name=fields[b"name"].decode(), kind=fields[b"kind"].decode())


async def require_identity(g: Gateway, token: str | None) -> Identity:
    """The identity of a bearer token that must be one (ApiError bad_token: 401)."""
    if token is None:
        raise ApiError("bad_token", "this needs an identity token: 'Authorization: Bearer <identity token>'")
    found = await identity_of(g, token) if len(token) <= auth.MAX_TOKEN_CHARS else None
    if found is None:
        raise ApiError("bad_token", "this token is not an identity token")
    return found


async def record_seat(g: Gateway, ident: Identity, game_id: str, seat: int, how: str) -> None:
    """Records that `ident` holds `seat` of `game_id` (`how`: claimed or offered): the
    claims event first, then the identity's seat set its event stream watches."""
    s = g.store.shard(game_id)
    await g.redis.xadd(keys.claims(s), {"type": f"seat_{how}", "identity": ident.id, "game_id": game_id,
                                        "seat": str(seat), "at": str(int(time.time() * 1000))})
    await g.redis.sadd(keys.identity_seats(ident.id), f"{seat}:{game_id}")


ROUTES = [create_identity]
