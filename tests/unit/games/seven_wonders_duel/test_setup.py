"""Setup and the wonder draft: §3, §4 (face-up/face-down positions), §2 counts."""

from __future__ import annotations

import msgspec
import pytest
from msgspec.structs import replace

from games.contract import Rejection, Seed
from games.fold import replay
from games.seven_wonders_duel import GAME
from games.seven_wonders_duel.catalog import CATALOG
from games.seven_wonders_duel.events import AgeStarted, GameCreated, Options, WonderDrafted
from games.seven_wonders_duel.setup import FIRST_GAME, deal

from .table import Table


@pytest.mark.parametrize("seed", [b"a", b"b", b"c", b"long seed 123"])
def test_seeded_setup_writes_every_random_outcome(seed: bytes) -> None:
    """§3 steps 4, 7, 8: 5+5 tokens, 8 drafted wonders, 3 removed per age, 3 guilds in Age III."""
    (created,) = GAME.setup(GAME.presets["2p"], Seed(seed))
    assert isinstance(created, GameCreated)
    assert len(created.board_tokens) == 5 and len(created.box_tokens) == 5
    assert sorted(created.board_tokens + created.box_tokens) == sorted(CATALOG.tokens)
    assert len(set(created.draft)) == 8 and set(created.draft) <= set(CATALOG.wonders)
    assert len(set(created.guilds)) == 3 and set(created.guilds) <= set(CATALOG.decks["guild"])
    for age in (1, 2, 3):
        cards, out = created.structures[age - 1], created.removed[age - 1]
        assert len(cards) == 20 and len(out) == 3
        extra = created.guilds if age == 3 else ()
        assert sorted(cards + out) == sorted(CATALOG.decks[f"age{age}"] + extra)
    assert set(created.guilds) <= set(created.structures[2])
    assert created.rng.startswith("sha256-ctr/1")


def test_setup_is_deterministic_and_seed_dependent() -> None:
    o = GAME.presets["2p"]
    assert deal(o, b"x") == deal(o, b"x") != deal(o, b"y")


def test_face_down_positions_follow_the_layouts() -> None:
    """§4: Age I rows 2 and 4, Age II rows 2 and 4, Age III rows 2, 4 and 6 are face down."""
    down = {1: {2, 3, 4, 9, 10, 11, 12, 13}, 2: {6, 7, 8, 9, 10, 15, 16, 17}, 3: {2, 3, 4, 9, 10, 15, 16, 17}}
    for age, layout in enumerate(CATALOG.layouts, 1):
        assert {p.index for p in layout if not p.face_up_at_setup} == down[age]


def test_draft_is_one_two_one_then_starts_with_the_other_player() -> None:
    """§3 step 7: P1 1, P2 2, P1 the last; round 2: P2 1, P1 2, P2 the last; then P1 starts Age I."""
    a = ("the_pyramids", "the_sphinx", "piraeus", "the_mausoleum")
    b = ("circus_maximus", "the_great_library", "the_appian_way", "the_colossus")
    t = Table(wonders=(a, b), first=1)  # seat 1 is P1
    picks = [(e.seat, e.wonder) for e in t.of(WonderDrafted)]
    assert [s for s, _ in picks] == [1, 0, 0, 1, 0, 1, 1, 0]
    assert set(t.city(1).wonders) == set(a) and set(t.city(0).wonders) == set(b)
    (started,) = t.of(AgeStarted)
    assert started.age == 1 and started.seat == 1 and t.seat == 1


def test_only_the_revealed_wonders_may_be_drafted_and_the_view_hides_round_two() -> None:
    events = GAME.setup(Options(), Seed(b"draft"))
    state = replay(GAME, events)
    created = events[0]
    p1 = created.first
    assert GAME.to_act(state) == (p1,)
    out = GAME.decide(state, p1, GAME.parse_command(f"draft {created.draft[5]}"))
    assert isinstance(out, Rejection) and out.code == "wonder_not_offered"
    assert GAME.decide(state, 1 - p1, GAME.parse_command(f"draft {created.draft[0]}")).code == "not_your_turn"
    v = GAME.view(state, None)
    assert set(v.draft) == set(created.draft[:4])
    text = msgspec.json.encode(v).decode()
    assert not any(f'"{w}"' in text for w in created.draft[4:])


def test_first_game_deals_the_fixed_wonders() -> None:
    """§3 step 7, first-game option."""
    t = Table()
    assert t.city(0).wonders == FIRST_GAME[:4] and t.city(1).wonders == FIRST_GAME[4:]
    assert t.state.phase == "play" and t.state.age == 1


def test_fixture_is_validated() -> None:
    t = Table()
    fx = deal(Options(), b"ok")
    with pytest.raises(ValueError):
        GAME.setup(Options(), replace(fx, guilds=fx.guilds[:2]))
    with pytest.raises(ValueError):
        GAME.setup(Options(players=3), fx)
    assert t.state.age == 1
