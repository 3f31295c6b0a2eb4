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

from collections.abc import Sequence
from hashlib import sha256

from events.envelope import ENVELOPE_FORMAT, Envelope

GENESIS = "0" * 64
"""The `prev_hash` of every log's first envelope."""


def _ns(b: bytes) -> bytes:
    return b"%d:%s," % (len(b), b)


_TEMPLATE = b"%d:%s," * 11


def _digest(format: int, game_id: str, game_type: str, seq: int, type: str, v: int, time: int,
            command_id: str, seat: int, prev_hash: str, data: bytes) -> str:
    """The hash over the fields, in the order of the definition above (positional: hot path)."""
    fm, g, gt, sq, ty = b"%d" % format, game_id.encode(), game_type.encode(), b"%d" % seq, type.encode()
    vv, tm, c, st, ph = b"%d" % v, b"%d" % time, command_id.encode(), b"%d" % seat, prev_hash.encode()
    # the eleven netstrings in one formatting call (hot path: one call per event)
    return sha256(_TEMPLATE % (
        len(fm), fm, len(g), g, len(gt), gt, len(sq), sq, len(ty), ty, len(vv), vv,
        len(tm), tm, len(c), c, len(st), st, len(ph), ph, len(data), data,
    )).hexdigest()


_HEAD = b"%d:%s,%d:%s,%d:%s,"
_EVENT = b"%s%d:%s,%d:%s,%d:%s,%s%d:%s,%d:%s,%d:%s,"


class Linker:
    """`link` for the envelopes of one command: the fields they share (format, game, game
    type, time, command id) are encoded once, so each envelope costs only its own fields
    (the referee's hot path: every event of every command). Same hash as `link`."""

    __slots__ = ("_game_id", "_game_type", "_time", "_command_id", "_head", "_mid")

    def __init__(self, *, game_id: str, game_type: str, time: int, command_id: str) -> None:
        fm, g, gt = b"%d" % ENVELOPE_FORMAT, game_id.encode(), game_type.encode()
        tm, c = b"%d" % time, command_id.encode()
        self._game_id, self._game_type, self._time, self._command_id = game_id, game_type, time, command_id
        self._head = _HEAD % (len(fm), fm, len(g), g, len(gt), gt)
        self._mid = b"%d:%s,%d:%s," % (len(tm), tm, len(c), c)

    def __call__(self, prev_hash: str, seq: int, type: str, v: int, seat: int, data: bytes) -> Envelope:
        """The envelope after `prev_hash` with these fields and the command's shared ones."""
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


def verify(envelopes: Sequence[Envelope]) -> list[str]:
    """Every problem of a whole log, in order, as readable sentences; empty means intact.

    Checks: seqs are 1..n without gaps, one game id throughout, the first `prev_hash` is
    GENESIS, each `prev_hash` is the previous envelope's hash, and each hash recomputes.
    """
    problems: list[str] = []
    prev = GENESIS
    game_id = envelopes[0].game_id if envelopes else ""
    for i, env in enumerate(envelopes):
        where = f"entry {i + 1} (seq {env.seq}, {env.type})"
        if env.seq != i + 1:
            problems.append(f"{where}: seq should be {i + 1}")
        if env.game_id != game_id:
            problems.append(f"{where}: game id {env.game_id!r} differs from {game_id!r}")
        if env.prev_hash != prev:
            expected = "GENESIS" if i == 0 else f"the previous hash {prev}"
            problems.append(f"{where}: prev_hash {env.prev_hash} should be {expected}")
        if hash_of(env) != env.hash:
            problems.append(f"{where}: hash {env.hash} does not match its contents")
        # Chain on the stored hash, so one altered entry is reported once, not n times.
        prev = env.hash
    return problems
