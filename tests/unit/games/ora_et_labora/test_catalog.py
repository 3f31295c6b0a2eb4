"""The Ora et Labora catalog (seeds/ora_et_labora/) against the rules it was converted from
(§1-§5, §7, §11-§13, §16): the reference data tests/data/ora-et-labora.json, and the §11/§12
tables of the project's rules document docs/rules/ora-et-labora.md, which must show every
building and settlement row as the seeds have it."""

from __future__ import annotations

import copy
import hashlib
import json
import re
from pathlib import Path

import msgspec
import pytest

from games.ora_et_labora import catalog
from games.ora_et_labora.catalog import CATALOG, CATALOG_HASH, CatalogError, Convert, UseBuilding, load, parse

ROOT = Path(__file__).resolve().parents[4]
REFERENCE = ROOT / "tests" / "data" / "ora-et-labora.json"  # the reference data (tests/data/README.md)
MARKDOWN = ROOT / "docs" / "rules" / "ora-et-labora.md"  # the project's own rules document
SEEDS = ROOT / "seeds" / "ora_et_labora"

PINNED = "2c4de8c5d52b026e9d588b2d7ad1ec46e5f1032ad2c7f3aecab5a737ac95f485"
ADDED = {"ref", "confirmation", "note", "unconfirmed", "alternatives"}  # fields the seed adds to a reference row


def reference() -> dict:
    return json.loads(REFERENCE.read_text(encoding="utf-8"))


def seed(name: str) -> dict:
    return json.loads((SEEDS / name).read_text(encoding="utf-8"))


def raw_files() -> dict[str, bytes]:
    return {f: (SEEDS / f).read_bytes() for f in catalog.FILES}


def md_rows() -> dict[str, tuple[str, list[str]]]:
    """Every §11/§12 table row of docs/rules/ora-et-labora.md by id: (section heading, cells)."""
    rows, section = {}, ""
    for line in MARKDOWN.read_text(encoding="utf-8").splitlines():
        if line.startswith("#### "):
            section = line[5:].split(" (")[0].strip()
        elif line.startswith("## 12."):
            section = "§12"
        elif re.match(r"\| [HGFIS]\d+ \|", line):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            rows[cells[0]] = (section, cells)
    return rows


def md_cost(text: str) -> dict[str, int]:
    if text == "—":
        return {}
    out = {}
    for part in text.split(" + "):
        n, good = part.split(" ")
        out["coin" if good.startswith("coin") else good] = int(n)
    return out


def test_counts() -> None:
    """§1, §2, §11, §12: 70 building rows (41 card numbers per variant + H1-H3), 8 settlements, 23 goods, 450 tiles."""
    assert len(CATALOG.buildings) == 70 and len(CATALOG.settlements) == 8 and len(CATALOG.goods) == 23
    for variant in ("france", "ireland"):
        numbers = sorted(b.card_number for b in CATALOG.buildings.values()
                         if b.variant in ("both", variant) and b.phase != "heartland")
        assert numbers == list(range(1, 42)), variant
    assert [b for b in CATALOG.buildings if b.startswith("H")] == ["H1", "H2", "H3"]
    assert sum(CATALOG.game.components.goods_tiles.values()) == 450
    assert len(catalog.OPS) == 24


def test_every_building_row_matches_the_reference_data() -> None:
    """§11: cost, terrain, values, cloister, effect steps, variant, phase, mark, modes and confidence of each row."""
    ref = {b["id"]: b for b in reference()["buildings"]}
    assert list(ref) == list(CATALOG.buildings)
    for bid, b in CATALOG.buildings.items():
        r = ref[bid]
        assert (b.card_number, b.name, b.variant, b.phase, b.player_mark, b.excluded_in_modes) == (
            r["card_number"], r["name"], r["variant"], r["phase"], r["player_mark"], r["excluded_in_modes"]), bid
        assert (b.cost, b.terrain, b.cloister, b.economic_value, b.dwelling_value) == (
            r["cost"], r["terrain"], r["cloister"], r["economic_value"], r["dwelling_value"]), bid
        assert (b.uses_production_wheel, b.effect, b.confirmation) == (
            r["uses_production_wheel"], r["effect"], r["confidence"]), bid
        assert b.note == r.get("note", ""), bid
        steps = json.loads(msgspec.json.encode(b.effect_steps))  # tuples (tiers) as JSON lists
        if bid == "I15":  # the reference's textual output, typed (see the step's docstring)
            assert steps == [{"op": "convert_basic_pair", "in": {"book": 1}, "amounts": [5, 3], "max": 1,
                              "reference_out": r["effect_steps"][0]["out"]}]
            assert r["effect_steps"][0]["op"] == "convert" and r["effect_steps"][0]["max"] == 1
        else:
            assert steps == r["effect_steps"], bid


