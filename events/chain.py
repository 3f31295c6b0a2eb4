"""The SHA-256 hash chain over the exact stored bytes of a game's log.

    hash = hex(sha256(ns(format) ns(game_id) ns(game_type) ns(seq) ns(type) ns(v)
                      ns(time) ns(command_id) ns(seat) ns(prev_hash) ns(data)))

where `ns(x)` is the netstring `<len(b)>:<b>,` of the field's bytes `b`: integers as ASCII
decimal (`-1` for a system seat), strings as UTF-8, `data` exactly as stored. The length
prefixes make the encoding unambiguous, and the payload is hashed before anything decodes
it, so a log is verified before any upcaster runs. `events/README.md` states the same
definition; change neither without changing `ENVELOPE_FORMAT`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from hashlib import sha256

from events.envelope import ENVELOPE_FORMAT, Envelope

GENESIS = "0" * 64
"""The `prev_hash` of every log's first envelope."""


_PAIR = b"%d:%s,%d:%s,"
_EVENT = b"%s%d:%s,%d:%s,%d:%s,%s%d:%s,%d:%s,%d:%s,"


@lru_cache(maxsize=4096)
def _head(format: int, game_id: str, game_type: str) -> bytes:
    """The netstrings of the fields before `seq` (the same for every envelope of a game:
    remembered for the games in play)."""
    fm, g, gt = b"%d" % format, game_id.encode(), game_type.encode()
    return b"%d:%s," % (len(fm), fm) + _PAIR % (len(g), g, len(gt), gt)


def _mid(time: int, command_id: str) -> bytes:
    """The netstrings of `time` and `command_id` (between `v` and `seat`)."""
    tm, c = b"%d" % time, command_id.encode()
    return _PAIR % (len(tm), tm, len(c), c)


def _hash(head: bytes, seq: int, type: str, v: int, mid: bytes, seat: int, prev_hash: str, data: bytes) -> str:
    """The hash of the definition above, from the pre-encoded `_head` and `_mid` (one
    formatting call for the rest: hot path, one call per event)."""
    sq, ty, vv, st, ph = b"%d" % seq, type.encode(), b"%d" % v, b"%d" % seat, prev_hash.encode()
    return sha256(_EVENT % (head, len(sq), sq, len(ty), ty, len(vv), vv, mid, len(st), st,
                            len(ph), ph, len(data), data)).hexdigest()


def _digest(format: int, game_id: str, game_type: str, seq: int, type: str, v: int, time: int,
            command_id: str, seat: int, prev_hash: str, data: bytes) -> str:
    """The hash over the fields, in the order of the definition above."""
    return _hash(_head(format, game_id, game_type), seq, type, v, _mid(time, command_id), seat, prev_hash, data)


class Linker:
    """`link` for the envelopes of one command: the fields they share (format, game, game
    type, time, command id) are encoded once, so each envelope costs only its own fields
    (the referee's hot path: every event of every command). Same hash as `link`."""

    __slots__ = ("_game_id", "_game_type", "_time", "_command_id", "_head", "_mid")

    def __init__(self, *, game_id: str, game_type: str, time: int, command_id: str) -> None:
        self._game_id, self._game_type, self._time, self._command_id = game_id, game_type, time, command_id
        self._head = _head(ENVELOPE_FORMAT, game_id, game_type)
        self._mid = _mid(time, command_id)

    def __call__(self, prev_hash: str, seq: int, type: str, v: int, seat: int, data: bytes) -> Envelope:
        """The envelope after `prev_hash` with these fields and the command's shared ones."""
        # `_hash`, inlined (one call less an event on the referee's hot path).
        sq, ty, vv, st, ph = b"%d" % seq, type.encode(), b"%d" % v, b"%d" % seat, prev_hash.encode()
        h = sha256(_EVENT % (self._head, len(sq), sq, len(ty), ty, len(vv), vv, self._mid, len(st), st,
                             len(ph), ph, len(data), data)).hexdigest()
        return Envelope(game_id=self._game_id, game_type=self._game_type, seq=seq, type=type, v=v, time=self._time,
                        command_id=self._command_id, seat=seat, data=data, prev_hash=prev_hash, hash=h,
                        format=ENVELOPE_FORMAT)


