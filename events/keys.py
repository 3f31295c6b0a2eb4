"""Every Redis key, stream and channel name of Tablestream; no other module spells one.

Per-shard names carry the shard as a Redis Cluster hash tag (`{s}`, braces literal): every
key of a shard hashes to one slot, so the append script, which touches the game's log, the
shard's feed, the idempotency record and the game index together, stays atomic on a
cluster. Only the first `{...}` of a name counts as its tag, so game ids and command ids
always come after it. The layout is tabulated in `events/README.md`.
"""

from __future__ import annotations

import re
import zlib

from events.envelope import Seat


GAME_ID_MAX = 100
"""The longest game id; the one syntax of a game id for every door (CLI, stream, gateway)."""
GAME_ID_PATTERN = r"[A-Za-z0-9][A-Za-z0-9_.-]{0,%d}" % (GAME_ID_MAX - 1)
_GAME_ID = re.compile(GAME_ID_PATTERN)


def game_id_problem(game_id: str) -> str | None:
    """Why `game_id` cannot name a game, or None if it can: 1-100 ASCII letters,
    digits, "_", "." and "-", starting with a letter or digit. Ids are parts of key names,
    lines of logs and words of commands: no braces (a cluster hash tag), no spaces, tabs,
    newlines or ":" (a key's separator), no leading "-" (read as an option)."""
    if _GAME_ID.fullmatch(game_id):
        return None
    shown = repr(game_id) if len(game_id) <= 40 else f"{game_id[:20]!r}... ({len(game_id)} characters)"
    return (f"game id must be 1-{GAME_ID_MAX} characters, letters, digits, '_', '.' and '-', "
            f"starting with a letter or digit: {shown} is not")


def shard_of(game_id: str, shards: int) -> int:
    """The shard of a game: crc32 of its UTF-8 id modulo the shard count (stable forever)."""
    if shards == 1:
        return 0
    if shards < 1:
        raise ValueError(f"shards must be >= 1, got {shards}")
    return zlib.crc32(game_id.encode()) % shards


def cmd(s: int) -> str:
    """Stream of inbound commands for shard `s` (read by the referee's consumer group)."""
    return f"cmd:{{{s}}}"


def log(s: int, game_id: str) -> str:
    """Stream holding one game's log; entry n (1-based) is the envelope with seq n."""
    return f"ev:{{{s}}}:{game_id}"


def feed(s: int) -> str:
    """Stream mirroring every envelope appended on shard `s` (read by projectors)."""
    return f"feed:{{{s}}}"


def done(s: int, command_id: str) -> str:
    """String holding the JSON list of seqs a command was given: the idempotency record."""
    return f"done:{{{s}}}:{command_id}"


def rejected(s: int, command_id: str) -> str:
    """String holding the Rejected outcome of a refused command (kept a day): a resent
    command id gets the same answer, even if the move has become legal since."""
    return f"rejected:{{{s}}}:{command_id}"


def command_ids(s: int, game_id: str) -> str:
    """String listing the command ids of a game's log while it runs (netstrings after a
    header, events/append.lua): what the game's end gives the grace expiry, without the
    script reading the whole log back. Deleted once the game ends."""
    return f"ids:{{{s}}}:{game_id}"


def secret(s: int, game_id: str) -> str:
    """String holding a game's seed (hex) until it is revealed in the log."""
    return f"secret:{{{s}}}:{game_id}"


def games(s: int) -> str:
    """Sorted set of the game ids on shard `s`, scored by creation time (ms)."""
    return f"games:{{{s}}}"


def games_pattern() -> str:
    """SCAN pattern of the games set of every shard."""
    return "games:{*}"


def rejections(s: int) -> str:
    """Bounded audit stream of the commands refused on shard `s`."""
    return f"rej:{{{s}}}"


def dead(s: int) -> str:
    """Dead-letter stream of commands that failed delivery too often on shard `s`."""
    return f"dlq:{{{s}}}"


