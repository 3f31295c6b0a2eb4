"""The compact text notation of commands, for the CLI, scripts and chat.

    buy district hills -1           BuyLandscape: the top district, hills side up, at row -1
    buy plot coast 2                BuyLandscape: the top plot, coast side, top row 2
    phase-buy district plains 2     BuySettlementLandscape (the settlement phase's landscape)
    convert grain 2                 Convert (count 1 when left out: convert wine)
    place G02 [prior] [owner 1]     PlaceClergyman (owner: bonus round, another's building)
    contract 1 G02 [gift]           WorkContract on seat 1's G02 (gift: wine/whiskey)
    assign prior | assign brother   AssignClergyman
    fell 0,1 [joker] | fell none    FellTrees (cut ... likewise: CutPeat)
    build G02 1,3                   Build
    use [joker] [goods=grain,beer] [times=2,1] [pay=wood:1,peat:2] [take=book>ceramic:1]
        [cells=0,1;0,2] [target=1:G02]
                                    Use (parts in any order; target owner -1: a display building)
    decline | end | done            Decline | EndAction | EndSettlement
    settle S2 1,3 [pay=grain:3,wood:1]    BuildSettlement
    neutral 0,3                     PlaceNeutralBuilding
    neutral-prior G02 [gift]        UseNeutralPrior

Words are case-insensitive; building and settlement ids are written upper case (G02, H1,
S2). Cells are ROW,COL (§3.1), rows may be negative. Spaces next to `,` `;` `:` `=` are
ignored (`pay=wood:1, peat:2`). Except for `buy`/`phase-buy` (KIND SIDE ROW), the parts of a
command may come in any order; `format_command` writes them in the order shown above, the
goods of `pay=`/`take=` sorted, so that `parse_command(format_command(c)) == c`.

Ids and goods are checked against the catalog here; whether the command is legal now is
for the rules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from games.contract import Rejection
from games.ora_et_labora.catalog import CATALOG
from games.ora_et_labora.commands import (
    AssignClergyman,
    Build,
    BuildSettlement,
    BuyLandscape,
    BuySettlementLandscape,
    Cell,
    Convert,
    CutPeat,
    Decline,
    EndAction,
    EndSettlement,
    FellTrees,
    OraEtLaboraCommand,
    PlaceClergyman,
    PlaceNeutralBuilding,
    Use,
    UseNeutralPrior,
    WorkContract,
)

USAGE: dict[str, str] = {
    "buy": "buy district hills|plains ROW, or buy plot coast|mountain ROW",
    "phase-buy": "phase-buy district hills|plains ROW, or phase-buy plot coast|mountain ROW",
    "convert": "convert grain|wine|whiskey [COUNT]",
    "place": "place BUILDING [prior] [owner SEAT]",
    "contract": "contract OWNER BUILDING [gift]",
    "assign": "assign prior|brother",
    "fell": "fell ROW,COL|none [joker]",
    "cut": "cut ROW,COL|none [joker]",
    "build": "build BUILDING ROW,COL",
    "use": "use [joker] [goods=GOOD,...] [times=N,...] [pay=GOOD:N,...] [take=GOOD:N,...] "
           "[cells=ROW,COL;...] [target=OWNER:BUILDING]",
    "decline": "decline",
    "end": "end",
    "done": "done",
    "settle": "settle SETTLEMENT ROW,COL [pay=GOOD:N,...]",
    "neutral": "neutral ROW,COL",
    "neutral-prior": "neutral-prior BUILDING [gift]",
}
VERBS = tuple(USAGE)
SIDES: dict[str, tuple[str, ...]] = {"district": ("hills", "plains"), "plot": ("coast", "mountain")}
CONVERTIBLE = ("grain", "wine", "whiskey")
USE_KEYS = ("goods", "times", "pay", "take", "cells", "target")

_BUILDINGS: dict[str, str] = {b.lower(): b for b in CATALOG.buildings}
_SETTLEMENTS: dict[str, str] = {s.lower(): s for s in CATALOG.settlements}
_GOODS: frozenset[str] = frozenset(CATALOG.goods)  # every good, "coin5" included
_DIGITS = frozenset("0123456789")


class _Bad(Exception):
    """A notation error: the message says what is wrong (the usage is added by the caller)."""


# -- words ------------------------------------------------------------------------------------


def _is_int(word: str) -> bool:
    digits = word[1:] if word.startswith("-") else word
    return bool(digits) and set(digits) <= _DIGITS


def _int(word: str, what: str) -> int:
    if not _is_int(word):
        raise _Bad(f"{what} must be a whole number, not {word!r}")
    return int(word)


def _count(word: str, what: str) -> int:
    n = _int(word, what)
    if n < 0:
        raise _Bad(f"{what} cannot be negative ({word})")
    return n


def _is_cell(word: str) -> bool:
    parts = word.split(",")
    return len(parts) == 2 and all(_is_int(p) for p in parts)


def _cell(word: str) -> Cell:
    if not _is_cell(word):
        raise _Bad(f"a cell is ROW,COL such as 0,3 or -1,2, not {word!r}")
    r, c = word.split(",")
    return int(r), int(c)


def _building(word: str) -> str:
    b = _BUILDINGS.get(word)
    if b is None:
        if word in _SETTLEMENTS:
            raise _Bad(f"{word.upper()} is a settlement, not a building")
        raise _Bad(f"there is no building {word.upper()!r} (ids such as G02, F05, I27, H1)")
    return b


def _settlement(word: str) -> str:
    s = _SETTLEMENTS.get(word)
    if s is None:
        if word in _BUILDINGS:
            raise _Bad(f"{word.upper()} is a building, not a settlement")
        raise _Bad(f"there is no settlement {word.upper()!r} (ids S1 to S8)")
    return s


def _good(word: str) -> str:
    if word not in _GOODS:
        raise _Bad(f"there is no good {word!r}")
    return word


def _items(value: str, sep: str, what: str) -> list[str]:
    items = value.split(sep)
    if not value or any(not i for i in items):
        raise _Bad(f"{what} has an empty item in {value!r}")
    return items


def _amounts(value: str, what: str, *, chains: bool) -> dict[str, int]:
    """`wood:1,peat:2` (with `chains`, keys may be upgrades such as `book>ceramic`)."""
    out: dict[str, int] = {}
    for item in _items(value, ",", what):
        key, colon, n = item.partition(":")
        if not colon or not key or ":" in n:
            raise _Bad(f"{what} takes GOOD:COUNT items, not {item!r}")
        for part in (key.split(">") if chains else [key]):
            if not part:
                raise _Bad(f"{what} has an empty good in {key!r}")
            _good(part)
        if key in out:
            raise _Bad(f"{what} names {key} twice")
        out[key] = _count(n, f"the count of {key}")
    return out


class _Once:
    """Collects the parts of a command, each at most once."""

    def __init__(self) -> None:
        self.seen: dict[str, object] = {}

    def put(self, name: str, value: object) -> None:
        if name in self.seen:
            raise _Bad(f"{name} given twice")
        self.seen[name] = value

    def get(self, name: str, default: Any = None) -> Any:
        return self.seen.get(name, default)


# -- verbs ------------------------------------------------------------------------------------


def _landscape(rest: list[str], verb: str) -> tuple[str, str, int]:
    if len(rest) != 3:
        raise _Bad(f"{verb} takes a kind, a side and a row")
    kind, side, row = rest
    if kind not in SIDES:
        raise _Bad(f"the kind is district or plot, not {kind!r}")
    if side not in SIDES[kind]:
        raise _Bad(f"a {kind} side is {' or '.join(SIDES[kind])}, not {side!r}")
    return kind, side, _int(row, "the row")


def _buy(rest: list[str]) -> OraEtLaboraCommand:
    kind, side, row = _landscape(rest, "buy")
    return BuyLandscape(kind=kind, side=side, row=row)  # type: ignore[arg-type]


def _phase_buy(rest: list[str]) -> OraEtLaboraCommand:
    kind, side, row = _landscape(rest, "phase-buy")
    return BuySettlementLandscape(kind=kind, side=side, row=row)  # type: ignore[arg-type]


def _convert(rest: list[str]) -> OraEtLaboraCommand:
    if not rest or len(rest) > 2:
        raise _Bad("convert takes a good and an optional count")
    if rest[0] not in CONVERTIBLE:
        raise _Bad(f"only grain, wine or whiskey convert, not {rest[0]!r}")
    count = _count(rest[1], "the count") if len(rest) == 2 else 1
    return Convert(good=rest[0], count=count)  # type: ignore[arg-type]


def _parts(rest: list[str], verb: str, *, flags: tuple[str, ...] = (), cell: bool = False,
           none_cell: bool = False, building: bool = False, settlement: bool = False,
           owner: Literal["", "bare", "word"] = "", pay: bool = False) -> _Once:
    """The order-free parts of most commands: flag words, a cell (`none_cell`: optional, or
    `none`), a building or settlement id, an owner (`bare`: a required number; `word`: an
    optional `owner N`), `pay=`."""
    got = _Once()
    words = iter(rest)
    for w in words:
        if w in flags:
            got.put(w, True)
        elif owner == "word" and w == "owner":
            n = next(words, None)
            if n is None:
                raise _Bad("owner needs a seat number")
            got.put("owner", _int(n, "the owner"))
        elif pay and w.startswith("pay="):
            got.put("pay", _amounts(w[4:], "pay=", chains=False))
        elif cell and none_cell and w == "none":
            got.put("cell", None)
        elif cell and _is_cell(w):
            got.put("cell", _cell(w))
        elif owner == "bare" and _is_int(w):
            got.put("owner", _int(w, "the owner"))
        elif owner == "bare" and w[:1] in "-0123456789":
            _int(w, "the owner")  # raises: a malformed number
        elif cell and ("," in w or w[:1] in "-0123456789"):
            _cell(w)  # raises: a malformed cell
        elif building and (w in _BUILDINGS or "building" not in got.seen):
            got.put("building", _building(w))  # raises for an unknown id
        elif settlement and (w in _SETTLEMENTS or "settlement" not in got.seen):
            got.put("settlement", _settlement(w))
        else:
            raise _Bad(f"unexpected {w!r} in {verb}")
    for name, wanted in (("cell", cell and not none_cell), ("building", building), ("settlement", settlement),
                         ("owner", owner == "bare")):
        if wanted and name not in got.seen:
            what = {"cell": "a cell ROW,COL", "building": "a building id", "settlement": "a settlement id",
                    "owner": "the owner's seat"}[name]
            raise _Bad(f"{verb} needs {what}")
    return got


def _place(rest: list[str]) -> OraEtLaboraCommand:
    p = _parts(rest, "place", flags=("prior",), building=True, owner="word")
    return PlaceClergyman(building=p.get("building"), prior=p.get("prior", False), owner=p.get("owner"))


def _contract(rest: list[str]) -> OraEtLaboraCommand:
    p = _parts(rest, "contract", flags=("gift",), building=True, owner="bare")
    return WorkContract(owner=p.get("owner"), building=p.get("building"), gift=p.get("gift", False))


def _assign(rest: list[str]) -> OraEtLaboraCommand:
    if len(rest) != 1 or rest[0] not in ("prior", "brother", "lay-brother"):
        raise _Bad("assign takes prior or brother")
    return AssignClergyman(prior=rest[0] == "prior")


def _fell(rest: list[str]) -> OraEtLaboraCommand:
    p = _parts(rest, "fell", flags=("joker",), cell=True, none_cell=True)
    return FellTrees(cell=p.get("cell"), joker=p.get("joker", False))


def _cut(rest: list[str]) -> OraEtLaboraCommand:
    p = _parts(rest, "cut", flags=("joker",), cell=True, none_cell=True)
    return CutPeat(cell=p.get("cell"), joker=p.get("joker", False))


def _build(rest: list[str]) -> OraEtLaboraCommand:
    p = _parts(rest, "build", building=True, cell=True)
    return Build(building=p.get("building"), cell=p.get("cell"))


def _use(rest: list[str]) -> OraEtLaboraCommand:
    got = _Once()
    for w in rest:
        if w == "joker":
            got.put("joker", True)
            continue
        key, eq, value = w.partition("=")
        if not eq:
            raise _Bad(f"unexpected {w!r} in use (parts are joker or KEY=VALUE)")
        if key not in USE_KEYS:
            raise _Bad(f"use has no part {key + '='!r} (parts: joker, {', '.join(k + '=' for k in USE_KEYS)})")
        if key == "goods":
            got.put(key, tuple(_good(g) for g in _items(value, ",", "goods=")))
        elif key == "times":
            got.put(key, tuple(_count(n, "a repetition count") for n in _items(value, ",", "times=")))
        elif key in ("pay", "take"):
            got.put(key, _amounts(value, key + "=", chains=key == "take"))
        elif key == "cells":
            got.put(key, tuple(_cell(c) for c in _items(value, ";", "cells=")))
        else:
            owner, colon, b = value.partition(":")
            if not colon or not owner or not b:
                raise _Bad(f"target= is OWNER:BUILDING such as 1:G02 or -1:F05, not {value!r}")
            got.put(key, (_int(owner, "the target's owner"), _building(b)))
    return Use(joker=got.get("joker", False), goods=got.get("goods", ()), times=got.get("times", ()),
               pay=got.get("pay", {}), take=got.get("take", {}), cells=got.get("cells", ()),
               target=got.get("target"))


def _settle(rest: list[str]) -> OraEtLaboraCommand:
    p = _parts(rest, "settle", settlement=True, cell=True, pay=True)
    return BuildSettlement(settlement=p.get("settlement"), cell=p.get("cell"), pay=p.get("pay", {}))


def _neutral(rest: list[str]) -> OraEtLaboraCommand:
    p = _parts(rest, "neutral", cell=True)
    return PlaceNeutralBuilding(cell=p.get("cell"))


def _neutral_prior(rest: list[str]) -> OraEtLaboraCommand:
    p = _parts(rest, "neutral-prior", flags=("gift",), building=True)
    return UseNeutralPrior(building=p.get("building"), gift=p.get("gift", False))


def _bare(cmd: OraEtLaboraCommand, verb: str) -> Callable[[list[str]], OraEtLaboraCommand]:
    def parse(rest: list[str]) -> OraEtLaboraCommand:
        if rest:
            raise _Bad(f"{verb} takes nothing more, not {' '.join(rest)!r}")
        return cmd
    return parse


_PARSERS: dict[str, Callable[[list[str]], OraEtLaboraCommand]] = {
    "buy": _buy, "phase-buy": _phase_buy, "convert": _convert, "place": _place, "contract": _contract,
    "assign": _assign, "fell": _fell, "cut": _cut, "build": _build, "use": _use,
    "decline": _bare(Decline(), "decline"), "end": _bare(EndAction(), "end"), "done": _bare(EndSettlement(), "done"),
    "settle": _settle, "neutral": _neutral, "neutral-prior": _neutral_prior,
}


VERB: dict[type, str] = {
    BuyLandscape: "buy", BuySettlementLandscape: "phase-buy", Convert: "convert", PlaceClergyman: "place",
    WorkContract: "contract", AssignClergyman: "assign", FellTrees: "fell", CutPeat: "cut", Build: "build",
    Use: "use", Decline: "decline", EndAction: "end", EndSettlement: "done", BuildSettlement: "settle",
    PlaceNeutralBuilding: "neutral", UseNeutralPrior: "neutral-prior",
}
"""The notation's verb of each command type, for messages that name commands."""


