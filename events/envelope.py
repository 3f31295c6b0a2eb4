"""The game-agnostic envelope around every stored event, and the outcome of a command."""

from __future__ import annotations

from typing import Annotated

import msgspec

Seat = int
"""A 0-based seat number. Player identities live only in the shell."""

MAX_SEAT = 255
"""The largest seat number a command envelope may carry (games have far fewer seats)."""

ENVELOPE_FORMAT = 1
"""Format marker of the envelope itself (not of any payload)."""


class Envelope(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One stored event of a game's log.

    `data` is the exact JSON bytes of the payload; `hash` covers every other field
    (see `events.chain`), so a log can be verified before anything is decoded.
    """

    game_id: str
    game_type: str
    seq: int
    type: str
    v: int
    time: int  # milliseconds since the epoch, injected by the shell
    command_id: str
    seat: int  # -1 for system events (creation, reveals)
    data: bytes
    prev_hash: str
    hash: str
    format: int = ENVELOPE_FORMAT


class Accepted(msgspec.Struct, frozen=True, kw_only=True, tag="accepted", tag_field="status", gc=False):
    """The command was legal; its events got these sequence numbers."""

    command_id: str
    game_id: str
    seqs: list[int]


class Rejected(msgspec.Struct, frozen=True, kw_only=True, tag="rejected", tag_field="status", gc=False):
    """The command was refused; nothing was logged. `code` is stable, `message` is prose."""

    command_id: str
    game_id: str
    code: str
    message: str


Outcome = Accepted | Rejected


class CommandEnvelope(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, gc=False):
    """A command on its way to the referee, as JSON in the `body` field of a cmd:{s} entry.

    `kind` is "act" (a seat's move: `command` is the game's Command as JSON, `token` the
    seat's secret) or "open" (create `game_id`: `command` is the shell's open request).
    The outcome goes to the client's reply stream `reply_to`; `sent_us` is the sender's
    clock (microseconds) for latency figures only. The integers are bounded when decoded
    (a seat is small, a clock is a clock): anything else is refused as malformed before it
    could reach a packer that cannot hold it.
    """

    command_id: str
    game_id: str
    game_type: str
    kind: str = "act"
    seat: Annotated[int, msgspec.Meta(ge=-1, le=MAX_SEAT)] = -1
    token: str = ""
    command: msgspec.Raw = msgspec.Raw(b"null")
    reply_to: str = ""
    sent_us: Annotated[int, msgspec.Meta(ge=0, le=2**62)] = 0
