"""Age structures, accessibility and reveals: §4, §14 example 5."""

from __future__ import annotations

from games.contract import Rejection
from games.seven_wonders_duel import GAME
from games.seven_wonders_duel.events import CardsRevealed

from .table import Table


def test_age_one_starts_with_the_front_row_accessible() -> None:
    t = Table(ages={1: {14: "altar", 15: "baths", 9: "tavern"}})
    assert t.accessible() == [t.state.structures[0][p] for p in range(14, 20)]


def test_taking_both_covering_cards_reveals_the_card_beneath() -> None:
    """§4: position 9 is covered by 14 and 15; it is turned face up in the same decide call."""
    t = Table(ages={1: {14: "altar", 15: "baths", 9: "tavern"}})
    first = t.play("discard Altar")
    assert not t.of(CardsRevealed, first)
    second = t.play("discard Baths")
    (rev,) = t.of(CardsRevealed, second)
    assert rev.positions == (9,) and rev.cards == ("tavern",)
    assert "tavern" in t.accessible()


def test_covered_and_face_down_cards_cannot_be_taken_and_say_nothing_hidden() -> None:
    t = Table(ages={1: {5: "theater", 9: "tavern"}})
    covered = t.act(0, "build Theater")
    assert isinstance(covered, Rejection) and covered.code == "card_not_accessible"
    face_down = t.act(0, "build Tavern")
    absent = t.act(0, "build Walls")
    assert face_down.code == absent.code == "card_not_available"
    assert "Tavern" in face_down.message and "Walls" in absent.message


def test_example_5_age_three_accessibility_and_reveals() -> None:
    """§14 example 5."""
    t = Table(ages={3: {18: "palace", 19: "obelisk", 15: "senate", 16: "gardens", 17: "study"}})
    t.finish_age()
    t.finish_age()
    assert t.state.age == 3
    assert set(t.accessible()) == {"palace", "obelisk"}
    out = t.play("discard Palace")
    assert [e.positions for e in t.of(CardsRevealed, out)] == [(15,)]
    assert set(t.accessible()) == {"senate", "obelisk"}
    out = t.play("discard Obelisk")
    assert [e.positions for e in t.of(CardsRevealed, out)] == [(16, 17)]
    assert set(t.accessible()) == {"senate", "gardens", "study"}
    out = t.play("discard Gardens")
    assert not t.of(CardsRevealed, out)
    assert set(t.accessible()) == {"senate", "study"}


def test_face_down_guilds_show_their_own_back() -> None:
    """§15 #24: a face-down guild is recognisable as a guild."""
    t = Table(ages={3: {16: "builders_guild"}})
    t.finish_age()
    t.finish_age()
    slot = next(s for s in GAME.view(t.state, 0).structure if s.position == 16)
    assert slot.card is None and slot.back == "guild"
