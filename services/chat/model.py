"""What flows between a chat platform's adapter and the chat core: an inbound `Message`,
the `Reply`s the core answers with (to the room, or privately to one user), and the `Sink`
an adapter implements for what the core says later on its own (turn pings, announcements,
game over). Transport-independent: each adapter renders a Reply with its formatter."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Protocol

Audience = Literal["room", "private"]


@dataclass(frozen=True)
class Picture:
    """A PNG to post as an image: its bytes, pixel size and a short alt text."""

    png: bytes = field(repr=False)
    width: int
    height: int
    alt: str
    filename: str = "board.png"


@dataclass(frozen=True)
class Message:
    """One chat command as the user typed it after the platform's prefix (`/ts`), e.g.
    "play build Aqueduct". `message_id`, when the platform gives one, makes a retried
    delivery of the same message send its game command once (an Idempotency-Key)."""

    platform: str  # "discord", "slack", "matrix", ...
    room: str  # the platform's channel / room id
    user: str  # the platform's user id (the one mentions use)
    display_name: str
    text: str
    message_id: str | None = None


@dataclass(frozen=True)
class Reply:
    """Something to show. `audience="private"` goes only to `user` (an ephemeral reply or a
    direct message), never to the room. `text` is plain prose (no markup: formatters escape
    it); `board` is preformatted text (a view's render) shown monospaced; `mentions` are
    platform user ids to ping (turn pings), rendered as each platform's mention; `choices`
    are game commands a platform may offer as buttons (pressing one plays it, as `play`).
    `picture` is a board drawn as a PNG (services/chat/picture.py), which adapters post as an
    image after the text, to the same audience: a room reply's is the spectator's board, a
    private reply's (`hand`) the seat's own, which goes only where its text goes (an adapter
    that cannot post an image privately drops it)."""

    audience: Audience
    text: str
    user: str | None = None
    board: str | None = None
    mentions: tuple[str, ...] = field(default=())
    choices: tuple[str, ...] = field(default=())
    picture: Picture | None = None


class Sink(Protocol):
    """Where the core posts what happens later (an adapter implements it per platform)."""

    async def post_room(self, room: str, reply: Reply) -> None: ...

    async def post_private(self, user: str, reply: Reply) -> None: ...
