"""SVG boards (issue #25): every game draws its view as a well-formed, self-contained SVG at
every stage of a game, for every seat and a spectator; golden snapshots per game fix the
drawing (`pytest --update-golden` rewrites them: review the diff); and a board never shows
what its reader may not see (another seat's hand, Duel's face-down cards).
"""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import msgspec
import pytest

from games.contract import Rejection, Seed
from games.fold import replay
from games.registry import GAMES

SVG_NS = "{http://www.w3.org/2000/svg}"
GOLDEN = Path(__file__).resolve().parents[2] / "golden"
RANDOM_CASES = [("seven_wonders", "3p"), ("seven_wonders", "7p_side_b"), ("seven_wonders", "2p_free_city"),
                ("seven_wonders", "4p_edifice_all_boards"), ("seven_wonders_duel", "2p"),
                ("seven_wonders_duel", "2p_first_game"), ("arkadia", "2p"), ("arkadia", "4p_random_lot"),
                ("ora_et_labora", "4p_france"), ("ora_et_labora", "1p_ireland")]
GOLDEN_CASES = [("seven_wonders", "3p"), ("seven_wonders_duel", "2p"), ("arkadia", "2p"),
                ("ora_et_labora", "3p_short_france")]
"""One recorded game per game (tests/golden/<game>/<preset>.cmds.jsonl) gives the snapshots' positions."""


