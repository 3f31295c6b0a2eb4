"""docs/rules/seven-wonders-duel.md shows the catalog as the engine plays it: every card row of
§11.1-§11.4 and wonder row of §12 sits at the row its `ref` names, with the seeds' name,
colour, cost, chains, shields, science symbol and VP; §13 lists the ten tokens; the §4 tables
are board.json's three structures. A data edit that forgets the document fails here."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[4] / "docs" / "rules" / "seven-wonders-duel.md"
LETTER = {"wood": "W", "clay": "C", "stone": "S", "glass": "G", "papyrus": "P"}


def _seed(name: str) -> dict:
    return json.loads(resources.files("seeds").joinpath("seven_wonders_duel").joinpath(name).read_text())


def _tables() -> dict[str, list[list[str]]]:
    """The numbered rows of each `## N.` / `### N.M` section's tables, by section number."""
    out: dict[str, list[list[str]]] = {}
    section = ""
    for line in DOC.read_text(encoding="utf-8").splitlines():
        head = re.match(r"#{2,3} (\d+(?:\.\d+)?)\.? ", line)
        if head:
            section = head.group(1)
        elif re.match(r"\|\s*\d+\s*\|", line):
            out.setdefault(section, []).append([c.strip() for c in line.strip().strip("|").split("|")])
    return out


TABLES = _tables()


def cost_text(cost: dict) -> str:
    """A seed cost written as the document writes it: `free`, `2 coins`, `1W 2S`, `3 coins + 1C`."""
    ordered = sorted(cost["resources"].items(), key=lambda x: list(LETTER).index(x[0]))
    units = " ".join(f"{n}{LETTER[r]}" for r, n in ordered)
    coins = f"{cost['coins']} coin{'s' if cost['coins'] > 1 else ''}" if cost["coins"] else ""
    return " + ".join(p for p in (coins, units) if p) or "free"


def effect_words(effects: list[dict]) -> list[str]:
    """What the Effect column must say for the effects whose figures matter most."""
    words = []
    for e in effects:
        if e["type"] == "produce":
            words.append(f"produces {e['amount']} {e['resource']}")
        elif e["type"] == "shields":
            words.append(f"{e['amount']} shield" + ("s" if e["amount"] > 1 else ""))
        elif e["type"] == "science_symbol":
            words.append(f"science: {e['symbol']}")
        elif e["type"] == "victory_points":
            words.append(f"{e['amount']} VP")
        elif e["type"] == "gain_coins":
            words.append(f"+{e['amount']} coins when built")
        elif e["type"] == "extra_turn":
            words.append("play again")
        elif e["type"] == "fixed_trade_price":
            words += [f"at {e['price']} coin a unit", *e["resources"]]
        elif e["type"] == "produce_one_of":
            words += e["options"]
    return words


def _row(ref: str) -> list[str]:
    section, row = re.fullmatch(r"seven-wonders-duel\.md §(\d+(?:\.\d+)?) row (\d+)", ref).groups()
    rows = [r for r in TABLES[section] if r[0] == row]
    assert len(rows) == 1, f"{ref}: {len(rows)} rows numbered {row} in §{section}"
    return rows[0]


@pytest.mark.parametrize("card", _seed("cards.json")["cards"], ids=lambda c: c["id"])
def test_every_card_is_shown_at_its_ref(card: dict) -> None:
    _, name, colour, cost, gives, needs, effect = _row(card["ref"])
    assert (name, colour, cost) == (card["name"], card["color"], cost_text(card["cost"]))
    assert (gives, needs) == (card["chain_symbol_provided"] or "-", card["free_if_owner_has_chain_symbol"] or "-")
    for word in effect_words(card["effects"]):
        assert word in effect, f"{card['name']}: {word!r} missing from {effect!r}"


@pytest.mark.parametrize("wonder", _seed("wonders.json")["wonders"], ids=lambda w: w["id"])
def test_every_wonder_is_shown_at_its_ref(wonder: dict) -> None:
    _, name, cost, effect, vp = _row(wonder["ref"])
    points = [e["amount"] for e in wonder["effects"] if e["type"] == "victory_points"]
    assert (name, cost, vp) == (wonder["name"], cost_text(wonder["cost"]), str(points[0] if points else 0))
    for word in effect_words([e for e in wonder["effects"] if e["type"] != "victory_points"]):
        assert word in effect, f"{wonder['name']}: {word!r} missing from {effect!r}"


def test_the_tables_hold_no_row_the_catalog_lacks() -> None:
    """§11.1 23 rows, §11.2 23, §11.3 20, §11.4 7, §12 12: as many as the seeds cite."""
    refs = [c["ref"] for c in _seed("cards.json")["cards"]] + [w["ref"] for w in _seed("wonders.json")["wonders"]]
    cited = {s: sum(1 for r in refs if f"§{s} row" in r) for s in ("11.1", "11.2", "11.3", "11.4", "12")}
    assert cited == {s: len(TABLES[s]) for s in cited} == {"11.1": 23, "11.2": 23, "11.3": 20, "11.4": 7, "12": 12}


def test_the_progress_tokens_are_the_catalogs() -> None:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## 13. "):text.index("## 14. ")]
    shown = re.findall(r"^\| ([A-Z][a-z]+) \|", section, re.M)[1:]  # after the header
    assert shown == [t["name"] for t in _seed("progress_tokens.json")["progress_tokens"]]


@pytest.mark.parametrize("age", [1, 2, 3])
def test_the_structures_are_board_jsons(age: int) -> None:
    """§4.1-§4.3: position, row, col, dealt face up or down, covered by, covers."""
    def listed(xs: list[int]) -> str:
        return ", ".join(map(str, xs))
    expected = [[str(p["index"]), str(p["row"]), f"{p['col']:+d}", "up" if p["face_up_at_setup"] else "down",
                 listed(p["covered_by"]) or "- (free at the start)", listed(p["covers"]) or "-"]
                for p in _seed("board.json")["layouts"][f"age{age}"]]
    assert TABLES[f"4.{age}"] == expected
