"""What an append call takes and returns: items, landings, retention, results, records.

The append script's contract (events/append.lua, events/README.md) in Python types; no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import msgspec
from redis.exceptions import OutOfMemoryError, ResponseError

from events.envelope import Envelope

Status = Literal["ok", "conflict", "duplicate", "rejected", "reused", "broken"]
STATUSES: tuple[Status, ...] = (
    "ok", "conflict", "duplicate", "rejected", "conflict", "reused", "broken")  # 4: not tried after a conflict


def whole_fields(env: Envelope) -> list[Any]:
    """An envelope's field values in `FIELDS` order, which the script packs into a stream
    entry (`events.codec.ENTRY`). Redis's Lua MessagePack reads str but not bin: the payload
    is JSON, so UTF-8, and travels as str with exactly the same bytes. The whole form, for
    lists of envelopes that are not one command's chain (an import, a fork);
    `Appends._entry` sends a command's envelopes compact."""
    return [env.game_id, env.game_type, env.seq, env.type, env.v, env.time, env.command_id, env.seat,
            env.prev_hash, env.hash, env.format, env.data.decode()]


FINGERPRINT_LEN = 16
"""Hex digits of a command fingerprint, the prefix of its done and rejected records."""


def record(fingerprint: str, answer: bytes) -> bytes:
    """A done or rejected record: the fingerprint of the command it answers, then the
    answer (JSON seqs, or the Rejected outcome)."""
    return fingerprint.encode() + answer


class Landing(msgspec.Struct, frozen=True, gc=False, array_like=True):
    """What the append script settles for a command once its item lands (code 0), in the
    same atomic step: its cmd:{s} entry acknowledged, `outcome` delivered to `reply_to`,
    one count in histogram cell `cell`; for a refusal also its rejected record and audit
    entry. Items that do not land get none of it: the caller settles them.

    kind "a": the item's envelopes are appended and `outcome` is the Accepted JSON up to
    and including `"seqs":` (`events.codec.accepted_prefix`), completed by the script.
    kind "r": a refusal judged on version `expected`: nothing is appended; `outcome` is
    the Rejected JSON, recorded under the item's rejected key (NX) and delivered if the log
    is still at `expected`; `audit` is its rej:{s} entry (field, value, ...).
    kind "s": settle only, unchecked, whatever the log and records say: an answer the
    caller found without the script (an unreadable command, an earlier record's answer, a
    dead letter). Its rejected record is written (NX) if the item names a rejected key,
    `dead` and `audit` if not empty, then outcome, acknowledgement and latency count.
    One settlement path: every outcome the referee sends goes through the script.
    """

    kind: Literal["a", "r", "s"]
    msg_id: str
    reply_to: str = ""
    """The reply stream (a key of the item's shard), or "" to deliver nothing."""
    outcome: str = ""
    cell: int = 0
    """1-based index into the call's histogram cells; 0 counts nothing."""
    audit: list[Any] = []
    dead: list[Any] = []
    """kind "s" only: the command's dead-letter entry on dlq:{s} (field, value, ...), if any."""


class Retention(msgspec.Struct, frozen=True, kw_only=True):
    """How long the append script keeps what it writes beside the logs (counts of entries
    are approximate, MAXLEN ~; times in seconds, 0 = keep)."""

    reply_maxlen: int = 10_000
    reply_ttl: int = 0
    """A reply stream expires this long after the last outcome written to it."""
    rejections_maxlen: int = 10_000
    """Entries kept in rej:{s} and in dlq:{s}."""
    rejected_ttl: int = 86_400
    done_grace: int = 0
    """The done records of a game's commands expire this long after the command that ends
    it (an item with `ends`); 0 keeps them."""


class AppendItem(msgspec.Struct, frozen=True, gc=False):
    """One command's envelopes to append to a game's log if it is still at `expected`
    (or, with a refusal landing, its rejection to record if the log is still there)."""

    game_id: str
    expected: int
    command_id: str
    envelopes: Sequence[Envelope]
    rejected_key: str = ""  # if this key exists the command was refused before: answer that
    fingerprint: str = ""
    """Identifies the command behind `command_id` (see `record`): a record of that id
    written for another fingerprint is answered `reused`, not as this command's."""
    landing: Landing | None = None
    exact_fingerprint: str = ""
    """The fingerprint the command had before fingerprints read it with sorted keys (a hash
    of its exact bytes, `protocol.exact_fingerprint`): a record written then under its id
    answers it too (it was `command_id_reused`)."""
    ends: bool = False
    """The command ends the game: once it lands, the game's undisclosed seed is deleted (the
    log reveals it) and the done records of every command in its log get their expiry
    (`Retention.done_grace`)."""


class AppendResult(msgspec.Struct, frozen=True, gc=False):
    """How an append was judged.

    ok: `seqs` were assigned now. duplicate: the command was applied before and `seqs`
    are the ones it got then (nothing was appended). rejected: the item's `rejected_key`
    exists; `stored` is its value (nothing was appended). conflict: the log was not at the
    expected version, or an earlier item of the same game in this call did not land;
    `seqs` is empty. reused: the command id's record (done or rejected) was written for a
    command with another fingerprint; nothing was appended and nothing of that other
    command is returned. broken: the log's last entry is not where its length says, or
    does not chain to the envelopes (its hash is not their prev_hash), or the envelopes do
    not chain to one another: nothing was appended (never a hole, a fork or a repeated seq).
    `version` is the log's length afterwards.
    """

    status: Status
    seqs: list[int]
    version: int
    stored: bytes = b""


def out_of_memory(exc: BaseException) -> bool:
    """Whether Redis refused a command because it is full (maxmemory with noeviction):
    nothing of that command was written."""
    return isinstance(exc, OutOfMemoryError) or (isinstance(exc, ResponseError) and str(exc).startswith("OOM"))
