"""Slack: Bolt for Python (AsyncApp) in HTTP mode behind the chat app's `/slack/events`.

Bolt checks every request's signing-secret signature (`v0=HMAC-SHA256(secret,
"v0:{ts}:{body}")`, timestamp within 5 minutes) and refuses anything else with 401. The
slash command (`/ts <line>`, SLACK_COMMAND) is acknowledged at once; its replies go back
through the request's response_url: `response_type="ephemeral"` for private ones (only the
sender sees them), `"in_channel"` for the room's. A `moves` reply carries buttons for a few
legal commands (interactivity): pressing one plays it for the user who pressed it. Later posts go through chat.postMessage at
SLACK_API_BASE: to the channel, or to the user's id (a direct message) when private. A room
reply's board picture (`board`) is then shared to the channel as a file (files_upload_v2).
"""

from __future__ import annotations

import logging
import re

from slack_bolt.async_app import AsyncApp
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_sdk.web.async_client import AsyncWebClient

from services.chat import format as fmt
from services.chat.config import ChatSettings
from services.chat.core import ChatCore
from services.chat.model import Message, Reply

log = logging.getLogger("tablestream.chat.slack")

PLATFORM = "slack"


async def post_picture(client: AsyncWebClient, channel: str, reply: Reply) -> None:
    """A room reply's board picture shared to `channel`: slack_sdk's files_upload_v2 (Slack's
    files.getUploadURLExternal, the upload to the URL it gives, files.completeUploadExternal
    with the channel; the bot needs `files:write`). Never for a private reply: a file shared to
    a channel is the whole channel's (Slack has no ephemeral file), so on Slack a seat's own
    board stays text. A failure is logged (its type only) and the text reply stands."""
    pic = reply.picture
    if pic is None or reply.audience != "room" or not channel:
        return
    try:
        await client.files_upload_v2(channel=channel, file=pic.png, filename=pic.filename, title=pic.alt,
                                     alt_txt=pic.alt)
    except Exception as e:
        log.warning("slack: uploading the board picture failed: %s", type(e).__name__)


class SlackSink:
    """The core's Sink for Slack: chat.postMessage with the bot token."""

    def __init__(self, client: AsyncWebClient) -> None:
        self.client = client

    async def post_room(self, room: str, reply: Reply) -> None:
        await self.client.chat_postMessage(channel=room, text=fmt.slack_text(reply), blocks=fmt.slack(reply))
        await post_picture(self.client, room, reply)

    async def post_private(self, user: str, reply: Reply) -> None:
        await self.client.chat_postMessage(channel=user, text=fmt.slack_text(reply), blocks=fmt.slack(reply))


def web_client(settings: ChatSettings) -> AsyncWebClient:
    base = settings.slack_api_base if settings.slack_api_base.endswith("/") else settings.slack_api_base + "/"
    return AsyncWebClient(token=settings.slack_bot_token or None, base_url=base)


def bolt_app(settings: ChatSettings, core: ChatCore, client: AsyncWebClient) -> AsyncApp:
    app = AsyncApp(signing_secret=settings.slack_signing_secret, client=client, logger=log,
                   ssl_check_enabled=False)

    @app.command(settings.slack_command)
    async def on_command(ack, command, respond) -> None:  # type: ignore[no-untyped-def]
        await ack()
        msg = Message(PLATFORM, command.get("channel_id", ""), command.get("user_id", ""),
                      command.get("user_name", "") or command.get("user_id", ""), command.get("text", ""),
                      message_id=command.get("trigger_id"))
        for reply in await core.handle(msg):
            await respond(text=fmt.slack_text(reply), blocks=fmt.slack(reply),
                          response_type="ephemeral" if reply.audience == "private" else "in_channel",
                          replace_original=False)
            await post_picture(client, msg.room, reply)

    @app.action(re.compile(f"^{fmt.SLACK_PLAY_ACTION}[0-4]$"))
    async def on_button(ack, body, action, respond) -> None:  # type: ignore[no-untyped-def]
        """A `moves` reply's button: plays its command for the user who pressed it."""
        await ack()
        user = body.get("user") or {}
        msg = Message(PLATFORM, (body.get("channel") or {}).get("id", ""), user.get("id", ""),
                      user.get("username") or user.get("name") or user.get("id", ""),
                      "play " + str(action.get("value", "")), message_id=body.get("trigger_id"))
        for reply in await core.handle(msg):
            await respond(text=fmt.slack_text(reply), blocks=fmt.slack(reply),
                          response_type="ephemeral" if reply.audience == "private" else "in_channel",
                          replace_original=False)

    return app


async def dispatch(app: AsyncApp, body: bytes, headers: dict[str, str]) -> tuple[int, bytes, dict[str, str]]:
    """One HTTP request through Bolt (signature check, ack); its status, body and headers."""
    res = await app.async_dispatch(AsyncBoltRequest(body=body.decode("utf-8", "replace"), headers=headers))
    return res.status, (res.body or "").encode(), {k: v[0] for k, v in res.headers.items() if v}
