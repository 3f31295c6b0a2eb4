"""The compact text notation of commands, for the CLI, scripts and chat.

    build Aqueduct                     build, cheapest payment
    build Aqueduct pay cheapest        the same
    build Aqueduct pay left 2 right 0  build, sending 2 coins left and none right
    build Aqueduct free                Olympia A's free build
    wonder Loom [pay ...]              use Loom to build the next wonder stage
    wonder Loom [pay ...] join         Edifice: the same, taking part in this Age's edifice
    wonder Loom [pay ...] option 2     Carthage: the stage's 2nd alternative; Ur: a pawn of Age 2
    give up Barracks                   Edifice: pay a failed edifice's penalty with this card
    return tokens 3 5                  Edifice: pay it with these victory tokens
    discard Tavern                     discard for 3 coins
    build Temple from discard          Halicarnassus: build from the discard pile
    decline                            Halicarnassus: take nothing
    ... for free city                  2-player variant: the same, for the Free City (§12)

Card names are case-insensitive; underscores or spaces both work.
"""

from __future__ import annotations

import re

import msgspec

from games.contract import Rejection
from games.seven_wonders.catalog import CATALOG, slug
from games.seven_wonders.commands import (
    Build,
    BuildFromDiscard,
    BuildStage,
    Command_,
    Decline,
    Discard,
    GiveUp,
    ReturnTokens,
)

_PAY = re.compile(
    r"^(?P<name>.+?)\s+pay\s+(?:(?P<cheap>cheapest)|(?:left\s+(?P<l>\d+))?\s*(?:right\s+(?P<r>\d+))?)$",
    re.IGNORECASE,
)


def _card(words: str) -> str | Rejection:
    key = slug(words)
    if key in CATALOG.by_key:
        return key
    if key in CATALOG.cards:
        return CATALOG.key[key]
    return Rejection("unknown_card", f"there is no card called {words.strip()!r}")


def parse_command(text: str) -> Command_ | Rejection:
    """Text -> a command, or a Rejection('bad_notation' | 'unknown_card', why)."""
    t = " ".join(text.strip().split())
    fc = t.lower().endswith(" for free city")
    if fc:
        t = t[: -len(" for free city")]
    cmd = _parse(t)
    if isinstance(cmd, Rejection) or not fc:
        return cmd
    return msgspec.structs.replace(cmd, free_city=True)


def _parse(t: str) -> Command_ | Rejection:
    verb, _, rest = t.partition(" ")
    verb = verb.lower()
    low = rest.lower()
    if verb == "decline" and not rest:
        return Decline()
    if verb == "give" and low.startswith("up "):
        card = _card(rest[3:])
        return card if isinstance(card, Rejection) else GiveUp(card=card)
    if verb == "return" and low.startswith("tokens"):
        values = low[len("tokens"):].split()
        if not values or not all(v.isdigit() for v in values):
            return Rejection("bad_notation", "write 'return tokens V W' with the values of the victory tokens")
        return ReturnTokens(tokens=[int(v) for v in values])
    join = verb in ("wonder", "stage") and low.endswith(" join")
    if join:
        rest, low = rest[: -len(" join")], low[: -len(" join")]
    option = None
    m_opt = re.search(r"\s+option\s+(\d+)$", low) if verb in ("wonder", "stage") else None
    if m_opt is not None:
        option = int(m_opt[1])
        rest, low = rest[: m_opt.start()], low[: m_opt.start()]
    if verb == "discard" and rest:
        card = _card(rest)
        return card if isinstance(card, Rejection) else Discard(card=card)
    if verb in ("build", "wonder", "stage") and rest:
        left = right = None
        free = False
        name = rest
        if verb == "build" and low.endswith(" from discard"):
            card = _card(rest[: -len(" from discard")])
            return card if isinstance(card, Rejection) else BuildFromDiscard(card=card)
        if verb == "build" and low.endswith(" free"):
            name, free = rest[: -len(" free")], True
        else:
            m = _PAY.match(rest)
            if m is not None and not (m["cheap"] or m["l"] or m["r"]):
                m = None
            if m is None and " pay" in low:
                return Rejection("bad_notation", "write 'pay cheapest' or 'pay left N right M'")
            if m is not None:
                name = m["name"]
                if not m["cheap"]:
                    left = int(m["l"]) if m["l"] is not None else None
                    right = int(m["r"]) if m["r"] is not None else None
        card = _card(name)
        if isinstance(card, Rejection):
            return card
        if verb == "build":
            return Build(card=card, left=left, right=right, free=free)
        return BuildStage(card=card, left=left, right=right, join=join, option=option)
    return Rejection(
        "bad_notation",
        "expected: build CARD [pay cheapest|pay left N right M|free|from discard], wonder CARD [pay ...] [option N] [join], "
        "discard CARD, decline, give up CARD, or return tokens V W",
    )


def _display(key: str) -> str:
    return CATALOG.cards[CATALOG.by_key[key][0]].name if key in CATALOG.by_key else key


def _pay(left: int | None, right: int | None) -> str:
    if left is None and right is None:
        return "pay cheapest"
    return " ".join(["pay", *([f"left {left}"] if left is not None else []), *([f"right {right}"] if right is not None else [])])


def format_command(cmd: Command_) -> str:
    """A command -> its notation; parse_command(format_command(c)) == c."""
    text = _format(cmd)
    return text + " for free city" if getattr(cmd, "free_city", False) else text


def _format(cmd: Command_) -> str:
    match cmd:
        case Build(free=True):
            return f"build {_display(cmd.card)} free"
        case Build():
            return f"build {_display(cmd.card)} {_pay(cmd.left, cmd.right)}"
        case BuildStage():
            return (f"wonder {_display(cmd.card)} {_pay(cmd.left, cmd.right)}"
                    + (f" option {cmd.option}" if cmd.option is not None else "") + (" join" if cmd.join else ""))
        case Discard():
            return f"discard {_display(cmd.card)}"
        case BuildFromDiscard():
            return f"build {_display(cmd.card)} from discard"
        case Decline():
            return "decline"
        case GiveUp():
            return f"give up {_display(cmd.card)}"
        case ReturnTokens():
            return "return tokens " + " ".join(str(t) for t in cmd.tokens)
    raise TypeError(f"not a 7 Wonders command: {cmd!r}")
