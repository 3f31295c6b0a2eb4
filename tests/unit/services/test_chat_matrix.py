"""The Matrix adapter's pure parts: which messages address the bot, its settings from the
environment (missing ones named, secrets never in a message or repr), and the check that a
remembered direct-message room still holds the bot and its user alone."""

from __future__ import annotations

import pytest
from nio import MatrixRoom

from services.chat.matrix import MatrixBot, MatrixSettings, addressed, from_env

BOT = "@tsbot:localhost"


@pytest.mark.parametrize("body,want", [
    ("!ts join", "join"),
    ("  !TS   play build Altar ", "play build Altar"),
    ("!ts", ""),
    ("@tsbot:localhost: hand", "hand"),
    ("Tablestream, moves", "moves"),
    ("tablestream: board", "board"),
    ("!tsx join", None),
    ("hello !ts join", None),
    ("tablestream join", None),
    ("", None),
])
def test_addressed(body: str, want: str | None) -> None:
    assert addressed(body, "!ts", BOT, "Tablestream") == want


def test_settings_from_env_name_what_is_missing_never_a_secret() -> None:
    with pytest.raises(ValueError) as e:
        from_env({"MATRIX_HOMESERVER": "http://127.0.0.1:8008"})
    assert "MATRIX_USER" in str(e.value) and "MATRIX_PASSWORD or MATRIX_ACCESS_TOKEN" in str(e.value)
    with pytest.raises(ValueError) as e:
        from_env({"MATRIX_HOMESERVER": "h", "MATRIX_USER": BOT, "MATRIX_PASSWORD": "pw-sekrit",
                  "TABLESTREAM_CHAT_POLL_S": "soon"})
    assert "pw-sekrit" not in str(e.value)
    s = from_env({"MATRIX_HOMESERVER": "http://127.0.0.1:8008/", "MATRIX_USER": BOT,
                  "MATRIX_PASSWORD": "pw-sekrit", "MATRIX_ACCESS_TOKEN": "syt_token_sekrit"})
    assert s.homeserver == "http://127.0.0.1:8008" and s.prefix == "!ts"
    assert "sekrit" not in repr(s)


def _room(*members: str, invited: tuple[str, ...] = ()) -> MatrixRoom:
    room = MatrixRoom("!dm:localhost", BOT)
    for m in members:
        room.add_member(m, None, None)
    for m in invited:
        room.add_member(m, None, None, invited=True)
    return room


@pytest.mark.parametrize("members,invited,ok", [
    ((BOT, "@ada:localhost"), (), True),
    ((BOT,), ("@ada:localhost",), True),  # invited, not joined yet
    ((BOT, "@ada:localhost", "@eve:localhost"), (), False),  # a third person: never a hand there
    ((BOT,), ("@ada:localhost", "@eve:localhost"), False),
    ((BOT,), (), False),  # the user left: open another one
])
async def test_dm_room_is_only_reused_while_it_holds_the_bot_and_its_user(members, invited, ok) -> None:
    bot = MatrixBot(MatrixSettings("http://127.0.0.1:9", BOT, password="x"), redis=None)  # type: ignore[arg-type]
    bot.client.user_id = BOT
    bot.client.rooms["!dm:localhost"] = _room(*members, invited=invited)
    try:
        assert bot._dm_ok("!dm:localhost", "@ada:localhost") is ok
        assert bot._dm_ok("!unknown:localhost", "@ada:localhost") is False
    finally:
        await bot.core.aclose()
        await bot.client.close()
