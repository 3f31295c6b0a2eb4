"""services.client.parse_text: the text notation as the CLI, scripts and bots send it."""

from __future__ import annotations

from games.contract import Rejection
from games.seven_wonders import GAME as sw
from services.client import parse_text


def test_a_command_text_over_the_limit_is_refused_as_oversized_without_echoing_it() -> None:
    """README "Rejection codes": `oversized`; a 5,000-character text had come back whole
    inside the game parser's bad_notation message."""
    text = "build " + "Q" * 5000
    out = parse_text(sw, text)
    assert isinstance(out, Rejection) and out.code == "oversized"
    assert "QQQQ" not in out.message and "4096" in out.message and str(len(text)) in out.message
    assert parse_text(sw, "discard Loom", limit=12) == sw.parse_command("discard Loom")
    assert isinstance(parse_text(sw, "discard Loom", limit=11), Rejection)


def test_a_text_within_the_limit_goes_to_the_game_parser() -> None:
    assert parse_text(sw, "discard Loom") == sw.parse_command("discard Loom")
    bad = parse_text(sw, "juggle Loom")
    assert isinstance(bad, Rejection) and bad.code == sw.parse_command("juggle Loom").code
