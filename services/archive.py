"""Archive finished games from Redis to files, and restore them (`tablestream archive` /
`restore`); read archived games for `verify`, `replay` and `stats`.

An archive is a folder with one file per game, `<game id>.jsonl`, in the export format
(one envelope per line). Archiving writes and fsyncs the file, reads it back and checks
that it is the log in Redis and folds to a finished game that verifies, and only then
deletes the game's keys from Redis (leaving a tombstone in `archived:{s}`): a crash in
between leaves the game in Redis and a file that `restore` accepts as already there.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import msgspec
import redis.asyncio as aioredis
from redis.exceptions import WatchError

from events import keys
from events.envelope import Envelope
from events.store import EventStore
from games import registry
from games.contract import GameDef
from projections import board, movetimes
from projections.audit import verify as audit
from projections.stats import GameRow, row
from projections.table import Table, advance, empty
from services import aggregates
from services.projector.runner import swap_in
from services.verify import unprojected

SUFFIX = ".jsonl"
_decode = msgspec.json.Decoder(Envelope).decode
_tombstone = msgspec.json.Decoder(dict[str, object]).decode


class Refused(Exception):
    """A game that cannot be archived or restored, with the reason as its message;
    `missing` when there is no such game to move."""

    def __init__(self, message: str, missing: bool = False) -> None:
        super().__init__(message)
        self.missing = missing


def path_of(folder: Path, game_id: str) -> Path:
    """The archive file of `game_id` (game ids hold no `/`, and never start with `.`)."""
    return folder / f"{game_id}{SUFFIX}"


def encode_log(envs: list[Envelope]) -> bytes:
    """A log in the export format: one envelope's JSON per line."""
    return b"".join(msgspec.json.encode(e) + b"\n" for e in envs)


def parse_log(data: bytes, name: str) -> list[Envelope]:
    """The envelopes of an exported or archived log; ValueError (naming `name` and the
    line) for a line that is no envelope, of another game, or not at its seq."""
    envs: list[Envelope] = []
    for n, line in enumerate(data.splitlines(), 1):
        if not line.strip():
            continue
        try:
            env = _decode(line)
        except (msgspec.ValidationError, msgspec.DecodeError) as e:
            raise ValueError(f"{name}, line {n}: not an envelope as `export` writes them: {e}") from None
        # a log is one game's envelopes in seq order 1, 2, ...: a missing, repeated or
        # moved line, or one of another game, would otherwise be refused by the store
        if envs and env.game_id != envs[0].game_id:
            raise ValueError(f"{name}, line {n}: game {env.game_id!r} in a log of {envs[0].game_id!r}")
        if env.seq != len(envs) + 1:
            raise ValueError(f"{name}, line {n}: seq {env.seq} where seq {len(envs) + 1} belongs "
                             "(a line is missing, repeated or out of order)")
        envs.append(env)
    if not envs:
        raise ValueError(f"{name} holds no envelopes")
    return envs


def read_archived(folder: Path, game_id: str) -> list[Envelope] | None:
    """An archived game's log, None if the folder has no file of that game."""
    p = path_of(folder, game_id)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        return None
    envs = parse_log(data, str(p))
    if envs[0].game_id != game_id:
        raise ValueError(f"{p} holds game {envs[0].game_id!r}, not {game_id!r}")
    return envs


def archived_ids(folder: Path) -> list[str]:
    """The ids of the games archived in `folder`, sorted ([] if there is no such folder)."""
    if not folder.is_dir():
        return []
    return sorted(p.name[:-len(SUFFIX)] for p in folder.iterdir()
                  if p.name.endswith(SUFFIX) and not p.name.startswith("."))


def archived_logs(folder: Path, game_type: str | None = None) -> Iterator[list[Envelope]]:
    """Every archived log of `folder` (only those of `game_type` if given)."""
    for g in archived_ids(folder):
        p = path_of(folder, g)
        if game_type is not None:
            with p.open("rb") as f:
                first = f.readline()
            try:
                if _decode(first).game_type != game_type:
                    continue
            except (msgspec.ValidationError, msgspec.DecodeError):
                pass  # parse_log names the line
        envs = read_archived(folder, g)
        if envs is not None:
            yield envs


