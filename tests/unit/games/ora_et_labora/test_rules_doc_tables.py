"""docs/rules/ora-et-labora.md, the project's own rules document, against the engine's data
and the places that cite it: its data tables outside §11/§12 (those are checked row by row in
test_catalog.py) against the catalog the engine plays — the goods (§2), the wheel (§4.1),
the buildings per mode (§5.2), the per-mode schedule (§5.3) — so the document cannot drift
from seeds/ora_et_labora/; every `§15 #n` / `§17 #n` cited names an item of those lists; and
the READMEs send readers there."""

from __future__ import annotations

import re
from pathlib import Path

from games.ora_et_labora.catalog import CATALOG
from tests.unit.test_rules_docs import BESIDE

ROOT = Path(__file__).resolve().parents[4]
DOC = ROOT / "docs" / "rules" / "ora-et-labora.md"
PLACES = ("games/ora_et_labora/**/*.py", "games/ora_et_labora/**/*.md", "seeds/ora_et_labora/*.json",
          "tests/unit/games/ora_et_labora/**/*.py", "tests/unit/games/test_*_ora_et_labora.py")
"""The game's files (its row in tests/unit/test_rules_docs.py)."""


def table(section: str) -> list[list[str]]:
    """The first table under the heading numbered `section`, as rows of cells (header row excluded)."""
    text = DOC.read_text(encoding="utf-8")
    start = re.search(rf"^#{{2,3}} {re.escape(section)}\.? ", text, re.M)
    assert start, section
    lines = text[start.end():].splitlines()
    rows, seen = [], False
    for line in lines:
        if line.startswith("|"):
            seen = True
            if not line.startswith("|---"):
                rows.append([c.strip() for c in line.strip().strip("|").split("|")])
        elif seen:
            break
    return rows[1:]


def number(cell: str) -> float:
    """A value cell of the goods table: "–" is none, "½" a half."""
    return {"–": 0.0, "½": 0.5}[cell] if cell in ("–", "½") else float(cell)


def test_goods_table_is_the_catalog() -> None:
    """§2: every good's food, energy, coins, points and variant, by its name in the catalog."""
    rows = table("2")
    by_name = {g.name: g for g in CATALOG.goods.values()}
    names = [r[0].replace(' ("coal")', "") for r in rows]  # the table adds the short name the notation uses
    assert names == [g.name for g in CATALOG.goods.values()]
    for name, (_, _flip, food, energy, coins, points, variant, _tiles) in zip(names, rows, strict=True):
        g = by_name[name]
        assert (number(food), number(energy), number(coins), number(points)) == (g.food, g.energy, g.coins, g.points), name
        assert variant.lower() == g.variant, name


def test_wheel_values_are_the_catalog() -> None:
    """§4.1: both sides of the production wheel."""
    front, back = table("4.1")
    w = CATALOG.game.production_wheel
    assert [int(v) for v in front[1:]] == w.front_values and front[0] == "Front side"
    assert [int(v) for v in back[1:]] == w.back_values and back[0] == "Back side"


MODES = {"4 players (long)": "four_player", "3 players (long)": "three_player", "2 players (normal)": "two_player",
         "2 players (long)": "two_player_long", "Solo": "solo", "Short 3 players": "three_player_short",
         "Short 4 players": "four_player_short"}


def test_buildings_per_mode_are_the_catalog() -> None:
    """§5.2: the France and Ireland counts of every mode (solo: the display plus the Builders' Market)."""
    rows = table("5.2")
    assert [r[0] for r in rows] == list(MODES)
    for label, _used, france, ireland in rows:
        mode = MODES[label]
        got = (len(CATALOG.selection(mode, "france")), len(CATALOG.selection(mode, "ireland")))
        assert (int(france.split(" ")[0]), int(ireland.split(" ")[0])) == got, label


SCHEDULE = {"4 players": "four_player", "3 players": "three_player", "Short 3–4 players": "four_player_short",
            "2 players (normal)": "two_player", "2 players (long)": "two_player_long", "Solo": "solo"}


def test_schedule_is_the_catalog() -> None:
    """§5.3: settlement phases A-D, the wheel side and when grapes and stone enter, per mode."""
    rows = table("5.3")
    assert [r[0] for r in rows] == list(SCHEDULE)
    for label, _board, wheel, _clergy, _goods, phases, _e, grapes, stone, _length in rows:
        m = CATALOG.modes[SCHEDULE[label]]
        when = m.settlement_phase_in_round or m.settlement_phase_in_turn
        assert [int(n) for n in re.findall(r"\d+", phases)] == [when.A, when.B, when.C, when.D], label
        assert wheel == m.wheel, label
        entries = [int(n) if (n := re.sub(r"\D", "", x)) else None for x in (grapes, stone)]
        assert entries == [m.grapes_enter_round or m.grapes_enter_turn, m.stone_enters_round or m.stone_enters_turn], label



def items(section: str) -> set[str]:
    """The numbers of the numbered list under `## <section>.` (§15's interpretations, §17's rulings)."""
    text = DOC.read_text(encoding="utf-8")
    body = re.search(rf"^## {section}\. .*?(?=^## |\Z)", text, re.M | re.S)
    assert body, section
    return set(re.findall(r"^(\d+)\. ", body.group(0), re.M))


def test_every_numbered_ruling_cited_exists() -> None:
    """`§15 #n` and `§17 #n` (also `§15 #4, #7` and `§15 #4 - #7`) name an item of that list;
    the seeds' notes included (tests/unit/test_rules_docs.py checks the section numbers)."""
    known = {"15": items("15"), "17": items("17")}
    assert known["15"] == {str(n) for n in range(1, 22)} and known["17"] == {str(n) for n in range(1, 11)}
    missing, found = [], 0
    for path in sorted({p for g in PLACES for p in ROOT.glob(g) if p.is_file()}):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in re.finditer(r"§(15|17) ?(#\d+(?:(?:, | ?- ?)#\d+)*)", line):
                for k in re.findall(r"#(\d+)", m.group(2)):
                    found += 1
                    if k not in known[m.group(1)]:
                        missing.append(f"{path.relative_to(ROOT)}:{n}: §{m.group(1)} #{k}")
    assert found > 40 and missing == []


def test_the_readmes_send_readers_to_the_rules_document() -> None:
    """README.md's games row, seeds/README.md's Ora et Labora part and the game's README link
    docs/rules, never the rules reference beside the repository, and every § they cite is a
    section of it (tests/unit/test_rules_docs.py covers the game's own folders)."""
    heads = set(re.findall(r"^#{2,3} (\d+(?:\.\d+)*)\.? ", DOC.read_text(encoding="utf-8"), re.M))
    row = next(line for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
               if line.startswith("| `ora_et_labora` |"))
    seeds = (ROOT / "seeds" / "README.md").read_text(encoding="utf-8").split("## ora_et_labora", 1)[1].split("\n## ", 1)[0]
    game = (ROOT / "games" / "ora_et_labora" / "README.md").read_text(encoding="utf-8")
    for text in (row, seeds, game):
        assert "docs/rules/ora-et-labora.md" in text and not BESIDE.search(text)
    cited = set(re.findall(r"§\s?(\d+(?:\.\d+)*)", seeds + game))
    assert cited and cited <= heads, cited - heads
