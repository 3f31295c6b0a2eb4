"""The command notation (games/seven_wonders/notation.py): parse/format round trip,
case-insensitivity and helpful rejections. (Notation is not in the rules reference;
these tests hold the contract `parse_command(format_command(c)) == c`.)"""

from __future__ import annotations

import pytest

from games.contract import Rejection
from games.seven_wonders import GAME
from games.seven_wonders.catalog import CATALOG
from games.seven_wonders.commands import Build, BuildFromDiscard, BuildStage, Decline, Discard

parse = GAME.parse_command
fmt = GAME.format_command
KEYS = sorted(CATALOG.by_key)


def forms(key: str):
    return [
        Build(card=key), Build(card=key, left=0, right=0), Build(card=key, left=2, right=3),
        Build(card=key, free=True), BuildStage(card=key), BuildStage(card=key, left=1, right=0),
        Discard(card=key), BuildFromDiscard(card=key),
    ]


@pytest.mark.parametrize("key", KEYS)
def test_round_trip_of_every_command_form_for_every_card(key: str) -> None:
    """Notation (no rules section; the GameDef contract): parse_command(format_command(c)) == c for every form
    and every card name (§13 names)."""
    for cmd in forms(key):
        assert parse(fmt(cmd)) == cmd, fmt(cmd)
    assert parse(fmt(Decline())) == Decline()


def test_formats_use_the_printed_names() -> None:
    """Notation (no rules section; the GameDef contract): commands are written with the printed names (§13)."""
    assert fmt(Build(card="east_trading_post")) == "build East Trading Post pay cheapest"
    assert fmt(Build(card="aqueduct", left=2, right=0)) == "build Aqueduct pay left 2 right 0"
    assert fmt(Build(card="aqueduct", free=True)) == "build Aqueduct free"
    assert fmt(BuildStage(card="loom", left=0, right=1)) == "wonder Loom pay left 0 right 1"
    assert fmt(Discard(card="tavern")) == "discard Tavern"
    assert fmt(BuildFromDiscard(card="temple")) == "build Temple from discard"
    assert fmt(Decline()) == "decline"


@pytest.mark.parametrize(
    "text,cmd",
    [
        ("build Aqueduct", Build(card="aqueduct")),
        ("build Aqueduct pay cheapest", Build(card="aqueduct")),
        ("build Aqueduct pay left 2 right 0", Build(card="aqueduct", left=2, right=0)),
        ("build Aqueduct free", Build(card="aqueduct", free=True)),
        ("wonder Loom", BuildStage(card="loom")),
        ("stage Loom pay left 1 right 1", BuildStage(card="loom", left=1, right=1)),
        ("discard Tavern", Discard(card="tavern")),
        ("build Temple from discard", BuildFromDiscard(card="temple")),
        ("decline", Decline()),
        ("  build   east trading   post  ", Build(card="east_trading_post")),
        ("build east_trading_post", Build(card="east_trading_post")),
        ("build loom_2", Build(card="loom")),  # a card id names the card
    ],
)
def test_parse_every_form(text: str, cmd) -> None:
    """Notation (no rules section; the GameDef contract): every documented form parses;
    spaces, underscores and card ids work (§13 names)."""
    assert parse(text) == cmd


@pytest.mark.parametrize(
    "text,cmd",
    [
        ("BUILD EAST TRADING POST", Build(card="east_trading_post")),
        ("Discard TAVERN", Discard(card="tavern")),
        ("Wonder loom", BuildStage(card="loom")),
        ("build Aqueduct FREE", Build(card="aqueduct", free=True)),
        ("build temple From Discard", BuildFromDiscard(card="temple")),
        ("DECLINE", Decline()),
    ],
)
def test_case_insensitive_names_and_verbs(text: str, cmd) -> None:
    """Notation (no rules section; the GameDef contract): card names (§13) and verbs are case-insensitive."""
    assert parse(text) == cmd


@pytest.mark.parametrize(
    "text,cmd",
    [
        ("build Aqueduct PAY CHEAPEST", Build(card="aqueduct")),
        ("Build BATHS Pay Left 2 Right 0", Build(card="baths", left=2, right=0)),
        ("wonder loom pay LEFT 1 RIGHT 0", BuildStage(card="loom", left=1, right=0)),
    ],
)
def test_case_insensitive_payment_keywords(text: str, cmd) -> None:
    """Notation (no rules section; the GameDef contract): every keyword is case-insensitive like the verbs,
    'free' and 'from discard' (the payment of §6)."""
    assert parse(text) == cmd


@pytest.mark.parametrize(
    "cmd", [Build(card="baths", left=2), Build(card="baths", right=1), BuildStage(card="loom", left=0)]
)
def test_round_trip_of_a_half_named_payment(cmd) -> None:
    """Notation (no rules section; the GameDef contract): parse_command(format_command(c)) == c holds for every
    Command value, including a §6 payment that names one side only (decide: bad_payment)."""
    assert parse(fmt(cmd)) == cmd


def test_a_half_named_payment_parses_and_decide_refuses_it() -> None:
    """§6 / notation: 'pay left 2' names one side; it parses, and decide asks for both sides."""
    from games.contract import Seed
    from games.fold import replay
    from games.seven_wonders import GAME

    cmd = parse("build Baths pay left 2")
    assert cmd == Build(card="baths", left=2)
    state = replay(GAME, GAME.setup(GAME.presets["3p"], Seed(b"half")))
    seat = GAME.to_act(state)[0]
    hand_card = GAME.legal_commands(state, seat)[0].card
    out = GAME.decide(state, seat, Build(card=hand_card, left=2))
    assert isinstance(out, Rejection) and out.code == "bad_payment"


@pytest.mark.parametrize(
    "text", ["", "   ", "bulid Baths", "build", "discard", "wonder", "decline now", "build Baths pay 2",
             "build Baths pay left two right 0", "build Baths pay up 2", "pay left 1 right 1"],
)
def test_bad_notation(text: str) -> None:
    """Notation (no rules section; the GameDef contract): malformed text -> bad_notation
    with a message (commands of §4)."""
    got = parse(text)
    assert isinstance(got, Rejection) and got.code == "bad_notation", got
    assert got.message


@pytest.mark.parametrize(
    "text", ["build Colossus", "discard Foo", "wonder Great Wall", "build Pyramid from discard", "build Lumberyard"],
)
def test_unknown_card(text: str) -> None:
    """Notation (no rules section; the GameDef contract): a name that is no §13 card -> unknown_card with a message."""
    got = parse(text)
    assert isinstance(got, Rejection) and got.code == "unknown_card", got
    assert got.message
