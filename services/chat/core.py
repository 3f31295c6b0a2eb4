"""ChatCore: a room hosts games; chat users play them with the grammar of `grammar.py`.

The core is a client of the gateway over HTTP and nothing else (never the command streams,
never the referee): it opens a lobby per game, claims seats for the chat users who join and
keeps their seat tokens (rooms.py), and sends their commands with those tokens. Seats are
bound to the chat user who claimed them: a command acts for the sender's own seat only.

Inbound: `await core.handle(Message(...))` returns `Reply`s. Private things (a seat's view,
its moves, the outcome of its own command, which may be a face-down choice) are always
`audience="private"` to the sender; the room gets public things only (the spectator's board
and log, the opening, seats taken). Outbound, later: `core.watch()` polls the gateway for
every room with a game in play and posts to the platform's `Sink` what happened, in
sentences ("Ada built the Aqueduct", "Age II begins": projections/narration.py, told from
the spectator's log entries only, so a face-down choice stays "a card"), turn pings
(mentions of the users who must act) and the result. Completion (`core.complete`) comes
from the gateway's /complete.
"""

from __future__ import annotations

import asyncio
import difflib
import logging
import random
import time
from collections.abc import Mapping
from dataclasses import replace

import msgspec
import redis.asyncio as aioredis

from projections import clock as clocks
from projections.narration import narrate
from services.chat.gateway_client import Gateway, GatewayError
from services.chat.grammar import HELP, VERBS, Command, GrammarError, parse, parse_options
from services.chat import picture
from services.chat.model import Message, Picture, Reply, Sink
from services.chat.rooms import Room, Rooms, Seated
from services.protocol import parse_clock

log = logging.getLogger("tablestream.chat")

MAX_MOVES_SHOWN = 40
LOG_SHOWN = 10
MAX_CHOICES = 5
"""Legal commands a `moves` reply offers as buttons where the platform has them (Slack)."""
ANNOUNCED = 40
REMIND_SHARE = 0.25
"""A seat is reminded once its running decision has this share of its time left (its
allowance, or its bank when the decision began): 15 s of a minute, 18 h of 3 days."""


def _message_key(msg: Message, what: str = "") -> str | None:
    """The Idempotency-Key of a chat message's command: a platform's redelivery of the same
    message is the same command (`what` names the kind: "" a game command, "undo-")."""
    return f"chat-{what}{msg.platform}-{msg.message_id}"[:200] if msg.message_id else None


def _clock(doc: Mapping) -> str:
    """A view document's clock as a line to add to a message ("" for an untimed game)."""
    clock = doc.get("clock")
    return f"\n{clocks.text(clock, time.time_ns() // 1_000_000)}" if clock else ""
"""An announcement shows at most this many sentences (the last ones) when many positions pass at once."""


def private(msg: Message, text: str, board: str | None = None) -> Reply:
    return Reply("private", text, user=msg.user, board=board)


def room_reply(text: str, board: str | None = None, mentions: tuple[str, ...] = ()) -> Reply:
    return Reply("room", text, board=board, mentions=mentions)


