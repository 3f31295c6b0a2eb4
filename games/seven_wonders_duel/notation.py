"""The compact text notation of commands, for the CLI, scripts and chat.

    draft Pyramids                  take a revealed wonder (§3)
    build Lumber Yard               construct an accessible card, cheapest payment (§5 A)
    discard Baths                   discard it for coins (§5 B)
    wonder Pyramids with Baths      build a wonder with that card (§5 C)
    token Law                       take a progress token (science pair, The Great Library)
    destroy Quarry                  Circus Maximus / The Statue of Zeus
    build Temple from discard       The Mausoleum
    choose start me|opponent        who starts the next age (§9)

Names are case-insensitive; spaces or underscores both work; a wonder's leading "The"
may be left out. `format_command` writes the printed names.
"""

from __future__ import annotations

from games.contract import Rejection
from games.seven_wonders_duel.catalog import CATALOG, slug
from games.seven_wonders_duel.commands import (
    BuildCard,
    BuildFromDiscard,
    BuildWonder,
    ChooseProgressToken,
    ChooseStartPlayer,
    Command_,
    DestroyCard,
    DiscardCard,
    DraftWonder,
)

_USAGE = ("expected: draft WONDER, build CARD, discard CARD, wonder WONDER with CARD, token TOKEN, "
          "destroy CARD, build CARD from discard, or choose start me|opponent")


def _find(words: str, table: dict, what: str) -> str | Rejection:
    key = CATALOG.by_slug.get(slug(words))
    if key is None or key not in table:
        return Rejection(f"unknown_{what}", f"there is no {what} called {words.strip()!r}")
    return key


def parse_command(text: str) -> Command_ | Rejection:
    """Text -> a command, or a Rejection('bad_notation' | 'unknown_card' | ..., why)."""
    t = " ".join(text.strip().split())
    verb, _, rest = t.partition(" ")
    verb = verb.lower()
    low = rest.lower()
    if not rest:
        return Rejection("bad_notation", _USAGE)
    if verb == "choose":
        if low in ("start me", "start opponent"):
            return ChooseStartPlayer(start=low.split()[1])  # type: ignore[arg-type]
        return Rejection("bad_notation", "write 'choose start me' or 'choose start opponent'")
    if verb == "draft":
        w = _find(rest, CATALOG.wonders, "wonder")
        return w if isinstance(w, Rejection) else DraftWonder(wonder=w)
    if verb == "token":
        k = _find(rest, CATALOG.tokens, "token")
        return k if isinstance(k, Rejection) else ChooseProgressToken(token=k)
    if verb == "wonder":
        name, sep, card = rest.rpartition(" with ") if " with " in low else ("", "", "")
        if not sep:
            low_i = low.rfind(" with ")
            if low_i < 0:
                return Rejection("bad_notation", "write 'wonder WONDER with CARD'")
            name, card = rest[:low_i], rest[low_i + 6:]
        w = _find(name, CATALOG.wonders, "wonder")
        if isinstance(w, Rejection):
            return w
        c = _find(card, CATALOG.cards, "card")
        return c if isinstance(c, Rejection) else BuildWonder(wonder=w, card=c)
    if verb in ("build", "discard", "destroy"):
        from_discard = verb == "build" and low.endswith(" from discard")
        name = rest[: -len(" from discard")] if from_discard else rest
        c = _find(name, CATALOG.cards, "card")
        if isinstance(c, Rejection):
            return c
        if from_discard:
            return BuildFromDiscard(card=c)
        return {"build": BuildCard, "discard": DiscardCard, "destroy": DestroyCard}[verb](card=c)
    return Rejection("bad_notation", _USAGE)


def format_command(cmd: Command_) -> str:
    """A command -> its notation; parse_command(format_command(c)) == c."""
    n = CATALOG.name
    match cmd:
        case DraftWonder():
            return f"draft {n(cmd.wonder)}"
        case BuildCard():
            return f"build {n(cmd.card)}"
        case DiscardCard():
            return f"discard {n(cmd.card)}"
        case BuildWonder():
            return f"wonder {n(cmd.wonder)} with {n(cmd.card)}"
        case ChooseProgressToken():
            return f"token {n(cmd.token)}"
        case DestroyCard():
            return f"destroy {n(cmd.card)}"
        case BuildFromDiscard():
            return f"build {n(cmd.card)} from discard"
        case ChooseStartPlayer():
            return f"choose start {cmd.start}"
    raise TypeError(f"not a 7 Wonders Duel command: {cmd!r}")
