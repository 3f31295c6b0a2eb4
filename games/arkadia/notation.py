"""The compact text notation of commands, for the CLI, scripts and chat.

    build farm red 10,6 r1          lay a red farm: anchor cell (x,y), 1 quarter turn clockwise
    build trade centre olive 3,4    form names may use spaces; rotation r0 when left out
    workers 3 own 10,4 11,4 neutral 12,5    workers next to building 3
    castle olive 9                  an olive castle piece on castle square 9
    take farm red                   refill from the open display
    draw                            refill from the draw pile
    banner                          use a banner, exchange nothing
    banner exchange 4 olive 2 silver    use a banner and exchange those seals
    end                             end the turn without a banner

The anchor is the building's first covered cell in reading order (top row, leftmost);
words are case-insensitive.
"""

from __future__ import annotations

import re

from games.arkadia.catalog import SEALS
from games.arkadia.commands import (
    Command_,
    DrawCard,
    EndTurn,
    PlaceBuilding,
    PlaceCastlePiece,
    PlaceWorkers,
    TakeCard,
    UseBanner,
)
from games.contract import Rejection

_CELL = re.compile(r"^(-?\d+),(-?\d+)$")
_ROT = re.compile(r"^r(\d+)$")
_HELP = ("expected: build FORM SEAL X,Y [rN] | workers B [own X,Y ...] [neutral X,Y ...] | castle COLOUR SQUARE | "
         "take FORM SEAL | draw | banner [exchange N COLOUR ...] | end")


def _slug(words: list[str]) -> str:
    return re.sub(r"[^a-z0-9]+", "_", " ".join(words)).strip("_")


def _cell(word: str) -> tuple[int, int] | None:
    m = _CELL.match(word)
    return (int(m[1]), int(m[2])) if m else None


def _bad(why: str) -> Rejection:
    return Rejection("bad_notation", f"{why}; {_HELP}")


def parse_command(text: str) -> Command_ | Rejection:
    """Text -> a command, or a Rejection('bad_notation', why). Names are checked by decide."""
    words = text.strip().lower().split()
    if not words:
        return _bad("empty command")
    verb, rest = words[0], words[1:]
    if verb == "draw" and not rest:
        return DrawCard()
    if verb == "end" and not rest:
        return EndTurn()
    if verb in ("build", "take"):
        rotation = 0
        if verb == "build":
            if rest and _ROT.match(rest[-1]):
                rotation = int(rest[-1][1:])
                rest = rest[:-1]
            anchor = _cell(rest[-1]) if rest else None
            if anchor is None:
                return _bad("a building needs its anchor cell as X,Y")
            rest = rest[:-1]
        if len(rest) < 2:
            return _bad(f"{verb} needs a form and a seal colour")
        form, seal = _slug(rest[:-1]), rest[-1]
        if verb == "take":
            return TakeCard(form=form, seal=seal)
        return PlaceBuilding(form=form, seal=seal, anchor=anchor, rotation=rotation)
    if verb == "workers":
        if not rest or not re.fullmatch(r"b?\d+", rest[0]):
            return _bad("workers needs a building number")
        groups: dict[str, list[tuple[int, int]]] = {"own": [], "neutral": []}
        current = None
        for w in rest[1:]:
            if w in groups:
                current = w
                continue
            c = _cell(w)
            if c is None or current is None:
                return _bad(f"unexpected {w!r} in a worker placement")
            groups[current].append(c)
        return PlaceWorkers(building=int(rest[0].lstrip("b")), own=tuple(groups["own"]),
                            neutral=tuple(groups["neutral"]))
    if verb == "castle":
        if len(rest) != 2 or not re.fullmatch(r"\d+", rest[1]):
            return _bad("castle needs a colour and a square number")
        return PlaceCastlePiece(colour=rest[0], square=int(rest[1]))
    if verb == "banner":
        counts = dict.fromkeys(SEALS, 0)
        if rest:
            if rest[0] != "exchange" or len(rest) % 2 != 1:
                return _bad("write banner exchange N COLOUR [N COLOUR ...]")
            for n, colour in zip(rest[1::2], rest[2::2]):
                if not n.isdigit() or colour not in counts:
                    return _bad(f"cannot exchange {n!r} {colour!r}")
                counts[colour] += int(n)
        return UseBanner(**counts)
    return _bad(f"unknown command {verb!r}")


def _cells(cells: tuple[tuple[int, int], ...]) -> str:
    return " ".join(f"{x},{y}" for x, y in cells)


def format_command(cmd: Command_) -> str:
    """A command -> its notation; parse_command(format_command(c)) == c."""
    match cmd:
        case PlaceBuilding():
            return f"build {cmd.form} {cmd.seal} {cmd.anchor[0]},{cmd.anchor[1]} r{cmd.rotation}"
        case PlaceWorkers():
            out = f"workers {cmd.building}"
            if cmd.own:
                out += f" own {_cells(cmd.own)}"
            if cmd.neutral:
                out += f" neutral {_cells(cmd.neutral)}"
            return out
        case PlaceCastlePiece():
            return f"castle {cmd.colour} {cmd.square}"
        case TakeCard():
            return f"take {cmd.form} {cmd.seal}"
        case DrawCard():
            return "draw"
        case UseBanner():
            counts = (cmd.red, cmd.olive, cmd.black, cmd.silver)
            if not any(counts):
                return "banner"
            return "banner exchange " + " ".join(f"{k} {c}" for c, k in zip(SEALS, counts) if k)
        case EndTurn():
            return "end"
    raise TypeError(f"not an Arkadia command: {cmd!r}")
