"""Payload and envelope codecs: the only way stored bytes become Structs and back.

Encoders and decoders are built once per game union (msgspec's advice: reuse them), and
take the union and the upcaster table as plain values, so this module never imports
`games/`. Nothing stored uses `omit_defaults` or `array_like`: the stored JSON names every
field, which is what lets additive changes decode old logs without an upcaster.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from typing import Any

import msgspec

from events.envelope import Envelope, Outcome
from events.meta import MetaEvent
from events.upcasting import Upcaster, upcast


class PayloadCodec:
    """Encodes the events of one tagged union and decodes stored payloads of any version.

    `decode` takes the typed fast path when the stored version is current; otherwise it
    decodes to a dict, runs the upcaster chain and decodes the result as the union.
    """

    __slots__ = ("_by_class", "_current", "_decoder", "_encoder", "_upcasters")

    def __init__(self, union: Any, upcasters: Mapping[tuple[str, int], Upcaster]) -> None:
        members: tuple[type, ...] = typing.get_args(union) or (union,)
        self._by_class: dict[type, tuple[str, int]] = {}
        self._current: dict[str, tuple[type, int]] = {}
        for cls in members:
            tag = getattr(getattr(cls, "__struct_config__", None), "tag", None)
            if not isinstance(tag, str):
                raise TypeError(f"{cls!r} is not a Struct with an explicit string tag")
            version = getattr(cls, "version", None)
            if not isinstance(version, int) or version < 1:
                raise TypeError(f"{cls.__name__}.version must be an int >= 1, got {version!r}")
            if tag in self._current:
                other = self._current[tag][0].__name__
                raise TypeError(f"tag {tag!r} is used by {other} and {cls.__name__}")
            self._by_class[cls] = (tag, version)
            self._current[tag] = (cls, version)
        for tag, step in upcasters:
            # A table entry that can never run is a typo waiting to lose data: refuse it now.
            if tag not in self._current or not 1 <= step < self._current[tag][1]:
                raise ValueError(f"upcaster ({tag!r}, {step}) matches no older version of a member")
        self._upcasters = dict(upcasters)
        self._encoder = msgspec.json.Encoder()
        self._decoder = msgspec.json.Decoder(union)

    @property
    def versions(self) -> Mapping[str, int]:
        """Each member's tag and current version."""
        return {tag: v for tag, (_, v) in self._current.items()}

    def encode(self, event: Any) -> tuple[str, int, bytes]:
        """`(tag, version, JSON bytes)` of an event of this union."""
        try:
            tag, version = self._by_class[type(event)]
        except KeyError:
            name = type(event).__name__
            raise TypeError(f"{name} is not a member of this codec's union") from None
        return tag, version, self._encoder.encode(event)

    def decode(self, type: str, v: int, data: bytes) -> Any:
        """The event stored as `type` at version `v` with payload `data`, as today's Struct."""
        try:
            cls, current = self._current[type]
        except KeyError:
            raise ValueError(f"unknown event type {type!r} for this union") from None
        if v == current:
            event = self._decoder.decode(data)
            if event.__class__ is not cls:
                name = event.__class__.__name__
                raise ValueError(f"envelope says {type!r} but the payload is a {name}")
            return event
        raw = msgspec.json.decode(data)
        if not isinstance(raw, dict):
            raise ValueError(f"{type!r} v{v} payload is not a JSON object")
        raw = upcast(raw, type, v, self._upcasters, current)
        # Tags never change, so the tag is restored whatever an upcaster did with it.
        raw = {**raw, "type": type}
        # Re-decoding JSON rather than msgspec.convert keeps exactly the fast path's rules
        # (convert cannot build msgspec.Raw fields such as GameOpened.options); this path
        # only runs for old payloads.
        return self._decoder.decode(self._encoder.encode(raw))


META = PayloadCodec(MetaEvent, {})
"""The codec of the shell-level events (`events.meta`) found in every log."""

FIELDS: tuple[str, ...] = (
    "game_id",
    "game_type",
    "seq",
    "type",
    "v",
    "time",
    "command_id",
    "seat",
    "prev_hash",
    "hash",
    "format",
    "data",
)
"""The envelope's fields in the order a stream entry holds their values (`ENTRY`); also the
field names of the layout written until 2026-11-30 (`envelope_to_fields`)."""