def fold(envs: list[Envelope]) -> tuple[GameDef, Table]:
    """A log's game type and its folded table (KeyError for an unknown game type)."""
    game = registry.get(envs[0].game_type)
    return game, advance(empty(envs[0].game_id, game), envs)


def archived_rows(folder: Path, game_type: str) -> dict[str, GameRow]:
    """The statistics rows of the finished games of `game_type` archived in `folder`,
    folded from their logs (archiving moves a game's row out of Redis with its log)."""
    out: dict[str, GameRow] = {}
    for envs in archived_logs(folder, game_type):
        _, table = fold(envs)
        if (r := row(table, envs)) is not None:
            out[envs[0].game_id] = r
    return out


def archived_move_times(folder: Path, game: GameDef) -> dict[str, bytes]:
    """The move times (`movetimes.encode`d, as `keys.move_times` holds them) of the finished
    games of `game` archived in `folder`, timed from their logs (archiving moves them out of
    Redis with the log)."""
    out: dict[str, bytes] = {}
    for envs in archived_logs(folder, game.id):
        _, table = fold(envs)
        if game.result(table.state) is not None:
            out[envs[0].game_id] = movetimes.encode(movetimes.seat_times(game, envs[0].game_id, envs))
    return out


def verify_archived(folder: Path, game_id: str) -> list[str]:
    """The problems of an archived game's log (its chain, seed and replay; an archived game
    has no stored views or row to compare)."""
    try:
        envs = read_archived(folder, game_id)
    except ValueError as e:
        return [str(e)]
    if envs is None:
        return ["no such game"]
    try:
        game = registry.get(envs[0].game_type)
    except KeyError:
        return [f"the log is of an unknown game type {envs[0].game_type!r}"]
    return audit(game, envs)