def test_the_seed_files_are_the_reference_rows_plus_marks() -> None:
    """§11, §12: converted row for row; only ref/confirmation/note/unconfirmed/alternatives added."""
    ref = reference()
    for mine, theirs in zip(seed("buildings.json")["buildings"], ref["buildings"], strict=True):
        assert {k: v for k, v in mine.items() if k not in ADDED and k != "effect_steps"} == {
            k: v for k, v in theirs.items() if k not in ("confidence", "note", "effect_steps")}
    for mine, theirs in zip(seed("settlements.json")["settlements"], ref["settlements"], strict=True):
        assert {k: v for k, v in mine.items() if k not in ADDED} == {
            k: v for k, v in theirs.items() if k not in ("confidence", "note")}
        assert mine["confirmation"] == theirs["confidence"] and mine.get("note") == theirs.get("note")
    s = seed("settlements.json")
    assert s["starting_settlements_in_hand"] == ref["starting_settlements_in_hand"]
    assert s["settlement_cards_by_phase"] == ref["settlement_cards_by_phase"]


def test_every_building_row_matches_the_markdown_table() -> None:
    """§11 tables: section (the ref), name, variant, mark, cost, terrain, cloister, econ, dwell and ⚠."""
    rows = md_rows()
    for bid, b in CATALOG.buildings.items():
        section, (no, name, variant, mark, cost, terrain, cloister, econ, dwell, effect) = rows[bid]
        assert b.ref == f"§11 {section}, {bid} {b.name}"
        assert name.removesuffix(" ⚠") == b.name and variant.lower() == b.variant
        assert {"—": "none"}.get(mark.split(" ")[0], mark.split(" ")[0]) == b.player_mark, bid
        assert md_cost(cost) == b.cost, bid
        assert [t.lower() for t in terrain.split("/")] == b.terrain, bid
        assert (cloister == "yes", int(econ), int(dwell), effect) == (b.cloister, b.economic_value, b.dwelling_value, b.effect)
        assert name.endswith("⚠") == bool(b.unconfirmed), bid


def test_settlements_match_the_reference() -> None:
    """§12: phase, food + energy cost, terrain, econ, dwell; the hand at start and one card per phase A-D."""
    rows = md_rows()
    for sid, s in CATALOG.settlements.items():
        section, (no, name, phase, cost, terrain, econ, dwell) = rows[sid]
        assert s.ref == f"§12 Settlements, {sid} {s.name}" and name.removesuffix(" ⚠") == s.name
        assert (s.phase if s.phase != "start" else "in hand at start") == phase
        assert f"{s.food} + {s.energy}" == cost and [t.lower() for t in terrain.split("/")] == s.terrain
        assert (s.economic_value, s.dwelling_value) == (int(econ), int(dwell))
        assert name.endswith("⚠") == bool(s.unconfirmed), sid
    assert CATALOG.starting_settlements == ("S1", "S2", "S3", "S4")
    assert CATALOG.settlement_cards_by_phase == {"A": "S5", "B": "S6", "C": "S7", "D": "S8"}


