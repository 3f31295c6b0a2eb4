"""The chat grammar, the same words on every platform (`help` lists them).

`parse` turns a line into a `Command(verb, args)`; a first word that is no verb is a game
command in the game's notation ("build Aqueduct" = "play build Aqueduct").
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_TEXT = 2000
"""A chat line longer than this is refused before anything else (the gateway's command limit is 4096 bytes)."""

VERBS = ("open", "join", "bot", "start", "play", "moves", "hand", "me", "board", "log", "undo", "resign", "leave",
         "abandon", "help")

HELP = """\
open <game> [preset] [key=value ...]   open a game in this room (e.g. open seven_wonders_duel, open seven_wonders 3p;
                                       undo=true lets seats take back their last command;
                                       clock=fischer:5m+3s sets a time control)
join [seat]                            claim a seat (the first free one, or that seat)
bot <seat> <random|greedy>             give a seat to a bot (the opener)
start                                  start now; empty seats go to random bots (the opener)
play <command>                         play a command in the game's notation (or just the command)
moves                                  your legal commands (privately)
hand | me                              your seat's own view, hand included (privately)
board                                  the public board, to the room
log                                    the last things that happened, to the room
undo                                   take back your last command (games opened with undo=true; not once it
                                       revealed or drew something or another seat acted on it)
resign | leave                         resign: a random bot plays your seat to the end; you rank last
abandon <seat> [random|greedy]         give up a seat whose player is gone to a bot (the opener, once started)
help                                   this list"""

GAMES_HELP = "games: seven_wonders, seven_wonders_duel, arkadia, ora_et_labora"


@dataclass(frozen=True)
class Command:
    verb: str
    args: tuple[str, ...]
    rest: str
    """The text after the verb, spaces kept as typed but trimmed (a game command)."""


class GrammarError(ValueError):
    """A line that is no command of the grammar; the message says what is expected."""


def parse(text: str) -> Command:
    line = text.strip()
    if len(line) > MAX_TEXT:
        raise GrammarError(f"a chat command may be at most {MAX_TEXT} characters")
    if not line:
        return Command("help", (), "")
    head, _, rest = line.partition(" ")
    verb = head.lower()
    rest = rest.strip()
    if verb not in VERBS:
        return Command("play", tuple(line.split()), line)
    if verb == "me":
        verb = "hand"
    if verb == "resign":
        verb = "leave"
    args = tuple(rest.split())
    if verb == "open":
        if not args:
            raise GrammarError("open <game> [preset] [key=value ...]; " + GAMES_HELP)
        for a in args[2:]:
            if "=" not in a:
                raise GrammarError(f"options are key=value, not {a[:40]!r}")
    elif verb == "bot":
        if len(args) != 2 or not args[0].isdigit():
            raise GrammarError("bot <seat> <random|greedy>")
    elif verb == "abandon":
        if not 1 <= len(args) <= 2 or not args[0].isdigit():
            raise GrammarError("abandon <seat> [random|greedy]")
    elif verb == "join":
        if len(args) > 1 or (args and not args[0].isdigit()):
            raise GrammarError("join [seat]")
    elif verb == "play":
        if not rest:
            raise GrammarError("play <command in the game's notation>; `moves` lists yours")
    return Command(verb, args, rest)


def parse_options(args: tuple[str, ...]) -> tuple[str, dict[str, object]]:
    """`open`'s words after the game: an optional preset name, then key=value options
    (values: true/false, integers, else text)."""
    preset = ""
    pairs = list(args)
    if pairs and "=" not in pairs[0]:
        preset = pairs.pop(0)
    opts: dict[str, object] = {}
    for p in pairs:
        k, _, v = p.partition("=")
        if not k:
            raise GrammarError(f"options are key=value, not {p[:40]!r}")
        low = v.lower()
        opts[k] = True if low == "true" else False if low == "false" else int(v) if v.lstrip("-").isdigit() else v
    return preset, opts