def _write(p: Path, data: bytes) -> None:
    """`data` as file `p`, durably: a temporary file fsynced, renamed over `p`, and the
    folder fsynced (a crash leaves the old file or the new one, never half of one)."""
    tmp = p.with_name(f".{p.name}.tmp")
    with tmp.open("wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, p)
    fd = os.open(p.parent, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@dataclass
class Archiver:
    """Moves games between one deployment's Redis and one archive folder."""

    redis: aioredis.Redis
    store: EventStore
    folder: Path

    def __post_init__(self) -> None:
        self._unprojected: dict[int, dict[str, int]] = {}  # per shard, read once per run

    async def tombstone(self, game_id: str) -> dict[str, object] | None:
        """The record left in Redis when `game_id` was archived (file, seq, hash), or None."""
        got = await self.redis.hget(keys.archived(self.store.shard(game_id)), game_id)
        return None if got is None else _tombstone(got)

    async def finished(self, game_id: str) -> bool:
        """True if `game_id`'s log in Redis is of a finished game."""
        envs = await self.store.read(game_id)
        if not envs:
            return False
        try:
            game, table = fold(envs)
        except Exception:  # an unknown type or a log that does not fold: not archivable
            return False
        return game.result(table.state) is not None

    async def archive(self, game_id: str) -> str:
        """Archive one finished game: "archived", or "already" if only its tombstone is
        left; raises Refused (unknown, running, unprojected or failing game)."""
        s = self.store.shard(game_id)
        envs = await self.store.read(game_id)
        if not envs:
            if await self.tombstone(game_id) is not None:
                return "already"
            raise Refused(f"no game {game_id!r}", missing=True)
        try:
            game, table = fold(envs)
        except Exception as e:
            raise Refused(f"{game_id}: its log does not fold ({type(e).__name__}: {e}); run verify") from None
        if game.result(table.state) is None:
            raise Refused(f"{game_id} is not over: only finished games can be archived")
        if s not in self._unprojected:
            self._unprojected[s] = await unprojected(self.redis, s)
        if game_id in self._unprojected[s]:
            raise Refused(f"{game_id}: the projector has not projected the end of its log yet "
                          "(is `tablestream up` running?); archive it once it has")
        if problems := audit(game, envs):
            raise Refused(f"{game_id} does not verify ({'; '.join(problems)}): not archived")
        p = path_of(self.folder, game_id)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            _write(p, encode_log(envs))
            back = read_archived(self.folder, game_id)  # what a restore will read
        except (OSError, ValueError) as e:
            raise Refused(f"{game_id}: cannot write {p} ({e}): not archived") from None
        if back is None or [e.hash for e in back] != [e.hash for e in envs] or audit(game, back):
            raise Refused(f"{p} does not read back as the log of {game_id}: not archived")
        await self._delete(s, game, table, envs, p)
        return "archived"

    async def _delete(self, s: int, game: GameDef, table: Table, envs: list[Envelope], p: Path) -> None:
        """Remove the game's keys in one transaction, if its log is still the archived one,
        leaving its tombstone; then its statistics row and move times (in other slots on a
        cluster)."""
        g = envs[0].game_id
        log_key = keys.log(s, g)
        commands = {e.command_id for e in envs} | {f"{how}:{g}:{envs[-1].hash[:16]}" for how in ("import", "restore")}
        stone = msgspec.json.encode({"file": p.name, "seq": envs[-1].seq, "hash": envs[-1].hash})
        players = table.opened.players if table.opened is not None else 0
        for _ in range(100):
            async with self.redis.pipeline(transaction=True) as pipe:
                try:
                    await pipe.watch(log_key)
                    if await pipe.xlen(log_key) != len(envs):
                        raise Refused(f"{g}: its log changed while it was archived: left in Redis")
                    pipe.multi()
                    pipe.delete(log_key, keys.secret(s, g), keys.lobby(s, g), keys.command_ids(s, g),
                                *(keys.view(s, g, seat) for seat in {*board.seats(table), None}),
                                *(keys.done(s, c) for c in commands))
                    pipe.zrem(keys.games(s), g)
                    pipe.hdel(keys.quarantine(s), g)
                    if players:
                        pipe.srem(keys.bot_seats(s), *(f"{i}:{g}" for i in range(players)))
                    pipe.hset(keys.archived(s), g, stone)
                    await pipe.execute()
                    break
                except WatchError:
                    continue
        await aggregates.drop_row(self.redis, game.id, g)
        # its move times too (`stats --move-times --archive` reads them from the file, and
        # `restore` writes them back): a tombstone is all an archived game keeps but its rating
        await self.redis.hdel(keys.move_times(game.id), g)

    async def restore(self, game_id: str) -> str:
        """Put an archived game back in Redis, with its views and statistics row:
        "restored", or "already" if Redis holds that very log; raises Refused (no file, a
        bad file, another game under that id in Redis). The file stays."""
        try:
            envs = read_archived(self.folder, game_id)
        except ValueError as e:
            raise Refused(str(e)) from None
        if envs is None:
            raise Refused(f"no archived game {game_id!r} in {self.folder}", missing=True)
        try:
            problems = audit(registry.get(envs[0].game_type), envs)
        except KeyError:
            problems = [f"the log is of an unknown game type {envs[0].game_type!r}"]
        if problems:  # an archive file changed since it was written
            raise Refused(f"{path_of(self.folder, game_id)} does not verify ({'; '.join(problems)}): not restored")
        s = self.store.shard(game_id)
        res = await self.store.append(game_id, expected=0, command_id=f"restore:{game_id}:{envs[-1].hash[:16]}",
                                      envelopes=envs)
        if res.status != "ok":
            there = await self.store.read(game_id)
            if [e.hash for e in there] != [e.hash for e in envs]:
                raise Refused(f"{game_id}: Redis holds another log under this id ({len(there)} envelopes): "
                              "not restored")
        await swap_in(self.redis, self.store, s, game_id)
        await self.redis.hdel(keys.archived(s), game_id)
        return "restored" if res.status == "ok" else "already"
