"""The shell's wire formats: command entries on cmd:{s}, outcomes on reply streams.

A command entry has three fields: `body` (the CommandEnvelope as JSON, the only thing
the referee trusts), and `id` / `to` (command id and reply stream) repeated outside the
body so that even an undecodable body gets its rejection delivered to its sender.
Names below complement `events.keys` for the shell's own bookkeeping.
"""

from __future__ import annotations

import functools
import hashlib
import re
import secrets
from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any

import msgspec

from events import keys
from events.envelope import CommandEnvelope
from events.meta import ClockSet, SeatPlayer

if TYPE_CHECKING:
    from games.contract import GameDef

BODY, ID, TO = b"body", b"id", b"to"
OUTCOMES = b"os"
"""Field of a reply entry: the JSON list of the outcomes of one referee batch for that client."""
GROUP = "referee"
"""The referee's consumer group on every cmd:{s}."""
STORAGE_FULL = "storage_full"
"""The code of a command Redis had no room for (maxmemory reached, noeviction): nothing of
it was written and nothing recorded, so the same command may be sent again later. The
client answers it when its XADD is refused, the referee when its append is."""


class OpenRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The `command` of an "open" envelope: which options, and the hashes of the seat tokens.

    Clients draw the seat tokens and send only their SHA-256, so no token is ever stored.
    `preset` names one of the game's presets; `options` (JSON of the options Struct)
    overrides it; `fixture` (JSON of the game's fixture Struct) replaces the seeded deal.
    `seats` names who holds each seat (lobby claims, bot kinds): logged as `SeatsTaken`,
    what ratings are kept by; empty when unknown (nothing is logged then).
    """

    token_hashes: list[str]
    preset: str = ""
    # JSON kept raw, `null` when absent. Not `Raw | None`: msgspec (0.23) decodes that union
    # as null only, and refused every options or fixture object.
    options: msgspec.Raw = msgspec.Raw(b"null")
    fixture: msgspec.Raw = msgspec.Raw(b"null")
    seats: list[SeatPlayer] = []
    clock: ClockOptions | None = None
    """The game's time control (README "Clocks"), logged as `ClockSet`; None: untimed."""
    undo: bool = False
    """Whether seats may take back their last command (README "Undo"), logged as `UndoAllowed`."""
    host_hash: str = ""
    """The SHA-256 (hex) of the host's token (a lobby's), logged as `HostNamed`: the host may
    abandon a seat to a bot; "": the game has no host."""


class LeaveRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The `command` of a "resign" or "abandon" envelope (`null` for the defaults): the bot
    kind that plays the seat from then on (`services.bots.policies.BOTS`)."""

    bot: str = "random"


class ClockOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """An open request's time control: `kind` "move" (`base_ms` a decision), "fischer"
    (a bank of `base_ms`, `increment_ms` added after each decision) or "correspondence"
    (`days` a decision); `on_timeout`: the bot kind that plays a timed-out decision
    (random, greedy), "pass" (the game's passing move) or "forfeit"; `bot`: the bot kind of
    pass and forfeit."""

    kind: str
    base_ms: Annotated[int, msgspec.Meta(ge=0, le=2**53)] = 0
    increment_ms: Annotated[int, msgspec.Meta(ge=0, le=2**53)] = 0
    days: Annotated[int, msgspec.Meta(ge=0, le=10_000)] = 0
    on_timeout: str = "random"
    abandon_after: Annotated[int, msgspec.Meta(ge=0, le=10_000)] = 0
    """Timeouts in a row after which the seat is abandoned (a bot plays it on); 0: never."""
    bot: str = "random"


_UNITS = {"ms": 1, "s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000}
_DURATION = re.compile(r"(\d{1,9})(ms|s|m|h|d)?")


def _ms(text: str) -> int:
    m = _DURATION.fullmatch(text)
    if m is None:
        raise ValueError(f"{text!r} is not a duration (a number with ms, s, m, h or d; ms if none)")
    return int(m.group(1)) * _UNITS[m.group(2) or "ms"]


def parse_clock(text: str) -> ClockOptions:
    """A time control from its short form KIND:BASE[+INCREMENT][@POLICY[:BOT]][/N]: "move:30s",
    "fischer:5m+3s", "correspondence:3d@greedy", "move:1m@random/3" (abandoned after 3
    timeouts in a row), "move:30s@pass:greedy" (pass, a greedy bot where there is no pass),
    "move:1m@forfeit:greedy"; durations in ms, s, m, h or d; correspondence in whole days.
    ValueError saying why for anything else; the bounds are checked by the referee
    (`projections.clock.problem`)."""
    text, _, after = text.strip().partition("/")
    if after and not after.isdigit():
        raise ValueError(f"{after!r}: /N is the number of timeouts in a row that abandon a seat")
    abandon = int(after) if after else 0
    kind, _, rest = text.partition(":")
    rest, _, bot = rest.partition("@")
    base, _, inc = rest.partition("+")
    if not kind or not base:
        raise ValueError(f"{text!r}: a clock is KIND:BASE[+INCREMENT][@BOT], e.g. fischer:5m+3s")
    policy, _, kind_of_bot = bot.partition(":")
    on_timeout, then = policy or "random", kind_of_bot or "random"
    if kind == "correspondence":
        if inc or not base.endswith("d") or not base[:-1].isdigit():
            raise ValueError(f"{text!r}: a correspondence clock is correspondence:<days>d")
        return ClockOptions(kind=kind, days=int(base[:-1]), on_timeout=on_timeout, abandon_after=abandon, bot=then)
    return ClockOptions(kind=kind, base_ms=_ms(base), increment_ms=_ms(inc) if inc else 0, on_timeout=on_timeout,
                        abandon_after=abandon, bot=then)


def clock_set(c: ClockOptions) -> ClockSet:
    """The event an open request's time control is logged as."""
    return ClockSet(kind=c.kind, base_ms=c.base_ms, increment_ms=c.increment_ms, days=c.days,
                    on_timeout=c.on_timeout, abandon_after=c.abandon_after, bot=c.bot)


class TimeoutRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The `command` of a "timeout" envelope (sent by the timer service, `services.timer`):
    the deadline it found passed for the envelope's seat. The referee judges the timeout by
    its own clock and the game's log, never by this figure, which names the decision (a
    command id per decision: a timeout sent again is answered from its record)."""

    deadline: Annotated[int, msgspec.Meta(ge=0, le=2**62)]


latency = keys.latency
"""The latency histogram's key, built in `events.keys` (kept here for its callers)."""


def lookup(game_type: str) -> GameDef | None:
    """The registered game of an envelope's `game_type`, or None (the registry is read at
    call time: tests add games)."""
    return _registry().GAMES.get(game_type)


@functools.cache
def _registry() -> Any:
    from games import registry  # imported on first use, once

    return registry


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
    kind and the command in canonical form (its JSON with every object's keys sorted: the
    same command written with its keys in another order, as a parsed text can be, is the
    same command). Not the token, the reply stream or the clock. A resent command has the
    same fingerprint; a command id reused for another command does not, and is refused
    (`command_id_reused`) instead of getting the other one's outcome. The command must be
    within `MAX_DEPTH` (`entry_problem` checks it first)."""
    h = hashlib.blake2b(canonical(env.command), digest_size=8)
    h.update(b"%s\0%d\0%s" % (env.game_id.encode(), env.seat, env.kind.encode()))
    return h.hexdigest()


def exact_fingerprint(env: CommandEnvelope) -> str:
    """The fingerprint as it was until 2026-12-02 (the command's exact bytes, not its
    canonical form): the done and rejected records written until then begin with it, and
    still answer a resend of the very same command."""
    h = hashlib.blake2b(bytes(env.command), digest_size=8)
    h.update(b"%s\0%d\0%s" % (env.game_id.encode(), env.seat, env.kind.encode()))
    return h.hexdigest()


_sorted = msgspec.json.Encoder(order="sorted")


def canonical(command: bytes) -> bytes:
    """A command's JSON with the keys of every object sorted and no blanks; bytes that are
    not JSON stay as they are (the command is refused, and only a resend of the very same
    bytes has its fingerprint)."""
    try:
        return _sorted.encode(msgspec.json.decode(command))
    except (msgspec.DecodeError, RecursionError):
        return b"\0raw\0" + bytes(command)


def entry_fingerprint(fields: Mapping[bytes, bytes]) -> str:
    """The fingerprint of a cmd:{s} entry that could not be read as a command: a hash of
    its exact bytes (every field, in order). Its rejected record answers a resend of those
    bytes only; any other command with the same id is `command_id_reused`."""
    h = hashlib.blake2b(b"entry", digest_size=8)
    for name, value in fields.items():
        h.update(b"%d:%s%d:%s" % (len(name), name, len(value), value))
    return h.hexdigest()


# ---------------------------------------------------------------- bounds of an entry
GAME_ID = re.compile(keys.GAME_ID_PATTERN)
"""The syntax of a game id (events/keys.py, one definition for every door): 1-100 characters, ASCII letters, digits, "_", "." and "-",
beginning with a letter or digit (no blanks, no braces, nothing a key or a shell reads
specially)."""
GAME_ID_RULE = f"1-{keys.GAME_ID_MAX} characters of A-Z a-z 0-9 _ . -, the first a letter or digit"
NAME = re.compile(r"[!-z|~]{1,128}")
"""Command ids, reply streams (client ids) and game types: 1-128 printable ASCII
characters, no blank and no brace."""
TOKEN = re.compile(r"[!-~]{0,256}")
MAX_FIELDS = 8
"""Fields of a cmd:{s} entry, at most (a client writes 3)."""
MAX_DEPTH = 32
"""Nesting of JSON arrays and objects in a command body, at most (a command or an open
request with a fixture needs under 10): deeper bodies are refused before being decoded."""
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(rb"[][{}]")


def valid_game_id(game_id: str) -> bool:
    """Whether `game_id` follows the game id syntax (`GAME_ID`)."""
    return GAME_ID.fullmatch(game_id) is not None


def name_field(value: bytes | None) -> str:
    """The `id` or `to` field of an entry as text if it is a valid name (`NAME`), else ""
    (so that nothing unreadable ever becomes part of a key)."""
    if not value or len(value) > 128:
        return ""
    text = value.decode("ascii", "replace")
    return text if NAME.fullmatch(text) else ""


def depth(body: bytes) -> int:
    """How deeply the JSON arrays and objects of `body` nest (brackets inside strings do
    not count); tolerant of malformed input."""
    deepest = level = 0
    for b in _BRACKET.findall(_STRING.sub(b"", body)):
        if b in (b"[", b"{"):
            level += 1
            deepest = max(deepest, level)
        else:
            level -= 1
    return deepest


def entry_problem(fields: Mapping[bytes, bytes], max_bytes: int) -> tuple[str, str] | None:
    """Why a cmd:{s} entry cannot be decoded at all, as (code, message), or None. Checked
    before any decoding: field count, body size, nesting depth."""
    if len(fields) > MAX_FIELDS:
        return "malformed", f"a command entry has at most {MAX_FIELDS} fields, not {len(fields)}"
    body = fields.get(BODY)
    if body is None:
        return "malformed", "the command entry has no body"
    if len(body) > max_bytes:
        return "oversized", f"a command may be at most {max_bytes} bytes"
    # Cheap first: a body with few brackets cannot nest deeply.
    if body.count(b"[") + body.count(b"{") > MAX_DEPTH and depth(body) > MAX_DEPTH:
        return "malformed", f"a command may nest at most {MAX_DEPTH} levels deep"
    return None


def envelope_problem(env: CommandEnvelope) -> str | None:
    """What is wrong with the fields of a decoded command envelope, or None. (Its integers
    are bounded by the envelope's type; see `events.envelope`.)"""
    if not env.command_id:
        return "command_id is empty"
    if not NAME.fullmatch(env.command_id):
        return "command_id must be 1-128 printable ASCII characters, no blank or brace"
    if env.reply_to and not NAME.fullmatch(env.reply_to):
        return "reply_to must be 1-128 printable ASCII characters, no blank or brace"
    if not valid_game_id(env.game_id):
        return f"a game id is {GAME_ID_RULE}"
    if not NAME.fullmatch(env.game_type):
        return "game_type must be 1-128 printable ASCII characters"
    if not TOKEN.fullmatch(env.token):
        return "a token is at most 256 printable ASCII characters"
    return None


_enc = msgspec.json.Encoder()


def command_fields(env: CommandEnvelope) -> dict[bytes, bytes]:
    """The stream entry of a command."""
    return {BODY: _enc.encode(env), ID: env.command_id.encode(), TO: env.reply_to.encode()}
