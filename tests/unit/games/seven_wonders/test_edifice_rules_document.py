"""docs/rules/seven-wonders-edifice.md shows the Edifice catalog as the engine plays it:
every edifice in the §9.2 table at its `ref` (age, participation cost) and §10's pawns by
player count. A data edit that forgets the document fails here."""

from __future__ import annotations

from tests.unit.games.seven_wonders.test_rules_document import ROMAN, _rows, _seed, _table


def test_every_edifice_is_in_section_9_2_and_the_pawns_in_section_10() -> None:
    seed = _seed("edifice.json")
    rows = {r[1]: r for r in _rows("seven-wonders-edifice.md", "9.2")}
    assert set(rows) == {e["name"] for e in seed["edifices"]}
    for e in seed["edifices"]:
        age, _, cost, *_ = rows[e["name"]]
        assert e["ref"] == f"§9.2 Age {ROMAN[e['age']]} {e['name']}"
        assert (age, cost) == (ROMAN[e["age"]], f"{e['cost_coins']} coin" + ("s" if e["cost_coins"] > 1 else ""))
    header, pawns = _table("seven-wonders-edifice.md", "10")
    assert header[0] == "Players" and pawns[0] == "Pawns on each edifice card"
    assert {int(p): int(n) for p, n in zip(header[1:], pawns[1:], strict=True)} == {
        int(k): v for k, v in seed["pawns_per_edifice"]["by_players"].items()}
