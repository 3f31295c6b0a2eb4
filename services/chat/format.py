"""Per-platform rendering of a `Reply`, within each platform's limits: Discord markdown
(2000 characters a message), Slack mrkdwn (3000 a text block, 40000 a message), Matrix
HTML (an event well under 64 KiB). A board too long for one message is split at line ends
into several, each its own code block; a single line longer than the limit is cut."""

from __future__ import annotations

import html

from services.chat.model import Reply

DISCORD_LIMIT = 2000
SLACK_BLOCK_LIMIT = 3000
SLACK_MESSAGE_LIMIT = 40_000
MATRIX_LIMIT = 32_000
SLACK_PLAY_ACTION = "ts_play_"  # characters of the HTML body: with the plain body, well under 64 KiB


def _chunks(text: str, limit: int) -> list[str]:
    """`text` in pieces of at most `limit` characters, cut at line ends where possible."""
    out: list[str] = []
    cur = ""
    for line in text.split("\n"):
        while len(line) > limit:
            if cur:
                out.append(cur)
                cur = ""
            out.append(line[:limit])
            line = line[limit:]
        if cur and len(cur) + 1 + len(line) > limit:
            out.append(cur)
            cur = line
        else:
            cur = f"{cur}\n{line}" if cur else line
    if cur or not out:
        out.append(cur)
    return out


def _escape_md(text: str) -> str:
    for ch in "\\*_~`|>":
        text = text.replace(ch, "\\" + ch)
    return text


def discord(reply: Reply) -> list[str]:
    """Discord messages (markdown), each at most 2000 characters."""
    head = _escape_md(reply.text)
    if reply.mentions:
        head = " ".join(f"<@{u}>" for u in reply.mentions) + " " + head
    msgs = _chunks(head, DISCORD_LIMIT) if head else []
    if reply.board:
        fence = 8  # "```\n" + "\n```"
        for part in _chunks(reply.board.replace("```", "ʼʼʼ"), DISCORD_LIMIT - fence):
            block = f"```\n{part}\n```"
            if msgs and len(msgs[-1]) + 1 + len(block) <= DISCORD_LIMIT:
                msgs[-1] += "\n" + block  # the text and its board in one message when they fit
            else:
                msgs.append(block)
    return msgs or [""]


def _escape_slack(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def slack(reply: Reply) -> list[dict]:
    """Slack Block Kit section blocks (mrkdwn), each text at most 3000 characters; a
    message's blocks stay under 40000 characters in all (the rest is cut, said so)."""
    head = _escape_slack(reply.text)
    if reply.mentions:
        head = " ".join(f"<@{u}>" for u in reply.mentions) + " " + head
    texts = _chunks(head, SLACK_BLOCK_LIMIT) if head else []
    if reply.board:
        for part in _chunks(_escape_slack(reply.board.replace("```", "'''")), SLACK_BLOCK_LIMIT - 8):
            texts.append(f"```\n{part}\n```")
    blocks, total = [], 0
    for t in texts:
        if total + len(t) > SLACK_MESSAGE_LIMIT - 100 or len(blocks) >= 49:
            blocks.append({"type": "section", "text": {"type": "mrkdwn", "text": "(cut: too long for one message)"}})
            break
        total += len(t)
        blocks.append({"type": "section", "text": {"type": "mrkdwn", "text": t}})
    if reply.choices:  # buttons: pressing one plays that command (services/chat/slack.py)
        blocks.append({"type": "actions", "elements": [
            {"type": "button", "action_id": f"{SLACK_PLAY_ACTION}{i}", "value": c[:2000],
             "text": {"type": "plain_text", "text": c[:75]}} for i, c in enumerate(reply.choices[:5])]})
    return blocks


def slack_text(reply: Reply) -> str:
    """The plain fallback `text` Slack shows in notifications (short)."""
    return _escape_slack(reply.text)[:SLACK_BLOCK_LIMIT] or "Tablestream"


def matrix(reply: Reply, mention_names: dict[str, str] | None = None) -> tuple[str, str]:
    """(plain body, HTML formatted_body) of a Matrix m.room.message; mentions are
    matrix.to pills."""
    names = mention_names or {}
    plain = reply.text
    body = html.escape(reply.text).replace("\n", "<br>\n")  # an announcement's sentences, one a line
    if reply.mentions:
        plain = " ".join(names.get(u, u) for u in reply.mentions) + " " + plain
        pills = " ".join(f'<a href="https://matrix.to/#/{html.escape(u)}">{html.escape(names.get(u, u))}</a>'
                         for u in reply.mentions)
        body = pills + " " + body
    if reply.board:
        plain += "\n" + reply.board
        body += "<pre><code>" + html.escape(reply.board) + "</code></pre>"
    if len(body) > MATRIX_LIMIT:
        body = body[:MATRIX_LIMIT - 40].rsplit("\n", 1)[0] + "\n(cut)</code></pre>"
        plain = plain[:MATRIX_LIMIT]
    return plain, body
