"""docs/rules/arkadia.md shows the catalog the engine plays: the §2.1 forms (shape, cells,
tiles, cards per colour), the §3 tent camps and castle squares (offset, printed seal) and the
§7.1 / §2 counts are the seeds' values, placeholders included. A data edit that forgets the
document fails here."""

from __future__ import annotations

import json
import re
from collections import Counter
from importlib import resources
from pathlib import Path

DOC = Path(__file__).resolve().parents[4] / "docs" / "rules" / "arkadia.md"
TEXT = DOC.read_text(encoding="utf-8")


def _seed(name: str) -> dict:
    return json.loads(resources.files("seeds").joinpath("arkadia").joinpath(name).read_text())


def _section(number: str) -> str:
    """The text of `## N.` or `### N.M` up to the next heading."""
    start = re.search(rf"^#{{2,3}} {re.escape(number)}\.? .*$", TEXT, re.M)
    assert start, f"§{number} is not a heading"
    end = re.search(r"^#{2,3} ", TEXT[start.end():], re.M)
    return TEXT[start.end():start.end() + end.start()] if end else TEXT[start.end():]


def _drawing(cells: list[list[int]]) -> str:
    """A form's cells as the document draws them: rows top to bottom, `#` covered, `.` not."""
    width, height = max(x for x, _ in cells) + 1, max(y for _, y in cells) + 1
    rows = ["".join("#" if [x, y] in cells else "." for x in range(width)) for y in range(height)]
    return " / ".join(f"`{r}`" for r in rows)


def test_the_building_forms_are_the_seeds() -> None:
    data = _seed("buildings.json")
    per_colour = Counter((c["form"], c["seal"]) for c in data["cards"])
    rows = [[c.strip() for c in line.strip().strip("|").split("|")]
            for line in _section("2.1").splitlines() if line.startswith("| `")]
    assert [r[0].strip("`") for r in rows] == [f["id"] for f in data["forms"]]
    for row, form in zip(rows, data["forms"], strict=True):
        _, name, shape, cells, tiles, cards = row
        colours = {per_colour[(form["id"], seal)] for seal in ("red", "olive", "black", "silver")}
        assert name == form["name"] and shape.startswith(_drawing(form["cells"])), (row, form)
        assert (int(cells), int(tiles), {int(cards)}) == (len(form["cells"]), form["tiles"], colours), row
    assert data["mirror_allowed"] is False and "`mirror_allowed` (false)" in _section("2.1")


def test_the_tent_camps_are_the_seeds() -> None:
    shown = re.findall(r"\[(\d+),(\d+)\]", _section("3").split("free, so the lot can sit in several places:")[1])
    assert [[int(x), int(y)] for x, y in shown] == _seed("board.json")["tent_camps"]["cells"]


def test_the_castle_squares_are_the_seeds() -> None:
    board = _seed("board.json")
    section = _section("3")
    offsets = re.search(r"^\s*\| Offset in the lot \(landscape\) \|(.*)\|$", section, re.M).group(1)
    printed = re.search(r"^\s*\| Printed seal \[P\] \|(.*)\|$", section, re.M).group(1)
    squares = board["castle_squares"]["squares"]
    assert [o.strip() for o in offsets.split("|")] == [f"{s['offset'][0]},{s['offset'][1]}" for s in squares]
    assert [p.strip() for p in printed.split("|")] == [s["printed"] or "none" for s in squares]
    court = " and ".join(f"{x},{y}" for x, y in board["castle_squares"]["courtyard"])
    assert f"Courtyard: offsets {court}." in section


def test_the_counts_are_the_seeds() -> None:
    board = _seed("board.json")
    sup, pools, lot = board["supplies"], board["castle_pieces"]["pools"], board["castle_lot"]
    assert (sup["workers_per_colour"], sup["start_workers"], sup["neutral_workers"]) == (11, 3, 24)
    assert (sup["banners"], sup["banner_workers"], sup["hand_size"], sup["display_size"]) == (4, 2, 4, 3)
    assert [sum(pools[f].values()) for f in ("floor1", "floor2", "floor3")] == [12, 12, 4]
    assert (board["grid"]["width"], board["grid"]["height"]) == (16, 12)
    assert (lot["default"]["x"], lot["default"]["y"], lot["default"]["orientation"]) == (6, 4, "landscape")
    area = lot["random_area"]
    assert f"x {area['x_min']}–{area['x_max']}, y {area['y_min']}–{area['y_max']}" in _section("3")
    for text, section in (("**3 workers**", "4"), ("**4** (a hidden hand)", "4"), ("**3** are", "4"),
                          ("3 of each colour (12)", "4"), ("1 of each colour (4)", "4"),
                          ("**2 workers of their colour**", "5.3"), ("**16 columns × 12 rows**", "3"),
                          ("**Default: anchor `[6, 4]`, landscape**", "3"), ("| 11 per player colour.", "2"),
                          ("| 24 | Beige", "2")):
        assert text in _section(section), (text, section)
