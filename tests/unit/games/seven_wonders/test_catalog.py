"""The catalog: §1, §2, §11.1, §13 (and the reference data tests/data/seven-wonders.json)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import msgspec
import pytest
from msgspec.structs import replace

from games import seed_files
from games.contract import Seed
from games.seven_wonders import GAME, catalog
from games.seven_wonders.catalog import CATALOG, CATALOG_HASH, CatalogError, Science
from games.seven_wonders.events import GameCreated, Options
from games.seven_wonders.setup import deal

PINNED_HASH = "9d0f30c520cc18ce5fc198af47dee31e69e99d799a4fc210b36d25b85cf530ec"
"""Change only together with a deliberate, reviewed edit of seeds/seven_wonders/*.json."""

ROOT = Path(__file__).resolve().parents[4]
REFERENCE = ROOT / "tests" / "data" / "seven-wonders.json"  # the reference data (tests/data/README.md)


def rows(age: int | None = None):
    return [c for c in CATALOG.cards.values() if age is None or c.age == age]


# --- counts (§1, §2, §13) --------------------------------------------------------------


def test_hash_is_pinned() -> None:
    """§13: the catalog is data; any edit of the seed files must be deliberate."""
    assert CATALOG_HASH == PINNED_HASH


def test_games_record_the_catalog_hash() -> None:
    """§13: the hash of the catalog a game was set up with is in its log (GameCreated)."""
    ev = GAME.setup(Options(players=3), Seed(b"x"))
    assert isinstance(ev[0], GameCreated) and ev[0].catalog_hash == PINNED_HASH


def test_78_rows_and_distinct_names_per_age() -> None:
    """§1, §13: 78 rows; distinct names: 27 in Age I, 23 in Age II, 28 in Age III (18 + 10
    guilds)."""
    assert len(rows()) == 78
    assert [len({c.name for c in rows(a)}) for a in (1, 2, 3)] == [27, 23, 28]
    assert len([c for c in rows(3) if c.guild]) == 10
    assert all(c.color == "purple" and not c.marks for c in rows() if c.guild)


def test_148_physical_cards() -> None:
    """§1: 49 + 49 + 50 (40 non-guild + 10 guilds) = 148."""
    per_age = [sum(len(c.marks) for c in rows(a)) for a in (1, 2, 3)]
    assert per_age == [49, 49, 40]
    assert sum(per_age) + 10 == 148


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7])
def test_deck_sizes_are_seven_per_player(n: int) -> None:
    """§2.1-§2.3: per age 7·N cards; Age III = 7·N - (N+2) non-guild cards + N+2 guilds."""
    assert len(CATALOG.deck(1, n)) == 7 * n
    assert len(CATALOG.deck(2, n)) == 7 * n
    assert len(CATALOG.deck(3, n)) == 7 * n - (n + 2)
    fx = deal(Options(players=n), b"seed")
    for age, hands in enumerate(fx.deals, 1):
        cards = [c for h in hands for c in h]
        assert [len(h) for h in hands] == [7] * n
        guilds = [c for c in cards if CATALOG.cards[c].guild]
        assert len(guilds) == (n + 2 if age == 3 else 0) and len(set(guilds)) == len(guilds)
        assert sorted(c for c in cards if not CATALOG.cards[c].guild) == sorted(CATALOG.deck(age, n))


def test_a_card_is_used_when_its_mark_is_at_most_the_player_count() -> None:
    """§2.1: '3+,5+' means two copies; with 4 players only the 3+ copy is used."""
    assert Counter(CATALOG.deck(1, 4))["stone_pit"] == 1
    assert Counter(CATALOG.deck(1, 5))["stone_pit"] == 2
    assert Counter(CATALOG.deck(1, 6))["tree_farm"] == 1 and "tree_farm" not in CATALOG.deck(1, 5)


@pytest.mark.parametrize(
    "name,age,copies",
    [
        ("Tavern", 1, (0, 1, 2, 2, 3)), ("Lumber Yard", 1, (1, 2, 2, 2, 2)), ("Pawnshop", 1, (0, 1, 1, 1, 2)),
        ("Caravansery", 2, (1, 1, 2, 3, 3)), ("Forum", 2, (1, 1, 1, 2, 3)),
        ("Training Ground", 2, (0, 1, 1, 2, 3)), ("Bazar", 2, (0, 1, 1, 1, 2)),
        ("Town Hall", 3, (1, 1, 2, 3, 3)), ("Circus", 3, (0, 1, 2, 3, 3)), ("Arsenal", 3, (1, 2, 2, 2, 3)),
        ("Chamber of Commerce", 3, (0, 1, 1, 2, 2)), ("Arena", 3, (1, 1, 2, 2, 3)),
    ],
)
def test_copies_per_player_count(name: str, age: int, copies: tuple[int, ...]) -> None:
    """§13 'Copies 3/4/5/6/7 p' column (a sample of rows)."""
    (card,) = [c for c in rows(age) if c.name == name]
    assert tuple(Counter(CATALOG.deck(age, n))[card.id] for n in range(3, 8)) == copies


def test_same_name_cards_in_ages_one_and_two() -> None:
    """§1: Loom, Glassworks and Press exist as Age I and as Age II cards (same name)."""
    names = Counter(c.name for c in rows())
    assert {n for n, k in names.items() if k > 1} == {"Loom", "Glassworks", "Press"}
    for n in ("Loom", "Glassworks", "Press"):
        assert sorted(c.age for c in rows() if c.name == n) == [1, 2]
        assert len({c.key for c in rows() if c.name == n}) == 1


# --- costs and chains (§5.1, §13) -------------------------------------------------------


@pytest.mark.parametrize(
    "name,age,coins,cost",
    [
        ("Lumber Yard", 1, 0, ""), ("Timber Yard", 1, 1, ""), ("Mine", 1, 1, ""), ("Baths", 1, 0, "S"),
        ("Marketplace", 1, 0, ""), ("Altar", 1, 0, ""), ("Stockade", 1, 0, "W"), ("Apothecary", 1, 0, "L"),
        ("Sawmill", 2, 1, ""), ("Aqueduct", 2, 0, "SSS"), ("Temple", 2, 0, "WCG"), ("Statue", 2, 0, "WOO"),
        ("Forum", 2, 0, "CC"), ("Caravansery", 2, 0, "WW"), ("Stables", 2, 0, "WCO"), ("Library", 2, 0, "SSL"),
        ("Pantheon", 3, 0, "CCOGLP"), ("Palace", 3, 0, "WSCOGLP"), ("Senate", 3, 0, "WWSO"),
        ("Lighthouse", 3, 0, "SG"), ("Haven", 3, 0, "WOL"), ("Arena", 3, 0, "SSO"),
        ("Fortifications", 3, 0, "SOOO"), ("Workers Guild", 3, 0, "WSCOO"), ("Craftsmens Guild", 3, 0, "SSOO"),
        ("Shipowners Guild", 3, 0, "WWWGP"), ("Builders Guild", 3, 0, "SSCCG"), ("Scientists Guild", 3, 0, "WWOOP"),
    ],
)
def test_costs_of_a_sample_of_rows(name: str, age: int, coins: int, cost: str) -> None:
    """§13 'Cost' column, transcribed by hand (rulebook examples: Baths S, Arena SSO, Mine
    1 coin, Marketplace free, Stables CWO)."""
    (card,) = [c for c in rows(age) if c.name == name]
    assert card.cost_coins == coins
    assert sorted(card.cost) == sorted(cost)


def test_every_chain_is_named_in_both_directions() -> None:
    """§5.1, §13: all chains are listed in both directions."""
    by_name: dict[str, list] = {}
    for c in rows():
        by_name.setdefault(c.name, []).append(c)
    for c in rows():
        for later in c.chain_to:
            assert any(c.name in x.chain_from for x in by_name[later]), (c.name, later)
        for earlier in c.chain_from:
            assert any(c.name in x.chain_to for x in by_name[earlier]), (earlier, c.name)


def test_chains_link_one_age_to_the_next() -> None:
    """§5.1: chains always link I -> II or II -> III."""
    for c in rows():
        for earlier in c.chain_from:
            assert {x.age for x in rows() if x.name == earlier} == {c.age - 1}, (earlier, c.name)
    assert sum(len(c.chain_from) for c in rows()) == 12 + 14  # Age II rows name 12, Age III 14


def test_rulebook_chain_examples() -> None:
    """§5.1: Stables is free for the owner of Apothecary; Scriptorium -> Library and
    Courthouse."""
    get = {(c.age, c.name): c for c in rows()}
    assert get[(2, "Stables")].chain_from == ("Apothecary",)
    assert set(get[(1, "Scriptorium")].chain_to) == {"Library", "Courthouse"}
    assert set(get[(2, "Forum")].chain_from) == {"East Trading Post", "West Trading Post"}


def test_science_symbols_eight_of_each_for_seven_players() -> None:
    """§13: with 7 players: 8 compass, 8 gear, 8 tablet."""
    got = Counter()
    for age in (1, 2, 3):
        for cid in CATALOG.deck(age, 7):
            for e in CATALOG.cards[cid].effects:
                if isinstance(e, Science):
                    got[e.symbol] += 1
    assert got == Counter({"compass": 8, "gear": 8, "tablet": 8})


# --- against the data file -----------------------------------------------------------------

_KIND = {"victory_points": "points", "coins_once": "coins", "produce": "produce", "shields": "shields",
         "science_symbol": "science", "science_wildcard": "science_wildcard", "coins_once_per": "coins_per",
         "end_vp_per": "points_per", "trade_discount": "trade_discount", "play_seventh_card": "play_seventh_card",
         "free_build_once_per_age": "free_build_once_per_age", "copy_neighbor_guild": "copy_neighbor_guild",
         "build_from_discard": "build_from_discard"}


def _ref_effect(e: dict) -> dict:
    out = {"kind": _KIND[e["type"]]}
    for k, v in e.items():
        if k == "type":
            continue
        k = {"neighbors": "sides"}.get(k, k)
        out[k] = "".join(v) if k in ("options", "resources") else (tuple(v) if isinstance(v, list) else v)
    return out


def _our_effect(e) -> dict:
    return {k: tuple(v) if isinstance(v, list) else v for k, v in msgspec.to_builtins(e).items()}


def _key(effects) -> list:
    return sorted(sorted(e.items()) for e in effects)


@pytest.fixture(scope="module")
def reference() -> dict:
    # The reference data is part of the repository (tests/data/); without it this
    # comparison cannot run, and that is a failure, not a skip.
    assert REFERENCE.exists(), f"the rules data file is missing: {REFERENCE}"
    return json.loads(REFERENCE.read_text())


def test_every_card_row_matches_the_data_file(reference: dict) -> None:
    """§13 = tests/data/seven-wonders.json: cost, coins, marks, colour, guild, chains, effects."""
    ours = {(c.age, c.name): c for c in rows()}
    assert set(ours) == {(r["age"], r["name"]) for r in reference["cards"]}
    for r in reference["cards"]:
        c = ours[(r["age"], r["name"])]
        cost = "".join(k * v for k, v in r["cost"]["resources"].items())
        assert sorted(c.cost) == sorted(cost), c.name
        assert c.cost_coins == r["cost"]["coins"], c.name
        assert list(c.marks) == r["player_marks"], c.name
        assert (c.color, c.guild) == (r["color"], r["is_guild"]), c.name
        assert sorted(c.chain_from) == sorted(r["chain_from"]) and sorted(c.chain_to) == sorted(r["chain_to"]), c.name
        assert _key(map(_our_effect, c.effects)) == _key(map(_ref_effect, r["effects"])), c.name


def test_every_wonder_side_matches_the_data_file(reference: dict) -> None:
    """§11.1 = tests/data/seven-wonders.json: 7 boards x 2 sides, starting resource, stage costs
    and effects."""
    assert set(CATALOG.wonders) == {w["id"] for w in reference["wonders"]}
    for w in reference["wonders"]:
        ours = CATALOG.wonders[w["id"]]
        assert ours.starting_resource == w["starting_resource"]
        assert set(ours.sides) == set(w["sides"]) == {"A", "B"}
        for s, side in w["sides"].items():
            assert ours.sides[s].starting_resource == side["starting_resource"]
            assert len(ours.sides[s].stages) == len(side["stages"]), (w["id"], s)
            for st, ref in zip(ours.sides[s].stages, side["stages"]):
                cost = "".join(k * v for k, v in ref["cost"]["resources"].items())
                assert sorted(st.cost) == sorted(cost), (w["id"], s, ref["stage"])
                assert _key(map(_our_effect, st.effects)) == _key(map(_ref_effect, ref["effects"])), (w["id"], s)


# --- validation of the seed files ---------------------------------------------------------

FILE = "seeds/seven_wonders/cards.json"


def _cards() -> list:
    return list(CATALOG.cards.values())


def _wonders() -> list:
    return list(CATALOG.wonders.values())


def test_the_shipped_catalog_validates() -> None:
    """§13, §2.3: the shipped seed files pass the catalog validation."""
    catalog._check(FILE, _cards(), _wonders())


def _row(cards: list, name: str) -> int:
    return next(i for i, c in enumerate(cards) if c.name == name)


def test_unknown_resource_fails_naming_file_and_row() -> None:
    """§0, §13: a cost with an unknown resource code fails, naming the file and the row."""
    cards = _cards()
    i = _row(cards, "Baths")
    cards[i] = replace(cards[i], cost="X")
    with pytest.raises(CatalogError) as err:
        catalog._check(FILE, cards, _wonders())
    assert FILE in str(err.value) and f"cards[{i}]" in str(err.value) and "Baths" in str(err.value)


def test_unknown_chain_fails_naming_file_and_row() -> None:
    """§5.1, §13: a chain naming no card fails, naming the file and the row."""
    cards = _cards()
    i = _row(cards, "Temple")
    cards[i] = replace(cards[i], chain_from=("Altars",))
    with pytest.raises(CatalogError) as err:
        catalog._check(FILE, cards, _wonders())
    assert f"cards[{i}]" in str(err.value) and "Altars" in str(err.value)


def test_wrong_marks_fail_the_deck_size_check() -> None:
    """§2.3: player marks that break 7·N cards per age fail loudly."""
    cards = _cards()
    i = _row(cards, "Tavern")
    cards[i] = replace(cards[i], marks=(4, 5))
    with pytest.raises(CatalogError) as err:
        catalog._check(FILE, cards, _wonders())
    assert FILE in str(err.value) and "§2.3" in str(err.value)


def test_duplicate_id_and_bad_age_fail() -> None:
    """§13: one row per card name per age; ages are I, II, III."""
    cards = _cards()
    cards[1] = replace(cards[1], id=cards[0].id)
    with pytest.raises(CatalogError, match=r"cards\[1\].*duplicate id"):
        catalog._check(FILE, cards, _wonders())
    cards = _cards()
    cards[2] = replace(cards[2], age=4)
    with pytest.raises(CatalogError, match=r"cards\[2\].*age"):
        catalog._check(FILE, cards, _wonders())


def test_a_guild_with_marks_fails() -> None:
    """§2.2, §13: guilds carry no player-count mark."""
    cards = _cards()
    i = _row(cards, "Spies Guild")
    cards[i] = replace(cards[i], marks=(3,))
    with pytest.raises(CatalogError, match=rf"cards\[{i}\] \(Spies Guild\)"):
        catalog._check(FILE, cards, _wonders())


def test_bad_wonder_stage_fails_naming_the_stage() -> None:
    """§11.1: a wonder stage with an unknown resource fails, naming board, side and stage."""
    wonders = _wonders()
    w = wonders[0]
    a = w.sides["A"]
    bad = replace(a, stages=(replace(a.stages[0], cost="Q"), *a.stages[1:]))
    wonders[0] = replace(w, sides={**w.sides, "A": bad})
    with pytest.raises(CatalogError, match=rf"wonders.json: {w.id} A stage 1"):
        catalog._check(FILE, _cards(), wonders)


def test_malformed_seed_file_fails_loudly_on_load(tmp_path, monkeypatch) -> None:
    """§13: a row of the wrong shape is refused by load() with the file and the row's path
    (load() is pointed at a modified copy of the seeds through games/seed_files.py; no file is edited)."""
    seeds = Path(catalog.__file__).resolve().parents[2] / "seeds" / "seven_wonders"
    folder = tmp_path / "seven_wonders"
    folder.mkdir()
    data = json.loads((seeds / "cards.json").read_text())
    data["cards"][5]["cost_coins"] = "one"
    (folder / "cards.json").write_text(json.dumps(data))
    (folder / "wonders.json").write_bytes((seeds / "wonders.json").read_bytes())

    class FakeResources:
        @staticmethod
        def files(package: str) -> Path:
            assert package == "seeds"
            return tmp_path

    monkeypatch.setattr(seed_files, "resources", FakeResources)  # where every game reads its seed files
    with pytest.raises(CatalogError) as err:
        catalog.load()
    assert "seeds/seven_wonders/cards.json" in str(err.value) and "cards[5]" in str(err.value)
    # an unmodified copy loads and hashes to the pinned value
    (folder / "cards.json").write_bytes((seeds / "cards.json").read_bytes())
    assert catalog.load().hash == PINNED_HASH