def link(
    prev_hash: str,
    *,
    game_id: str,
    game_type: str,
    seq: int,
    type: str,
    v: int,
    time: int,
    command_id: str,
    seat: int,
    data: bytes,
) -> Envelope:
    """The envelope that follows `prev_hash` (GENESIS for seq 1), with its hash computed."""
    h = _digest(ENVELOPE_FORMAT, game_id, game_type, seq, type, v, time, command_id, seat, prev_hash, data)
    return Envelope(game_id=game_id, game_type=game_type, seq=seq, type=type, v=v, time=time,
                    command_id=command_id, seat=seat, data=data, prev_hash=prev_hash, hash=h,
                    format=ENVELOPE_FORMAT)


def hash_of(env: Envelope) -> str:
    """The hash `env` should carry, recomputed from every other field."""
    return _digest(env.format, env.game_id, env.game_type, env.seq, env.type, env.v, env.time,
                   env.command_id, env.seat, env.prev_hash, env.data)


def _where(i: int, env: Envelope) -> str:
    return f"entry {i + 1} (seq {env.seq}, {env.type})"


def verify(envelopes: Sequence[Envelope]) -> list[str]:
    """Every problem of a whole log, in order, as readable sentences; empty means intact.

    Checks: seqs are 1..n without gaps, one game id throughout, the first `prev_hash` is
    GENESIS, each `prev_hash` is the previous envelope's hash, and each hash recomputes.
    """
    problems: list[str] = []
    prev, prev_seq = GENESIS, 0
    game_id = envelopes[0].game_id if envelopes else ""
    shared: tuple[int, str] | None = None
    mid = b""
    for i, env in enumerate(envelopes):
        # Against the previous entry's seq, so one missing or repeated entry is reported
        # once, not on every entry after it.
        if env.seq != prev_seq + 1:
            problems.append(f"{_where(i, env)}: seq should be {prev_seq + 1}")
        prev_seq = env.seq
        if env.game_id != game_id:
            problems.append(f"{_where(i, env)}: game id {env.game_id!r} differs from {game_id!r}")
        if env.prev_hash != prev:
            expected = "GENESIS" if i == 0 else f"the previous hash {prev}"
            problems.append(f"{_where(i, env)}: prev_hash {env.prev_hash} should be {expected}")
        if (env.time, env.command_id) != shared:  # a command's envelopes share them
            shared = env.time, env.command_id
            mid = _mid(*shared)
        if _hash(_head(env.format, env.game_id, env.game_type), env.seq, env.type, env.v, mid, env.seat,
                 env.prev_hash, env.data) != env.hash:  # hash_of, the shared fields encoded once
            problems.append(f"{_where(i, env)}: hash {env.hash} does not match its contents")
        # Chain on the stored hash, so one altered entry is reported once, not n times.
        prev = env.hash
    return problems


def relink(envelopes: Sequence[Envelope], *, game_id: str, time: int,
           data: Mapping[int, bytes] | None = None) -> list[Envelope]:
    """A log prefix re-chained under another game id (a fork): every envelope keeps its
    seq, type, version, command id, seat and payload, gets `time`, and is hashed anew
    from GENESIS; `data` replaces the payloads of the seqs it names (e.g. a new opening
    with the fork's own seat tokens)."""
    prev, out = GENESIS, []
    for e in envelopes:
        n = link(prev, game_id=game_id, game_type=e.game_type, seq=e.seq, type=e.type, v=e.v, time=time,
                 command_id=e.command_id, seat=e.seat, data=(data or {}).get(e.seq, e.data))
        out.append(n)
        prev = n.hash
    return out
