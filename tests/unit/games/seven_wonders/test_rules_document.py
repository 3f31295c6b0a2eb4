"""docs/rules/seven-wonders.md shows the catalog as the engine plays it: every card at the
§13 row its `ref` names (age, name, colour, cost, marks, chains, effect text), every wonder
stage at its §11.1 row (starting resource, cost, effect text). A data edit that forgets the
document fails here (test_edifice_rules_document.py does the same for Edifice)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[4]
RULES = ROOT / "docs" / "rules"
SEEDS = ROOT / "seeds" / "seven_wonders"
ROMAN = {1: "I", 2: "II", 3: "III"}


def _seed(name: str) -> dict:
    return json.loads((SEEDS / name).read_text(encoding="utf-8"))


def _table(doc: str, section: str) -> list[list[str]]:
    """The table lines (cells; the header first) of `## section.` / `### section`, up to the next heading."""
    rows, inside = [], False
    for line in (RULES / doc).read_text(encoding="utf-8").splitlines():
        head = re.match(r"(#{2,3}) (\d+(?:\.\d+)?)\.? ", line)
        if head:
            inside = head.group(2) == section
        elif inside and line.startswith("|") and not re.match(r"\|\s*-", line):
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows


def _rows(doc: str, section: str) -> list[list[str]]:
    return _table(doc, section)[1:]  # without the header


def _cost(coins: int, letters: str) -> str:
    return "free" if not coins and not letters else f"{coins} coin" if coins else letters


CARD_ROWS = {int(r[0]): r for r in _rows("seven-wonders.md", "13")}


def test_section_13_has_the_78_rows() -> None:
    assert sorted(CARD_ROWS) == list(range(1, 79))


@pytest.mark.parametrize("card", _seed("cards.json")["cards"], ids=lambda c: c["id"])
def test_every_card_sits_at_its_row_of_section_13(card: dict) -> None:
    n = int(re.fullmatch(r"seven-wonders\.md §13 row (\d+)", card["ref"]).group(1))
    _, age, name, colour, cost, marks, _copies, chain_from, chain_to, effect = CARD_ROWS[n]
    assert (age, name, colour) == (ROMAN[card["age"]], card["name"], card["color"])
    assert cost == _cost(card["cost_coins"], card["cost"])
    assert marks == (",".join(f"{m}+" for m in card["marks"]) if not card["guild"] else "guild (players+2 random)")
    assert chain_from == (", ".join(card["chain_from"]) or "—") and chain_to == (", ".join(card["chain_to"]) or "—")
    assert effect == card["text"]


def test_every_wonder_stage_sits_at_its_row_of_section_11_1() -> None:
    rows = {(r[0].split(" (")[0], r[1], int(r[3])): r for r in _rows("seven-wonders.md", "11.1")}
    seen = set()
    for wonder in _seed("wonders.json")["wonders"]:
        for side, data in wonder["sides"].items():
            for i, stage in enumerate(data["stages"], 1):
                assert stage["ref"] == f"seven-wonders.md §11.1 {wonder['name']} {side}{i}"
                row = rows[(wonder["name"], side, i)]
                assert row[0] == f"{wonder['name']} ({wonder['full_name']})"
                assert row[2].split(" ")[0] == data["starting_resource"]
                assert (row[4], row[5]) == (stage["cost"], stage["text"])
                seen.add((wonder["name"], side, i))
    assert seen == set(rows)