def replies(s: int, client_id: str) -> str:
    """Stream where the outcomes of one client's commands on shard `s` are delivered (in the
    shard's slot: the append script writes them in the step that lands the command)."""
    return f"reply:{{{s}}}:{client_id}"


def view(s: int, game_id: str, seat: Seat | None) -> str:
    """The projected view document of one seat, or of spectators when `seat` is None."""
    who = "spectator" if seat is None else str(seat)
    return f"view:{{{s}}}:{game_id}:{who}"


def views_pattern(s: int) -> str:
    """SCAN pattern of every view key of shard `s`."""
    return f"view:{{{s}}}:*"


def game_views_pattern(s: int, game_id: str) -> str:
    """SCAN pattern of every view key of one game (glob characters in its id escaped)."""
    escaped = "".join("\\" + c if c in "*?[]\\" else c for c in game_id)
    return f"view:{{{s}}}:{escaped}:*"


def game_of_view(key: str) -> str:
    """The game id in a view key (`view:{s}:<game>:<seat|spectator>`; game ids may hold ':')."""
    return key.split(":", 2)[2].rsplit(":", 1)[0]


def stats_pattern() -> str:
    """SCAN pattern of every statistics hash."""
    return "stats:*"


LIVE = "live"
"""The name of the live projector's checkpoint (`checkpoint(s, LIVE)`): the referee trims
each feed below it."""


def checkpoint(s: int, name: str) -> str:
    """A projector's checkpoint (last feed id it applied) on shard `s`."""
    return f"ckpt:{{{s}}}:{name}"


def quarantine(s: int) -> str:
    """Hash of the games on shard `s` whose log the projector cannot fold: game id -> the
    reason. Their views are left as they were; `verify` reports them; a rebuild that folds
    a game takes it out."""
    return f"quarantine:{{{s}}}"


def archived(s: int) -> str:
    """Hash of the games of shard `s` moved to an archive folder (`tablestream archive`):
    game id -> JSON {file, seq, hash} of its archive file. All that Redis keeps of such a
    game; `restore` removes it."""
    return f"archived:{{{s}}}"


def stats(game_type: str) -> str:
    """Statistics of one game type, aggregated over every shard."""
    return f"stats:{game_type}"


def ratings(game_type: str) -> str:
    """Hash: the players' ratings in one game type (`projections.ratings`: player key
    `kind:id` -> rating JSON, and `~folded`: where the fold stands), written by projectors."""
    return f"ratings:{game_type}"


def dashboard(game_type: str) -> str:
    """Prefix of a game type's dashboard aggregates (services/aggregates.py): `<prefix>:buckets`
    (set of bucket names), `<prefix>:b:<bucket>` (hash of counters summed over the bucket's
    games), `<prefix>:all` (the same summed over every game), `<prefix>:contrib` (hash: game id
    -> what its row added, taken away when it goes). Tagged with the statistics hash's name,
    `{stats:<game_type>}`, so that on a cluster they share its slot: the script that writes a
    row updates them in the same step."""
    return f"dash:{{stats:{game_type}}}"


def rated(game_type: str) -> str:
    """Hash: the rated results of one game type's finished games (game id -> JSON of its
    end time, ranks and players: `projections.ratings.Result`), what ratings are folded
    from; kept when a game is archived, so that archiving changes no rating."""
    return f"rated:{game_type}"


def rated_pattern() -> str:
    """SCAN pattern of every rated-results hash."""
    return "rated:*"


def move_times(game_type: str) -> str:
    """Hash: how long each seat of each finished game of one type took per decision
    (`projections.movetimes`: game id -> JSON list of seat times), written by projectors."""
    return f"movetimes:{game_type}"


def move_times_pattern() -> str:
    """SCAN pattern of every move-times hash."""
    return "movetimes:*"


def latency(s: int, game_type: str) -> str:
    """Hash: histogram of publish-to-outcome latency of shard `s`'s commands of one game type
    (field = upper bound in µs, log2 buckets; in the shard's slot: the append script counts them)."""
    return f"latency:{{{s}}}:{game_type}"