def envelope_to_fields(env: Envelope) -> dict[str, bytes | str | int]:
    """The field map of a stream entry as written until 2026-11-30 (one field per envelope
    field; `envelope_from_fields` still reads it); `data` stays the payload's exact bytes."""
    return {name: getattr(env, name) for name in FIELDS}


ENTRY = b"e"
"""The one field of a stream entry (log and feed alike): the envelope as a MessagePack array
of the `FIELDS` values in that order, `data` as a string (its exact bytes: the payload is
UTF-8 JSON). The append script packs it (events/append.lua); `encode_entry` is the same
in Python. One field instead of twelve: 42% fewer bytes an event in Redis's AOF, and 22
fewer arguments to each XADD of the script (events/README.md)."""

_Entry = tuple[str, str, int, str, int, int, str, int, str, str, int, str]
_entry_decoder = msgspec.msgpack.Decoder(_Entry)
_entry_encoder = msgspec.msgpack.Encoder()


def encode_entry(env: Envelope) -> bytes:
    """The `ENTRY` value of an envelope."""
    return _entry_encoder.encode((env.game_id, env.game_type, env.seq, env.type, env.v, env.time, env.command_id,
                                  env.seat, env.prev_hash, env.hash, env.format, env.data.decode()))


def _from_entry(entry: bytes) -> Envelope:
    """The Envelope of an `ENTRY` value."""
    g, gt, seq, ty, v, tm, c, seat, ph, h, fm, data = _entry_decoder.decode(entry)
    return Envelope(game_id=g, game_type=gt, seq=seq, type=ty, v=v, time=tm, command_id=c, seat=seat,
                    data=data.encode(), prev_hash=ph, hash=h, format=fm)


def envelope_from_fields(fields: Mapping[bytes, bytes]) -> Envelope:
    """The Envelope of a stream entry as redis-py returns it (bytes keys and values): one
    `ENTRY` field, or (entries written until 2026-11-30) one field per envelope field."""
    entry = fields.get(ENTRY)
    if entry is not None:
        return _from_entry(entry)
    try:
        return Envelope(
            game_id=fields[b"game_id"].decode(),
            game_type=fields[b"game_type"].decode(),
            seq=int(fields[b"seq"]),
            type=fields[b"type"].decode(),
            v=int(fields[b"v"]),
            time=int(fields[b"time"]),
            command_id=fields[b"command_id"].decode(),
            seat=int(fields[b"seat"]),
            data=bytes(fields[b"data"]),
            prev_hash=fields[b"prev_hash"].decode(),
            hash=fields[b"hash"].decode(),
            format=int(fields[b"format"]),
        )
    except KeyError as e:
        raise ValueError(f"stream entry lacks envelope field {e.args[0]!r}") from None


def envelope_from_entry(fields: Mapping[bytes, bytes] | list[bytes]) -> Envelope:
    """`envelope_from_fields` of an entry's fields as Redis sends them (a flat list of
    names and values, what a read that skips redis-py's dict building gets) or as a dict."""
    if isinstance(fields, list):
        if len(fields) == 2 and fields[0] == ENTRY:
            return _from_entry(fields[1])
        fields = dict(zip(fields[::2], fields[1::2]))
    return envelope_from_fields(fields)


_outcome_encoder = msgspec.json.Encoder()
_outcome_decoder = msgspec.json.Decoder(Outcome)


def encode_outcome(outcome: Outcome) -> bytes:
    """JSON of an Accepted or Rejected, tagged by its `status` field."""
    return _outcome_encoder.encode(outcome)


def accepted_prefix(command_id: str, game_id: str) -> bytes:
    """`encode_outcome(Accepted(command_id, game_id, seqs))` up to and including `"seqs":`:
    the append script completes it with the JSON seqs and "}" (it alone knows them)."""
    return (b'{"status":"accepted","command_id":' + _outcome_encoder.encode(command_id)
            + b',"game_id":' + _outcome_encoder.encode(game_id) + b',"seqs":')


def decode_outcome(data: bytes) -> Outcome:
    """The Accepted or Rejected encoded by `encode_outcome`."""
    return _outcome_decoder.decode(data)


_outcomes_decoder = msgspec.json.Decoder(list[Outcome])


def decode_outcomes(data: bytes) -> list[Outcome]:
    """A reply entry's JSON list of outcomes: every outcome of a batch for one client, as
    events/append.lua writes it."""
    return _outcomes_decoder.decode(data)
