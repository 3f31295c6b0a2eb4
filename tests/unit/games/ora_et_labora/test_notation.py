"""The text notation of Ora et Labora commands (games/ora_et_labora/notation.py)."""

from __future__ import annotations

import typing

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.contract import Rejection
from games.ora_et_labora.catalog import CATALOG
from games.ora_et_labora.commands import (
    AssignClergyman,
    Build,
    BuildSettlement,
    BuySettlementLandscape,
    BuyLandscape,
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
from games.ora_et_labora.notation import format_command, parse_command

# canonical text -> command: parses to the command, and the command formats back to exactly this text
CANONICAL = {
    "buy district hills -1": BuyLandscape(kind="district", side="hills", row=-1),
    "buy district plains 2": BuyLandscape(kind="district", side="plains", row=2),
    "buy plot coast 2": BuyLandscape(kind="plot", side="coast", row=2),
    "buy plot mountain -3": BuyLandscape(kind="plot", side="mountain", row=-3),
    "phase-buy district plains 2": BuySettlementLandscape(kind="district", side="plains", row=2),
    "phase-buy plot coast -2": BuySettlementLandscape(kind="plot", side="coast", row=-2),
    "convert grain 2": Convert(good="grain", count=2),
    "convert wine": Convert(good="wine"),
    "convert whiskey 3": Convert(good="whiskey", count=3),
    "place G02": PlaceClergyman(building="G02"),
    "place H1 prior": PlaceClergyman(building="H1", prior=True),
    "place I27 prior owner 1": PlaceClergyman(building="I27", prior=True, owner=1),
    "place F05 owner 0": PlaceClergyman(building="F05", owner=0),
    "contract 1 G02": WorkContract(owner=1, building="G02"),
    "contract 0 F21 gift": WorkContract(owner=0, building="F21", gift=True),
    "assign prior": AssignClergyman(prior=True),
    "assign brother": AssignClergyman(prior=False),
    "fell 0,1": FellTrees(cell=(0, 1)),
    "fell -1,2 joker": FellTrees(cell=(-1, 2), joker=True),
    "fell none": FellTrees(),
    "fell none joker": FellTrees(joker=True),
    "cut 1,0": CutPeat(cell=(1, 0)),
    "cut none joker": CutPeat(joker=True),
    "cut -2,0 joker": CutPeat(cell=(-2, 0), joker=True),
    "build G02 1,3": Build(building="G02", cell=(1, 3)),
    "build G22 -1,6": Build(building="G22", cell=(-1, 6)),
    "use": Use(),
    "use joker": Use(joker=True),
    "use goods=grain": Use(goods=("grain",)),
    "use times=4,2 pay=peat:1": Use(times=(4, 2), pay={"peat": 1}),
    "use joker goods=livestock,grain times=0,3 pay=coin5:1,peat:2,wood:1 take=book>ceramic:1,ceramic:2 "
    "cells=0,1;-1,2 target=-1:F05": Use(
        joker=True, goods=("livestock", "grain"), times=(0, 3), pay={"wood": 1, "peat": 2, "coin5": 1},
        take={"ceramic": 2, "book>ceramic": 1}, cells=((0, 1), (-1, 2)), target=(-1, "F05")),
    "use target=1:G02": Use(target=(1, "G02")),
    "use take=book:1,reliquary:1": Use(take={"reliquary": 1, "book": 1}),
    "use cells=0,1": Use(cells=((0, 1),)),
    "decline": Decline(),
    "end": EndAction(),
    "done": EndSettlement(),
    "settle S2 1,3 pay=grain:3,wood:1": BuildSettlement(settlement="S2", cell=(1, 3), pay={"wood": 1, "grain": 3}),
    "settle S1 0,3": BuildSettlement(settlement="S1", cell=(0, 3)),
    "neutral 0,3": PlaceNeutralBuilding(cell=(0, 3)),
    "neutral -2,6": PlaceNeutralBuilding(cell=(-2, 6)),
    "neutral-prior G02": UseNeutralPrior(building="G02"),
    "neutral-prior I33 gift": UseNeutralPrior(building="I33", gift=True),
}


@pytest.mark.parametrize("text", list(CANONICAL))
def test_canonical_text_parses_and_formats_back_exactly(text: str) -> None:
    cmd = CANONICAL[text]
    assert parse_command(text) == cmd
    assert format_command(cmd) == text


def test_every_command_type_is_covered() -> None:
    members = set(typing.get_args(OraEtLaboraCommand))
    assert len(members) == 16
    assert {type(c) for c in CANONICAL.values()} == members


@pytest.mark.parametrize("cmd", list(CANONICAL.values()), ids=lambda c: type(c).__name__)
def test_round_trip_keeps_every_field(cmd: OraEtLaboraCommand) -> None:
    back = parse_command(format_command(cmd))
    assert back == cmd
    assert type(back) is type(cmd)
    for field in cmd.__struct_fields__:
        assert getattr(back, field) == getattr(cmd, field)


# -- generated commands of every type -----------------------------------------------------------

_ints = st.integers(-12, 12)
_counts = st.integers(0, 30)
_cells = st.tuples(_ints, _ints)
_buildings = st.sampled_from(sorted(CATALOG.buildings))
_settlements = st.sampled_from(sorted(CATALOG.settlements))
_goods = st.sampled_from(sorted(CATALOG.goods))
_amounts = st.dictionaries(_goods, _counts, max_size=4)
_upgrades = st.lists(_goods, min_size=1, max_size=3).map(">".join)
_landscapes = st.sampled_from([("district", "hills"), ("district", "plains"), ("plot", "coast"), ("plot", "mountain")])

STRATEGIES = {
    BuyLandscape: st.builds(lambda ks, row: BuyLandscape(kind=ks[0], side=ks[1], row=row), _landscapes, _ints),
    BuySettlementLandscape: st.builds(lambda ks, row: BuySettlementLandscape(kind=ks[0], side=ks[1], row=row),
                                      _landscapes, _ints),
    Convert: st.builds(Convert, good=st.sampled_from(["grain", "wine", "whiskey"]), count=_counts),
    PlaceClergyman: st.builds(PlaceClergyman, building=_buildings, prior=st.booleans(), owner=st.none() | _ints),
    WorkContract: st.builds(WorkContract, owner=_ints, building=_buildings, gift=st.booleans()),
    AssignClergyman: st.builds(AssignClergyman, prior=st.booleans()),
    FellTrees: st.builds(FellTrees, cell=st.none() | _cells, joker=st.booleans()),
    CutPeat: st.builds(CutPeat, cell=st.none() | _cells, joker=st.booleans()),
    Build: st.builds(Build, building=_buildings, cell=_cells),
    Use: st.builds(Use, joker=st.booleans(), goods=st.lists(_goods, max_size=3).map(tuple),
                   times=st.lists(_counts, max_size=3).map(tuple), pay=_amounts,
                   take=st.dictionaries(_upgrades, _counts, max_size=3),
                   cells=st.lists(_cells, max_size=3).map(tuple), target=st.none() | st.tuples(_ints, _buildings)),
    Decline: st.just(Decline()),
    PlaceNeutralBuilding: st.builds(PlaceNeutralBuilding, cell=_cells),
    UseNeutralPrior: st.builds(UseNeutralPrior, building=_buildings, gift=st.booleans()),
    EndAction: st.just(EndAction()),
    BuildSettlement: st.builds(BuildSettlement, settlement=_settlements, cell=_cells, pay=_amounts),
    EndSettlement: st.just(EndSettlement()),
}
COMMANDS = st.one_of(*STRATEGIES.values())


def test_the_generator_covers_every_command_type() -> None:
    assert set(STRATEGIES) == set(typing.get_args(OraEtLaboraCommand))


@given(COMMANDS)
def test_generated_commands_round_trip(cmd: OraEtLaboraCommand) -> None:
    text = format_command(cmd)
    assert parse_command(text) == cmd
    assert format_command(parse_command(text.upper())) == text  # type: ignore[arg-type]  # case-insensitive


def test_defaults_are_explicit_after_parsing() -> None:
    assert parse_command("convert wine") == Convert(good="wine", count=1)
    assert parse_command("place G02") == PlaceClergyman(building="G02", prior=False, owner=None)
    assert parse_command("fell") == FellTrees(cell=None, joker=False)
    use = parse_command("use")
    assert isinstance(use, Use)
    assert (use.joker, use.goods, use.times, use.pay, use.take, use.cells, use.target) == (
        False, (), (), {}, {}, (), None)
    assert format_command(Convert(good="wine", count=1)) == "convert wine"  # the default count is left out
    assert format_command(Convert(good="grain", count=0)) == "convert grain 0"
    assert parse_command("convert grain 0") == Convert(good="grain", count=0)


@pytest.mark.parametrize("text,cmd", [
    ("PLACE g02 PRIOR", PlaceClergyman(building="G02", prior=True)),
    ("place owner 2 prior f05", PlaceClergyman(building="F05", prior=True, owner=2)),  # parts in any order
    ("  contract   G02  1 ", WorkContract(owner=1, building="G02")),
    ("contract gift 1 g02", WorkContract(owner=1, building="G02", gift=True)),
    ("fell joker 0,1", FellTrees(cell=(0, 1), joker=True)),
    ("build 1,3 g02", Build(building="G02", cell=(1, 3))),
    ("Use Pay = wood:1 , peat:2  goods=grain, beer", Use(goods=("grain", "beer"), pay={"wood": 1, "peat": 2})),
    ("use target=1:g02 joker", Use(joker=True, target=(1, "G02"))),
    ("settle pay=wood:1 1,3 s2", BuildSettlement(settlement="S2", cell=(1, 3), pay={"wood": 1})),
    ("phase_buy plot coast 0", BuySettlementLandscape(kind="plot", side="coast", row=0)),
    ("neutral_prior g02 gift", UseNeutralPrior(building="G02", gift=True)),
    ("assign lay-brother", AssignClergyman(prior=False)),
    ("DONE", EndSettlement()),
])
def test_lenient_forms(text: str, cmd: OraEtLaboraCommand) -> None:
    assert parse_command(text) == cmd


def test_formatting_is_canonical() -> None:
    """A fixed order of parts, `pay=`/`take=` goods sorted, ids upper case."""
    cmd = Use(target=(0, "G01"), cells=((1, 1),), take={"ornament": 1, "book": 2}, pay={"wood": 2, "beer": 1},
              times=(1,), goods=("wine",), joker=True)
    assert format_command(cmd) == ("use joker goods=wine times=1 pay=beer:1,wood:2 take=book:2,ornament:1 "
                                   "cells=1,1 target=0:G01")
    assert format_command(BuildSettlement(settlement="S5", cell=(-1, 4), pay={"wood": 1, "bread": 2, "meat": 1})) == (
        "settle S5 -1,4 pay=bread:2,meat:1,wood:1")
    assert format_command(parse_command("place f05 owner 1 prior")) == "place F05 prior owner 1"  # type: ignore[arg-type]


@pytest.mark.parametrize("text,why", [
    ("", "empty command"),
    ("   ", "empty command"),
    ("fly away", "unknown command 'fly'"),
    ("buy", "takes a kind, a side and a row"),
    ("buy district hills", "takes a kind, a side and a row"),
    ("buy hills district 1", "the kind is district or plot"),
    ("buy district coast 1", "a district side is hills or plains"),
    ("buy plot hills 1", "a plot side is coast or mountain"),
    ("buy district hills x", "the row must be a whole number"),
    ("buy district hills 1.5", "the row must be a whole number"),
    ("buy district hills --1", "the row must be a whole number"),
    ("buy district hills +1", "the row must be a whole number"),
    ("phase-buy district hills 1 2", "takes a kind, a side and a row"),
    ("convert", "convert takes a good"),
    ("convert beer", "only grain, wine or whiskey"),
    ("convert wine -1", "cannot be negative"),
    ("convert wine two", "must be a whole number"),
    ("convert wine 1 2", "convert takes a good"),
    ("place", "place needs a building id"),
    ("place G99", "there is no building 'G99'"),
    ("place S1", "S1 is a settlement, not a building"),
    ("place G02 prior prior", "prior given twice"),
    ("place G02 F05", "building given twice"),
    ("place G02 owner", "owner needs a seat number"),
    ("place G02 owner x", "the owner must be a whole number"),
    ("place G02 gift", "unexpected 'gift'"),
    ("contract G02", "contract needs the owner's seat"),
    ("contract 1", "contract needs a building id"),
    ("contract 1.5 G02", "the owner must be a whole number"),
    ("contract 1 2 G02", "owner given twice"),
    ("assign", "assign takes prior or brother"),
    ("assign abbot", "assign takes prior or brother"),
    ("fell 1", "a cell is ROW,COL"),
    ("fell 0,x", "a cell is ROW,COL"),
    ("fell 0,1,2", "a cell is ROW,COL"),
    ("fell 0,1 0,2", "cell given twice"),
    ("fell none 0,2", "cell given twice"),
    ("cut 0,1 joker joker", "joker given twice"),
    ("cut 0,1 prior", "unexpected 'prior'"),
    ("build G02", "build needs a cell"),
    ("build 1,3", "build needs a building id"),
    ("build S2 1,3", "S2 is a settlement"),
    ("use bar", "unexpected 'bar' in use"),
    ("use foo=1", "use has no part 'foo='"),
    ("use joker joker", "joker given twice"),
    ("use goods=grain goods=beer", "goods given twice"),
    ("use goods=", "goods= has an empty item"),
    ("use goods=grain,,beer", "goods= has an empty item"),
    ("use goods=gold", "there is no good 'gold'"),
    ("use times=1,-2", "cannot be negative"),
    ("use times=x", "must be a whole number"),
    ("use pay=wood", "pay= takes GOOD:COUNT items"),
    ("use pay=wood:1:2", "pay= takes GOOD:COUNT items"),
    ("use pay=wood:1,wood:2", "pay= names wood twice"),
    ("use pay=wood:-1", "cannot be negative"),
    ("use pay=book>ceramic:1", "there is no good 'book>ceramic'"),  # upgrades are for take= only
    ("use take=book>:1", "take= has an empty good"),
    ("use take=book>gold:1", "there is no good 'gold'"),
    ("use cells=0,1;", "cells= has an empty item"),
    ("use cells=0;1", "a cell is ROW,COL"),
    ("use target=G02", "target= is OWNER:BUILDING"),
    ("use target=x:G02", "must be a whole number"),
    ("use target=1:G99", "there is no building 'G99'"),
    ("decline now", "decline takes nothing more"),
    ("end 1", "end takes nothing more"),
    ("settle S2", "settle needs a cell"),
    ("settle 1,3", "settle needs a settlement id"),
    ("settle G02 1,3", "G02 is a building, not a settlement"),
    ("settle S9 1,3", "there is no settlement 'S9'"),
    ("settle S2 1,3 pay=gold:1", "there is no good 'gold'"),
    ("settle S2 1,3 pay=wood:1 pay=peat:1", "pay given twice"),
    ("neutral", "neutral needs a cell"),
    ("neutral 0,3 0,4", "cell given twice"),
    ("neutral-prior", "neutral-prior needs a building id"),
    ("neutral-prior G02 joker", "unexpected 'joker'"),
])
def test_bad_notation_says_what_is_wrong_and_what_was_expected(text: str, why: str) -> None:
    out = parse_command(text)
    assert isinstance(out, Rejection), out
    assert out.code == "bad_notation"
    assert why in out.message
    assert "expected" in out.message


def test_a_rejection_names_the_usage_of_its_command() -> None:
    out = parse_command("build G02")
    assert isinstance(out, Rejection)
    assert out.message.endswith("expected: build BUILDING ROW,COL")
    unknown = parse_command("pray")
    assert isinstance(unknown, Rejection)
    assert "buy, phase-buy, convert, place, contract, assign, fell, cut, build, use, decline, end, done, settle, " \
           "neutral, neutral-prior" in unknown.message


def test_format_refuses_what_is_not_a_command() -> None:
    with pytest.raises(TypeError):
        format_command("place G02")  # type: ignore[arg-type]