def _words(text: str) -> list[str]:
    """Lower-case words; spaces around `,` `;` `:` `=` dropped."""
    t = " ".join(text.lower().split())
    for sep in ",;:=":
        t = t.replace(" " + sep, sep).replace(sep + " ", sep)
    return t.split()


def parse_command(text: str) -> OraEtLaboraCommand | Rejection:
    """Text -> a command, or a Rejection('bad_notation', what is wrong; what was expected)."""
    words = _words(text)
    if not words:
        return Rejection("bad_notation", f"empty command; expected one of: {', '.join(VERBS)}")
    verb = words[0].replace("_", "-")
    parse = _PARSERS.get(verb)
    if parse is None:
        return Rejection("bad_notation", f"unknown command {words[0]!r}; expected one of: {', '.join(VERBS)}")
    try:
        return parse(words[1:])
    except _Bad as why:
        return Rejection("bad_notation", f"{why}; expected: {USAGE[verb]}")


# -- formatting -------------------------------------------------------------------------------


def _c(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def _a(amounts: dict[str, int]) -> str:
    return ",".join(f"{k}:{amounts[k]}" for k in sorted(amounts))


def _words_of(*parts: str | None) -> str:
    return " ".join(p for p in parts if p)


def format_command(cmd: OraEtLaboraCommand) -> str:
    """A command -> its canonical notation; parse_command(format_command(c)) == c."""
    match cmd:
        case BuyLandscape():
            return f"buy {cmd.kind} {cmd.side} {cmd.row}"
        case BuySettlementLandscape():
            return f"phase-buy {cmd.kind} {cmd.side} {cmd.row}"
        case Convert():
            return f"convert {cmd.good}" + (f" {cmd.count}" if cmd.count != 1 else "")
        case PlaceClergyman():
            return _words_of("place", cmd.building, "prior" if cmd.prior else None,
                             f"owner {cmd.owner}" if cmd.owner is not None else None)
        case WorkContract():
            return _words_of("contract", str(cmd.owner), cmd.building, "gift" if cmd.gift else None)
        case AssignClergyman():
            return "assign prior" if cmd.prior else "assign brother"
        case FellTrees() | CutPeat():
            verb = "fell" if isinstance(cmd, FellTrees) else "cut"
            return _words_of(verb, "none" if cmd.cell is None else _c(cmd.cell), "joker" if cmd.joker else None)
        case Build():
            return f"build {cmd.building} {_c(cmd.cell)}"
        case Use():
            return _words_of(
                "use",
                "joker" if cmd.joker else None,
                "goods=" + ",".join(cmd.goods) if cmd.goods else None,
                "times=" + ",".join(str(n) for n in cmd.times) if cmd.times else None,
                "pay=" + _a(cmd.pay) if cmd.pay else None,
                "take=" + _a(cmd.take) if cmd.take else None,
                "cells=" + ";".join(_c(c) for c in cmd.cells) if cmd.cells else None,
                f"target={cmd.target[0]}:{cmd.target[1]}" if cmd.target is not None else None,
            )
        case Decline():
            return "decline"
        case EndAction():
            return "end"
        case EndSettlement():
            return "done"
        case BuildSettlement():
            return _words_of("settle", cmd.settlement, _c(cmd.cell), "pay=" + _a(cmd.pay) if cmd.pay else None)
        case PlaceNeutralBuilding():
            return f"neutral {_c(cmd.cell)}"
        case UseNeutralPrior():
            return _words_of("neutral-prior", cmd.building, "gift" if cmd.gift else None)
    raise TypeError(f"not an Ora et Labora command: {cmd!r}")