def stage(s: int, call: str) -> str:
    """String: one append call's outcomes and acknowledgements, staged by the append script
    while the referee's WAIT for replicas runs, then delivered and deleted (60 s expiry)."""
    return f"stage:{{{s}}}:{call}"


def durability(s: int) -> str:
    """Hash: shard `s`'s count of appends whose WAIT saw fewer replicas than asked
    (field `wait_short`), read by the metrics."""
    return f"durability:{{{s}}}"


def updates(s: int) -> str:
    """Pub/sub channel announcing that views on shard `s` changed."""
    return f"updated:{{{s}}}"


def alive(consumer: str) -> str:
    """String with a short expiry that a running referee keeps setting: its heartbeat. A
    consumer with pending commands and no heartbeat is dead, and its commands are taken over."""
    return f"alive:referee:{consumer}"


def shards() -> str:
    """String: the deployment's shard count (SHARDS), set by the first referee or CLI
    process on this Redis; every later one checks its own against it (a process with
    another count would look for games and commands on the wrong shards)."""
    return "layout:shards"


def lobby(s: int, game_id: str) -> str:
    """Hash of a lobby (the gateway's): the game's spec, the host token's hash, each taken
    seat (`seat:<i>`: name, token hash, bot kind, identity), a bot seat's token (`bot:<i>`),
    an offered seat's token until its identity's event stream hands it over (`offer:<i>`), and
    `started` once the game was opened. On the game's shard."""
    return f"lobby:{{{s}}}:{game_id}"


def bot_seats(s: int) -> str:
    """Set of the bot seats of started games on shard `s` ("<seat>:<game id>") that some
    gateway's bot worker must play."""
    return f"botseats:{{{s}}}"


def bot_lease(s: int, game_id: str, seat: int) -> str:
    """String (short expiry, renewed): the bot worker now playing that seat, so that two
    gateways never both play it."""
    return f"botlease:{{{s}}}:{game_id}:{seat}"


def chat_room(platform: str, room: str) -> str:
    """Hash of a chat room's table (services/chat): its game id, the room's lobby host token
    and who opened it, each seated chat user (`user:<id>`: seat, seat token, display name),
    and the last log position announced in the room. Tokens are secrets: never logged."""
    return f"chatroom:{platform}:{room}"


def chat_rooms() -> str:
    """Set of the chat rooms with a game in play ("<platform> <room>"), which the chat
    service watches for turns and announcements."""
    return "chatrooms"


def identities() -> str:
    """Stream (append-only) of identity creations (the gateway's `POST /identities`): id,
    name, kind (bot or player), the token's SHA-256, the time. Never trimmed: it is the
    record identities are kept by."""
    return "identities"


def identity(identity_id: str) -> str:
    """Hash of one identity, as its creation event recorded it: `name`, `kind`, `hash`
    (the token's SHA-256; the token itself is never stored)."""
    return f"identity:{identity_id}"


def identity_seats(identity_id: str) -> str:
    """Set of the seats ("<seat>:<game id>") claimed by or offered to an identity (each
    recorded in `claims(s)` first): the games its event stream watches."""
    return f"identity:{identity_id}:seats"


def claims(s: int) -> str:
    """Stream (append-only) of the seat claims and offers of identities on shard `s`:
    identity, game id, seat, how (claimed, offered), the time."""
    return f"claims:{{{s}}}"


def chat_dm(platform: str, user: str) -> str:
    """String: the direct-message room the chat bot opened with that user on that platform
    (services/chat/matrix.py), where the user's private replies go; reused until someone
    else is in it."""
    return f"chatdm:{platform}:{user}"


def projector_lease(s: int, name: str) -> str:
    """String (expiry, renewed while held): the process now projecting shard `s` under
    checkpoint name `name` (services.projector.lease), so that several projector
    processes share the shards, one at a time on each."""
    return f"projlease:{{{s}}}:{name}"


def timers(s: int) -> str:
    """Sorted set of shard `s`'s running decisions under a clock: member "<seat>:<game id>",
    score its deadline (ms); kept by the projector, read by the timer (services.timer)."""
    return f"timers:{{{s}}}"
