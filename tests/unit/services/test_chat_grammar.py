"""The chat grammar (services/chat/grammar.py) and the per-platform formatters' limits."""

from __future__ import annotations

import pytest

from services.chat import format as fmt
from services.chat.grammar import GrammarError, parse, parse_options
from services.chat.model import Reply


def test_verbs_and_aliases() -> None:
    assert parse("open seven_wonders 3p edifice=true").args == ("seven_wonders", "3p", "edifice=true")
    assert parse("  ME ").verb == "hand"
    assert parse("resign").verb == "leave"
    assert parse("join 2").args == ("2",)
    assert parse("bot 1 greedy").args == ("1", "greedy")
    assert parse("").verb == "help"
    p = parse("play  build   Lumber Yard ")
    assert (p.verb, p.rest) == ("play", "build   Lumber Yard")


def test_a_bare_game_command_is_play() -> None:
    c = parse("draft The Sphinx")
    assert (c.verb, c.rest) == ("play", "draft The Sphinx")


@pytest.mark.parametrize("line", ["open", "bot x greedy", "bot 1", "join one", "play", "open a b c",
                                  "x" * 2001])
def test_bad_lines_are_refused_with_the_expected_form(line: str) -> None:
    with pytest.raises(GrammarError):
        parse(line)


def test_options() -> None:
    assert parse_options(("3p", "edifice=true", "players=4", "name=x")) == (
        "3p", {"edifice": True, "players": 4, "name": "x"})
    assert parse_options(("players=5",)) == ("", {"players": 5})
    with pytest.raises(GrammarError):
        parse_options(("=1",))


def test_discord_messages_stay_under_2000_and_keep_every_line() -> None:
    board = "\n".join(f"line {i} " + "x" * 50 for i in range(200))
    msgs = fmt.discord(Reply("room", "the *board*", board=board, mentions=("123",)))
    assert all(len(m) <= fmt.DISCORD_LIMIT for m in msgs) and len(msgs) > 5
    assert msgs[0].startswith("<@123> the \\*board\\*\n```\n")
    joined = "\n".join(m.split("```\n", 1)[1].removesuffix("\n```") for m in msgs)
    assert joined == board
    assert fmt.discord(Reply("private", "hi", board="a\nb")) == ["hi\n```\na\nb\n```"]
    long_line = fmt.discord(Reply("room", "y" * 4500))
    assert [len(m) for m in long_line] == [2000, 2000, 500]


def test_slack_blocks_stay_under_the_limits_and_escape() -> None:
    board = "\n".join("z" * 100 for _ in range(1000))  # 100 kB
    blocks = fmt.slack(Reply("room", "a <b> & c", board=board, mentions=("U1",)))
    texts = [b["text"]["text"] for b in blocks]
    assert texts[0] == "<@U1> a &lt;b&gt; &amp; c"
    assert all(len(t) <= fmt.SLACK_BLOCK_LIMIT for t in texts)
    assert sum(map(len, texts)) <= fmt.SLACK_MESSAGE_LIMIT and len(blocks) <= 50
    assert texts[-1].startswith("(cut")


def test_matrix_html_escapes_and_pills() -> None:
    plain, body = fmt.matrix(Reply("room", "<b>", board="a<b", mentions=("@ada:x",)), {"@ada:x": "Ada"})
    assert plain == "Ada <b>\na<b"
    assert body == '<a href="https://matrix.to/#/@ada:x">Ada</a> &lt;b&gt;<pre><code>a&lt;b</code></pre>'
    _, big = fmt.matrix(Reply("room", "", board="q\n" * 40_000))
    assert len(big) <= fmt.MATRIX_LIMIT


def test_slack_offers_choices_as_buttons_carrying_the_command() -> None:
    blocks = fmt.slack(Reply("private", "moves", user="U1", choices=tuple(f"build Card {i}" for i in range(7))))
    actions = [b for b in blocks if b["type"] == "actions"]
    assert len(actions) == 1 and len(actions[0]["elements"]) == 5
    assert [e["value"] for e in actions[0]["elements"]] == [f"build Card {i}" for i in range(5)]
    assert {e["action_id"] for e in actions[0]["elements"]} == {f"ts_play_{i}" for i in range(5)}
    assert not [b for b in fmt.slack(Reply("room", "x")) if b["type"] == "actions"]
