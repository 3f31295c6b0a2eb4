"""Every rules citation resolves in the project's own rules documents (issue #29 item 7).

The catalog rows' `ref`s and the `§` citations of a game's code, README and tests name sections
of docs/rules/<game>.md; each must exist there as a heading (`## 13.`, `### 11.1`), and an
item a citation names must be in that section (`§15 #3`, `§14 Q1`: a table row or numbered
entry; `§13 row 9`: a table row; `§14 example 2`: a heading). And those places no longer send
readers to the rules reference beside the repository (`../shared`).

One row of DOCS per rules document. A row lists the places whose citations default to it;
a citation after a document file's name (`seven-wonders.md §13`) or one of a row's `aliases`
(`Edifice §12.2`) on its line is looked up in the last one named instead. When several
rows match a file, the first wins: put the narrower row first.
To add a game: add its row(s); nothing else changes.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules"


@dataclass(frozen=True)
class Doc:
    doc: str
    """The file under docs/rules/."""
    places: tuple[str, ...]
    """Globs (from the repository root) of the files whose citations default to this document:
    seeds' *.json (their `ref` and `source` fields), *.py, *.md."""
    aliases: tuple[str, ...] = ()
    """Words that, earlier on a citation's line, send it here from any place of the game."""


DOCS: tuple[Doc, ...] = (
    Doc("seven-wonders-edifice.md", ("games/seven_wonders/edifice.py", "seeds/seven_wonders/edifice.json",
                                     "tests/unit/games/seven_wonders/test_edifice_*.py"), aliases=("Edifice",)),
    Doc("seven-wonders.md", ("games/seven_wonders/**/*.py", "games/seven_wonders/**/*.md",
                             "seeds/seven_wonders/*.json", "tests/unit/games/seven_wonders/**/*.py")),
    Doc("seven-wonders-duel.md", ("games/seven_wonders_duel/**/*.py", "games/seven_wonders_duel/**/*.md",
                                  "seeds/seven_wonders_duel/*.json", "seeds/seven_wonders_duel/*.md",
                                  "tests/unit/games/seven_wonders_duel/**/*.py",
                                  "tests/unit/games/test_*_seven_wonders_duel.py")),
    Doc("arkadia.md", ("games/arkadia/**/*.py", "games/arkadia/**/*.md", "seeds/arkadia/*.json", "seeds/arkadia/*.md",
                       "tests/unit/games/arkadia/**/*.py", "tests/unit/games/test_*_arkadia.py")),
    Doc("ora-et-labora.md", ("games/ora_et_labora/**/*.py", "games/ora_et_labora/**/*.md", "seeds/ora_et_labora/*.json",
                             "tests/unit/games/ora_et_labora/**/*.py", "tests/unit/games/test_*_ora_et_labora.py")),
)

CITE = re.compile(r"§\s?(\d+(?:\.\d+)*)(?:\s+(#\s?\d+|Q\d+|row \d+|example \d+|ex\. ?\d+))?")
"""A section number and, if given, an item of it: a ruling `#N`/`QN`, a table `row N`, an `example N`."""
HEADING = re.compile(r"^#{2,4} (\d+(?:\.\d+)*)\.?\s")
BESIDE = re.compile(r"\.\./shared|shared/rules")


def headings(doc: str) -> set[str]:
    """The section numbers of a rules document: `## 13.` -> '13', `### 11.1 x` -> '11.1'."""
    text = (RULES / doc).read_text(encoding="utf-8")
    return {m.group(1) for line in text.splitlines() if (m := HEADING.match(line))}


def sections(doc: str) -> dict[str, str]:
    """Each numbered section's text, up to the next numbered heading."""
    out: dict[str, str] = {}
    current = None
    for line in (RULES / doc).read_text(encoding="utf-8").splitlines():
        if m := HEADING.match(line):
            current = m.group(1)
            out[current] = ""
        elif current is not None:
            out[current] += line + "\n"
    return out


def has_item(body: str, item: str) -> bool:
    """Whether a section's text holds `item`: rulings and rows as a table row (`| 12 |`, `| #12 |`,
    `| Q3 |`) or a numbered list entry (`12. ...`); examples as a heading (`### Example 2 ...`)."""
    kind, n = re.fullmatch(r"(#|Q|row|example|ex\.)\s?(\d+)", item).groups()
    if kind in ("example", "ex."):
        return re.search(rf"^#+ (?:Example|Ex\.) {n}\b", body, re.M | re.I) is not None
    label = f"Q{n}" if kind == "Q" else rf"#?{n}"
    return re.search(rf"^(?:\|\s*{label}\s*\||{label}\.\s)", body, re.M) is not None


def places(row: Doc) -> list[Path]:
    """The files of `row` that no earlier row claims."""
    earlier = {p for r in DOCS[:DOCS.index(row)] for g in r.places for p in ROOT.glob(g)}
    return sorted({p for g in row.places for p in ROOT.glob(g) if p.is_file()} - earlier)


def texts(path: Path) -> list[str]:
    """What of a file can cite a section: a seed's `ref`/`source` strings; any other file's lines."""
    if path.suffix != ".json":
        return path.read_text(encoding="utf-8").splitlines()
    out: list[str] = []

    def walk(node) -> None:
        if isinstance(node, dict):
            out.extend(v for k, v in node.items() if k in ("ref", "source") and isinstance(v, str))
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(json.loads(path.read_text(encoding="utf-8")))
    return out


