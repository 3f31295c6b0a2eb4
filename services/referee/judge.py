"""The referee's judge: an entry of cmd:{s} → a command → a decision → sealed envelopes.

Pure (no Redis, no clock but the one it is given): `parse` reads and bounds one entry
(`services.protocol`), `decide` authorizes the seat, decides the command on a game's
cached Table with the game's own `decide`, and seals the events into hash-chained
envelopes (`seal`), each new event folded once for the Table after them (the state decide
found, when it folded them itself: `games.fold.after`). The referee's
batch loop (`services.referee.referee`) lands what it returns; tests judge without Redis.
"""

from __future__ import annotations

import hmac
import logging
import os
import re
import traceback
from collections.abc import Callable, Sequence
from typing import Any

import msgspec
from msgspec.structs import replace

from events import keys
from events.chain import Linker
from events.codec import META
from events.envelope import CommandEnvelope, Envelope, Outcome, Rejected
from events.meta import (SEAT_PLAYER_KINDS, ClockSet, GameOpened, HostNamed, SeatResigned, SeatsTaken, SeedRevealed,
                         TimedOut, Undone, UndoAllowed)
from games import fold
from games.contract import GAME_OVER, Decided, GameDef, Rejection, Seed
from games.rng import RNG_NAME, seed_commitment
from projections import clock as clocks
from projections import undo as undos
from projections.table import Table, advance, codec, empty
from services import protocol
from services.bots.policies import BOTS
from services.protocol import lookup
from services.referee.cache import GameCache

log = logging.getLogger("tablestream.referee")

REUSED = "command_id_reused"
"""The code of a command whose id's record belongs to another command: no record is kept
for it, so the other command's answer stays as it was."""
ARCHIVED = "game_archived"
"""The code of a command to a game moved to an archive folder (`tablestream archive`), or
of an open under its id: the tombstone in `keys.archived` keeps the id taken. A refusal
decided on a cached Table of a game archived since (`game_over`, `game_exists`) does not
stand: the append script finds the log not at the version it was judged on, and the game
is read again, tombstone included (tests/integration/test_archive_referee.py)."""
FULL = protocol.STORAGE_FULL
BROKEN = "broken_log"
"""The code of a command whose game's log the append script found broken (see AppendResult)."""


class Item(msgspec.Struct, gc=False):
    """One command of the batch and, once known, its outcome.

    (Not tracked by the cyclic GC: a batch's items live while it is decided and lands,
    through many of the collector's young passes; nothing they hold refers back to them.)"""

    msg_id: bytes
    command_id: str
    reply_to: str
    env: CommandEnvelope | None = None
    outcome: Outcome | None = None
    failed: str | None = None  # why handling raised (a bug): left pending
    game: GameDef | None = None
    sent_us: int = 0
    based_on: int = 0  # the log version a decision was taken on
    stamp: tuple[int, int] = (0, 0)  # (epoch, generation) of the cached state it was decided on
    fp: str = ""  # protocol.fingerprint of the command, once decoded
    settled: bool = False  # outcome, XACK and latency written by the append script
    ends: bool = False  # accepted, and it ends the game (the append script's retention)
    fp_exact: str = ""  # protocol.exact_fingerprint, if it differs from fp (older records)
    reread: bool = False  # found a chain it did not continue once: decided again on the log read anew

    def reject(self, game_id: str, code: str, message: str) -> None:
        self.outcome = Rejected(command_id=self.command_id, game_id=game_id, code=code, message=message)

    def reused(self, game_id: str) -> None:
        self.reject(game_id, REUSED, f"command id {self.command_id!r} was used before for another command; "
                                     "give every command a new id (a retry resends the same command)")