class ChatCore:
    def __init__(self, redis: aioredis.Redis, gateway_url: str, sinks: Mapping[str, Sink] | None = None,
                 poll_s: float = 0.5, pictures: bool = True) -> None:
        self.rooms = Rooms(redis)
        self.pictures = pictures
        self.gw = Gateway(gateway_url)
        self.sinks: dict[str, Sink] = dict(sinks or {})
        self.poll_s = poll_s
        self._locks: dict[tuple[str, str], asyncio.Lock] = {}
        self._outbox: dict[tuple[str, str], asyncio.Task] = {}

    async def aclose(self, flush_s: float = 2.0) -> None:
        """Stop: what is still being posted gets `flush_s` seconds, then is dropped."""
        pending = list(self._outbox.values())
        if pending:
            await asyncio.wait(pending, timeout=flush_s)
            for t in pending:
                t.cancel()
            await asyncio.wait(pending, timeout=1)
        await self.gw.aclose()

    def _lock(self, platform: str, room: str) -> asyncio.Lock:
        return self._locks.setdefault((platform, room), asyncio.Lock())

    # ---- inbound -------------------------------------------------------------------------

    async def handle(self, msg: Message) -> list[Reply]:
        """The replies to one chat command; never raises for bad input or a refusal."""
        try:
            cmd = parse(msg.text)
        except GrammarError as e:
            return [private(msg, str(e))]
        try:
            async with self._lock(msg.platform, msg.room):
                room = await self.rooms.load(msg.platform, msg.room)
                return await getattr(self, f"_do_{cmd.verb}")(msg, cmd, room)
        except GatewayError as e:
            return [private(msg, f"refused ({e.code}): {e.message}")]

    async def _do_help(self, msg: Message, cmd: Command, room: Room) -> list[Reply]:
        return [private(msg, "Tablestream commands:", board=HELP)]

    async def _do_open(self, msg: Message, cmd: Command, room: Room) -> list[Reply]:
        if room.game and not room.over:
            return [private(msg, f"this room already has a game ({room.game}); it must end first")]
        game_type = cmd.args[0]
        preset, opts = parse_options(cmd.args[1:])
        body: dict = {"game_type": game_type}
        if "undo" in opts:  # the service's own options, not the game's
            body["undo"] = opts.pop("undo") is True
        if "clock" in opts:
            try:
                body["clock"] = msgspec.to_builtins(parse_clock(str(opts.pop("clock"))))
            except ValueError as e:
                return [private(msg, f"clock: {e}")]
        if opts:
            players = opts.pop("players", None)
            if opts:
                gt = await self.gw.call("GET", f"/game-types/{game_type}")
                base = gt["presets"].get(preset or next(iter(gt["presets"])))
                if base is None:
                    return [private(msg, f"unknown preset {preset!r}; known: {', '.join(gt['presets'])}")]
                body["options"] = {**base, **opts, **({"players": players} if players is not None else {})}
            else:
                body["players"] = players
                if preset:
                    body["preset"] = preset
        elif preset:
            body["preset"] = preset
        made = await self.gw.call("POST", "/lobbies", body=body)
        lobby = await self.gw.call("GET", f"/lobbies/{made['game_id']}")
        new = Room(msg.platform, msg.room, made["game_id"], game_type, made["host_token"], msg.user,
                   timed="clock" in body)
        await self.rooms.open(new)
        return [room_reply(f"{msg.display_name} opened {game_type} for {lobby['players']} players "
                           f"(game {made['game_id']}): `join` to take a seat; the opener may `bot <seat> <kind>` "
                           f"or `start` (empty seats go to bots).")]

    async def _do_join(self, msg: Message, cmd: Command, room: Room) -> list[Reply]:
        if not room.game:
            return [private(msg, "no game here: `open <game>` first")]
        if msg.user in room.users:
            return [private(msg, f"you already hold seat {room.users[msg.user].seat}")]
        body: dict = {"name": msg.display_name[:40] or msg.user[:40], "chat_user": f"{msg.platform}:{msg.user}"[:100]}
        if cmd.args:
            body["seat"] = int(cmd.args[0])
        got = await self.gw.call("POST", f"/lobbies/{room.game}/seats", body=body)
        await self.rooms.seat(room, msg.user, Seated(got["seat"], got["token"], body["name"]))
        return [room_reply(f"{body['name']} takes seat {got['seat']}."), *await self._if_started(room, got)]

    async def _do_bot(self, msg: Message, cmd: Command, room: Room) -> list[Reply]:
        if refusal := self._opener_only(msg, room):
            return refusal
        got = await self.gw.call("POST", f"/lobbies/{room.game}/bots", token=room.host,
                                 body={"seat": int(cmd.args[0]), "kind": cmd.args[1]})
        return [room_reply(f"seat {cmd.args[0]} goes to a {cmd.args[1]} bot."), *await self._if_started(room, got)]

    async def _do_start(self, msg: Message, cmd: Command, room: Room) -> list[Reply]:
        if refusal := self._opener_only(msg, room):
            return refusal
        got = await self.gw.call("POST", f"/lobbies/{room.game}/start", token=room.host, body={"bots": "random"})
        return await self._if_started(room, got)

    def _opener_only(self, msg: Message, room: Room) -> list[Reply] | None:
        if not room.game:
            return [private(msg, "no game here: `open <game>` first")]
        if room.started:
            return [private(msg, "the game has started")]
        if msg.user != room.opener:
            return [private(msg, "only the user who opened the game may do that")]
        return None

    async def _if_started(self, room: Room, lobby: dict) -> list[Reply]:
        if not lobby.get("started") or room.started:
            return []
        room.started = True
        await self.rooms.set(room, started="1")
        await self.rooms.watch(room, True)
        if "seats" not in lobby:
            lobby = await self.gw.call("GET", f"/lobbies/{room.game}")
        names = ", ".join(f"{s['seat']}: {s.get('name', '?')}" for s in lobby["seats"])
        return [room_reply(f"The game begins ({names}). Your own hand: `hand` (privately).")]

    def _seated(self, msg: Message, room: Room) -> tuple[Seated | None, list[Reply]]:
        if not room.game or not room.started:
            return None, [private(msg, "no game in play here")]
        s = room.users.get(msg.user)
        if s is None:
            return None, [private(msg, "you hold no seat in this game")]
        return s, []

    async def _do_play(self, msg: Message, cmd: Command, room: Room) -> list[Reply]:
        s, refusal = self._seated(msg, room)
        if s is None:
            return refusal
        try:
            await self.gw.call("POST", f"/games/{room.game}/commands", token=s.token, body={"command": cmd.rest},
                               key=_message_key(msg))
        except GatewayError as e:
            if e.status in (400, 422) and e.code not in ("malformed",) or e.code == "bad_notation":
                near = await self._closest(room, s, cmd.rest)
                hint = f" Did you mean: {' | '.join(near)}?" if near else ""
                return [private(msg, f"refused ({e.code}): {e.message}.{hint}")]
            raise
        return [private(msg, f"done: {cmd.rest}")]

    async def _closest(self, room: Room, s: Seated, text: str, n: int = 3) -> list[str]:
        """The legal commands nearest to a mistyped one (the seat's /moves, by similarity)."""
        moves = await self.gw.call("GET", f"/games/{room.game}/moves", token=s.token)
        texts = [m["text"] for m in moves["moves"]]
        lower = {t.lower(): t for t in texts}
        near = difflib.get_close_matches(text.lower(), list(lower), n=n, cutoff=0.4)
        return [lower[t] for t in near]

    async def _do_moves(self, msg: Message, cmd: Command, room: Room) -> list[Reply]:
        s, refusal = self._seated(msg, room)
        if s is None:
            return refusal
        moves = await self.gw.call("GET", f"/games/{room.game}/moves", token=s.token)
        if moves["over"]:
            return [private(msg, "the game is over")]
        if s.seat not in moves["to_act"]:
            return [private(msg, "it is not your turn")]
        texts = [m["text"] for m in moves["moves"]]
        more = f"\n… and {len(texts) - MAX_MOVES_SHOWN} more" if len(texts) > MAX_MOVES_SHOWN else ""
        return [Reply("private", f"your {len(texts)} legal commands:", user=msg.user,
                      board="\n".join(texts[:MAX_MOVES_SHOWN]) + more, choices=tuple(texts[:MAX_CHOICES]))]

    async def _do_hand(self, msg: Message, cmd: Command, room: Room) -> list[Reply]:
        s, refusal = self._seated(msg, room)
        if s is None:
            return refusal
        doc = await self.gw.call("GET", f"/games/{room.game}/view", token=s.token)
        shown = private(msg, f"your view (seat {s.seat}), at position {doc['seq']}:{_clock(doc)}", board=doc["text"])
        pic = await self._picture(room, doc["seq"], token=s.token, alt=f"your board (seat {s.seat}) at position "
                                                                          f"{doc['seq']}")
        return [replace(shown, picture=pic) if pic else shown]

    async def _do_board(self, msg: Message, cmd: Command, room: Room) -> list[Reply]:
        if not room.game or not room.started:
            return [private(msg, "no game in play here")]
        doc = await self.gw.call("GET", f"/games/{room.game}/view")
        shown = room_reply(f"the board at position {doc['seq']}:{_clock(doc)}", board=doc["text"])
        pic = await self._picture(room, doc["seq"])
        return [replace(shown, picture=pic) if pic else shown]

    async def _picture(self, room: Room, seq: int, token: str | None = None, alt: str = "") -> Picture | None:
        """The board at `seq` drawn as a PNG, or None when pictures are off or it fails. Without
        `token` the gateway's public SVG (the spectator's: for a room reply); with a seat's token
        that seat's own board, for its private reply only."""
        if not self.pictures:
            return None
        try:
            svg = await self.gw.text(f"/games/{room.game}/svg", token=token, params={"at": seq})
        except GatewayError as e:  # a game without an SVG board (404), the gateway away: text only
            log.info("chat: no board picture: %s", e.code)
            return None
        return await picture.render(svg, alt or f"{room.game_type} board at position {seq}")

    async def _do_log(self, msg: Message, cmd: Command, room: Room) -> list[Reply]:
        if not room.game or not room.started:
            return [private(msg, "no game in play here")]
        summary = await self.gw.call("GET", f"/games/{room.game}")
        after = max(0, summary["seq"] - 60)
        page = await self.gw.call("GET", f"/games/{room.game}/log", params={"after": after, "limit": 200})
        entries = page["entries"][-LOG_SHOWN:]
        told = await self._told(room, entries, entries[0]["first"] - 1 if entries else 0, await self._names(room))
        lines = [f"{e['seq']}: {' '.join(t)}" for e, t in zip(entries, told)]
        return [room_reply("the last things that happened:\n" + ("\n".join(lines) or "nothing yet"))]

    async def _do_undo(self, msg: Message, cmd: Command, room: Room) -> list[Reply]:
        s, refusal = self._seated(msg, room)
        if s is None:
            return refusal
        try:
            await self.gw.call("POST", f"/games/{room.game}/undo", token=s.token, key=_message_key(msg, "undo-"))
        except GatewayError as e:
            if e.code in ("nothing_to_undo", "undo_not_allowed", "game_over", "already_resigned"):
                return [private(msg, f"refused ({e.code}): {e.message}")]
            raise
        return [room_reply(f"{s.name} takes back their last command.")]

    async def _do_abandon(self, msg: Message, cmd: Command, room: Room) -> list[Reply]:
        if not room.game or not room.started:
            return [private(msg, "no game in play here")]
        if msg.user != room.opener:
            return [private(msg, "only the user who opened the game may do that")]
        seat, kind = int(cmd.args[0]), (cmd.args[1] if len(cmd.args) > 1 else "random")
        try:  # the game's host: the lobby's host token, logged when the game began
            await self.gw.call("POST", f"/games/{room.game}/seats/{seat}/abandon", token=room.host,
                               body={"bot": kind}, key=f"chat-abandon-{seat}")
        except GatewayError as e:
            if e.status in (400, 409):
                return [private(msg, f"refused ({e.code}): {e.message}")]
            raise
        user = room.user_of(seat)
        if user is not None:
            room.users[user].left = room.users[user].resigned = True
            await self.rooms.seat(room, user, room.users[user])
        return [room_reply(f"seat {seat} is abandoned: a {kind} bot plays it to the end, ranked last.")]

    async def _do_leave(self, msg: Message, cmd: Command, room: Room) -> list[Reply]:
        s, refusal = self._seated(msg, room)
        if s is None:
            return [private(msg, "you hold no seat in a game in play here (a lobby's seat stays taken)")]
        if s.resigned:
            return [private(msg, f"you resigned seat {s.seat} already")]
        # Resigned in the game's log (POST /resign): the referee's timer has a random bot play
        # the seat to the end, and the result ranks it last.
        await self.gw.call("POST", f"/games/{room.game}/resign", token=s.token, key=f"chat-resign-{s.seat}")
        s.left = s.resigned = True
        await self.rooms.seat(room, msg.user, s)
        return [room_reply(f"{s.name} resigns; a random bot plays seat {s.seat} to the end, ranked last.")]

    async def _told(self, room: Room, entries: list[dict], before: int, names: dict[int, str]) -> list[list[str]]:
        """Each log entry's sentences (projections/narration.py), from the spectator's views
        only: the one at position `before` (0: none, the opening) and each entry's own."""
        prev = None
        if before > 0 and entries:
            prev = (await self.gw.call("GET", f"/games/{room.game}/view", params={"at": before}))["view"]
        out = []
        for e in entries:
            doc = e["view"]
            out.append(narrate(doc["game_type"], e["types"], e["seat"], prev, doc["view"], names))
            prev = doc["view"]
        return out

    async def _names(self, room: Room) -> dict[int, str]:
        lobby = await self.gw.call("GET", f"/lobbies/{room.game}")
        return {s["seat"]: s.get("name", f"seat {s['seat']}") for s in lobby["seats"]}

    # ---- completion --------------------------------------------------------------------

    async def complete(self, platform: str, room_id: str, user: str, text: str, limit: int = 25) -> list[str]:
        """Suggestions for a partially typed chat command (autocomplete): verbs, then the
        sender's legal game commands from the gateway's /complete. Never raises."""
        line = text.lstrip()
        try:
            cmd = parse(line)
        except GrammarError:
            return []
        verbs: list[str] = []
        if " " not in line:  # a first word: the grammar's verbs, then game commands
            verbs = [v for v in VERBS if v.startswith(line.lower())]
            prefix = line
        elif cmd.verb == "play":
            prefix = cmd.rest if line.lower().startswith("play ") else line
            if text.endswith(" ") and not prefix.endswith(" "):
                prefix += " "
        else:
            return []
        try:
            room = await self.rooms.load(platform, room_id)
            s = room.users.get(user)
            if s is None or not room.started:
                return verbs[:limit]
            c = await self.gw.call("GET", f"/games/{room.game}/complete", token=s.token,
                                   params={"prefix": prefix, "limit": limit})
        except GatewayError:
            return verbs[:limit]
        return (verbs + c["commands"])[:limit]

    # ---- outbound: what happens later -----------------------------------------------

    async def watch(self) -> None:
        """Polls every room with a game in play, for ever (cancel to stop). A room's news
        are worked out under its lock (which commands take too) but posted after it, in
        order, by the room's own outbox: a slow platform delays only its announcements."""
        while True:
            for platform, room_id in await self.rooms.watched():
                try:
                    async with self._lock(platform, room_id):
                        news = await self.tick(platform, room_id)
                    if news:
                        self._post_later(platform, room_id, news)
                except GatewayError as e:
                    log.warning("chat: room watch failed: %s", e.code)
                except Exception as e:  # one room's fault never stops the others
                    log.error("chat: room watch failed: %s", type(e).__name__, exc_info=e)
            await asyncio.sleep(self.poll_s)

    def _post_later(self, platform: str, room_id: str, news: list[Reply]) -> None:
        """Post `news` to the room after everything queued for it before (one task per
        batch, each awaiting the one before it)."""
        key = (platform, room_id)
        task = asyncio.create_task(self._post_after(self._outbox.get(key), self.sinks[platform], room_id, news))
        self._outbox[key] = task
        task.add_done_callback(lambda t: self._outbox.pop(key) if self._outbox.get(key) is t else None)

    @staticmethod
    async def _post_after(prev: asyncio.Task | None, sink: Sink, room_id: str, news: list[Reply]) -> None:
        if prev is not None:
            await asyncio.wait([prev])
        for reply in news:
            try:
                await sink.post_room(room_id, reply)
            except Exception as e:  # the platform's fault: this message is lost, the next ones still go
                log.warning("chat: posting to a room failed: %s", type(e).__name__)

    async def tick(self, platform: str, room_id: str) -> list[Reply]:
        """A room's news since the last tick, to post in this order: its new log positions
        told, a ping of who must act, or the result once the game is over; in a timed game,
        a reminder to each seat whose time is running out. Records them as announced (each
        position is told once, each decision reminded once) and plays the seats of users
        who left."""
        room = await self.rooms.load(platform, room_id)
        if platform not in self.sinks or not room.started or room.over:
            return []
        news = await self._news(room)
        if room.timed and not room.over:
            news += await self._remind(room)
        return news

    async def _remind(self, room: Room) -> list[Reply]:
        """A reminder for each seated user whose running decision has a `REMIND_SHARE` of its
        time left or less, once per decision (its seat and deadline, kept in the room)."""
        try:
            clock = (await self.gw.call("GET", f"/games/{room.game}/view")).get("clock")
        except GatewayError as e:
            if e.code in ("unknown_game", "not_found"):
                return []  # not opened by the referee, or not projected, yet
            raise
        if not clock:
            return []
        now = time.time_ns() // 1_000_000
        running = {f"{s['seat']}:{s['deadline']}": s for s in clock["seats"]
                   if s["deadline"] is not None and not s.get("played_by")}
        done = set(room.reminded.split(",")) & set(running)
        out = []
        for mark, s in running.items():
            user = room.user_of(s["seat"])
            if mark in done or user is None or room.users[user].left:
                continue
            if s["deadline"] - now <= s["left_ms"] * REMIND_SHARE:
                done.add(mark)
                policy = clock["on_timeout"]
                then = {"forfeit": "you forfeit the seat", "pass": "you pass where you can"}.get(
                    policy, f"a {policy} bot moves for you")
                out.append(room_reply(f"{clocks.duration(clocks.left(s, now))} left to move (seat {s['seat']}); "
                                      f"then {then}.", mentions=(user,)))
        if ",".join(sorted(done)) != room.reminded:
            room.reminded = ",".join(sorted(done))
            await self.rooms.set(room, reminded=room.reminded)
        return out

    async def _news(self, room: Room) -> list[Reply]:
        try:
            summary = await self.gw.call("GET", f"/games/{room.game}")
        except GatewayError as e:
            if e.code == "unknown_game":
                return []  # not opened by the referee yet
            raise
        if summary["seq"] <= room.seen:
            return []
        names = await self._names(room)
        page = await self.gw.call("GET", f"/games/{room.game}/log", params={"after": room.seen, "limit": 200})
        lines = [line for told in await self._told(room, page["entries"], room.seen, names) for line in told]
        seen = page["entries"][-1]["seq"] if page["entries"] else summary["seq"]
        news = [room_reply("\n".join(lines[-ANNOUNCED:]))] if lines else []
        await self.rooms.set(room, seen=str(seen))
        room.seen = seen
        if page["next_after"] is not None:
            return news  # more to announce on the next tick before anyone is pinged
        if summary["over"]:
            return [*news, await self._game_over(room, names)]
        to_act = summary["to_act"]
        ping = tuple(u for seat in to_act if (u := room.user_of(seat)) and not room.users[u].left)
        if ping:
            timed = _clock(await self.gw.call("GET", f"/games/{room.game}/view")) if room.timed else ""
            news.append(room_reply(f"your turn.{timed}", mentions=ping))
        for seat in to_act:
            u = room.user_of(seat)
            if u and room.users[u].left and not room.users[u].resigned:  # left before resigning was logged
                await self._play_for_leaver(room, room.users[u], summary["seq"])
        return news

    async def _play_for_leaver(self, room: Room, s: Seated, seq: int) -> None:
        moves = await self.gw.call("GET", f"/games/{room.game}/moves", token=s.token)
        if moves["moves"] and s.seat in moves["to_act"]:
            pick = random.Random(f"{room.game}:{s.seat}:{seq}").choice(moves["moves"])["text"]
            await self.gw.call("POST", f"/games/{room.game}/commands", token=s.token, body={"command": pick},
                               key=f"chat-left-{s.seat}-{seq}")

    async def _game_over(self, room: Room, names: dict[int, str]) -> Reply:
        res = await self.gw.call("GET", f"/games/{room.game}/result")
        doc = await self.gw.call("GET", f"/games/{room.game}/view")
        r = res["result"] or {}
        totals = r.get("totals", [])
        ranking = ", ".join(f"{names.get(i, i)} {t}" for i, t in sorted(enumerate(totals), key=lambda x: -x[1]))
        winners = " and ".join(names.get(w, str(w)) for w in r.get("winners", []))
        room.over = True
        await self.rooms.set(room, over="1")
        await self.rooms.watch(room, False)
        return room_reply(f"Game over: {winners} won. Scores: {ranking}.", board=doc["text"])
