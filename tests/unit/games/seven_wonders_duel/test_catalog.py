"""The seed data against the reference tables (§2, §11, §12, §13) and the pinned hash."""

from __future__ import annotations

from collections import Counter

from games.seven_wonders_duel.catalog import CATALOG, CATALOG_HASH

PINNED = "a72efae61c6ab66b175b56e23ea571dfcf1b69e720df8d06e27e55cc171e8aa6"


def test_catalog_hash_is_pinned() -> None:
    """A data edit must be a visible, deliberate change (STYLE 3.8 #5)."""
    assert CATALOG_HASH == PINNED


def test_deck_compositions() -> None:
    """§11.1-11.4 composition lines."""
    def colours(deck: str) -> Counter:
        return Counter(CATALOG.cards[c].color for c in CATALOG.decks[deck])

    assert colours("age1") == Counter(brown=6, grey=2, red=4, green=4, blue=3, yellow=4)
    assert colours("age2") == Counter(brown=3, grey=2, red=5, green=4, blue=5, yellow=4)
    assert colours("age3") == Counter(red=5, green=4, blue=6, yellow=5)
    assert colours("guild") == Counter(purple=7)


def test_science_symbols_are_printed_on_two_cards_each() -> None:
    """§11.6."""
    symbols = Counter(s.symbol for s in CATALOG.spec.values() if s.symbol)
    assert symbols == Counter({s: 2 for s in ("wheel", "plumb", "quill", "mortar", "sundial", "armillary")})


def test_some_rows_against_the_reference() -> None:
    s = CATALOG.spec
    assert (s["caravansery"].coins, s["caravansery"].need, s["caravansery"].one_of) == (2, (0, 0, 0, 1, 1), (0, 1, 2))
    assert (s["sawmill"].coins, s["sawmill"].produce) == (2, (2, 0, 0, 0, 0))
    assert s["customs_house"].fixed == (3, 4)
    assert (s["pretorium"].coins, s["pretorium"].shields) == (8, 3)
    assert s["the_temple_of_artemis"].points == 0 and s["the_temple_of_artemis"].gain == 12
    assert s["the_pyramids"].need == (0, 0, 3, 0, 1) and s["the_pyramids"].points == 9
    extra = sorted(w for w in CATALOG.wonders if s[w].extra_turn)
    assert extra == ["piraeus", "the_appian_way", "the_hanging_gardens", "the_sphinx", "the_temple_of_artemis"]
    assert sorted(CATALOG.tokens) == ["agriculture", "architecture", "economy", "law", "masonry", "mathematics",
                                      "philosophy", "strategy", "theology", "urbanism"]


def test_rulings_are_kept_next_to_the_data() -> None:
    for w in ("circus_maximus", "the_statue_of_zeus", "the_mausoleum", "the_great_library"):
        assert "§15" in CATALOG.wonders[w].ruling
    assert "§15" in CATALOG.tokens["law"].ruling
