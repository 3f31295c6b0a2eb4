"""The data tables of docs/rules/ora-et-labora.md outside §11/§12 (those are checked row by
row in test_catalog.py) against the catalog the engine plays: the goods (§2), the wheel
(§4.1), the buildings per mode (§5.2) and the per-mode schedule (§5.3), so the document
cannot drift from seeds/ora_et_labora/."""

from __future__ import annotations

import re
from pathlib import Path

from games.ora_et_labora.catalog import CATALOG

DOC = Path(__file__).resolve().parents[4] / "docs" / "rules" / "ora-et-labora.md"


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