def _random_positions(game_id: str, preset: str, seed: int = 7, count: int = 4) -> list:
    """`count` states of a seeded random game, evenly spaced from its start to its end."""
    game = GAMES[game_id]
    state = replay(game, game.setup(game.presets[preset], Seed(f"svg-{seed}".encode())))
    rng = random.Random(seed)
    states = [state]
    while game.result(state) is None:
        seat = rng.choice(game.to_act(state))
        for e in game.decide(state, seat, rng.choice(game.legal_commands(state, seat))):
            state = game.evolve(state, e)
        states.append(state)
    n = len(states) - 1
    return [states[i * n // (count - 1)] for i in range(count)]


def _readers(game_id: str, preset: str) -> list[int | None]:
    return [None, *range(GAMES[game_id].presets[preset].players)]


def check_svg(doc: str) -> ET.Element:
    """`doc` is well-formed SVG with a viewBox, and self-contained (no script, link or image)."""
    root = ET.fromstring(doc)
    assert root.tag == SVG_NS + "svg"
    box = root.get("viewBox", "").split()
    assert len(box) == 4 and float(box[2]) > 0 and float(box[3]) > 0, root.get("viewBox")
    assert root.find(SVG_NS + "title") is not None and root.find(SVG_NS + "text") is not None
    for el in root.iter():
        assert el.tag.removeprefix(SVG_NS) not in ("script", "image", "foreignObject", "a", "use", "style"), el.tag
        assert not any("href" in k for k in el.attrib), el.attrib
        assert not any(k.startswith("on") for k in el.attrib), el.attrib
    assert "url(" not in doc and "@import" not in doc
    return root


def words(doc: str) -> str:
    """Every text and tooltip of an SVG, one per line (what a reader can see)."""
    root = ET.fromstring(doc)
    return "\n".join(el.text for el in root.iter() if el.text and el.text.strip())


def test_every_game_draws_a_board() -> None:
    assert {g.id for g in GAMES.values() if g.svg is not None} == set(GAMES)


@pytest.mark.parametrize("game_id,preset", RANDOM_CASES, ids=[f"{g}-{p}" for g, p in RANDOM_CASES])
def test_boards_are_valid_svg_at_every_stage(game_id: str, preset: str) -> None:
    game = GAMES[game_id]
    for state in _random_positions(game_id, preset):
        for seat in _readers(game_id, preset):
            check_svg(game.svg(game.view(state, seat)))


def test_text_is_escaped() -> None:
    from games import svgkit as K

    doc = K.document(100, 50, [*K.card(0, 0, 90, 20, "#fff", "Tom & Jerry <b>"), K.text(0, 40, "a\"b'c")], "x & y")
    root = check_svg(doc)
    assert "Tom & Jerry <b>" in words(doc) and "x & y" == root.find(SVG_NS + "title").text  # type: ignore[union-attr]


def _golden_positions(game_id: str, preset: str) -> list[tuple[str, object, int | None]]:
    """(name, state, reader): the recorded game's start as a spectator, its middle as seat 0,
    its end as a spectator."""
    game = GAMES[game_id]
    header, *lines = [json.loads(x) for x in (GOLDEN / game_id / f"{preset}.cmds.jsonl").read_text().splitlines()]
    state = replay(game, game.setup(game.presets[preset], Seed(bytes.fromhex(header["seed"]))))
    out = [("start-spectator", state, None)]
    for i, line in enumerate(lines, 1):
        cmd = game.parse_command(line["command"])
        assert not isinstance(cmd, Rejection), line
        events = game.decide(state, line["seat"], cmd)
        assert not isinstance(events, Rejection), (line, events)
        for e in events:
            state = game.evolve(state, e)
        if i == len(lines) // 2:
            out.append(("middle-seat0", state, 0))
    out.append(("end-spectator", state, None))
    return out


@pytest.mark.parametrize("game_id,preset", GOLDEN_CASES, ids=[g for g, _ in GOLDEN_CASES])
def test_golden_boards(game_id: str, preset: str, request) -> None:
    game = GAMES[game_id]
    update = request.config.getoption("--update-golden")
    for name, state, seat in _golden_positions(game_id, preset):
        doc = game.svg(game.view(state, seat))
        check_svg(doc)
        path = GOLDEN / "svg" / game_id / f"{preset}-{name}.svg"
        if update:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(doc)
        assert doc == path.read_text(), f"{path} differs: rerun with --update-golden and review the diff"


# -- secrecy ---------------------------------------------------------------------------------------

def _strings(view: object) -> set[str]:
    """Every string anywhere in a view document."""
    out: set[str] = set()

    def walk(x: object) -> None:
        if isinstance(x, str):
            out.add(x)
        elif isinstance(x, dict):
            for k, val in x.items():
                walk(k)
                walk(val)
        elif isinstance(x, list | tuple):
            for val in x:
                walk(val)

    walk(msgspec.to_builtins(view))
    return out


def _hidden_7w(state, seat: int) -> set[str]:
    return set(state.hands[seat]) if state.hands else set()


def _hidden_arkadia(state, seat: int) -> set[str]:
    return set(state.screens[seat].hand) if state.screens else set()


def _hidden_duel(state, seat: int) -> set[str]:
    """Duel has no hands: the cards lying face down in the structure and the later Ages'
    structures are hidden from all."""
    if state.phase not in ("draft", "play") or not state.structures:
        return set()
    later = {c for structure in state.structures[state.age:] for c in structure}
    if not state.age:
        return later
    structure = state.structures[state.age - 1]
    return later | {structure[p] for p in range(20) if state.present >> p & 1 and not state.face_up >> p & 1}


def _names(game_id: str):
    if game_id == "seven_wonders":
        from games.seven_wonders.catalog import CATALOG as C7

        return lambda i: C7.cards[i].name if i in C7.cards else None
    if game_id == "seven_wonders_duel":
        from games.seven_wonders_duel.catalog import CATALOG as CD

        return lambda i: CD.cards[i].name if i in CD.cards else None
    from games.arkadia.catalog import CATALOG as CA
    from games.arkadia.view import card_name

    return lambda i: card_name(i) if i in CA.cards else None


SECRET_CASES = [("seven_wonders", "4p", _hidden_7w), ("seven_wonders", "3p_edifice", _hidden_7w),
                ("seven_wonders_duel", "2p", _hidden_duel), ("arkadia", "3p", _hidden_arkadia)]


@pytest.mark.parametrize("game_id,preset,hidden", SECRET_CASES, ids=[f"{g}-{p}" for g, p, _ in SECRET_CASES])
def test_boards_never_show_hidden_cards(game_id: str, preset: str, hidden) -> None:
    """A hidden card's name is absent from every other reader's board, unless the same words
    are public for that reader (its view or text render: 7 Wonders has two copies of some
    cards, Arkadia's names are a form and a seal, a Duel card named "Statue" hides while
    "The Statue of Zeus" is open); the owner's board does show its hand, so the check can fail."""
    game, name = GAMES[game_id], _names(game_id)
    checked = 0
    for seed in (1, 2):
        for state in _random_positions(game_id, preset, seed, count=9):
            for reader in _readers(game_id, preset):
                v = game.view(state, reader)
                text = words(game.svg(v))
                # what the text render shows the same reader (card, wonder, token names) is public
                public = game.render(v) + "\n" + "\n".join(filter(None, map(name, _strings(v))))
                for owner in range(game.presets[preset].players):
                    secret = {name(c) for c in hidden(state, owner)}
                    if reader == owner and game_id != "seven_wonders_duel":
                        assert all(n in text for n in secret), (secret, reader)
                        continue
                    for n in secret:
                        pattern = rf"(?<!\w){re.escape(n)}(?!\w)"
                        if re.search(pattern, public):
                            continue
                        assert not re.search(pattern, text), f"{n!r} (hidden) on the board of reader {reader}"
                        checked += 1
    assert checked > 20, checked