def test_the_unconfirmed_rows_carry_their_mark_and_alternative() -> None:
    """§16 table: every entry sits on its row with the recommended value kept and the other one beside it."""
    b, s, m = CATALOG.buildings, CATALOG.settlements, CATALOG.modes
    marked = [x.unconfirmed for x in (*b.values(), *s.values(), *m.values()) if x.unconfirmed]
    assert set(marked) == set(reference()["unconfirmed"])
    assert all(x.note for x in (*b.values(), *s.values(), *m.values()) if x.unconfirmed or x.confirmation != "confirmed")

    def alt(row) -> dict:
        return {a.field: a.value for a in row.alternatives}

    assert b["I35"].dwelling_value == 9 and alt(b["I35"]) == {"dwelling_value": 2}
    assert b["I35"].confirmation == "disputed_value" and b["F35"].confirmation == "disputed_repeat"
    assert [st.max for st in b["F35"].effect_steps] == [1, None] and alt(b["F35"]) == {"effect_steps[1].max": 1}
    assert b["I17"].effect_steps[0].out["whiskey"] == 1 and alt(b["I17"]) == {"effect_steps[0].out.whiskey": 2}
    assert b["I30"].effect_steps[1].max == 4 and alt(b["I30"]) == {"effect_steps[1].max": None}
    assert b["I37"].cost == {"wood": 2, "clay": 4} and alt(b["I37"]) == {"cost": {"clay": 4}}
    assert (b["I23"].economic_value, b["I23"].dwelling_value) == (7, 1)
    assert alt(b["I23"]) == {"economic_value": 2, "dwelling_value": 6}
    assert b["I24"].dwelling_value == 8 and alt(b["I24"]) == {"dwelling_value": 9}
    assert b["I31"].effect_steps[0].in_ == {"coal": 1} and alt(b["I31"]) == {"effect_steps[0].in": {"peat": 1}}
    assert isinstance(b["I10"].effect_steps[1], UseBuilding)
    assert alt(b["I10"]) == {"effect_steps": [{"op": "gain", "out": {"malt": 1}}]}
    assert isinstance(b["G26"].effect_steps[0], Convert) and b["G26"].effect_steps[0].max == 1
    assert alt(b["G26"]) == {"effect_steps[0].max": None}
    assert b["G41"].effect_steps[1].rate["two_player_long"] == 1.5 and b["G41"].alternatives == []
    assert (s["S6"].food, s["S6"].energy) == (5, 6) and alt(s["S6"]) == {"food": 3, "energy": 3}
    assert (s["S7"].economic_value, s["S7"].dwelling_value) == (8, 6)
    assert alt(s["S7"]) == {"economic_value": 3, "dwelling_value": 4}
    assert m["solo"].rounds == 32 and m["solo"].settlement_phase_in_round.E == 32
    assert alt(m["solo"]) == {"rounds": 31, "settlement_phase_in_round.E": 31}
    assert alt(m["two_player_long"]) == {"settlement_phase_in_round.E": None}
    assert m["four_player_short"].unconfirmed == m["three_player_short"].unconfirmed != ""


def test_goods_conversions_wheel_and_landscapes_match_the_reference() -> None:
    """§1, §2, §2.1, §3, §4, §7.1: the tables beside the buildings, unchanged but for the added ref/mark."""
    ref, game = reference(), seed("game.json")
    assert [{k: v for k, v in g.items() if k != "ref"} for g in game["goods"]] == ref["goods"]
    assert [g["ref"] for g in game["goods"]] == [f"§2 Goods, {g['name']}" for g in ref["goods"]]
    assert game["basic_goods"] == ref["basic_goods"] == ["wood", "peat", "grain", "livestock", "clay", "coin"]
    assert [{k: v for k, v in c.items() if k != "ref"} for c in game["free_conversions"]] == ref["free_conversions"]
    for key in ("components", "production_wheel", "heartland", "work_contract"):
        assert {k: v for k, v in game[key].items() if k not in ADDED} == ref[key], key
    lands = copy.deepcopy(game["landscapes"])
    mountain = lands["plots"]["sides"]["mountain"]["cells"][1]
    assert mountain.pop("single_space") is True and mountain["rows"] == [0, 1]
    mountain["rows"] = "0-1 (one space spanning both rows)"  # the reference's text for the one mountain space
    assert {k: v for k, v in lands.items() if k not in ADDED} == ref["landscapes"]
    w = CATALOG.game.production_wheel
    assert w.front_values == [0, 2, 3, 4, 5, 6, 6, 7, 7, 8, 8, 9, 10]
    assert w.back_values == [0, 1, 2, 2, 3, 4, 4, 5, 6, 6, 7, 8, 10]