def target(row: Doc, before: str) -> str:
    """The document a citation means: the last document file or alias named in `before`, else `row`'s."""
    names = {d.doc: d.doc for d in DOCS} | {a: d.doc for d in DOCS for a in d.aliases}
    found = [(m.end(), names[m.group(0)]) for name in names
             for m in re.finditer(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", before)]
    return max(found)[1] if found else row.doc


def citations(row: Doc) -> list[tuple[str, str, str, str | None]]:
    """(where, document, section, item or None) of every citation in the row's places."""
    out = []
    for path in places(row):
        for n, text in enumerate(texts(path), 1):
            for m in CITE.finditer(text):
                where = f"{path.relative_to(ROOT)}:{n}: {text.strip()[:100]}"
                out.append((where, target(row, text[:m.start()]), m.group(1), m.group(2)))
    return out


@pytest.mark.parametrize("row", DOCS, ids=[d.doc for d in DOCS])
def test_every_cited_section_is_a_heading_of_the_rules_document(row: Doc) -> None:
    assert (RULES / row.doc).is_file(), f"docs/rules/{row.doc} is missing"
    found = citations(row)
    assert found, f"no citation found in {row.places}: the row's globs are wrong"
    known = {d.doc: sections(d.doc) for d in DOCS}
    missing = [f"{where}  -> §{section}{' ' + item if item else ''} not in docs/rules/{doc}"
               for where, doc, section, item in found
               if section not in known[doc] or (item and not has_item(known[doc][section], item))]
    assert missing == []


@pytest.mark.parametrize("row", DOCS, ids=[d.doc for d in DOCS])
def test_no_place_of_the_game_points_beside_the_repository(row: Doc) -> None:
    offending = [f"{path.relative_to(ROOT)}:{n}: {line.strip()[:100]}" for path in places(row)
                 for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if BESIDE.search(line)]
    assert offending == []


def test_no_file_of_the_repository_points_beside_it() -> None:
    """Every game's document has landed, so no md/py/json/toml file anywhere (the rows' places
    and the rest: READMEs, seeds, services, tests) names the rules beside the repository; the
    two checkers that spell out what they look for are the exception."""
    exempt = {Path(__file__).resolve(), ROOT / "tests" / "unit" / "test_outside_reads.py"}
    skip = {".git", ".venv", "venv", "node_modules", "__pycache__", ".hypothesis", ".pytest_cache", "build", "dist"}
    offending = []
    for top, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in skip and not d.endswith(".egg-info")]
        for name in files:
            path = Path(top) / name
            if path.suffix not in {".md", ".py", ".json", ".toml"} or path in exempt:
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            if "shared" in text:  # the cheap common case first
                offending += [f"{path.relative_to(ROOT)}:{n}: {line.strip()[:100]}"
                              for n, line in enumerate(text.splitlines(), 1) if BESIDE.search(line)]
    assert offending == []


def test_the_document_of_every_row_says_what_it_is() -> None:
    for row in DOCS:
        head = (RULES / row.doc).read_text(encoding="utf-8")[:3000]
        assert head.startswith("# ") and "engine" in head and "../shared" not in head, row.doc


def test_a_citation_of_a_missing_section_is_caught(tmp_path: Path) -> None:
    """The checker itself: headings are parsed by number, a named document wins over the default,
    items are found in their section."""
    assert {"0", "2", "11.1", "13"} <= headings("seven-wonders.md")
    assert "99.9" not in headings("seven-wonders.md")
    base, edifice = DOCS[1], DOCS[0]
    assert target(base, "see seven-wonders-edifice.md ") == "seven-wonders-edifice.md"
    assert target(base, "(Edifice ") == "seven-wonders-edifice.md"
    assert target(edifice, "the base game's seven-wonders.md ") == "seven-wonders.md"
    assert target(base, "ref: ") == "seven-wonders.md"
    seed = tmp_path / "x.json"
    seed.write_text(json.dumps({"source": "docs/rules/x.md §1", "rows": [{"ref": "§13 row 2", "name": "§4"}]}))
    assert texts(seed) == ["docs/rules/x.md §1", "§13 row 2"]
    assert [m.group(1) for m in CITE.finditer("§2.1-§2.3, § 9 and §11.1 Rhodes A1")] == ["2.1", "2.3", "9", "11.1"]
    cited = [m.groups() for m in CITE.finditer("§15 #27, §14 Q1, §13 row 9, §14 example 2 and §3 step 6")]
    assert cited == [("15", "#27"), ("14", "Q1"), ("13", "row 9"), ("14", "example 2"), ("3", None)]
    rules = sections("seven-wonders.md")
    assert has_item(rules["15"], "#27") and not has_item(rules["15"], "#28")
    assert has_item(rules["13"], "row 78") and not has_item(rules["13"], "row 79")
    assert has_item(rules["14"], "example 6") and not has_item(rules["14"], "example 7")
    assert has_item(sections("seven-wonders-edifice.md")["14"], "Q16")
    assert not has_item(sections("seven-wonders-edifice.md")["14"], "Q17")
    assert has_item("1. **A ruling.** text\n12. **Another.**\n", "#12") and not has_item("12 coins\n", "#12")
