"""The Edifice catalog (seeds/seven_wonders/edifice.json) against its reference,
docs/rules/seven-wonders-edifice.md §2, §9, §10, §11, §12 and tests/data/seven-wonders-edifice.json."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from games.seven_wonders import edifice
from games.seven_wonders.catalog import CatalogError
from games.seven_wonders.edifice import (
    DiscardOwnCard,
    DiscardOwnDefeatTokens,
    GainVictoryToken,
    LoseVictoryTokens,
    PayCoins,
    ProduceOneOf,
    TakePawn,
    VpPerBrownGreyPair,
    load,
)

ROOT = Path(__file__).resolve().parents[4]
REFERENCE = ROOT / "tests" / "data" / "seven-wonders-edifice.json"  # the reference data (tests/data/README.md)
SEED = ROOT / "seeds" / "seven_wonders" / "edifice.json"
RES = {"wood": "W", "stone": "S", "clay": "C", "ore": "O", "glass": "G", "loom": "L", "papyrus": "P"}

CAT = load()


def reference() -> dict:
    return json.loads(REFERENCE.read_text(encoding="utf-8"))


def test_five_edifices_per_age() -> None:
    """§2, §3 step 2: 15 cards, five per Age."""
    assert [len(CAT.of_age(a)) for a in (1, 2, 3)] == [5, 5, 5]
    assert len(CAT.cards) == 15


def test_every_card_row_matches_the_reference_data() -> None:
    """§9.2: name, age, participation cost, rewards, penalty and mark of each card."""
    ref = {e["id"]: e for e in reference()["edifices"]}
    assert set(ref) == set(CAT.cards)
    for cid, card in CAT.cards.items():
        r = ref[cid]
        assert (card.name, card.age, card.cost_coins, card.confirmation) == (
            r["name"], r["age"], r["participation_cost"]["coins"], r["confidence"]), cid
        mine = [msgspec.to_builtins(x) for x in card.rewards]
        for got, want in zip(mine, r["reward"], strict=True):
            assert got["kind"] == want["type"], cid
            for k, v in want.items():
                if k == "type":
                    continue
                assert got["options" if k == "resources" else k] == ("".join(RES[x] for x in v) if k == "resources" else v), cid
        pen = msgspec.to_builtins(card.penalty)
        assert pen["kind"] == r["penalty"]["type"]
        assert {k: v for k, v in pen.items() if k != "kind"} == {k: v for k, v in r["penalty"].items() if k != "type"}


def test_the_three_x_rows_keep_the_recommended_value_and_the_alternative() -> None:
    """§9.3: Artisan District 2 VP (alt. 3), Staging Camp 3 coins (alt. 2), Amphitheater grey (alt. brown)."""
    x = {c.id: c for c in CAT.cards.values() if c.confirmation == "X"}
    assert set(x) == {"artisan_district", "staging_camp", "amphitheater"}
    assert x["artisan_district"].rewards == [VpPerBrownGreyPair(vp=2)]
    assert x["artisan_district"].alternative.value == 3
    assert x["staging_camp"].cost_coins == 3 and x["staging_camp"].alternative.value == 2
    assert x["amphitheater"].penalty == DiscardOwnCard(colour="grey")
    assert x["amphitheater"].alternative.value == "brown"


def test_spot_rows_of_the_card_table() -> None:
    """§9.2 rows: Money Changer, River Port, Concentric Castle, Military School, Agora."""
    c = CAT.cards
    assert c["money_changer"].cost_coins == 1 and c["money_changer"].penalty == PayCoins(amount=2)
    assert c["river_port"].rewards == [ProduceOneOf(options="WSCO")]
    assert c["concentric_castle"].penalty == LoseVictoryTokens(count=2)
    assert c["military_school"].rewards == [GainVictoryToken(value=5), DiscardOwnDefeatTokens()]
    assert c["agora"].cost_coins == 6


def test_pawns_by_player_count() -> None:
    """§10: 2, 3, 3, 4, 5 pawns on each card for 3..7 players."""
    assert [CAT.pawns(n) for n in range(3, 8)] == [2, 3, 3, 4, 5]
    assert CAT.players == (3, 7)


def test_debt_tokens() -> None:
    """§11: -2, -3, -5 by Age."""
    assert [CAT.debt(a) for a in (1, 2, 3)] == [-2, -3, -5]


def test_ur_and_carthage_are_placeholders_disabled_by_default() -> None:
    """§0, §12.2: both boards P, off by default; Ur only with Edifice; costs as the placeholder table."""
    ur, carthage = CAT.wonders["ur"], CAT.wonders["carthage"]
    assert ur.confirmation == carthage.confirmation == "P"
    assert not ur.enabled_by_default and not carthage.enabled_by_default
    assert ur.requires_edifice and not carthage.requires_edifice
    assert [s.cost for s in ur.sides["A"].stages] == ["SO", "SSC", "WWWP"]
    assert [s.cost for s in ur.sides["B"].stages] == ["SG", "OOS", "CCSL"]
    assert ur.sides["A"].stages[1].options == [[TakePawn(age=0)]]
    assert [len(s.options) for s in carthage.sides["B"].stages] == [2, 2]
    assert CAT.ur_pawn_from_box.confirmation == "P" and not CAT.ur_pawn_from_box.advances_completion


def test_a_malformed_seed_fails_naming_the_row(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Catalog validation: a placeholder board switched on by default is refused, with its row."""
    data = json.loads(SEED.read_text(encoding="utf-8"))
    data["wonders"][0]["enabled_by_default"] = True
    bad = msgspec.json.decode(json.dumps(data).encode(), type=edifice._File)
    with pytest.raises(CatalogError, match="carthage.*disabled by default"):
        edifice._check(bad)
    data = json.loads(SEED.read_text(encoding="utf-8"))
    data["edifices"][4]["alternative"] = None
    with pytest.raises(CatalogError, match=r"edifices\[4\] \(Artisan District\).*X row"):
        edifice._check(msgspec.json.decode(json.dumps(data).encode(), type=edifice._File))


def test_every_placeholder_stage_matches_the_reference_data() -> None:
    """§12.2: each stage's cost and alternatives of Ur and Carthage, day = side A, night = side B."""
    kinds = {"vp": "points", "gain_coins": "coins", "gain_shields": "shields",
             "build_from_discard_free_end_of_turn": "build_from_discard",
             "science_symbol_of_choice_at_end": "science_wildcard", "take_pawn_from_box": "take_pawn"}
    for w in reference()["wonders"]:
        mine = CAT.wonders[w["id"]]
        assert mine.starting_resource == RES[w["starting_resource"]]
        for side, key in (("A", "day"), ("B", "night")):
            stages = mine.sides[side].stages
            assert len(stages) == len(w["sides"][key])
            for st, want in zip(stages, w["sides"][key]):
                assert st.cost == "".join(RES[r] * n for r, n in want["cost"].items())
                got = [[msgspec.to_builtins(e) for e in alt] for alt in st.options]
                assert [[e["kind"] for e in alt] for alt in got] == [[kinds[e["type"]] for e in alt]
                                                                     for alt in want["effect_options"]]
                for alt, walt in zip(got, want["effect_options"]):
                    for e, we in zip(alt, walt):
                        if "amount" in we:
                            assert e["amount"] == we["amount"]
                        if "age" in we:
                            assert e["age"] == (0 if we["age"] == "any" else we["age"])