def test_modes_match_the_reference() -> None:
    """§5.3, §13: every mode's fields; the short 3-player game's "same as" rows resolved to the 4-player ones."""
    ref = reference()["modes"]
    assert list(CATALOG.modes) == list(ref)
    for mid, mine in seed("game.json")["modes"].items():
        theirs = copy.deepcopy(ref[mid])
        for k in ("extra_rules", "round_start_goods"):
            if theirs.get(k) == "same as four_player_short":
                theirs[k] = ref["four_player_short"][k]
        assert {k: v for k, v in mine.items() if k not in ADDED | {"selection"}} == theirs, mid
    short = CATALOG.modes["four_player_short"]
    assert short.round_start_goods[8] == {"stone": 1, "coin5": 1} and short.round_start_goods[13] == {}
    assert CATALOG.modes["two_player"].settlement_phase_in_turn.D == 28
    assert CATALOG.modes["two_player"].settlement_phase_in_round is None


def test_building_selection_by_mode() -> None:
    """§5.2: buildings per mode and variant, and cards per stack for 4 / 3 / 2 players."""
    counts = {"four_player": (41, 41), "three_player": (33, 33), "two_player": (24, 24), "two_player_long": (38, 41),
              "solo": (37, 41), "three_player_short": (24, 24), "four_player_short": (33, 33)}
    for mode, (fr, ir) in counts.items():
        assert (len(CATALOG.selection(mode, "france")), len(CATALOG.selection(mode, "ireland"))) == (fr, ir), mode
    assert set(CATALOG.selection("four_player", "france")) - set(CATALOG.selection("solo", "france")) == {
        "F10", "F14", "F29", "F31"}
    assert CATALOG.modes["solo"].selection.outside_display == ["G13"]
    assert len(CATALOG.selection("four_player_short", "france", optional_removed=True)) == 32
    stacks = {"four_player": (13, 6, 7, 7, 8), "three_player": (10, 5, 5, 6, 7), "two_player": (7, 4, 4, 4, 5)}
    for mode, sizes in stacks.items():
        for variant in ("france", "ireland"):
            got = tuple(len(CATALOG.stack(mode, variant, p)) for p in ("start", "A", "B", "C", "D"))
            assert got == sizes, (mode, variant)


def test_the_catalog_hash() -> None:
    """The hash is SHA-256 of the three files sorted by name, NUL-joined, and pinned (STYLE 3.8 #5)."""
    raw = raw_files()
    assert re.fullmatch(r"[0-9a-f]{64}", CATALOG_HASH)
    assert CATALOG_HASH == hashlib.sha256(b"\x00".join(raw[f] for f in sorted(raw))).hexdigest()
    assert CATALOG_HASH == PINNED
    assert load().hash == CATALOG_HASH
    raw["settlements.json"] = raw["settlements.json"].replace(b'"source"', b' "source"', 1)
    assert parse(raw).hash != CATALOG_HASH


def edit(file: str, change) -> dict[str, bytes]:
    """The seed bytes with one file's decoded JSON changed by `change`."""
    raw = raw_files()
    data = json.loads(raw[file])
    change(data)
    raw[file] = json.dumps(data).encode()
    return raw


def _set(path: list, value):
    def change(data):
        node = data
        for k in path[:-1]:
            node = node[k]
        node[path[-1]] = value
    return change


def _del(path: list):
    def change(data):
        node = data
        for k in path[:-1]:
            node = node[k]
        del node[path[-1]]
    return change


