"""The chat service's settings, read from the environment once at start. Secrets (the
Discord bot token, the Slack bot token and signing secret) live only here and in the
adapters' request headers: never logged, never in a URL, never in a reply."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class ChatSettings:
    gateway_url: str = "http://127.0.0.1:8080"
    poll_s: float = 0.5
    defer_s: float = 2.0
    """Discord: answer within this many seconds or defer (its limit is 3 s)."""
    discord_public_key: str = ""
    discord_app_id: str = ""
    discord_bot_token: str = field(default="", repr=False)
    discord_api_base: str = "https://discord.com/api/v10"
    slack_signing_secret: str = field(default="", repr=False)
    slack_bot_token: str = field(default="", repr=False)
    slack_api_base: str = "https://slack.com/api/"
    slack_command: str = "/ts"
    pictures: bool = True
    """`board` posts the public board as a PNG too (TABLESTREAM_CHAT_PICTURES=0: text only)."""

    @property
    def discord(self) -> bool:
        return bool(self.discord_public_key)

    @property
    def slack(self) -> bool:
        return bool(self.slack_signing_secret)


def incomplete(s: ChatSettings) -> str | None:
    """Why these settings cannot serve a configured platform (one line), else None. Each
    platform's later posts (turn pings, announcements, results, Discord's direct messages)
    need its bot token, and Discord's follow-ups its application id: a half-set platform
    would answer commands but never tell a room what happened."""
    if s.slack and not s.slack_bot_token:
        return ("SLACK_SIGNING_SECRET is set but SLACK_BOT_TOKEN is not: the Slack adapter posts turn pings and "
                "announcements with the bot token (xoxb-...); set both, or neither")
    if s.discord and not (s.discord_app_id and s.discord_bot_token):
        missing = " and ".join(k for k, v in (("DISCORD_APP_ID", s.discord_app_id),
                                              ("DISCORD_BOT_TOKEN", s.discord_bot_token)) if not v)
        return (f"DISCORD_PUBLIC_KEY is set but {missing} is not: the Discord adapter needs them for follow-ups "
                "and channel messages; set all three, or none")
    return None


def pictures_on(e: Mapping[str, str]) -> bool:
    """TABLESTREAM_CHAT_PICTURES: on unless 0, false, no or off."""
    return e.get("TABLESTREAM_CHAT_PICTURES", "1").strip().lower() not in ("0", "false", "no", "off")


def from_env(env: dict[str, str] | None = None) -> ChatSettings:
    e = os.environ if env is None else env
    d = ChatSettings()
    return ChatSettings(
        gateway_url=e.get("TABLESTREAM_GATEWAY_URL", d.gateway_url),
        poll_s=float(e.get("TABLESTREAM_CHAT_POLL_S", d.poll_s)),
        defer_s=float(e.get("TABLESTREAM_CHAT_DEFER_S", d.defer_s)),
        discord_public_key=e.get("DISCORD_PUBLIC_KEY", ""),
        discord_app_id=e.get("DISCORD_APP_ID", ""),
        discord_bot_token=e.get("DISCORD_BOT_TOKEN", ""),
        discord_api_base=e.get("DISCORD_API_BASE", d.discord_api_base).rstrip("/"),
        slack_signing_secret=e.get("SLACK_SIGNING_SECRET", ""),
        slack_bot_token=e.get("SLACK_BOT_TOKEN", ""),
        slack_api_base=e.get("SLACK_API_BASE", d.slack_api_base),
        slack_command=e.get("SLACK_COMMAND", d.slack_command),
        pictures=pictures_on(e),
    )