_env_decoder = msgspec.json.Decoder(CommandEnvelope)
_open_decoder = msgspec.json.Decoder(protocol.OpenRequest)
_timeout_decoder = msgspec.json.Decoder(protocol.TimeoutRequest)
_leave_decoder = msgspec.json.Decoder(protocol.LeaveRequest | None)
_HEX64 = re.compile(r"[0-9a-f]{64}")
NOT_TIMED_OUT = "not_timed_out"
"""The code of a timeout the log does not bear out: the seat has no decision running, or
its time is not up by the referee's clock (it moved meanwhile: the timer's view was old)."""
NOTHING_TO_UNDO = "nothing_to_undo"
"""The code of an undo with no command to take back: the seat's last command revealed or
drew something, another seat acted on it, the turn resolved, or it made none since."""
UNDO_NOT_ALLOWED = "undo_not_allowed"
"""The code of an undo in a game opened without undo (or of an open asking undo of a game that has none)."""
NO_HOST = "no_host"
"""The code of an abandon in a game that has no host (`HostNamed`)."""
KINDS = ("act", "open", "timeout", "resign", "undo", "abandon")
MAX_PLAYER_CHARS = 100


def _seats_problem(seats: list[Any], players: int) -> str | None:
    """Why an open request's `seats` (who holds each seat) cannot be logged, or None."""
    if len(seats) != players:
        return f"seats names {len(seats)} players for {players} seats"
    for i, p in enumerate(seats):
        if p.kind not in SEAT_PLAYER_KINDS:
            return f"seat {i}: a player's kind is one of {', '.join(SEAT_PLAYER_KINDS)}"
        if not 0 < len(p.id) <= MAX_PLAYER_CHARS or len(p.name) > MAX_PLAYER_CHARS:
            return f"seat {i}: a player's id is 1-{MAX_PLAYER_CHARS} characters, its name at most {MAX_PLAYER_CHARS}"
    return None
_cmd_decoders: dict[str, tuple[GameDef, msgspec.json.Decoder]] = {}


def _command_decoder(game: GameDef) -> msgspec.json.Decoder:
    hit = _cmd_decoders.get(game.id)
    if hit is None or hit[0] is not game:
        hit = (game, msgspec.json.Decoder(game.commands))
        _cmd_decoders[game.id] = hit
    return hit[1]


def where(exc: BaseException) -> str:
    """An exception's type and innermost frame: enough to find the bug, no state content."""
    tb = traceback.extract_tb(exc.__traceback__)
    frame = f" at {os.path.basename(tb[-1].filename)}:{tb[-1].lineno}" if tb else ""
    return f"{type(exc).__name__}{frame}"


_SHELL: frozenset[type] = frozenset((GameOpened, SeatsTaken, ClockSet, TimedOut, SeatResigned, HostNamed,
                                     UndoAllowed, Undone))
"""The shell's events a decision can carry (`_seal`: one set look-up an event, where isinstance
tests took ten for each of the game's): the two that set the Table's own fields, and those
that only `advance` folds (clock, leaving, host, undo)."""

Decision = tuple[tuple[Envelope, ...], Table]
"""A command's envelopes and the game's Table after them."""