MALFORMED = [
    ("buildings.json", _set(["buildings", 5, "terrain"], ["swamp"]), r"buildings\[5\] \(F03 Grain Storage\).*terrain"),
    ("buildings.json", _set(["buildings", 3, "effect_steps", 0, "op"], "teleport"), r"buildings\[3\] \(G01 Priory\)"),
    ("buildings.json", _set(["buildings", 4, "cost"], {"gold": 2}), r"buildings\[4\] \(G02 Cloister Courtyard\).*cost"),
    ("buildings.json", _set(["buildings", 4, "effect_steps", 1, "options", 0], {"unobtainium": 6}),
     r"buildings\[4\] \(G02 Cloister Courtyard\).*effect_steps\[1\].*unobtainium"),
    ("buildings.json", _set(["buildings", 19, "effect_steps", 0, "out"], {"whiskey": 1}),
     r"\(F11 Harbor Promenade\).*not of variant france"),
    ("buildings.json", _set(["buildings", 6, "id"], "F03"), r"buildings\[6\] \(F03 Granary\).*duplicate"),
    ("buildings.json", _set(["buildings", 6, "phase"], "E"), r"\(I03 Granary\).*phase"),
    ("buildings.json", _set(["buildings", 6, "player_mark"], "5"), r"\(I03 Granary\).*player mark"),
    ("buildings.json", _set(["buildings", 6, "uses_production_wheel"], True), r"\(I03 Granary\).*uses_production_wheel"),
    ("buildings.json", _set(["buildings", 6, "excluded_in_modes"], ["six_player"]), r"\(I03 Granary\).*six_player"),
    ("buildings.json", _set(["buildings", 6, "player_mark"], "3+"), r"game\.json: modes\.three_player\.selection.*ireland selects 34"),
    ("buildings.json", _set(["buildings", 6, "excluded_in_modes"], ["solo"]), r"buildings\[6\] \(I03 Granary\).*modes\.solo\.selection"),
    ("buildings.json", _del(["buildings", 18, "note"]), r"\(I10 Cottage\).*needs a note"),
    ("buildings.json", _set(["buildings", 18, "alternatives", 0, "field"], "effect_steps[7]"),
     r"\(I10 Cottage\).*effect_steps\[7\]"),
    ("buildings.json", _set(["buildings", 0, "extra"], 1), r"buildings\[0\] \(H1 Clay Mound\).*extra"),
    ("settlements.json", _set(["settlements", 7, "terrain"], ["mountain"]), r"settlements\[7\] \(S8 Hilltop Village\)"),
    ("settlements.json", _set(["settlement_cards_by_phase", "B"], "S7"), r"settlement_cards_by_phase\.B"),
    ("game.json", _set(["goods", 0, "flip_side"], "peat"), r"game\.json: goods\[0\] \(wood\).*flip side"),
    ("game.json", _set(["modes", "solo", "selection", "exclude"], ["F10", "F14", "F29", "F99"]),
     r"modes\.solo\.selection.*F99"),
    ("game.json", _set(["modes", "two_player", "wheel"], "front"), r"modes\.two_player\.wheel"),
    ("game.json", _set(["heartland", "cells", 4, "card"], "H1 Clay Pit"), r"heartland cell \(0,4\)"),
    ("game.json", _set(["stacks_by_players", "by_players", "3", "A"], 6), r"stacks_by_players\[3\]"),
]


@pytest.mark.parametrize(("file", "change", "message"), MALFORMED, ids=[m[2][:40] for m in MALFORMED])
def test_a_malformed_row_fails_naming_the_row(file, change, message) -> None:
    """Catalog validation (§2, §3, §5.2, §11, §12, §16): a bad row is refused with its file and row."""
    with pytest.raises(CatalogError, match=message) as err:
        parse(edit(file, change))
    assert str(err.value).startswith("seeds/ora_et_labora/")


def test_the_unedited_files_parse() -> None:
    """The malformed cases above fail because of their edit, not because of the re-encoding."""
    raw = {f: json.dumps(json.loads(b)).encode() for f, b in raw_files().items()}
    assert len(parse(raw).buildings) == 70
