"""The shell's wire formats: command entries on cmd:{s}, outcomes on reply streams.

A command entry has three fields: `body` (the CommandEnvelope as JSON, the only thing
the referee trusts), and `id` / `to` (command id and reply stream) repeated outside the
body so that even an undecodable body gets its rejection delivered to its sender.
Names below complement `events.keys` for the shell's own bookkeeping.
"""

from __future__ import annotations

import hashlib
import secrets

import msgspec

from events import keys
from events.envelope import CommandEnvelope

BODY, ID, TO = b"body", b"id", b"to"
OUTCOMES = b"os"
"""Field of a reply entry: the JSON list of the outcomes of one referee batch for that client."""
GROUP = "referee"
"""The referee's consumer group on every cmd:{s}."""
REPLY_MAXLEN = 10_000
REPLY_TTL_S = 24 * 3600
REJECTED_TTL_S = 24 * 3600


class OpenRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The `command` of an "open" envelope: which options, and the hashes of the seat tokens.

    Clients draw the seat tokens and send only their SHA-256, so no token is ever stored.
    `preset` names one of the game's presets; `options` (JSON of the options Struct)
    overrides it; `fixture` (JSON of the game's fixture Struct) replaces the seeded deal.
    """

    token_hashes: list[str]
    preset: str = ""
    # JSON kept raw, `null` when absent. Not `Raw | None`: msgspec (0.23) decodes that union
    # as null only, and refused every options or fixture object.
    options: msgspec.Raw = msgspec.Raw(b"null")
    fixture: msgspec.Raw = msgspec.Raw(b"null")


latency = keys.latency
"""The latency histogram's key, built in `events.keys` (kept here for its callers)."""


def new_token() -> str:
    """A fresh secret seat token: 144 random bits in hex. Never begins with "-", which a
    command line would read as an option: URL-safe base64 tokens did one time in 64, and
    `tablestream act GAME SEAT TOKEN ...` then stopped with a usage error."""
    return secrets.token_hex(18)


def token_hash(token: str) -> str:
    """The hash of a seat token as stored in GameOpened.seat_token_hashes."""
    return hashlib.sha256(token.encode()).hexdigest()


def fingerprint(env: CommandEnvelope) -> str:
    """What a command id stands for: 16 hex digits of a hash of the game, the seat, the
    kind and the command's exact bytes (not the token, the reply stream or the clock). A
    resent command has the same fingerprint; a command id reused for another command does
    not, and is refused (`command_id_reused`) instead of getting the other one's outcome."""
    h = hashlib.blake2b(env.command, digest_size=8)
    h.update(b"%s\0%d\0%s" % (env.game_id.encode(), env.seat, env.kind.encode()))
    return h.hexdigest()


_enc = msgspec.json.Encoder()


def command_fields(env: CommandEnvelope) -> dict[bytes, bytes]:
    """The stream entry of a command."""
    return {BODY: _enc.encode(env), ID: env.command_id.encode(), TO: env.reply_to.encode()}