class Judge:
    """Reads and decides the commands of one shard; the seeds and checked tokens it needs
    are the cache's (`GameCache`), which it reads and (tokens) remembers in."""

    def __init__(self, shard: int, shards: int, max_command_bytes: int, clock: Callable[[], int],
                 cache: GameCache) -> None:
        self.shard = shard
        self.shards = shards
        self.max_command_bytes = max_command_bytes
        self.clock = clock
        self.cache = cache

    def parse(self, msg_id: bytes, fields: dict[bytes, bytes]) -> Item:
        """One cmd:{s} entry as an item: decoded, or already refused. Whatever the entry
        holds, this returns (an entry that breaks the reading is refused as malformed),
        so one entry never stops its batch or the referee."""
        try:
            return self._read(msg_id, fields)
        except Exception as e:  # a case the bounds below miss: refuse it, keep going
            log.error("command entry %s could not be read: %s", msg_id.decode(), where(e))
            it = Item(msg_id, protocol.name_field(fields.get(protocol.ID)),
                       protocol.name_field(fields.get(protocol.TO)))
            it.fp = protocol.entry_fingerprint(fields)
            it.reject("", "malformed", "unreadable command entry")
            return it

    def _read(self, msg_id: bytes, fields: dict[bytes, bytes]) -> Item:
        problem = protocol.entry_problem(fields, self.max_command_bytes)
        env = bad = None
        if problem is None:
            try:
                env = _env_decoder.decode(fields[protocol.BODY])
                bad = protocol.envelope_problem(env)
            except (msgspec.DecodeError, msgspec.ValidationError, RecursionError) as e:
                env, bad = None, f"undecodable command envelope: {e}"
            if bad is not None:
                problem = ("malformed", bad)
        if problem is not None or env is None:
            # Not read as a command: the id and reply stream are the entry's own fields (if
            # they are valid names), the fingerprint that of the entry's bytes.
            it = Item(msg_id, protocol.name_field(fields.get(protocol.ID)),
                      protocol.name_field(fields.get(protocol.TO)))
            it.fp = protocol.entry_fingerprint(fields)
            it.reject("", *(problem or ("malformed", "")))
            return it
        it = Item(msg_id, env.command_id, env.reply_to)
        it.env, it.sent_us = env, env.sent_us
        it.fp = protocol.fingerprint(env)
        exact = protocol.exact_fingerprint(env)
        if exact != it.fp:
            it.fp_exact = exact
        if keys.shard_of(env.game_id, self.shards) != self.shard:
            it.reject(env.game_id, "wrong_shard", f"game {env.game_id!r} is not on shard {self.shard}")
        elif (game := lookup(env.game_type)) is None:
            it.reject(env.game_id, "unknown_game_type", f"no game type {env.game_type!r}")
        elif env.kind not in KINDS:
            it.reject(env.game_id, "malformed", "kind must be act, open, timeout, resign, undo or abandon")
        else:
            it.game = game
        return it

    def decide(self, it: Item, table: Table | None) -> Decision | None:
        """Decide one command on `table`: its envelopes and the table after them, or None."""
        env, game = it.env, it.game
        assert env is not None and game is not None
        if env.kind == "open":
            return self._open(it, table)
        if table is None or table.opened is None:
            if env.game_id in self.cache.archived:
                it.reject(env.game_id, ARCHIVED, f"game {env.game_id!r} was archived; restore it to play")
            else:
                it.reject(env.game_id, "unknown_game", f"no game {env.game_id!r}")
            return None
        opened = table.opened
        if table.game is not game:
            it.reject(env.game_id, "unknown_game", f"game {env.game_id!r} is not a {env.game_type}")
            return None
        if not 0 <= env.seat < opened.players:
            it.reject(env.game_id, "unknown_seat", f"seat must be 0..{opened.players - 1}")
            return None
        if env.kind == "timeout":
            return self._timeout(it, table)
        if env.kind == "abandon":  # the host's token, not the seat's
            return self._abandon(it, table)
        seats = self.cache.tokens.get(env.game_id)
        if seats is None or seats.get(env.seat) != env.token:
            if protocol.token_hash(env.token) != opened.seat_token_hashes[env.seat]:
                it.reject(env.game_id, "bad_token", "this token is not the token of that seat in that game")
                return None
            self.cache.tokens.setdefault(env.game_id, {})[env.seat] = env.token  # checked: skip the hash next time
        if game.result(table.state) is not None:
            it.reject(env.game_id, GAME_OVER.code, GAME_OVER.message)
            return None
        clock = table.clock
        if clock is not None and clock.resigned and clock.resigned[env.seat]:  # (no clock: nobody left)
            it.reject(env.game_id, "already_resigned", f"seat {env.seat} has left the game: a {clock.resigned[env.seat]} "
                      "bot plays it")
            return None
        if env.kind == "resign":
            # From now on a bot plays the seat (the timer finds its decisions due at once).
            return self._leave(it, table, "resigned")
        if env.kind == "undo":
            return self._undo(it, table)
        try:
            cmd = _command_decoder(game).decode(env.command)
        except msgspec.ValidationError as e:
            text = str(e)
            code = "unknown_command" if "`$.type`" in text else "malformed"
            it.reject(env.game_id, code, f"bad command: {text}")
            return None
        except msgspec.DecodeError as e:
            it.reject(env.game_id, "malformed", f"undecodable command: {e}")
            return None
        out = game.decide(table.state, env.seat, cmd)
        if isinstance(out, Rejection):
            it.reject(env.game_id, out.code, out.message)
            return None
        if not out:
            it.reject(env.game_id, "no_effect", "the command changes nothing")
            return None
        return self._seal(it, table, out, env.seat, out)

    def _timeout(self, it: Item, table: Table) -> Decision | None:
        """A seat's decision timed out (sent by the timer service, `services.timer`; no token:
        the timeout is judged by this referee's clock against the deadline the log folds
        to, so a timeout sent early or for a decision already made is refused). The bot kind
        of the clock's `on_timeout` plays the decision: `TimedOut`, then its move's events."""
        env, game = it.env, table.game
        assert env is not None
        try:
            _timeout_decoder.decode(env.command)
        except (msgspec.DecodeError, msgspec.ValidationError) as e:
            it.reject(env.game_id, "malformed", f"bad timeout: {e}")
            return None
        if table.clock is None:
            it.reject(env.game_id, "no_clock", f"game {env.game_id!r} has no time control")
            return None
        if game.result(table.state) is not None:
            it.reject(env.game_id, GAME_OVER.code, GAME_OVER.message)
            return None
        deadline = table.clock.deadline(env.seat)
        now = self.clock()
        if deadline is None or env.seat not in game.to_act(table.state):
            it.reject(env.game_id, NOT_TIMED_OUT, f"seat {env.seat} has no decision running")
            return None
        if now < deadline:
            it.reject(env.game_id, NOT_TIMED_OUT, f"seat {env.seat} has {deadline - now} ms left")
            return None
        clock = table.clock
        gone = clock.resigned[env.seat] if clock.resigned else ""
        policy = clock.on_timeout
        by = gone or (clock.bot if policy in ("forfeit", "pass") else policy)
        move = game.passing(table.state, env.seat) if policy == "pass" and not gone and game.passing else None
        if move is None:  # a bot's move (the clock's, or the resigned seat's): no pass here
            bot = BOTS.get(by, BOTS["random"])(b"timeout/%s/%d" % (env.game_id.encode(), table.version), env.seat)
            move = bot.choose(game, table.state, env.seat)
        out = game.decide(table.state, env.seat, move)
        if isinstance(out, Rejection) or not out:  # a legal command refused: a bug in the game
            raise RuntimeError(f"the {by} move for a timed-out seat was refused: "
                               f"{out.code if isinstance(out, Rejection) else 'no_effect'}")
        # A resigned seat's decision is its bot's by then, no timeout; a forfeit resigns the
        # seat, and so does the last timeout of `abandon_after` in a row.
        head: list[Any] = [] if gone else [TimedOut(seat=env.seat, by=policy)]
        streak = (clock.streak[env.seat] if clock.streak else 0) + 1
        if not gone and policy == "forfeit":
            head.append(SeatResigned(seat=env.seat, reason="forfeit", bot=clock.bot))
        elif not gone and clock.abandon_after and streak >= clock.abandon_after:
            head.append(SeatResigned(seat=env.seat, reason="abandoned", bot=by))
        return self._seal(it, table, [*head, *out], env.seat, out, now=now)

    def _leave(self, it: Item, table: Table, reason: str) -> Decision | None:
        """`SeatResigned` for the envelope's seat (its own resignation, or the host's
        abandon), played from then on by the bot kind the command names (default random)."""
        env = it.env
        assert env is not None
        try:
            req = _leave_decoder.decode(env.command) or protocol.LeaveRequest()
        except (msgspec.DecodeError, msgspec.ValidationError) as e:
            it.reject(env.game_id, "malformed", f"bad {env.kind} request: {e}")
            return None
        if req.bot not in BOTS:
            it.reject(env.game_id, "bad_options", f"unknown bot kind {req.bot[:40]!r}; known: {', '.join(BOTS)}")
            return None
        if env.seat in table.resigned:  # (the host's abandon; a seat's own was refused earlier)
            it.reject(env.game_id, "already_resigned", f"seat {env.seat} has left the game already")
            return None
        return self._seal(it, table, [SeatResigned(seat=env.seat, reason=reason, bot=req.bot)], env.seat, ())

    def _abandon(self, it: Item, table: Table) -> Decision | None:
        """The host gives a seat up to a bot (its token against `HostNamed`, in constant time)."""
        env = it.env
        assert env is not None
        if not table.host:
            it.reject(env.game_id, NO_HOST, f"game {env.game_id!r} has no host to abandon a seat")
            return None
        if not hmac.compare_digest(protocol.token_hash(env.token), table.host):
            it.reject(env.game_id, "bad_token", "this token is not the host's token of that game")
            return None
        if table.game.result(table.state) is not None:
            it.reject(env.game_id, GAME_OVER.code, GAME_OVER.message)
            return None
        return self._leave(it, table, "host")

    def _undo(self, it: Item, table: Table) -> Decision | None:
        """Take back the seat's last command if the undo window holds it (projections.undo):
        `Undone` names its envelopes; the fold replays what came after it."""
        env = it.env
        assert env is not None
        if table.undo is None:
            it.reject(env.game_id, UNDO_NOT_ALLOWED, f"game {env.game_id!r} was opened without undo")
            return None
        entry = undos.last(table.undo, env.seat)
        if entry is None:
            it.reject(env.game_id, NOTHING_TO_UNDO,
                      f"seat {env.seat} has no command to take back: a command can be taken back only until it "
                      "reveals or draws something, another seat acts on it or the turn resolves")
            return None
        undone = Undone(seat=env.seat, command_id=entry.command_id, first=entry.first, last=entry.last)
        return self._seal(it, table, [undone], env.seat, ())  # (an undo never ends a game)

    def _open(self, it: Item, table: Table | None) -> Decision | None:
        env, game = it.env, it.game
        assert env is not None and game is not None
        if table is not None and table.version > 0:
            it.reject(env.game_id, "game_exists", f"game {env.game_id!r} already exists")
            return None
        if env.game_id in self.cache.archived:
            it.reject(env.game_id, ARCHIVED, f"game {env.game_id!r} was archived: its id stays taken "
                      "(restore it to play it)")
            return None
        try:
            req = _open_decoder.decode(env.command)
            given = msgspec.json.decode(req.options, type=game.options_type | None)
            if given is not None:
                options = given
            elif req.preset in game.presets:
                options = game.presets[req.preset]
            else:
                it.reject(env.game_id, "bad_options", f"unknown preset {req.preset!r}; known: {', '.join(game.presets)}")
                return None
            fixture = msgspec.json.decode(req.fixture, type=game.fixture_type | None)
        except (msgspec.DecodeError, msgspec.ValidationError) as e:
            it.reject(env.game_id, "malformed", f"bad open request: {e}")
            return None
        players = options.players
        lo, hi = game.players
        if not lo <= players <= hi or len(req.token_hashes) != players:
            it.reject(env.game_id, "bad_options", f"{game.id} takes {lo}-{hi} players, one token hash each")
            return None
        if req.seats and (problem := _seats_problem(req.seats, players)):
            it.reject(env.game_id, "bad_options", problem)
            return None
        seed = self.cache.secrets.get(env.game_id)
        if fixture is None and seed is None:
            # No seed could be drawn: Redis is full (the referee draws every open's seed first).
            it.reject(env.game_id, FULL, "the service's storage is full: no seed could be drawn; send the same "
                      "command again later")
            return None
        try:
            opening = list(game.setup(options, fixture if fixture is not None else Seed(seed)))  # type: ignore[arg-type]
        except ValueError as e:  # the game refuses these options or this fixture, and says why
            it.reject(env.game_id, "bad_options", str(e))
            return None
        opened = GameOpened(
            game_type=game.id, players=players,
            options=msgspec.Raw(msgspec.json.encode(options)),
            preset=req.preset if given is None else "",
            rules_version=game.rules_version,
            seed_commitment="" if fixture is not None else seed_commitment(seed),  # type: ignore[arg-type]
            rng="" if fixture is not None else RNG_NAME,
            seat_token_hashes=list(req.token_hashes), fixture=fixture is not None,
        )
        seated = [SeatsTaken(seats=list(req.seats))] if req.seats else []
        timed: list[ClockSet] = []
        if req.clock is not None:
            clock = protocol.clock_set(req.clock)
            if (problem := clocks.problem(clock)) is not None:
                it.reject(env.game_id, "bad_options", problem)
                return None
            timed = [clock]
        if req.undo and game.quiet is None:
            it.reject(env.game_id, UNDO_NOT_ALLOWED, f"{game.id} has no undo")
            return None
        undo = [UndoAllowed()] if req.undo else []
        if req.host_hash and not _HEX64.fullmatch(req.host_hash):
            it.reject(env.game_id, "malformed", "host_hash is the SHA-256 of the host's token, 64 hex digits")
            return None
        host = [HostNamed(token_hash=req.host_hash)] if req.host_hash else []
        return self._seal(it, empty(env.game_id, game), [opened, *seated, *timed, *host, *undo, *opening], -1,
                          opening)

    def _seal(self, it: Item, table: Table, events: list[Any], seat: int, moved: Sequence[Any],
              now: int | None = None) -> Decision:
        """Envelopes (hash-chained after `table`) for `events`, plus the reveal if the game ends,
        and the Table after them. `moved` are the game's own events among them, decided on the
        table's state. A game with a clock or undo (or an open that sets one) has its envelopes
        folded by `advance` only, so the cached Table's clock and undo window are the log's; any
        other takes the state decide found, or folds `moved` once (games.fold.after). Either
        way an event decide folded itself (`Decided`) is not folded again."""
        game, game_id = table.game, table.game_id
        gcodec = codec(game)
        link = Linker(game_id=game_id, game_type=game.id, time=self.clock() if now is None else now,
                      command_id=it.command_id)
        envelopes: list[Envelope] = []
        prev, seq = table.last_hash, table.version
        opened, seated = table.opened, table.seated
        folded = table.clock is not None or table.undo is not None
        for ev in events:
            kind = type(ev)
            if kind not in _SHELL:  # the game's own event
                tag, v, data = gcodec.encode(ev)
            else:
                tag, v, data = META.encode(ev)
                if kind is GameOpened:
                    opened = ev
                elif kind is SeatsTaken:
                    seated = tuple(ev.seats)
                else:
                    folded = True
            seq += 1
            e = link(prev, seq, tag, v, seat, data)
            envelopes.append(e)
            prev = e.hash
        seed = table.seed
        known = moved if isinstance(moved, Decided) else None  # decide's own fold, taken as it is
        folded_to = advance(table, envelopes, known) if folded else None  # every field of it the fold's own
        state = folded_to.state if folded_to is not None else fold.after(game, table.state, moved)
        if opened is not None and not opened.fixture and seed is None and game.result(state) is not None:
            secret = self.cache.secrets.get(game_id)
            if secret is not None:
                seed = secret.hex()
                tag, v, data = META.encode(SeedRevealed(seed=seed))
                seq += 1
                envelopes.append(link(prev, seq, tag, v, -1, data))
                if folded_to is not None:
                    folded_to = advance(folded_to, envelopes[-1:])
        if folded_to is not None:
            return tuple(envelopes), folded_to
        after = replace(table, state=state, version=seq, last_hash=envelopes[-1].hash, opened=opened, seed=seed,
                        seated=seated)
        return tuple(envelopes), after  # a tuple of untracked Structs: the GC lets go of it
